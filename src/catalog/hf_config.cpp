// Hugging Face config.json -> engine::ModelSpec (see hf_config.h). Each model type reads the fields its
// transformers configuration class defines (transformers v4.46-v4.51 src/transformers/models/<type>/
// configuration_<type>.py); a field that config.json leaves out takes that class's default, which is what
// from_pretrained does; a field without a class default (the sizes) is required. The graph the engine builds
// mirrors the modeling_<type>.py modules: their parameter counts are checked against published counts in
// tests/catalog/test_hf_config.cpp (tests/validation/hf_configs.json).
//
// Sections: readers | decoders | encoders | vision | dispatch | LoRA targets
#include "catalog/hf_config.h"

#include <algorithm>
#include <cmath>

namespace gg::catalog {

using nlohmann::json;
using engine::ParamRole;

const std::vector<std::string> kHfModelTypes = {
    "llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3_text",
    "phi3", "phi", "gpt2", "opt", "gpt_neox", "falcon", "deepseek_v2", "deepseek_v3", "bert", "roberta", "xlm-roberta", "distilbert",
    "albert", "vit", "clip_vision_model", "whisper"};

namespace {

std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

// ---- readers -------------------------------------------------------------------------------------------------
// A null value counts as absent (config.json writes `"q_lora_rank": null`, `"n_inner": null`).
struct Fields {
    const json& o;
    std::string file, ptr, type;
    std::vector<Problem>& problems;

    void problem(const std::string& key, const std::string& message) {
        problems.push_back({file, key.empty() ? ptr : ptr + "/" + key, message});
    }
    bool has(const char* key) const { return o.contains(key) && !o.at(key).is_null(); }
    // A whole number from lo to hi; `fallback` when absent (class default), or a problem when required.
    int integer(const char* key, long long lo, long long hi, const int* fallback = nullptr) {
        if (!has(key)) {
            if (fallback) return *fallback;
            problem(key, "a " + type + " config.json needs '" + key + "' (a whole number)");
            return 0;
        }
        const json& v = o.at(key);
        const bool whole = v.is_number_integer() || v.is_number_unsigned() ||
                           (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
        if (!whole || v.get<double>() < double(lo) || v.get<double>() > double(hi)) {
            problem(key, "'" + std::string(key) + "' must be a whole number from " + std::to_string(lo) + " to " +
                             std::to_string(hi) + " (got " + v.dump() + ")");
            return fallback ? *fallback : 0;
        }
        return int(v.get<double>());
    }
    int optional(const char* key, int fallback, long long lo, long long hi) { return integer(key, lo, hi, &fallback); }
    bool boolean(const char* key, bool fallback) {
        if (!has(key)) return fallback;
        if (!o.at(key).is_boolean()) {
            problem(key, "'" + std::string(key) + "' must be true or false (got " + o.at(key).dump() + ")");
            return fallback;
        }
        return o.at(key).get<bool>();
    }
    double probability(const char* key, double fallback) {
        if (!has(key)) return fallback;
        const json& v = o.at(key);
        if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() < 1)) {
            problem(key, "'" + std::string(key) + "' must be a probability from 0 to below 1 (got " + v.dump() + ")");
            return fallback;
        }
        return v.get<double>();
    }
    // A share above 0 and at most 1 (partial_rotary_factor, rotary_pct); `fallback` when absent.
    double share(const char* key, double fallback) {
        if (!has(key)) return fallback;
        const json& v = o.at(key);
        if (!v.is_number() || !(v.get<double>() > 0 && v.get<double>() <= 1)) {
            problem(key, "'" + std::string(key) + "' must be a number above 0 and at most 1 (got " + v.dump() + ")");
            return fallback;
        }
        return v.get<double>();
    }
    // A positive number; `fallback` when absent; 0 when null (config.json's "off", e.g. "final_logit_softcapping": null).
    double positive_or_null(const char* key, double fallback) {
        if (!o.contains(key)) return fallback;
        const json& v = o.at(key);
        if (v.is_null()) return 0;
        if (!v.is_number() || !(v.get<double>() > 0)) {
            problem(key, "'" + std::string(key) + "' must be a positive number or null (got " + v.dump() + ")");
            return fallback;
        }
        return v.get<double>();
    }
    std::string text(const char* key, const std::string& fallback) {
        if (!has(key)) return fallback;
        if (!o.at(key).is_string()) {
            problem(key, "'" + std::string(key) + "' must be a string (got " + o.at(key).dump() + ")");
            return fallback;
        }
        return o.at(key).get<std::string>();
    }
    // Labels of a classification head: len(id2label) when given, else num_labels, else PretrainedConfig's 2.
    int labels() {
        if (has("id2label") && o.at("id2label").is_object() && !o.at("id2label").empty())
            return int(o.at("id2label").size());
        return optional("num_labels", 2, 1, 1 << 20);
    }
    // An activation the builders model; anything else is a problem naming it.
    engine::Activation activation(const char* key, const std::string& fallback) {
        const std::string a = text(key, fallback);
        if (a == "silu" || a == "swish") return engine::Activation::kSilu;
        if (a == "gelu") return engine::Activation::kGelu;
        // transformers activations.py: PytorchGELUTanh is F.gelu(approximate="tanh"), one kernel keeping its input;
        // NewGELUActivation and FastGELUActivation are written out in Python ops.
        if (a == "gelu_pytorch_tanh") return engine::Activation::kGelu;
        if (a == "gelu_new" || a == "gelu_fast") return engine::Activation::kGeluTanhPython;
        if (a == "relu") return engine::Activation::kRelu;
        if (a == "quick_gelu") return engine::Activation::kQuickGelu;
        problem(key, "activation '" + a + "' is not modelled (silu, gelu, gelu_new, gelu_fast, gelu_pytorch_tanh, "
                     "quick_gelu, relu)");
        return engine::Activation::kGelu;
    }
    // A setting that changes the graph in a way the builders do not model: a problem unless it has `expected`.
    void refuse_unless(const char* key, bool expected, const std::string& why) {
        if (has(key) && o.at(key).is_boolean() && o.at(key).get<bool>() != expected) problem(key, why);
    }
};

void names(engine::ModelSpec& m, std::initializer_list<std::pair<ParamRole, const char*>> list) {
    for (const auto& [role, name] : list) m.module_names.emplace_back(role, name);
}

// ---- decoders ------------------------------------------------------------------------------------------------
// The Llama layout (RMSNorm, RoPE, SwiGLU, no dropout) and the sizes every *ForCausalLM config names alike.
void llama_like(Fields& f, engine::ModelSpec& m, bool tied_default) {
    m.family = engine::Family::kDecoder;
    m.glu = true;
    m.norm = engine::NormKind::kRmsNorm;
    m.position = engine::PositionKind::kRope;
    m.activation = engine::Activation::kSilu;
    m.hidden = f.integer("hidden_size", 1, 1 << 17);
    m.layers = f.integer("num_hidden_layers", 1, 1000);
    m.heads = f.integer("num_attention_heads", 1, 1024);
    m.kv_heads = f.optional("num_key_value_heads", m.heads, 1, 1024);  // the classes' default: no GQA
    m.vocab = f.integer("vocab_size", 1, 1 << 22);
    m.tied_embeddings = f.boolean("tie_word_embeddings", tied_default);
    m.head_dim = f.optional("head_dim", 0, 1, 4096);
    const int positions = f.optional("max_position_embeddings", 2048, 2, 1 << 24);
    m.default_seq_len = std::min(2048, positions);
    m.dropout = f.probability("attention_dropout", 0);
    if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0)
        f.problem("num_key_value_heads", "'num_attention_heads' must be a multiple of 'num_key_value_heads'");
    if (m.head_dim == 0 && m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads' (or give 'head_dim')");
}

// Which layers slide: every layer (Mistral, Mixtral, Phi-3), the layers from max_window_layers on (Qwen2 family,
// modeling_qwen2.py: "self.config.use_sliding_window and ... self.layer_idx >= self.config.max_window_layers"),
// the even layers (modeling_gemma2.py: "config.sliding_window if not bool(layer_idx % 2)"), all but every
// sliding_window_pattern-th (modeling_gemma3.py: "bool((layer_idx + 1) % config.sliding_window_pattern)"); a
// `layer_types` list ("sliding_attention" / "full_attention", transformers v4.53 on) names each layer and wins.
enum class Sliding { kEvery, kFromMaxWindowLayers, kEven, kPattern };
void read_sliding_window(Fields& f, engine::ModelSpec& m, bool used, Sliding which = Sliding::kEvery) {
    if (!used) return;
    m.sliding_window = f.optional("sliding_window", 0, 0, 1 << 24);
    if (m.sliding_window == 0 || m.layers <= 0) return;
    m.sliding_layers.clear();
    if (f.has("layer_types")) {
        const json& types = f.o.at("layer_types");
        if (!types.is_array() || types.size() != std::size_t(m.layers)) {
            f.problem("layer_types", "'layer_types' must list one type per layer ('num_hidden_layers' of them)");
            return;
        }
        for (const json& t : types) {
            if (!t.is_string() || (t != "sliding_attention" && t != "full_attention")) {
                f.problem("layer_types", "'layer_types' entries must be \"sliding_attention\" or \"full_attention\" (got " +
                                             t.dump() + ")");
                return;
            }
            m.sliding_layers.push_back(t == "sliding_attention" ? 1 : 0);
        }
        return;
    }
    const int first = which == Sliding::kFromMaxWindowLayers ? f.optional("max_window_layers", 28, 0, 1000) : 0;
    const int pattern = which == Sliding::kPattern ? f.optional("sliding_window_pattern", 6, 1, 1000) : 1;
    if (which == Sliding::kEvery) return;
    for (int i = 0; i < m.layers; ++i) {
        const bool slides = which == Sliding::kFromMaxWindowLayers ? i >= first
                          : which == Sliding::kEven                ? i % 2 == 0
                                                                   : (i + 1) % pattern != 0;
        m.sliding_layers.push_back(slides ? 1 : 0);
    }
}

// Mixture of experts: experts, top-k, the expert width, and which layers are sparse.
void read_moe(Fields& f, engine::ModelSpec& m, const char* experts_key, const char* width_key) {
    m.experts = f.integer(experts_key, 1, 4096);
    m.top_k = f.integer("num_experts_per_tok", 1, 4096);
    if (m.top_k > m.experts) f.problem("num_experts_per_tok", "'num_experts_per_tok' must be at most '" +
                                                                  std::string(experts_key) + "'");
    if (width_key) m.moe_ffn = f.integer(width_key, 1, 1 << 20);
    // The top-k routing weights divided by their sum: always in MixtralSparseMoeBlock, where the config's
    // norm_topk_prob says so elsewhere (modeling_qwen2_moe.py, modeling_qwen3_moe.py, modeling_deepseek_v3.py).
    m.moe_renormalize = f.type == "mixtral" || f.boolean("norm_topk_prob", false);
}

// Llama and its kin: Mistral, Mixtral, Qwen2 / Qwen2-MoE, Qwen3 / Qwen3-MoE, Phi-3.
void read_llama_like(Fields& f, engine::ModelSpec& m) {
    const std::string& t = f.type;
    llama_like(f, m, false);
    // LlamaConfig.attention_bias: q, k, v and o; Qwen2 / Qwen2-MoE: q, k, v always (modeling_qwen2.py).
    m.bias = (t == "llama" || t == "qwen3" || t == "qwen3_moe") && f.boolean("attention_bias", false);
    m.qkv_bias = t == "qwen2" || t == "qwen2_moe";
    f.refuse_unless("mlp_bias", false, "'mlp_bias': true is not modelled (the MLP Linears have no bias)");
    if (t != "qwen2_moe" && t != "qwen3_moe" && t != "mixtral") m.ffn = f.integer("intermediate_size", 1, 1 << 20);
    if (t == "mistral" || t == "mixtral") read_sliding_window(f, m, true);
    if (t == "qwen2" || t == "qwen2_moe" || t == "qwen3" || t == "qwen3_moe")
        read_sliding_window(f, m, f.boolean("use_sliding_window", false), Sliding::kFromMaxWindowLayers);
    if (t == "qwen3" || t == "qwen3_moe") m.qk_norm = true;
    if (t == "mixtral") {
        read_moe(f, m, "num_local_experts", nullptr);
        m.ffn = f.integer("intermediate_size", 1, 1 << 20);
        names(m, {{ParamRole::kGate, ".block_sparse_moe.experts.w1"}, {ParamRole::kUp, ".block_sparse_moe.experts.w3"},
                  {ParamRole::kDown, ".block_sparse_moe.experts.w2"}, {ParamRole::kRouter, ".block_sparse_moe.gate"}});
    }
    if (t == "qwen2_moe" || t == "qwen3_moe") {
        read_moe(f, m, "num_experts", "moe_intermediate_size");
        m.ffn = f.optional("intermediate_size", m.moe_ffn, 1, 1 << 20);  // the dense layers' width
        m.moe_layer_step = f.optional("decoder_sparse_step", 1, 1, 1000);
        if (f.has("mlp_only_layers") && !(f.o.at("mlp_only_layers").is_array() && f.o.at("mlp_only_layers").empty()))
            f.problem("mlp_only_layers", "'mlp_only_layers' other than [] is not modelled");
        if (t == "qwen2_moe") {
            m.shared_expert_ffn = f.integer("shared_expert_intermediate_size", 1, 1 << 20);
            m.shared_expert_gate = true;
            m.shared_expert_prefix = ".mlp.shared_expert";
        }
        names(m, {{ParamRole::kGate, ".mlp.experts.gate_proj"}, {ParamRole::kUp, ".mlp.experts.up_proj"},
                  {ParamRole::kDown, ".mlp.experts.down_proj"}, {ParamRole::kRouter, ".mlp.gate"}});
    }
    if (t == "phi3") {  // modeling_phi3.py: qkv_proj and gate_up_proj, fused, no biases
        m.qkv_fused = true;
        m.gate_up_fused = true;
        m.dropout = f.probability("attention_dropout", 0);
        // Phi-4-mini: rotary on partial_rotary_factor of each head (0.75), the rest passed through
        // (modeling_phi3.py apply_rotary_pos_emb since transformers v4.49; Phi-3 has none, i.e. 1).
        m.rotary_fraction = f.share("partial_rotary_factor", 1.0);
        read_sliding_window(f, m, true);
        names(m, {{ParamRole::kQkv, ".self_attn.qkv_proj"}, {ParamRole::kO, ".self_attn.o_proj"}});
    }
}

// Gemma, Gemma 2, Gemma 3 (text).
void read_gemma(Fields& f, engine::ModelSpec& m) {
    const std::string& t = f.type;
    // GemmaRMSNorm (weight stored as w, applied as 1 + w), GeGLU with tanh GELU, tied embeddings, head_dim given.
    llama_like(f, m, true);
    m.ffn = f.integer("intermediate_size", 1, 1 << 20);
    m.head_dim = f.integer("head_dim", 1, 4096);
    m.bias = f.boolean("attention_bias", false);
    m.activation = f.activation(f.has("hidden_activation") ? "hidden_activation" : "hidden_act", "gelu_pytorch_tanh");
    m.sandwich_norm = t != "gemma";
    m.qk_norm = t == "gemma3_text";
    read_sliding_window(f, m, t != "gemma", t == "gemma2" ? Sliding::kEven : Sliding::kPattern);
    // Gemma2Config: attn_logit_softcapping 50.0, final_logit_softcapping 30.0 by default; Gemma 3 none (null).
    const bool capped = t == "gemma2";
    m.attn_logit_softcapping = f.positive_or_null("attn_logit_softcapping", capped ? 50.0 : 0);
    m.final_logit_softcapping = f.positive_or_null("final_logit_softcapping", capped ? 30.0 : 0);
}

// GPT-2.
void read_gpt2(Fields& f, engine::ModelSpec& m) {
    // GPT2Config: n_embd, n_layer, n_head, n_inner (None = 4 x n_embd), n_positions; Conv1D c_attn, c_proj, c_fc.
    m.family = engine::Family::kDecoder;
    m.hidden = f.integer("n_embd", 1, 1 << 17);
    m.layers = f.integer("n_layer", 1, 1000);
    m.heads = f.integer("n_head", 1, 1024);
    m.kv_heads = m.heads;
    m.ffn = f.optional("n_inner", 4 * m.hidden, 1, 1 << 20);
    m.vocab = f.optional("vocab_size", 50257, 1, 1 << 22);
    m.max_positions = f.optional("n_positions", 1024, 1, 1 << 20);
    m.default_seq_len = m.max_positions;
    m.tied_embeddings = f.boolean("tie_word_embeddings", true);
    m.bias = true;
    m.qkv_fused = true;
    m.norm = engine::NormKind::kLayerNorm;
    m.position = engine::PositionKind::kLearned;
    m.activation = f.activation("activation_function", "gelu_new");
    m.dropout = f.probability("resid_pdrop", 0.1);
    if (m.heads > 0 && m.hidden % m.heads != 0) f.problem("n_head", "'n_embd' must be a multiple of 'n_head'");
}

// OPT.
void read_opt(Fields& f, engine::ModelSpec& m) {
    // OPTConfig / modeling_opt.py (OPTForCausalLM): learned positions with an offset of 2
    // (OPTLearnedPositionalEmbedding: max_position_embeddings + 2 rows, looked up at position + 2), q_proj, k_proj,
    // v_proj, out_proj, fc1 and fc2 with bias (enable_bias), ReLU, LayerNorm before each sublayer or, with
    // do_layer_norm_before false (OPT-350m), after each residual add; the decoder's final_layer_norm only in the
    // pre-LN layout and not with _remove_final_layer_norm; embed_tokens and the tied lm_head word_embed_proj_dim
    // wide, with project_in and project_out (no bias) when that differs from hidden_size (OPT-350m: 512).
    // `dropout` acts on the attention output and on fc2's output (OPTDecoderLayer; none on the embeddings),
    // attention_dropout on the probabilities. The eager attention scales q (q_proj(x) * head_dim^-0.5) before
    // q @ k^T and takes the softmax in fp32; the loss upcasts the logits (logits.float()), as Llama's.
    m.family = engine::Family::kDecoder;
    m.hidden = f.integer("hidden_size", 1, 1 << 17);
    m.layers = f.integer("num_hidden_layers", 1, 1000);
    m.heads = f.integer("num_attention_heads", 1, 1024);
    m.kv_heads = m.heads;
    m.ffn = f.integer("ffn_dim", 1, 1 << 20);
    m.vocab = f.optional("vocab_size", 50272, 1, 1 << 22);
    const int positions = f.optional("max_position_embeddings", 2048, 2, 1 << 24);
    m.max_positions = positions + 2;  // the offset of 2 (the positional table's rows)
    m.default_seq_len = std::min(2048, positions);
    m.tied_embeddings = f.boolean("tie_word_embeddings", true);
    m.bias = f.boolean("enable_bias", true);
    m.norm = engine::NormKind::kLayerNorm;
    m.position = engine::PositionKind::kLearned;
    m.activation = f.activation("activation_function", "relu");
    const bool pre_norm = f.boolean("do_layer_norm_before", true);
    m.post_norm = !pre_norm;
    m.final_norm = pre_norm && !f.boolean("_remove_final_layer_norm", false);
    const int proj = f.optional("word_embed_proj_dim", m.hidden, 1, 1 << 17);  // None: hidden_size
    m.word_embed_proj_dim = proj == m.hidden ? 0 : proj;
    m.llama_upcasts = true;
    m.split_dropout = true;
    m.dropout = f.probability("dropout", 0.1);
    m.embedding_dropout = 0;
    m.attention_dropout = f.probability("attention_dropout", 0);
    // LayerDrop (OPTDecoder.forward skips a layer with probability layerdrop in training): a random depth.
    if (f.probability("layerdrop", 0) != 0)
        f.problem("layerdrop", "'layerdrop' other than 0 is not modelled (layers skipped at random in training); "
                               "the published OPT models have 0.0");
    f.refuse_unless("layer_norm_elementwise_affine", true,
                    "'layer_norm_elementwise_affine': false is not modelled (LayerNorms without weight and bias)");
    if (m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads'");
    names(m, {{ParamRole::kO, ".self_attn.out_proj"}, {ParamRole::kFc1, ".fc1"}, {ParamRole::kFc2, ".fc2"}});
}

// GPT-NeoX (Pythia).
void read_gpt_neox(Fields& f, engine::ModelSpec& m) {
    // GPTNeoXConfig / modeling_gpt_neox.py: fused query_key_value with bias, dense, dense_h_to_4h, dense_4h_to_h,
    // LayerNorm, rotary on rotary_pct of each head, parallel residual by default, untied embed_out.
    m.family = engine::Family::kDecoder;
    m.hidden = f.integer("hidden_size", 1, 1 << 17);
    m.layers = f.integer("num_hidden_layers", 1, 1000);
    m.heads = f.integer("num_attention_heads", 1, 1024);
    m.kv_heads = m.heads;
    m.ffn = f.integer("intermediate_size", 1, 1 << 20);
    m.vocab = f.integer("vocab_size", 1, 1 << 22);
    m.default_seq_len = std::min(2048, f.optional("max_position_embeddings", 2048, 2, 1 << 24));
    m.tied_embeddings = f.boolean("tie_word_embeddings", false);
    m.bias = f.boolean("attention_bias", true);
    m.qkv_fused = true;
    m.norm = engine::NormKind::kLayerNorm;
    m.position = engine::PositionKind::kRope;
    m.activation = f.activation("hidden_act", "gelu");
    m.parallel_residual = f.boolean("use_parallel_residual", true);
    m.rotary_fraction = f.share("rotary_pct", 0.25);
    m.dropout = f.probability("hidden_dropout", 0);
    if (m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads'");
    names(m, {{ParamRole::kQkv, ".attention.query_key_value"}, {ParamRole::kO, ".attention.dense"},
              {ParamRole::kFc1, ".mlp.dense_h_to_4h"}, {ParamRole::kFc2, ".mlp.dense_4h_to_h"}});
}

// Phi-1, Phi-1.5, Phi-2.
void read_phi(Fields& f, engine::ModelSpec& m) {
    // PhiConfig / modeling_phi.py (Phi-1, Phi-1.5, Phi-2): q_proj, k_proj, v_proj and dense with bias, one
    // input_layernorm (LayerNorm) feeding both the attention and the MLP (fc1, gelu_new, fc2, with bias), each
    // output through resid_dropout, x = attn + mlp + x; rotary on partial_rotary_factor of each head;
    // final_layernorm and an untied lm_head with bias. embd_pdrop, attention_dropout and resid_pdrop are three
    // probabilities. The attention and the loss are Llama's code (fp32 softmax, logits.float()).
    m.family = engine::Family::kDecoder;
    m.hidden = f.integer("hidden_size", 1, 1 << 17);
    m.layers = f.integer("num_hidden_layers", 1, 1000);
    m.heads = f.integer("num_attention_heads", 1, 1024);
    m.kv_heads = f.optional("num_key_value_heads", m.heads, 1, 1024);  // None: num_attention_heads
    m.ffn = f.integer("intermediate_size", 1, 1 << 20);
    m.vocab = f.optional("vocab_size", 51200, 1, 1 << 22);
    m.default_seq_len = std::min(2048, f.optional("max_position_embeddings", 2048, 2, 1 << 24));
    m.tied_embeddings = f.boolean("tie_word_embeddings", false);
    m.bias = true;
    m.lm_head_bias = true;
    m.norm = engine::NormKind::kLayerNorm;
    m.position = engine::PositionKind::kRope;
    m.rotary_fraction = f.share("partial_rotary_factor", 0.5);
    m.activation = f.activation("hidden_act", "gelu_new");
    m.parallel_residual = true;
    m.parallel_shared_norm = true;
    m.llama_upcasts = true;
    m.split_dropout = true;
    m.dropout = f.probability("resid_pdrop", 0);
    m.embedding_dropout = f.probability("embd_pdrop", 0);
    m.attention_dropout = f.probability("attention_dropout", 0);
    f.refuse_unless("qk_layernorm", false, "'qk_layernorm': true is not modelled (LayerNorm on each head of q and "
                                           "k); the published Phi models have it false");
    if (m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads'");
    if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0)
        f.problem("num_key_value_heads", "'num_attention_heads' must be a multiple of 'num_key_value_heads'");
    names(m, {{ParamRole::kO, ".self_attn.dense"}, {ParamRole::kFc1, ".mlp.fc1"}, {ParamRole::kFc2, ".mlp.fc2"}});
}

// Falcon.
void read_falcon(Fields& f, engine::ModelSpec& m) {
    // FalconConfig / modeling_falcon.py: fused query_key_value (multi-query: 1 key/value head; the new decoder
    // architecture: num_kv_heads), parallel attention, LayerNorm, GELU MLP of ffn_hidden_size (4 x hidden),
    // biases only with `bias`, lm_head tied to word_embeddings by default.
    m.family = engine::Family::kDecoder;
    m.hidden = f.integer("hidden_size", 1, 1 << 17);
    m.layers = f.integer("num_hidden_layers", 1, 1000);
    m.heads = f.integer("num_attention_heads", 1, 1024);
    m.vocab = f.integer("vocab_size", 1, 1 << 22);
    m.ffn = f.optional("ffn_hidden_size", 4 * m.hidden, 1, 1 << 20);
    m.default_seq_len = std::min(2048, f.optional("max_position_embeddings", 2048, 2, 1 << 24));
    m.tied_embeddings = f.boolean("tie_word_embeddings", true);
    m.bias = f.boolean("bias", false);
    m.qkv_fused = true;
    m.norm = engine::NormKind::kLayerNorm;
    m.position = engine::PositionKind::kRope;
    m.activation = f.activation("activation", "gelu");
    const bool new_arch = f.boolean("new_decoder_architecture", false);
    if (new_arch) m.kv_heads = f.integer("num_kv_heads", 1, 1024);
    else m.kv_heads = f.boolean("multi_query", true) ? 1 : m.heads;
    m.parallel_residual = new_arch || f.boolean("parallel_attn", true);
    // Old layout: one input_layernorm; the new one: ln_attn and ln_mlp unless num_ln_in_parallel_attn is 1.
    m.parallel_shared_norm = m.parallel_residual && (!new_arch || f.optional("num_ln_in_parallel_attn", 2, 1, 2) == 1);
    m.dropout = f.probability("hidden_dropout", 0);
    f.refuse_unless("alibi", false, "ALiBi positions ('alibi': true) are not modelled (Falcon-RW); rotary only");
    if (m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads'");
    if (m.heads > 0 && m.kv_heads > 0 && m.heads % m.kv_heads != 0)
        f.problem("num_kv_heads", "'num_attention_heads' must be a multiple of 'num_kv_heads'");
    names(m, {{ParamRole::kQkv, ".self_attention.query_key_value"}, {ParamRole::kO, ".self_attention.dense"},
              {ParamRole::kFc1, ".mlp.dense_h_to_4h"}, {ParamRole::kFc2, ".mlp.dense_4h_to_h"}});
}

// Whisper (the decoder and its audio encoder).
void read_whisper(Fields& f, engine::ModelSpec& m) {
    // WhisperConfig / modeling_whisper.py (WhisperForConditionalGeneration): the audio encoder, a decoder with
    // learned positions and cross-attention, LayerNorm, GELU, biases on every Linear but k_proj, proj_out tied.
    m.family = engine::Family::kDecoder;
    m.hidden = f.integer("d_model", 1, 1 << 17);
    m.layers = f.integer("decoder_layers", 1, 1000);
    m.encoder_layers = f.integer("encoder_layers", 1, 1000);
    m.heads = f.integer("decoder_attention_heads", 1, 1024);
    m.kv_heads = m.heads;
    m.ffn = f.integer("decoder_ffn_dim", 1, 1 << 20);
    if (f.has("encoder_attention_heads") && f.integer("encoder_attention_heads", 1, 1024) != m.heads)
        f.problem("encoder_attention_heads", "encoder and decoder with different head counts are not modelled");
    if (f.has("encoder_ffn_dim") && f.integer("encoder_ffn_dim", 1, 1 << 20) != m.ffn)
        f.problem("encoder_ffn_dim", "encoder and decoder with different FFN widths are not modelled");
    m.vocab = f.integer("vocab_size", 1, 1 << 22);
    m.mel_bins = f.optional("num_mel_bins", 80, 1, 1024);
    m.encoder_positions = f.optional("max_source_positions", 1500, 1, 1 << 16);
    m.max_positions = f.optional("max_target_positions", 448, 2, 1 << 16);
    m.default_seq_len = m.max_positions;
    m.tied_embeddings = f.boolean("tie_word_embeddings", true);
    m.bias = true;
    m.k_bias = false;
    m.norm = engine::NormKind::kLayerNorm;
    m.position = engine::PositionKind::kLearned;
    m.activation = f.activation("activation_function", "gelu");
    m.dropout = f.probability("dropout", 0);
    if (m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("decoder_attention_heads", "'d_model' must be a multiple of 'decoder_attention_heads'");
    names(m, {{ParamRole::kO, ".self_attn.out_proj"}, {ParamRole::kFc1, ".fc1"}, {ParamRole::kFc2, ".fc2"}});
}

// DeepSeek-V2, DeepSeek-V3.
void read_deepseek(Fields& f, engine::ModelSpec& m) {
    const std::string& t = f.type;
    // DeepseekV2Config / V3: MLA (q_lora_rank null = a plain q_proj), routed experts of moe_intermediate_size,
    // n_shared_experts shared ones (one MLP n_shared x as wide), the first first_k_dense_replace layers dense.
    llama_like(f, m, false);
    m.ffn = f.integer("intermediate_size", 1, 1 << 20);
    read_moe(f, m, "n_routed_experts", "moe_intermediate_size");
    m.shared_expert_ffn = f.optional("n_shared_experts", 0, 0, 64) * m.moe_ffn;
    m.first_dense_layers = f.optional("first_k_dense_replace", 0, 0, 1000);
    if (f.optional("moe_layer_freq", 1, 1, 1000) != 1)
        f.problem("moe_layer_freq", "'moe_layer_freq' other than 1 is not modelled");
    m.q_lora_rank = f.optional("q_lora_rank", 0, 1, 1 << 16);
    m.kv_lora_rank = f.integer("kv_lora_rank", 1, 1 << 16);
    m.qk_nope_head_dim = f.integer("qk_nope_head_dim", 1, 4096);
    m.qk_rope_head_dim = f.integer("qk_rope_head_dim", 1, 4096);
    m.v_head_dim = f.integer("v_head_dim", 1, 4096);
    m.qkv_bias = f.boolean("attention_bias", false);
    m.kv_heads = m.heads;
    // V3's router keeps a bias per expert for its aux-loss-free balancing (e_score_correction_bias, noaux_tc).
    m.router_bias = f.text("topk_method", t == "deepseek_v3" ? "noaux_tc" : "greedy") == "noaux_tc";
    m.shared_expert_prefix = ".mlp.shared_experts";
    names(m, {{ParamRole::kGate, ".mlp.experts.gate_proj"}, {ParamRole::kUp, ".mlp.experts.up_proj"},
              {ParamRole::kDown, ".mlp.experts.down_proj"}, {ParamRole::kRouter, ".mlp.gate"}});
}

// A decoder config of a model_type parse_hf_config knows: the reader of its architecture.
void read_decoder(Fields& f, engine::ModelSpec& m) {
    const std::string& t = f.type;
    if (t == "llama" || t == "mistral" || t == "mixtral" || t == "qwen2" || t == "qwen2_moe" ||
        t == "qwen3" || t == "qwen3_moe" || t == "phi3")
        read_llama_like(f, m);
    else if (t == "gemma" || t == "gemma2" || t == "gemma3_text") read_gemma(f, m);
    else if (t == "gpt2") read_gpt2(f, m);
    else if (t == "opt") read_opt(f, m);
    else if (t == "gpt_neox") read_gpt_neox(f, m);
    else if (t == "phi") read_phi(f, m);
    else if (t == "falcon") read_falcon(f, m);
    else if (t == "whisper") read_whisper(f, m);
    else if (t == "deepseek_v2" || t == "deepseek_v3") read_deepseek(f, m);
}

// ---- encoders ------------------------------------------------------------------------------------------------
// XLM-RoBERTa is RoBERTa (modeling_xlm_roberta.py is a copy of modeling_roberta.py; only the vocabulary differs).
bool roberta_like(const std::string& type) { return type == "roberta" || type == "xlm-roberta"; }

// BERT / RoBERTa / ALBERT (modeling_bert.py, modeling_roberta.py, modeling_albert.py): the
// *ForSequenceClassification model the presets train (pooler + classifier); DistilBERT (modeling_distilbert.py): no token types, pre_classifier + classifier.
void read_encoder(Fields& f, engine::ModelSpec& m) {
    m.family = engine::Family::kEncoder;
    m.bias = true;
    m.pooler = true;
    m.num_labels = f.labels();
    if (f.type == "distilbert") {
        m.hidden = f.optional("dim", 768, 1, 1 << 17);
        m.layers = f.optional("n_layers", 6, 1, 1000);
        m.heads = f.optional("n_heads", 12, 1, 1024);
        m.ffn = f.optional("hidden_dim", 3072, 1, 1 << 20);
        m.vocab = f.optional("vocab_size", 30522, 1, 1 << 22);
        m.max_positions = f.optional("max_position_embeddings", 512, 1, 1 << 20);
        m.type_vocab = 0;
        m.dropout = f.probability("dropout", 0.1);
        m.activation = f.activation("activation", "gelu");
        names(m, {{ParamRole::kQ, ".attention.q_lin"}, {ParamRole::kK, ".attention.k_lin"},
                  {ParamRole::kV, ".attention.v_lin"}, {ParamRole::kO, ".attention.out_lin"},
                  {ParamRole::kFc1, ".ffn.lin1"}, {ParamRole::kFc2, ".ffn.lin2"},
                  {ParamRole::kOther, "pre_classifier"}, {ParamRole::kHead, "classifier"}});
    } else {
        m.hidden = f.integer("hidden_size", 1, 1 << 17);
        m.layers = f.integer("num_hidden_layers", 1, 1000);
        m.heads = f.integer("num_attention_heads", 1, 1024);
        m.ffn = f.integer("intermediate_size", 1, 1 << 20);
        m.vocab = f.integer("vocab_size", 1, 1 << 22);
        m.max_positions = f.optional("max_position_embeddings", 512, 1, 1 << 20);
        m.type_vocab = f.optional("type_vocab_size", 2, 1, 1 << 10);
        m.dropout = f.probability("hidden_dropout_prob", 0.1);
        m.activation = f.activation("hidden_act", "gelu");
        names(m, {{ParamRole::kHead, "classifier"}});
        if (f.type == "albert") {
            // AlbertConfig / modeling_albert.py: factorised embeddings of embedding_size mapped up by
            // embedding_hidden_mapping_in, one layer group shared by every layer, gelu_new and no dropout by default.
            m.embedding_size = f.optional("embedding_size", 128, 1, 1 << 17);
            m.shared_layers = true;
            m.dropout = f.probability("hidden_dropout_prob", 0);
            m.activation = f.activation("hidden_act", "gelu_new");
            if (f.optional("num_hidden_groups", 1, 1, 1000) != 1 || f.optional("inner_group_num", 1, 1, 1000) != 1)
                f.problem("num_hidden_groups", "ALBERT with other than one shared layer group ('num_hidden_groups' 1, "
                                               "'inner_group_num' 1) is not modelled");
            m.module_names.clear();
            names(m, {{ParamRole::kQ, ".attention.query"}, {ParamRole::kK, ".attention.key"},
                      {ParamRole::kV, ".attention.value"}, {ParamRole::kO, ".attention.dense"},
                      {ParamRole::kFc1, ".ffn"}, {ParamRole::kFc2, ".ffn_output"}, {ParamRole::kHead, "classifier"}});
        }
    }
    // RoBERTa's positions start after the padding index (max_position_embeddings 514 for 512 tokens).
    m.default_seq_len = std::min(512, std::max(2, m.max_positions - (roberta_like(f.type) ? 2 : 0)));
    if (m.heads > 0 && m.hidden % m.heads != 0) f.problem("num_attention_heads", "the width must be a multiple of the heads");
}

// ---- vision --------------------------------------------------------------------------------------------------
// ViTForImageClassification (modeling_vit.py): patch conv with bias, CLS token, learned positions, pre-LN layers
// with query/key/value Linears, final LayerNorm, classifier on the CLS token (no pooler).
void read_vit(Fields& f, engine::ModelSpec& m) {
    m.family = engine::Family::kVit;
    m.is_vision = true;
    m.separate_qkv = true;
    m.hidden = f.integer("hidden_size", 1, 1 << 17);
    m.layers = f.integer("num_hidden_layers", 1, 1000);
    m.heads = f.integer("num_attention_heads", 1, 1024);
    m.ffn = f.integer("intermediate_size", 1, 1 << 20);
    m.image_size = f.optional("image_size", 224, 8, 8192);
    m.patch = f.optional("patch_size", 16, 1, 1024);
    m.default_image_size = m.image_size;
    m.classes = f.labels();
    if (f.optional("num_channels", 3, 1, 64) != 3) f.problem("num_channels", "only 3-channel (RGB) images are modelled");
    f.refuse_unless("qkv_bias", true, "'qkv_bias': false is not modelled");
    const bool clip = f.type == "clip_vision_model";
    if (clip) {
        // CLIPVisionConfig (patch 32 by default) / CLIPForImageClassification: patch conv without bias, pre_layrnorm,
        // q/k/v/out_proj, mlp.fc1/fc2 with quick_gelu, post_layernorm, classifier.
        if (!f.has("patch_size")) m.patch = 32;
        m.patch_bias = false;
        m.embed_norm = true;
        m.activation = f.activation("hidden_act", "quick_gelu");
        names(m, {{ParamRole::kQ, ".self_attn.q_proj"}, {ParamRole::kK, ".self_attn.k_proj"},
                  {ParamRole::kV, ".self_attn.v_proj"}, {ParamRole::kO, ".self_attn.out_proj"},
                  {ParamRole::kFc1, ".mlp.fc1"}, {ParamRole::kFc2, ".mlp.fc2"}, {ParamRole::kHead, "classifier"}});
        m.default_image_size = m.image_size;
        if (m.patch > 0 && m.image_size % m.patch != 0)
            f.problem("image_size", "'image_size' must be a multiple of 'patch_size'");
        if (m.heads > 0 && m.hidden % m.heads != 0)
            f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads'");
        return;
    }
    if (f.has("hidden_act") && f.text("hidden_act", "gelu") != "gelu")
        f.problem("hidden_act", "ViT's activation must be 'gelu' (got " + f.o.at("hidden_act").dump() + ")");
    if (m.patch > 0 && m.image_size % m.patch != 0) f.problem("image_size", "'image_size' must be a multiple of 'patch_size'");
    if (m.heads > 0 && m.hidden % m.heads != 0)
        f.problem("num_attention_heads", "'hidden_size' must be a multiple of 'num_attention_heads'");
    names(m, {{ParamRole::kO, ".attention.output.dense"}, {ParamRole::kFc1, ".intermediate.dense"},
              {ParamRole::kFc2, ".output.dense"}, {ParamRole::kHead, "classifier"}});
}

}  // namespace

// ---- dispatch ------------------------------------------------------------------------------------------------
bool parse_hf_config(const json& config, const std::string& file, const std::string& pointer, engine::ModelSpec& out,
                     std::vector<Problem>& problems) {
    const std::size_t before = problems.size();
    if (!config.is_object()) {
        problems.push_back({file, pointer, "'hf_config' must be the config.json object of a Hugging Face model"});
        return false;
    }
    const auto type_it = config.find("model_type");
    if (type_it == config.end() || !type_it->is_string()) {
        problems.push_back({file, pointer + "/model_type", "config.json needs 'model_type' (one of: " +
                                                               join(kHfModelTypes) + ")"});
        return false;
    }
    const std::string type = type_it->get<std::string>();
    if (std::find(kHfModelTypes.begin(), kHfModelTypes.end(), type) == kHfModelTypes.end()) {
        std::string hint;
        if (type == "gemma3")
            hint = " The multimodal Gemma 3 config holds the language model under 'text_config' (model_type "
                   "gemma3_text); its vision tower is not modelled.";
        if (type == "clip")
            hint = " A CLIP config holds two towers; paste its 'vision_config' with \"model_type\": "
                   "\"clip_vision_model\" to train the vision tower with a classifier.";
        problems.push_back({file, pointer + "/model_type", "model_type '" + type + "' is not modelled; known: " +
                                                               join(kHfModelTypes) + "." + hint});
        return false;
    }
    engine::ModelSpec m;
    m.id = "hf-config";
    Fields f{config, file, pointer, type, problems};
    // Its Hub name when the file keeps one (_name_or_path), else its class (architectures[0]), else its type.
    std::string name = f.text("_name_or_path", "");
    if (name.empty() && f.has("architectures") && config["architectures"].is_array() &&
        !config["architectures"].empty() && config["architectures"][0].is_string())
        name = config["architectures"][0].get<std::string>();
    m.name = (name.empty() ? type : name) + " (config.json)";
    m.source = "Hugging Face config.json (model_type " + type + ")";
    // The checkpoint's dtype: "dtype" (transformers v5 writes it) or "torch_dtype" (v4); other values ("auto") say
    // nothing about the file and are left out.
    for (const char* key : {"dtype", "torch_dtype"}) {
        const std::string dtype = f.text(key, "");
        if (dtype == "float16" || dtype == "bfloat16" || dtype == "float32") {
            m.checkpoint_dtype = dtype;
            break;
        }
    }
    if (type == "bert" || roberta_like(type) || type == "distilbert" || type == "albert") read_encoder(f, m);
    else if (type == "vit" || type == "clip_vision_model") read_vit(f, m);
    else read_decoder(f, m);
    if (problems.size() != before) return false;
    out = std::move(m);
    return true;
}

// ---- LoRA targets --------------------------------------------------------------------------------------------
namespace {

// The scenario format's short names, by role (scenario.h kLoraTargets).
ParamRole short_role(const std::string& t) {
    static const std::vector<std::pair<std::string, ParamRole>> map = {
        {"q", ParamRole::kQ},     {"k", ParamRole::kK},       {"v", ParamRole::kV},   {"o", ParamRole::kO},
        {"qkv", ParamRole::kQkv}, {"gate", ParamRole::kGate}, {"up", ParamRole::kUp}, {"down", ParamRole::kDown},
        {"fc1", ParamRole::kFc1}, {"fc2", ParamRole::kFc2}};
    for (const auto& [name, role] : map)
        if (name == t) return role;
    return ParamRole::kNone;
}

const char* short_name(ParamRole r) {
    switch (r) {
        case ParamRole::kQ: return "q";
        case ParamRole::kK: return "k";
        case ParamRole::kV: return "v";
        case ParamRole::kO: return "o";
        case ParamRole::kQkv: return "qkv";
        case ParamRole::kGate: return "gate";
        case ParamRole::kUp: return "up";
        case ParamRole::kDown: return "down";
        case ParamRole::kFc1: return "fc1";
        case ParamRole::kFc2: return "fc2";
        default: return nullptr;
    }
}

// PEFT's check_target_module_exists for a string: the whole module name, or its end after a dot.
bool peft_matches(const std::string& module, const std::string& target) {
    return module == target ||
           (module.size() > target.size() && module.compare(module.size() - target.size(), target.size(), target) == 0 &&
            module[module.size() - target.size() - 1] == '.');
}

}  // namespace

LoraTargets resolve_lora_targets(const engine::ModelSpec& model, const std::vector<std::string>& targets) {
    LoraTargets out;
    engine::WorkloadShape shape;
    shape.image_size = model.is_vision ? (model.family == engine::Family::kVit ? model.image_size : 32) : 0;
    shape.seq_len = model.is_vision ? 0 : 2;
    const engine::Graph g = engine::build_graph(model, shape, {});
    // The Linears LoRA can adapt (a tied lm_head has no weight of its own), in forward order.
    std::vector<const engine::Layer*> linears;
    for (const engine::Layer& l : g.layers)
        if (l.kind == engine::OpKind::kMatmul && l.in_features > 0 && l.params > 0) linears.push_back(&l);
    auto add_role = [&](ParamRole r) {
        if (std::find(out.roles.begin(), out.roles.end(), r) == out.roles.end()) out.roles.push_back(r);
    };
    for (const std::string& t : targets) {
        bool found = false;
        if (t == "all-linear") {  // PEFT: every Linear except the output layer (lm_head / classifier)
            for (const engine::Layer* l : linears)
                if (l->role != ParamRole::kHead) add_role(l->role), found = true;
        } else if (const ParamRole r = short_role(t); r != ParamRole::kNone) {
            for (const engine::Layer* l : linears)
                if (l->role == r) found = true;
            if (found) add_role(r);
        } else {
            for (const engine::Layer* l : linears)
                if (peft_matches(l->name, t)) add_role(l->role), found = true;
        }
        if (!found) out.unknown.push_back(t);
    }
    if (!out.unknown.empty()) {
        // What the model has: its modules' own names, then the short names of the roles they carry.
        std::vector<std::string> leaves, shorts;
        for (const engine::Layer* l : linears) {
            const std::size_t dot = l->name.rfind('.');
            const std::string leaf = dot == std::string::npos ? l->name : l->name.substr(dot + 1);
            if (std::find(leaves.begin(), leaves.end(), leaf) == leaves.end()) leaves.push_back(leaf);
            const char* s = short_name(l->role);
            if (s && std::find(shorts.begin(), shorts.end(), s) == shorts.end()) shorts.push_back(s);
        }
        out.available = leaves;
        for (const std::string& s : shorts)
            if (std::find(out.available.begin(), out.available.end(), s) == out.available.end()) out.available.push_back(s);
        out.available.push_back("all-linear");
    }
    return out;
}

std::vector<std::string> lora_module_names(const engine::ModelSpec& model, const std::vector<ParamRole>& roles) {
    engine::WorkloadShape shape;
    shape.image_size = model.is_vision ? (model.family == engine::Family::kVit ? model.image_size : 32) : 0;
    shape.seq_len = model.is_vision ? 0 : 2;
    const engine::Graph g = engine::build_graph(model, shape, {});
    const auto adapted = [&](ParamRole r) {
        if (roles.empty()) return r == ParamRole::kQ || r == ParamRole::kV || r == ParamRole::kQkv;
        return std::find(roles.begin(), roles.end(), r) != roles.end();
    };
    std::vector<std::string> out;
    for (const engine::Layer& l : g.layers) {
        if (l.kind != engine::OpKind::kMatmul || l.in_features <= 0 || l.params <= 0 || !adapted(l.role)) continue;
        const std::size_t dot = l.name.rfind('.');
        const std::string leaf = dot == std::string::npos ? l.name : l.name.substr(dot + 1);
        if (std::find(out.begin(), out.end(), leaf) == out.end()) out.push_back(leaf);
    }
    return out;
}

}  // namespace gg::catalog
