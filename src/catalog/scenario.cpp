// Scenario JSON <-> engine configuration (see scenario.h). Never throws: text is read with parse_json_text (depth
// limit, duplicate keys, located syntax errors; it catches nlohmann's exceptions) and values with explicit type
// checks; every problem carries its JSON pointer and the allowed values.
//
// Sections: allowed values | readers | custom models | parse | to_json | engine config
#include "catalog/scenario.h"
#include "catalog/compat_data.h"
#include "catalog/gan_models.h"
#include "catalog/hf_config.h"
#include "catalog/json_text.h"
#include "catalog/loader_json.h"
#include "catalog/time_data.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace gg::catalog {

using nlohmann::json;

// ---- allowed values ------------------------------------------------------------------------------------------
const std::vector<std::string> kFp32Modules = {"none", "norms", "all"};
const std::vector<std::string> kPrecisions = {"fp32", "tf32", "fp16-amp", "bf16-amp", "bf16", "fp8", "int8", "nf4"};
const std::vector<std::string> kOptimizers = {"sgd", "sgd-momentum", "adam", "adamw", "adamw-8bit", "adafactor", "lion"};
const std::vector<std::string> kMethods = {"full", "frozen-backbone", "lora", "qlora"};
const std::vector<std::string> kCheckpointings = {"none", "selective", "full"};
const std::vector<std::string> kAttentions = {"eager", "sdpa", "flash"};
// In engine::Strategy's order ("dp": torch.nn.DataParallel, engine/data_parallel.h).
const std::vector<std::string> kStrategies = {"ddp", "zero1", "zero2", "zero3", "fsdp", "dp"};
const std::vector<std::string> kInterconnects = {"pcie3", "pcie4", "pcie5", "nvlink-bridge", "nvlink", "ib", "ethernet"};
const std::vector<std::string> kGradReduceDtypes = {"fp32", "fp16", "bf16"};
const std::vector<std::string> kMemoryFormats = {"nchw", "channels_last"};
const std::vector<std::string> kOptimizerImpls = {"foreach", "for-loop", "fused"};  // engine::OptimizerImpl order
const std::vector<std::string> kLoraTargets = {"q", "k", "v", "o", "qkv", "gate", "up", "down", "fc1", "fc2"};
// The fine-tuning stacks a scenario can name, and their switches (stack_mechanisms below).
const std::vector<std::string> kStacks = {"hf-trainer", "llama-factory", "unsloth", "torchtune", "axolotl"};
const std::vector<std::string> kDisplays = {"auto", "none", "linux-desktop", "windows-desktop"};  // engine::Display

std::vector<std::string> network_ids() {
    std::vector<std::string> ids;
    for (const engine::InterconnectSpec& e : embedded_time_data().interconnects.entries)
        if (e.inter_node) ids.push_back(e.id);
    return ids;
}

const char* network_conflict(const Scenario& s) {
    const engine::InterconnectSpec* e = embedded_time_data().interconnects.find_id(s.network);
    if (!e || !(s.interconnect == "ib" || s.interconnect == "ethernet")) return nullptr;
    const char* kind = engine::interconnect_name(e->kind);
    return kind == s.interconnect ? nullptr : kind;
}

void align_network(Scenario& s, NetworkEdit edited) {
    const char* kind = network_conflict(s);
    if (!kind) return;
    if (edited == NetworkEdit::kNetworkChanged) s.interconnect = kind;
    else s.network.clear();
}

namespace {

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

template <class T>
int index_of(const std::vector<T>& v, const T& x) {
    const auto it = std::find(v.begin(), v.end(), x);
    return it == v.end() ? -1 : int(it - v.begin());
}

// ---- readers -------------------------------------------------------------------------------------------------
struct Reader {
    std::string file;
    std::vector<Problem>* problems;
    void problem(const std::string& pointer, const std::string& message) { problems->push_back({file, pointer, message}); }

    bool integer(const json& o, const char* key, const std::string& ptr, int& out, long long lo, long long hi) {
        if (!o.contains(key)) return false;
        const json& v = o.at(key);
        const std::string p = ptr + "/" + key;
        double d = 0;
        if (v.is_number_integer() || v.is_number_unsigned()) d = v.get<double>();
        else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()) d = v.get<double>();
        else {
            problem(p, std::string("'") + key + "' must be a whole number from " + std::to_string(lo) + " to " +
                           std::to_string(hi));
            return false;
        }
        if (d < double(lo) || d > double(hi)) {
            problem(p, std::string("'") + key + "' must be from " + std::to_string(lo) + " to " + std::to_string(hi) +
                           " (got " + v.dump() + ")");
            return false;
        }
        out = int(d);
        return true;
    }
    bool number(const json& o, const char* key, const std::string& ptr, double& out, double lo, double hi,
                bool lo_open = false) {
        if (!o.contains(key)) return false;
        const json& v = o.at(key);
        const std::string p = ptr + "/" + key;
        if (!v.is_number()) {
            problem(p, std::string("'") + key + "' must be a number");
            return false;
        }
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi || (lo_open && d == lo)) {
            problem(p, std::string("'") + key + "' must be " + (lo_open ? "greater than " : "from ") + json(lo).dump() +
                           (lo_open ? " and at most " : " to ") + json(hi).dump() + " (got " + v.dump() + ")");
            return false;
        }
        out = d;
        return true;
    }
    bool boolean(const json& o, const char* key, const std::string& ptr, bool& out) {
        if (!o.contains(key)) return false;
        if (!o.at(key).is_boolean()) {
            problem(ptr + "/" + key, std::string("'") + key + "' must be true or false");
            return false;
        }
        out = o.at(key).get<bool>();
        return true;
    }
    bool choice(const json& o, const char* key, const std::string& ptr, const std::vector<std::string>& allowed,
                std::string& out) {
        if (!o.contains(key)) return false;
        const json& v = o.at(key);
        if (!v.is_string() || index_of(allowed, v.get<std::string>()) < 0) {
            problem(ptr + "/" + key, std::string("'") + key + "' must be one of: " + join(allowed) + " (got " +
                                         v.dump() + ")");
            return false;
        }
        out = v.get<std::string>();
        return true;
    }
    void unknown_keys(const json& o, const std::string& ptr, const std::vector<std::string>& allowed) {
        for (auto it = o.begin(); it != o.end(); ++it)
            if (index_of(allowed, it.key()) < 0)
                problem(ptr + "/" + it.key(), "unknown key '" + it.key() + "'; allowed keys: " + join(allowed));
    }
};

// ---- custom models -------------------------------------------------------------------------------------------
const std::vector<std::string> kFamilies = {"decoder", "encoder", "vit", "resnet", "wide-resnet", "unet"};

engine::ModelSpec parse_custom(const json& o, Reader& r, json& normalised) {
    engine::ModelSpec m;
    m.id = "custom";
    m.name = "custom";
    m.source = "user-defined";
    const std::string ptr = "/model";
    std::string family;
    if (!o.contains("family")) {
        r.problem(ptr + "/family", "a custom model needs 'family': one of " + join(kFamilies));
        return m;
    }
    if (!r.choice(o, "family", ptr, kFamilies, family)) return m;
    normalised = json::object();
    normalised["family"] = family;
    auto req_int = [&](const char* key, int& out, long long lo, long long hi) {
        if (!o.contains(key)) r.problem(ptr + "/" + key, std::string("custom ") + family + " model needs '" + key + "'");
        else if (r.integer(o, key, ptr, out, lo, hi)) normalised[key] = out;
    };
    auto opt_int = [&](const char* key, int& out, long long lo, long long hi) {
        if (r.integer(o, key, ptr, out, lo, hi)) normalised[key] = out;
    };
    auto opt_bool = [&](const char* key, bool& out) {
        if (r.boolean(o, key, ptr, out)) normalised[key] = out;
    };
    if (family == "decoder") {
        r.unknown_keys(o, ptr, {"family", "layers", "hidden", "heads", "kv_heads", "ffn", "glu", "vocab", "tied_embeddings",
                                "norm", "position", "bias", "qkv_bias", "experts", "top_k", "max_positions", "dropout",
                                "activation", "head_dim", "seq_len"});
        m.family = engine::Family::kDecoder;
        m.default_seq_len = 2048;
        m.glu = true;
        m.norm = engine::NormKind::kRmsNorm;
        m.position = engine::PositionKind::kRope;
        m.activation = engine::Activation::kSilu;
        req_int("layers", m.layers, 1, 1000);
        req_int("hidden", m.hidden, 1, 1 << 17);
        req_int("heads", m.heads, 1, 1024);
        m.kv_heads = m.heads;
        opt_int("kv_heads", m.kv_heads, 1, 1024);
        req_int("ffn", m.ffn, 1, 1 << 20);
        req_int("vocab", m.vocab, 1, 1 << 22);
        opt_bool("glu", m.glu);
        opt_bool("tied_embeddings", m.tied_embeddings);
        opt_bool("bias", m.bias);
        opt_bool("qkv_bias", m.qkv_bias);
        opt_int("experts", m.experts, 1, 1024);
        opt_int("top_k", m.top_k, 1, 1024);
        opt_int("head_dim", m.head_dim, 1, 4096);
        opt_int("seq_len", m.default_seq_len, 2, 1 << 21);
        std::string norm, position, act;
        if (r.choice(o, "norm", ptr, {"rmsnorm", "layernorm"}, norm)) {
            normalised["norm"] = norm;
            m.norm = norm == "rmsnorm" ? engine::NormKind::kRmsNorm : engine::NormKind::kLayerNorm;
        }
        if (r.choice(o, "position", ptr, {"rope", "learned"}, position)) {
            normalised["position"] = position;
            m.position = position == "rope" ? engine::PositionKind::kRope : engine::PositionKind::kLearned;
        }
        // GPT-style defaults when the model is GPT-shaped (LayerNorm + learned positions): GPT-2 / Megatron-LM
        // use dropout 0.1 (hidden and attention) and GELU, with 1024-2048 positions (Megatron --max-position-
        // embeddings); Llama-style models (RMSNorm + RoPE) have no dropout.
        const bool gpt_style = m.norm == engine::NormKind::kLayerNorm && m.position == engine::PositionKind::kLearned;
        m.max_positions = m.position == engine::PositionKind::kLearned ? 2048 : 0;
        opt_int("max_positions", m.max_positions, 1, 1 << 21);
        if (o.contains("seq_len") && m.position == engine::PositionKind::kLearned && m.default_seq_len > m.max_positions)
            r.problem(ptr + "/seq_len", "'seq_len' must be at most 'max_positions' (" + std::to_string(m.max_positions) +
                                            ": the model's learned position embeddings)");
        if (gpt_style) {
            m.dropout = 0.1;
            if (!m.glu) m.activation = engine::Activation::kGelu;
        }
        if (r.choice(o, "activation", ptr, {"silu", "gelu", "gelu_new", "relu"}, act)) {
            normalised["activation"] = act;
            m.activation = act == "silu" ? engine::Activation::kSilu
                           : act == "gelu" ? engine::Activation::kGelu
                           : act == "gelu_new" ? engine::Activation::kGeluTanhPython
                                               : engine::Activation::kRelu;
        }
        if (r.number(o, "dropout", ptr, m.dropout, 0, 0.99)) normalised["dropout"] = m.dropout;
        if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0)
            r.problem(ptr + "/kv_heads", "'heads' must be a multiple of 'kv_heads'");
        if (m.head_dim == 0 && m.heads > 0 && m.hidden % m.heads != 0)
            r.problem(ptr + "/heads", "'hidden' must be a multiple of 'heads' (or give 'head_dim')");
        if (m.top_k > m.experts) r.problem(ptr + "/top_k", "'top_k' must be at most 'experts'");
        if (m.experts > 1 && !m.glu) r.problem(ptr + "/experts", "mixture-of-experts needs 'glu': true (SwiGLU experts)");
    } else if (family == "encoder") {
        r.unknown_keys(o, ptr, {"family", "layers", "hidden", "heads", "ffn", "vocab", "max_positions", "type_vocab",
                                "num_labels", "dropout", "embedding_size", "activation"});
        m.family = engine::Family::kEncoder;
        m.default_seq_len = 512;
        m.pooler = true;
        m.bias = true;
        m.dropout = 0.1;
        m.type_vocab = 2;
        m.num_labels = 2;
        req_int("layers", m.layers, 1, 1000);
        req_int("hidden", m.hidden, 1, 1 << 17);
        req_int("heads", m.heads, 1, 1024);
        req_int("ffn", m.ffn, 1, 1 << 20);
        req_int("vocab", m.vocab, 1, 1 << 22);
        req_int("max_positions", m.max_positions, 1, 1 << 20);
        opt_int("type_vocab", m.type_vocab, 1, 1 << 10);
        opt_int("num_labels", m.num_labels, 0, 1 << 20);
        opt_int("embedding_size", m.embedding_size, 1, 1 << 17);
        if (r.number(o, "dropout", ptr, m.dropout, 0, 0.99)) normalised["dropout"] = m.dropout;
        std::string act;
        if (r.choice(o, "activation", ptr, {"gelu", "gelu_new"}, act)) {
            normalised["activation"] = act;
            m.activation = act == "gelu" ? engine::Activation::kGelu : engine::Activation::kGeluTanhPython;
        }
        m.default_seq_len = std::min(512, std::max(2, m.max_positions));
        if (m.heads > 0 && m.hidden % m.heads != 0) r.problem(ptr + "/heads", "'hidden' must be a multiple of 'heads'");
    } else if (family == "vit") {
        r.unknown_keys(o, ptr, {"family", "image_size", "patch", "layers", "hidden", "heads", "ffn", "classes"});
        m.family = engine::Family::kVit;
        m.is_vision = true;
        m.classes = 1000;
        req_int("image_size", m.image_size, 1, 8192);
        req_int("patch", m.patch, 1, 1024);
        req_int("layers", m.layers, 1, 1000);
        req_int("hidden", m.hidden, 1, 1 << 17);
        req_int("heads", m.heads, 1, 1024);
        req_int("ffn", m.ffn, 1, 1 << 20);
        opt_int("classes", m.classes, 1, 1 << 20);
        m.default_image_size = m.image_size;
        if (m.patch > 0 && m.image_size % m.patch != 0)
            r.problem(ptr + "/image_size", "'image_size' must be a multiple of 'patch'");
        if (m.heads > 0 && m.hidden % m.heads != 0) r.problem(ptr + "/heads", "'hidden' must be a multiple of 'heads'");
    } else if (family == "resnet") {
        r.unknown_keys(o, ptr, {"family", "depths", "block", "width", "classes", "stem"});
        m.family = engine::Family::kResNet;
        m.is_vision = true;
        m.default_image_size = 224;
        m.classes = 1000;
        m.depths = {2, 2, 2, 2};
        if (o.contains("depths")) {
            const json& d = o.at("depths");
            bool ok = d.is_array() && !d.empty() && d.size() <= 8;
            std::vector<int> depths;
            if (ok)
                for (const json& x : d) {
                    // Compared as a double before narrowing: get<int>() of 4294967297 is 1 (issue 30).
                    if (!x.is_number_integer() || x.get<double>() < 1 || x.get<double>() > 100) ok = false;
                    else depths.push_back(static_cast<int>(x.get<double>()));
                }
            if (!ok) r.problem(ptr + "/depths", "'depths' must be a list of 1 to 8 whole numbers from 1 to 100");
            else {
                m.depths = depths;
                normalised["depths"] = depths;
            }
        }
        std::string block;
        if (r.choice(o, "block", ptr, {"basic", "bottleneck"}, block)) {
            normalised["block"] = block;
            m.bottleneck = block == "bottleneck";
        }
        opt_int("width", m.width, 1, 4096);
        opt_int("classes", m.classes, 1, 1 << 20);
        // "imagenet": torchvision's 7x7 stride-2 stem and max-pool; "cifar": kuangliu/pytorch-cifar's 3x3 stride-1
        // stem without max-pool, trained on 32x32 images with 10 classes unless given.
        std::string stem;
        if (r.choice(o, "stem", ptr, {"imagenet", "cifar"}, stem)) {
            normalised["stem"] = stem;
            m.cifar_stem = stem == "cifar";
            if (m.cifar_stem) {
                m.default_image_size = 32;
                if (!o.contains("classes")) m.classes = 10;
            }
        }
    } else if (family == "wide-resnet") {
        // Wide-ResNet-depth-widen (Zagoruyko & Komodakis 2016, arXiv:1605.07146) for 32x32 images.
        r.unknown_keys(o, ptr, {"family", "depth", "widen", "classes", "dropout"});
        m.family = engine::Family::kResNet;
        m.is_vision = true;
        m.default_image_size = 32;
        m.classes = 10;
        m.wide_depth = 28;
        m.widen = 10;
        opt_int("depth", m.wide_depth, 10, 1000);
        opt_int("widen", m.widen, 1, 64);
        opt_int("classes", m.classes, 1, 1 << 20);
        if (r.number(o, "dropout", ptr, m.block_dropout, 0, 0.99)) normalised["dropout"] = m.block_dropout;
        if ((m.wide_depth - 4) % 6 != 0)
            r.problem(ptr + "/depth", "'depth' of a Wide-ResNet must be 6n + 4 (10, 16, 22, 28, 34, 40, ...)");
    } else if (family == "unet") {
        r.unknown_keys(o, ptr, {"family", "base_channels", "width", "depth", "classes", "in_channels", "upsampling",
                                "norm"});
        m.family = engine::Family::kUnet;
        m.is_vision = true;
        m.default_image_size = 256;
        m.classes = 2;
        opt_int("base_channels", m.base_channels, 1, 4096);
        opt_int("width", m.base_channels, 1, 4096);  // alias of base_channels
        opt_int("depth", m.unet_depth, 1, 8);
        std::string up, norm;
        if (r.choice(o, "upsampling", ptr, {"transposed-conv"}, up)) normalised["upsampling"] = up;
        if (r.choice(o, "norm", ptr, {"batchnorm"}, norm)) normalised["norm"] = norm;
        opt_int("classes", m.classes, 1, 1 << 16);
        opt_int("in_channels", m.in_channels, 1, 1 << 10);
    }
    return m;
}

engine::ParamRole role_of(const std::string& t) {
    using engine::ParamRole;
    static const std::vector<std::pair<std::string, ParamRole>> map = {
        {"q", ParamRole::kQ},       {"k", ParamRole::kK},     {"v", ParamRole::kV},       {"o", ParamRole::kO},
        {"qkv", ParamRole::kQkv},   {"gate", ParamRole::kGate}, {"up", ParamRole::kUp},   {"down", ParamRole::kDown},
        {"fc1", ParamRole::kFc1},   {"fc2", ParamRole::kFc2}};
    for (const auto& [name, role] : map)
        if (name == t) return role;
    return ParamRole::kNone;
}

}  // namespace

// ---- parse ---------------------------------------------------------------------------------------------------
ParsedScenario parse_scenario(std::string_view text, const std::string& file, const Catalog* catalog) {
    const JsonText doc = parse_json_text(text);
    if (!doc.error.empty()) {
        ParsedScenario out;
        out.problems.push_back({file, "", doc.error});
        return out;
    }
    return parse_scenario_json(doc.value, file, catalog);
}

namespace {
bool holds_null(const json& j) {
    if (j.is_null()) return true;
    if (j.is_object())
        for (const auto& [key, value] : j.items())
            if (holds_null(value)) return true;
    return false;
}
json drop_nulls(const json& j) {
    if (!j.is_object()) return j;
    json out = json::object();
    for (const auto& [key, value] : j.items())
        if (!value.is_null()) out[key] = drop_nulls(value);
    return out;
}
}  // namespace

json scenario_without_nulls(const json& doc) {
    if (!doc.is_object()) return doc;
    bool any = false;
    for (const auto& [key, value] : doc.items()) any |= key != "model" && holds_null(value);
    if (!any) return doc;
    json out = json::object();
    for (const auto& [key, value] : doc.items())
        if (key == "model") out[key] = value;
        else if (!value.is_null()) out[key] = drop_nulls(value);
    return out;
}

ParsedScenario parse_scenario_json(const json& doc_as_given, const std::string& file, const Catalog* catalog) {
    const json doc = scenario_without_nulls(doc_as_given);
    const Catalog& cat = catalog != nullptr ? *catalog : embedded_catalog();
    ParsedScenario out;
    Scenario& s = out.scenario;
    Reader r{file, &out.problems};
    if (!doc.is_object()) {
        r.problem("", "a scenario must be a JSON object");
        return out;
    }
    r.unknown_keys(doc, "", {"model", "batch_size", "grad_accum_steps", "image_size", "seq_len", "precision", "optimizer",
                             "optimizer_impl", "method", "lora", "checkpointing", "attention", "memory_format", "gpu", "reserve_fraction",
                             "dataset", "offload_optimizer", "ema", "precomputed_latents", "frozen_weights_16bit", "fp32_modules",
                             "tunables", "stack", "stack_options", "display", "eval_batch_size", "longest_seq_len"});
    bool model_ok = false;
    if (!doc.contains("model")) {
        r.problem("/model", "'model' is required: a preset id (gpuguide models) or a custom object with 'family'");
    } else if (doc["model"].is_string()) {
        const std::string id = doc["model"].get<std::string>();
        const engine::ModelSpec* p = engine::find_preset(id);
        std::vector<std::string> ids;
        for (const auto& m : engine::preset_models()) ids.push_back(m.id);
        if (p == nullptr && find_gan_preset(id) != nullptr)  // GAN scenarios are read by gan_scenario.cpp
            r.problem("/model", "'" + id + "' is a GAN (two networks, docs/gan.md): gpuguide estimate, rank and advise "
                                "take it; this input takes one-network models only");
        else if (p == nullptr) r.problem("/model", "unknown model '" + id + "'; presets: " + join(ids));
        else if (!p->available)
            r.problem("/model", "model '" + id + "' is listed but its memory graph is not implemented yet; choose another preset");
        else {
            s.model_id = id;
            s.model = *p;
            model_ok = true;
        }
    } else if (doc["model"].is_object() && doc["model"].contains("hf_config")) {
        // A Hugging Face config.json, read as transformers reads it (catalog/hf_config.h).
        const std::size_t before = out.problems.size();
        r.unknown_keys(doc["model"], "/model", {"hf_config"});
        engine::ModelSpec m;
        if (parse_hf_config(doc["model"]["hf_config"], file, "/model/hf_config", m, out.problems)) s.model = m;
        s.custom_model = json{{"hf_config", doc["model"]["hf_config"]}};
        s.model_id = "custom";
        model_ok = out.problems.size() == before;
    } else if (doc["model"].is_object()) {
        const std::size_t before = out.problems.size();
        s.model = parse_custom(doc["model"], r, s.custom_model);
        s.model_id = "custom";
        model_ok = out.problems.size() == before;
    } else {
        r.problem("/model", "'model' must be a preset id (string) or a custom model object");
    }
    r.integer(doc, "batch_size", "", s.batch_size, 1, 1 << 20);
    r.integer(doc, "grad_accum_steps", "", s.grad_accum_steps, 1, 1 << 20);
    if (doc.contains("image_size")) {
        if (r.integer(doc, "image_size", "", s.image_size, 8, 16384) && model_ok) {
            if (!s.model.is_vision) {
                r.problem("/image_size", "'image_size' applies to vision models only; '" + s.model_id +
                                             "' takes 'seq_len'");
            } else if (s.model.family == engine::Family::kVit && s.image_size % s.model.patch != 0) {
                r.problem("/image_size", "'image_size' must be a multiple of the patch size " +
                                             std::to_string(s.model.patch));
            } else if (s.model.family == engine::Family::kSdUnet &&
                       s.image_size % (8 << (s.model.channel_mult.size() - 1)) != 0) {
                r.problem("/image_size", "'image_size' must be a multiple of " +
                                             std::to_string(8 << (s.model.channel_mult.size() - 1)) +
                                             " for this diffusion UNet (8x VAE, then one halving per level)");
            } else if (s.model.family == engine::Family::kYolo && s.image_size % 32 != 0) {
                r.problem("/image_size", "'image_size' must be a multiple of 32 for YOLO (stride 32)");
            } else if (s.model.family == engine::Family::kUnet && s.image_size % (1 << s.model.unet_depth) != 0) {
                r.problem("/image_size", "'image_size' must be a multiple of " +
                                             std::to_string(1 << s.model.unet_depth) + " for this U-Net (one halving per level)");
            } else if (s.image_size < 32) {
                r.problem("/image_size", "'image_size' must be at least 32");
            }
        }
    }
    if (doc.contains("seq_len")) {
        if (r.integer(doc, "seq_len", "", s.seq_len, 2, 1 << 21) && model_ok) {
            if (s.model.is_vision)
                r.problem("/seq_len", "'seq_len' applies to sequence models only; '" + s.model_id +
                                          "' takes 'image_size'");
            else if (s.model.max_positions > 0 && (s.model.family == engine::Family::kEncoder ||
                                                   s.model.position == engine::PositionKind::kLearned) &&
                     s.seq_len > s.model.max_positions - (s.model_id == "roberta-base" ? 2 : 0))
                r.problem("/seq_len", "'seq_len' must be at most " + std::to_string(s.model.max_positions) +
                                          " (the model's learned position embeddings)");
        }
    }
    r.choice(doc, "precision", "", kPrecisions, s.precision);
    r.choice(doc, "optimizer", "", kOptimizers, s.optimizer);
    r.choice(doc, "optimizer_impl", "", kOptimizerImpls, s.optimizer_impl);
    r.choice(doc, "method", "", kMethods, s.method);
    r.choice(doc, "checkpointing", "", kCheckpointings, s.checkpointing);
    // What a scenario without "precision" means: what people run the model with (issue 40: an 8B LoRA was estimated in
    // fp32 by default). A transformer whose checkpoint is saved in 16 bits trains under bf16 autocast, fp16 on a card
    // without bf16 (TRL's SFTConfig: "bf16: Defaults to True if fp16 is not set"; LLaMA-Factory's examples set bf16),
    // with gradient checkpointing (SFTConfig: "gradient_checkpointing: Defaults to True") and its weights loaded as
    // saved (transformers v5 from_pretrained defaults to dtype="auto", huggingface/transformers PR #42805); QLoRA's
    // base is NF4. Everything else keeps PyTorch's fp32.
    s.precision_defaulted = !doc.contains("precision") && model_ok;
    if (s.precision_defaulted) {
        bool card_bf16 = true;  // no card named: bf16, what current cards run
        if (doc.contains("gpu") && doc["gpu"].is_object() && doc["gpu"].contains("id") && doc["gpu"]["id"].is_string())
            if (const engine::GpuSpec* gpu = cat.find_gpu(doc["gpu"]["id"].get<std::string>()))
                card_bf16 = engine::precision_supported(*gpu, engine::Precision::kBf16Amp, embedded_compat_data());
        const bool saved_16bit = s.model.checkpoint_dtype == "bfloat16" || s.model.checkpoint_dtype == "float16";
        if (s.method == "qlora") {
            s.precision = "nf4";
        } else if (saved_16bit) {
            s.precision = card_bf16 ? "bf16-amp" : "fp16-amp";
            // The Trainer's stack (TRL's SFTTrainer runs on it); the other stacks keep their own defaults below.
            const bool trainer = !doc.contains("stack") || doc["stack"] == "hf-trainer";
            if (!doc.contains("checkpointing") && trainer && s.model.family == engine::Family::kDecoder)
                s.checkpointing = "full";
        }
    }
    r.choice(doc, "attention", "", kAttentions, s.attention);
    r.choice(doc, "memory_format", "", kMemoryFormats, s.memory_format);
    r.boolean(doc, "offload_optimizer", "", s.offload_optimizer);
    s.ema = s.ema_default();
    r.boolean(doc, "ema", "", s.ema);
    s.frozen_weights_16bit = s.frozen_weights_16bit_default();
    r.boolean(doc, "frozen_weights_16bit", "", s.frozen_weights_16bit);
    if (s.frozen_weights_16bit && !s.frozen_weights_16bit_applies())
        r.problem("/frozen_weights_16bit", "'frozen_weights_16bit' needs precision fp16-amp or bf16-amp and a method "
                                           "that freezes weights (lora, frozen-backbone); pure bf16 keeps every weight "
                                           "in 16 bits already");
    s.precomputed_latents = s.precomputed_latents_default();
    r.boolean(doc, "precomputed_latents", "", s.precomputed_latents);
    if (doc.contains("precomputed_latents") && model_ok && !engine::has_input_encoders(s.model))
        r.problem("/precomputed_latents", "'precomputed_latents' applies to the SD pipelines (sd-1.5, sdxl-unet), "
                                          "whose frozen VAE and text encoders run before the UNet");
    r.number(doc, "reserve_fraction", "", s.reserve_fraction, 0, 0.9);
    // The fine-tuning stacks other than transformers' Trainer train causal language models only.
    if (r.choice(doc, "stack", "", kStacks, s.stack) && model_ok && s.stack != "hf-trainer" &&
        s.model.family != engine::Family::kDecoder)
        r.problem("/stack", "stack '" + s.stack + "' fine-tunes decoder language models; '" +
                                (s.model_id == "custom" ? s.model.name : s.model_id) + "' is a " +
                                engine::family_name(s.model.family) + " model (use 'hf-trainer', the default)");
    // A scenario without "checkpointing" gets its stack's default: LLaMA-Factory checkpoints unless told
    // (ModelArguments.disable_gradient_checkpointing defaults to False), Unsloth always does (its "unsloth" mode),
    // torchtune's configs set enable_activation_checkpointing: True; transformers' TrainingArguments and axolotl
    // leave gradient_checkpointing off.
    if (!doc.contains("checkpointing") && (s.stack == "llama-factory" || s.stack == "unsloth" || s.stack == "torchtune"))
        s.checkpointing = "full";
    if (doc.contains("stack_options")) {
        const json& so = doc["stack_options"];
        if (!so.is_object()) {
            r.problem("/stack_options", "'stack_options' must be an object {\"liger_kernel\", \"use_unsloth\", "
                                        "\"packing\", \"offload_activations\", \"paged_optimizer\", \"compile\"}");
        } else {
            r.unknown_keys(so, "/stack_options",
                           {"liger_kernel", "use_unsloth", "packing", "offload_activations", "paged_optimizer",
                            "compile"});
            r.boolean(so, "compile", "/stack_options", s.compile);
            if (s.compile && s.stack != "torchtune")
                r.problem("/stack_options/compile", "'compile' is modelled for torchtune (compile: True compiles its "
                                                    "chunked loss); other stacks' torch.compile is not modelled");
            r.boolean(so, "paged_optimizer", "/stack_options", s.paged_optimizer);
            if (s.paged_optimizer && s.optimizer != "adamw" && s.optimizer != "adamw-8bit")
                r.problem("/stack_options/paged_optimizer", "bitsandbytes pages AdamW only (paged_adamw_32bit, "
                                                            "paged_adamw_8bit): set 'optimizer' to adamw or adamw-8bit");
            r.boolean(so, "liger_kernel", "/stack_options", s.liger_kernel);
            r.boolean(so, "use_unsloth", "/stack_options", s.use_unsloth);
            r.boolean(so, "packing", "/stack_options", s.packing);
            if (r.boolean(so, "offload_activations", "/stack_options", s.offload_activations))
                s.offload_activations_set = true;
            // Which stack exposes which switch (their documented options; docs/memory-model.md sec. 10).
            if (s.liger_kernel && s.stack != "hf-trainer" && s.stack != "llama-factory" && s.stack != "axolotl")
                r.problem("/stack_options/liger_kernel", "'liger_kernel' is a switch of hf-trainer (use_liger_kernel), "
                                                         "llama-factory (enable_liger_kernel) and axolotl (the Liger "
                                                         "plugin); stack '" + s.stack + "' has no such switch");
            if (s.use_unsloth && s.stack != "llama-factory")
                r.problem("/stack_options/use_unsloth", "'use_unsloth' is LLaMA-Factory's switch (stack "
                                                        "'llama-factory'); for Unsloth itself set 'stack': 'unsloth'");
            // The fused loss, Unsloth's kernels and packing work on token sequences of a language model: on an image
            // model they would change nothing and be reported as if they had.
            const bool decoder = s.model.family == engine::Family::kDecoder;
            if (model_ok)
                for (const auto& [on, key] : {std::pair{s.liger_kernel && !decoder, "liger_kernel"},
                                              std::pair{s.use_unsloth && !decoder, "use_unsloth"},
                                              std::pair{s.packing && s.model.is_vision, "packing"}})
                    if (on)
                        r.problem(std::string("/stack_options/") + key,
                                  "'" + std::string(key) + "' applies to decoder language models (token sequences and "
                                  "a vocabulary loss); '" + (s.model_id == "custom" ? s.model.name : s.model_id) +
                                  "' is a " + engine::family_name(s.model.family) + " model");
            if (s.offload_activations && s.stack != "unsloth" && s.stack != "torchtune" && s.stack != "axolotl")
                r.problem("/stack_options/offload_activations",
                          "'offload_activations' is a switch of unsloth (use_gradient_checkpointing=\"unsloth\"), "
                          "torchtune (enable_activation_offloading) and axolotl (gradient_checkpointing: offload)");
        }
    }
    if (s.offload_activations_set && s.offload_activations && s.checkpointing != "full")
        r.problem("/stack_options/offload_activations", "offloaded activations are the inputs torch.utils.checkpoint "
                                                        "keeps: they need 'checkpointing': 'full'");
    r.choice(doc, "display", "", kDisplays, s.display);
    r.integer(doc, "eval_batch_size", "", s.eval_batch_size, 0, 1 << 20);
    if (doc.contains("longest_seq_len")) {
        if (r.integer(doc, "longest_seq_len", "", s.longest_seq_len, 2, 1 << 21) && model_ok) {
            const int seq = s.seq_len > 0 ? s.seq_len : s.model.default_seq_len;
            if (s.model.is_vision)
                r.problem("/longest_seq_len", "'longest_seq_len' applies to sequence models only");
            else if (s.longest_seq_len < seq)
                r.problem("/longest_seq_len", "'longest_seq_len' (the longest sample) must be at least seq_len (" +
                                                  std::to_string(seq) + ")");
            else if (s.model.max_positions > 0 && s.model.position == engine::PositionKind::kLearned &&
                     s.longest_seq_len > s.model.max_positions)
                r.problem("/longest_seq_len", "'longest_seq_len' must be at most " +
                                                  std::to_string(s.model.max_positions) +
                                                  " (the model's learned position embeddings)");
        }
    }
    if (doc.contains("lora")) {
        const json& l = doc["lora"];
        if (!l.is_object()) r.problem("/lora", "'lora' must be an object {\"rank\", \"targets\", \"dropout\"}");
        else {
            r.unknown_keys(l, "/lora", {"rank", "targets", "dropout"});
            r.integer(l, "rank", "/lora", s.lora_rank, 1, 65536);
            r.number(l, "dropout", "/lora", s.lora_dropout, 0, 0.99);
            if (l.contains("targets")) {
                const json& t = l["targets"];
                bool ok = t.is_array() && !t.empty();
                std::vector<std::string> targets;
                if (ok)
                    for (const json& x : t) {
                        // Short role names (kLoraTargets), the model's own module names or "all-linear", as PEFT
                        // takes them; whether the model has them is checked below, once the model is known.
                        if (!x.is_string() || x.get<std::string>().empty() || x.get<std::string>().size() > 200) ok = false;
                        else if (index_of(targets, x.get<std::string>()) < 0) targets.push_back(x.get<std::string>());
                    }
                if (!ok)
                    r.problem("/lora/targets", "'targets' must be a non-empty list of module names (" +
                                                   join(kLoraTargets) + ", the model's own such as q_proj or c_attn, "
                                                   "or all-linear)");
                else s.lora_targets = targets;
            }
        }
        if (s.method != "lora" && s.method != "qlora")
            r.problem("/lora", "'lora' settings need 'method': 'lora' or 'qlora' (method is '" + s.method + "')");
    }
    if (doc.contains("gpu")) {
        const json& g = doc["gpu"];
        if (!g.is_object())
            r.problem("/gpu", "'gpu' must be an object {\"id\", \"count\", \"strategy\", \"interconnect\", "
                              "\"peer_to_peer\", \"grad_reduce_dtype\", \"tensor_parallel\", \"pipeline_parallel\", "
                              "\"pipeline_interleave\", \"sequence_parallel\"}");
        else {
            r.unknown_keys(g, "/gpu", {"id", "count", "strategy", "interconnect", "network", "peer_to_peer",
                                       "grad_reduce_dtype", "tensor_parallel", "pipeline_parallel",
                                       "pipeline_interleave", "sequence_parallel", "ecc"});
            if (g.contains("id")) {
                if (!g["id"].is_string()) r.problem("/gpu/id", "'id' must be a GPU id string (gpuguide gpus)");
                else {
                    s.gpu_id = g["id"].get<std::string>();
                    if (cat.find_gpu(s.gpu_id) == nullptr)
                        r.problem("/gpu/id", "unknown GPU '" + s.gpu_id + "' (see the GPU list in data/gpus.json)");
                }
            }
            r.integer(g, "count", "/gpu", s.gpu_count, 1, 1 << 16);
            r.choice(g, "strategy", "/gpu", kStrategies, s.strategy);
            r.choice(g, "interconnect", "/gpu", kInterconnects, s.interconnect);
            if (r.choice(g, "network", "/gpu", network_ids(), s.network))
                if (const char* kind = network_conflict(s))
                    r.problem("/gpu/network", "network '" + s.network + "' is " + kind + ", but 'interconnect' says '" +
                                                  s.interconnect + "': leave one out or make them agree");
            s.peer_to_peer_set = r.boolean(g, "peer_to_peer", "/gpu", s.peer_to_peer);
            // Peer-to-peer the card does not have would make its collectives faster than they run: refused by key.
            // An NVLink bridge gives GeForce cards peer-to-peer over the bridge (interconnect "nvlink-bridge").
            if (s.peer_to_peer_set && s.peer_to_peer && !s.gpu_id.empty())
                if (const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id);
                    gpu != nullptr && !engine::pcie_peer_to_peer_capable(*gpu) &&
                    !(s.interconnect == "nvlink-bridge" && gpu->nvlink_bytes_per_s > 0))
                    r.problem("/gpu/peer_to_peer", "'peer_to_peer': true needs PCIe peer-to-peer, which NVIDIA's driver "
                                                   "does not give " + gpu->name + " (a GeForce RTX card: its collectives "
                                                   "go through host memory); leave it out, or with an NVLink bridge set "
                                                   "'interconnect': 'nvlink-bridge'");
            // ECC on or off on the user's own card: refused by key where it changes nothing (engine/card_memory.h).
            if (bool ecc = true; r.boolean(g, "ecc", "/gpu", ecc)) {
                s.ecc = ecc ? engine::EccSetting::kOn : engine::EccSetting::kOff;
                if (const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id); gpu != nullptr && !gpu->ecc)
                    r.problem("/gpu/ecc", gpu->name + " has no ECC memory: leave 'ecc' out");
                else if (gpu != nullptr && !engine::ecc_in_band(*gpu))
                    r.problem("/gpu/ecc", gpu->name + " keeps ECC's check bits outside its " + gpu->memory_type +
                                              " memory, so turning ECC off or on frees nothing: leave 'ecc' out");
            }
            r.choice(g, "grad_reduce_dtype", "/gpu", kGradReduceDtypes, s.grad_reduce_dtype);
            r.integer(g, "tensor_parallel", "/gpu", s.tensor_parallel, 1, 1024);
            r.integer(g, "pipeline_parallel", "/gpu", s.pipeline_parallel, 1, 1024);
            r.integer(g, "pipeline_interleave", "/gpu", s.pipeline_interleave, 1, 64);
            r.boolean(g, "sequence_parallel", "/gpu", s.sequence_parallel);
        }
    }
    if (doc.contains("dataset")) {
        const json& d = doc["dataset"];
        if (!d.is_object())
            r.problem("/dataset", "'dataset' must be {\"samples\", \"epochs\"} or {\"tokens\"}, optionally with "
                                  "\"loader_samples_per_s\"");
        else {
            r.unknown_keys(d, "/dataset", {"samples", "epochs", "tokens", "loader_samples_per_s", "loader"});
            parse_loader_key(d, s, *r.problems, r.file);  // catalog/loader_json.cpp
            // A loader slower than one sample per 1000 s, a part of a sample or of a token, or a thousandth of an
            // epoch is no training run: refused rather than answered with a time of 1e300 s.
            r.number(d, "loader_samples_per_s", "/dataset", s.loader_samples_per_s, 1e-3, 1e9);
            if (r.number(d, "samples", "/dataset", s.dataset_samples, 1, 1e15) &&
                s.dataset_samples != std::floor(s.dataset_samples)) {
                r.problem("/dataset/samples", "'samples' must be a whole number of samples (got " + d["samples"].dump() + ")");
                s.dataset_samples = 0;
            }
            r.number(d, "epochs", "/dataset", s.dataset_epochs, 1e-3, 1e6);
            r.number(d, "tokens", "/dataset", s.dataset_tokens, 1, 1e16);
            if (d.contains("tokens") && d.contains("samples"))
                r.problem("/dataset", "give either 'samples' (+ 'epochs') or 'tokens', not both");
            if (d.contains("tokens") && model_ok && s.model.is_vision)
                r.problem("/dataset/tokens", "'tokens' counts text; '" + s.model_id + "' trains on images: give "
                                                 "'samples' (images per epoch) and 'epochs'");
        }
    }
    if (doc.contains("tunables")) {
        const json& t = doc["tunables"];
        s.has_tunables = true;
        if (!t.is_object()) r.problem("/tunables", "'tunables' must be an object");
        else {
            r.unknown_keys(t, "/tunables", {"cuda_context_bytes", "fragmentation_fraction", "cublas_workspace_bytes",
                                            "cudnn_workspace_bytes", "optimizer_temp_fraction",
                                            "zero_grad_set_to_none"});
            r.boolean(t, "zero_grad_set_to_none", "/tunables", s.tunables.zero_grad_set_to_none);
            r.number(t, "cuda_context_bytes", "/tunables", s.tunables.cuda_context_bytes, 0, 64e9);
            r.number(t, "fragmentation_fraction", "/tunables", s.tunables.fragmentation_fraction, 0, 2);
            r.number(t, "cublas_workspace_bytes", "/tunables", s.tunables.cublas_workspace_bytes, 0, 64e9);
            r.number(t, "cudnn_workspace_bytes", "/tunables", s.tunables.cudnn_workspace_bytes, 0, 64e9);
            r.number(t, "optimizer_temp_fraction", "/tunables", s.tunables.optimizer_temp_fraction, 0, 4);
        }
    }
    // frozen_weights_16bit's default depends on the stack and the strategy, both known only now.
    if (!doc.contains("frozen_weights_16bit")) s.frozen_weights_16bit = s.frozen_weights_16bit_default();
    // Impossible combinations.
    const bool quantized = s.precision == "int8" || s.precision == "nf4";
    if (doc.contains("fp32_modules")) {
        r.choice(doc, "fp32_modules", "", kFp32Modules, s.fp32_modules);
        if (!quantized)
            r.problem("/fp32_modules", "'fp32_modules' says which unquantized modules of a bitsandbytes model (precision "
                                       "int8 or nf4) train in fp32; with precision '" + s.precision +
                                       "' every module follows the precision");
    }
    if (s.method == "qlora" && s.precision != "nf4")
        r.problem("/precision", "method 'qlora' needs precision 'nf4' (4-bit base weights); got '" + s.precision + "'");
    if (quantized && s.method == "full")
        r.problem("/method", "precision '" + s.precision + "' stores frozen quantized weights; use method 'lora', "
                             "'qlora' or 'frozen-backbone'");
    if (s.attention == "flash" && (s.precision == "fp32" || s.precision == "tf32"))
        r.problem("/attention", "FlashAttention runs in fp16/bf16 only; use precision fp16-amp, bf16-amp, bf16, or "
                                "attention 'sdpa'/'eager'");
    if (model_ok && s.method == "frozen-backbone" && s.model.family == engine::Family::kDecoder && !s.model.lm_head)
        r.problem("/method", "frozen-backbone needs a task head");
    if (model_ok && (s.method == "lora" || s.method == "qlora")) {
        if (!s.lora_targets.empty()) {
            const LoraTargets resolved = resolve_lora_targets(s.model, s.lora_targets);
            for (const std::string& t : resolved.unknown)
                r.problem("/lora/targets", "'" + (s.model_id == "custom" ? s.model.name : s.model_id) + "' has no module '" +
                                               t + "' for LoRA to adapt; it has: " +
                                               join(resolved.available));
        }
        engine::TrainingConfig c = s.training_config();
        engine::WorkloadShape shape;
        shape.image_size = s.model.is_vision ? 32 : 0;
        if (s.model.family == engine::Family::kVit) shape.image_size = s.model.image_size;
        shape.seq_len = s.model.is_vision ? 0 : 2;
        const engine::Graph g = engine::build_graph(s.model, shape, {});
        bool any = false;
        int narrowest = 0;  // the smallest in/out width among the adapted Linears
        for (const engine::Layer& l : g.layers) {
            if (l.in_features <= 0 || l.kind != engine::OpKind::kMatmul) continue;
            const auto& t = c.lora.targets;
            if (t.empty() ? (l.role == engine::ParamRole::kQ || l.role == engine::ParamRole::kV ||
                             l.role == engine::ParamRole::kQkv)
                          : std::find(t.begin(), t.end(), l.role) != t.end()) {
                any = true;
                // A Linear to one value (Qwen2-MoE's shared_expert_gate, which all-linear adapts as PEFT does) carries
                // no features: the rank limit below is about the layers that do.
                const int width = l.out_features > 0 ? std::min(l.in_features, l.out_features) : l.in_features;
                if (l.out_features != 1) narrowest = narrowest == 0 ? width : std::min(narrowest, width);
            }
        }
        if (!any) {
            // What the model has, so the message says what to write (DeepSeek-V3's MLA has no q_proj or v_proj).
            const LoraTargets have = resolve_lora_targets(s.model, {"(none)"});
            r.problem("/lora/targets", std::string(s.lora_targets.empty() ? "PEFT's default LoRA targets (q and v) "
                                                                            "are not"
                                                                          : "none of the LoRA targets is") +
                                           " in '" + (s.model_id == "custom" ? s.model.name : s.model_id) +
                                           "'; set 'lora': {'targets': [...]} from what it has: " + join(have.available));
        }
        // A rank above a layer's width gives the adapter (rank x (in + out)) more parameters than the layer itself
        // and no more expressive power than full fine-tuning of it.
        else if (narrowest > 0 && s.lora_rank > narrowest)
            r.problem("/lora/rank", "'rank' (" + std::to_string(s.lora_rank) + ") must be at most " +
                                        std::to_string(narrowest) + ", the width of the narrowest layer LoRA adapts in '" +
                                        (s.model_id == "custom" ? s.model.name : s.model_id) + "' (typical ranks are 4 to 64)");
    }
    // torch.nn.DataParallel is one process on one machine (its replicas are threads), with no optimizer offload.
    if (s.strategy == "dp") {
        if (s.gpu_count > 16)
            r.problem("/gpu/count", "strategy 'dp' (torch.nn.DataParallel) drives the GPUs of one machine from one "
                                    "process: at most 16, got " + std::to_string(s.gpu_count) + "; use 'ddp' across machines");
        if (s.offload_optimizer)
            r.problem("/offload_optimizer", "optimizer offload is DeepSpeed's (ZeRO-Offload); strategy 'dp' "
                                            "(torch.nn.DataParallel) has none");
    }
    // Tensor / pipeline parallelism: Megatron-LM's layout for transformers (engine/memory.h TrainingConfig).
    const int tp = s.tensor_parallel, pp = s.pipeline_parallel;
    if (tp > 1 || pp > 1) {
        const long long slice = (long long)tp * pp;
        if (s.gpu_count % slice != 0)
            r.problem("/gpu/count", "'count' (" + std::to_string(s.gpu_count) + ") must be a multiple of tensor_parallel x "
                                    "pipeline_parallel (" + std::to_string(tp) + " x " + std::to_string(pp) + " = " +
                                    std::to_string(slice) + "): the GPUs of one model copy");
        if (s.strategy != "ddp" && s.strategy != "zero1")
            r.problem("/gpu/strategy", "with tensor or pipeline parallelism the replicas use 'ddp' or 'zero1' "
                                       "(Megatron-LM's distributed optimizer); got '" + s.strategy + "'");
        if (s.method == "lora" || s.method == "qlora" || quantized)
            r.problem("/method", "tensor and pipeline parallelism are modelled for full training and frozen backbones "
                                 "in 16/32-bit, not for LoRA/QLoRA or int8/nf4 weights");
        if (s.offload_optimizer)
            r.problem("/offload_optimizer", "optimizer offload is not modelled with tensor or pipeline parallelism");
        if (model_ok) {
            const engine::Family f = s.model.family;
            if (!engine::is_transformer(f)) {
                r.problem(tp > 1 ? "/gpu/tensor_parallel" : "/gpu/pipeline_parallel",
                          "tensor and pipeline parallelism are modelled for transformers (Megatron-LM's layout); '" +
                              s.model_id + "' is a " + engine::family_name(f) + " model");
            } else {
                const int kv = s.model.kv_heads > 0 ? s.model.kv_heads : s.model.heads;
                if (tp > 1 && (s.model.heads % tp != 0 || kv % tp != 0 || s.model.ffn % tp != 0))
                    r.problem("/gpu/tensor_parallel", "'tensor_parallel' (" + std::to_string(tp) + ") must divide the "
                              "attention heads (" + std::to_string(s.model.heads) + "), the key/value heads (" +
                              std::to_string(kv) + ") and the FFN width (" + std::to_string(s.model.ffn) + ")");
                // Megatron-LM splits the layers evenly: num_layers divisible by the stages (x chunks when interleaved).
                const long long chunks = (long long)pp * s.pipeline_interleave;
                if (pp > 1 && s.model.layers % chunks != 0)
                    r.problem("/gpu/pipeline_parallel", "the model's " + std::to_string(s.model.layers) +
                              " layers must split evenly into pipeline_parallel x pipeline_interleave (" +
                              std::to_string(chunks) + ") parts");
                if (pp > 1 && s.model.shared_layers)
                    r.problem("/gpu/pipeline_parallel", "'" + s.model_id + "' shares one set of weights across its "
                              "layers (ALBERT): its layers cannot be split into pipeline stages");
                // Sequence parallelism splits the sequence t ways (Megatron asserts seq_length % t == 0).
                if (s.sequence_parallel && tp > 1) {
                    const engine::WorkloadShape shape = s.shape_per_sample();
                    const long long tokens = s.model.family == engine::Family::kVit && s.model.patch > 0
                        ? (long long)(shape.image_size / s.model.patch) * (shape.image_size / s.model.patch) + 1
                        : shape.seq_len;
                    if (tokens % tp != 0)
                        r.problem("/gpu/sequence_parallel", "sequence parallelism splits the " + std::to_string(tokens) +
                                  " tokens per sequence over tensor_parallel (" + std::to_string(tp) +
                                  ") GPUs: they must divide evenly");
                }
            }
        }
    }
    if (s.sequence_parallel && tp <= 1)
        r.problem("/gpu/sequence_parallel", "sequence parallelism splits what tensor parallelism replicates: it needs "
                                            "'tensor_parallel' > 1");
    if (s.pipeline_interleave > 1) {
        if (pp <= 1)
            r.problem("/gpu/pipeline_interleave", "'pipeline_interleave' > 1 needs 'pipeline_parallel' > 1");
        else if (s.grad_accum_steps % pp != 0)
            r.problem("/grad_accum_steps", "the interleaved schedule needs the micro-batches per step "
                                           "('grad_accum_steps', " + std::to_string(s.grad_accum_steps) +
                                           ") to be a multiple of 'pipeline_parallel' (" + std::to_string(pp) + ")");
    }
    if (!s.gpu_id.empty()) {
        if (const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id)) {
            const int cc = gpu->compute_capability_major * 10 + gpu->compute_capability_minor;
            if (gpu->vendor == "nvidia" && cc > 0) {
                if (s.precision == "fp8" && cc < 89)
                    r.problem("/precision", "fp8 needs FP8 tensor cores (compute capability 8.9+: Ada, Hopper); '" +
                                                s.gpu_id + "' has " + std::to_string(cc / 10) + "." + std::to_string(cc % 10));
                // TF32 is a setting, not a format: before Ampere PyTorch ignores allow_tf32 and runs FP32 (the
                // time engine's precision fallback). BF16 tensors fail or are emulated there: refused.
                if ((s.precision == "bf16" || s.precision == "bf16-amp") && cc < 80)
                    r.problem("/precision", "'" + s.precision + "' needs compute capability 8.0+ (Ampere or newer); '" +
                                                s.gpu_id + "' has " + std::to_string(cc / 10) + "." + std::to_string(cc % 10));
                if (s.attention == "flash" && cc < 80)
                    r.problem("/attention", "FlashAttention 2 needs compute capability 8.0+; use 'sdpa'");
            }
            if (!s.interconnect.empty() && !interconnect_possible(*gpu, s.interconnect))
                r.problem("/gpu/interconnect", "'" + s.interconnect + "' needs NVLink, which '" + s.gpu_id +
                                                   "' does not have; its cards talk over PCIe (pcie3, pcie4, pcie5) or, "
                                                   "across servers, ib / ethernet");
        }
    }
    return out;
}

// ---- to_json -------------------------------------------------------------------------------------------------
json scenario_to_json(const Scenario& s) {
    json j = json::object();
    if (s.model_id == "custom") j["model"] = s.custom_model;
    else j["model"] = s.model_id;
    j["batch_size"] = s.batch_size;
    j["grad_accum_steps"] = s.grad_accum_steps;
    if (s.image_size > 0) j["image_size"] = s.image_size;
    if (s.seq_len > 0) j["seq_len"] = s.seq_len;
    j["precision"] = s.precision;
    j["optimizer"] = s.optimizer;
    if (s.optimizer_impl != "foreach") j["optimizer_impl"] = s.optimizer_impl;
    j["method"] = s.method;
    if (s.method == "lora" || s.method == "qlora") {
        json l = {{"rank", s.lora_rank}, {"dropout", s.lora_dropout}};
        if (!s.lora_targets.empty()) l["targets"] = s.lora_targets;
        j["lora"] = l;
    }
    j["checkpointing"] = s.checkpointing;
    j["attention"] = s.attention;
    if (s.memory_format != "nchw") j["memory_format"] = s.memory_format;
    json g = {{"count", s.gpu_count}, {"strategy", s.strategy}};
    if (!s.gpu_id.empty()) g["id"] = s.gpu_id;
    if (!s.interconnect.empty()) g["interconnect"] = s.interconnect;
    if (!s.network.empty()) g["network"] = s.network;
    if (s.peer_to_peer_set) g["peer_to_peer"] = s.peer_to_peer;
    if (s.ecc != engine::EccSetting::kDefault) g["ecc"] = s.ecc == engine::EccSetting::kOn;
    if (!s.grad_reduce_dtype.empty()) g["grad_reduce_dtype"] = s.grad_reduce_dtype;
    if (s.tensor_parallel != 1) g["tensor_parallel"] = s.tensor_parallel;
    if (s.pipeline_parallel != 1) g["pipeline_parallel"] = s.pipeline_parallel;
    if (s.pipeline_interleave != 1) g["pipeline_interleave"] = s.pipeline_interleave;
    if (s.sequence_parallel) g["sequence_parallel"] = true;
    j["gpu"] = g;
    j["reserve_fraction"] = s.reserve_fraction;
    if (s.stack != "hf-trainer") j["stack"] = s.stack;
    json so = json::object();
    if (s.liger_kernel) so["liger_kernel"] = true;
    if (s.use_unsloth) so["use_unsloth"] = true;
    if (s.packing) so["packing"] = true;
    if (s.paged_optimizer) so["paged_optimizer"] = true;
    if (s.compile) so["compile"] = true;
    if (s.offload_activations_set) so["offload_activations"] = s.offload_activations;
    if (!so.empty()) j["stack_options"] = so;
    if (s.display != "auto") j["display"] = s.display;
    if (s.eval_batch_size > 0) j["eval_batch_size"] = s.eval_batch_size;
    if (s.longest_seq_len > 0) j["longest_seq_len"] = s.longest_seq_len;
    j["offload_optimizer"] = s.offload_optimizer;
    if (s.ema || s.ema_default()) j["ema"] = s.ema;  // written when it differs from the default, or the default is on
    if (s.frozen_weights_16bit_applies() && (s.frozen_weights_16bit || s.frozen_weights_16bit_default()))
        j["frozen_weights_16bit"] = s.frozen_weights_16bit;
    if (!s.fp32_modules.empty()) j["fp32_modules"] = s.fp32_modules;
    if (engine::has_input_encoders(s.model) && (s.precomputed_latents || s.precomputed_latents_default()))
        j["precomputed_latents"] = s.precomputed_latents;  // as "ema": differs from the default, or the default is on
    json d = json::object();
    if (s.dataset_tokens > 0) d["tokens"] = s.dataset_tokens;
    else {
        if (s.dataset_samples > 0) d["samples"] = s.dataset_samples;
        if (s.dataset_epochs > 0) d["epochs"] = s.dataset_epochs;
    }
    if (s.loader_samples_per_s > 0) d["loader_samples_per_s"] = s.loader_samples_per_s;
    loader_key_to_json(s, d);  // catalog/loader_json.cpp
    if (!d.empty()) j["dataset"] = d;
    if (s.has_tunables)
        j["tunables"] = {{"cuda_context_bytes", s.tunables.cuda_context_bytes},
                         {"fragmentation_fraction", s.tunables.fragmentation_fraction},
                         {"cublas_workspace_bytes", s.tunables.cublas_workspace_bytes},
                         {"cudnn_workspace_bytes", s.tunables.cudnn_workspace_bytes},
                         {"optimizer_temp_fraction", s.tunables.optimizer_temp_fraction},
                         {"zero_grad_set_to_none", s.tunables.zero_grad_set_to_none}};
    return j;
}

// ---- engine config -------------------------------------------------------------------------------------------
engine::TrainingConfig Scenario::training_config() const {
    using namespace engine;
    TrainingConfig c;
    c.batch = batch_size;
    c.grad_accum_steps = grad_accum_steps;
    const int p = index_of(kPrecisions, precision);
    c.precision = p >= 0 ? Precision(p) : Precision::kFp32;
    const int o = index_of(kOptimizers, optimizer);
    c.optimizer = o >= 0 ? Optimizer(o) : Optimizer::kAdamW;
    const int oi = index_of(kOptimizerImpls, optimizer_impl);
    c.optimizer_impl = oi >= 0 ? OptimizerImpl(oi) : OptimizerImpl::kForeach;
    const int m = index_of(kMethods, method);
    c.method = m >= 0 ? Method(m) : Method::kFull;
    c.lora.rank = lora_rank;
    c.lora.dropout = lora_dropout;
    bool short_names = true;  // the scenario format's own names map to roles without the model
    for (const std::string& t : lora_targets) {
        const ParamRole r = role_of(t);
        if (r != ParamRole::kNone) c.lora.targets.push_back(r);
        else short_names = false;
    }
    if (!short_names) c.lora.targets = catalog::resolve_lora_targets(model, lora_targets).roles;
    const int k = index_of(kCheckpointings, checkpointing);
    c.checkpointing = k >= 0 ? Checkpointing(k) : Checkpointing::kNone;
    c.eager_attention = attention == "eager";
    c.channels_last = memory_format == "channels_last";
    c.gpu_count = gpu_count;
    const int st = index_of(kStrategies, strategy);
    c.strategy = st >= 0 ? Strategy(st) : Strategy::kDdp;
    c.tensor_parallel = tensor_parallel;
    c.pipeline_parallel = pipeline_parallel;
    c.pipeline_interleave = pipeline_interleave;
    c.sequence_parallel = sequence_parallel;
    c.offload_optimizer = offload_optimizer;
    c.ema_weights = ema;
    c.precomputed_latents = precomputed_latents;
    c.frozen_weights_16bit = frozen_weights_16bit && frozen_weights_16bit_applies();
    c.reserve_fraction = reserve_fraction;
    c.tunables = tunables;
    c.loss_kernel = loss_kernel();
    c.offload_activations = offload_activations_effective() && c.checkpointing == Checkpointing::kFull;
    c.fused_block_kernels = stack == "unsloth" || use_unsloth;
    if (precision == "int8" || precision == "nf4") {
        const std::string f = fp32_modules_effective();
        c.fp32_modules = f == "all" ? engine::Fp32Modules::kAll : f == "norms" ? engine::Fp32Modules::kNorms
                                                                               : engine::Fp32Modules::kNone;
    }
    c.packing = packing;
    const int d = index_of(kDisplays, display);
    c.display = d >= 0 ? Display(d) : Display::kAuto;
    c.eval_batch = eval_batch_size;
    c.paged_optimizer = paged_optimizer;
    c.compiled_loss = compile && stack == "torchtune";
    // The longest sample (unpacked, variable lengths): the bytes it needs beyond seq_len at this micro-batch.
    const WorkloadShape shape = shape_per_sample();
    if (!packing && !model.is_vision && longest_seq_len > shape.seq_len) {
        c.longest_seq_len = longest_seq_len;
        BuildOptions o;
        o.eager_attention = c.eager_attention;
        WorkloadShape longest = shape;
        longest.seq_len = longest_seq_len;
        const double at_seq = required_bytes(prepare_memory(build_graph(model, shape, o), c), c.batch);
        const double at_longest = required_bytes(prepare_memory(build_graph(model, longest, o), c), c.batch);
        c.long_sample_extra_bytes = std::max(0.0, at_longest - at_seq);
    }
    return c;
}

// ---- the stacks --------------------------------------------------------------------------------------------
// Each stack's documented defaults, and what its switches turn on:
//  - hf-trainer: transformers' loss (TrainingArguments.use_liger_kernel defaults to False; trl SFTConfig.packing
//    defaults to False);
//  - llama-factory: the same model code (FinetuningArguments: enable_liger_kernel False, use_unsloth False; packing
//    None = on only for pre-training, so off for sft); use_unsloth applies Unsloth's patches, whose PEFT model LLaMA-
//    Factory asks for with use_gradient_checkpointing="unsloth" (llamafactory/model/model_utils/unsloth.py);
//  - unsloth: its fused cross-entropy always, and the offloaded checkpointing of its notebooks and docs
//    (get_peft_model(..., use_gradient_checkpointing = "unsloth"): "uses 30% less VRAM, fits 2x larger batch sizes");
//  - torchtune: the LoRA and full recipes' configs (recipes/configs/llama3_1/8B_lora_single_device.yaml): loss
//    torchtune.modules.loss.CEWithChunkedOutputLoss, enable_activation_checkpointing True,
//    enable_activation_offloading False, dataset packed False, compile False;
//  - axolotl: transformers' loss unless the Liger plugin is on (liger_fused_linear_cross_entropy), sample_packing
//    off unless set, gradient_checkpointing "offload" as the offloading switch.
const char* stack_switch_line(const std::string& stack, engine::Change change) {
    if (change == engine::Change::kFusedLoss) {
        // transformers TrainingArguments.use_liger_kernel; LLaMA-Factory FinetuningArguments.enable_liger_kernel;
        // axolotl's Liger plugin (docs: "plugins: - axolotl.integrations.liger.LigerPlugin" with
        // liger_fused_linear_cross_entropy: true).
        if (stack == "hf-trainer") return "TrainingArguments(..., use_liger_kernel=True)";
        if (stack == "llama-factory") return "enable_liger_kernel: true";
        if (stack == "axolotl")
            return "plugins: [axolotl.integrations.liger.LigerPlugin]\nliger_fused_linear_cross_entropy: true";
        return nullptr;  // unsloth: always fused; torchtune: its own chunked loss
    }
    if (change == engine::Change::kOffloadActivations) {
        if (stack == "unsloth") return "FastLanguageModel.get_peft_model(..., use_gradient_checkpointing=\"unsloth\")";
        if (stack == "torchtune") return "enable_activation_offloading=True";
        if (stack == "axolotl") return "gradient_checkpointing: offload";
        return nullptr;
    }
    return nullptr;
}

engine::LossKernel Scenario::loss_kernel() const {
    if (liger_kernel || use_unsloth || stack == "unsloth") return engine::LossKernel::kFused;
    if (stack == "torchtune") return engine::LossKernel::kChunked;
    return engine::LossKernel::kEager;
}
// What each stack does to the unquantized modules of a bitsandbytes model (engine::Fp32Modules):
//  - hf-trainer: the QLoRA recipe calls peft's prepare_model_for_kbit_training, which upcasts every fp16/bf16
//    parameter to fp32 (peft/utils/other.py @012c0d5a); trl's SFTTrainer calls it for a 4-bit model given a
//    peft_config (and with bf16=True takes embeddings and lm_head back to bf16: "norms", set it so);
//  - llama-factory: neither; upcast_layernorm (default False, hparams/model_args.py) is its "norms";
//  - axolotl: prepare_model_for_kbit_training, then "converting modules to torch_dtype for flash attention": norms,
//    embed_tokens and lm_head back to the 16-bit dtype (src/axolotl/utils/models.py load_model);
//  - unsloth: its own prepare_model_for_kbit_training upcasts only the LoRA weights (unsloth/models/_utils.py);
//  - torchtune: the whole model in `dtype` (bf16).
std::string Scenario::fp32_modules_default() const {
    if (stack == "hf-trainer") return "all";
    return "none";
}
bool Scenario::offload_activations_default() const { return stack == "unsloth" || use_unsloth; }
bool Scenario::offload_activations_effective() const {
    return offload_activations_set ? offload_activations : offload_activations_default();
}

// Stacks that load the model in the mixed-precision dtype, so a frozen base is 16-bit under autocast:
//  - LLaMA-Factory: patch_config sets from_pretrained's torch_dtype to compute_dtype (bf16 / fp16 from the training
//    arguments) unless DeepSpeed ZeRO-3 runs without quantization (model/patcher.py), and init_adapter upcasts only
//    the trainable parameters to fp32 (model/adapter.py);
//  - axolotl: normalize_config sets cfg.torch_dtype to bfloat16 with bf16, float16 with fp16, and loads with it;
//  - Unsloth: FastLanguageModel.from_pretrained(dtype=None) loads bf16 where the card has it, else fp16.
// transformers' Trainer and torchtune (no autocast) keep their own rule (engine::frozen_weights_16bit_default).
bool Scenario::stack_loads_16bit() const {
    return (stack == "llama-factory" && strategy != "zero3") || stack == "axolotl" || stack == "unsloth";
}

bool Scenario::frozen_weights_16bit_default() const {
    const int m = index_of(kMethods, method);
    const int p = index_of(kPrecisions, precision);
    if (m < 0 || p < 0) return false;
    if (stack_loads_16bit() && frozen_weights_16bit_applies()) return true;
    // No precision given: the weights load as the checkpoint saved them (see parse_scenario_json).
    if (precision_defaulted && (model.checkpoint_dtype == "bfloat16" || model.checkpoint_dtype == "float16") &&
        frozen_weights_16bit_applies())
        return true;
    return engine::frozen_weights_16bit_default(model.family, engine::Method(m), engine::Precision(p));
}

bool interconnect_possible(const engine::GpuSpec& gpu, std::string_view id) {
    return id.rfind("nvlink", 0) != 0 || gpu.nvlink_bytes_per_s > 0;
}

engine::WorkloadShape Scenario::shape_per_sample() const {
    engine::WorkloadShape s;
    s.batch = 1;
    if (model.is_vision) s.image_size = image_size > 0 ? image_size : model.default_image_size;
    else s.seq_len = seq_len > 0 ? seq_len : model.default_seq_len;
    return s;
}

}  // namespace gg::catalog
