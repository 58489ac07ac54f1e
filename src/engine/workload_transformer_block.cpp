// The transformer block every transformer family is built from (ViT, encoders, decoders, Whisper, CLIP text):
// q/k/v projections, the attention core (eager or fused), the dense or gated MLP and mixtures of experts.
#include "engine/workload_detail.h"

namespace gg::engine::workload_detail {

namespace {

// The last part of a module path (".mlp.gate_proj" -> "gate_proj").
std::string leaf_name(const std::string& path) {
    const std::size_t dot = path.rfind('.');
    return dot == std::string::npos ? path : path.substr(dot + 1);
}

// NewGELUActivation ("gelu_new", transformers/activations.py): 0.5*x*(1+tanh(c*(x+0.044715*pow(x,3)))).
// pow saves its input, tanh its result, the last mul both operands (0.5*x and 1+tanh). pow is on autocast's fp32
// list, so under autocast pow saves an fp32 copy of x and the chain after it (tanh, 1+tanh) is fp32.
void save_gelu_new(Builder& B, Layer& g, std::int32_t x, double f) {
    B.save(g, B.tensor(f, R::kAutocastFp32, x), F::kInputGrad);  // pow's input (fp32 cast under autocast)
    B.save(g, B.tensor(f, R::kAutocastFp32), F::kInputGrad);     // tanh result
    B.save(g, B.tensor(f, R::kActivation), F::kInputGrad);       // 0.5 * x
    B.save(g, B.tensor(f, R::kAutocastFp32), F::kInputGrad);     // 1 + tanh
    g.bytes_moved_elements = 10 * f;
}

}  // namespace

// ---- transformers --------------------------------------------------------------------------------------------
std::string module_name(const ModelSpec& m, ParamRole role, const char* builder_name) {
    for (const auto& [r, name] : m.module_names)
        if (r == role) return name;
    return builder_name;
}


std::int32_t attention_core(Builder& B, const std::string& n, const AttnShape& a, std::int32_t q_src,
                            std::int32_t k_src, std::int32_t v_src, bool eager, double p_attn, SoftmaxStyle style) {
    const double qh = a.tokens * a.heads * a.head_dim;  // b s (heads d)
    const double scores = a.tokens * a.heads * a.seq;   // b heads s s
    Layer& l = B.layer(n + ".attn", eager ? OpKind::kMatmul : OpKind::kAttention);
    l.forward_flop = 2.0 * 2.0 * a.tokens * a.seq * a.heads * a.head_dim;  // QK^T and PV: 2 matmuls of s x s x d
    if (!eager) {
        B.save(l, q_src, F::kInputGrad);
        B.save(l, k_src, F::kInputGrad);
        B.save(l, v_src, F::kInputGrad);
        const std::int32_t out = B.tensor(qh, R::kActivation);
        B.save(l, out, F::kInputGrad);
        B.save(l, B.tensor(a.tokens * a.heads, R::kFp32), F::kInputGrad);  // logsumexp
        l.bytes_moved_elements = 4 * qh;
        return out;
    }
    l.bytes_moved_elements = 4 * qh + 4 * scores;
    // 4-D matmuls reshape permuted q, k^T, v into contiguous copies that bmm saves (HF models); torch 1.13's
    // F.multi_head_attention_forward saves a scaled copy of q and contiguous k, v: the same three sizes.
    B.save(l, B.tensor(qh, R::kMatmulInput), F::kInputGrad);  // q copy (torchvision 1.13: the scaled q)
    const double kvh = (a.kv_tokens > 0 ? a.kv_tokens : a.tokens) * a.heads * a.head_dim;
    B.save(l, B.tensor(kvh, R::kMatmulInput), F::kInputGrad);  // k^T copy
    // Soft-capping (modeling_gemma2.py Gemma2Attention: attn_weights / softcap, tanh, * softcap): the divisions by a
    // Python number save nothing, tanh saves its result, in the scores' dtype.
    if (a.softcap) B.save(l, B.tensor(scores, R::kActivation, -1, true), F::kInputGrad);
    const std::int32_t sm =
        B.tensor(scores, style == SoftmaxStyle::kFp32ThenCast ? R::kFp32 : R::kAutocastFp32, -1, true);
    B.save(l, sm, F::kInputGrad);
    std::int32_t probs = style == SoftmaxStyle::kPlain ? sm : B.tensor(scores, R::kActivation, sm, true);
    if (p_attn > 0) {
        B.save(l, B.tensor(scores, R::kMask1, -1, true), F::kInputGrad);
        probs = B.tensor(scores, style == SoftmaxStyle::kPlain ? R::kAutocastFp32 : R::kActivation, -1, true);
    }
    B.save(l, B.tensor(scores, R::kMatmulInput, probs, true), F::kInputGrad);
    B.save(l, B.tensor(kvh, R::kMatmulInput), F::kInputGrad);  // v copy
    return B.tensor(qh, R::kActivation);
}

// ---- the transformer block -----------------------------------------------------------------------------------
namespace {

// A SwiGLU MLP over `tokens` rows (x `experts` weight copies): gate and up (or Phi-3's fused gate_up), SiLU on the
// gate (saves its input), the product (saves both operands), down.
std::int32_t glu_mlp(Builder& B, const ModelSpec& m, const std::string& n, const std::string& gate_name,
                     const std::string& up_name, const std::string& down_name, const std::string& act_prefix,
                     std::int32_t y, double tokens, int h, int width, int experts) {
    std::int32_t g = -1, u = -1;
    B.tp_region = true;
    if (m.gate_up_fused) {
        g = u = B.linear(n + module_name(m, ParamRole::kGateUp, ".mlp.gate_up_proj"), y, tokens, h, 2 * width, false,
                         ParamRole::kGateUp, true, experts);  // gate and up are chunks (views) of it
    } else {
        g = B.linear(n + gate_name, y, tokens, h, width, false, ParamRole::kGate, true, experts);
        u = B.linear(n + up_name, y, tokens, h, width, false, ParamRole::kUp, true, experts);
    }
    {
        Layer& act = B.layer(n + act_prefix + ".act_fn", OpKind::kElementwise);  // silu saves its input
        B.save(act, g, F::kInputGrad);
        act.bytes_moved_elements = 2 * tokens * width;
    }
    // SiLU's output and the product h: Unsloth's LoRA_MLP keeps neither (it saves X, e, g and recomputes h).
    const std::int32_t sg = B.tensor(tokens * width, R::kActivation);
    B.g.tensors[sg].kept_by = TensorInfo::Kernels::kEagerOnly;
    {  // a Layer& is valid only until the next B.layer() call (the vector may grow)
        Layer& mul = B.layer(n + act_prefix + ".mul", OpKind::kElementwise);  // mul saves both operands
        B.save(mul, sg, F::kInputGrad);
        B.save(mul, u, F::kInputGrad);
        mul.bytes_moved_elements = 3 * tokens * width;
    }
    const std::int32_t prod = B.tensor(tokens * width, R::kActivation);
    B.g.tensors[prod].kept_by = TensorInfo::Kernels::kEagerOnly;
    B.tp_region = false;
    const std::int32_t out = B.linear(n + down_name, prod, tokens, width, h, false, ParamRole::kDown, true, experts);
    for (const SavedRef& r : B.g.layers.back().saved) B.g.tensors[r.tensor].kept_by = TensorInfo::Kernels::kEagerOnly;
    return out;
}

// The query, key and value tensors the attention core reads.
struct Qkv {
    std::int32_t q = -1, k = -1, v = -1;
};

// The projections from the normed stream `y` to q, k and v, as the block's layout says.
Qkv project_qkv(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n, std::int32_t y) {
    using P = BlockLayout::Projections;
    const double T = L.tokens;
    const int h = L.hidden, d = L.head_dim, dv = L.v_head_dim, kvh = L.kv_heads;
    std::int32_t q = -1, k = -1, v = -1;
    if (L.projections == P::kLatent) {
        // q: q_proj, or the low-rank q_a_proj -> RMSNorm -> q_b_proj; k and v: kv_a_proj_with_mqa to the latent
        // (kv_lora_rank) plus the shared rope key, RMSNorm on the latent, kv_b_proj to every head's k_nope and v.
        B.tp_region = false;
        if (m.q_lora_rank > 0) {
            q = B.linear(n + ".self_attn.q_a_proj", y, T, h, m.q_lora_rank, L.qv_bias, ParamRole::kQa);
            q = B.rms_norm(n + ".self_attn.q_a_layernorm", q, T, m.q_lora_rank);
            B.tp_region = true;
            q = B.linear(n + ".self_attn.q_b_proj", q, T, m.q_lora_rank, L.heads * d, false, ParamRole::kQb);
            B.tp_region = false;
        } else {
            B.tp_region = true;
            q = B.linear(n + ".self_attn.q_proj", y, T, h, L.heads * d, false, ParamRole::kQ);
            B.tp_region = false;
        }
        std::int32_t kv = B.linear(n + ".self_attn.kv_a_proj_with_mqa", y, T, h, m.kv_lora_rank + m.qk_rope_head_dim,
                                   L.qv_bias, ParamRole::kKvA);
        kv = B.rms_norm(n + ".self_attn.kv_a_layernorm", kv, T, m.kv_lora_rank);
        B.tp_region = true;
        k = v = B.linear(n + ".self_attn.kv_b_proj", kv, T, m.kv_lora_rank, L.heads * (m.qk_nope_head_dim + dv), false,
                         ParamRole::kKvB);
    } else if (L.projections == P::kFused || L.projections == P::kPacked) {
        const std::int32_t qkv = B.linear(n + L.qkv, y, T, h, L.heads * d + 2 * kvh * d, L.qv_bias, ParamRole::kQkv);
        // torch 2.x SDPA path: _in_projection_packed makes one contiguous 3h copy; q, k, v are views of it.
        // torch 1.13 eager path (measured): q (scaled), k and v are separate contiguous copies saved by the bmms.
        q = k = v = L.projections == P::kPacked ? B.tensor(T * 3 * h, R::kActivation, qkv) : qkv;
    } else {
        q = B.linear(n + L.q, y, T, h, L.heads * d, L.qv_bias, ParamRole::kQ);
        k = B.linear(n + L.k, y, T, h, kvh * d, L.k_bias, ParamRole::kK);
        v = B.linear(n + L.v, y, T, h, kvh * d, L.qv_bias, ParamRole::kV);
    }
    return {q, k, v};
}

// Rotary position embedding on q and k (and repeat_kv's copies of k and v for grouped-query attention).
void rotate_qk(Builder& B, const BlockLayout& L, const std::string& n, Qkv& a) {
    const double T = L.tokens;
    const int d = L.head_dim, kvh = L.kv_heads;
    const double qh = T * L.heads * d;
    // q*cos + rotate_half(q)*sin: the muls save cos and sin (b x s x d each; cos/sin do not need grad). Partial
    // rotary (modeling_gpt_neox.py, modeling_phi.py): the same on q[..., :rot] and k[..., :rot], so cos and sin
    // are b x s x rot; torch.cat((q_rot, q_pass)) then makes the new q and k (cat saves nothing).
    const int rot = L.rotary_dim > 0 && L.rotary_dim < d ? L.rotary_dim : d;
    Layer& r = B.layer(n + ".rotary", OpKind::kElementwise);
    // Unsloth's fast_rope_embedding rotates q and k in place and keeps only the model's shared cos/sin tables.
    for (int c = 0; c < 2; ++c) {
        const std::int32_t t = B.tensor(T * rot, R::kActivation);
        B.g.tensors[t].kept_by = TensorInfo::Kernels::kEagerOnly;
        B.save(r, t, F::kInputGrad);
    }
    r.bytes_moved_elements = 3 * T * (L.heads + kvh) * double(rot) + (rot < d ? 2 * (qh + T * kvh * d) : 0);
    a.q = B.tensor(qh, R::kActivation);
    a.k = B.tensor(T * kvh * d, R::kActivation);
    if (kvh != L.heads) {  // repeat_kv: expand + reshape copies K and V to every query head
        a.k = B.tensor(qh, R::kActivation);
        a.v = B.tensor(qh, R::kActivation);
    }
}

// Self-attention of block `i` on the normed stream `y`: projections, q/k norms, rotary, the core, the output
// projection (before the residual add).
std::int32_t self_attention(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n, int i,
                            std::int32_t y, bool eager) {
    const double T = L.tokens;
    const int h = L.hidden, d = L.head_dim, dv = L.v_head_dim, kvh = L.kv_heads;
    const bool tp = L.tensor_parallel;
    if (tp) B.tp_region = true;
    Qkv a = project_qkv(B, m, L, n, y);
    if (L.qk_norm) {  // Qwen3RMSNorm / Gemma3RMSNorm over head_dim, per head (modeling_qwen3.py q_norm, k_norm)
        a.q = B.rms_norm(n + ".self_attn.q_norm", a.q, T * L.heads, d);
        a.k = B.rms_norm(n + ".self_attn.k_norm", a.k, T * kvh, d);
    }
    if (L.rope) rotate_qk(B, L, n, a);
    // Sliding-window layers (Mistral, Phi-3, Qwen2 from max_window_layers on, Gemma 2's even and Gemma 3's local
    // layers): the flash-attn path passes window_size = (sliding_window, sliding_window) to flash_attn_func, whose
    // kernel computes only the scores inside the window (transformers modeling_flash_attention_utils.py
    // _flash_attention_forward; modeling_mistral.py MistralFlashAttention2): FLOPs over min(s, window) keys per query.
    // The eager path computes every score, q @ k^T over all keys, and applies the window as an additive mask
    // (modeling_mistral.py MistralAttention.forward: "attn_weights = attn_weights + causal_mask"; modeling_gemma2.py
    // Gemma2Attention: the sliding mask is torch.tril(..., diagonal=-sliding_window) folded into attention_mask), so
    // its scores, softmax and FLOPs stay s x s.
    const bool slides = m.sliding_window > 0 &&
                        (m.sliding_layers.empty() || (std::size_t(i) < m.sliding_layers.size() && m.sliding_layers[i] != 0));
    const int keys = slides && !eager ? std::min(L.seq, m.sliding_window) : L.seq;
    AttnShape shape{T, L.heads, d, keys};
    shape.softcap = m.attn_logit_softcapping > 0;
    const std::int32_t core = attention_core(B, n + L.attn, shape, a.q, a.k, a.v, eager, L.dropout, L.softmax);
    // the heads back to rows: transpose(1, 2).contiguous() (HF) or the output of the fused path
    const std::int32_t heads = B.tensor(T * L.heads * dv, R::kActivation, L.context_from_core ? core : -1);
    if (tp) B.tp_region = false;
    return B.linear(n + L.o, heads, T, L.heads * dv, h, L.o_bias, ParamRole::kO);
}

// Cross-attention (WhisperDecoderLayer.encoder_attn): q from the decoder, k and v from the encoder output (S rows per
// sample), pre-LN; returns the output projection (before the residual add).
std::int32_t cross_attention(Builder& B, const BlockLayout& L, const std::string& n, std::int32_t x, bool eager) {
    const double T = L.tokens;
    const int h = L.hidden, d = L.head_dim;
    const double TE = L.encoder_tokens;
    const std::int32_t y = B.layer_norm(n + ".encoder_attn_layer_norm", x, T, h);
    B.tp_region = true;
    const std::int32_t q = B.linear(n + ".encoder_attn.q_proj", y, T, h, L.heads * d, L.qv_bias, ParamRole::kQ);
    const std::int32_t k =
        B.linear(n + ".encoder_attn.k_proj", L.encoder_out, TE, h, L.heads * d, L.k_bias, ParamRole::kK);
    const std::int32_t v =
        B.linear(n + ".encoder_attn.v_proj", L.encoder_out, TE, h, L.heads * d, L.qv_bias, ParamRole::kV);
    AttnShape cross{T, L.heads, d, L.encoder_seq};
    cross.kv_tokens = TE;
    attention_core(B, n + ".encoder_attn", cross, q, k, v, eager, L.dropout, SoftmaxStyle::kPlain);
    const std::int32_t c = B.tensor(T * L.heads * d, R::kActivation);
    B.tp_region = false;
    return B.linear(n + ".encoder_attn.out_proj", c, T, L.heads * d, h, L.o_bias, ParamRole::kO);
}

// MixtralSparseMoeBlock's router: router logits (b s E), softmax in fp32, top-k; each token runs K experts. Returns the
// gathered rows the experts read (T x K of them).
std::int32_t route_to_experts(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n,
                              std::int32_t y, int E, int K) {
    const double T = L.tokens;
    const int h = L.hidden;
    const double TK = T * K;  // token-expert pairs
    B.linear(n + L.router, y, T, h, E, m.router_bias, ParamRole::kRouter);
    Layer& r = B.layer(n + ".block_sparse_moe.routing", OpKind::kReduction);
    B.save(r, B.tensor(T * E, R::kFp32), F::kInputGrad);
    B.save(r, B.tensor(T * K, R::kInt64), F::kInputGrad);
    if (m.moe_renormalize) {  // weights /= weights.sum(-1, keepdim=True): div keeps both (b s K and b s)
        B.save(r, B.tensor(TK, R::kFp32), F::kInputGrad);
        B.save(r, B.tensor(T, R::kFp32), F::kInputGrad);
    }
    // The eager loop over the experts (modeling_mixtral.py, modeling_qwen2_moe.py, modeling_qwen3_moe.py,
    // modeling_deepseek_v3.py all share it): hidden_states[top_x] gathers each expert's rows into a new
    // tensor (IndexBackward keeps only the int64 indices), which the expert's Linears keep.
    Layer& g = B.layer(n + ".experts.gather", OpKind::kElementwise);
    B.save(g, B.tensor(TK, R::kInt64), F::kInputGrad);
    g.bytes_moved_elements = 2 * TK * h;
    return B.tensor(TK * h, R::kAutocastFp32);  // the rows of the norm's output, in its dtype
}

// The experts' outputs `y` (T x K rows) weighted by the router and summed back into T rows.
std::int32_t combine_experts(Builder& B, const BlockLayout& L, const std::string& n, std::int32_t y, int K) {
    const double T = L.tokens;
    const int h = L.hidden;
    const double TK = T * K;
    // expert(rows) * routing_weights[top_x, idx, None]: mul keeps both operands (the weights cast to the
    // hidden dtype: fp32 under autocast, so the product is fp32 too); out.index_add_(0, top_x, product)
    // keeps its source (derivatives.yaml index_add: grad.index_select(dim, index).expand_as(source)).
    // Measured: tests/validation/families (Mixtral, Qwen2-MoE, Qwen3-MoE cases).
    Layer& w = B.layer(n + ".experts.routing_weight_mul", OpKind::kElementwise);
    B.save(w, y, F::kInputGrad);
    B.save(w, B.tensor(TK, R::kAutocastFp32), F::kInputGrad);
    w.bytes_moved_elements = 3 * TK * h;
    const std::int32_t weighted = B.tensor(TK * h, R::kAutocastFp32);
    Layer& a = B.layer(n + ".experts.index_add", OpKind::kElementwise);
    B.save(a, weighted, F::kInputGrad);
    a.bytes_moved_elements = 3 * TK * h;
    return B.tensor(T * h, R::kAutocastFp32);
}

// Shared experts: one dense SwiGLU MLP every token runs besides its routed ones (DeepSeekMoE, Dai et al. 2024,
// sec. 3.2; Qwen2-MoE shared_expert, scaled by sigmoid(shared_expert_gate(x))). Returns the routed output `y` plus it.
std::int32_t add_shared_expert(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n,
                               std::int32_t mlp_in, std::int32_t y) {
    const double T = L.tokens;
    const int h = L.hidden;
    const std::string p = m.shared_expert_prefix;
    const std::int32_t s = glu_mlp(B, m, n, p + "." + leaf_name(L.gate), p + "." + leaf_name(L.up),
                                   p + "." + leaf_name(L.down), p, mlp_in, T, h, m.shared_expert_ffn, 1);
    if (m.shared_expert_gate) {
        B.linear(n + ".mlp.shared_expert_gate", mlp_in, T, h, 1, false, ParamRole::kOther);
        Layer& sig = B.layer(n + ".mlp.shared_expert_gate.sigmoid", OpKind::kElementwise);
        B.save(sig, B.tensor(T, R::kActivation), F::kInputGrad);  // sigmoid saves its result
        Layer& mul = B.layer(n + ".mlp.shared_expert.mul", OpKind::kElementwise);
        B.save(mul, s, F::kInputGrad);
        mul.bytes_moved_elements = 3 * T * h;
    }
    return B.add(y, T * h, R::kActivation);
}

// The gated (SwiGLU) MLP of block `i`: dense, or a mixture of experts (routed, with shared experts where the model has
// them) on MoE layers.
std::int32_t gated_mlp(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n, int i,
                       std::int32_t y) {
    const bool moe = m.experts > 1 && i >= m.first_dense_layers && (i + 1) % std::max(1, m.moe_layer_step) == 0;
    const int E = moe ? std::max(1, m.experts) : 1, K = moe ? m.top_k : 1;
    const int width = moe && m.moe_ffn > 0 ? m.moe_ffn : L.ffn;
    const std::int32_t mlp_in = y;
    const double TK = L.tokens * K;  // token-expert pairs
    const std::int32_t expert_in = E > 1 ? route_to_experts(B, m, L, n, y, E, K) : y;
    y = glu_mlp(B, m, n, L.gate, L.up, L.down, ".mlp", expert_in, TK, L.hidden, width, E);
    if (E > 1) y = combine_experts(B, L, n, y, K);
    if (moe && m.shared_expert_ffn > 0) y = add_shared_expert(B, m, L, n, mlp_in, y);
    return y;
}

// The plain MLP: fc1, the activation, fc2.
std::int32_t dense_mlp(Builder& B, const BlockLayout& L, const std::string& n, std::int32_t y) {
    const double T = L.tokens;
    const int h = L.hidden;
    const bool tp = L.tensor_parallel;
    if (tp) B.tp_region = true;
    y = B.linear(n + L.fc1, y, T, h, L.ffn, L.mlp_bias, ParamRole::kFc1);
    const double f = T * L.ffn;
    // ReLU saves its result (derivatives.yaml relu: threshold_backward(grad, result, 0)), the tensor fc2 keeps
    // too: one storage.
    const std::int32_t act = B.tensor(f, R::kActivation);
    Layer& g = B.layer(n + L.act, OpKind::kElementwise);
    // NewGELUActivation saves four tensors of the FFN width (save_gelu_new); GELU and quick_gelu their input.
    if (L.activation == Activation::kGeluTanhPython) save_gelu_new(B, g, y, f);
    else if (L.activation == Activation::kRelu) B.save(g, act, F::kInputGrad);
    else B.save(g, y, F::kInputGrad);
    // quick_gelu (activations.py QuickGELUActivation, x * torch.sigmoid(1.702 * x)): sigmoid keeps its output
    // and the mul its two operands, so one more tensor of the FFN width than GELU (CLIP case, families file).
    if (L.activation == Activation::kQuickGelu) B.save(g, B.tensor(f, R::kActivation), F::kInputGrad);
    g.bytes_moved_elements = (L.activation == Activation::kGeluTanhPython ? 10
                              : L.activation == Activation::kQuickGelu   ? 5
                                                                           : 2) * f;
    if (tp) B.tp_region = false;
    return B.linear(n + L.fc2, act, T, L.ffn, h, L.mlp_bias, ParamRole::kFc2);
}

}  // namespace

// Block `i` at module path `n` on the residual stream `x`; returns the stream after it.
std::int32_t transformer_block(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n, int i,
                               std::int32_t x, bool eager) {
    const double T = L.tokens;
    const int h = L.hidden;
    auto norm = [&](const std::string& name, std::int32_t t, double rows, int width) {
        return L.rms ? B.rms_norm(name, t, rows, width) : B.layer_norm(name, t, rows, width);
    };
    const std::int32_t block_in = x;
    std::int32_t y = L.post_norm ? x : norm(n + L.ln1, x, T, h);
    const std::int32_t attn_in = y;
    y = self_attention(B, m, L, n, i, y, eager);
    if (L.sandwich_norm) y = B.rms_norm(n + L.post_attn_norm, y, T, h);
    const double p_residual = L.residual_dropout < 0 ? L.dropout : L.residual_dropout;
    if (!L.attn_dropout.empty()) y = B.dropout(n + L.attn_dropout, y, T * h, p_residual, R::kActivation);
    if (L.post_norm) {
        x = B.layer_norm(n + L.ln1, B.add(x, T * h), T, h);
        y = x;
    } else if (L.parallel_residual) {
        // The MLP reads the block input, not the attention's sum: the same LayerNorm output (Falcon-7B) or its
        // own LayerNorm of the block input (GPT-NeoX post_attention_layernorm, Falcon's ln_mlp).
        y = L.parallel_shared_norm ? attn_in : norm(n + L.ln2, block_in, T, h);
    } else {
        x = B.add(x, T * h);
        if (L.encoder_out >= 0) {
            cross_attention(B, L, n, x, eager);
            x = B.add(x, T * h);
        }
        y = L.sandwich_norm ? B.rms_norm(n + L.pre_mlp_norm, x, T, h) : norm(n + L.ln2, x, T, h);
    }
    y = L.glu ? gated_mlp(B, m, L, n, i, y) : dense_mlp(B, L, n, y);
    if (L.sandwich_norm) y = B.rms_norm(n + L.post_mlp_norm, y, T, h);
    if (!L.mlp_dropout.empty()) y = B.dropout(n + L.mlp_dropout, y, T * h, p_residual, R::kActivation);
    if (L.post_norm) return B.layer_norm(n + L.ln2, B.add(x, T * h), T, h);
    if (L.parallel_residual) x = B.add(x, T * h);  // attention + MLP, then + the block input
    return B.add(x, T * h);
}

}  // namespace gg::engine::workload_detail
