// Property tests of the engine over thousands of generated scenarios. Every scenario is a JSON document a user could
// type: a seeded generator writes it and the same parser as `gpuguide estimate` reads it (refused ones are counted and
// skipped). A failure prints the scenario: `echo '<scenario>' | gpuguide estimate -` (or rank / advise) reproduces it.
// Sections: generator | JSON walk | properties (one TEST_CASE each). Only the embedded data; no UI code here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/compat_data.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"
#include "engine/cost.h"
#include "engine/memory.h"
#include "engine/rank.h"
#include "engine/time.h"

using nlohmann::json;
namespace cat = gg::catalog;
namespace eng = gg::engine;

namespace {

// One seed for the whole file; each TEST_CASE derives its stream from it (seed + case number), so a case can be
// rerun alone (-tc) and still see the same scenarios. For a longer hunt: GG_PROPERTY_SEED=<n> picks another seed,
// GG_PROPERTY_SCALE=<k> runs k times as many scenarios (the defaults keep the file near 3 s in Release).
constexpr std::uint32_t kSeed = 20261202;

std::uint32_t seed() {
    const char* v = std::getenv("GG_PROPERTY_SEED");
    return v ? std::uint32_t(std::strtoul(v, nullptr, 10)) : kSeed;
}
int scaled(int n) {
    const char* v = std::getenv("GG_PROPERTY_SCALE");
    const int k = v ? std::atoi(v) : 1;
    return n * std::max(1, k);
}

// ---- generator -----------------------------------------------------------------------------------------------
// Writes scenario documents across every available preset (and some custom models), every precision, optimizer,
// method, checkpointing mode, attention kernel, strategy, 1..16 cards, batch, accumulation, shape and dataset.
// Choices are biased towards combinations the parser accepts (qlora with nf4, flash with 16-bit, LoRA on
// transformers) but every value is still drawn sometimes, so refusals are exercised too.
class Generator {
public:
    explicit Generator(std::uint32_t stream_seed) : rng_(stream_seed) {
        for (const eng::ModelSpec& m : eng::preset_models())
            if (m.available) presets_.push_back(&m);
        for (const eng::CloudOffer& o : cat::embedded_catalog().offers)
            if (std::find(regions_.begin(), regions_.end(), o.region) == regions_.end()) regions_.push_back(o.region);
    }

    std::mt19937& rng() { return rng_; }
    const std::vector<const eng::ModelSpec*>& presets() const { return presets_; }

    int integer(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    bool chance(double p) { return real(0, 1) < p; }
    template <class T>
    T pick(const std::vector<T>& v) { return v[std::size_t(integer(0, int(v.size()) - 1))]; }
    // Log-uniform whole number in [lo, hi]: small values as often as large ones.
    int log_int(int lo, int hi) {
        const double x = std::exp(real(std::log(double(lo)), std::log(double(hi) + 1.0)));
        return std::clamp(int(x), lo, hi);
    }

    // The image-size step the parser demands for a vision model (multiples of it, at least 32).
    static int image_step(const eng::ModelSpec& m) {
        switch (m.family) {
            case eng::Family::kVit: return m.patch;
            case eng::Family::kSdUnet: return 8 << (m.channel_mult.size() - 1);
            case eng::Family::kYolo: return 32;
            case eng::Family::kUnet: return 1 << m.unet_depth;
            default: return 1;
        }
    }
    // The longest sequence the parser accepts for a sequence model (learned positions), else a practical cap.
    static int max_seq_len(const eng::ModelSpec& m, const std::string& id) {
        if (m.max_positions > 0 && (m.family == eng::Family::kEncoder || m.position == eng::PositionKind::kLearned))
            return m.max_positions - (id == "roberta-base" ? 2 : 0);
        return 16384;
    }
    int random_image_size(const eng::ModelSpec& m) {
        const int step = image_step(m);
        const int lo = (32 + step - 1) / step, hi = std::max(lo, (m.family == eng::Family::kSdUnet ? 1024 : 640) / step);
        return integer(lo, hi) * step;
    }

    json custom_model() {
        switch (integer(0, 4)) {
            case 0: {  // decoder
                const int heads = pick(std::vector<int>{1, 2, 4, 8, 16});
                const int kv = chance(0.5) ? heads : std::max(1, heads / pick(std::vector<int>{1, 2, 4}));
                json m = {{"family", "decoder"}, {"layers", integer(1, 24)}, {"hidden", heads * 8 * integer(1, 16)},
                          {"heads", heads}, {"kv_heads", kv}, {"ffn", 8 * integer(1, 512)}, {"vocab", log_int(16, 200000)}};
                if (chance(0.3)) m["norm"] = "layernorm", m["position"] = "learned", m["glu"] = false;
                if (chance(0.2)) m["tied_embeddings"] = true;
                if (chance(0.15) && m.value("glu", true)) m["experts"] = 8, m["top_k"] = integer(1, 2);
                return m;
            }
            case 1: {  // encoder
                const int heads = pick(std::vector<int>{1, 2, 4, 12});
                return {{"family", "encoder"}, {"layers", integer(1, 12)}, {"hidden", heads * 8 * integer(1, 8)},
                        {"heads", heads}, {"ffn", 8 * integer(1, 256)}, {"vocab", log_int(16, 50000)},
                        {"max_positions", pick(std::vector<int>{128, 512, 1024})}};
            }
            case 2: {  // vit
                const int patch = pick(std::vector<int>{8, 14, 16, 32});
                const int heads = pick(std::vector<int>{1, 3, 6, 12});
                return {{"family", "vit"}, {"image_size", patch * integer(2, 16)}, {"patch", patch},
                        {"layers", integer(1, 12)}, {"hidden", heads * 8 * integer(1, 8)}, {"heads", heads},
                        {"ffn", 8 * integer(1, 256)}};
            }
            case 3: {  // resnet
                std::vector<int> depths(std::size_t(integer(1, 4)));
                for (int& d : depths) d = integer(1, 4);
                return {{"family", "resnet"}, {"depths", depths}, {"block", chance(0.5) ? "basic" : "bottleneck"},
                        {"width", pick(std::vector<int>{16, 32, 64})}, {"classes", log_int(2, 1000)}};
            }
            default:
                return {{"family", "unet"}, {"base_channels", pick(std::vector<int>{8, 16, 32, 64})},
                        {"depth", integer(1, 5)}, {"classes", integer(1, 10)}};
        }
    }

    // A base scenario (the `gpuguide estimate` keys); `forced` = this preset (a sweep over all of them).
    json scenario(const eng::ModelSpec* forced = nullptr) {
        json s = json::object();
        const eng::ModelSpec* preset = forced;
        if (forced) {
            s["model"] = forced->id;
        } else if (chance(0.1)) {
            s["model"] = custom_model();
        } else {
            preset = pick(presets_);
            s["model"] = preset->id;
        }
        // The spec the shape keys must respect: the preset's, or the custom one as the parser reads it.
        eng::ModelSpec spec;
        if (preset) spec = *preset;
        else {
            const cat::ParsedScenario p = cat::parse_scenario_json(json{{"model", s["model"]}}, "generator");
            spec = p.scenario.model;
        }
        const bool transformer = spec.family == eng::Family::kDecoder || spec.family == eng::Family::kEncoder ||
                                 spec.family == eng::Family::kVit;
        // Mostly practical sizes; now and then the parser's extremes (batch 2^20, sequence 2^21, image 16384).
        const bool extreme = chance(0.03);
        if (chance(0.85)) {
            if (spec.is_vision) {
                const int step = image_step(spec);
                s["image_size"] = extreme ? (16384 / step) * step : random_image_size(spec);
            } else {
                s["seq_len"] = log_int(2, extreme && max_seq_len(spec, preset ? preset->id : "custom") == 16384
                                              ? 1 << 21 : max_seq_len(spec, preset ? preset->id : "custom"));
            }
        }
        s["batch_size"] = extreme ? log_int(1, 1 << 20) : log_int(1, 512);
        if (chance(0.3)) s["grad_accum_steps"] = log_int(1, 32);

        // method first: it constrains the precision
        std::string method = "full";
        const double m = real(0, 1);
        if (m < 0.15) method = "frozen-backbone";
        else if (m < 0.4 && (transformer || chance(0.05))) method = chance(0.55) ? "lora" : "qlora";
        s["method"] = method;
        std::string precision;
        if (method == "qlora" && chance(0.95)) precision = "nf4";
        else if (method == "full" && chance(0.95)) precision = pick(std::vector<std::string>{"fp32", "tf32", "fp16-amp", "bf16-amp", "bf16", "fp8"});
        else precision = pick(cat::kPrecisions);
        s["precision"] = precision;
        s["optimizer"] = pick(cat::kOptimizers);
        s["checkpointing"] = pick(cat::kCheckpointings);
        const bool half = precision != "fp32" && precision != "tf32";
        s["attention"] = half || chance(0.05) ? pick(cat::kAttentions) : pick(std::vector<std::string>{"eager", "sdpa"});
        if ((method == "lora" || method == "qlora") && chance(0.6)) {
            json l = {{"rank", pick(std::vector<int>{1, 4, 8, 16, 64, 256})}};
            if (chance(0.3)) l["dropout"] = pick(std::vector<double>{0.05, 0.1});
            if (chance(0.5)) {
                std::vector<std::string> targets;
                for (int i = integer(1, 4); i > 0; --i) targets.push_back(pick(cat::kLoraTargets));
                l["targets"] = targets;
            }
            s["lora"] = l;
        }

        json gpu = json::object();
        if (chance(0.9)) gpu["id"] = compatible_gpu(precision, s["attention"].get<std::string>());
        const double c = real(0, 1);
        gpu["count"] = c < 0.5 ? 1 : c < 0.8 ? pick(std::vector<int>{2, 4, 8}) : integer(1, 16);
        gpu["strategy"] = pick(cat::kStrategies);
        if (chance(0.2)) gpu["interconnect"] = pick(cat::kInterconnects);
        if (chance(0.1)) gpu["peer_to_peer"] = chance(0.5);
        if (chance(0.1)) gpu["grad_reduce_dtype"] = pick(cat::kGradReduceDtypes);
        s["gpu"] = gpu;
        if (spec.is_vision && chance(0.3)) s["memory_format"] = pick(cat::kMemoryFormats);
        if (chance(0.2)) s["optimizer_impl"] = pick(cat::kOptimizerImpls);
        if (chance(0.15)) s["offload_optimizer"] = true;
        if (chance(0.4)) s["reserve_fraction"] = std::round(real(0, 0.5) * 100) / 100;
        const double d = real(0, 1);
        if (d < 0.4) s["dataset"] = {{"samples", double(log_int(1, 2000000))}, {"epochs", double(integer(1, 10))}};
        else if (d < 0.6) s["dataset"] = {{"samples", double(log_int(1, 2000000))}};
        else if (d < 0.8 && !spec.is_vision) s["dataset"] = {{"tokens", 1e6 * log_int(1, 100000)}};
        if (chance(0.1)) s["dataset"]["loader_samples_per_s"] = double(log_int(1, 100000));
        if (chance(0.15)) {
            json t = json::object();
            if (chance(0.5)) t["fragmentation_fraction"] = std::round(real(0, 0.5) * 100) / 100;
            if (chance(0.5)) t["zero_grad_set_to_none"] = chance(0.5);
            if (chance(0.3)) t["optimizer_temp_fraction"] = pick(std::vector<double>{0, 1, 2});
            if (chance(0.3)) t["cudnn_workspace_bytes"] = double(log_int(1, 1 << 30));
            if (chance(0.3)) t["cuda_context_bytes"] = double(log_int(1 << 20, 1 << 30));
            s["tunables"] = t;
        }
        // Now and then Megatron-LM's model parallelism, mostly in layouts the parser accepts: t dividing the heads,
        // key/value heads and FFN width, p x v dividing the layers, whole model copies, ddp or zero1.
        const bool full_precision = precision != "int8" && precision != "nf4";
        if (transformer && (method == "full" || method == "frozen-backbone") && full_precision && chance(0.15)) {
            const int kv = spec.kv_heads > 0 ? spec.kv_heads : spec.heads;
            std::vector<int> ts{1}, ps{1};
            for (int t : {2, 4, 8})
                if (spec.heads % t == 0 && kv % t == 0 && spec.ffn % t == 0) ts.push_back(t);
            for (int p : {2, 3, 4})
                if (!spec.shared_layers && spec.layers % p == 0) ps.push_back(p);
            const int t = pick(ts), p = pick(ps);
            if (t * p > 1) {
                json& g = s["gpu"];
                g["tensor_parallel"] = t;
                g["pipeline_parallel"] = p;
                g["count"] = t * p * pick(std::vector<int>{1, 1, 2});
                g["strategy"] = pick(std::vector<std::string>{"ddp", "zero1"});
                if (p > 1 && spec.layers % (2 * p) == 0 && chance(0.3)) {
                    g["pipeline_interleave"] = 2;
                    s["grad_accum_steps"] = p * integer(1, 4);
                }
                const int tokens = s.contains("seq_len") ? s["seq_len"].get<int>() : spec.default_seq_len;
                if (t > 1 && !spec.is_vision && tokens % t == 0 && chance(0.5)) g["sequence_parallel"] = true;
                s.erase("offload_optimizer");
            }
        }
        if (chance(0.15)) s["ema"] = true;
        return s;
    }

    // The decision keys of `gpuguide rank` / `advise`, added to a base scenario.
    json decision(json s) {
        if (chance(0.3)) s["budget"] = {{"amount", double(log_int(100, 2000000))}, {"currency", chance(0.8) ? "CNY" : "USD"}};
        if (chance(0.2)) s["currency"] = chance(0.5) ? "CNY" : "USD";
        if (chance(0.3)) s["deadline_h"] = double(log_int(1, 2000));
        if (chance(0.2)) s["region"] = pick(regions_);
        if (chance(0.1)) s["offer_currency"] = chance(0.5) ? "CNY" : "USD";
        if (chance(0.6)) s["objective"] = pick(std::vector<std::string>{"cost", "time", "value"});
        if (chance(0.3)) s["ownership"] = pick(std::vector<std::string>{"rent", "buy", "both"});
        if (chance(0.2)) s["electricity_per_kwh"] = std::round(real(0, 2) * 100) / 100;
        if (chance(0.2)) s["utilization"] = std::round(real(0.05, 1) * 100) / 100;
        if (chance(0.2)) s["ownership_months"] = double(integer(1, 120));
        if (chance(0.3)) s["runs"] = log_int(1, 50);
        if (chance(0.2)) s["storage_gb"] = double(log_int(1, 2000));
        return s;
    }

private:
    // A GPU the precision and attention can run on (the parser refuses fp8 below CC 8.9, bf16/tf32/flash below 8.0),
    // most of the time; any GPU otherwise.
    std::string compatible_gpu(const std::string& precision, const std::string& attention) {
        const auto& gpus = cat::embedded_catalog().gpus;
        for (int attempt = 0; attempt < 20; ++attempt) {
            const eng::GpuSpec& g = gpus[std::size_t(integer(0, int(gpus.size()) - 1))];
            const int cc = g.compute_capability_major * 10 + g.compute_capability_minor;
            if (g.vendor != "nvidia" || cc == 0 || attempt == 19 || chance(0.03)) return g.id;
            if (precision == "fp8" && cc < 89) continue;
            if ((precision == "bf16" || precision == "bf16-amp" || precision == "tf32" || attention == "flash") && cc < 80)
                continue;
            return g.id;
        }
        return gpus.front().id;
    }

    std::mt19937 rng_;
    std::vector<const eng::ModelSpec*> presets_;
    std::vector<std::string> regions_;
};

// Parses a generated document with the decision parser (what rank / advise / estimate read). False when refused.
bool parse(const json& doc, cat::DecisionScenario& out) {
    const cat::ParsedDecision p = cat::parse_decision_scenario_json(doc, cat::embedded_catalog(), "generated");
    if (!p.problems.empty()) return false;
    out = p.value;
    return true;
}

// Counts refusals; the generator is wrong if the parser refuses more than half of what it writes.
struct Refusals {
    int generated = 0, refused = 0;
    // Parses one generated document into `out`, counting it; false (and counted as refused) when the parser refuses.
    bool accept(const json& doc, cat::DecisionScenario& out) {
        ++generated;
        if (parse(doc, out)) return true;
        ++refused;
        return false;
    }
    void check() const {
        INFO("generated " << generated << ", refused by the parser " << refused);
        CHECK(generated > 0);
        CHECK(refused * 2 <= generated);
    }
};

// ---- JSON walk -----------------------------------------------------------------------------------------------
// Keys whose value may legitimately be negative. None so far: every number the reports print is a size, time,
// cost, count, rate or fraction. (A saving or a signed difference would be listed here with its reason.)
const std::set<std::string> kMayBeNegative = {};
// Keys that may be negative by rounding only, with the mechanism. None left: loader_wait_s was -1 ulp whenever
// offload_s > 0 (step_s - s.step_s - offload_s); time.cpp now clamps it at 0.
const std::set<std::string> kRoundingOnly = {};

// Every number in `j` must be finite (nlohmann keeps NaN/inf in memory and would print them as null) and >= 0
// unless its key is in kMayBeNegative. Collects the JSON pointers of offenders.
void walk_numbers(const json& j, const std::string& pointer, const std::string& key, double sibling_scale,
                  std::vector<std::string>& bad) {
    if (j.is_object()) {
        double scale = 0;  // the largest number directly in this object
        for (auto it = j.begin(); it != j.end(); ++it)
            if (it.value().is_number()) scale = std::max(scale, std::fabs(it.value().get<double>()));
        for (auto it = j.begin(); it != j.end(); ++it)
            walk_numbers(it.value(), pointer + "/" + it.key(), it.key(), scale, bad);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < j.size(); ++i)
            walk_numbers(j[i], pointer + "/" + std::to_string(i), key, 0, bad);
    } else if (j.is_number()) {
        const double x = j.get<double>();
        const bool rounding = kRoundingOnly.count(key) > 0 && x >= -1e-12 * sibling_scale;
        if (!std::isfinite(x)) bad.push_back(pointer + " = " + std::to_string(x) + " (not finite)");
        else if (x < 0 && kMayBeNegative.count(key) == 0 && !rounding)
            bad.push_back(pointer + " = " + std::to_string(x) + " (negative)");
    }
}

// The offenders as one line ("" = none).
std::string bad_numbers(const json& j) {
    std::vector<std::string> bad;
    walk_numbers(j, "", "", 0, bad);
    std::string out;
    for (const std::string& b : bad) out += (out.empty() ? "" : "; ") + b;
    return out;
}

// Priors as the catalog layer picks them (decision_json.cpp priors_for): fitted where they cover the family,
// else the roofline floor.
const eng::ThroughputPriors& priors_for(eng::Family family) {
    const eng::ThroughputPriors& fitted = cat::embedded_time_data();
    return fitted.find(family) ? fitted : eng::peak_floor_priors();
}

eng::TimeReport time_on(const cat::Scenario& s, const eng::GpuSpec& gpu) {
    const eng::TrainingConfig config = s.training_config();
    eng::BuildOptions build;
    build.eager_attention = config.eager_attention;
    const eng::WorkloadShape shape = s.shape_per_sample();
    const eng::Graph graph = eng::build_graph(s.model, shape, build);
    const eng::PreparedTime prepared = eng::prepare_time(s.model, shape, graph, config);
    return eng::evaluate_time(prepared, s.batch_size, gpu, cat::time_options(s), cat::time_dataset(s),
                              priors_for(s.model.family));
}

// Memory figures of one estimate that must not decrease when the workload grows (see the memory test).
std::vector<std::pair<std::string, double>> monotone_memory(const cat::Estimate& e, double batch) {
    const eng::MemoryReport& r = e.report;
    const eng::PreparedMemory& p = e.prepared;
    return {{"params_total", r.params_total},
            {"params_trainable", r.params_trainable},
            {"weights", r.weights.bytes},
            {"gradients", r.gradients.bytes},
            {"optimizer", r.optimizer.bytes},
            {"activations", r.activations.bytes},
            {"framework", r.framework.bytes},
            {"peak_allocated", r.peak_allocated.bytes},
            {"reserved", r.reserved.bytes},
            {"nvidia_smi", r.nvidia_smi.bytes},
            {"host_ram", r.host_ram_bytes},
            {"model_states", p.weight_bytes + p.grad_bytes + p.optimizer_bytes},
            {"autocast_weight_copies", r.autocast_weight_copies.bytes},
            // the parts `temporary` is the peak phase's share of (see the test's comment)
            {"temporary.loss_forward", p.loss_forward_per_sample_bytes * batch},
            {"temporary.loss_backward", p.loss_backward_per_sample_bytes * batch},
            {"temporary.dequantized_weight", p.dequant_temp_bytes},
            {"temporary.optimizer_step", p.optimizer_temp_bytes},
            {"saved_per_sample", p.saved_per_sample_bytes},
            {"kept_per_sample", p.kept_per_sample_bytes}};
}

}  // namespace

// ---- properties ----------------------------------------------------------------------------------------------

TEST_CASE("properties: every number in estimate, report, rank and advise output is finite and non-negative") {
    Generator gen(seed() + 1);
    const cat::Catalog& catalog = cat::embedded_catalog();
    Refusals refusals;
    const int kScenarios = scaled(1500);
    constexpr int kRankEvery = 40;  // rank + advise run the advisor on every GPU: a sample of them
    int ranked = 0;
    for (int i = 0; i < kScenarios; ++i) {
        // The first scenarios sweep every preset in order; the rest draw the model at random.
        const std::size_t n_presets = gen.presets().size();
        const eng::ModelSpec* forced = std::size_t(i) < 2 * n_presets ? gen.presets()[std::size_t(i) % n_presets] : nullptr;
        const json doc = (i % kRankEvery == 0) ? gen.decision(gen.scenario(forced)) : gen.scenario(forced);
        cat::DecisionScenario s;
        if (!refusals.accept(doc, s)) continue;
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        const cat::Estimate e = cat::estimate(s.scenario);
        const json report = cat::full_report(s, e, catalog);
        const std::string bad = bad_numbers(report);
        CAPTURE(bad);
        CHECK(bad.empty());
        if (i % kRankEvery == 0) {
            ++ranked;
            const std::string bad_rank = bad_numbers(cat::rank_json(s, catalog));
            CAPTURE(bad_rank);
            CHECK(bad_rank.empty());
            const std::string bad_advise = bad_numbers(cat::advise_json(s, catalog));
            CAPTURE(bad_advise);
            CHECK(bad_advise.empty());
        }
    }
    MESSAGE("finite/non-negative: " << refusals.generated - refusals.refused << " scenarios reported, " << ranked
                                    << " ranked and advised, " << refusals.refused << " refused by the parser");
    refusals.check();
}

TEST_CASE("properties: memory never decreases when the batch, the sequence length or the image size grows") {
    // `temporary` is not compared: it is the temporaries alive at the peak phase (temporaries_at_peak), and a larger
    // workload can move the peak from the optimizer step (whose temporary is the foreach-Adam sqrt buffer) to
    // backward (whose temporary is one segment's activation gradients), which may be smaller. Its parts (loss
    // buffers, dequantized weight, optimizer-step buffer) are compared instead, and so is the peak itself.
    Generator gen(seed() + 2);
    Refusals refusals;
    int pairs_batch = 0, pairs_seq = 0, pairs_image = 0;
    for (int i = 0; i < scaled(1000); ++i) {
        const json doc = gen.scenario();
        cat::DecisionScenario a;
        if (!refusals.accept(doc, a)) continue;
        // The grown workload: one of batch, sequence length (sequence models), image size (vision models).
        json grown = doc;
        const eng::ModelSpec& spec = a.scenario.model;
        const eng::WorkloadShape shape = a.scenario.shape_per_sample();
        std::string what;
        if (gen.chance(0.4)) {
            what = "batch_size";
            grown["batch_size"] = a.scenario.batch_size + gen.log_int(1, 256);
        } else if (spec.is_vision) {
            what = "image_size";
            const int step = Generator::image_step(spec);
            grown["image_size"] = shape.image_size + step * gen.log_int(1, std::max(1, 256 / step));
        } else {
            what = "seq_len";
            grown["seq_len"] = shape.seq_len + gen.log_int(1, 2048);
        }
        cat::DecisionScenario b;
        if (!parse(grown, b)) continue;  // past the model's positions: not a pair a user can enter
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        INFO("grown (" << what << "): " << grown.dump());
        (what == "batch_size" ? pairs_batch : what == "seq_len" ? pairs_seq : pairs_image)++;
        const cat::Estimate ea = cat::estimate(a.scenario);
        const cat::Estimate eb = cat::estimate(b.scenario);
        const auto ma = monotone_memory(ea, a.scenario.batch_size), mb = monotone_memory(eb, b.scenario.batch_size);
        // Under pipeline parallelism the report shows the fuller of the first and the last stage; when growth moves
        // it from one to the other, the parts belong to different GPUs and only the totals compare.
        const bool same_stage = ea.report.pipeline_stage == eb.report.pipeline_stage;
        for (std::size_t k = 0; k < ma.size(); ++k) {
            CAPTURE(ma[k].first);
            const bool total = ma[k].first == "peak_allocated" || ma[k].first == "reserved" ||
                               ma[k].first == "nvidia_smi" || ma[k].first.rfind("params", 0) == 0;
            if (same_stage || total) CHECK(mb[k].second >= ma[k].second * (1 - 1e-12));
        }
        // The solver's answer cannot grow when each sample grows; with the same shape it is the same answer.
        if (ea.max_batch_size >= 0) {
            if (what == "batch_size") CHECK(eb.max_batch_size == ea.max_batch_size);
            else CHECK(eb.max_batch_size <= ea.max_batch_size);
        }
    }
    MESSAGE("memory monotone: " << pairs_batch << " batch pairs, " << pairs_seq << " sequence pairs, " << pairs_image
                                << " image pairs, " << refusals.refused << " refused");
    CHECK(pairs_batch > 50);
    CHECK(pairs_seq > 50);
    CHECK(pairs_image > 50);
    refusals.check();
}

TEST_CASE("properties: a card at least as fast in every rate and bandwidth is never slower") {
    Generator gen(seed() + 3);
    Refusals refusals;
    int compared = 0;
    for (int i = 0; i < scaled(800); ++i) {
        json doc = gen.scenario();
        if (!doc["gpu"].contains("id")) continue;
        cat::DecisionScenario s;
        if (!refusals.accept(doc, s)) continue;
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        // Both copies under ids of their own: a catalog card with a measured best GEMM (data/throughput_priors.json
        // "matmul_limits") runs at that measurement, which belongs to its id, not to its datasheet rates.
        eng::GpuSpec slow = *cat::embedded_catalog().find_gpu(s.scenario.gpu_id);
        slow.id += "-copy";
        // Half the time every throughput field, the memory bandwidth and NVLink x 1.5; otherwise a random subset of
        // them, each by its own factor in [1, 3] (still >= on every field: a faster card, not a different one).
        eng::GpuSpec fast = slow;
        fast.id += "-fast";
        const bool uniform = i % 2 == 0;
        std::string scaled_fields;
        const std::pair<const char*, double*> fields[] = {
            {"fp32", &fast.dense_flop_per_s.fp32}, {"tf32", &fast.dense_flop_per_s.tf32},
            {"fp16", &fast.dense_flop_per_s.fp16}, {"fp16_fp16acc", &fast.dense_flop_per_s.fp16_fp16acc},
            {"bf16", &fast.dense_flop_per_s.bf16}, {"fp8", &fast.dense_flop_per_s.fp8},
            {"int8", &fast.dense_flop_per_s.int8}, {"memory_bandwidth", &fast.memory_bandwidth_bytes_per_s},
            {"nvlink", &fast.nvlink_bytes_per_s}};
        for (const auto& [name, rate] : fields) {
            const double f = uniform ? 1.5 : gen.chance(0.5) ? gen.real(1, 3) : 1.0;
            *rate *= f;
            if (f != 1.0) scaled_fields += std::string(name) + " x" + std::to_string(f) + " ";
        }
        INFO("faster copy of " << slow.id << ": " << scaled_fields);
        const eng::TimeReport a = time_on(s.scenario, slow);
        const eng::TimeReport b = time_on(s.scenario, fast);
        CHECK(int(a.status) == int(b.status));
        if (a.status != eng::TimeStatus::kOk) continue;
        ++compared;
        const std::pair<const char*, std::pair<double, double>> times[] = {
            {"step_s", {a.step_s, b.step_s}},       {"step_low_s", {a.step_low_s, b.step_low_s}},
            {"step_high_s", {a.step_high_s, b.step_high_s}}, {"total_s", {a.total_s, b.total_s}},
            {"low_s", {a.low_s, b.low_s}},          {"high_s", {a.high_s, b.high_s}}};
        for (const auto& entry : times) {  // not a structured binding: CAPTURE's lambda cannot see one in clang 14
            const char* name = entry.first;
            const double slow_s = entry.second.first, fast_s = entry.second.second;
            CAPTURE(name);
            CAPTURE(slow_s);
            CAPTURE(fast_s);
            CHECK(fast_s <= slow_s * (1 + 1e-12));
        }
        CHECK(b.samples_per_s >= a.samples_per_s * (1 - 1e-12));
    }
    MESSAGE("faster card: " << compared << " scenarios with a time estimate compared");
    CHECK(compared > 200);
    refusals.check();
}

TEST_CASE("properties: less to move or launch never slows a job: 16-bit gradients, channels_last, foreach") {
    Generator gen(seed() + 8);
    Refusals refusals;
    int compared = 0;
    for (int i = 0; i < scaled(600); ++i) {
        json doc = gen.scenario();
        if (!doc["gpu"].contains("id")) continue;
        cat::DecisionScenario s;
        if (!refusals.accept(doc, s)) continue;
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        const eng::GpuSpec& gpu = *cat::embedded_catalog().find_gpu(s.scenario.gpu_id);
        cat::Scenario wide = s.scenario, narrow = s.scenario, nchw = s.scenario, nhwc = s.scenario, loop = s.scenario,
                      each = s.scenario;
        wide.grad_reduce_dtype = "fp32";
        narrow.grad_reduce_dtype = "fp16";
        nchw.memory_format = "nchw";
        nhwc.memory_format = "channels_last";
        loop.optimizer_impl = "for-loop";
        each.optimizer_impl = "foreach";
        const eng::TimeReport w = time_on(wide, gpu), n = time_on(narrow, gpu);
        const eng::TimeReport fl = time_on(loop, gpu), fe = time_on(each, gpu);
        const eng::TimeReport a = time_on(nchw, gpu), b = time_on(nhwc, gpu);
        CHECK(int(w.status) == int(n.status));
        CHECK(int(a.status) == int(b.status));
        if (w.status != eng::TimeStatus::kOk) continue;
        ++compared;
        CHECK(n.comm_s <= w.comm_s * (1 + 1e-12));
        CHECK(n.step_s <= w.step_s * (1 + 1e-12));
        CHECK(n.compute_s == doctest::Approx(w.compute_s).epsilon(1e-12));
        // Depthwise convolutions run on another backend per layout (engine::depthwise_backend: cuDNN's kernels in
        // channels_last, PyTorch's own in NCHW outside its fp16 cases), and the native one can be the faster where no
        // weight gradient is taken (a frozen backbone): a different kernel, not more to move, so no ordering there.
        const bool depthwise = s.scenario.model.family == eng::Family::kMobileNetV2 ||
                               s.scenario.model.family == eng::Family::kEfficientNetB0;
        if (!depthwise) CHECK(b.step_s <= a.step_s * (1 + 1e-12));
        // (layers may group differently; under pipelining the transposes can change which stage is the slower)
        if (s.scenario.pipeline_parallel <= 1) CHECK(b.compute_s == doctest::Approx(a.compute_s).epsilon(1e-12));
        if (!s.scenario.model.is_vision) CHECK(b.step_s == a.step_s);  // no convolutions, nothing to transpose
        CHECK(fe.step_s <= fl.step_s * (1 + 1e-12));
        CHECK(fe.compute_s == fl.compute_s);  // only host time per tensor differs
        CHECK(fe.memory_bound_s == fl.memory_bound_s);
    }
    MESSAGE("bytes on the wire, layout and optimizer loop: " << compared << " scenarios compared");
    CHECK(compared > 150);
    refusals.check();
}

TEST_CASE("properties: rent cost is the billed time rounded up to the granule, so doubling hours doubles it") {
    // cost.h rent_cost: units = ceil(run_time / granule - 1e-9) (>= 1 for any run), price per granule = price_per_hour
    // x granule / 3600 s (monthly: price_per_month x granule / 30 days). Doubling the run time therefore gives
    // 2 x cost - at most one granule's price, and exactly 2 x cost when the run time is a whole number of granules.
    Generator gen(seed() + 4);
    const cat::Catalog& catalog = cat::embedded_catalog();
    const double rate = catalog.settings.exchange_rate.cny_per_usd;
    REQUIRE(rate > 0);
    int checked = 0;
    for (const eng::CloudOffer& offer : catalog.offers) {
        const double g = offer.billing_granularity_s;
        REQUIRE(g > 0);
        const double granule_price = offer.billing == eng::Billing::Monthly && offer.price_per_month > 0
                                         ? offer.price_per_month * g / eng::kStorageMonthS
                                         : offer.price_per_hour * g / 3600.0;
        const double granule_cny = eng::to_cny(granule_price, offer.currency, rate);
        const double per_hour_cny = eng::to_cny(offer.price_per_hour, offer.currency, rate);
        REQUIRE(std::isfinite(granule_cny));
        for (int k = 0; k < scaled(40); ++k) {
            double t = 0;
            switch (k % 4) {
                case 0: t = gen.real(0.001, 10) * g; break;              // anywhere
                case 1: t = double(gen.integer(1, 500)) * g; break;     // whole granules
                case 2: t = double(gen.integer(1, 500)) * g + gen.real(1e-3, 0.999) * g; break;  // just past one
                default: t = gen.real(1, 3600.0 * 24 * 365); break;      // seconds to a year
            }
            INFO("GG_PROPERTY_SEED=" << seed() << ", offer " << offer.id << ", run time " << t << " s");
            eng::RentInputs in;
            in.run_time_s = t;
            in.cny_per_usd = rate;
            in.storage_bytes = 100e9;
            in.storage_price_per_gb_month_cny = 0.3;
            const eng::RentCost one = eng::rent_cost(offer, in);
            in.run_time_s = 2 * t;
            const eng::RentCost two = eng::rent_cost(offer, in);
            in.run_time_s = t;
            in.runs = 3;
            const eng::RentCost three_runs = eng::rent_cost(offer, in);
            ++checked;
            // the granularity rule itself
            const double units = std::ceil(t / g - 1e-9);
            CHECK(one.billed_units_per_run == units);
            CHECK(one.billed_s_per_run == doctest::Approx(units * g).epsilon(1e-12));
            CHECK(one.billed_s_per_run >= t - 1e-9 * g);  // never bills less than the run (1e-9 of a granule)
            CHECK(one.billed_s_per_run < t + g);           // never a whole granule more
            CHECK(one.compute_cny == doctest::Approx(units * granule_cny).epsilon(1e-12));
            // proportional to hours, up to one granule
            CHECK(two.compute_cny <= 2 * one.compute_cny * (1 + 1e-12));
            CHECK(two.compute_cny >= 2 * one.compute_cny - granule_cny - 1e-12 * two.compute_cny);
            if (k % 4 == 1) CHECK(two.compute_cny == doctest::Approx(2 * one.compute_cny).epsilon(1e-12));
            // against the hourly price: within one granule of hours x price (monthly: price_per_hour = month / 720,
            // the catalog checks it within 1%)
            const double tol = offer.billing == eng::Billing::Monthly ? 0.01 : 1e-12;
            CHECK(one.compute_cny >= t / 3600.0 * per_hour_cny * (1 - tol) - 1e-9 * granule_cny);
            CHECK(one.compute_cny <= (t + g) / 3600.0 * per_hour_cny * (1 + tol));
            // runs are billed separately: exactly proportional; storage follows the billed time
            CHECK(three_runs.compute_cny == doctest::Approx(3 * one.compute_cny).epsilon(1e-12));
            CHECK(three_runs.storage_cny == doctest::Approx(3 * one.storage_cny).epsilon(1e-12));
            CHECK(one.storage_cny == doctest::Approx(100 * one.billed_s_per_run / eng::kStorageMonthS * 0.3).epsilon(1e-12));
        }
    }
    MESSAGE("rent cost: " << checked << " (offer, run time) pairs over " << catalog.offers.size() << " offers");
}

TEST_CASE("properties: ranking and advice do not depend on the order of the catalog's GPUs and offers") {
    Generator gen(seed() + 5);
    const cat::Catalog& catalog = cat::embedded_catalog();
    Refusals refusals;
    int compared = 0;
    for (int i = 0; compared < scaled(16) && i < scaled(100); ++i) {
        const json doc = gen.decision(gen.scenario());
        cat::DecisionScenario s;
        if (!refusals.accept(doc, s)) continue;
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        ++compared;
        // Every other scenario: the catalog plus user-data twins of some offers (same GPU, price and billing under a
        // new id, as the page's custom offers allow), so options tie on every number and only ids can order them.
        cat::Catalog base = catalog;
        if (compared % 2 == 0) {
            json user = {{"schema_version", 1}, {"offers", json::array()}};
            std::vector<eng::CloudOffer> picked = catalog.offers;
            std::shuffle(picked.begin(), picked.end(), gen.rng());
            for (std::size_t k = 0; k < picked.size(); ++k) {
                json o = cat::offer_to_json(picked[k]);
                o["id"] = o["id"].get<std::string>() + "-twin";
                user["offers"].push_back(o);
            }
            std::vector<cat::Problem> problems;
            base = cat::merge_user_data(catalog, user.dump(), problems);
            for (const cat::Problem& q : problems) MESSAGE(q.pointer << ": " << q.message);
            REQUIRE(problems.empty());
            REQUIRE(base.offers.size() > catalog.offers.size());
        }
        cat::Catalog shuffled = base;
        std::shuffle(shuffled.gpus.begin(), shuffled.gpus.end(), gen.rng());
        std::shuffle(shuffled.offers.begin(), shuffled.offers.end(), gen.rng());
        const json a = cat::rank_json(s, base);
        const json b = cat::rank_json(s, shuffled);
        REQUIRE(a["options"].size() == b["options"].size());
        for (std::size_t k = 0; k < a["options"].size(); ++k) {
            CAPTURE(k);
            const json& x = a["options"][k];
            const json& y = b["options"][k];
            CAPTURE(x["id"]);
            CAPTURE(y["id"]);
            CHECK(x["id"] == y["id"]);
            if (x != y) CHECK(json::diff(x, y).dump() == "[]");  // same numbers, reasons and fix
        }
        CHECK(a["tiers"] == b["tiers"]);
        // advise_json lists cards in catalog order: compare by GPU id
        const json aa = cat::advise_json(s, base), ab = cat::advise_json(s, shuffled);
        std::map<std::string, json> by_id;
        for (const json& c : aa["cards"]) by_id[c["gpu"].get<std::string>()] = c;
        REQUIRE(ab["cards"].size() == by_id.size());
        for (const json& c : ab["cards"]) {
            CAPTURE(c["gpu"]);
            const json& other = by_id[c["gpu"].get<std::string>()];
            if (c != other) CHECK(json::diff(other, c).dump() == "[]");
        }
    }
    MESSAGE("catalog order: " << compared << " scenarios ranked and advised on a shuffled catalog");
    CHECK(compared >= 16);
    refusals.check();
}

TEST_CASE("properties: the batch and shape solvers answer the largest value that fits") {
    // max_batch_sizes: b fits (required_bytes(b) <= usable) and b + 1 does not, unless b is the batch_limit it was
    // given; 0 when batch 1 does not fit. max_shapes_that_fit: the same in steps of the shape.
    Generator gen(seed() + 6);
    const cat::Catalog& catalog = cat::embedded_catalog();
    Refusals refusals;
    int solved = 0, capped = 0, none = 0, shapes = 0;
    for (int i = 0; i < scaled(600); ++i) {
        const json doc = gen.scenario();
        cat::DecisionScenario s;
        if (!refusals.accept(doc, s)) continue;
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        const cat::Estimate e = cat::estimate(s.scenario);
        const eng::PreparedMemory& p = e.prepared;
        const double reserve = s.scenario.reserve_fraction;
        // The report's own answer agrees with its verdict.
        // (The solver offers no batch past the dataset, Scenario::batch_limit: at that limit it says no more.)
        if (e.max_batch_size >= 0 && s.scenario.batch_size <= s.scenario.batch_limit())
            CHECK(e.report.fits == (e.max_batch_size >= s.scenario.batch_size));
        if (e.max_batch_size >= 0) CHECK(e.max_batch_size <= s.scenario.batch_limit());
        // Cards: every catalog size and random sizes from 1 GiB to 1 TiB; limits: the default and a small one.
        std::vector<double> cards;
        for (const eng::GpuSpec& g : catalog.gpus) cards.push_back(g.memory_bytes);
        for (int k = 0; k < 8; ++k) cards.push_back(std::exp(gen.real(std::log(1.0), std::log(1024.0))) * double(1ull << 30));
        const int limit = gen.chance(0.5) ? (1 << 16) : gen.log_int(1, 300);
        const std::vector<int> answers = eng::max_batch_sizes(p, cards, limit);
        REQUIRE(answers.size() == cards.size());
        for (std::size_t k = 0; k < cards.size(); ++k) {
            const double usable = cards[k] * (1 - reserve);
            const int b = answers[k];
            CAPTURE(cards[k]);
            CAPTURE(limit);
            CAPTURE(b);
            ++solved;
            if (b == 0) {
                ++none;
                CHECK(eng::required_bytes(p, 1) > usable);
                continue;
            }
            CHECK(b <= limit);
            CHECK(eng::required_bytes(p, b) <= usable);
            if (b == limit) ++capped;
            else CHECK(eng::required_bytes(p, b + 1) > usable);
        }
        // Shape solver (rebuilds the graph per probe): a few scenarios only.
        if (i % 20 == 0) {
            const eng::ModelSpec& spec = s.scenario.model;
            const bool image = spec.is_vision;
            const int unit = Generator::image_step(spec);
            const int step = image ? unit * ((32 + unit - 1) / unit) : 1;  // a valid size, at least 32
            const int upper = image ? 2048 : Generator::max_seq_len(spec, s.scenario.model_id);
            const eng::TrainingConfig c = s.scenario.training_config();
            const double card = cards[std::size_t(gen.integer(0, int(cards.size()) - 1))];
            const double usable = card * (1 - c.reserve_fraction);
            const int v = eng::max_shape_that_fits(spec, c, card, image, step, upper);
            CAPTURE(card);
            CAPTURE(v);
            auto required_at = [&](int x) {
                eng::WorkloadShape w;
                (image ? w.image_size : w.seq_len) = x;
                eng::BuildOptions o;
                o.eager_attention = c.eager_attention;
                return eng::required_bytes(eng::prepare_memory(eng::build_graph(spec, w, o), c), c.batch);
            };
            ++shapes;
            if (v == 0) CHECK(required_at(step) > usable);
            else {
                CHECK(v % step == 0);
                CHECK(required_at(v) <= usable);
                if (v + step <= upper) CHECK(required_at(v + step) > usable);
            }
        }
    }
    // Found by this test: a tiny model whose batch of 200,000 fits an H200 was reported with max_batch_size 65,536
    // (the solver's old default cap, 2^16, below the format's 2^20), so the page's card list called it "does not fit".
    {
        const json doc = {{"model", {{"family", "unet"}, {"base_channels", 8}, {"depth", 1}}}, {"image_size", 32},
                          {"batch_size", 200000}, {"precision", "bf16-amp"}, {"gpu", {{"id", "h200"}}}};
        INFO("scenario: " << doc.dump());
        cat::DecisionScenario s;
        REQUIRE(parse(doc, s));
        const cat::Estimate e = cat::estimate(s.scenario);
        CHECK(e.report.fits);
        CHECK(e.max_batch_size >= 200000);
    }
    MESSAGE("solver: " << solved << " (scenario, card) answers (" << none << " none fit, " << capped
                       << " at the limit), " << shapes << " shape answers");
    CHECK(capped > 0);
    CHECK(none > 0);
    refusals.check();
}

// Issue 28: the planner's promises, checked through the same parser and report as `gpuguide estimate`. For sampled
// options of generated scenarios: the plan keeps the global batch and every key that decides what is learned; the
// plan merged into the scenario (JSON merge patch) and estimated fits and gives the option's bytes and time exactly;
// the typed layout at the option's count, estimated the same way, is never faster where it fits (so, on one option,
// never cheaper: rent and buy costs grow with the run's time); a plan is only ever a layout, never a result change.
TEST_CASE("properties: plans keep the global batch and the results, reproduce through estimate, and beat the typed layout") {
    Generator gen(seed() + 9);
    const cat::Catalog& catalog = cat::embedded_catalog();
    Refusals refusals;
    const int kScenarios = scaled(150);
    constexpr int kOptionsPerScenario = 8;  // estimates are the cost here: a spread of each ranking's options
    // What a plan may set; every other key of the scenario must come back unchanged.
    const std::set<std::string> kLayoutKeys = {"batch_size", "grad_accum_steps", "checkpointing", "attention",
                                               "offload_optimizer", "gpu"};
    const std::set<std::string> kLayoutGpuKeys = {"id", "count", "strategy", "tensor_parallel", "pipeline_parallel",
                                                  "pipeline_interleave", "sequence_parallel", "interconnect",
                                                  "peer_to_peer"};
    int planned = 0, compared_with_typed = 0, plans_changed_layout = 0, advised_with_plan = 0;
    for (int i = 0; i < kScenarios; ++i) {
        json doc = gen.scenario();
        if (gen.chance(0.5)) doc["dataset"] = {{"samples", double(gen.log_int(100, 100000))}, {"epochs", 1}};
        cat::DecisionScenario s;
        if (!refusals.accept(doc, s)) continue;
        INFO("GG_PROPERTY_SEED=" << seed() << ", scenario " << i << ": " << doc.dump());
        const json ranked = cat::rank_json(s, catalog);
        const json& options = ranked["options"];
        // No result-changing change is advised where a same-result plan runs the job on the user's own cards (the
        // scenario does not allow result changes: the generator never sets allow_result_changes).
        {
            const json advice = cat::advise_json(s, catalog);
            for (const json& card : advice["cards"]) {
                if (!card["fix"].is_object()) continue;
                bool planned = false;
                for (const json& o : options)
                    if (o["kind"] == "buy" && o["gpu"] == card["gpu"] && o["count"] == s.scenario.gpu_count &&
                        o["plan"]["found"].get<bool>() && o["verdict"] == "fits")
                        planned = true;
                // (A card without the typed precision is advised another one: that change is the card's, not a plan's.)
                const eng::GpuSpec* g = catalog.find_gpu(card["gpu"].get<std::string>());
                if (!planned || g == nullptr ||
                    !eng::precision_supported(*g, s.scenario.training_config().precision, cat::embedded_compat_data()))
                    continue;
                CAPTURE(card["gpu"].get<std::string>());
                for (const json& c : card["fix"]["changes"]) {
                    CAPTURE(c["change"].get<std::string>());
                    CHECK(c["accuracy_risk"] == "none");
                }
                ++advised_with_plan;
            }
        }
        const eng::TrainingConfig typed = s.scenario.training_config();
        const double global_batch = typed.batch * typed.grad_accum_steps * eng::data_parallel(typed);
        const std::size_t stride = std::max<std::size_t>(1, options.size() / kOptionsPerScenario);
        for (std::size_t k = 0; k < options.size(); k += stride) {
            const json& o = options[k];
            const json& plan = o["plan"];
            CAPTURE(o["id"].get<std::string>());
            CHECK(plan["found"].get<bool>() == o["fits"].get<bool>());
            if (!plan["found"].get<bool>()) continue;
            bool incompatible = false;
            for (const json& r : o["reasons"]) incompatible |= r["code"] == "incompatible";
            if (incompatible) continue;  // the card cannot run the precision at all: the parser refuses it
            CHECK(plan["global_batch"].get<double>() == global_batch);
            for (const auto& [key, value] : plan["scenario"].items())
                if (key == "dataset")  // only the rented server's CPU threads (catalog/loader_json.h), never results
                    CHECK(value == json({{"loader", {{"cpus", value["loader"]["cpus"]}}}}));
                else CHECK(kLayoutKeys.count(key) == 1);
            for (const auto& [key, value] : plan["scenario"]["gpu"].items()) CHECK(kLayoutGpuKeys.count(key) == 1);
            // Apply and estimate.
            json applied = doc;
            applied.merge_patch(plan["scenario"]);
            CAPTURE(applied.dump());
            // The parser refuses a precision the card lacks (tf32 below compute capability 8.0) where the ranking shows
            // the option with a fallback warning: that refusal, and only that one, is not the plan's.
            const cat::ParsedDecision parsed = cat::parse_decision_scenario_json(applied, catalog, "plan");
            bool card_precision_only = !parsed.problems.empty();
            for (const auto& p : parsed.problems) {
                CAPTURE(p.pointer);
                CAPTURE(p.message);
                card_precision_only &= p.pointer == "/precision";
            }
            if (card_precision_only) continue;
            REQUIRE(parsed.problems.empty());
            const cat::DecisionScenario& a = parsed.value;
            const eng::TrainingConfig planned_config = a.scenario.training_config();
            CHECK(planned_config.batch * planned_config.grad_accum_steps * eng::data_parallel(planned_config) ==
                  global_batch);
            const cat::Estimate e = cat::estimate(a.scenario);
            const json report = cat::full_report(a, e, catalog);
            // The card holds it (fits or tight: estimate counts a desktop on a consumer card the ranking's rented
            // one has not, and a tight plan is one the card holds without the headroom); a bought card's plan that
            // fits with the headroom fits in estimate too (the same desktop counted).
            CHECK(report["verdict"] != "does_not_fit");
            if (o["kind"] == "buy" && o["verdict"] == "fits") CHECK(report["verdict"] == "fits");
            CHECK(report["memory_bytes"]["nvidia_smi"].get<double>() ==
                  doctest::Approx(plan["peak_bytes_per_card"].get<double>()).epsilon(1e-12));
            if (plan["time_s"].is_number()) {
                REQUIRE(report["time"]["total_s"].is_number());
                CHECK(report["time"]["total_s"].get<double>() ==
                      doctest::Approx(plan["time_s"].get<double>()).epsilon(1e-12));
            }
            // Everything but the layout is what the user typed.
            json typed_doc = cat::decision_scenario_to_json(s), planned_doc = cat::decision_scenario_to_json(a);
            for (const std::string& key : kLayoutKeys) typed_doc.erase(key), planned_doc.erase(key);
            for (json* d : {&typed_doc, &planned_doc})  // the machine's CPU threads: the server's, not a result
                if (d->contains("dataset")) {
                    (*d)["dataset"].erase("loader");
                    if ((*d)["dataset"].empty()) d->erase("dataset");
                }
            CHECK(typed_doc == planned_doc);
            ++planned;
            plans_changed_layout += !plan["as_typed"].get<bool>();
            // The typed layout on the same cards (its accumulation keeping the global batch), where it can be said.
            const int count = o["count"].get<int>();
            const double replicas = count / double(std::max(1, typed.tensor_parallel * typed.pipeline_parallel));
            const double accum = global_batch / (typed.batch * replicas);
            // (Typed optimizer offload is left out: the ranking also checks the host's RAM, which estimate does not.)
            if (!plan["time_s"].is_number() || accum < 1 || accum != std::floor(accum) || replicas != std::floor(replicas) ||
                typed.offload_optimizer)
                continue;
            json typed_here = doc;
            typed_here["grad_accum_steps"] = int(accum);
            typed_here["gpu"]["id"] = o["gpu"];
            typed_here["gpu"]["count"] = count;
            typed_here["gpu"].erase("interconnect");
            typed_here["gpu"].erase("peer_to_peer");
            if (plan["scenario"].contains("dataset"))  // the same server's CPU threads pace its loader
                typed_here.merge_patch({{"dataset", plan["scenario"]["dataset"]}});
            cat::DecisionScenario t;
            if (!parse(typed_here, t)) continue;
            const cat::Estimate te = cat::estimate(t.scenario);
            const json treport = cat::full_report(t, te, catalog);
            if (!treport["fits"].get<bool>() || !treport["time"]["total_s"].is_number()) continue;
            ++compared_with_typed;
            CHECK(plan["time_s"].get<double>() <= treport["time"]["total_s"].get<double>() * (1 + 1e-12));
        }
    }
    MESSAGE("plans: " << planned << " planned options applied and estimated (" << plans_changed_layout
                      << " with another layout than typed), " << compared_with_typed << " compared with the typed layout");
    CHECK(planned > 50);
    CHECK(plans_changed_layout > 0);
    CHECK(compared_with_typed > 0);
    CHECK(advised_with_plan > 0);
    MESSAGE("advice on " << advised_with_plan << " cards a same-result plan runs the job on: no result change advised");
    refusals.check();
}
