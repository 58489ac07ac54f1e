// Reading a GAN scenario (gan_scenario.h): every key checked, every problem collected with its JSON pointer.
// The report, ranking and advice are in gan_report.cpp. JSON is read with exceptions off; no UI code.
#include "catalog/gan_scenario.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "catalog/decision_json.h"
#include "catalog/gan_models.h"
#include "engine/cost.h"

namespace gg::catalog {

using nlohmann::json;

namespace {

// Keys of the other scenarios that mean nothing for a GAN, with why: an error naming the key, never a silent ignore.
const std::map<std::string, std::string>& inapplicable_keys() {
    static const std::map<std::string, std::string> keys = {
        {"grad_accum_steps", "the reference GAN loops take one step per batch; give batch_size per GPU"},
        {"image_size", "the image size is the GAN's resolution: choose a preset or set model.gan.resolution"},
        {"seq_len", "a GAN has no sequence length"},
        {"longest_seq_len", "a GAN has no sequence length"},
        {"precision", "the dtypes are the reference code's (StyleGAN2: FP16 in the model.gan.fp16_levels highest "
                      "resolutions, FP32 elsewhere, TF32 off; DCGAN and pix2pix: FP32)"},
        {"optimizer", "both networks train with Adam, as the reference code"},
        {"optimizer_impl", "both networks train with the reference code's Adam"},
        {"method", "a GAN trains both networks in full; LoRA, QLoRA and frozen backbones do not apply"},
        {"lora", "a GAN trains both networks in full; LoRA does not apply"},
        {"checkpointing", "the reference GAN code does not checkpoint activations; a smaller batch_size is the fix"},
        {"attention", "the GAN presets have no attention layers"},
        {"memory_format", "the reference GAN code runs in NCHW"},
        {"offload_optimizer", "the reference GAN code keeps both optimizers on the GPU"},
        {"ema", "G's moving average is model.gan.g_ema (on for StyleGAN2)"},
        {"precomputed_latents", "only Stable Diffusion pipelines precompute latents"},
        {"frozen_weights_16bit", "a GAN freezes no weights"},
        {"fp32_modules", "a GAN has no quantized modules"},
        {"stack", "fine-tuning stacks do not train GANs"},
        {"stack_options", "fine-tuning stacks do not train GANs"},
        {"eval_batch_size", "the GAN loops do not evaluate during a step (FID runs apart)"},
    };
    return keys;
}

const std::map<std::string, std::string>& inapplicable_gpu_keys() {
    static const std::map<std::string, std::string> keys = {
        {"tensor_parallel", "model parallelism does not apply to a GAN: each GPU holds both networks"},
        {"pipeline_parallel", "model parallelism does not apply to a GAN: each GPU holds both networks"},
        {"pipeline_interleave", "model parallelism does not apply to a GAN: each GPU holds both networks"},
        {"sequence_parallel", "a GAN has no sequence"},
        {"interconnect", "GAN scenarios use the card's own link (not yet a choice)"},
        {"network", "GAN scenarios run within one server (not yet a choice)"},
        {"peer_to_peer", "GAN scenarios use the card's own link (not yet a choice)"},
        {"grad_reduce_dtype", "the reference GAN code all-reduces FP32 gradients"},
    };
    return keys;
}

struct Reader {
    const std::string& file;
    std::vector<Problem>& problems;
    void problem(const std::string& ptr, const std::string& message) const { problems.push_back({file, ptr, message}); }

    bool number(const json& v, const std::string& ptr, const std::string& key, double lo, double hi, double& out) const {
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi) {
            problem(ptr, key + ": expected a number from " + json(lo).dump() + " to " + json(hi).dump());
            return false;
        }
        out = v.get<double>();
        return true;
    }
    bool whole(const json& v, const std::string& ptr, const std::string& key, int lo, int hi, int& out) const {
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() != std::floor(v.get<double>()) ||
            v.get<double>() < lo || v.get<double>() > hi) {
            problem(ptr, key + ": expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
            return false;
        }
        out = int(v.get<double>());
        return true;
    }
    bool choice(const json& v, const std::string& ptr, const std::string& key, const std::vector<std::string>& allowed,
                std::string& out) const {
        if (v.is_string())
            for (const std::string& a : allowed)
                if (v.get<std::string>() == a) {
                    out = a;
                    return true;
                }
        std::string list;
        for (const std::string& a : allowed) list += (list.empty() ? "" : " | ") + a;
        problem(ptr, key + ": expected one of " + list);
        return false;
    }
};

void read_model(const json& doc, const Reader& r, GanScenario& s) {
    const json& m = doc["model"];
    if (m.is_string()) {
        const engine::GanSpec* p = find_gan_preset(m.get<std::string>());
        if (p == nullptr) {  // is_gan_scenario said otherwise; kept for callers that parse without asking
            r.problem("/model", "model: '" + m.get<std::string>() + "' is not a GAN preset");
            return;
        }
        s.model_id = p->id;
        s.spec = *p;
        return;
    }
    if (!m.is_object() || !m.contains("gan")) {
        r.problem("/model", "model: expected a GAN preset id or {\"gan\": {...}}");
        return;
    }
    for (auto it = m.begin(); it != m.end(); ++it)
        if (it.key() != "gan") r.problem("/model/" + it.key(), "unknown key " + it.key() + " beside model.gan");
    if (parse_gan_spec(m["gan"], "/model/gan", r.file, s.spec, r.problems)) {
        s.model_id = "custom";
        s.custom_model = json{{"gan", m["gan"]}};
    }
}

void read_gpu(const json& g, const Catalog& catalog, const Reader& r, GanScenario& s) {
    if (!g.is_object()) {
        r.problem("/gpu", "gpu: expected {\"id\": ..., \"count\": ...}");
        return;
    }
    for (auto it = g.begin(); it != g.end(); ++it) {
        const std::string& k = it.key();
        const std::string ptr = "/gpu/" + k;
        if (k == "id") {
            if (!it->is_string() || catalog.find_gpu(it->get<std::string>()) == nullptr)
                r.problem(ptr, "gpu.id: not a GPU of the catalog (gpuguide gpus)");
            else
                s.gpu_id = it->get<std::string>();
        } else if (k == "count") {
            r.whole(*it, ptr, "gpu.count", 1, 1024, s.gpu_count);
        } else if (k == "strategy") {
            // stylegan2-ada-pytorch and the DCGAN / pix2pix loops run one process per GPU with DDP-style all-reduce.
            if (!it->is_string() || it->get<std::string>() != "ddp")
                r.problem(ptr, "gpu.strategy: a GAN trains with ddp (one process per GPU, gradients all-reduced, as "
                               "the reference code); ZeRO, FSDP and DataParallel are not modelled for GANs");
        } else if (k == "ecc") {
            if (!it->is_boolean()) r.problem(ptr, "gpu.ecc: expected true or false");
            else s.ecc = it->get<bool>() ? engine::EccSetting::kOn : engine::EccSetting::kOff;
        } else if (auto why = inapplicable_gpu_keys().find(k); why != inapplicable_gpu_keys().end()) {
            r.problem(ptr, "gpu." + k + " does not apply to a GAN scenario: " + why->second);
        } else {
            r.problem(ptr, "unknown key gpu." + k);
        }
    }
    if (s.gpu_id.empty() && !g.contains("id")) r.problem("/gpu/id", "gpu.id: required when gpu is given");
}

void read_dataset(const json& d, const Reader& r, GanScenario& s) {
    if (!d.is_object()) {
        r.problem("/dataset", "dataset: expected {\"samples\", \"epochs\"}");
        return;
    }
    for (auto it = d.begin(); it != d.end(); ++it) {
        const std::string ptr = "/dataset/" + it.key();
        if (it.key() == "samples") r.number(*it, ptr, "dataset.samples", 1, 1e12, s.dataset_samples);
        else if (it.key() == "epochs") r.number(*it, ptr, "dataset.epochs", 0.001, 1e6, s.dataset_epochs);
        else if (it.key() == "tokens") r.problem(ptr, "dataset.tokens: a GAN counts images (samples and epochs, or kimg)");
        else if (it.key() == "loader_samples_per_s")
            r.problem(ptr, "dataset.loader_samples_per_s is not modelled for GAN scenarios yet");
        else r.problem(ptr, "unknown key dataset." + it.key());
    }
    if ((s.dataset_samples > 0) != (s.dataset_epochs > 0))
        r.problem("/dataset", "dataset: give both samples and epochs (or kimg instead)");
}

void read_tunables(const json& t, const Reader& r, GanScenario& s) {
    if (!t.is_object()) {
        r.problem("/tunables", "tunables: expected an object");
        return;
    }
    s.has_tunables = true;
    for (auto it = t.begin(); it != t.end(); ++it) {
        const std::string& k = it.key();
        const std::string ptr = "/tunables/" + k;
        if (k == "cuda_context_bytes") r.number(*it, ptr, "tunables." + k, 0, 16e9, s.tunables.cuda_context_bytes);
        else if (k == "fragmentation_fraction") r.number(*it, ptr, "tunables." + k, 0, 1, s.tunables.fragmentation_fraction);
        else if (k == "cublas_workspace_bytes") r.number(*it, ptr, "tunables." + k, 0, 16e9, s.tunables.cublas_workspace_bytes);
        else if (k == "cudnn_workspace_bytes") r.number(*it, ptr, "tunables." + k, 0, 64e9, s.tunables.cudnn_workspace_bytes);
        else r.problem(ptr, "tunables." + k + " does not apply to a GAN scenario (cuda_context_bytes, "
                            "fragmentation_fraction, cublas_workspace_bytes, cudnn_workspace_bytes do)");
    }
}

}  // namespace

double GanScenario::exchange_rate(const Catalog& c) const {
    return cny_per_usd > 0 ? cny_per_usd : c.settings.exchange_rate.cny_per_usd;
}
double GanScenario::shown(const Catalog& c, double cny) const {
    if (!std::isfinite(cny)) return cny;
    return engine::from_cny(cny, currency == "USD" ? engine::Currency::kUsd : engine::Currency::kCny, exchange_rate(c));
}

engine::Display GanScenario::display_setting() const {
    if (display == "none") return engine::Display::kNone;
    if (display == "linux-desktop") return engine::Display::kLinuxDesktop;
    if (display == "windows-desktop") return engine::Display::kWindowsDesktop;
    return engine::Display::kAuto;
}

bool is_gan_scenario(const json& doc) {
    if (!doc.is_object()) return false;
    auto m = doc.find("model");
    if (m == doc.end()) return false;
    if (m->is_string()) return find_gan_preset(m->get<std::string>()) != nullptr;
    return m->is_object() && m->contains("gan");
}

ParsedGanScenario parse_gan_scenario_json(const json& doc, const Catalog& catalog, const std::string& file) {
    ParsedGanScenario out;
    GanScenario& s = out.scenario;
    const Reader r{file, out.problems};
    if (!doc.is_object() || !doc.contains("model")) {
        r.problem("/model", "model: required (a GAN preset id or {\"gan\": {...}})");
        return out;
    }
    read_model(doc, r, s);
    for (auto it = doc.begin(); it != doc.end(); ++it) {
        const std::string& k = it.key();
        const std::string ptr = "/" + k;
        if (it->is_null() || k == "model") continue;  // null = left out, as in the other scenarios
        if (k == "batch_size") r.whole(*it, ptr, "batch_size", 1, 1 << 20, s.batch_size);
        else if (k == "gpu") read_gpu(*it, catalog, r, s);
        else if (k == "dataset") read_dataset(*it, r, s);
        else if (k == "kimg") r.number(*it, ptr, "kimg", 0.001, 1e7, s.kimg);
        else if (k == "display") r.choice(*it, ptr, "display", {"auto", "none", "linux-desktop", "windows-desktop"}, s.display);
        else if (k == "reserve_fraction") r.number(*it, ptr, "reserve_fraction", 0, 0.9, s.reserve_fraction);
        else if (k == "tunables") read_tunables(*it, r, s);
        else if (auto why = inapplicable_keys().find(k); why != inapplicable_keys().end())
            r.problem(ptr, k + " does not apply to a GAN scenario: " + why->second);
        else if (k == "objective") r.choice(*it, ptr, k, {"cost", "time"}, s.objective);
        else if (k == "ownership") r.choice(*it, ptr, k, {"rent", "buy", "both"}, s.ownership);
        else if (k == "currency") r.choice(*it, ptr, k, {"CNY", "USD"}, s.currency);
        else if (k == "cny_per_usd") r.number(*it, ptr, k, 0.01, 1000, s.cny_per_usd);
        else if (std::find(kDecisionKeys.begin(), kDecisionKeys.end(), k) != kDecisionKeys.end())
            r.problem(ptr, k + " is not handled for GAN scenarios yet (they take objective cost | time, ownership, "
                           "currency and cny_per_usd)");
        else r.problem(ptr, "unknown key " + k + " in a GAN scenario");
    }
    if (s.kimg > 0 && s.dataset_samples > 0)
        r.problem("/kimg", "kimg: give the training length once, as kimg or as dataset samples x epochs");
    return out;
}

json gan_scenario_to_json(const GanScenario& s) {
    json j;
    j["model"] = s.model_id == "custom" ? s.custom_model : json(s.model_id);
    j["batch_size"] = s.batch_size;
    if (!s.gpu_id.empty()) {
        j["gpu"] = {{"id", s.gpu_id}, {"count", s.gpu_count}};
        if (s.ecc != engine::EccSetting::kDefault) j["gpu"]["ecc"] = s.ecc == engine::EccSetting::kOn;
    }
    if (s.kimg > 0) j["kimg"] = s.kimg;
    if (s.dataset_samples > 0) j["dataset"] = {{"samples", s.dataset_samples}, {"epochs", s.dataset_epochs}};
    if (s.display != "auto") j["display"] = s.display;
    if (s.reserve_fraction > 0) j["reserve_fraction"] = s.reserve_fraction;
    if (s.has_tunables)
        j["tunables"] = {{"cuda_context_bytes", s.tunables.cuda_context_bytes},
                         {"fragmentation_fraction", s.tunables.fragmentation_fraction},
                         {"cublas_workspace_bytes", s.tunables.cublas_workspace_bytes},
                         {"cudnn_workspace_bytes", s.tunables.cudnn_workspace_bytes}};
    return j;
}

}  // namespace gg::catalog
