// The data loader as JSON (see loader_json.h).
#include "catalog/loader_json.h"

#include <algorithm>
#include <cmath>

#include "catalog/embedded_data.h"

namespace gg::catalog {

using nlohmann::json;

std::vector<LoaderPipelineRecord> parse_loader_pipelines(std::string_view text, const std::string& file,
                                                         std::vector<Problem>& problems) {
    std::vector<LoaderPipelineRecord> out;
    const json doc = json::parse(text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("pipelines") || !doc["pipelines"].is_array()) {
        problems.push_back({file, "", "expected an object with a \"pipelines\" array"});
        return out;
    }
    for (std::size_t i = 0; i < doc["pipelines"].size(); ++i) {
        const json& p = doc["pipelines"][i];
        const std::string ptr = "/pipelines/" + std::to_string(i);
        auto text_of = [&](const char* key) -> std::string {
            if (p.is_object() && p.contains(key) && p[key].is_string() && !p[key].get<std::string>().empty())
                return p[key].get<std::string>();
            problems.push_back({file, ptr + "/" + key, std::string("missing or empty \"") + key + "\" (text)"});
            return {};
        };
        LoaderPipelineRecord r;
        r.id = text_of("id");
        r.name = text_of("name");
        r.as_of = text_of("as_of");
        r.source = text_of("source");
        const bool rate_ok = p.is_object() && p.contains("samples_per_s_per_cpu") &&
                             p["samples_per_s_per_cpu"].is_number() && p["samples_per_s_per_cpu"].get<double>() >= 0 &&
                             p["samples_per_s_per_cpu"].get<double>() < 1e7;
        if (!rate_ok)
            problems.push_back({file, ptr + "/samples_per_s_per_cpu",
                                "\"samples_per_s_per_cpu\" must be a number of samples/s per CPU in [0, 1e7) "
                                "(0 = no CPU limit)"});
        else r.samples_per_s_per_cpu = p["samples_per_s_per_cpu"].get<double>();
        if (!r.id.empty() && rate_ok) out.push_back(r);
    }
    return out;
}

const std::vector<LoaderPipelineRecord>& loader_pipelines() {
    static const std::vector<LoaderPipelineRecord> table = [] {
        std::vector<Problem> problems;
        auto t = parse_loader_pipelines(embedded_file("data/loader_pipelines.json"), "data/loader_pipelines.json",
                                        problems);
        return problems.empty() ? t : std::vector<LoaderPipelineRecord>{};
    }();
    return table;
}

const LoaderPipelineRecord* find_loader_pipeline(const std::string& id) {
    for (const LoaderPipelineRecord& p : loader_pipelines())
        if (p.id == id) return &p;
    return nullptr;
}

const std::vector<std::string> kLoaderPipelineChoices = {"cifar-augment", "imagenet-jpeg", "pretokenized", "keeps-up",
                                                         "measured"};

void parse_loader_key(const json& d, Scenario& s, std::vector<Problem>& problems, const std::string& file) {
    auto problem = [&](const std::string& ptr, const std::string& msg) { problems.push_back({file, ptr, msg}); };
    if (!d.contains("loader")) return;
    const json& l = d["loader"];
    if (!l.is_object()) {
        problem("/dataset/loader", "'loader' must be an object {\"pipeline\", \"workers\", \"cpus\"}");
        return;
    }
    for (const auto& [key, value] : l.items())
        if (key != "pipeline" && key != "workers" && key != "cpus")
            problem("/dataset/loader/" + key, "unknown key '" + key + "' (expected pipeline, workers, cpus)");
    if (l.contains("pipeline")) {
        const json& p = l["pipeline"];
        if (!p.is_string() || std::find(kLoaderPipelineChoices.begin(), kLoaderPipelineChoices.end(),
                                        p.get<std::string>()) == kLoaderPipelineChoices.end()) {
            std::string list;
            for (const std::string& c : kLoaderPipelineChoices) list += (list.empty() ? "" : ", ") + c;
            problem("/dataset/loader/pipeline", "'pipeline' must be one of " + list + " (got " + p.dump() + ")");
        } else s.loader_pipeline = p.get<std::string>();
    }
    auto whole = [&](const char* key, int lo, int hi, int& out, const char* what) {
        if (!l.contains(key)) return;
        const json& v = l[key];
        if (!v.is_number() || v.get<double>() != std::floor(v.get<double>()) || v.get<double>() < lo ||
            v.get<double>() > hi)
            problem(std::string("/dataset/loader/") + key, std::string("'") + key + "' must be a whole number from " +
                                                               std::to_string(lo) + " to " + std::to_string(hi) +
                                                               " (" + what + "; got " + v.dump() + ")");
        else out = v.get<int>();
    };
    whole("workers", 0, 256, s.loader_workers, "DataLoader num_workers per GPU; 0 = loading in the training process");
    whole("cpus", 1, 4096, s.loader_cpus, "your machine's CPU threads, shared by its GPUs");
    const bool measured_rate = d.contains("loader_samples_per_s");
    if (s.loader_pipeline == "measured" && !measured_rate)
        problem("/dataset/loader/pipeline", "'measured' needs your rate in dataset.loader_samples_per_s");
    if (measured_rate && !s.loader_pipeline.empty() && s.loader_pipeline != "measured")
        problem("/dataset/loader/pipeline", "dataset.loader_samples_per_s is a measured rate: leave 'pipeline' out or "
                                            "set it to 'measured' (got '" + s.loader_pipeline + "')");
}

void loader_key_to_json(const Scenario& s, json& d) {
    json l = json::object();
    if (!s.loader_pipeline.empty()) l["pipeline"] = s.loader_pipeline;
    if (s.loader_workers >= 0) l["workers"] = s.loader_workers;
    if (s.loader_cpus > 0) l["cpus"] = s.loader_cpus;
    if (!l.empty()) d["loader"] = l;
}

std::string implied_loader_pipeline(const Scenario& s) {
    using engine::Family;
    switch (s.model.family) {
        case Family::kResNet: case Family::kVgg: case Family::kMobileNetV2: case Family::kEfficientNetB0:
        case Family::kVit: {
            const int px = s.image_size > 0 ? s.image_size : s.model.default_image_size;
            return px <= 64 ? "cifar-augment" : "imagenet-jpeg";
        }
        case Family::kEncoder: case Family::kDecoder: case Family::kBiLstmCrf: return "pretokenized";
        default: return "";  // YOLO mosaics, segmentation masks, diffusion: no sourced per-CPU rate
    }
}

std::string effective_loader_pipeline(const Scenario& s) {
    if (s.loader_samples_per_s > 0) return "measured";
    return s.loader_pipeline.empty() ? implied_loader_pipeline(s) : s.loader_pipeline;
}

engine::LoaderSetup loader_setup(const Scenario& s) {
    engine::LoaderSetup setup;
    if (const LoaderPipelineRecord* p = find_loader_pipeline(effective_loader_pipeline(s)))
        setup.per_cpu_samples_per_s = p->samples_per_s_per_cpu;
    setup.workers = s.loader_workers;
    // The user's machine: its CPU threads shared by the GPUs in it (a server holds at most 8 here).
    if (s.loader_cpus > 0) setup.cpus_per_gpu = double(s.loader_cpus) / std::clamp(s.gpu_count, 1, 8);
    return setup;
}

json loader_to_json(const Scenario& s, const engine::TimeReport& r) {
    json j;
    const std::string pipeline = effective_loader_pipeline(s);
    j["pipeline"] = pipeline.empty() ? json(nullptr) : json(pipeline);
    j["assumed"] = s.loader_pipeline.empty() && s.loader_samples_per_s <= 0;
    const engine::LoaderSetup setup = loader_setup(s);
    const engine::LoaderRate rate = engine::loader_rate(setup);
    j["per_cpu_samples_per_s"] = setup.per_cpu_samples_per_s > 0 ? json(setup.per_cpu_samples_per_s) : json(nullptr);
    j["workers"] = s.loader_workers >= 0 ? json(s.loader_workers) : json(nullptr);
    j["workers_used"] = rate.workers_used;
    j["cpus_per_gpu"] = setup.cpus_per_gpu > 0 ? json(setup.cpus_per_gpu) : json(nullptr);
    const double per_gpu = s.loader_samples_per_s > 0 ? s.loader_samples_per_s : rate.samples_per_s;
    j["samples_per_s"] = per_gpu > 0 ? json(per_gpu) : json(nullptr);
    const double samples_per_gpu_step = double(s.batch_size) * std::max(1, s.grad_accum_steps);
    const double gpu_step_s = r.step_s - r.loader_wait_s;
    j["gpu_samples_per_s"] = gpu_step_s > 0 ? json(samples_per_gpu_step / gpu_step_s) : json(nullptr);
    j["cpu_bound"] = r.loader_wait_s > 0;
    j["in_training_process"] = rate.in_training_process;
    const char* status = s.loader_samples_per_s > 0          ? "measured"
                         : pipeline.empty()                   ? "no_pipeline"
                         : pipeline == "keeps-up"             ? "keeps_up"
                         : !(setup.per_cpu_samples_per_s > 0) ? "no_cpu_limit"
                         : !(per_gpu > 0)                     ? "cpus_unknown"
                         : r.loader_wait_s > 0                ? "cpu_bound"
                                                              : "keeps_up";
    j["status"] = status;
    if (const LoaderPipelineRecord* p = find_loader_pipeline(pipeline)) j["source"] = p->source;
    return j;
}

}  // namespace gg::catalog
