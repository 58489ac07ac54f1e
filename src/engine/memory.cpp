// The training-memory engine (see memory.h): byte tables per precision and optimizer, what autograd keeps per
// layer under a method, checkpointing and sharding, the phase of the step where the peak happens, and the solver.
// Every formula cites its source; docs/memory-model.md explains the ids. No JSON, no UI.
//
// Sections: byte tables | trainability | saved activations walk | prepare | evaluate | solver
#include "engine/memory.h"
#include "engine/data_parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace gg::engine {

// ---- byte tables -------------------------------------------------------------------------------------------
namespace {

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

// NF4 (Dettmers et al. 2023, QLoRA, sec. 3): 4-bit values + block-wise absmax over blocks of 64; with double
// quantization the absmax is 8-bit with one fp32 constant per 256 blocks: 4 + 8/64 + 32/(64*256) bits/param.
constexpr double kNf4BytesPerParam = (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;
// LLM.int8 (Dettmers et al. 2022, sec. 3): int8 weights with one fp32 scale per output row (Int8Params.SCB).
constexpr double kInt8BytesPerParam = 1.0;

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

}  // namespace

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
namespace {

bool is_lora_target(const Layer& l, const TrainingConfig& c) {
    if (c.method != Method::kLora && c.method != Method::kQlora) return false;
    if (l.in_features <= 0 || l.kind != OpKind::kMatmul || l.params <= 0) return false;
    if (c.lora.targets.empty())  // PEFT's TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING: q and v (c_attn for GPT-2)
        return l.role == ParamRole::kQ || l.role == ParamRole::kV || l.role == ParamRole::kQkv;
    return std::find(c.lora.targets.begin(), c.lora.targets.end(), l.role) != c.lora.targets.end();
}

}  // namespace

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
namespace {

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

struct Walk {
    std::vector<Segment> segments;
    std::vector<std::int32_t> segment_block;  // block id per segment (-1 = outside blocks)
    std::vector<double> segment_params;       // parameters per segment (ZeRO-3 gather unit)
    double saved_per_sample = 0, kept_per_sample = 0, autocast_copies = 0;
    double host_per_sample = 0;  // offload_activations: block inputs waiting in host RAM
    double lora_params = 0, trainable = 0, total = 0;
};

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

}  // namespace

Precision saved_tensor_regime(const TrainingConfig& c) { return activation_regime(c); }

double saved_activation_bytes_per_sample(const Graph& g, const TrainingConfig& c) {
    return walk(g, c, layer_stages(g, c.pipeline_parallel), 0).saved_per_sample;
}

double offloaded_activation_bytes_per_sample(const Graph& g, const TrainingConfig& c) {
    if (!c.offload_activations || c.checkpointing != Checkpointing::kFull) return 0;
    return walk(g, c, layer_stages(g, c.pipeline_parallel), 0).host_per_sample;
}

namespace {
PreparedMemory prepare_stage(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage,
                             const Walk& w);
}

PreparedMemory prepare_memory(const Graph& g, const TrainingConfig& c) {
    assert(g.batch == 1 && "prepare_memory: build the graph with WorkloadShape::batch = 1; evaluate scales by batch");
    const std::vector<int> stages = layer_stages(g, c.pipeline_parallel);
    PreparedMemory m = prepare_stage(g, c, stages, 0, walk(g, c, stages, 0));
    // The first stage holds the most micro-batches in flight, the last one the head, the logits and the loss: the
    // card must hold the fuller of the two (the stages between hold less than the first).
    if (c.pipeline_parallel > 1) {
        const int last = c.pipeline_parallel - 1;
        m.last_stage.push_back(prepare_stage(g, c, stages, last, walk(g, c, stages, last)));
    }
    return m;
}

// The walks of one graph, by what walk() reads from the configuration (the rest is the same for one job).
struct MemoryWalkCache::Impl {
    struct Entry {
        int tp, pp, interleave;
        bool sequence_parallel, eager;
        Checkpointing checkpointing;
        Precision regime;  // activation_regime(): DeepSpeed, FSDP and Megatron run 16-bit modules
        bool fused_kernels;
        Fp32Modules fp32_modules;
        std::vector<int> stages;
        Walk first, last;
    };
    const Graph* graph = nullptr;
    std::vector<Entry> entries;
};
MemoryWalkCache::MemoryWalkCache() : impl_(std::make_unique<Impl>()) {}
MemoryWalkCache::~MemoryWalkCache() = default;

std::vector<PreparedMemory> prepare_memory_sharded(const Graph& g, const std::vector<TrainingConfig>& configs,
                                                   MemoryWalkCache* cache) {
    assert(g.batch == 1 && "prepare_memory_sharded: build the graph with WorkloadShape::batch = 1");
    std::vector<PreparedMemory> out;
    if (configs.empty()) return out;
    const TrainingConfig& c0 = configs.front();
    for (const TrainingConfig& c : configs) {
        // What the walk reads (walk(): checkpointing, attention, tensor/pipeline split, dtype, trainability) must be
        // the same; the data-parallel layout (count, strategy, offload, accumulation) is what may differ.
        assert(activation_regime(c) == activation_regime(c0) && c.checkpointing == c0.checkpointing &&
               c.eager_attention == c0.eager_attention &&
               c.tensor_parallel == c0.tensor_parallel && c.pipeline_parallel == c0.pipeline_parallel &&
               c.pipeline_interleave == c0.pipeline_interleave && c.sequence_parallel == c0.sequence_parallel &&
               c.precision == c0.precision && c.method == c0.method && c.optimizer == c0.optimizer &&
               c.frozen_weights_16bit == c0.frozen_weights_16bit &&
               c.fused_block_kernels == c0.fused_block_kernels && c.fp32_modules == c0.fp32_modules &&
               "prepare_memory_sharded: the configurations may differ only in count, strategy, offload, accumulation");
        (void)c;
    }
    const int last = c0.pipeline_parallel - 1;
    MemoryWalkCache::Impl local;
    MemoryWalkCache::Impl& store = cache ? *cache->impl_ : local;
    assert((store.graph == nullptr || store.graph == &g) && "prepare_memory_sharded: one MemoryWalkCache per graph");
    store.graph = &g;
    const MemoryWalkCache::Impl::Entry* e = nullptr;
    for (const auto& x : store.entries)
        if (x.tp == c0.tensor_parallel && x.pp == c0.pipeline_parallel && x.interleave == c0.pipeline_interleave &&
            x.sequence_parallel == c0.sequence_parallel && x.eager == c0.eager_attention &&
            x.checkpointing == c0.checkpointing && x.regime == activation_regime(c0) &&
            x.fused_kernels == c0.fused_block_kernels && x.fp32_modules == c0.fp32_modules)
            e = &x;
    if (e == nullptr) {
        MemoryWalkCache::Impl::Entry x{c0.tensor_parallel, c0.pipeline_parallel, c0.pipeline_interleave,
                                       c0.sequence_parallel, c0.eager_attention, c0.checkpointing,
                                       activation_regime(c0), c0.fused_block_kernels, c0.fp32_modules, {}, {}, {}};
        x.stages = layer_stages(g, c0.pipeline_parallel);
        x.first = walk(g, c0, x.stages, 0);
        if (c0.pipeline_parallel > 1) x.last = walk(g, c0, x.stages, last);
        store.entries.push_back(std::move(x));
        e = &store.entries.back();
    }
    out.reserve(configs.size());
    for (const TrainingConfig& c : configs) {
        PreparedMemory m = prepare_stage(g, c, e->stages, 0, e->first);
        if (c.pipeline_parallel > 1) m.last_stage.push_back(prepare_stage(g, c, e->stages, last, e->last));
        out.push_back(std::move(m));
    }
    return out;
}

// ---- prepare -----------------------------------------------------------------------------------------------
namespace {

PreparedMemory prepare_stage(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage,
                             const Walk& w) {
    PreparedMemory m;
    m.config = c;
    m.stage = stage;
    m.in_flight = pipeline_in_flight(stage, c.pipeline_parallel, c.pipeline_interleave, c.grad_accum_steps);
    const double tp = std::max(1, c.tensor_parallel);
    const Precision p = c.precision;
    const bool mg = megatron_mixed(c);
    const bool ds = deepspeed_mixed(c) || mg;
    const double n = data_parallel(c);
    m.params_total = w.total + w.lora_params;
    m.params_trainable = w.trainable + w.lora_params;
    m.params_lora = w.lora_params;

    // Weights: unquantized parameters in the parameter dtype; int8/nf4 quantize the Linear weights of the
    // backbone (bitsandbytes replaces nn.Linear except lm_head: transformers' get_keys_to_not_convert).
    double weights = 0, quant_weights = 0;
    double grads = 0, states = 0;
    const double pb = ds ? 2.0 : param_bytes(p);  // DeepSpeed, Megatron: the module is 16-bit
    const double gb = mg && p != Precision::kFp16Amp ? 4.0 : pb;  // Megatron bf16: fp32 gradient buffers
    const double state_b = p == Precision::kBf16 ? 2.0 : 4.0;
    // fp32 master copy inside the optimizer; Megatron fp16 also keeps fp32 copies of the gradients there.
    const double master_b = mg && p == Precision::kFp16Amp ? 8.0 : ds ? 4.0 : 0.0;
    for (std::size_t li = 0; li < g.layers.size(); ++li) {
        const Layer& l = g.layers[li];
        if (stages[li] != stage) continue;
        const double own = rank_params(l, c, stage > 0);  // this GPU's share (a tied head's copy included)
        if (own <= 0) continue;
        const bool trainable = layer_trainable(l, c);
        m.rank_params += own;
        if (trainable) m.rank_trainable += own;
        const bool quantized_linear = bnb_quantized_linear(l, p);
        if (quantized_linear) {  // (never under tensor/pipeline parallelism: scenario.cpp refuses it)
            // bitsandbytes MatMul4Bit / MatMul8bitLt dequantize the weight to the 16-bit compute dtype for each
            // matmul (forward, and again for the input gradient): one such copy is alive at a time.
            m.dequant_temp_bytes = std::max(m.dequant_temp_bytes, l.matmul_weight_params / l.experts * 2.0);
            const double per = p == Precision::kNf4 ? kNf4BytesPerParam : kInt8BytesPerParam;
            // A bias is cast to the input's dtype on the first forward (Linear4bit.forward: self.bias.data =
            // self.bias.data.to(x.dtype)): fp32 when the hidden states are.
            quant_weights += l.matmul_weight_params * per +
                             (l.params - l.matmul_weight_params) * (fp32_hidden_states(c) ? 4.0 : pb);
            if (p == Precision::kInt8) quant_weights += double(l.out_features) * l.experts * 4.0;  // SCB row scales
        } else if (is_quantized(p) && c.fp32_modules != Fp32Modules::kNone &&
                   (l.role == ParamRole::kNorm || c.fp32_modules == Fp32Modules::kAll)) {
            // The unquantized modules a bitsandbytes model keeps in fp32 (TrainingConfig::fp32_modules): peft's
            // prepare_model_for_kbit_training upcasts every fp16/bf16 parameter (peft/utils/other.py @012c0d5a:
            // "cast all non INT8 parameters to fp32"); trl's peft_module_casting_to_bf16 (bf16=True) takes the
            // embeddings and lm_head back to bf16 and leaves the norms fp32.
            weights += own * 4.0;
        } else {
            weights += own * (frozen_16bit(c) && !trainable ? 2.0 : pb);
        }
        if (trainable) {
            grads += own * gb;
            // States scale with the share (Adafactor's factored rows and columns approximately so).
            const double layer_states = l.params > 0
                                            ? optimizer_state_bytes(l, l.params, c.optimizer, state_b) * own / l.params
                                            : optimizer_state_bytes(l, own, c.optimizer, state_b);
            states += layer_states + own * master_b;
        }
    }
    // LoRA adapters: fp32 (peft autocast_adapter_dtype=True upcasts adapters of bf16/fp16 models to fp32).
    weights += w.lora_params * 4.0;
    grads += w.lora_params * 4.0;
    if (w.lora_params > 0) {
        Layer proxy;
        proxy.in_features = 0;
        states += optimizer_state_bytes(proxy, w.lora_params, c.optimizer == Optimizer::kAdafactor ? Optimizer::kAdam
                                                                                                 : c.optimizer, 4.0);
    }
    weights += quant_weights;
    // The frozen weights' bytes when they are kept in 16 bits (LoRA adapters are reported apart, params_lora).
    m.weight_bytes_per_param = frozen_16bit(c) && m.rank_trainable == 0 ? 2.0 : pb;
    m.grad_bytes_per_param = gb;
    const double rank_trainable = m.rank_trainable + w.lora_params;  // what this GPU steps (before ZeRO)
    m.state_bytes_per_param = rank_trainable > 0 ? states / rank_trainable : 0;

    // Sharding (Rajbhandari et al. 2020, ZeRO, sec. 5 / Fig. 1): stage 1 optimizer states, stage 2 + gradients,
    // stage 3 (= FSDP FULL_SHARD) + parameters, which are all-gathered one unit at a time; with prefetching
    // two units (the one computing and the next) are whole at once (torch FSDP docs, backward_prefetch).
    // Under tensor/pipeline parallelism they shard across the data-parallel replicas of each model slice.
    const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
    const bool z2 = n > 1 && (c.strategy == Strategy::kZero2 || c.strategy == Strategy::kZero3 ||
                              c.strategy == Strategy::kFsdp);
    const bool z3 = n > 1 && (c.strategy == Strategy::kZero3 || c.strategy == Strategy::kFsdp);
    m.weight_bytes = z3 ? weights / n : weights;
    m.grad_bytes = z2 ? grads / n : grads;
    m.optimizer_bytes = z1 ? states / n : states;
    if (z3) {
        double largest_unit = 0;
        for (double s : w.segment_params) largest_unit = std::max(largest_unit, s);
        m.gathered_bytes = 2.0 * largest_unit * (fsdp_mixed(c) ? 2.0 : pb);
    }
    // DDP (torch.nn.parallel.DistributedDataParallel, gradient_as_bucket_view=False by default): the all-reduce
    // buckets are a second copy of every gradient ("the saved memory size will be equal to the total gradients
    // size" when set to True, DDP docs). Megatron-LM's DDP reduces its contiguous gradient buffer in place.
    if (n > 1 && c.strategy == Strategy::kDdp && !model_parallel(c)) m.ddp_bucket_bytes = grads;
    // DataParallel (data_parallel.h): on GPU 0 replica 0's gradients wait in Broadcast's backward while their sum
    // lands in .grad (the same second copy), and the whole input batch and every replica's outputs are kept there.
    if (n > 1 && c.strategy == Strategy::kDp) {
        m.ddp_bucket_bytes = grads;
        m.dp_output_per_sample_bytes = n * dp_output_bytes_per_sample(g, p);
        m.dp_input_per_sample_bytes = n * dp_input_bytes_per_sample(g);
    }
    // Weight EMA: a copy of each trainable parameter as this GPU holds it (a shard under ZeRO-3/FSDP), in the
    // parameter's dtype (Ultralytics ModelEMA deepcopies the fp32 model; diffusers EMAModel clones each parameter;
    // LoRA adapters are fp32). It stays on the GPU when the optimizer is offloaded.
    if (c.ema_weights) {
        const double base = m.rank_trainable * pb + w.lora_params * 4.0;
        m.ema_bytes = z3 ? base / n : base;
    }
    // SD pipelines (diffusers examples/text_to_image/train_text_to_image_lora.py @04a375b7, train_dreambooth*.py):
    // vae.to(device, dtype=weight_dtype) and text_encoder.to(device, dtype=weight_dtype), weight_dtype = fp16/bf16
    // under mixed precision, else fp32; SDXL's scripts keep the VAE in fp32. Every rank holds them whole (they are
    // not wrapped for DDP/FSDP). Their forward runs before the UNet's: its largest activations, with the model states
    // (and accumulated gradients), are a peak candidate of their own (compute_peak).
    if (!c.precomputed_latents && stage == 0) {
        m.input_encoder_bytes = g.input_encoder_params * compute_bytes(p) + g.input_encoder_fp32_params * 4.0;
        m.input_encoder_transient_per_sample_bytes =
            std::max(g.input_encoder_transient_elements * (g.input_encoder_fp32_params > 0 ? 4.0 : compute_bytes(p)),
                     g.input_encoder_attention_fp32_elements * 4.0);
    }
    if (c.offload_optimizer) {
        // ZeRO-Offload (Ren et al. 2021, sec. 4.1): fp32 master parameters, fp32 gradients and optimizer states
        // live in host memory; the GPU keeps its 16-bit (or fp32) parameters and gradients.
        m.host_ram_bytes = m.optimizer_bytes + rank_trainable / (z1 ? n : 1.0) * (4.0 + 4.0);
        m.optimizer_bytes = 0;
    }

    m.saved_per_sample_bytes = w.saved_per_sample;
    m.kept_per_sample_bytes = w.kept_per_sample;
    m.host_activation_per_sample_bytes = w.host_per_sample;
    m.autocast_copy_bytes = w.autocast_copies;
    m.segments = w.segments;
    {
        // Distribute gradient bytes over segments in proportion to their trainable parameters.
        std::size_t si = 0;
        std::int32_t current = -2;
        bool first = true;
        for (std::size_t li = 0; li < g.layers.size(); ++li) {
            const Layer& l = g.layers[li];
            if (stages[li] != stage) continue;
            if (first || l.block != current) {
                if (!first) ++si;
                first = false;
                current = l.block;
            }
            const double own = rank_params(l, c, stage > 0);
            double grad_bytes = layer_trainable(l, c) ? own * gb : 0;
            if (is_lora_target(l, c))
                grad_bytes += double(c.lora.rank) * (l.in_features + l.out_features) * l.experts * 4.0;
            if (si < m.segments.size()) m.segments[si].grad_bytes += z2 ? grad_bytes / n : grad_bytes;
        }
    }
    // Loss over a vocabulary (or classes): forward keeps the logits in the compute dtype plus an fp32 copy
    // (Llama's logits.float(), or the shifted .contiguous() copy) until log_softmax ran; backward creates the
    // fp32 gradient of the log-probabilities (nll_loss_backward) and log_softmax_backward's fp32 result
    // (aten/src/ATen/native/LossNLL.cpp, SoftMax.cpp).
    // Only the last pipeline stage computes the loss; a vocab-parallel head splits the logits among the ranks.
    const bool has_loss = stage == c.pipeline_parallel - 1 || c.pipeline_parallel <= 1;
    const double logits = has_loss ? g.logits_elements / (g.logits_tp_split ? tp : 1.0) : 0.0;
    // An evaluation forward (no_grad) materialises the same logits and fp32 copy whatever the training loss
    // kernel: Liger's fused loss runs only in training (LigerForCausalLM: skip_logits = self.training and labels).
    m.eval_logits_per_sample_bytes = logits * (compute_bytes(p) + 4.0);
    switch (c.loss_kernel) {
        case LossKernel::kEager:
            m.loss_forward_per_sample_bytes = logits * (compute_bytes(p) + 4.0);
            m.loss_backward_per_sample_bytes = logits * (4.0 + 4.0);
            break;
        case LossKernel::kChunked: {
            // torchtune CEWithChunkedOutputLoss (torchtune/modules/loss/ce_chunked_output_loss.py, num_output_chunks
            // = 8): the head's outputs (all chunks, compute dtype) live until the loss is summed; each chunk is
            // upcast (logits.float()) on its own, and log_softmax keeps its fp32 output (the graph's saved tensor,
            // as for the eager loss). Backward makes the fp32 gradients of one chunk at a time (nll_loss_backward,
            // log_softmax_backward) and its cast back to the compute dtype.
            constexpr double kChunks = 8.0;
            m.loss_forward_per_sample_bytes = logits * (compute_bytes(p) + 4.0 / kChunks);
            m.loss_backward_per_sample_bytes = logits * (4.0 + 4.0 + compute_bytes(p)) / kChunks;
            // Compiled: the chunks are the saved tensors (counted in the walk); one fused kernel per chunk makes
            // its fp32 values in registers and writes the chunk's 16-bit gradient.
            if (c.compiled_loss) {
                m.loss_forward_per_sample_bytes = 0;
                m.loss_backward_per_sample_bytes = logits * compute_bytes(p) / kChunks;
            }
            break;
        }
        case LossKernel::kFused: {
            // Liger's fused_linear_cross_entropy_forward (liger_kernel/ops/fused_linear_cross_entropy.py): the
            // tokens run in chunks of next_power_of_2(ceil(BT / ceil(V / H))) rows; per chunk the logits (compute
            // dtype) and their fp32 upcast exist, the gradient is written in place; grad_input (BT x H, compute
            // dtype) is made in the forward and kept for the backward. No vocabulary-sized tensor is saved.
            double rows = 0, vocab = 0, hidden = 0;
            for (const Layer& l : g.layers)
                if (l.role == ParamRole::kHead && l.kind == OpKind::kMatmul && l.out_features > 0) {
                    rows = l.tokens, vocab = l.out_features, hidden = l.in_features;
                }
            if (vocab > 0 && hidden > 0 && logits > 0) {
                const double inc = std::ceil(vocab / hidden);
                const double chunk = std::min(rows, std::exp2(std::ceil(std::log2(std::max(1.0, std::ceil(rows / inc))))));
                const double grad_input = rows * hidden * compute_bytes(p);
                m.loss_forward_per_sample_bytes = chunk * vocab * (compute_bytes(p) + 4.0) + grad_input;
                m.loss_backward_per_sample_bytes = grad_input;
            } else {  // no vocabulary head (a classifier): the eager loss
                m.loss_forward_per_sample_bytes = logits * (compute_bytes(p) + 4.0);
                m.loss_backward_per_sample_bytes = logits * (4.0 + 4.0);
            }
            break;
        }
    }
    // Optimizer step temporaries (torch/optim/adam.py _multi_tensor_adam: exp_avg_sq_sqrt = _foreach_sqrt(...),
    // one buffer per parameter in the state dtype; 8-bit AdamW runs a fused kernel per tensor).
    const double trainable_state_elems = rank_trainable / (z1 ? n : 1.0);
    // The largest tensor the step works on: the largest parameter tensor, but no larger than the largest trainable
    // layer (a frozen embedding is not stepped; LoRA steps adapters of rank x (in + out)).
    double largest_trainable_layer = 0;
    for (std::size_t li = 0; li < g.layers.size(); ++li) {
        const Layer& l = g.layers[li];
        if (stages[li] != stage) continue;
        if (layer_trainable(l, c))
            largest_trainable_layer = std::max(largest_trainable_layer, rank_params(l, c, stage > 0));
        if (is_lora_target(l, c))
            largest_trainable_layer = std::max(largest_trainable_layer,
                                               double(c.lora.rank) * (l.in_features + l.out_features));
    }
    const double largest_stepped = std::min(g.largest_param_tensor, largest_trainable_layer);
    switch (c.optimizer) {
        case Optimizer::kAdam:
        case Optimizer::kAdamW:
            // A for-loop step makes one tensor's temporaries at a time (under ZeRO/FSDP the tensors are the rank's
            // flat partitions, as large as its whole share: time.cpp); a fused kernel makes none.
            if (c.optimizer_impl == OptimizerImpl::kForLoop && !z1)
                m.optimizer_temp_bytes = c.tunables.optimizer_temp_fraction * largest_stepped * state_b;
            else if (c.optimizer_impl == OptimizerImpl::kFused)
                m.optimizer_temp_bytes = 0;
            else
                m.optimizer_temp_bytes = c.tunables.optimizer_temp_fraction * trainable_state_elems * state_b;
            break;
        case Optimizer::kLion:
        case Optimizer::kAdafactor:
            m.optimizer_temp_bytes = 2.0 * largest_stepped * 4.0;  // per-parameter update + its square
            break;
        default: m.optimizer_temp_bytes = 0; break;
    }
    if (c.offload_optimizer) m.optimizer_temp_bytes = 0;
    return m;
}

}  // namespace

// ---- evaluate ----------------------------------------------------------------------------------------------
namespace {

struct Peak {
    double forward_end = 0, backward = 0, step = 0;
    double activations_at_peak = 0, gradients_at_peak = 0, temporary_at_peak = 0;
    PeakPhase phase = PeakPhase::kBackward;
    double allocated = 0;
};

Peak compute_peak(const PreparedMemory& m, double batch) {
    const TrainingConfig& c = m.config;
    Peak pk;
    // Paged optimizer states (bitsandbytes, unified memory) are evicted to host RAM while the forward and
    // backward need the room, and paged back in for the step: they count in the step's phase only.
    const double paged_out = c.paged_optimizer && !c.offload_optimizer ? m.optimizer_bytes : 0.0;
    const double states = m.weight_bytes + m.input_encoder_bytes + m.optimizer_bytes - paged_out + m.ema_bytes +
                          m.ddp_bucket_bytes + m.gathered_bytes + m.dp_gpu0_per_sample_bytes() * batch;
    // A pipeline stage also holds what the other micro-batches in flight kept for their backward (1F1B schedule).
    const double stash = (m.in_flight - 1.0) * (m.kept_per_sample_bytes * batch + m.autocast_copy_bytes);
    // zero_grad(set_to_none=True) is the default since torch 2.0 (torch/optim/optimizer.py): gradients exist
    // before backward only while accumulating over micro-batches.
    const double grads_before =
        (c.grad_accum_steps > 1 || !c.tunables.zero_grad_set_to_none) ? m.grad_bytes : 0;
    const double kept = m.kept_per_sample_bytes * batch + m.autocast_copy_bytes;
    const double kept_all = kept + stash;  // what is kept for backward, the stage's other micro-batches included
    const double loss_fwd = m.loss_forward_per_sample_bytes * batch;
    const double loss_bwd = m.loss_backward_per_sample_bytes * batch;
    // SD pipelines: the frozen VAE encoder runs first, before any UNet activation exists (counted with the forward,
    // its activations as temporaries).
    const double encoding = m.input_encoder_transient_per_sample_bytes * batch;
    const bool encoder_peak = encoding > kept_all + loss_fwd;
    pk.forward_end = states + grads_before + (encoder_peak ? encoding : kept_all + loss_fwd);
    const double dq = m.dequant_temp_bytes;
    // Backward, segment by segment from the last: earlier segments still hold what they kept, this segment
    // holds everything it saved (recomputed under checkpointing), later segments' gradients exist.
    double best = states + grads_before + kept_all + loss_bwd;
    double best_act = kept_all, best_grad = grads_before, best_tmp = loss_bwd;
    double kept_before = kept;
    double grads_after = 0;
    for (std::size_t i = m.segments.size(); i-- > 0;) {
        const Segment& s = m.segments[i];
        kept_before -= s.kept_per_sample_bytes * batch + s.kept_const_bytes;
        grads_after += s.grad_bytes;
        const double act = stash + kept_before + s.full_per_sample_bytes * batch + s.kept_const_bytes;
        const double grad = std::max(grads_before, grads_after);
        const double tmp = s.transient_per_sample_bytes * batch + dq;
        const double live = states + act + grad + tmp;
        if (live > best) {
            best = live;
            best_act = act;
            best_grad = grad;
            best_tmp = tmp;
        }
    }
    pk.backward = best;
    pk.step = states + paged_out + m.grad_bytes + m.optimizer_temp_bytes;
    pk.allocated = std::max({pk.forward_end, pk.backward, pk.step});
    if (pk.allocated == pk.backward) {
        pk.phase = PeakPhase::kBackward;
        pk.activations_at_peak = best_act;
        pk.gradients_at_peak = best_grad;
        pk.temporary_at_peak = best_tmp;
    } else if (pk.allocated == pk.forward_end) {
        pk.phase = PeakPhase::kForwardEnd;
        pk.activations_at_peak = encoder_peak ? 0 : kept_all;
        pk.gradients_at_peak = grads_before;
        pk.temporary_at_peak = encoder_peak ? encoding : loss_fwd;
    } else {
        pk.phase = PeakPhase::kOptimizerStep;
        pk.gradients_at_peak = m.grad_bytes;
        pk.temporary_at_peak = m.optimizer_temp_bytes;
    }
    const double workspaces = c.tunables.cublas_workspace_bytes + c.tunables.cudnn_workspace_bytes;
    pk.allocated += workspaces;
    return pk;
}

double stage_required_bytes(const PreparedMemory& m, double batch) {
    const Peak pk = compute_peak(m, batch);
    return pk.allocated * (1.0 + m.config.tunables.fragmentation_fraction) + m.config.tunables.cuda_context_bytes;
}

}  // namespace

double required_bytes(const PreparedMemory& m, double batch) {
    double r = stage_required_bytes(m, batch);
    for (const PreparedMemory& s : m.last_stage) r = std::max(r, stage_required_bytes(s, batch));
    return r;
}

MemoryReport evaluate_memory(const PreparedMemory& m, double batch, double card_memory_bytes,
                             bool owned_display_card) {
    for (const PreparedMemory& s : m.last_stage)
        if (stage_required_bytes(s, batch) > stage_required_bytes(m, batch))
            return evaluate_memory(s, batch, card_memory_bytes, owned_display_card);
    const TrainingConfig& c = m.config;
    MemoryReport r;
    r.pipeline_stage = m.stage;
    r.in_flight_micro_batches = m.in_flight;
    r.params_total = m.params_total;
    r.params_trainable = m.params_trainable;
    r.params_per_gpu = m.rank_params + m.params_lora;
    const Peak pk = compute_peak(m, batch);
    r.weights = {m.weight_bytes + m.gathered_bytes + m.input_encoder_bytes, "weights",
                 {{"params_total", m.params_total},
                  {"params_lora", m.params_lora},
                  {"bytes_per_param", m.weight_bytes_per_param},
                  {"gpu_count", double(c.gpu_count)},
                  {"data_parallel", double(data_parallel(c))},
                  {"params_per_gpu", m.rank_params + m.params_lora},
                  {"sharded_bytes", m.weight_bytes},
                  {"gathered_unit_bytes", m.gathered_bytes}}};
    if (m.input_encoder_bytes > 0) r.weights.operands.push_back({"input_encoder_bytes", m.input_encoder_bytes});
    r.gradients = {m.grad_bytes + m.ddp_bucket_bytes, "gradients",
                   {{"params_trainable", m.params_trainable},
                    {"bytes_per_param", m.grad_bytes_per_param},
                    {"gpu_count", double(c.gpu_count)},
                    {"data_parallel", double(data_parallel(c))},
                    {"ddp_bucket_bytes", m.ddp_bucket_bytes}}};
    r.optimizer = {m.optimizer_bytes + m.ema_bytes, "optimizer_states",
                   {{"params_trainable", m.params_trainable},
                    {"state_bytes_per_param", m.state_bytes_per_param},
                    {"gpu_count", double(c.gpu_count)},
                    {"data_parallel", double(data_parallel(c))},
                    {"offloaded", c.offload_optimizer ? 1.0 : 0.0},
                    {"ema_bytes", m.ema_bytes}}};
    r.autocast_weight_copies = {m.autocast_copy_bytes, "autocast_weight_copies", {{"bytes", m.autocast_copy_bytes}}};
    r.activations = {m.in_flight * (m.kept_per_sample_bytes * batch + m.autocast_copy_bytes), "saved_activations",
                     {{"batch", batch},
                      {"in_flight_micro_batches", m.in_flight},
                      {"tensor_parallel", double(c.tensor_parallel)},
                      {"saved_per_sample_bytes", m.saved_per_sample_bytes},
                      {"kept_per_sample_bytes", m.kept_per_sample_bytes},
                      {"autocast_weight_copy_bytes", m.autocast_copy_bytes}}};
    r.temporary = {pk.temporary_at_peak, "temporaries_at_peak",
                   {{"dequantized_weight_bytes", m.dequant_temp_bytes},
                    {"loss_forward_bytes", m.loss_forward_per_sample_bytes * batch},
                    {"loss_backward_bytes", m.loss_backward_per_sample_bytes * batch},
                    {"input_encoder_forward_bytes", m.input_encoder_transient_per_sample_bytes * batch},
                    {"optimizer_step_bytes", m.optimizer_temp_bytes}}};
    const double ws = c.tunables.cublas_workspace_bytes + c.tunables.cudnn_workspace_bytes;
    r.framework = {ws + c.tunables.cuda_context_bytes, "framework",
                   {{"cuda_context_bytes", c.tunables.cuda_context_bytes},
                    {"cublas_workspace_bytes", c.tunables.cublas_workspace_bytes},
                    {"cudnn_workspace_bytes", c.tunables.cudnn_workspace_bytes}}};
    r.peak_phase = pk.phase;
    r.peak_allocated = {pk.allocated, "peak_allocated",
                        {{"forward_end_bytes", pk.forward_end + ws},
                         {"backward_bytes", pk.backward + ws},
                         {"optimizer_step_bytes", pk.step + ws},
                         {"activations_at_peak", pk.activations_at_peak},
                         {"gradients_at_peak", pk.gradients_at_peak},
                         {"temporary_at_peak", pk.temporary_at_peak},
                         {"workspace_bytes", ws}}};
    const double reserved = pk.allocated * (1.0 + c.tunables.fragmentation_fraction);
    r.reserved = {reserved, "reserved",
                  {{"peak_allocated", pk.allocated}, {"fragmentation_fraction", c.tunables.fragmentation_fraction}}};
    r.nvidia_smi = {reserved + c.tunables.cuda_context_bytes, "nvidia_smi",
                    {{"reserved", reserved}, {"cuda_context_bytes", c.tunables.cuda_context_bytes}}};
    r.host_activation_bytes = m.host_activation_per_sample_bytes * batch * m.in_flight;
    // Each offloaded block input crosses PCIe twice per micro-batch (out after the forward, back for backward).
    r.offload_pcie_bytes_per_step = 2.0 * r.host_activation_bytes * c.grad_accum_steps;
    r.host_ram_bytes = m.host_ram_bytes + r.host_activation_bytes;
    r.card_memory_bytes = card_memory_bytes;
    r.verdict = judge_fit(r.nvidia_smi.bytes, card_memory_bytes,
                          job_headroom(m, batch, card_memory_bytes, owned_display_card));
    r.usable_bytes = card_memory_bytes > 0 ? r.verdict.usable_bytes() : 0.0;
    r.fits = card_memory_bytes > 0 && r.verdict.verdict == Verdict::kFits;
    r.fits_without_reserve = card_memory_bytes > 0 && r.verdict.verdict != Verdict::kDoesNotFit;
    return r;
}

// ---- verdict -----------------------------------------------------------------------------------------------
const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::kFits: return "fits";
        case Verdict::kTight: return "tight";
        case Verdict::kDoesNotFit: return "does_not_fit";
    }
    return "does_not_fit";
}

FitVerdict judge_fit(double required, double card, const Headroom& headroom) {
    FitVerdict v;
    v.required_bytes = required;
    v.card_bytes = card;
    v.headroom = headroom;
    if (!(card > 0) || !(required + headroom.allocated_bytes() <= card)) v.verdict = Verdict::kDoesNotFit;
    else if (required + headroom.total_bytes() <= card) v.verdict = Verdict::kFits;
    else v.verdict = Verdict::kTight;
    return v;
}

bool segment_has_display(const std::string& segment) { return segment == "consumer" || segment == "workstation"; }

// A desktop drawn by the training card, as nvidia-smi counts it before the job starts:
//  - Windows: 793 MiB = 830 MiB on the RTX 3090 that drives the display ("Disp.A On") less 37 MiB on the idle
//    RTX 3090 beside it in the same machine (github.com/noonghunna/club-3090 issue #32, driver 596.36, 2026);
//  - Linux: Xorg 28 MiB + gnome-shell 46 MiB = 74 MiB for a bare GNOME session (github.com/NVIDIA/nvidia-docker
//    issue #1264, nvidia-smi -q "Processes"). Browsers with hardware acceleration add hundreds of MiB to GiBs
//    (Firefox 2108 MiB: Comfy-Org/ComfyUI_frontend issue #3272), which no default can know.
// kAuto counts the Windows figure on an owned card with display outputs: the larger measured desktop, as the
// operating system is not known.
constexpr double kWindowsDesktopBytes = 793.0 * (1 << 20);
constexpr double kLinuxDesktopBytes = (28.0 + 46.0) * (1 << 20);

double display_bytes(Display d, bool owned_display_card) {
    switch (d) {
        case Display::kNone: return 0;
        case Display::kLinuxDesktop: return kLinuxDesktopBytes;
        case Display::kWindowsDesktop: return kWindowsDesktopBytes;
        case Display::kAuto: return owned_display_card ? kWindowsDesktopBytes : 0.0;
    }
    return 0;
}

// An evaluation pass between steps (transformers Trainer.evaluate -> prediction_step under torch.no_grad, after
// zero_grad(set_to_none=True)): weights, optimizer states and any accumulated gradients stay; no activation is
// kept, so at most one block's tensors exist at a time (a segment's full saved bytes bound what it holds), plus the
// full-vocabulary logits and their fp32 copy (the model's forward with labels). The headroom is the amount by
// which that exceeds the training peak.
double evaluation_extra_bytes(const PreparedMemory& m, double batch) {
    const TrainingConfig& c = m.config;
    if (c.eval_batch <= 0) return 0;
    double largest_segment = 0;
    for (const Segment& s : m.segments) largest_segment = std::max(largest_segment, s.full_per_sample_bytes);
    const double states = m.weight_bytes + m.input_encoder_bytes + m.optimizer_bytes + m.ema_bytes +
                          m.ddp_bucket_bytes + m.gathered_bytes;
    const double grads = c.grad_accum_steps > 1 || !c.tunables.zero_grad_set_to_none ? m.grad_bytes : 0.0;
    const double eval_allocated = states + grads +
                                  c.eval_batch * (largest_segment + m.eval_logits_per_sample_bytes) +
                                  c.tunables.cublas_workspace_bytes + c.tunables.cudnn_workspace_bytes;
    const double eval_required = eval_allocated * (1.0 + c.tunables.fragmentation_fraction) +
                                 c.tunables.cuda_context_bytes;
    return std::max(0.0, eval_required - required_bytes(m, batch));
}

// ---- memory over one training step ----------------------------------------------------------------------------
const char* step_point_name(StepPoint point) {
    switch (point) {
        case StepPoint::kStart: return "start";
        case StepPoint::kForwardEnd: return "forward_end";
        case StepPoint::kLossBackward: return "loss_backward";
        case StepPoint::kBackward: return "backward";
        case StepPoint::kOptimizerStep: return "optimizer_step";
        case StepPoint::kEvaluation: return "evaluation";
    }
    return "start";
}

// compute_peak's phases point by point, with its terms kept apart (the same expressions; a test checks that the
// largest training point is compute_peak's allocated bytes), and evaluation_extra_bytes's pass after them.
MemoryTimeline memory_timeline(const PreparedMemory& first, double batch) {
    const PreparedMemory* chosen = &first;  // the stage evaluate_memory reports
    for (const PreparedMemory& s : first.last_stage)
        if (stage_required_bytes(s, batch) > stage_required_bytes(first, batch)) chosen = &s;
    const PreparedMemory& m = *chosen;
    const TrainingConfig& c = m.config;
    MemoryTimeline tl;
    tl.pipeline_stage = m.stage;
    const double paged_out = c.paged_optimizer && !c.offload_optimizer ? m.optimizer_bytes : 0.0;
    const double weights = m.weight_bytes + m.input_encoder_bytes + m.gathered_bytes;
    const double optimizer = m.optimizer_bytes - paged_out + m.ema_bytes;
    const double stash = (m.in_flight - 1.0) * (m.kept_per_sample_bytes * batch + m.autocast_copy_bytes);
    const double grads_before = (c.grad_accum_steps > 1 || !c.tunables.zero_grad_set_to_none) ? m.grad_bytes : 0;
    const double kept = m.kept_per_sample_bytes * batch + m.autocast_copy_bytes;
    const double kept_all = kept + stash;
    const double loss_fwd = m.loss_forward_per_sample_bytes * batch;
    const double loss_bwd = m.loss_backward_per_sample_bytes * batch;
    const double encoding = m.input_encoder_transient_per_sample_bytes * batch;
    const bool encoder_peak = encoding > kept_all + loss_fwd;
    const double ws = c.tunables.cublas_workspace_bytes + c.tunables.cudnn_workspace_bytes;
    auto add = [&](StepPoint p, int segment, double optimizer_bytes, double grads, double act, double tmp) {
        TimelinePoint x;
        x.point = p;
        x.segment = segment;
        x.weights_bytes = weights;
        x.optimizer_bytes = optimizer_bytes;
        x.gradients_bytes = m.ddp_bucket_bytes + grads;
        x.activations_bytes = act;
        x.temporary_bytes = tmp + m.dp_gpu0_per_sample_bytes() * batch;  // DataParallel's batch and outputs on GPU 0
        x.workspace_bytes = ws;
        tl.points.push_back(x);
    };
    add(StepPoint::kStart, -1, optimizer, grads_before, stash, 0);
    add(StepPoint::kForwardEnd, -1, optimizer, grads_before, encoder_peak ? 0 : kept_all, encoder_peak ? encoding : loss_fwd);
    add(StepPoint::kLossBackward, -1, optimizer, grads_before, kept_all, loss_bwd);
    double kept_before = kept;
    double grads_after = 0;
    for (std::size_t i = m.segments.size(); i-- > 0;) {
        const Segment& s = m.segments[i];
        kept_before -= s.kept_per_sample_bytes * batch + s.kept_const_bytes;
        grads_after += s.grad_bytes;
        add(StepPoint::kBackward, static_cast<int>(i), optimizer, std::max(grads_before, grads_after),
            stash + kept_before + s.full_per_sample_bytes * batch + s.kept_const_bytes,
            s.transient_per_sample_bytes * batch + m.dequant_temp_bytes);
    }
    add(StepPoint::kOptimizerStep, -1, optimizer + paged_out, m.grad_bytes, 0, m.optimizer_temp_bytes);
    // The peak as compute_peak names it: on equal bytes the backward wins, then the forward's end, then the step.
    auto preference = [](StepPoint p) {
        return p == StepPoint::kBackward || p == StepPoint::kLossBackward ? 0 : p == StepPoint::kForwardEnd ? 1
               : p == StepPoint::kOptimizerStep                           ? 2 : 3;
    };
    for (std::size_t i = 0; i < tl.points.size(); ++i) {
        const double bytes = tl.points[i].allocated_bytes(), best = tl.points[tl.peak_index].allocated_bytes();
        if (bytes > best || (bytes == best && preference(tl.points[i].point) < preference(tl.points[tl.peak_index].point)))
            tl.peak_index = static_cast<int>(i);
    }
    if (c.eval_batch > 0) {  // as evaluation_extra_bytes: no activation kept, one segment's tensors plus the logits
        double largest_segment = 0;
        for (const Segment& s : m.segments) largest_segment = std::max(largest_segment, s.full_per_sample_bytes);
        add(StepPoint::kEvaluation, -1, m.optimizer_bytes + m.ema_bytes, grads_before, 0,
            c.eval_batch * (largest_segment + m.eval_logits_per_sample_bytes));
    }
    return tl;
}

Headroom job_headroom(const PreparedMemory& m, double batch, double card, bool owned_display_card) {
    const TrainingConfig& c = m.config;
    Headroom h;
    h.display_bytes = display_bytes(c.display, owned_display_card);
    h.display_assumed = c.display == Display::kAuto;
    // The longest sample's extra scales with the micro-batch (activations are per sample); packing makes every
    // sequence seq_len long, so there is none.
    if (!c.packing && c.long_sample_extra_bytes > 0 && c.batch > 0)
        h.long_sample_bytes = c.long_sample_extra_bytes * batch / c.batch;
    h.evaluation_bytes = evaluation_extra_bytes(m, batch);
    h.reserve_bytes = card > 0 ? card * c.reserve_fraction : 0.0;
    return h;
}

FitVerdict judge_job(const PreparedMemory& m, double batch, double card, bool owned_display_card) {
    return judge_fit(required_bytes(m, batch), card, job_headroom(m, batch, card, owned_display_card));
}

// ---- solver ------------------------------------------------------------------------------------------------
std::vector<int> max_batch_sizes(const PreparedMemory& m, const std::vector<double>& cards, int batch_limit,
                                 bool owned_display_card) {
    std::vector<int> out(cards.size(), 0);
    for (std::size_t i = 0; i < cards.size(); ++i) {
        const auto fits = [&](int b) {
            return judge_job(m, b, cards[i], owned_display_card).verdict == Verdict::kFits;
        };
        if (!fits(1)) continue;
        int lo = 1, hi = 2;
        while (hi <= batch_limit && fits(hi)) {
            lo = hi;
            hi *= 2;
        }
        hi = std::min(hi, batch_limit + 1);
        while (hi - lo > 1) {  // invariant: lo fits, hi does not (or is past the limit)
            const int mid = lo + (hi - lo) / 2;
            if (fits(mid)) lo = mid; else hi = mid;
        }
        out[i] = lo;
    }
    return out;
}

std::vector<int> max_shapes_that_fit(const ModelSpec& spec, const TrainingConfig& c, const std::vector<double>& cards,
                                     bool image, int step, int upper_limit) {
    assert(step > 0 && "max_shapes_that_fit: step must be positive (e.g. 1 for tokens, 32 for image sizes)");
    std::vector<std::pair<int, double>> memo;  // probe (in steps) -> required bytes; few entries, linear scan
    auto required_at = [&](int v) {
        for (const auto& [k, r] : memo)
            if (k == v) return r;
        WorkloadShape s;
        s.batch = 1;
        (image ? s.image_size : s.seq_len) = v * step;
        BuildOptions o;
        o.eager_attention = c.eager_attention;
        const double r = required_bytes(prepare_memory(build_graph(spec, s, o), c), c.batch);
        memo.emplace_back(v, r);
        return r;
    };
    std::vector<int> out(cards.size(), 0);
    for (std::size_t i = 0; i < cards.size(); ++i) {
        // The headroom of this job on the card, less the longest-sample term (the shape is what is searched).
        Headroom h;
        h.display_bytes = display_bytes(c.display, false);
        h.reserve_bytes = cards[i] * c.reserve_fraction;
        const double usable = cards[i] - h.total_bytes();
        if (required_at(1) > usable) continue;
        int lo = 1, hi = upper_limit / step + 1;  // lo fits, hi does not (or is past the limit)
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            if (required_at(mid) <= usable) lo = mid; else hi = mid;
        }
        out[i] = lo * step;
    }
    return out;
}

int max_shape_that_fits(const ModelSpec& spec, const TrainingConfig& c, double card, bool image, int step,
                        int upper_limit) {
    return max_shapes_that_fit(spec, c, {card}, image, step, upper_limit)[0];
}

}  // namespace gg::engine
