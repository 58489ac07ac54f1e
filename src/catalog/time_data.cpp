// Loading the time engine's data (see time_data.h). The one place where its data units (GB/s, us) become base
// units. JSON is parsed with exceptions off; every value's type is checked before it is read.
#include "catalog/time_data.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "catalog/embedded_data.h"

namespace gg::catalog {
namespace {

using nlohmann::json;

struct Reader {
    const char* file;
    std::vector<Problem>& problems;
    void problem(const std::string& pointer, const std::string& message) const {
        problems.push_back({file, pointer, message});
    }
    // A finite number in [lo, hi]; `null_ok`: null reads as `fallback`.
    bool number(const json& obj, const std::string& ptr, const char* key, double lo, double hi, double& out,
                bool null_ok = false, double fallback = 0) const {
        const std::string p = ptr + "/" + key;
        auto it = obj.find(key);
        if (it == obj.end()) {
            problem(p, std::string("missing: expected a number (") + key + ")");
            return false;
        }
        if (it->is_null() && null_ok) {
            out = fallback;
            return true;
        }
        if (!it->is_number() || !std::isfinite(it->get<double>())) {
            problem(p, std::string("expected a number for ") + key);
            return false;
        }
        const double v = it->get<double>();
        if (v < lo || v > hi) {
            problem(p, std::string(key) + " = " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " +
                           std::to_string(hi) + "]");
            return false;
        }
        out = v;
        return true;
    }
    bool string(const json& obj, const std::string& ptr, const char* key, std::string& out) const {
        auto it = obj.find(key);
        if (it == obj.end() || !it->is_string() || it->get<std::string>().empty()) {
            problem(ptr + "/" + key, std::string("expected a non-empty string for ") + key);
            return false;
        }
        out = it->get<std::string>();
        return true;
    }
    bool boolean(const json& obj, const std::string& ptr, const char* key, bool& out) const {
        auto it = obj.find(key);
        if (it == obj.end() || !it->is_boolean()) {
            problem(ptr + "/" + key, std::string("expected true or false for ") + key);
            return false;
        }
        out = it->get<bool>();
        return true;
    }
    // An optional array of validation case ids (absent: none).
    bool ids(const json& obj, const std::string& ptr, const char* key, std::vector<std::string>& out) const {
        auto it = obj.find(key);
        if (it == obj.end()) return true;
        const std::string p = ptr + "/" + key;
        if (!it->is_array()) {
            problem(p, std::string("expected an array of validation case ids for ") + key);
            return false;
        }
        for (std::size_t i = 0; i < it->size(); ++i) {
            const json& id = (*it)[i];
            if (!id.is_string() || id.get<std::string>().empty()) {
                problem(p + "/" + std::to_string(i), "expected a validation case id (a non-empty string)");
                return false;
            }
            out.push_back(id.get<std::string>());
        }
        return true;
    }
    bool spread(const json& obj, const std::string& ptr, const char* key, engine::Spread& out) const {
        auto it = obj.find(key);
        const std::string p = ptr + "/" + key;
        if (it == obj.end() || !it->is_object()) {
            problem(p, std::string("expected an object {low, expected, high} for ") + key);
            return false;
        }
        bool ok = number(*it, p, "low", 1e-4, 1.0, out.low) && number(*it, p, "expected", 1e-4, 1.0, out.expected) &&
                  number(*it, p, "high", 1e-4, 1.0, out.high);
        if (ok && !(out.low <= out.expected && out.expected <= out.high)) {
            problem(p, "expected low <= expected <= high");
            ok = false;
        }
        return ok;
    }
};

bool parse_doc(const Reader& r, std::string_view text, json& out) {
    out = json::parse(text.begin(), text.end(), nullptr, false);
    if (out.is_discarded() || !out.is_object()) {
        r.problem("", "not a JSON object: check the file for a syntax error");
        return false;
    }
    auto v = out.find("schema_version");
    if (v == out.end() || !v->is_number_integer() || v->get<int>() != 1) {
        r.problem("/schema_version", "expected schema_version 1");
        return false;
    }
    return true;
}

// The efficiency priors per model family (`priors`); false when the list is missing, which ends the reading.
bool read_efficiency_priors(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    auto list = doc.find("priors");
    if (list == doc.end() || !list->is_array()) {
        r.problem("/priors", "expected an array of priors");
        return false;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& rec = (*list)[i];
        const std::string p = "/priors/" + std::to_string(i);
        if (!rec.is_object()) {
            r.problem(p, "expected an object");
            continue;
        }
        engine::EfficiencyPrior e;
        bool ok = r.string(rec, p, "id", e.id) && r.string(rec, p, "source", e.source);
        auto fam = rec.find("families");
        if (fam == rec.end() || !fam->is_array() || fam->empty()) {
            r.problem(p + "/families", "expected a non-empty array of family names");
            ok = false;
        } else {
            for (std::size_t j = 0; j < fam->size(); ++j) {
                engine::Family f;
                if (!(*fam)[j].is_string() || !parse_family((*fam)[j].get<std::string>(), f)) {
                    r.problem(p + "/families/" + std::to_string(j), "unknown family name");
                    ok = false;
                    continue;
                }
                for (const engine::EfficiencyPrior& other : out.priors)
                    if (std::find(other.families.begin(), other.families.end(), f) != other.families.end()) {
                        r.problem(p + "/families/" + std::to_string(j), "family already covered by prior " + other.id);
                        ok = false;
                    }
                e.families.push_back(f);
            }
        }
        ok = r.spread(rec, p, "matmul_fraction", e.matmul_fraction) && ok;
        ok = r.spread(rec, p, "bandwidth_fraction", e.bandwidth_fraction) && ok;
        double overhead_us = 0;
        ok = r.number(rec, p, "per_layer_overhead_us", 0, 1000, overhead_us) && ok;
        e.per_layer_overhead_s = overhead_us * 1e-6;
        ok = r.ids(rec, p, "fitted_to", e.fitted_to) && ok;
        if (ok) out.priors.push_back(std::move(e));
    }
    return true;
}

// The communication prior (`comm`); false when it is missing, which ends the reading.
bool read_comm_prior(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    auto comm = doc.find("comm");
    if (comm == doc.end() || !comm->is_object()) {
        r.problem("/comm", "expected an object {overlap_fraction, gpus_per_node, source}");
        return false;
    }
    engine::CommPrior c;
    bool ok = r.number(*comm, "/comm", "overlap_fraction", 0, 1, c.overlap_fraction);
    ok = r.number(*comm, "/comm", "sharded_overlap_fraction", 0, 1, c.sharded_overlap_fraction) && ok;
    ok = r.number(*comm, "/comm", "gpus_per_node", 1, 1024, c.gpus_per_node) && ok;
    if (comm->contains("overlap_slowdown_fraction"))  // optional: absent = overlapped collectives cost nothing
        ok = r.number(*comm, "/comm", "overlap_slowdown_fraction", 0, 1, c.overlap_slowdown_fraction) && ok;
    ok = r.string(*comm, "/comm", "source", c.source) && ok;
    ok = r.ids(*comm, "/comm", "overlap_fitted_to", c.overlap_fitted_to) && ok;
    ok = r.ids(*comm, "/comm", "sharded_overlap_fitted_to", c.sharded_overlap_fitted_to) && ok;
    if (ok) out.comm = c;
    return true;
}

// Optional mechanism records {<field>, source} (value x scale); a missing record leaves it unmodelled.
void read_mechanism_records(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    auto optional_record = [&](const char* key, const char* field, double max_value, double scale, double& value,
                               std::string& source_out) {
        auto rec = doc.find(key);
        if (rec == doc.end()) return;
        const std::string pointer = std::string("/") + key;
        double v = 0;
        std::string source;
        bool k_ok = rec->is_object();
        if (!k_ok) r.problem(pointer, std::string("expected an object {") + field + ", source}");
        else {
            k_ok = r.number(*rec, pointer, field, 0, max_value, v);
            k_ok = r.string(*rec, pointer, "source", source) && k_ok;
        }
        if (k_ok) {
            value = v * scale;
            source_out = source;
        }
    };
    // Floor of a recurrence step's kernels (without it recurrences are timed by roofline only), the host time of
    // each small kernel of a for-loop optimizer step (without it such loops cost nothing), both in us; and the bytes
    // per SM cycle that eager memory-bound kernels move (without it only the bandwidth fraction limits them).
    optional_record("kernel_launch", "latency_us", 1000, 1e-6, out.kernel_launch_s, out.kernel_launch_source);
    optional_record("optimizer_loop", "per_op_us", 1000, 1e-6, out.optimizer_op_s, out.optimizer_op_source);
    optional_record("sm_stream_limit", "bytes_per_sm_cycle", 1024, 1.0, out.stream_bytes_per_sm_cycle,
                    out.stream_source);
    optional_record("matmul_reference", "fraction_of_peak", 1.5, 1.0, out.matmul_reference_fraction,
                    out.matmul_reference_source);
}

// ZeRO-Offload's CPU optimizer step (optional): bytes per parameter through host memory, and the achievable host
// memory bandwidth of a desktop and of a two-socket server, in GB/s (10^9 bytes).
void read_cpu_optimizer(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (auto rec = doc.find("cpu_optimizer"); rec != doc.end()) {
        const char* pointer = "/cpu_optimizer";
        double bytes = 0, desktop = 0, server = 0;
        std::string source;
        bool c_ok = rec->is_object();
        if (!c_ok) r.problem(pointer, "expected an object {bytes_per_param, desktop_host_gb_per_s, server_host_gb_per_s, source}");
        else {
            c_ok = r.number(*rec, pointer, "bytes_per_param", 1, 200, bytes);
            c_ok = r.number(*rec, pointer, "desktop_host_gb_per_s", 1, 2000, desktop) && c_ok;
            c_ok = r.number(*rec, pointer, "server_host_gb_per_s", 1, 5000, server) && c_ok;
            c_ok = r.string(*rec, pointer, "source", source) && c_ok;
        }
        if (c_ok) {
            out.cpu_optimizer_bytes_per_param = bytes;
            out.desktop_host_bytes_per_s = desktop * 1e9;
            out.server_host_bytes_per_s = server * 1e9;
            out.cpu_optimizer_source = source;
        }
    }
}

// The measured GeForce cards' median share of their datasheet 16-bit GEMM rate, for the unmeasured ones (optional).
void read_geforce_share(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (auto share = doc.find("geforce_unmeasured_share"); share != doc.end()) {
        const char* pointer = "/geforce_unmeasured_share";
        double fraction = 0;
        std::string source;
        bool s_ok = share->is_object();
        if (!s_ok) r.problem(pointer, "expected an object {fraction_of_datasheet, source}");
        else {
            s_ok = r.number(*share, pointer, "fraction_of_datasheet", 0.5, 1.5, fraction);
            s_ok = r.string(*share, pointer, "source", source) && s_ok;
        }
        if (s_ok) {
            out.geforce_share_16bit = fraction;
            out.geforce_share_source = source;
        }
    }
}

// One sustained tensor clock per card: the segments whose unmeasured TF32 rate takes the 16-bit share (optional).
void read_tf32_share(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (auto share = doc.find("tf32_takes_16bit_share"); share != doc.end()) {
        const char* pointer = "/tf32_takes_16bit_share";
        std::vector<std::string> segments;
        std::string source;
        bool s_ok = share->is_object();
        if (!s_ok) r.problem(pointer, "expected an object {segments, source}");
        else {
            auto list = share->find("segments");
            if (list == share->end() || !list->is_array() || list->empty()) {
                r.problem(std::string(pointer) + "/segments",
                          "expected a non-empty array of segments (\"consumer\", \"workstation\", \"datacenter\")");
                s_ok = false;
            } else {
                for (std::size_t i = 0; i < list->size(); ++i) {
                    const json& seg = (*list)[i];
                    if (!seg.is_string() || (seg != "consumer" && seg != "workstation" && seg != "datacenter")) {
                        r.problem(std::string(pointer) + "/segments/" + std::to_string(i),
                                  "must be \"consumer\", \"workstation\" or \"datacenter\"");
                        s_ok = false;
                    } else {
                        segments.push_back(seg.get<std::string>());
                    }
                }
            }
            s_ok = r.string(*share, pointer, "source", source) && s_ok;
        }
        if (s_ok) {
            out.tf32_share_segments = segments;
            out.tf32_share_source = source;
        }
    }
}

// Fused attention: FlashAttention-2's most of the dense peak, per NVIDIA architecture (optional list).
void read_fused_attention_limits(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (auto limits = doc.find("fused_attention_limits"); limits != doc.end()) {
        if (!limits->is_array()) {
            r.problem("/fused_attention_limits",
                      "expected an array of {compute_capability_major, fraction_of_peak, source}");
        } else {
            for (std::size_t i = 0; i < limits->size(); ++i) {
                const json& rec = (*limits)[i];
                const std::string p = "/fused_attention_limits/" + std::to_string(i);
                engine::ThroughputPriors::FusedAttentionLimit l;
                double major = 0;
                bool l_ok = rec.is_object();
                if (!l_ok) r.problem(p, "expected an object {compute_capability_major, fraction_of_peak, source}");
                else {
                    l_ok = r.number(rec, p, "compute_capability_major", 1, 20, major);
                    l_ok = r.number(rec, p, "fraction_of_peak", 0.01, 1.0, l.fraction_of_peak) && l_ok;
                    l_ok = r.string(rec, p, "source", l.source) && l_ok;
                }
                l.compute_capability_major = int(major);
                for (const auto& other : out.fused_attention_limits)
                    if (l_ok && other.compute_capability_major == l.compute_capability_major) {
                        r.problem(p + "/compute_capability_major", "this architecture already has a limit");
                        l_ok = false;
                    }
                if (l_ok) out.fused_attention_limits.push_back(l);
            }
        }
    }
}

// Measured best GEMMs per card and input dtype (optional list; matmul_reference turns them into rates).
void read_matmul_limits(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (auto limits = doc.find("matmul_limits"); limits != doc.end()) {
        if (!limits->is_array()) {
            r.problem("/matmul_limits", "expected an array of {gpu, rate, tflops, source}");
        } else {
            for (std::size_t i = 0; i < limits->size(); ++i) {
                const json& rec = (*limits)[i];
                const std::string p = "/matmul_limits/" + std::to_string(i);
                engine::ThroughputPriors::MatmulLimit l;
                std::string rate;
                double tflops = 0;
                bool l_ok = rec.is_object();
                if (!l_ok) r.problem(p, "expected an object {gpu, rate, tflops, source}");
                else {
                    l_ok = r.string(rec, p, "gpu", l.gpu_id);
                    l_ok = r.string(rec, p, "rate", rate) && l_ok;
                    if (l_ok && rate != "fp32" && rate != "tf32" && rate != "fp16" && rate != "bf16" && rate != "fp8") {
                        r.problem(p + "/rate", "must be \"fp32\", \"tf32\", \"fp16\", \"bf16\" (also used for fp16 "
                                               "where the card has no fp16 entry) or \"fp8\"");
                        l_ok = false;
                    }
                    l.rate = rate == "fp8"    ? engine::MatmulRate::kFp8
                             : rate == "fp16" ? engine::MatmulRate::kFp16
                             : rate == "fp32" ? engine::MatmulRate::kFp32
                             : rate == "tf32" ? engine::MatmulRate::kTf32
                                              : engine::MatmulRate::kBf16;
                    l_ok = r.number(rec, p, "tflops", 1, 100000, tflops) && l_ok;
                    l_ok = r.string(rec, p, "source", l.source) && l_ok;
                    // Optional: the rate of a long run of back-to-back GEMMs on a power-capped card, with its own
                    // source; at most the best (a burst is never slower than the steady state).
                    if (rec.contains("sustained_tflops")) {
                        double sustained = 0;
                        l_ok = r.number(rec, p, "sustained_tflops", 1, tflops > 0 ? tflops : 100000, sustained) && l_ok;
                        l_ok = r.string(rec, p, "sustained_source", l.sustained_source) && l_ok;
                        l.sustained_flop_per_s = sustained * 1e12;
                    }
                }
                l.flop_per_s = tflops * 1e12;
                for (const auto& other : out.matmul_limits)
                    if (l_ok && other.gpu_id == l.gpu_id && other.rate == l.rate) {
                        r.problem(p, "this card already has a limit for this rate");
                        l_ok = false;
                    }
                if (l_ok) out.matmul_limits.push_back(l);
            }
        }
    }
}

// Cards that take another card's measurements (optional list): each names a card with measurements of its own,
// and has none itself (a twin of a twin is refused: one step, so each borrowing states its own reason).
void read_matmul_twins(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (auto twins = doc.find("matmul_limit_twins"); twins != doc.end()) {
        if (!twins->is_array()) {
            r.problem("/matmul_limit_twins", "expected an array of {gpu, same_as, source}");
        } else {
            auto measured = [&](const std::string& id) {
                return std::any_of(out.matmul_limits.begin(), out.matmul_limits.end(),
                                   [&](const engine::ThroughputPriors::MatmulLimit& l) { return l.gpu_id == id; });
            };
            for (std::size_t i = 0; i < twins->size(); ++i) {
                const json& rec = (*twins)[i];
                const std::string p = "/matmul_limit_twins/" + std::to_string(i);
                engine::ThroughputPriors::MatmulTwin t;
                bool t_ok = rec.is_object();
                if (!t_ok) r.problem(p, "expected an object {gpu, same_as, source}");
                else {
                    t_ok = r.string(rec, p, "gpu", t.gpu_id);
                    t_ok = r.string(rec, p, "same_as", t.same_as) && t_ok;
                    t_ok = r.string(rec, p, "source", t.source) && t_ok;
                }
                if (t_ok && measured(t.gpu_id)) {
                    r.problem(p + "/gpu", "this card has measurements of its own in matmul_limits");
                    t_ok = false;
                }
                if (t_ok && !measured(t.same_as)) {
                    r.problem(p + "/same_as", "no measurement of that card in matmul_limits");
                    t_ok = false;
                }
                for (const auto& other : out.matmul_twins)
                    if (t_ok && other.gpu_id == t.gpu_id) {
                        r.problem(p + "/gpu", "this card already has a twin");
                        t_ok = false;
                    }
                if (t_ok) out.matmul_twins.push_back(t);
            }
        }
    }
}

// The prior the stream limit was fitted together with (tools/fit_priors.cpp).
void read_stream_fitted_with(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    auto stream = doc.find("sm_stream_limit");
    if (stream != doc.end() && stream->is_object() && stream->contains("fitted_with")) {
        if (r.string(*stream, "/sm_stream_limit", "fitted_with", out.stream_fitted_with) &&
            std::none_of(out.priors.begin(), out.priors.end(),
                         [&](const engine::EfficiencyPrior& e) { return e.id == out.stream_fitted_with; })) {
            r.problem("/sm_stream_limit/fitted_with", "no prior has the id '" + out.stream_fitted_with + "'");
            out.stream_fitted_with.clear();
        }
    }
}

// data/throughput_priors.json: the efficiency and communication priors, then the optional mechanism records
// and measured limits (each reader adds what it finds; a missing priors list or comm object ends the reading).
void read_priors(const Reader& r, const json& doc, engine::ThroughputPriors& out) {
    if (!read_efficiency_priors(r, doc, out)) return;
    if (!read_comm_prior(r, doc, out)) return;
    r.ids(doc, "", "per_layer_overhead_fitted_to", out.overhead_fitted_to);
    read_mechanism_records(r, doc, out);
    read_cpu_optimizer(r, doc, out);
    read_geforce_share(r, doc, out);
    read_tf32_share(r, doc, out);
    read_fused_attention_limits(r, doc, out);
    read_matmul_limits(r, doc, out);
    read_matmul_twins(r, doc, out);
    read_stream_fitted_with(r, doc, out);
}

void read_interconnects(const Reader& r, const json& doc, engine::InterconnectTable& out) {
    auto list = doc.find("interconnects");
    if (list == doc.end() || !list->is_array()) {
        r.problem("/interconnects", "expected an array of interconnects");
        return;
    }
    for (std::size_t i = 0; i < list->size(); ++i) {
        const json& rec = (*list)[i];
        const std::string p = "/interconnects/" + std::to_string(i);
        if (!rec.is_object()) {
            r.problem(p, "expected an object");
            continue;
        }
        engine::InterconnectSpec s;
        std::string kind;
        bool ok = r.string(rec, p, "id", s.id) && r.string(rec, p, "source", s.source);
        if (r.string(rec, p, "kind", kind) && !engine::parse_interconnect(kind, s.kind)) {
            r.problem(p + "/kind", "unknown kind '" + kind + "': expected pcie3, pcie4, pcie5, nvlink-bridge, nvlink, ib or ethernet");
            ok = false;
        }
        ok = r.boolean(rec, p, "peer_to_peer", s.peer_to_peer) && ok;
        ok = r.boolean(rec, p, "per_gpu_link", s.per_gpu_link) && ok;
        ok = r.boolean(rec, p, "inter_node", s.inter_node) && ok;
        ok = r.boolean(rec, p, "default", s.is_default) && ok;
        double gb = 0, lat_us = 0;
        ok = r.number(rec, p, "nominal_gb_per_s", 0.01, 10000, gb, s.per_gpu_link, 0) && ok;
        s.nominal_bytes_per_s = gb * 1e9;  // GB = 10^9 bytes
        ok = r.number(rec, p, "achievable_fraction", 0.01, 1, s.achievable_fraction, true, 1.0) && ok;
        // Optional spread of the achievable fraction between machines: {"low", "high", "source"}.
        s.fraction_low = s.fraction_high = s.achievable_fraction;
        if (auto range = rec.find("achievable_range"); range != rec.end()) {
            const std::string rp = p + "/achievable_range";
            std::string range_source;
            if (!range->is_object()) {
                r.problem(rp, "expected an object {low, high, source}");
                ok = false;
            } else if (r.number(*range, rp, "low", 0.01, 1, s.fraction_low) &&
                       r.number(*range, rp, "high", 0.01, 1, s.fraction_high) &&
                       r.string(*range, rp, "source", range_source)) {
                if (!(s.fraction_low <= s.achievable_fraction && s.achievable_fraction <= s.fraction_high)) {
                    r.problem(rp, "expected low <= achievable_fraction <= high");
                    ok = false;
                }
            } else {
                ok = false;
            }
        }
        ok = r.number(rec, p, "latency_us", 0, 1e5, lat_us) && ok;
        s.latency_s = lat_us * 1e-6;
        if (out.find_id(s.id)) {
            r.problem(p + "/id", "duplicate id '" + s.id + "'");
            ok = false;
        }
        if (ok) out.entries.push_back(std::move(s));
    }
}

struct Embedded {
    engine::ThroughputPriors data;
    std::vector<Problem> problems;
};

const Embedded& embedded() {
    static const Embedded e = [] {
        Embedded out;
        out.data = parse_time_data(embedded_file(kThroughputPriorsFile), embedded_file(kInterconnectsFile), out.problems);
        return out;
    }();
    return e;
}

}  // namespace

const char* prior_family_name(engine::Family f) {
    using engine::Family;
    switch (f) {
        case Family::kResNet: return "resnet";
        case Family::kVgg: return "vgg";
        case Family::kMobileNetV2: return "mobilenet-v2";
        case Family::kEfficientNetB0: return "efficientnet";
        case Family::kVit: return "vit";
        case Family::kEncoder: return "encoder";
        case Family::kDecoder: return "decoder";
        case Family::kUnet: return "unet";
        case Family::kYolo: return "yolo";
        case Family::kSdUnet: return "sd-unet";
        case Family::kBiLstmCrf: return "bilstm-crf";
    }
    return "decoder";
}

bool parse_family(std::string_view name, engine::Family& out) {
    using engine::Family;
    for (Family f : {Family::kResNet, Family::kVgg, Family::kMobileNetV2, Family::kEfficientNetB0, Family::kVit,
                     Family::kEncoder, Family::kDecoder, Family::kUnet, Family::kYolo, Family::kSdUnet,
                     Family::kBiLstmCrf}) {
        if (name == prior_family_name(f)) {
            out = f;
            return true;
        }
    }
    return false;
}

engine::ThroughputPriors parse_time_data(std::string_view priors_json, std::string_view interconnects_json,
                                         std::vector<Problem>& problems) {
    engine::ThroughputPriors out;
    json doc;
    const Reader pr{kThroughputPriorsFile, problems};
    if (parse_doc(pr, priors_json, doc)) read_priors(pr, doc, out);
    const Reader ir{kInterconnectsFile, problems};
    if (parse_doc(ir, interconnects_json, doc)) read_interconnects(ir, doc, out.interconnects);
    return out;
}

const engine::ThroughputPriors& embedded_time_data() { return embedded().data; }
const std::vector<Problem>& embedded_time_data_problems() { return embedded().problems; }

}  // namespace gg::catalog
