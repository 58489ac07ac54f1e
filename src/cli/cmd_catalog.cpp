// `gpuguide gpus`, `offers`, `settings` and `check-data`: the bundled catalog as a table or as JSON in base units,
// and the data check the build runs. Uses the catalog layer only.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/embedded_data.h"
#include "catalog/models.h"
#include "cli/command.h"
#include "cli/scenario_input.h"

namespace gg::cli {
namespace {

using nlohmann::json;

// Reports arguments other than the allowed flags; returns false (after a message on stderr) when there are any.
bool only_flags(const char* command, const std::vector<std::string>& args, std::vector<std::string> allowed,
                std::vector<bool>& seen) {
    seen.assign(allowed.size(), false);
    for (const std::string& a : args) {
        bool ok = false;
        for (std::size_t i = 0; i < allowed.size(); ++i)
            if (a == allowed[i]) ok = seen[i] = true;
        if (!ok) {
            std::fprintf(stderr, "gpuguide %s: unknown argument '%s' (see gpuguide help %s)\n", command, a.c_str(),
                         command);
            return false;
        }
    }
    return true;
}

void print_json(const json& j) {
    std::printf("%s\n", j.dump(2, ' ', false, json::error_handler_t::replace).c_str());
}

// Warns on stderr when the bundled data has problems, so a table is never silently short of records.
void warn_problems() {
    const auto& problems = catalog::embedded_catalog_problems();
    if (!problems.empty())
        std::fprintf(stderr, "gpuguide: the bundled data has %zu problem(s); records with problems are left out "
                             "(run gpuguide check-data)\n",
                     problems.size());
}

// Display units (the second of the two places where units are converted): GiB, GB/s, TFLOPS.
std::string tflops(double flop_per_s) {
    if (flop_per_s == 0) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.1f", flop_per_s / 1e12);
    return b;
}

int run_gpus(const std::vector<std::string>& args) {
    std::vector<bool> seen;
    if (!only_flags("gpus", args, {"--json"}, seen)) return kExitUsage;
    warn_problems();
    const auto& gpus = catalog::embedded_catalog().gpus;
    if (seen[0]) {
        json list = json::array();
        for (const auto& g : gpus) list.push_back(catalog::gpu_to_json(g));
        print_json({{"gpus", list}});
        return kExitOk;
    }
    std::printf("%-24s %7s %8s %7s %7s %7s %7s %6s  %s\n", "id", "mem", "bw", "fp32", "fp16*", "bf16*", "fp8*",
                "tdp", "name");
    std::printf("%-24s %7s %8s %7s %7s %7s %7s %6s\n", "", "GiB", "GB/s", "TFLOPS", "TFLOPS", "TFLOPS", "TFLOPS", "W");
    bool any_unknown = false;
    for (const auto& g : gpus) {
        const auto& f = g.dense_flop_per_s;
        // fp32 == 0 means no source publishes the card's rates (hardware.h DenseFlopPerS): unknown, not unsupported.
        const bool unknown = f.fp32 <= 0;
        any_unknown = any_unknown || unknown;
        auto rate = [&](double v) { return unknown ? std::string("?") : tflops(v); };
        char tdp[16];
        if (g.tdp_w > 0) std::snprintf(tdp, sizeof tdp, "%.0f", g.tdp_w);
        else std::snprintf(tdp, sizeof tdp, "?");
        std::printf("%-24s %7.0f %8.0f %7s %7s %7s %7s %6s  %s\n", g.id.c_str(), g.memory_bytes / engine::kBytesPerGiB,
                    g.memory_bandwidth_bytes_per_s / 1e9, rate(f.fp32).c_str(), rate(f.fp16).c_str(),
                    rate(f.bf16).c_str(), rate(f.fp8).c_str(), tdp, g.name.c_str());
    }
    std::printf("\n%zu GPUs. Dense peak rates (no sparsity); * = tensor rate with FP32 accumulate; - = unsupported;\n"
                "? = not published.%s\n"
                "Memory in GiB (2^30 bytes), bandwidth in GB/s (10^9 bytes/s). --json gives base units.\n",
                gpus.size(),
                any_unknown ? " Time estimates for such a card use its measured GEMM rates (docs/time-model.md sec. 2)."
                            : "");
    return kExitOk;
}

int run_offers(const std::vector<std::string>& args) {
    std::vector<bool> seen;
    if (!only_flags("offers", args, {"--json"}, seen)) return kExitUsage;
    warn_problems();
    const auto& offers = catalog::embedded_catalog().offers;
    if (seen[0]) {
        json list = json::array();
        for (const auto& o : offers) list.push_back(catalog::offer_to_json(o));
        print_json({{"offers", list}});
        return kExitOk;
    }
    // The provider goes last: names like "优云智算 (Compshare, UCloud)" have no fixed width in bytes.
    std::printf("%-44s %-26s %10s %-4s %-9s %-10s %s\n", "id", "gpu x count", "per hour", "", "billing", "as of",
                "provider");
    for (const auto& o : offers) {
        const std::string gpus = o.gpu_id + " x" + std::to_string(o.gpu_count);
        std::printf("%-44s %-26s %10.2f %-4s %-9s %-10s %s\n", o.id.c_str(), gpus.c_str(), o.price_per_hour,
                    o.currency.c_str(), catalog::billing_name(o.billing), o.as_of.c_str(), o.provider.c_str());
    }
    std::printf("\n%zu offers. Prices are for the whole instance; see --json for sources and notes.\n",
                offers.size());
    return kExitOk;
}

int run_settings(const std::vector<std::string>& args) {
    std::vector<bool> seen;
    if (!only_flags("settings", args, {"--json"}, seen)) return kExitUsage;
    warn_problems();
    const auto& s = catalog::embedded_catalog().settings;
    if (seen[0]) {
        print_json(catalog::settings_to_json(s));
        return kExitOk;
    }
    std::printf("exchange rate      %.4g CNY per USD (%s)\n", s.exchange_rate.cny_per_usd, s.exchange_rate.as_of.c_str());
    for (const auto& e : s.electricity)
        std::printf("electricity        %-24s %.4g %s/kWh%s\n", e.id.c_str(), e.price_per_kwh, e.currency.c_str(),
                    e.id == s.default_electricity_id ? "  (default)" : "");
    std::printf("host system        %.0f CNY, %.0f W\n", s.host_system.cost_cny, s.host_system.power_w);
    for (const auto& p : s.resale_value.points)
        std::printf("resale value       %3.0f months: %.0f%% of new\n", p.age_months, p.value_fraction * 100);
    std::printf("utilization        %.0f%%\n", s.utilization.value_fraction * 100);
    std::printf("memory reserve     %.0f%%\n", s.reserve.value_fraction * 100);
    if (s.storage.price_per_gb_month_cny > 0)
        std::printf("cloud storage      %.4g CNY per GB-month\n", s.storage.price_per_gb_month_cny);
    std::printf("\nSources: gpuguide settings --json\n");
    return kExitOk;
}

// A missing file reads as empty (its problems say what is missing); a file over the input limit is refused.
bool read_file(const std::string& path, std::string& out) {
    if (read_input_text(path, out) == ReadStatus::kTooLarge) {
        std::fprintf(stderr, "gpuguide check-data: %s\n", read_status_message(ReadStatus::kTooLarge, path, "the file").c_str());
        return false;
    }
    return true;
}

int run_check_data(const std::vector<std::string>& args) {
    bool as_json = false;
    std::string dir;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            as_json = true;
        } else if (args[i] == "--dir" && i + 1 < args.size()) {
            dir = args[++i];
        } else {
            std::fprintf(stderr, "gpuguide check-data: unknown argument '%s' (see gpuguide help check-data)\n",
                         args[i].c_str());
            return kExitUsage;
        }
    }
    std::vector<catalog::Problem> problems;
    catalog::Catalog loaded;
    std::string crosscheck_text;
    if (dir.empty()) {
        problems = catalog::embedded_catalog_problems();
        loaded = catalog::embedded_catalog();
        crosscheck_text = std::string(catalog::embedded_file(catalog::kCrosscheckFile));
    } else {
        // Files on disk: lets a contributor check an edit without rebuilding. A missing file reads as empty.
        std::string gpus, offers, settings;
        if (!read_file(dir + "/" + catalog::kGpusFile, gpus) || !read_file(dir + "/" + catalog::kOffersFile, offers) ||
            !read_file(dir + "/" + catalog::kSettingsFile, settings) ||
            !read_file(dir + "/" + catalog::kCrosscheckFile, crosscheck_text))
            return kExitUsage;
        loaded = catalog::parse_catalog(gpus, offers, settings, problems);
    }
    // The preset models (data/models.json): the embedded file, or the one in --dir.
    std::size_t model_count = catalog::embedded_model_problems().empty() ? engine::preset_models().size() : 0;
    if (dir.empty()) {
        problems.insert(problems.end(), catalog::embedded_model_problems().begin(),
                        catalog::embedded_model_problems().end());
    } else {
        std::string models;
        if (!read_file(dir + "/" + catalog::kModelsFile, models)) return kExitUsage;
        model_count = catalog::parse_models(models, catalog::kModelsFile, problems).size();
    }
    int compared_count = 0;
    if (!crosscheck_text.empty()) {
        for (auto& p : catalog::crosscheck_gpu_specs(loaded, crosscheck_text, compared_count))
            problems.push_back(std::move(p));
    }
    if (as_json) {
        json list = json::array();
        for (const auto& p : problems) list.push_back({{"file", p.file}, {"pointer", p.pointer}, {"message", p.message}});
        print_json({{"problems", list},
                    {"gpu_count", loaded.gpus.size()},
                    {"offer_count", loaded.offers.size()},
                    {"model_count", model_count},
                    {"crosschecked_gpu_count", compared_count}});
    } else {
        for (const auto& p : problems)
            std::printf("%s:%s: %s\n", p.file.c_str(), p.pointer.empty() ? "(top)" : p.pointer.c_str(),
                        p.message.c_str());
        std::printf("%s: %zu GPUs, %zu offers, %zu electricity prices, %zu models; %d GPUs cross-checked%s; "
                    "%zu problem(s)\n",
                    problems.empty() ? "ok" : "FAILED", loaded.gpus.size(), loaded.offers.size(),
                    loaded.settings.electricity.size(), model_count, compared_count,
                    crosscheck_text.empty() ? " (no tests/validation/gpu_spec_crosscheck.json)" : "", problems.size());
    }
    return problems.empty() ? kExitOk : kExitFailure;
}

const bool kRegistered =
    register_command({"gpus", "gpuguide gpus [--json]", "list the GPUs in the catalog",
                      "Lists the bundled GPUs: memory, bandwidth, dense peak rates, power.\n"
                      "  --json   {\"gpus\": [...]} in base units: memory_bytes, memory_bandwidth_bytes_per_s,\n"
                      "           dense_flop_per_s {fp32, tf32, fp16, fp16_fp16acc, bf16, fp8, int8} (fp16/bf16/fp8\n"
                      "           = FP32-accumulate rate; null = unsupported), tdp_w, ... (docs/catalog.md)",
                      run_gpus}) &&
    register_command({"offers", "gpuguide offers [--json]", "list the cloud offers in the catalog",
                      "Lists the bundled cloud GPU offers: provider, GPU and count, price per hour, billing.\n"
                      "  --json   {\"offers\": [...]}: id, provider, region, instance, gpu, gpu_count, price_per_hour\n"
                      "           (whole instance, in currency), currency, billing, billing_granularity_s,\n"
                      "           price_per_month, as_of, source, notes",
                      run_offers}) &&
    register_command({"settings", "gpuguide settings [--json]", "show the cost settings (exchange rate, power...)",
                      "Shows the bundled cost settings: exchange rate, electricity prices, host system, resale\n"
                      "value, utilization and memory reserve.\n"
                      "  --json   the settings in the layout of data/settings.json, with their sources",
                      run_settings}) &&
    register_command({"check-data", "gpuguide check-data [--json] [--dir REPO]",
                      "validate the bundled data (exit 1 on any problem)",
                      "Validates data/gpus.json, data/cloud_offers.json, data/settings.json and data/models.json\n"
                      "(types, ranges, unknown keys, unique ids, sources and dates) and compares the GPUs with\n"
                      "tests/validation/gpu_spec_crosscheck.json. Prints every problem as FILE:POINTER: MESSAGE.\n"
                      "  --dir REPO   check the files under REPO on disk instead of the copies built in\n"
                      "  --json       {\"problems\": [{file, pointer, message}], ...}\n"
                      "Exit 0 when there is no problem, 1 otherwise.",
                      run_check_data});

}  // namespace
}  // namespace gg::cli
