// The memory engine's terms per layer (see memory.h): bytes per element for each precision and framework, what a
// method trains, what autograd saves per layer under checkpointing and tensor/pipeline splits (the walk), and the
// optimizer's state bytes. Every formula cites its source; no JSON, no UI.
#include "engine/memory.h"
#include "engine/memory_detail.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace gg::engine {

using namespace memory_detail;  // the helpers memory_detail.h declares

// ---- byte tables -------------------------------------------------------------------------------------------
namespace memory_detail {

bool is_autocast(Precision p) { return p == Precision::kFp16Amp || p == Precision::kBf16Amp || p == Precision::kFp8; }
bool is_quantized(Precision p) { return p == Precision::kInt8 || p == Precision::kNf4; }
// Frozen parameters kept in the 16-bit autocast dtype (fp16/bf16 autocast only: fp8's Transformer Engine keeps its
// own weight copies).
bool frozen_16bit(const TrainingConfig& c) {
    return c.frozen_weights_16bit && (c.precision == Precision::kFp16Amp || c.precision == Precision::kBf16Amp);
}

// The compute (activation) dtype: fp32 for fp32/tf32 (TF32 only changes the matmul unit, not storage: PyTorch
// docs "TensorFloat-32 (TF32) on Ampere devices"); 2 bytes for autocast fp16/bf16, pure bf16, and the 16-bit
// compute dtype of bitsandbytes int8/nf4 models. fp8 (Transformer Engine) keeps bf16 activations outside its GEMMs.
double compute_bytes(Precision p) { return (p == Precision::kFp32 || p == Precision::kTf32) ? 4.0 : 2.0; }

// Bytes per element of a parameter that is stored unquantized. Autocast keeps fp32 parameters
// (torch.amp docs: "autocast ... the model's parameters stay float32"); pure bf16 stores bf16; bitsandbytes
// models keep their non-quantized modules (embeddings, norms, lm_head) in the 16-bit torch_dtype.
double param_bytes(Precision p) {
    switch (p) {
        case Precision::kBf16:
        case Precision::kInt8:
        case Precision::kNf4: return 2.0;
        default: return 4.0;
    }
}


// Mixed precision is a different mechanism per framework:
//  - PyTorch autocast (HF Trainer fp16/bf16, DDP): fp32 parameters, per-op casts (autocast_mode.cpp lists);
//  - DeepSpeed ZeRO with "fp16"/"bf16" enabled: the module itself is converted to 16 bit, the fp32 master
//    copy lives in the optimizer (Rajbhandari et al. 2020, sec. 3.1: 2 + 2 + 12 bytes/param for Adam);
//  - torch FSDP MixedPrecision(param_dtype=bf16): fp32 sharded parameters, 16-bit gathered parameters, so every
//    op (norms included) runs in 16 bit (torch.distributed.fsdp.MixedPrecision docs).
//  - Megatron-LM (tensor/pipeline parallel): Float16Module casts the model to 16 bit too (Korthikanti et al. 2022,
//    sec. 4.1: activations "in 16-bit"), with its own byte table (Megatron-LM README, "Distributed Optimizer":
//    fp16 params and grads 20 B/param = 2 + 2 + fp32 main params 4 + fp32 main grads 4 + Adam 8, "4 + 16/d" with
//    the distributed optimizer; bf16 params 18 B = 2 + fp32 grads 4 (bf16 accumulates gradients in fp32) + main
//    params 4 + Adam 8, "6 + 12/d").
bool megatron_mixed(const TrainingConfig& c) { return is_autocast(c.precision) && model_parallel(c); }
bool deepspeed_mixed(const TrainingConfig& c) {
    return is_autocast(c.precision) && !model_parallel(c) &&
           (c.strategy == Strategy::kZero1 || c.strategy == Strategy::kZero2 || c.strategy == Strategy::kZero3);
}
bool fsdp_mixed(const TrainingConfig& c) { return is_autocast(c.precision) && c.strategy == Strategy::kFsdp; }
// The precision whose dtype rules the saved tensors follow.
Precision activation_regime(const TrainingConfig& c) {
    return (deepspeed_mixed(c) || megatron_mixed(c) || fsdp_mixed(c)) ? Precision::kBf16 : c.precision;
}

}  // namespace memory_detail

bool bnb_quantized_linear(const Layer& l, Precision p) {
    return (p == Precision::kInt8 || p == Precision::kNf4) && l.kind == OpKind::kMatmul && l.in_features > 0 &&
           l.role != ParamRole::kHead && l.role != ParamRole::kConv;
}

double dtype_bytes(DtypeRule rule, Precision p) {
    switch (rule) {
        case DtypeRule::kActivation: return compute_bytes(p);
        case DtypeRule::kAutocastFp32: return (compute_bytes(p) == 4.0 || is_autocast(p)) ? 4.0 : 2.0;
        case DtypeRule::kMatmulInput: return compute_bytes(p);
        case DtypeRule::kFp32: return 4.0;
        case DtypeRule::kMask1: return 1.0;
        case DtypeRule::kInt64: return 8.0;
        case DtypeRule::kBool: return 1.0;
    }
    return 4.0;
}

int data_parallel(const TrainingConfig& c) {
    return std::max(1, c.gpu_count / std::max(1, c.tensor_parallel * c.pipeline_parallel));
}

bool model_parallel(const TrainingConfig& c) { return c.tensor_parallel > 1 || c.pipeline_parallel > 1; }

bool frozen_weights_16bit_default(Family family, Method method, Precision precision) {
    return family == Family::kSdUnet && method == Method::kLora &&
           (precision == Precision::kFp16Amp || precision == Precision::kBf16Amp);
}

double tp_share(bool tp_split, const TrainingConfig& c) {
    return c.tensor_parallel > 1 && (tp_split || c.sequence_parallel) ? 1.0 / c.tensor_parallel : 1.0;
}

std::vector<int> layer_stages(const Graph& g, int p) {
    std::vector<int> out(g.layers.size(), 0);
    if (p <= 1) return out;
    const long long blocks = std::max(1, g.block_count);
    bool seen_block = false;
    for (std::size_t i = 0; i < g.layers.size(); ++i) {
        const Layer& l = g.layers[i];
        if (l.block >= 0) {
            seen_block = true;
            out[i] = int(std::min<long long>(p - 1, l.block * (long long)p / blocks));
        } else {
            out[i] = seen_block ? p - 1 : 0;
        }
    }
    return out;
}

double pipeline_in_flight(int stage, int p, int v, int m) {
    if (p <= 1) return 1;
    m = std::max(1, m);
    if (v <= 1) return std::min<double>(p - stage, m);
    const double chunks = 2.0 * (p - stage - 1) + (v - 1.0) * p + 1.0;
    return std::min(chunks, double(m) * v) / v;
}

const char* peak_phase_name(PeakPhase phase) {
    switch (phase) {
        case PeakPhase::kForwardEnd: return "forward_end";
        case PeakPhase::kBackward: return "backward";
        case PeakPhase::kOptimizerStep: return "optimizer_step";
    }
    return "backward";
}

// ---- trainability ------------------------------------------------------------------------------------------
namespace memory_detail {

bool is_lora_target(const Layer& l, const TrainingConfig& c) {
    if (c.method != Method::kLora && c.method != Method::kQlora) return false;
    if (l.in_features <= 0 || l.kind != OpKind::kMatmul || l.params <= 0) return false;
    if (c.lora.targets.empty())  // PEFT's TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING: q and v (c_attn for GPT-2)
        return l.role == ParamRole::kQ || l.role == ParamRole::kV || l.role == ParamRole::kQkv;
    return std::find(c.lora.targets.begin(), c.lora.targets.end(), l.role) != c.lora.targets.end();
}

}  // namespace memory_detail

OptimizerImpl effective_optimizer_impl(Optimizer optimizer, OptimizerImpl asked) {
    if (optimizer == Optimizer::kAdamW8bit || optimizer == Optimizer::kLion) return OptimizerImpl::kForLoop;
    if (optimizer == Optimizer::kAdafactor && asked == OptimizerImpl::kFused) return OptimizerImpl::kForeach;
    return asked;
}

bool layer_trainable(const Layer& l, const TrainingConfig& c) {
    if (l.params <= 0 && !l.tied) return false;
    switch (c.method) {
        case Method::kFull: return true;
        case Method::kFrozenBackbone: return !l.backbone;
        default: return false;  // LoRA/QLoRA: base weights frozen; the adapters are counted separately
    }
}

// ---- saved activations walk --------------------------------------------------------------------------------
namespace memory_detail {

// Element size of a saved tensor under a job: the regime's rule (dtype_bytes), except in a bitsandbytes model whose
// norms are fp32 (TrainingConfig::fp32_modules): there the hidden states are fp32 (norm outputs, residual stream, and
// every Linear4bit/Linear8bitLt output, which takes its input's dtype: bitsandbytes nn/modules.py Linear4bit.forward
// "inp_dtype = x.dtype ... out = out.to(inp_dtype)"), while what a matmul keeps is its own cast to the 16-bit compute
// dtype (x.to(self.compute_dtype); under autocast the SDPA inputs and output are 16-bit likewise).
bool fp32_hidden_states(const TrainingConfig& c) { return is_quantized(c.precision) && c.fp32_modules != Fp32Modules::kNone; }
double element_bytes(DtypeRule rule, Precision p, bool fp32_hidden) {
    if (fp32_hidden && (rule == DtypeRule::kActivation || rule == DtypeRule::kAutocastFp32)) return 4.0;
    return dtype_bytes(rule, p);
}

std::int32_t storage_key(const Graph& g, std::int32_t t, Precision p, bool fp32_hidden) {
    // A cast whose target dtype equals its source's is a no-op (.to() returns self; autocast does not recast a
    // tensor already in the compute dtype): the same storage.
    while (g.tensors[t].source >= 0) {
        const std::int32_t s = g.tensors[t].source;
        if (element_bytes(g.tensors[t].rule, p, fp32_hidden) != element_bytes(g.tensors[s].rule, p, fp32_hidden)) break;
        t = s;
    }
    return t;
}

// Whether the job's block implementation keeps this tensor (TensorInfo::kept_by).
bool kept_by_kernels(const TensorInfo& t, const TrainingConfig& c) {
    if (t.kept_by == TensorInfo::Kernels::kEagerOnly) return !c.fused_block_kernels;
    if (t.kept_by == TensorInfo::Kernels::kFusedOnly) return c.fused_block_kernels;
    return true;
}


// A layer's parameters on one GPU. Tensor parallelism splits the Linear weights, the column-parallel biases and the
// vocab-parallel embedding; a row-parallel Linear (output projection, FC2, down) adds its bias after the all-reduce,
// so every rank holds it whole (Megatron-LM tensor_parallel/layers.py RowParallelLinear). A tied head on another
// pipeline stage than its embedding keeps its own copy, kept equal by an all-reduce of the two gradients (Megatron-LM:
// the word embeddings on the last stage; Narayanan et al. 2021).
double rank_params(const Layer& l, const TrainingConfig& c, bool other_stage_than_embedding) {
    const double split = l.tp_split && c.tensor_parallel > 1 ? c.tensor_parallel : 1;
    if (l.tied && l.params <= 0 && c.pipeline_parallel > 1 && other_stage_than_embedding)
        return l.matmul_weight_params / split;
    if (!l.tp_split || c.tensor_parallel <= 1 || l.params <= 0) return l.params;
    if (!is_row_parallel(l.role)) return l.params / c.tensor_parallel;
    return l.matmul_weight_params / c.tensor_parallel + (l.params - l.matmul_weight_params);
}

// Walks the layers of one pipeline stage (`stages`: layer_stages(); all layers without pipelining); the parameter
// totals cover the model. Saved tensors count with tp_share (Korthikanti et al. 2022, Table 2: sbh(10 + 24/t +
// 5as/(ht)) per layer under tensor parallelism, sbh(34/t + 5as/(ht)) with sequence parallelism).
Walk walk(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage) {
    Walk w;
    const Precision p = activation_regime(c);
    const bool hidden32 = fp32_hidden_states(c);
    std::vector<char> seen(g.tensors.size(), 0);
    bool upstream_trainable = false;
    const double act = compute_bytes(p);
    std::int32_t current_block = -2;
    double max_tensor_in_segment = 0;
    for (std::size_t li = 0; li < g.layers.size(); ++li) {
        const Layer& l = g.layers[li];
        if (stages[li] != stage) {  // another pipeline stage's layer: counted in the totals only
            w.total += l.params;
            if (layer_trainable(l, c)) w.trainable += l.params;
            if (layer_trainable(l, c) || is_lora_target(l, c)) upstream_trainable = true;
            continue;
        }
        if (l.block != current_block || w.segments.empty()) {
            if (!w.segments.empty()) w.segments.back().transient_per_sample_bytes = 2 * max_tensor_in_segment;
            max_tensor_in_segment = 0;
            w.segments.emplace_back();
            w.segment_block.push_back(l.block);
            w.segment_params.push_back(0);
            current_block = l.block;
        }
        Segment& seg = w.segments.back();
        const bool trainable = layer_trainable(l, c);
        const bool lora = is_lora_target(l, c);
        w.total += l.params;
        w.segment_params.back() += l.params;
        if (trainable) w.trainable += l.params;
        double lora_here = 0;
        if (lora) {
            // LoRA (Hu et al. 2021, eq. 3): A (r x in) and B (out x r) per targeted Linear (per expert for MoE).
            lora_here = double(c.lora.rank) * (l.in_features + l.out_features) * l.experts;
            w.lora_params += lora_here;
        }
        const bool own_grad = trainable || lora;
        // A fused linear cross-entropy (Liger, Unsloth) runs no log_softmax over the vocabulary: the language-model
        // loss keeps none of its tensors (its input gradient is computed in the forward, memory.cpp prepare).
        const bool fused_loss = c.loss_kernel == LossKernel::kFused && l.kind == OpKind::kReduction &&
                                l.name == "loss" && g.logits_elements > 0;
        for (const SavedRef& r : l.saved) {
            if (fused_loss) break;
            bool needed = false;
            switch (r.needed_for) {
                case SavedFor::kWeightGrad:
                    needed = own_grad && !(lora && c.lora.dropout > 0);
                    // bitsandbytes' autograd functions keep their input on ctx whatever the weight needs
                    // (bitsandbytes/autograd/_functions.py @29e3420c): MatMul4Bit "if any(ctx.needs_input_grad[:2]):
                    // ctx.tensors = (A, B)", MatMul8bitLt in both branches; either way only while an autograd node
                    // exists, i.e. while a gradient flows through the call (no node, no ctx).
                    if (bnb_quantized_linear(l, c.precision)) needed = needed || upstream_trainable;
                    break;
                case SavedFor::kInputGrad: needed = upstream_trainable; break;
                case SavedFor::kAny: needed = upstream_trainable || trainable; break;
            }
            if (!needed) continue;
            if (!kept_by_kernels(g.tensors[r.tensor], c)) continue;
            const std::int32_t key = storage_key(g, r.tensor, p, hidden32);
            if (seen[key]) continue;
            seen[key] = 1;
            const TensorInfo& t = g.tensors[key];
            // A compiled chunked loss keeps the 16-bit chunks instead of log_softmax's fp32 outputs (TrainingConfig).
            const bool compiled_chunks = c.compiled_loss && c.loss_kernel == LossKernel::kChunked &&
                                         l.kind == OpKind::kReduction && l.name == "loss" && g.logits_elements > 0 &&
                                         t.rule != DtypeRule::kInt64;
            const double bytes =
                t.elements * (compiled_chunks ? act : element_bytes(t.rule, p, hidden32)) * tp_share(t.tp_split, c);
            w.saved_per_sample += bytes;
            seg.full_per_sample_bytes += bytes;
            // torchtune's chunked loss makes the gradients of one of its 8 chunks at a time (memory.cpp prepare).
            const bool chunked_loss = c.loss_kernel == LossKernel::kChunked && l.kind == OpKind::kReduction &&
                                      l.name == "loss" && g.logits_elements > 0;
            max_tensor_in_segment = std::max(max_tensor_in_segment, chunked_loss ? bytes / 8.0 : bytes);
            const bool core = t.attention_core || g.tensors[r.tensor].attention_core;
            if (l.block >= 0 && c.checkpointing == Checkpointing::kFull) continue;  // only the block input is kept
            if (l.block >= 0 && c.checkpointing == Checkpointing::kSelective && core) continue;
            seg.kept_per_sample_bytes += bytes;
        }
        if (c.precision == Precision::kInt8 && bnb_quantized_linear(l, c.precision) && upstream_trainable) {
            // MatMul8bitLt also keeps CAt, the int8 column-wise quantized copy of its input (1 B per element),
            // per call: q, k and v each keep their own (same source as above).
            const double cat_bytes = l.tokens * l.in_features * 1.0;
            w.saved_per_sample += cat_bytes;
            seg.full_per_sample_bytes += cat_bytes;
            if (!(l.block >= 0 && c.checkpointing == Checkpointing::kFull)) seg.kept_per_sample_bytes += cat_bytes;
        }
        if (lora) {
            // peft/tuners/lora/layer.py Linear.forward: lora_B(lora_A(dropout(x))): B saves A's output (tokens x r);
            // with lora_dropout > 0 the dropout keeps a 1-byte mask and A saves the dropped copy of x.
            double extra = l.tokens * c.lora.rank * act;
            if (c.lora.dropout > 0) extra += l.tokens * l.in_features * (1.0 + act);
            // With fp32 hidden states lora_A runs on the fp32 input: autocast casts it per op (its cache holds only
            // leaf weights), so A keeps a 16-bit copy of its own beside the one the quantized base layer keeps.
            else if (hidden32) extra += l.tokens * l.in_features * act;
            w.saved_per_sample += extra;
            seg.full_per_sample_bytes += extra;
            if (!(l.block >= 0 && c.checkpointing == Checkpointing::kFull)) seg.kept_per_sample_bytes += extra;
        }
        // Autocast weight casts (torch/csrc/autograd/autocast_mode.cpp cached_cast): the low-precision copy of a
        // weight used by a matmul/conv is saved by the op for the input gradient, so it lives until backward when
        // anything upstream needs a gradient (MEASURING.md: LoRA keeps copies of frozen weights too).
        // A weight already in the 16-bit compute dtype (TrainingConfig::frozen_weights_16bit) is used as it is.
        if (is_autocast(p) && l.matmul_weight_params > 0 && (upstream_trainable || own_grad) &&
            !is_quantized(p) && !(frozen_16bit(c) && !trainable)) {
            const double copy_bytes = l.matmul_weight_params * (p == Precision::kFp8 ? 1.0 : 2.0);
            const bool kept = upstream_trainable;  // saved for the input gradient only when the input needs one
            if (kept) {
                w.autocast_copies += copy_bytes;
                seg.kept_const_bytes += copy_bytes;
            }
        }
        if (own_grad) upstream_trainable = true;
    }
    if (!w.segments.empty()) w.segments.back().transient_per_sample_bytes = 2 * max_tensor_in_segment;
    // Full checkpointing: torch.utils.checkpoint keeps each block's input (Chen et al. 2016, sec. 3; the
    // Megatron "full" recompute of Korthikanti et al. 2022, sec. 4.1: 2sbh per layer in fp16).
    if (c.checkpointing == Checkpointing::kFull) {
        for (std::size_t i = 0; i < w.segments.size(); ++i) {
            const std::int32_t b = w.segment_block[i];
            if (b < 0 || std::size_t(b) >= g.block_inputs.size() || g.block_inputs[b] < 0) continue;
            const TensorInfo& t = g.tensors[g.block_inputs[b]];
            if (!(w.segments[i].full_per_sample_bytes > 0)) continue;
            const double input_bytes = t.elements * element_bytes(t.rule, p, hidden32) * tp_share(t.tp_split, c);
            // Offloaded checkpointing (Unsloth's Unsloth_Offloaded_Gradient_Checkpointer: hidden_states.to("cpu",
            // non_blocking=True) after the block's forward, back with .to("cuda") before its recompute; torchtune's
            // OffloadActivations): the block inputs wait in host RAM. The last block's is still on the GPU when
            // backward starts (its copy back is the first one), so one block's input stays counted.
            if (c.offload_activations && i + 1 < w.segments.size() && w.segment_block[i + 1] >= 0) {
                w.host_per_sample += input_bytes;
                continue;
            }
            w.segments[i].kept_per_sample_bytes += input_bytes;
        }
    }
    for (const Segment& s : w.segments) w.kept_per_sample += s.kept_per_sample_bytes;
    return w;
}

// Optimizer state bytes per trainable element of a layer (states in the parameter dtype: torch.optim creates
// them with zeros_like(param)). Sources: torch/optim/{sgd,adam,adamw}.py; Dettmers et al. 2022 "8-bit Optimizers
// via Block-wise Quantization" (2 x 1 B + an fp32 absmax per 2048-element block per state); Shazeer & Stern 2018
// "Adafactor" (factored second moment: rows + cols fp32 for matrices, no first moment with beta1 = None);
// Chen et al. 2023 "Symbolic Discovery of Optimization Algorithms" (Lion: one momentum).
double optimizer_state_bytes(const Layer& l, double trainable_elements, Optimizer o, double state_bytes) {
    switch (o) {
        case Optimizer::kSgd: return 0;
        case Optimizer::kSgdMomentum: return trainable_elements * state_bytes;
        case Optimizer::kAdam:
        case Optimizer::kAdamW: return trainable_elements * 2 * state_bytes;
        case Optimizer::kAdamW8bit: return trainable_elements * (2.0 + 2.0 * 4.0 / 2048.0);
        case Optimizer::kAdafactor:
            if (l.in_features > 0 && l.out_features > 0 && l.kind == OpKind::kMatmul && l.role != ParamRole::kConv)
                return (double(l.in_features) + l.out_features) * l.experts * 4.0 +
                       std::max(0.0, trainable_elements - l.matmul_weight_params) * 4.0;
            return trainable_elements * 4.0;
        case Optimizer::kLion: return trainable_elements * state_bytes;
    }
    return 0;
}

}  // namespace memory_detail

Precision saved_tensor_regime(const TrainingConfig& c) { return activation_regime(c); }

double saved_activation_bytes_per_sample(const Graph& g, const TrainingConfig& c) {
    return walk(g, c, layer_stages(g, c.pipeline_parallel), 0).saved_per_sample;
}

double offloaded_activation_bytes_per_sample(const Graph& g, const TrainingConfig& c) {
    if (!c.offload_activations || c.checkpointing != Checkpointing::kFull) return 0;
    return walk(g, c, layer_stages(g, c.pipeline_parallel), 0).host_per_sample;
}

}  // namespace gg::engine
