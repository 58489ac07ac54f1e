// The time model's preparation (time.h prepare_time): FLOPs per pass, per-layer roofline entries, the optimizer
// step's bytes and kernels, and the bytes each collective moves, from the layer graph, once per configuration
// (evaluate_time scales them by batch and card). docs/time-model.md explains every formula id. No JSON, no UI.
#include "engine/time.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <memory>
#include <tuple>


namespace gg::engine {

// ---- prepare -----------------------------------------------------------------------------------------------
namespace {

bool is_quantized(Precision p) { return p == Precision::kInt8 || p == Precision::kNf4; }
double compute_bytes(Precision p) { return (p == Precision::kFp32 || p == Precision::kTf32) ? 4.0 : 2.0; }

// Same rule as memory_terms.cpp's (PEFT's default targets are q and v; GPT-2's fused c_attn).
bool is_lora_target(const Layer& l, const TrainingConfig& c) {
    if (c.method != Method::kLora && c.method != Method::kQlora) return false;
    if (l.in_features <= 0 || l.kind != OpKind::kMatmul || l.params <= 0) return false;
    if (c.lora.targets.empty())
        return l.role == ParamRole::kQ || l.role == ParamRole::kV || l.role == ParamRole::kQkv;
    return std::find(c.lora.targets.begin(), c.lora.targets.end(), l.role) != c.lora.targets.end();
}

// Small kernels a for-loop optimizer step launches per parameter tensor, counted in the single-tensor code paths:
//  sgd 1 (param.add_); sgd-momentum 3 (buf.mul_().add_(), param.add_): torch/optim/sgd.py _single_tensor_sgd;
//  adam 8 (exp_avg.mul_().add_(), exp_avg_sq.mul_().addcmul_(), (exp_avg_sq.sqrt() / c).add_(eps), param.addcdiv_),
//  adamw 9 (adam's + param.mul_(1 - lr * wd)): torch/optim/adam.py, adamw.py _single_tensor_* (torch 1.13);
//  adamw-8bit 1: bitsandbytes launches one fused update kernel per tensor (optimizer_update_8bit_blockwise);
//  lion 8: lion-pytorch update_fn (mul_, clone().mul_().add().sign_(), add_, mul_().add_());
//  adafactor 24 per matrix (factored row and column statistics) and 16 per vector: transformers Adafactor.step
//  (_rms 2, grad**2 + eps 2, row and column EMAs 6, _approx_sq_grad 5, update.mul_ 1, RMS clipping 5, lr 1,
//  p.add_(-update) 2; unfactored: exp_avg_sq EMA 2 + rsqrt().mul_ 2 instead of the 11 factored ones).
// Plus per-tensor gradient clipping as torch < 2.0's clip_grad_norm_ ran it (one norm per tensor, then mul_ per
// tensor: 2) and, when gradients are zeroed instead of freed (Tunables::zero_grad_set_to_none false), zero_ (1).
double loop_ops_per_tensor(Optimizer o, bool matrix, bool zeroes) {
    double ops = 0;
    switch (o) {
        case Optimizer::kSgd: ops = 1; break;
        case Optimizer::kSgdMomentum: ops = 3; break;
        case Optimizer::kAdam: ops = 8; break;
        case Optimizer::kAdamW: ops = 9; break;
        case Optimizer::kAdamW8bit: ops = 1; break;
        case Optimizer::kLion: ops = 8; break;
        case Optimizer::kAdafactor: ops = matrix ? 24 : 16; break;
    }
    return ops + 2 + (zeroes ? 1 : 0);
}

bool saves_attention_core(const Graph& g, const Layer& l) {
    for (const SavedRef& s : l.saved)
        if (s.tensor >= 0 && s.tensor < std::int32_t(g.tensors.size()) && g.tensors[s.tensor].attention_core) return true;
    return false;
}

}  // namespace

DepthwiseBackend depthwise_backend(const Layer& l, Precision p, bool channels_last) {
    if (l.conv_groups <= 1 || l.conv_groups != l.conv_in_channels) return DepthwiseBackend::kNone;
    if (channels_last) return DepthwiseBackend::kCudnn;
    if (p != Precision::kFp16Amp || l.conv_in_channels < 32) return DepthwiseBackend::kNative;
    const int k = l.conv_kernel, w = l.conv_in_width, ch = l.conv_in_channels;
    bool cudnn = false;
    if ((k == 1 || k == 3 || k == 5) && w >= 7) {
        if (l.conv_stride == 1) cudnn = true;
        else if (l.conv_stride == 2) cudnn = k != 1 && (ch >= 512 || (ch >= 256 && w >= 28));
    }
    return cudnn ? DepthwiseBackend::kCudnn : DepthwiseBackend::kNative;
}

namespace {

// SD pipelines: diffusers' scripts encode each micro-batch with the frozen VAE and text encoders under no_grad
// before the UNet (examples/text_to_image/train_text_to_image_lora.py @04a375b7:
// vae.encode(batch["pixel_values"].to(dtype=weight_dtype)).latent_dist.sample(), text_encoder(batch["input_ids"])).
// Each is prepared as a graph of its own with nothing trainable: forward only, no gradients, no optimizer, no
// collectives, each GPU its own micro-batch, in the dtype the script casts it to: weight_dtype (16-bit under mixed
// precision, whatever the UNet's own weight format), fp32 for SDXL's VAE (cuDNN convolutions then run in TF32,
// torch.backends.cudnn.allow_tf32 defaulting to True, where the card has it).
void prepare_input_encoders(const ModelSpec& spec, const WorkloadShape& shape, const TrainingConfig& c,
                            PreparedTime& t) {
    const Precision p = c.precision;
    WorkloadShape es = shape;
    es.batch = 1;
    BuildOptions eo;
    eo.eager_attention = c.eager_attention;
    TrainingConfig ec = c;
    ec.method = Method::kFrozenBackbone;
    ec.strategy = Strategy::kDdp;
    ec.gpu_count = ec.grad_accum_steps = 1;
    ec.tensor_parallel = ec.pipeline_parallel = ec.pipeline_interleave = 1;
    ec.sequence_parallel = false;
    ec.checkpointing = Checkpointing::kNone;
    ec.offload_optimizer = ec.ema_weights = false;
    ec.precomputed_latents = true;  // the encoders' own graphs have none to run
    const bool fp32 = p == Precision::kFp32 || p == Precision::kTf32;
    const bool bf16 = p == Precision::kBf16Amp || p == Precision::kBf16;
    const Precision weight_dtype = fp32 ? p : bf16 ? Precision::kBf16 : Precision::kFp16Amp;
    auto add = [&](InputEncoders which, Precision precision) {
        TrainingConfig part = ec;
        part.precision = precision;
        const Graph eg = build_input_encoders(spec, es, eo, which);
        if (!eg.layers.empty())
            t.input_encoders.push_back(std::make_shared<const PreparedTime>(prepare_time(spec, es, eg, part)));
    };
    add(InputEncoders::kVae, spec.vae_fp32 ? Precision::kTf32 : weight_dtype);
    add(InputEncoders::kText, weight_dtype);
}

// One layer's work per sample: whether it trains and needs its input gradient, its forward and backward FLOPs and
// passes, recomputation, and the model and hardware FLOPs they add up to.
struct LayerWork {
    bool trainable = false, lora = false, input_grad = false, compute_bound = false, has_weights = false;
    bool has_backward = false;
    double F = 0, bytes = 0;
    double bwd_flop = 0, bwd_passes = 0, bwd_bytes = 0;
    double bwd_extra_flop = 0;  // hardware-only backward FLOPs (FlashAttention's recomputed QK^T)
    double hidable_flop = 0;    // a column-parallel weight gradient: hides the tensor-parallel all-reduce
    double lora_flop = 0, lora_bwd = 0;
    double re = 0;  // 1 where the layer's forward reruns (recomputation)
    double model_flop = 0, hw_flop = 0;
};

LayerWork layer_work(const Graph& g, const Layer& l, const TrainingConfig& c, bool upstream_trainable,
                     double act_bytes) {
    // A matmul whose weight is tied to another layer's (GPT-2/Llama-3.2/Qwen LM head = token embedding) holds no
    // parameters of its own, yet computes the shared weight's gradient when that weight trains.
    const bool tied = l.params <= 0 && l.matmul_weight_params > 0;
    const bool trainable = layer_trainable(l, c) || (tied && c.method == Method::kFull);
    const bool lora = is_lora_target(l, c);
    const bool input_grad = upstream_trainable;
    const bool compute_bound = l.kind == OpKind::kMatmul || l.kind == OpKind::kAttention;
    const bool has_weights = l.matmul_weight_params > 0;
    const double F = l.forward_flop;
    const double bytes = l.bytes_moved_elements * act_bytes;

    // Backward FLOPs (Kaplan et al. 2020 sec. 2.1: backward ~ 2x forward = input grad + weight grad).
    //  matmul with weights: input grad 1xF (if upstream needs it), weight grad 1xF (if trainable);
    //  matmul of two activations (eager QK^T, PV): both operand grads, 2xF, if upstream needs them;
    //  fused attention (FlashAttention, Dao et al. 2022 sec. 3.1/Alg. 4): dQ, dK, dV = 2xF model FLOPs, plus
    //  the recomputed QK^T (0.5xF), counted as hardware FLOPs only.
    double bwd_flop = 0, bwd_passes = 0, bwd_bytes = 0;
    double bwd_extra_flop = 0;  // hardware-only backward FLOPs (FlashAttention's recomputed QK^T)
    double hidable_flop = 0;    // a column-parallel weight gradient: hides the tensor-parallel all-reduce
    if (compute_bound) {
        if (l.kind == OpKind::kAttention) {
            if (input_grad) bwd_flop = 2 * F, bwd_extra_flop = 0.5 * F, bwd_passes = 1, bwd_bytes = 2 * bytes;
        } else if (has_weights) {
            if (input_grad) bwd_flop += F, bwd_passes += 1, bwd_bytes += bytes;
            if (trainable) bwd_flop += F, bwd_passes += 1, bwd_bytes += bytes;
            // Megatron hides a column-parallel Linear's input-gradient all-reduce behind its weight gradient.
            if (trainable && is_column_parallel(l.role) && l.block >= 0) hidable_flop = F;
        } else if (input_grad) {
            bwd_flop = 2 * F, bwd_passes = 2, bwd_bytes = 2 * bytes;
        }
    } else if (input_grad || trainable) {
        // Bandwidth-bound backward reads the output gradient and the saved input, writes the input gradient:
        // about twice the forward traffic (one read + one write forward).
        bwd_bytes = 2 * bytes, bwd_passes = 1;
    }
    // LoRA adapter (Hu et al. 2021, eq. 3: h = W0 x + B A x): forward 2 x tokens x r x (in + out) FLOPs per
    // expert copy, backward 2x that (adapter weights are trainable, the input gradient flows through).
    double lora_flop = 0;
    if (lora) lora_flop = 2.0 * l.tokens * c.lora.rank * (double(l.in_features) + l.out_features) * l.experts;
    const double lora_bwd = lora ? 2.0 * lora_flop : 0.0;

    // Recomputation: full checkpointing reruns every layer inside a checkpointed block once more (Chen et al.
    // 2016); selective reruns only the attention core whose s x s tensors were dropped (Korthikanti et al.
    // 2022 sec. 4.2). Only where a backward pass runs at all.
    const bool has_backward = bwd_passes > 0 || lora;
    bool recompute = false;
    if (has_backward && l.block >= 0) {
        if (c.checkpointing == Checkpointing::kFull) recompute = true;
        if (c.checkpointing == Checkpointing::kSelective && saves_attention_core(g, l)) recompute = true;
    }
    const double re = recompute ? 1.0 : 0.0;

    // Model FLOPs count forward + backward once (the MFU convention of Korthikanti et al. 2022, sec. 6, and
    // Chowdhery et al. 2022, app. B); hardware FLOPs add recomputation.
    const double model_flop = F + bwd_flop + lora_flop + lora_bwd;
    const double hw_flop = model_flop + bwd_extra_flop + re * (F + lora_flop);
    LayerWork w;
    w.trainable = trainable, w.lora = lora, w.input_grad = input_grad, w.compute_bound = compute_bound;
    w.has_weights = has_weights, w.has_backward = has_backward;
    w.F = F, w.bytes = bytes;
    w.bwd_flop = bwd_flop, w.bwd_passes = bwd_passes, w.bwd_bytes = bwd_bytes;
    w.bwd_extra_flop = bwd_extra_flop, w.hidable_flop = hidable_flop;
    w.lora_flop = lora_flop, w.lora_bwd = lora_bwd;
    w.re = re, w.model_flop = model_flop, w.hw_flop = hw_flop;
    return w;
}

// The LoRA adapter's own kernels around the frozen GEMM, activation-sized and bandwidth-bound (peft
// tuners/lora/layer.py Linear.forward: `result = result + lora_B(lora_A(dropout(x))) * scaling`; bnb.py
// Linear4bit.forward also `result = result.clone()` first, "As per Tim Dettmers, for 4bit, we need to
// defensively clone here"; torchtune's LoRALinear and LitGPT's LoRALinear run the same ops). Per token, in
// elements of the activation dtype, with x of `in` and the output of `out` features:
//  forward: dropout (p > 0) reads x, writes x' and a 1-byte mask; lora_A reads x'; lora_B writes its output
//    (out); `* scaling` reads and writes it; `result + ...` reads two and writes one; the 4-bit clone reads
//    and writes `out`. The rank-r intermediate is negligible.
//  backward: the scaling's gradient reads and writes `out`; lora_B's input and weight gradients each read it;
//    lora_A's input gradient writes `in`, its weight gradient reads x'; dropout's backward reads the gradient
//    and the mask and writes `in`; autograd sums the adapter's input gradient into x's (reads two, writes one).
// Charged as serial bandwidth-bound kernels at the framework's elementwise rate, once per forward (and
// recompute) and once in backward. Their launch cost stays in `passes` (time_layer).
double lora_adapter_bytes(const Layer& l, const TrainingConfig& c, double act_bytes, double re) {
    const Precision p = c.precision;
    const double in = double(l.in_features) * l.tokens * l.experts;
    const double out = double(l.out_features) * l.tokens * l.experts;
    const bool dropout = c.lora.dropout > 0;
    const bool cloned = is_quantized(p);
    const double fwd = act_bytes * (in * (dropout ? 3.0 : 1.0) + out * (1.0 + 2.0 + 3.0 + (cloned ? 2.0 : 0.0))) +
                       (dropout ? in : 0.0);
    const double bwd = act_bytes * (out * (2.0 + 1.0 + 1.0) + in * (1.0 + 1.0 + 3.0 + (dropout ? 2.0 : 0.0))) +
                       (dropout ? in : 0.0);
    return fwd * (1 + re) + bwd;
}

// The LSTM's recurrence runs step by step (h_t needs h_(t-1)): cuDNN batches the input GEMM W_ih x_t over all
// t and the weight gradients over all t, but the recurrent GEMM W_hh h_(t-1) of every step, forward and in
// backward data (dh_(t-1) = W_hh^T dgates_t), is its own small GEMM + fused pointwise kernel (Appleyard,
// Kocisky, Blunsom 2016, arXiv 1604.01946: the single-cell and single-layer optimisations in cuDNN 5).
// Those FLOPs leave the batched roofline and are timed per step (evaluate_time). PyTorch picks cuDNN's
// persistent kernels (Diamos et al. 2016) only for fp16, one layer, one direction, hidden and input sizes
// multiples of 128 (aten/src/ATen/native/cudnn/RNN.cpp use_persist_common_heuristics), never for a BiLSTM:
// not assumed. The two directions are timed one after the other: no source found that cuDNN overlaps them
// (the pessimistic choice).
// Wanted from workload.h: a recurrence flag with its hidden size (the layer is recognised by family + name).
void split_recurrence(const ModelSpec& spec, const Layer& l, const LayerWork& w, double act_bytes,
                      double gemm_weight_bytes, TimeLayer& tl, PreparedTime& t) {
    if (spec.family == Family::kBiLstmCrf && l.name == "lstm" && spec.lstm_hidden > 0 && t.tokens_per_sample > 0) {
        const double h = spec.lstm_hidden, dirs = 2, steps = t.tokens_per_sample;
        const double rec_fwd_flop = dirs * steps * 2.0 * 4.0 * h * h;  // per sample, one forward pass
        const double rec_passes = 1 + w.re + (w.has_backward ? 1 : 0);
        RecurrentTime rt;
        rt.sequential_steps = dirs * steps * rec_passes;
        rt.flop_per_step_per_sample = 2.0 * 4.0 * h * h;
        rt.bytes_per_step_per_sample = (h + 4.0 * h) * act_bytes;
        rt.weight_bytes_per_step = 4.0 * h * h * gemm_weight_bytes;
        t.recurrent.push_back(rt);
        tl.flop_per_sample = std::max(0.0, tl.flop_per_sample - rec_fwd_flop * rec_passes);
    }
}

// The layer's roofline entry for the GPU of its stage: FLOPs, bytes and passes per sample, the depthwise kernels'
// traffic, the LoRA adapter's and the layout transposes' serial bytes, the recurrence (split off into t.recurrent),
// the tensor-parallel split.
TimeLayer time_layer(const ModelSpec& spec, const Layer& l, const TrainingConfig& c, const LayerWork& w,
                     double act_bytes, double gemm_weight_bytes, PreparedTime& t) {
    const Precision p = c.precision;
    const double tp = std::max(1, c.tensor_parallel);
    const double bytes = w.bytes, re = w.re;
    TimeLayer tl;
    tl.compute_bound = w.compute_bound;
    const DepthwiseBackend depthwise = depthwise_backend(l, p, c.channels_last);
    const bool native_depthwise = depthwise == DepthwiseBackend::kNative;
    tl.linear = w.has_weights;
    tl.fused_attention = l.kind == OpKind::kAttention;
    tl.passes = 1 + w.bwd_passes + re;
    tl.flop_per_sample = w.compute_bound ? w.hw_flop : 0.0;
    tl.bytes_per_sample = bytes * (1 + re) + w.bwd_bytes;
    // PyTorch's own depthwise kernels (aten/src/ATen/native/cuda/DepthwiseConv2d.cu) are plain CUDA-core kernels,
    // one output (forward) or input-gradient (backward) element per thread, "not even using shared memory"
    // (ngimel, pytorch/pytorch#1708): memory-bound eager kernels like the elementwise ones, so they stream at
    // that rate (the SM stream limit applies), not at cuDNN's. Forward and input gradient each read one tensor
    // and write the other (the k x k taps come from cache). The weight gradient
    // (conv_depthwise2d_grad_weight_kernel) runs one thread block per (channel, kh, kw), each summing
    // input x output-gradient over the whole batch and image: k^2 passes over both tensors, counted here as
    // traffic (no L2 reuse between the k^2 blocks of a channel assumed). Validated, not fitted: NVIDIA's
    // EfficientNet-B0 TF32 (A100) and FP32 (V100) rows (docs/validation-sources.md sec. 7r).
    if (native_depthwise) {
        tl.compute_bound = false;
        tl.flop_per_sample = 0;
        const double taps = double(l.conv_kernel) * l.conv_kernel;
        tl.bytes_per_sample = bytes * (1 + re) + (w.input_grad ? bytes : 0.0) + (w.trainable ? taps * bytes : 0.0);
    }
    tl.weight_bytes = w.has_weights ? l.matmul_weight_params * gemm_weight_bytes * (tl.passes) : 0.0;
    if (w.lora) tl.passes += 3 * (1 + re);  // adapter A and B matmuls: small extra kernels
    if (w.lora) tl.serial_bytes_per_sample += lora_adapter_bytes(l, c, act_bytes, re);
    // NCHW activations under 16-bit autocast: cuDNN's tensor-core convolutions work in NHWC, so each conv call
    // transposes its NCHW operands to NHWC and its result back (MosaicML Composer "Channels Last" method card,
    // after NVIDIA's diagram: "the NCHW tensor must be transposed to NHWC before the convolution and transposed
    // back to NCHW after"; cuDNN docs, Legacy API, "Data and Filter Formats": "may use padding, folding, and
    // NCHW-to-NHWC transformations to call the Tensor Core operations"; torch.nn.utils.
    // convert_conv2d_weight_memory_format docs: NHWC kernels give "considerable speed up for fp16 data on CUDA
    // devices with compute capability >= 7.0"). PyTorch's default is NCHW (torch.contiguous_format): Lambda's
    // DLE ConvNets runs without --memory-format nhwc, timm's benchmark files are named nchw. Each transpose
    // reads and writes its tensor: 2 x (input + output) per conv call, forward, recompute and each backward pass.
    // Measured: timm ResNet-50 AMP training on an RTX 3090, 826 img/s NCHW vs 1218 NHWC (pytorch-image-models
    // results/benchmark-train-amp-{nchw,nhwc}-pt112-cu113-rtx3090.csv). Not applied to fp32/TF32 (no source
    // that cuDNN transposes for them) nor to channels_last runs (scenario "memory_format": "channels_last").
    // Depthwise layers: PyTorch's own kernels (native_depthwise) read NCHW directly, no transposes. cuDNN's
    // depthwise kernels (grouped direct kernels, not tensor-core GEMMs: conv2d_grouped_direct_kernel and
    // wgrad2d_grouped_direct_kernel in nvprof, pytorch/pytorch#34977 and #1708) are not described publicly, and
    // their cost is taken to be what it is in NCHW under fp16 autocast whatever the layout (and dtype): their
    // convolution traffic plus this transpose traffic. Measured, timm on an RTX
    // 3090: channels_last made MobileNetV2 / EfficientNet-B0 1.26x / 1.20x faster than NCHW, which is what
    // removing only the dense convolutions' transposes gives (engine 1.29x / 1.32x), not removing the depthwise
    // layers' too (1.65x / 1.63x). Held out, NVIDIA's EfficientNet-B0 AMP rows (channels_last): one A100 +4%, one
    // V100 16GB +20%, one V100 32GB +27% (a listed miss) (docs/time-model.md sec. 2, "Depthwise convolutions").
    const bool tensor_core_16 = p == Precision::kFp16Amp || p == Precision::kBf16Amp || p == Precision::kBf16;
    const bool dense_transposed = spec.is_vision && l.role == ParamRole::kConv && l.kind == OpKind::kMatmul &&
                                  tensor_core_16 && !c.channels_last && depthwise == DepthwiseBackend::kNone;
    if (dense_transposed || depthwise == DepthwiseBackend::kCudnn)
        tl.serial_bytes_per_sample += 2.0 * bytes * (1 + re + w.bwd_passes);
    split_recurrence(spec, l, w, act_bytes, gemm_weight_bytes, tl, t);
    if (tp > 1) {
        const double split = l.tp_split ? tp : 1.0;
        tl.flop_per_sample /= split;
        tl.weight_bytes /= split;
        tl.bytes_per_sample *= tp_share(l.tp_split, c);
    }
    // The share of this layer's time its weight-gradient GEMM takes (Megatron overlaps the column-parallel
    // Linear's input-gradient all-reduce with it): a share of the layer's roofline time, so a faster card hides
    // less only where it also computes faster.
    if (tp > 1 && w.hidable_flop > 0 && w.hw_flop > 0) tl.hidable_fraction = w.hidable_flop / w.hw_flop;
    return tl;
}

// Identical roofline entries are kept once with a count (a model's blocks repeat).
class LayerList {
public:
    explicit LayerList(std::vector<TimeLayer>& list) : list_(list) {}
    void add(const TimeLayer& tl) {
        const auto key = std::make_tuple(tl.compute_bound, tl.linear, tl.fused_attention, tl.flop_per_sample,
                                         tl.bytes_per_sample,
                                         tl.weight_bytes, tl.passes, tl.serial_bytes_per_sample, tl.hidable_fraction);
        auto it = where_.find(key);
        if (it == where_.end()) {
            where_.emplace(key, list_.size());
            list_.push_back(tl);
        } else {
            list_[it->second].count += 1;
        }
    }

private:
    using LayerKey = std::tuple<bool, bool, bool, double, double, double, double, double, double>;
    std::vector<TimeLayer>& list_;
    std::map<LayerKey, std::size_t> where_;
};

// The host-side and bandwidth-bound work of the optimizer step that the layer adds (only for the GPU whose memory and
// optimizer step the report shows): dequantisation passes, for-loop optimizer kernels, weight EMA kernels.
void add_step_kernels(const Layer& l, const TrainingConfig& c, const LayerWork& w, bool loops, PreparedTime& t) {
    const Precision p = c.precision;
    const bool trainable = w.trainable, lora = w.lora;
    // int8/nf4: every GEMM pass over a quantized Linear first dequantizes its weight: reads the quantized
    // bytes, writes a 16-bit copy (bitsandbytes dequantize_4bit / int8 matmul, QLoRA sec. 3).
    const bool quantized_linear = bnb_quantized_linear(l, p);
    if (quantized_linear) {
        const double q_bytes = p == Precision::kNf4 ? (4.0 + 8.0 / 64.0) / 8.0 : 1.0;
        const double gemm_passes = 1 + (w.input_grad ? 1 : 0) + w.re;
        t.dequant_bytes_per_micro += l.matmul_weight_params * (q_bytes + 2.0) * gemm_passes;
    }

    // For-loop optimizer: its kernels run once per trainable tensor (LoRA: each adapter's A and B matrices).
    if (loops) {
        const bool zeroes = !c.tunables.zero_grad_set_to_none;
        if (trainable && l.params > 0)
            t.optimizer_loop_ops += l.param_matrices * loop_ops_per_tensor(c.optimizer, true, zeroes) +
                                    l.param_vectors * loop_ops_per_tensor(c.optimizer, false, zeroes);
        if (lora) t.optimizer_loop_ops += 2.0 * l.experts * loop_ops_per_tensor(c.optimizer, true, zeroes);
    }

    // Weight EMA, after each optimizer step, tensor by tensor: Ultralytics ModelEMA.update `v *= d; v += (1 - d)
    // * msd[k].detach()` and diffusers EMAModel.step `s_param.sub_(one_minus_decay * (s_param - param))` (its
    // default foreach=False) each launch 3 kernels per tensor.
    if (c.ema_weights) {
        if (trainable && l.params > 0) t.ema_loop_ops += 3.0 * (l.param_matrices + l.param_vectors);
        if (lora) t.ema_loop_ops += 3.0 * 2.0 * l.experts;
    }
}

// Tensor parallelism: each transformer block all-reduces its s x b x h output twice in forward (after the
// attention and the MLP row-parallel Linears) and twice in backward (the input gradients of the column-parallel
// ones), plus twice more when full recomputation reruns the forward (Shoeybi et al. 2019, sec. 3, Fig. 4;
// Korthikanti et al. 2022, sec. 4.2.2: sequence parallelism replaces each all-reduce by a reduce-scatter and an
// all-gather, "the same communication volume"). The forward ones are exposed; backward's overlap the linear
// weight-gradient GEMMs (Korthikanti et al. 2022, sec. 6.2: "we overlap all-reduce communication with the linear
// weight's gradient computation"). The block's input (s x h per sample) sets the size, in the activation dtype.
// block_stage / block_backward: each block's pipeline stage and whether a backward pass runs through it.
void add_model_parallel_comm(const Graph& g, const TrainingConfig& c, double act_bytes,
                             const std::vector<int>& block_stage, const std::vector<char>& block_backward,
                             PreparedTime& t) {
    const int last_stage = std::max(1, c.pipeline_parallel) - 1;
    const double tp = std::max(1, c.tensor_parallel);
    if (!g.block_inputs.empty() && g.block_inputs[0] >= 0) {
        const double act_el = g.tensors[g.block_inputs[0]].elements;
        t.tp_collective_bytes_per_sample = act_el * act_bytes;
        // Pipeline stages pass that tensor forward and its gradient back, per micro-batch; Megatron sends 1/t of it
        // from each tensor-parallel rank and all-gathers at the receiver (Narayanan et al. 2021, sec. 4.1,
        // "scatter/gather communication optimization").
        t.p2p_bytes_per_sample = act_el * act_bytes / tp;
    }
    // The busiest stage: 2 forward all-reduces per block; per block with a backward pass 2 in backward and, under
    // full recomputation, 2 more in the rerun forward.
    const double recompute = c.checkpointing == Checkpointing::kFull ? 2.0 : 0.0;
    std::vector<double> stage_all(std::size_t(last_stage) + 1, 0.0), stage_backward(stage_all.size(), 0.0);
    for (std::size_t b = 0; b < block_stage.size(); ++b) {
        const std::size_t st = std::size_t(block_stage[b]);
        stage_all[st] += 2.0 + (block_backward[b] ? 2.0 + recompute : 0.0);
        stage_backward[st] += block_backward[b] ? 2.0 : 0.0;
    }
    const std::size_t busiest = std::size_t(std::max_element(stage_all.begin(), stage_all.end()) - stage_all.begin());
    t.tp_collectives_per_micro = tp > 1 ? stage_all[busiest] : 0.0;
    t.tp_backward_collectives_per_micro = tp > 1 ? stage_backward[busiest] : 0.0;
    t.p2p_backward = t.backward_fraction > 0;
}

// The optimizer step's bytes, ZeRO-Offload's and offloaded checkpointing's transfers, and the bytes the
// data-parallel collectives move, from memory's byte tables `m` for one GPU.
void add_step_bytes(const ModelSpec& spec, const Graph& g, const TrainingConfig& c, const PreparedMemory& m,
                    double act_bytes, PreparedTime& t) {
    const Precision p = c.precision;
    // Optimizer step, bandwidth-bound: read + write every trainable parameter and optimizer state, read each
    // gradient (a fused/foreach Adam touches each once: torch.optim.AdamW(fused=True) docs). fp16 AMP's
    // GradScaler.unscale_ reads and writes the gradients once more (torch.amp.GradScaler docs).
    const double w_b = m.weight_bytes_per_param;
    const double g_b = m.grad_bytes_per_param;
    const double lora_params = m.params_lora;
    const double base_trainable = m.rank_trainable;
    // (This GPU's share under tensor/pipeline parallelism: memory's rank figures for the first stage.)
    const double states_bytes = m.state_bytes_per_param * (m.rank_trainable + lora_params);
    double opt = base_trainable * (2 * w_b + g_b) + lora_params * (2 * 4.0 + 4.0) + 2 * states_bytes;
    if (p == Precision::kFp16Amp) opt += 2 * (base_trainable * g_b + lora_params * 4.0);
    t.optimizer_bytes = opt;
    // Weight EMA: those 3 kernels read or write the EMA copy's bytes 7 times (v *= d: 2; (1 - d) * w: 2;
    // v += tmp: 3).
    t.ema_bytes = 7.0 * m.ema_bytes;
    // ZeRO-Offload (Ren et al. 2021, sec. 4.1): the optimizer runs on the CPU; each step moves the gradients to host
    // memory and the updated 16-bit parameters back (fp32 runs: 4-byte parameters).
    if (c.offload_optimizer) {
        t.offload_bytes = base_trainable * (g_b + act_bytes) + lora_params * (4.0 + 4.0);
        t.optimizer_bytes = 0;
    }
    // Offloaded checkpointing: the block inputs the memory walk sends to host RAM (memory_terms.cpp, Unsloth's
    // Unsloth_Offloaded_Gradient_Checkpointer, torchtune's OffloadActivations), each way once per sample.
    t.offload_activation_bytes_per_sample = offloaded_activation_bytes_per_sample(g, c);

    // Gradients the data-parallel group reduces (the trainable parameters' gradient dtype: fp32 under autocast,
    // whose parameters stay fp32; bf16 for pure bf16; LoRA adapters are fp32) and, for ZeRO-3/FSDP, the
    // parameters gathered per pass (all of them, in their stored dtype).
    t.grad_comm_bytes = base_trainable * g_b + lora_params * 4.0;
    t.grad_comm_values = base_trainable + lora_params;
    t.param_gather_bytes = (m.rank_params + m.params_lora) * (is_quantized(p) ? 1.0 : w_b);
    if (c.strategy == Strategy::kDp) {  // DataParallel's per-micro-batch traffic (data_parallel.h)
        t.dp.broadcast_bytes = t.param_gather_bytes;
        t.dp.reduce_bytes = t.grad_comm_bytes;
        t.dp.output_bytes_per_sample = dp_output_bytes_per_sample(g, p);
        t.dp.input_bytes_per_sample = dp_input_bytes_per_sample(g);
        t.dp.output_gradient_scattered = !dp_loss_in_replicas(spec.family);
    }
}

}  // namespace

PreparedTime prepare_time(const ModelSpec& spec, const WorkloadShape& shape, const Graph& g, const TrainingConfig& c) {
    assert(g.batch == 1 && "prepare_time: build the graph with WorkloadShape::batch = 1; evaluate scales by batch");
    PreparedTime t;
    t.config = c;
    t.family = spec.family;
    t.tokens_per_sample = spec.is_vision ? 0.0 : double(shape.seq_len > 0 ? shape.seq_len : spec.default_seq_len);

    const Precision p = c.precision;
    const double act_bytes = compute_bytes(p);
    // Weights as the GEMM reads them: autocast casts fp32 weights to 16 bits once per forward (cast cache),
    // pure bf16 and the dequantized int8/nf4 weights are 16-bit; fp32/tf32 read 4 bytes.
    const double gemm_weight_bytes = act_bytes;
    if (!c.precomputed_latents && has_input_encoders(spec)) prepare_input_encoders(spec, shape, c, t);

    // Memory's byte tables for one GPU (sharding is applied at evaluate time, per GPU count).
    TrainingConfig one = c;
    one.gpu_count = 1;
    one.offload_optimizer = false;
    const PreparedMemory m = prepare_memory(g, one);
    t.params_total = m.params_total;
    t.params_trainable = m.params_trainable;
    t.params_trainable_per_gpu = m.rank_trainable + m.params_lora;

    const bool loops = effective_optimizer_impl(c.optimizer, c.optimizer_impl) == OptimizerImpl::kForLoop &&
                       !c.offload_optimizer;
    bool upstream_trainable = false;  // a layer needs its input gradient only if something before it trains
    double backward_flop = 0;
    // Tensor/pipeline parallelism: this GPU runs its stage's layers (the first stage's, and the last stage's for the
    // slower of the two), each tensor-parallel layer's FLOPs, weights and traffic split t ways, the replicated ones
    // (norms, residual adds, dropout) whole unless sequence parallelism splits them (Korthikanti et al. 2022, sec.
    // 4.2.2). The model and hardware FLOPs above stay the whole model's (the MFU convention).
    const std::vector<int> stages = layer_stages(g, c.pipeline_parallel);
    const int last_stage = std::max(1, c.pipeline_parallel) - 1;
    LayerList first_stage_layers(t.layers), last_stage_layers(t.last_stage_layers);
    // Per block: its stage and whether a backward pass runs through it (frozen blocks before any trainable layer
    // run none, so neither do their backward all-reduces).
    std::vector<int> block_stage(std::size_t(std::max(0, g.block_count)), 0);
    std::vector<char> block_backward(std::size_t(std::max(0, g.block_count)), 0);
    for (std::size_t li = 0; li < g.layers.size(); ++li) {
        const Layer& l = g.layers[li];
        const int stage = stages[li];
        const LayerWork w = layer_work(g, l, c, upstream_trainable, act_bytes);
        t.forward_flop_per_sample += w.F + w.lora_flop;
        t.model_flop_per_sample += w.model_flop;
        t.hardware_flop_per_sample += w.hw_flop;
        backward_flop += w.bwd_flop + w.bwd_extra_flop + w.lora_bwd;

        const TimeLayer tl = time_layer(spec, l, c, w, act_bytes, gemm_weight_bytes, t);
        if (stage == 0) first_stage_layers.add(tl);
        if (stage == last_stage && last_stage > 0) last_stage_layers.add(tl);
        if (l.block >= 0 && std::size_t(l.block) < block_stage.size()) {
            block_stage[std::size_t(l.block)] = stage;
            if (w.has_backward) block_backward[std::size_t(l.block)] = 1;
        }
        // the step's kernels only for the GPU whose memory and optimizer step the report shows
        if (stage == 0) add_step_kernels(l, c, w, loops, t);
        if (w.trainable || w.lora) upstream_trainable = true;
    }
    t.backward_fraction = t.hardware_flop_per_sample > 0 ? backward_flop / t.hardware_flop_per_sample : 0.0;
    add_model_parallel_comm(g, c, act_bytes, block_stage, block_backward, t);
    // ZeRO and FSDP step flat partitions instead of the model's tensors: DeepSpeed one per parameter group
    // (stage_1_and_2.py single_partition_of_fp32_groups), FSDP one FlatParameter per wrapped unit (torch FSDP docs,
    // use_orig_params=False; units: one per block, auto-wrapped, + the root). Flat tensors are 1-D.
    if (loops) t.optimizer_flat_ops = loop_ops_per_tensor(c.optimizer, false, !c.tunables.zero_grad_set_to_none);
    t.fsdp_units = g.block_count + 1.0;
    add_step_bytes(spec, g, c, m, act_bytes, t);
    return t;
}

}  // namespace gg::engine
