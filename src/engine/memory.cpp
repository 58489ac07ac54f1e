// The training-memory engine (see memory.h): prepare turns a graph and a configuration into the bytes of every
// term (weights, gradients, optimizer states, saved activations, loss and step temporaries, sharding); evaluate
// finds the phase of the step where the peak happens. The per-layer terms are in memory_terms.cpp, the verdict,
// timeline and solver in memory_fit.cpp. Every formula cites its source; docs/memory-model.md explains the ids.
// No JSON, no UI.
#include "engine/memory.h"
#include "engine/memory_detail.h"
#include "engine/data_parallel.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace gg::engine {

using namespace memory_detail;  // the helpers memory_detail.h declares

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

// SD pipelines (diffusers examples/text_to_image/train_text_to_image_lora.py @04a375b7, train_dreambooth*.py):
// vae.to(device, dtype=weight_dtype) and text_encoder.to(device, dtype=weight_dtype), weight_dtype = fp16/bf16
// under mixed precision, else fp32; SDXL's scripts keep the VAE in fp32. Every rank holds them whole (they are
// not wrapped for DDP/FSDP). Their forward runs before the UNet's: its largest activations, with the model states
// (and accumulated gradients), are a peak candidate of their own (compute_peak).
void add_input_encoder_bytes(const Graph& g, const TrainingConfig& c, int stage, PreparedMemory& m) {
    const Precision p = c.precision;
    if (!c.precomputed_latents && stage == 0) {
        m.input_encoder_bytes = g.input_encoder_params * compute_bytes(p) + g.input_encoder_fp32_params * 4.0;
        m.input_encoder_transient_per_sample_bytes =
            std::max(g.input_encoder_transient_elements * (g.input_encoder_fp32_params > 0 ? 4.0 : compute_bytes(p)),
                     g.input_encoder_attention_fp32_elements * 4.0);
    }
}

// Distribute gradient bytes over segments in proportion to their trainable parameters.
void add_segment_grad_bytes(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage,
                            double gb, bool z2, double n, PreparedMemory& m) {
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
void add_loss_bytes(const Graph& g, const TrainingConfig& c, int stage, PreparedMemory& m) {
    const double tp = std::max(1, c.tensor_parallel);
    const Precision p = c.precision;
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
}

// Optimizer step temporaries (torch/optim/adam.py _multi_tensor_adam: exp_avg_sq_sqrt = _foreach_sqrt(...),
// one buffer per parameter in the state dtype; 8-bit AdamW runs a fused kernel per tensor).
void add_optimizer_temp_bytes(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage,
                              double rank_trainable, bool z1, double n, double state_b, PreparedMemory& m) {
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
            // flat partitions, as large as its whole share: time_prepare.cpp); a fused kernel makes none.
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
}

PreparedMemory prepare_stage(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage,
                             const Walk& w) {
    PreparedMemory m;
    m.config = c;
    m.stage = stage;
    m.in_flight = pipeline_in_flight(stage, c.pipeline_parallel, c.pipeline_interleave, c.grad_accum_steps);
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
    add_input_encoder_bytes(g, c, stage, m);
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
    add_segment_grad_bytes(g, c, stages, stage, gb, z2, n, m);
    add_loss_bytes(g, c, stage, m);
    add_optimizer_temp_bytes(g, c, stages, stage, rank_trainable, z1, n, state_b, m);
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
    // Backward (walk_backward, memory_detail.h): the fullest segment.
    double best = states + grads_before + kept_all + loss_bwd;
    double best_act = kept_all, best_grad = grads_before, best_tmp = loss_bwd;
    walk_backward(m, batch, stash, kept, grads_before, [&](std::size_t, double act, double grad, double tmp) {
        const double live = states + act + grad + tmp;
        if (live > best) {
            best = live;
            best_act = act;
            best_grad = grad;
            best_tmp = tmp;
        }
    });
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

}  // namespace

double memory_detail::stage_required_bytes(const PreparedMemory& m, double batch) {
    const Peak pk = compute_peak(m, batch);
    return pk.allocated * (1.0 + m.config.tunables.fragmentation_fraction) + m.config.tunables.cuda_context_bytes;
}

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

}  // namespace gg::engine
