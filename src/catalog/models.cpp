// data/models.json -> engine::ModelSpec (see models.h), and the engine's preset list, which is that file embedded.
// Sections: record readers | typed architectures | the file | the embedded presets
#include "catalog/models.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "catalog/embedded_data.h"
#include "catalog/hf_config.h"

namespace gg::catalog {

using nlohmann::json;
using engine::Family;
using engine::ModelSpec;

namespace {

// ---- record readers ------------------------------------------------------------------------------------------
struct RecordReader {
    const json& o;
    std::string file, ptr;
    std::vector<Problem>& problems;
    std::size_t before = problems.size();

    bool ok() const { return problems.size() == before; }
    void problem(const std::string& key, const std::string& message) {
        problems.push_back({file, key.empty() ? ptr : ptr + "/" + key, message});
    }
    bool has(const char* key) const { return o.contains(key) && !o.at(key).is_null(); }
    std::string text(const char* key, bool required) {
        if (!has(key)) {
            if (required) problem(key, std::string("missing key \"") + key + "\" (a string)");
            return {};
        }
        if (!o.at(key).is_string() || o.at(key).get<std::string>().empty()) {
            problem(key, std::string("\"") + key + "\" must be a non-empty string");
            return {};
        }
        return o.at(key).get<std::string>();
    }
    double number(const json& v, const std::string& key, double lo, double hi, bool whole) {
        if (!v.is_number() || v.get<double>() < lo || v.get<double>() > hi ||
            (whole && std::floor(v.get<double>()) != v.get<double>())) {
            problem(key, "\"" + key + "\" must be a " + (whole ? "whole number" : "number") + " from " +
                             json(lo).dump() + " to " + json(hi).dump() + " (got " + v.dump() + ")");
            return lo;
        }
        return v.get<double>();
    }
};

// ---- typed architectures -------------------------------------------------------------------------------------
// The networks that have no config.json (torchvision CNNs, Ultralytics YOLO, U-Nets, SD UNets, a BiLSTM-CRF): the
// keys each family's builder reads (src/engine/workload_<family>.cpp), as whole numbers, numbers, flags or lists of whole numbers.
struct Key {
    const char* name;
    enum Kind { kInt, kReal, kFlag, kInts } kind;
    int ModelSpec::*as_int = nullptr;
    double ModelSpec::*as_real = nullptr;
    bool ModelSpec::*as_flag = nullptr;
    std::vector<int> ModelSpec::*as_ints = nullptr;
    bool required = false;
};
Key integer(const char* n, int ModelSpec::*f, bool required = true) { return {n, Key::kInt, f, nullptr, nullptr, nullptr, required}; }
Key real(const char* n, double ModelSpec::*f, bool required = true) { return {n, Key::kReal, nullptr, f, nullptr, nullptr, required}; }
Key flag(const char* n, bool ModelSpec::*f) { return {n, Key::kFlag, nullptr, nullptr, f, nullptr, false}; }
Key ints(const char* n, std::vector<int> ModelSpec::*f) { return {n, Key::kInts, nullptr, nullptr, nullptr, f, true}; }

struct FamilyKeys {
    const char* name;
    Family family;
    bool vision;
    std::vector<Key> keys;
};

const std::vector<FamilyKeys>& family_keys() {
    static const std::vector<FamilyKeys> table = {
        // torchvision 0.14 models/resnet.py: blocks per stage, BasicBlock or Bottleneck.
        {"resnet", Family::kResNet, true, {ints("depths", &ModelSpec::depths), flag("bottleneck", &ModelSpec::bottleneck),
                                           integer("image_size", &ModelSpec::default_image_size), integer("classes", &ModelSpec::classes)}},
        // Wide-ResNet-depth-widen (Zagoruyko & Komodakis 2016); dropout between a block's two convolutions.
        {"wide-resnet", Family::kResNet, true, {integer("depth", &ModelSpec::wide_depth), integer("widen", &ModelSpec::widen),
                                                real("dropout", &ModelSpec::block_dropout, false),
                                                integer("image_size", &ModelSpec::default_image_size), integer("classes", &ModelSpec::classes)}},
        {"vgg", Family::kVgg, true, {integer("image_size", &ModelSpec::default_image_size), integer("classes", &ModelSpec::classes)}},
        {"mobilenet", Family::kMobileNetV2, true,
         {integer("image_size", &ModelSpec::default_image_size), integer("classes", &ModelSpec::classes)}},
        {"efficientnet", Family::kEfficientNetB0, true,
         {integer("image_size", &ModelSpec::default_image_size), integer("classes", &ModelSpec::classes)}},
        // Ultralytics: version 5 (models/yolov5?.yaml) or 8 (cfg/models/v8/yolov8.yaml `scales`).
        {"yolo", Family::kYolo, true, {integer("version", &ModelSpec::yolo_version), real("depth_multiple", &ModelSpec::depth_multiple),
                                       real("width_multiple", &ModelSpec::width_multiple),
                                       integer("max_channels", &ModelSpec::yolo_max_channels, false),
                                       integer("image_size", &ModelSpec::default_image_size), integer("classes", &ModelSpec::classes)}},
        {"unet", Family::kUnet, true, {integer("base_channels", &ModelSpec::base_channels), integer("image_size", &ModelSpec::default_image_size),
                                       integer("classes", &ModelSpec::classes)}},
        // diffusers UNet2DConditionModel unet/config.json names, plus the frozen input encoders the training scripts run.
        {"diffusion-unet", Family::kSdUnet, true,
         {integer("image_size", &ModelSpec::default_image_size), ints("block_out_channels", &ModelSpec::channel_mult),
          ints("transformer_layers_per_block", &ModelSpec::transformer_depth), ints("attention_heads", &ModelSpec::attention_heads),
          integer("mid_transformer_layers", &ModelSpec::mid_transformer_depth), integer("cross_attention_dim", &ModelSpec::context_dim),
          flag("use_linear_projection", &ModelSpec::linear_projection),
          integer("addition_embed_dim", &ModelSpec::addition_embed_dim, false), integer("latent_channels", &ModelSpec::latent_channels),
          integer("vae_base_channels", &ModelSpec::vae_base_channels), flag("vae_fp32", &ModelSpec::vae_fp32),
          flag("full_finetune_precomputes", &ModelSpec::full_finetune_precomputes)}},
        {"bilstm-crf", Family::kBiLstmCrf, false,
         {integer("seq_len", &ModelSpec::default_seq_len), integer("vocab", &ModelSpec::vocab), integer("embed_dim", &ModelSpec::embed_dim),
          integer("lstm_hidden", &ModelSpec::lstm_hidden), integer("tags", &ModelSpec::tags), real("dropout", &ModelSpec::dropout)}},
    };
    return table;
}

constexpr double kMaxSize = 1 << 24;

void read_architecture(RecordReader& rec, ModelSpec& m) {
    const json& a = rec.o.at("architecture");
    RecordReader r{a, rec.file, rec.ptr + "/architecture", rec.problems};
    if (!a.is_object()) return r.problem("", "\"architecture\" must be an object with a \"family\"");
    const std::string family = r.text("family", true);
    const auto it = std::find_if(family_keys().begin(), family_keys().end(),
                                 [&](const FamilyKeys& f) { return family == f.name; });
    if (it == family_keys().end()) {
        std::string known;
        for (const FamilyKeys& f : family_keys()) known += std::string(known.empty() ? "" : ", ") + f.name;
        if (!family.empty())
            r.problem("family", "family '" + family + "' has no typed architecture (transformers are an \"hf_config\"); "
                                "known: " + known);
        return;
    }
    m.family = it->family;
    m.is_vision = it->vision;
    std::vector<std::string> known = {"family"};
    for (const Key& k : it->keys) {
        known.push_back(k.name);
        if (!r.has(k.name)) {
            if (k.required) r.problem(k.name, std::string("a ") + family + " architecture needs \"" + k.name + "\"");
            continue;
        }
        const json& v = a.at(k.name);
        switch (k.kind) {
            case Key::kInt: m.*k.as_int = int(r.number(v, k.name, 1, kMaxSize, true)); break;
            case Key::kReal: m.*k.as_real = r.number(v, k.name, 0, kMaxSize, false); break;
            case Key::kFlag:
                if (!v.is_boolean()) r.problem(k.name, std::string("\"") + k.name + "\" must be true or false");
                else m.*k.as_flag = v.get<bool>();
                break;
            case Key::kInts:
                if (!v.is_array() || v.empty()) {
                    r.problem(k.name, std::string("\"") + k.name + "\" must be a non-empty list of whole numbers");
                    break;
                }
                (m.*k.as_ints).clear();
                for (std::size_t i = 0; i < v.size(); ++i)
                    (m.*k.as_ints).push_back(int(r.number(v[i], std::string(k.name) + "/" + std::to_string(i), 0, kMaxSize, true)));
                break;
        }
    }
    if (family == "resnet") {  // "stem": "imagenet" (torchvision, the default) | "cifar" (kuangliu/pytorch-cifar)
        known.push_back("stem");
        if (r.has("stem")) {
            const json& v = a.at("stem");
            if (!v.is_string() || (v != "imagenet" && v != "cifar")) r.problem("stem", "\"stem\" must be \"imagenet\" or \"cifar\"");
            else m.cifar_stem = v == "cifar";
        }
    }
    if (family == "wide-resnet" && (m.wide_depth < 10 || (m.wide_depth - 4) % 6 != 0))
        r.problem("depth", "a Wide-ResNet's \"depth\" must be 6n + 4, at least 10");
    if (family == "wide-resnet" && m.block_dropout >= 1) r.problem("dropout", "\"dropout\" must be below 1");
    if (m.family == Family::kSdUnet) {
        known.push_back("text_encoders");
        const std::size_t levels = m.channel_mult.size();
        if (m.transformer_depth.size() != levels || m.attention_heads.size() != levels)
            r.problem("transformer_layers_per_block", "\"transformer_layers_per_block\" and \"attention_heads\" need one "
                                                      "entry per \"block_out_channels\" level");
        // CLIP text transformers (77 tokens each): layers, hidden, heads, ffn, vocab, projection.
        if (r.has("text_encoders") && !a.at("text_encoders").is_array())
            r.problem("text_encoders", "\"text_encoders\" must be a list of {layers, hidden, heads, ffn, vocab, projection}");
        else if (r.has("text_encoders")) {
            for (std::size_t i = 0; i < a.at("text_encoders").size(); ++i) {
                const json& t = a.at("text_encoders")[i];
                RecordReader e{t, r.file, r.ptr + "/text_encoders/" + std::to_string(i), r.problems};
                if (!t.is_object()) {
                    e.problem("", "a text encoder must be an object");
                    continue;
                }
                ModelSpec::TextEncoder te;
                for (auto [key, field] : {std::pair<const char*, int ModelSpec::TextEncoder::*>{"layers", &ModelSpec::TextEncoder::layers},
                                          {"hidden", &ModelSpec::TextEncoder::hidden}, {"heads", &ModelSpec::TextEncoder::heads},
                                          {"ffn", &ModelSpec::TextEncoder::ffn}, {"vocab", &ModelSpec::TextEncoder::vocab}}) {
                    if (!e.has(key)) e.problem(key, std::string("a text encoder needs \"") + key + "\"");
                    else te.*field = int(e.number(t.at(key), key, 1, kMaxSize, true));
                }
                if (e.has("projection") && t.at("projection").is_boolean()) te.projection = t.at("projection").get<bool>();
                if (e.ok() && te.hidden % te.heads != 0) e.problem("heads", "\"hidden\" must be a multiple of \"heads\"");
                m.text_encoders.push_back(te);
            }
        }
    }
    for (auto k = a.begin(); k != a.end(); ++k)
        if (std::find(known.begin(), known.end(), k.key()) == known.end())
            r.problem(k.key(), "unknown key \"" + k.key() + "\" for a " + family + " architecture");
}

// ---- the file ------------------------------------------------------------------------------------------------
bool read_record(const json& o, const std::string& file, const std::string& ptr, ModelSpec& out,
                 std::vector<Problem>& problems) {
    RecordReader r{o, file, ptr, problems};
    if (!o.is_object()) {
        r.problem("", "a model must be an object with \"id\", \"name\", \"source\" and \"hf_config\" or \"architecture\"");
        return false;
    }
    ModelSpec m;
    const bool hf = r.has("hf_config"), typed = r.has("architecture");
    if (hf == typed) {
        r.problem("", "a model needs exactly one of \"hf_config\" (a Hugging Face config.json) or \"architecture\"");
        return false;
    }
    if (hf) {
        parse_hf_config(o.at("hf_config"), file, ptr + "/hf_config", m, problems);
        // torchvision's ViT from the same sizes: one packed in_proj, its module names (vision_transformer.py).
        const std::string impl = r.text("implementation", false);
        if (!impl.empty()) {
            if (impl != "torchvision" || m.family != Family::kVit)
                r.problem("implementation", "\"implementation\" can only be \"torchvision\", for a ViT config");
            m.separate_qkv = false;
            m.module_names.clear();
        }
    } else {
        read_architecture(r, m);
    }
    m.id = r.text("id", true);
    m.name = r.text("name", true);
    m.source = r.text("source", true);
    m.reference_params = r.has("reference_params") ? r.number(o.at("reference_params"), "reference_params", 0, 1e15, true) : 0;
    if (m.reference_params > 0) m.reference_source = r.text("reference_source", true);
    static const std::vector<std::string> known = {"id", "name", "source", "reference_params", "reference_source",
                                                   "config_source", "implementation", "hf_config", "architecture", "notes"};
    for (auto k = o.begin(); k != o.end(); ++k)
        if (std::find(known.begin(), known.end(), k.key()) == known.end())
            r.problem(k.key(), "unknown key \"" + k.key() + "\" in a model");
    if (!r.ok()) return false;
    out = std::move(m);
    return true;
}

}  // namespace

std::vector<ModelSpec> parse_models(std::string_view text, const std::string& file, std::vector<Problem>& problems) {
    std::vector<ModelSpec> out;
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        problems.push_back({file, "", "not a JSON object"});
        return out;
    }
    if (!doc.contains("models") || !doc["models"].is_array()) {
        problems.push_back({file, "/models", "missing key \"models\" (a list of models)"});
        return out;
    }
    const json& list = doc["models"];
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string ptr = "/models/" + std::to_string(i);
        ModelSpec m;
        if (!read_record(list[i], file, ptr, m, problems)) continue;
        if (std::any_of(out.begin(), out.end(), [&](const ModelSpec& o) { return o.id == m.id; })) {
            problems.push_back({file, ptr + "/id", "duplicate id '" + m.id + "'"});
            continue;
        }
        out.push_back(std::move(m));
    }
    return out;
}

namespace {
struct Embedded {
    std::vector<Problem> problems;
    std::vector<ModelSpec> models;
};
const Embedded& embedded() {
    static const Embedded e = [] {
        Embedded out;
        out.models = parse_models(embedded_file(kModelsFile), kModelsFile, out.problems);
        return out;
    }();
    return e;
}
}  // namespace

const std::vector<Problem>& embedded_model_problems() { return embedded().problems; }

}  // namespace gg::catalog

// ---- the embedded presets ------------------------------------------------------------------------------------
// Declared in engine/workload.h: the engine's preset list is data/models.json, so it is defined here, where JSON
// is read; the engine itself never calls these.
namespace gg::engine {

const std::vector<ModelSpec>& preset_models() { return catalog::embedded().models; }

const ModelSpec* find_preset(const std::string& id) {
    for (const ModelSpec& m : preset_models())
        if (m.id == id) return &m;
    return nullptr;
}

}  // namespace gg::engine
