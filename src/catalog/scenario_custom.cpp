// Custom models in a scenario ({"family": "decoder", "layers": ...}): one reader per family, each with the family's
// defaults and the checks its shape needs. Hugging Face config.json models are read by hf_config.cpp, presets by
// models.cpp. Catalog-internal (scenario_custom.h).
#include "catalog/scenario_custom.h"

#include <algorithm>
#include <string>
#include <vector>

namespace gg::catalog::scenario_detail {
namespace {

using nlohmann::json;

const std::vector<std::string> kFamilies = {"decoder", "encoder", "vit", "resnet", "wide-resnet", "unet"};

// One custom object being read: its keys' readers, and the object as normalised (what scenario_to_json writes).
struct Custom {
    const json& o;
    Reader& r;
    json& normalised;
    std::string family;
    const std::string ptr = "/model";
    void req_int(const char* key, int& out, long long lo, long long hi) {
        if (!o.contains(key)) r.problem(ptr + "/" + key, std::string("custom ") + family + " model needs '" + key + "'");
        else if (r.integer(o, key, ptr, out, lo, hi)) normalised[key] = out;
    }
    void opt_int(const char* key, int& out, long long lo, long long hi) {
        if (r.integer(o, key, ptr, out, lo, hi)) normalised[key] = out;
    }
    void opt_bool(const char* key, bool& out) {
        if (r.boolean(o, key, ptr, out)) normalised[key] = out;
    }
};

void read_decoder(Custom& c, engine::ModelSpec& m) {
    const json& o = c.o;
    Reader& r = c.r;
    json& normalised = c.normalised;
    const std::string& ptr = c.ptr;
    r.unknown_keys(o, ptr, {"family", "layers", "hidden", "heads", "kv_heads", "ffn", "glu", "vocab", "tied_embeddings",
                            "norm", "position", "bias", "qkv_bias", "experts", "top_k", "max_positions", "dropout",
                            "activation", "head_dim", "seq_len"});
    m.family = engine::Family::kDecoder;
    m.default_seq_len = 2048;
    m.glu = true;
    m.norm = engine::NormKind::kRmsNorm;
    m.position = engine::PositionKind::kRope;
    m.activation = engine::Activation::kSilu;
    c.req_int("layers", m.layers, 1, 1000);
    c.req_int("hidden", m.hidden, 1, 1 << 17);
    c.req_int("heads", m.heads, 1, 1024);
    m.kv_heads = m.heads;
    c.opt_int("kv_heads", m.kv_heads, 1, 1024);
    c.req_int("ffn", m.ffn, 1, 1 << 20);
    c.req_int("vocab", m.vocab, 1, 1 << 22);
    c.opt_bool("glu", m.glu);
    c.opt_bool("tied_embeddings", m.tied_embeddings);
    c.opt_bool("bias", m.bias);
    c.opt_bool("qkv_bias", m.qkv_bias);
    c.opt_int("experts", m.experts, 1, 1024);
    c.opt_int("top_k", m.top_k, 1, 1024);
    c.opt_int("head_dim", m.head_dim, 1, 4096);
    c.opt_int("seq_len", m.default_seq_len, 2, 1 << 21);
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
    c.opt_int("max_positions", m.max_positions, 1, 1 << 21);
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
}

void read_encoder(Custom& c, engine::ModelSpec& m) {
    const json& o = c.o;
    Reader& r = c.r;
    json& normalised = c.normalised;
    const std::string& ptr = c.ptr;
    r.unknown_keys(o, ptr, {"family", "layers", "hidden", "heads", "ffn", "vocab", "max_positions", "type_vocab",
                            "num_labels", "dropout", "embedding_size", "activation"});
    m.family = engine::Family::kEncoder;
    m.default_seq_len = 512;
    m.pooler = true;
    m.bias = true;
    m.dropout = 0.1;
    m.type_vocab = 2;
    m.num_labels = 2;
    c.req_int("layers", m.layers, 1, 1000);
    c.req_int("hidden", m.hidden, 1, 1 << 17);
    c.req_int("heads", m.heads, 1, 1024);
    c.req_int("ffn", m.ffn, 1, 1 << 20);
    c.req_int("vocab", m.vocab, 1, 1 << 22);
    c.req_int("max_positions", m.max_positions, 1, 1 << 20);
    c.opt_int("type_vocab", m.type_vocab, 1, 1 << 10);
    c.opt_int("num_labels", m.num_labels, 0, 1 << 20);
    c.opt_int("embedding_size", m.embedding_size, 1, 1 << 17);
    if (r.number(o, "dropout", ptr, m.dropout, 0, 0.99)) normalised["dropout"] = m.dropout;
    std::string act;
    if (r.choice(o, "activation", ptr, {"gelu", "gelu_new"}, act)) {
        normalised["activation"] = act;
        m.activation = act == "gelu" ? engine::Activation::kGelu : engine::Activation::kGeluTanhPython;
    }
    m.default_seq_len = std::min(512, std::max(2, m.max_positions));
    if (m.heads > 0 && m.hidden % m.heads != 0) r.problem(ptr + "/heads", "'hidden' must be a multiple of 'heads'");
}

void read_vit(Custom& c, engine::ModelSpec& m) {
    const json& o = c.o;
    Reader& r = c.r;
    const std::string& ptr = c.ptr;
    r.unknown_keys(o, ptr, {"family", "image_size", "patch", "layers", "hidden", "heads", "ffn", "classes"});
    m.family = engine::Family::kVit;
    m.is_vision = true;
    m.classes = 1000;
    c.req_int("image_size", m.image_size, 1, 8192);
    c.req_int("patch", m.patch, 1, 1024);
    c.req_int("layers", m.layers, 1, 1000);
    c.req_int("hidden", m.hidden, 1, 1 << 17);
    c.req_int("heads", m.heads, 1, 1024);
    c.req_int("ffn", m.ffn, 1, 1 << 20);
    c.opt_int("classes", m.classes, 1, 1 << 20);
    m.default_image_size = m.image_size;
    if (m.patch > 0 && m.image_size % m.patch != 0)
        r.problem(ptr + "/image_size", "'image_size' must be a multiple of 'patch'");
    if (m.heads > 0 && m.hidden % m.heads != 0) r.problem(ptr + "/heads", "'hidden' must be a multiple of 'heads'");
}

void read_resnet(Custom& c, engine::ModelSpec& m) {
    const json& o = c.o;
    Reader& r = c.r;
    json& normalised = c.normalised;
    const std::string& ptr = c.ptr;
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
    c.opt_int("width", m.width, 1, 4096);
    c.opt_int("classes", m.classes, 1, 1 << 20);
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
}

// Wide-ResNet-depth-widen (Zagoruyko & Komodakis 2016, arXiv:1605.07146) for 32x32 images.
void read_wide_resnet(Custom& c, engine::ModelSpec& m) {
    const json& o = c.o;
    Reader& r = c.r;
    json& normalised = c.normalised;
    const std::string& ptr = c.ptr;
    r.unknown_keys(o, ptr, {"family", "depth", "widen", "classes", "dropout"});
    m.family = engine::Family::kResNet;
    m.is_vision = true;
    m.default_image_size = 32;
    m.classes = 10;
    m.wide_depth = 28;
    m.widen = 10;
    c.opt_int("depth", m.wide_depth, 10, 1000);
    c.opt_int("widen", m.widen, 1, 64);
    c.opt_int("classes", m.classes, 1, 1 << 20);
    if (r.number(o, "dropout", ptr, m.block_dropout, 0, 0.99)) normalised["dropout"] = m.block_dropout;
    if ((m.wide_depth - 4) % 6 != 0)
        r.problem(ptr + "/depth", "'depth' of a Wide-ResNet must be 6n + 4 (10, 16, 22, 28, 34, 40, ...)");
}

void read_unet(Custom& c, engine::ModelSpec& m) {
    const json& o = c.o;
    Reader& r = c.r;
    json& normalised = c.normalised;
    const std::string& ptr = c.ptr;
    r.unknown_keys(o, ptr, {"family", "base_channels", "width", "depth", "classes", "in_channels", "upsampling",
                            "norm"});
    m.family = engine::Family::kUnet;
    m.is_vision = true;
    m.default_image_size = 256;
    m.classes = 2;
    c.opt_int("base_channels", m.base_channels, 1, 4096);
    c.opt_int("width", m.base_channels, 1, 4096);  // alias of base_channels
    c.opt_int("depth", m.unet_depth, 1, 8);
    std::string up, norm;
    if (r.choice(o, "upsampling", ptr, {"transposed-conv"}, up)) normalised["upsampling"] = up;
    if (r.choice(o, "norm", ptr, {"batchnorm"}, norm)) normalised["norm"] = norm;
    c.opt_int("classes", m.classes, 1, 1 << 16);
    c.opt_int("in_channels", m.in_channels, 1, 1 << 10);
}

}  // namespace

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
    Custom c{o, r, normalised, family};
    if (family == "decoder") read_decoder(c, m);
    else if (family == "encoder") read_encoder(c, m);
    else if (family == "vit") read_vit(c, m);
    else if (family == "resnet") read_resnet(c, m);
    else if (family == "wide-resnet") read_wide_resnet(c, m);
    else if (family == "unet") read_unet(c, m);
    return m;
}

}  // namespace gg::catalog::scenario_detail
