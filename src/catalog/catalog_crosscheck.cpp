// Checks data/gpus.json against an independent second source (tests/validation/gpu_spec_crosscheck.json), so a
// figure mistyped or copied from a wrong page in one file is caught by the other. Never throws.
#include <cmath>
#include <cstdio>

#include "catalog/catalog.h"
#include "catalog/json_text.h"

namespace gg::catalog {

std::vector<Problem> crosscheck_gpu_specs(const Catalog& catalog, std::string_view crosscheck_json,
                                          int& compared_count) {
    using nlohmann::json;
    std::vector<Problem> problems;
    compared_count = 0;
    auto report = [&](std::string pointer, std::string message) {
        problems.push_back({kCrosscheckFile, std::move(pointer), std::move(message)});
    };
    auto fmt = [](double x) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.6g", x);
        return std::string(buffer);
    };
    if (crosscheck_json.empty()) {
        report("", "the file is missing or empty");
        return problems;
    }
    // `check-data --dir` reads this file from disk: the same size, depth and value limits as other outside text.
    const json doc = parse_json_text(crosscheck_json).value;
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("gpus") || !doc["gpus"].is_array()) {
        report("", "must be a JSON object with a \"gpus\" array");
        return problems;
    }
    const json& list = doc["gpus"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = "/gpus/" + std::to_string(i);
        const json& entry = list[i];
        if (!entry.is_object() || !entry.contains("id") || !entry["id"].is_string()) {
            report(at, "each entry must be an object with a string \"id\"");
            continue;
        }
        const std::string id = entry["id"].get<std::string>();
        const engine::GpuSpec* gpu = catalog.find_gpu(id);
        if (gpu == nullptr) {
            report(at + "/id", "\"" + id + "\" is not in data/gpus.json (or was dropped for problems)");
            continue;
        }
        ++compared_count;
        auto number = [&](const char* key, double& out) {
            if (!entry.contains(key) || entry[key].is_null()) return false;  // the second source does not say
            if (!entry[key].is_number()) {
                report(at + "/" + key, "must be a number or null");
                return false;
            }
            out = entry[key].get<double>();
            return true;
        };
        double memory_gib = 0, bandwidth_gb_per_s = 0, fp32_tflops = 0;
        // Same units as data/gpus.json: GiB = 2^30 bytes, decimal GB/s, TFLOPS.
        if (number("memory_gib", memory_gib) && std::fabs(gpu->memory_bytes - memory_gib * 1073741824.0) > 0.5)
            report(at + "/memory_gib", id + ": data/gpus.json says " + fmt(gpu->memory_bytes / 1073741824.0) +
                                           " GiB, the second source " + fmt(memory_gib) + " GiB");
        auto relative = [&](const char* key, double catalog_value, double other, const char* unit) {
            const double off_fraction = std::fabs(catalog_value - other) / other;
            if (other <= 0 || off_fraction > kCrosscheckTolerance_fraction)
                report(at + "/" + key, id + ": data/gpus.json says " + fmt(catalog_value) + " " + unit +
                                           ", the second source " + fmt(other) + " (" + fmt(off_fraction * 100) +
                                           "% apart, 3% allowed)");
        };
        if (number("memory_bandwidth_gb_per_s", bandwidth_gb_per_s))
            relative("memory_bandwidth_gb_per_s", gpu->memory_bandwidth_bytes_per_s / 1e9, bandwidth_gb_per_s, "GB/s");
        if (number("fp32_tflops", fp32_tflops))
            relative("fp32_tflops", gpu->dense_flop_per_s.fp32 / 1e12, fp32_tflops, "TFLOPS");
    }
    return problems;
}

}  // namespace gg::catalog
