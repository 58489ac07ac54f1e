// Internal to the layer-graph builders (workload*.cpp): the Builder (tensors and generic ops), the attention core
// and transformer block shared by the families, and the family builders that build_graph dispatches. Not part of
// the engine's API (workload.h is); no JSON or UI code.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/workload.h"

namespace gg::engine::workload_detail {

using R = DtypeRule;
using F = SavedFor;

// ---- Builder -----------------------------------------------------------------------------------------------
// Element counts are for the graph's batch (`b`). Spatial tensors are C x H x W per sample.
struct Builder {
    Graph g;
    double b = 1;
    std::int32_t block = -1;
    // Inside a tensor-parallel region (Shoeybi et al. 2019, Megatron-LM, sec. 3, Fig. 3): from the column-parallel
    // Linear's output (QKV, FC1/gate/up) to the row-parallel Linear's input (output projection, FC2/down), every
    // tensor holds 1/t of the heads or of the FFN width. Copies inherit their source's split.
    bool tp_region = false;

    // A saved reference to `x` that only Unsloth's fused kernels keep (TensorInfo::kept_by): an alias of x's storage.
    std::int32_t fused_only(std::int32_t x) {
        const std::int32_t t = tensor(g.tensors[x].elements, g.tensors[x].rule, x);
        g.tensors[t].kept_by = TensorInfo::Kernels::kFusedOnly;
        return t;
    }
    std::int32_t tensor(double elements, R rule, std::int32_t source = -1, bool attention_core = false) {
        TensorInfo t;
        t.elements = elements;
        t.rule = rule;
        t.source = source;
        t.attention_core = attention_core;
        t.tp_split = source >= 0 ? g.tensors[source].tp_split : tp_region;
        g.tensors.push_back(t);
        return static_cast<std::int32_t>(g.tensors.size() - 1);
    }
    // The returned reference is valid only until the next layer() call (the vector may reallocate).
    Layer& layer(const std::string& name, OpKind kind) {
        Layer l;
        l.name = name;
        l.kind = kind;
        l.block = block;
        l.tp_split = tp_region;
        g.layers.push_back(std::move(l));
        return g.layers.back();
    }
    static void save(Layer& l, std::int32_t t, F why) {
        assert(t >= 0 && "Builder::save: saving a tensor that was never created; pass the producing op's output id");
        l.saved.push_back({t, why});
    }
    void begin_block(std::int32_t index, std::int32_t input) {
        block = index;
        if (g.block_inputs.size() <= std::size_t(index)) g.block_inputs.resize(index + 1, -1);
        if (g.block_inputs[index] < 0) g.block_inputs[index] = input;
    }
    void note_param_tensor(double elements) { g.largest_param_tensor = std::max(g.largest_param_tensor, elements); }

    // Conv2d (torch/nn/modules/conv.py -> aten convolution): backward needs the input for the weight gradient
    // (derivatives.yaml convolution_backward: input saved, weight saved). Under autocast the input is cast to
    // the compute dtype first (a new tensor unless it already is).
    struct Spatial { std::int32_t t; int c, h, w; };
    Spatial conv(const std::string& name, Spatial x, int cout, int k, int stride, int pad, int groups, bool bias,
                 ParamRole role = ParamRole::kConv) {
        const int ho = (x.h + 2 * pad - k) / stride + 1, wo = (x.w + 2 * pad - k) / stride + 1;
        Layer& l = layer(name, OpKind::kMatmul);
        const double w_el = double(cout) * (x.c / groups) * k * k;
        l.params = w_el + (bias ? cout : 0);
        l.matmul_weight_params = w_el;
        l.param_matrices = 1, l.param_vectors = bias ? 1 : 0;
        l.role = role;
        note_param_tensor(w_el);
        // FLOPs: 2 per multiply-add, (cin/groups) k^2 MACs per output element (standard conv cost).
        l.forward_flop = 2.0 * b * double(cout) * ho * wo * (double(x.c) / groups) * k * k;
        save(l, tensor(b * x.c * x.h * x.w, R::kMatmulInput, x.t), F::kWeightGrad);
        const std::int32_t out = tensor(b * double(cout) * ho * wo, R::kActivation);
        l.bytes_moved_elements = b * (double(x.c) * x.h * x.w + double(cout) * ho * wo);
        l.conv_groups = groups, l.conv_kernel = k, l.conv_stride = stride;
        l.conv_in_channels = x.c, l.conv_in_width = x.w;
        return {out, cout, ho, wo};
    }
    // ConvTranspose2d (UNet up path): same saved input as conv.
    Spatial conv_transpose2(const std::string& name, Spatial x, int cout) {
        Layer& l = layer(name, OpKind::kMatmul);
        const double w_el = double(x.c) * cout * 4;
        l.params = w_el + cout;
        l.matmul_weight_params = w_el;
        l.param_matrices = 1, l.param_vectors = 1;
        l.role = ParamRole::kConv;
        note_param_tensor(w_el);
        l.forward_flop = 2.0 * b * double(x.c) * cout * 4 * x.h * x.w;
        save(l, tensor(b * x.c * x.h * x.w, R::kMatmulInput, x.t), F::kWeightGrad);
        return {tensor(b * double(cout) * x.h * 2 * x.w * 2, R::kActivation), cout, x.h * 2, x.w * 2};
    }
    // BatchNorm2d in training: native_batch_norm saves input, save_mean, save_invstd (fp32, C each)
    // (aten/src/ATen/native/Normalization.cpp; derivatives.yaml native_batch_norm). Output: a new tensor.
    Spatial bn(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kNorm);
        l.params = 2.0 * x.c;
        l.param_vectors = 2;
        l.role = ParamRole::kNorm;
        save(l, x.t, F::kAny);
        save(l, tensor(2.0 * x.c, R::kFp32), F::kAny);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return {tensor(b * double(x.c) * x.h * x.w, R::kActivation), x.c, x.h, x.w};
    }
    // ReLU / ReLU6 (hardtanh) in place: backward uses the result (threshold_backward(grad, result)); the
    // storage is the input's, so the output keeps the input's tensor id.
    Spatial relu_inplace(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, x.t, F::kInputGrad);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return x;
    }
    // ReLU6 in place (torchvision mobilenet_v2: nn.ReLU6(inplace=True) -> hardtanh_): its backward needs the
    // input, so autograd keeps a copy of the original input besides the modified storage (measured: torch 1.13,
    // tests/validation/measured_saved_activations.json). The output keeps the input's tensor id.
    Spatial relu6_inplace(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, tensor(b * double(x.c) * x.h * x.w, R::kActivation), F::kInputGrad);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return x;
    }
    // SiLU (in place or not): silu_backward(grad, self) needs the input; in place, autograd saves a clone of
    // the original input, so either way one more tensor of the input's size is kept and the output is new.
    Spatial silu(const std::string& name, Spatial x) {
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, x.t, F::kInputGrad);
        l.bytes_moved_elements = 2 * b * double(x.c) * x.h * x.w;
        return {tensor(b * double(x.c) * x.h * x.w, R::kActivation), x.c, x.h, x.w};
    }
    // MaxPool2d: max_pool2d_with_indices saves input and int64 indices of the output's size.
    Spatial maxpool(const std::string& name, Spatial x, int k, int stride, int pad) {
        const int ho = (x.h + 2 * pad - k) / stride + 1, wo = (x.w + 2 * pad - k) / stride + 1;
        Layer& l = layer(name, OpKind::kReduction);
        save(l, x.t, F::kInputGrad);
        const double out_el = b * double(x.c) * ho * wo;
        save(l, tensor(out_el, R::kInt64), F::kInputGrad);
        l.bytes_moved_elements = b * double(x.c) * x.h * x.w + out_el;
        return {tensor(out_el, R::kActivation), x.c, ho, wo};
    }
    // adaptive_avg_pool2d: _adaptive_avg_pool2d_backward(grad, self) keeps the input.
    Spatial avgpool(const std::string& name, Spatial x, int out_hw) {
        Layer& l = layer(name, OpKind::kReduction);
        save(l, x.t, F::kInputGrad);
        l.bytes_moved_elements = b * double(x.c) * x.h * x.w;
        return {tensor(b * double(x.c) * out_hw * out_hw, R::kActivation), x.c, out_hw, out_hw};
    }
    // Linear (addmm/mm): the input is needed for the weight gradient (mm_mat2_backward(grad, self)).
    std::int32_t linear(const std::string& name, std::int32_t x, double tokens, int in, int out, bool bias,
                        ParamRole role, bool backbone = true, int experts = 1) {
        Layer& l = layer(name, OpKind::kMatmul);
        const double w_el = double(in) * out;
        l.params = (w_el + (bias ? out : 0)) * experts;
        l.matmul_weight_params = w_el * experts;
        l.param_matrices = experts, l.param_vectors = bias ? experts : 0;
        l.in_features = in;
        l.out_features = out;
        l.tokens = tokens;
        l.role = role;
        l.backbone = backbone;
        l.experts = experts;
        // Column-parallel (QKV, FC1, gate, up) and row-parallel (output projection, FC2, down) Linears split
        // their weight across tensor-parallel ranks (Megatron-LM sec. 3); routers and task heads are replicated.
        l.tp_split = is_column_parallel(role) || is_row_parallel(role);
        note_param_tensor(w_el);
        l.forward_flop = 2.0 * tokens * in * out;  // 2 FLOP per multiply-add (Kaplan et al. 2020, sec. 2.1)
        save(l, tensor(tokens * in, R::kMatmulInput, x), F::kWeightGrad);
        l.bytes_moved_elements = tokens * (in + out);
        return tensor(tokens * out, R::kActivation);
    }
    // Dropout (CUDA native_dropout): keeps a 1-byte mask; output is a new tensor. p == 0: identity.
    std::int32_t dropout(const std::string& name, std::int32_t x, double elements, double p, R out_rule,
                         bool attention_core = false) {
        if (p <= 0) return x;
        Layer& l = layer(name, OpKind::kElementwise);
        save(l, tensor(elements, R::kMask1, -1, attention_core), F::kInputGrad);
        l.bytes_moved_elements = 2 * elements;
        return tensor(elements, out_rule, -1, attention_core);
    }
    // LayerNorm (native_layer_norm saves input, mean, rstd: fp32 stats of b x s). On autocast's fp32 list: the
    // saved input is an fp32 cast under autocast, the output fp32.
    std::int32_t layer_norm(const std::string& name, std::int32_t x, double tokens, int h, bool bias = true) {
        Layer& l = layer(name, OpKind::kNorm);
        l.params = bias ? 2.0 * h : h;
        l.param_vectors = bias ? 2 : 1;
        l.role = ParamRole::kNorm;
        save(l, tensor(tokens * h, R::kAutocastFp32, x), F::kAny);
        save(l, tensor(2 * tokens, R::kFp32), F::kAny);
        l.bytes_moved_elements = 2 * tokens * h;
        return tensor(tokens * h, R::kAutocastFp32);
    }
    // LlamaRMSNorm (transformers v4.39 modeling_llama.py): x.to(fp32); pow(2) and x*rsqrt save x_fp32; rsqrt
    // saves its result (b x s fp32); weight * n.to(dtype) saves n (cast back to the input dtype) for the weight
    // gradient. Output in the input dtype (fp32 residual stream under autocast).
    std::int32_t rms_norm(const std::string& name, std::int32_t x, double tokens, int h) {
        Layer& l = layer(name, OpKind::kNorm);
        l.params = h;
        l.param_vectors = 1;
        l.role = ParamRole::kNorm;
        const std::int32_t xf = tensor(tokens * h, R::kFp32, x);
        g.tensors[xf].kept_by = TensorInfo::Kernels::kEagerOnly;
        save(l, xf, F::kAny);
        // Unsloth's Fast_RMS_Layernorm keeps X itself (ctx.save_for_backward(X, W, r)), in its own dtype.
        save(l, fused_only(x), F::kAny);
        save(l, tensor(tokens, R::kFp32), F::kAny);
        const std::int32_t n = tensor(tokens * h, R::kFp32);
        const std::int32_t n_dt = tensor(tokens * h, R::kAutocastFp32, n);
        save(l, n_dt, F::kWeightGrad);
        l.bytes_moved_elements = 2 * tokens * h;
        return tensor(tokens * h, R::kAutocastFp32);
    }
    // Residual add: add saves nothing; result in the residual dtype (fp32 under autocast by type promotion).
    std::int32_t add(std::int32_t, double elements, R rule = R::kAutocastFp32) {
        Layer& l = layer("add", OpKind::kElementwise);
        l.bytes_moved_elements = 3 * elements;
        return tensor(elements, rule);
    }
    void head_loss(double logits_elements) { g.logits_elements = logits_elements; }
};

using Spatial = Builder::Spatial;

inline std::string idx(const std::string& prefix, int i) { return prefix + "." + std::to_string(i); }

// ---- shared ops (workload_cnn.cpp, workload_transformer.cpp) -------------------------------------------------
// Classifier head: [dropout] + Linear + cross-entropy (log_softmax saves its b x classes output, nll the target).
void classifier(Builder& B, std::int32_t x, int in, int classes, double p_dropout, const std::string& name = "fc");
// Embedding lookup: embedding_backward needs the indices (int64).
std::int32_t embedding(Builder& B, const std::string& n, double tokens, int rows, int dim, std::int32_t ids);

// ---- attention and the transformer block (workload_transformer_block.cpp) ---------------------------------------
// The module name of a role: the model's own (ModelSpec::module_names, from a Hugging Face config) or the builder's.
std::string module_name(const ModelSpec& m, ParamRole role, const char* builder_name);

// Eager attention core after the projections, given the q/k/v storages. Mirrors, per model:
//   scores = matmul(q, k^T): 4-D matmul reshapes the permuted q and k^T into contiguous copies that bmm saves
//   softmax saves its output (fp32 under autocast; Llama asks for dtype=float32 explicitly: fp32 always)
//   [.to(dtype) copy] [dropout: 1-byte mask + output] ; matmul(probs, v) saves probs and a copy of v
// SDPA (memory-efficient / flash): saves q, k, v, the output and an fp32 logsumexp of b x heads x s
// (aten/src/ATen/native/transformers/attention.cpp, _scaled_dot_product_efficient_attention).
struct AttnShape {
    double tokens;         // query rows (b x s)
    int heads, head_dim;
    int seq;               // key length per query
    double kv_tokens = 0;  // key/value rows (b x kv length); 0 = self-attention (= tokens)
    bool softcap = false;  // Gemma 2: scores = cap * tanh(scores / cap) before the mask (eager only)
};
// Softmax styles: kPlain = F.softmax(scores) (BERT, torchvision); kTyped = F.softmax(w).type(v.dtype) (GPT-2);
// kFp32ThenCast = F.softmax(w, dtype=float32).to(q.dtype) (Llama family).
enum class SoftmaxStyle { kPlain, kTyped, kFp32ThenCast };
std::int32_t attention_core(Builder& B, const std::string& n, const AttnShape& a, std::int32_t q_src,
                            std::int32_t k_src, std::int32_t v_src, bool eager, double p_attn, SoftmaxStyle style);

// ---- the transformer block -----------------------------------------------------------------------------------
// One builder for every transformer block: torchvision's and Hugging Face's ViT, BERT-style encoders (post-LN),
// decoders (GPT-2, the Llama family and the config.json variants), Whisper's audio encoder and CLIP's text encoder.
// What differs between them is data (BlockLayout): where the norms sit, how q, k and v are projected, the softmax's
// dtype, dropout, the MLP, and the modules' names. Decoder-only parts (multi-head latent attention, mixtures of
// experts, a fused gate_up_proj) read their sizes from the ModelSpec, whose defaults leave them off.
struct BlockLayout {
    double tokens = 0;  // rows (b x s)
    int hidden = 0, heads = 0, kv_heads = 0, head_dim = 0, v_head_dim = 0, seq = 0, ffn = 0;
    bool post_norm = false;  // BERT: x = LN(x + sublayer(x)); else pre-LN: x = x + sublayer(LN(x))
    bool rms = false;        // RMSNorm (Llama family) instead of LayerNorm
    // kSeparate: q, k, v Linears; kFused: one Linear, q, k, v views of it (GPT-2 c_attn, Phi-3, GPT-NeoX); kPacked:
    // torchvision's in_proj, whose eager path copies q, k, v out of it; kLatent: MLA (DeepSeek-V2 sec. 2.1.2).
    enum class Projections { kSeparate, kFused, kPacked, kLatent } projections = Projections::kSeparate;
    bool qv_bias = true, k_bias = true, o_bias = true, mlp_bias = true;
    bool rope = false, qk_norm = false, sandwich_norm = false, parallel_residual = false, parallel_shared_norm = false;
    bool glu = false;
    Activation activation = Activation::kGelu;
    SoftmaxStyle softmax = SoftmaxStyle::kPlain;
    double dropout = 0;            // attention probabilities and, where named, the residual branches
    double residual_dropout = -1;  // the residual branches' own probability (Phi's resid_pdrop); < 0: dropout
    int rotary_dim = 0;            // rope on the first rotary_dim of each head (GPT-NeoX, Phi); 0: all of it
    bool tensor_parallel = true;   // false: a frozen tower that Megatron-style splitting does not cover (CLIP text)
    bool context_from_core = false;  // the output projection's input is recorded as a copy of the attention output
    // Cross-attention over an encoder's output (Whisper's decoder): its tensor (-1 = none), rows and length.
    std::int32_t encoder_out = -1;
    double encoder_tokens = 0;
    int encoder_seq = 0;
    // Module names below the block's path; an empty dropout name: that residual branch has no dropout.
    std::string ln1, ln2, q, k, v, qkv, attn, o, attn_dropout, fc1, act, fc2, mlp_dropout, gate, up, down, router;
    std::string post_attn_norm, pre_mlp_norm, post_mlp_norm;  // sandwich norms (Gemma 2/3); parallel: ln2 of the input
};

// Block `i` at module path `n` on the residual stream `x`; returns the stream after it.
std::int32_t transformer_block(Builder& B, const ModelSpec& m, const BlockLayout& L, const std::string& n, int i,
                               std::int32_t x, bool eager);

// ---- the family builders: one graph per ModelSpec family (dispatched by build_graph in workload.cpp) -------------
// workload_cnn.cpp
void build_resnet(Builder& B, const ModelSpec& m, int image);
void build_wide_resnet(Builder& B, const ModelSpec& m, int image);
void build_vgg16(Builder& B, const ModelSpec& m, int image);
void build_mobilenet_v2(Builder& B, const ModelSpec& m, int image);
void build_efficientnet_b0(Builder& B, const ModelSpec& m, int image);
void build_unet(Builder& B, const ModelSpec& m, int image);
// workload_yolo.cpp
void build_yolov5(Builder& B, const ModelSpec& m, int image);
void build_yolov8(Builder& B, const ModelSpec& m, int image);
// workload_transformer.cpp
void build_vit(Builder& B, const ModelSpec& m, int image, bool eager);
void build_encoder(Builder& B, const ModelSpec& m, int seq, bool eager);
void build_decoder(Builder& B, const ModelSpec& m, int seq, bool eager);
// workload_diffusion.cpp: the Stable Diffusion U-Net and its frozen input encoders (VAE, CLIP text)
void build_sd_unet(Builder& B, const ModelSpec& m, int image, bool eager);
void build_vae_encoder(Builder& B, const ModelSpec& m, int image, bool eager);
void build_vae_decoder(Builder& B, const ModelSpec& m, int latent, bool eager);
void build_clip_text(Builder& B, const std::string& p, const ModelSpec::TextEncoder& t, bool eager);
// workload_rnn.cpp
void build_bilstm_crf(Builder& B, const ModelSpec& m, int seq);

}  // namespace gg::engine::workload_detail
