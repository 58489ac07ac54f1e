// The training-memory engine: per-card bytes for weights, gradients, optimizer states, saved activations,
// temporaries and framework overheads, the peak as torch.cuda.max_memory_allocated sees it and as nvidia-smi
// sees it, the three-step verdict against a card (fits / tight / does not fit, with the headroom a real run needs),
// and a solver for the largest micro-batch / sequence / image that fits.
// Every figure carries a formula id and its named operands (data, not prose). Pure C++: no JSON, no UI.
//
// Sections: configuration | explained figures | verdict | report | prepare/evaluate | solver
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/workload.h"

namespace gg::engine {

// ---- configuration ---------------------------------------------------------------------------------------
enum class Precision : std::uint8_t { kFp32, kTf32, kFp16Amp, kBf16Amp, kBf16, kFp8, kInt8, kNf4 };
enum class Optimizer : std::uint8_t { kSgd, kSgdMomentum, kAdam, kAdamW, kAdamW8bit, kAdafactor, kLion };
enum class Method : std::uint8_t { kFull, kFrozenBackbone, kLora, kQlora };
enum class Checkpointing : std::uint8_t { kNone, kSelective, kFull };
// kDp: torch.nn.DataParallel, one process driving every card through GPU 0 (engine/data_parallel.h).
enum class Strategy : std::uint8_t { kDdp, kZero1, kZero2, kZero3, kFsdp, kDp };
// How the optimizer step runs over the parameter tensors (torch.optim docs, "Algorithms" / foreach and fused):
//  kForeach: multi-tensor kernels over all tensors at once (torch >= 2.0's default on CUDA);
//  kForLoop: a Python loop with a few small kernels per tensor (torch < 2.0's default; transformers' own AdamW and
//            Adafactor), with the per-tensor gradient clipping of that era (clip_grad_norm_ before torch 2.0);
//  kFused:   one fused kernel (torch AdamW(fused=True), apex FusedAdam/FusedLAMB).
enum class OptimizerImpl : std::uint8_t { kForeach, kForLoop, kFused };

// How the loss over a vocabulary is computed (the fine-tuning stacks ship three kernels; memory.cpp models each):
//  kEager:   transformers' loss: the whole b x s x vocab logits, an fp32 copy, log_softmax's fp32 output kept for
//            backward (the Hugging Face Trainer, LLaMA-Factory and axolotl without the Liger kernel);
//  kChunked: torchtune's CEWithChunkedOutputLoss (num_output_chunks = 8): the head's output in 8 chunks, each
//            upcast to fp32 on its own; log_softmax still keeps fp32 outputs for every chunk;
//  kFused:   the head and the cross-entropy fused over chunks of tokens (Liger's LigerFusedLinearCrossEntropy,
//            Unsloth's fused loss): no full-vocabulary logits exist, the input gradient is made in the forward.
enum class LossKernel : std::uint8_t { kEager, kChunked, kFused };
// Which of a bitsandbytes (int8/nf4) model's unquantized modules are fp32 while it trains, and so which dtype its
// hidden states have (memory.cpp walk and prepare):
//  kNone:  all in the 16-bit torch_dtype (LLaMA-Factory: upcast_layernorm False by default; axolotl casts norms and
//          embeddings back to torch_dtype after prepare_model_for_kbit_training; Unsloth; torchtune);
//  kNorms: the norms fp32, embeddings and head 16-bit (trl's SFTTrainer with bf16=True: peft_module_casting_to_bf16
//          after prepare_model_for_kbit_training; artidoro/qlora.py with --bf16);
//  kAll:   every unquantized parameter fp32: peft prepare_model_for_kbit_training "cast all non INT8 parameters to
//          fp32" (the QLoRA notebooks; trl's SFTTrainer with fp16).
// With fp32 norm weights the norm's output is fp32 (weight * x promotes), a bitsandbytes Linear returns its input's
// dtype (Linear4bit.forward: out.to(inp_dtype)), so the residual stream, the q/k/v and MLP activations are fp32, and
// each quantized Linear keeps its own 16-bit cast of its input (x.to(compute_dtype), a new tensor per call).
enum class Fp32Modules : std::uint8_t { kNone, kNorms, kAll };
// What else draws on the card besides the training process (nvidia-smi "Disp.A On"): kAuto = a desktop when the
// card has display outputs and sits in the user's own machine (consumer and workstation cards), none otherwise.
enum class Display : std::uint8_t { kAuto, kNone, kLinuxDesktop, kWindowsDesktop };

// The implementation an optimizer actually runs: bitsandbytes' 8-bit AdamW and lion-pytorch's Lion only have a
// Python loop over the tensors (bitsandbytes optim/optimizer.py Optimizer8bit.step: for p in group["params"]:
// self.update_step(...); lion_pytorch.py: for p in group["params"]), so they loop whatever is asked; Adafactor
// (torch.optim.Adafactor, torch >= 2.5: foreach, no fused) falls back from fused to foreach; SGD, Adam and AdamW
// have all three (torch.optim docs).
OptimizerImpl effective_optimizer_impl(Optimizer optimizer, OptimizerImpl asked);

struct LoraConfig {
    int rank = 16;
    std::vector<ParamRole> targets;  // empty = PEFT's default for the family (q and v)
    double dropout = 0;              // peft LoraConfig.lora_dropout default 0.0 (peft/tuners/lora/config.py)
};

// Tunable factors: inputs with documented defaults (docs/memory-model.md gives the sources).
struct Tunables {
    // CUDA context + kernels loaded by the first CUDA call: not seen by torch.cuda.memory_allocated, seen by
    // nvidia-smi. "around 400MB if CUDA >= 11.7 is used and lazy module loading enabled (default in PyTorch)"
    // (ptrblck, pytorch/pytorch#109888, 2023); before CUDA 11.7 every kernel was loaded eagerly: >1000 MB
    // (pytorch/pytorch#107667), e.g. 1343 MiB on a V100 with CUDA 11.2 (HF "Efficient Training on a Single GPU").
    double cuda_context_bytes = 400.0 * (1 << 20);
    // Caching allocator: reserved = allocated * (1 + fragmentation_fraction) at the peak. No published
    // typical value was found: 0.10 is an assumption (docs/memory-model.md), to be replaced by measurements.
    double fragmentation_fraction = 0.10;
    // optimizer.zero_grad(set_to_none=True) frees gradients between steps (the default since torch 2.0,
    // torch/optim/optimizer.py); false (torch < 2.0 default, old HF Trainer) keeps them allocated all step.
    bool zero_grad_set_to_none = true;
    // cuBLAS workspace (allocated through the caching allocator, so inside peak_allocated):
    // aten/src/ATen/cuda/CublasHandlePool.cpp getChosenWorkspaceSize, default ":4096:2:16:8" = 2 x 4 MiB + 8 x 16 KiB.
    double cublas_workspace_bytes = 2.0 * 4096 * 1024 + 8.0 * 16 * 1024;
    // cuDNN convolution workspace (CNNs only; depends on the algorithm chosen): 0 unless set.
    double cudnn_workspace_bytes = 0;
    // foreach optimizer step temporaries, as a fraction of the optimizer-state dtype bytes of the trainable
    // parameters: torch 2.x _multi_tensor_adam allocates exp_avg_sq.sqrt() for every parameter (1x); torch 1.13
    // also allocated a separate denom list (2x; MEASURING.md). SGD-momentum / Lion: 1x of the update buffer.
    double optimizer_temp_fraction = 1.0;
};

struct TrainingConfig {
    double batch = 1;            // micro-batch per GPU
    int grad_accum_steps = 1;
    Precision precision = Precision::kFp32;
    Optimizer optimizer = Optimizer::kAdamW;
    OptimizerImpl optimizer_impl = OptimizerImpl::kForeach;
    Method method = Method::kFull;
    LoraConfig lora;
    Checkpointing checkpointing = Checkpointing::kNone;
    bool eager_attention = false;  // true: keep the s x s scores (BuildOptions::eager_attention)
    bool channels_last = false;    // activations in NHWC (torch.channels_last): no layout transposes around 16-bit
                                   // convolutions (time only; tensor sizes, hence memory, are the same)
    int gpu_count = 1;             // all GPUs: tensor_parallel x pipeline_parallel x data-parallel replicas
    Strategy strategy = Strategy::kDdp;  // across the data-parallel replicas
    // Megatron-LM model parallelism (Shoeybi et al. 2019; Narayanan et al. 2021; Korthikanti et al. 2022), for the
    // transformer families: each layer's heads and FFN width split over `tensor_parallel` GPUs, the layers over
    // `pipeline_parallel` stages (1F1B schedule; `pipeline_interleave` > 1 = the interleaved schedule with that
    // many model chunks per GPU), `sequence_parallel` splits the rest of each layer (norms, dropout, residuals)
    // along the sequence. grad_accum_steps = the pipeline's micro-batches per step. Mixed precision then means
    // Megatron's: a 16-bit model with fp32 master weights in the optimizer (Float16Module).
    int tensor_parallel = 1;
    int pipeline_parallel = 1;
    int pipeline_interleave = 1;
    bool sequence_parallel = false;
    bool offload_optimizer = false;  // ZeRO-Offload: optimizer states (and fp32 master/grads) in host RAM
    // An exponential moving average of the trainable weights, kept on the GPU in the parameters' dtype for the whole
    // run and updated after every optimizer step by a loop over the tensors: Ultralytics ModelEMA (a deepcopy of
    // the fp32 model), timm ModelEmaV2, diffusers EMAModel (shadow_params = p.clone() per parameter).
    bool ema_weights = false;
    // SD pipelines: VAE latents and text embeddings computed before training (MosaicML's diffusion repo), so the
    // frozen encoders neither run per step nor sit on the GPU; false = diffusers' scripts, which encode every step.
    bool precomputed_latents = false;
    // Under fp16/bf16 autocast: the frozen (non-trainable) parameters are stored in the 16-bit compute dtype, so
    // autocast makes no copies of them (diffusers' LoRA scripts: unet.to(accelerator.device, dtype=weight_dtype);
    // a model loaded with torch_dtype=float16/bfloat16 before peft adds its fp32 adapters). false = the model was
    // loaded in fp32 (transformers' default) and only autocast runs in 16 bits.
    bool frozen_weights_16bit = false;
    // ---- what the fine-tuning stacks switch (scenario `stack` and its options; docs/memory-model.md sec. 10)
    LossKernel loss_kernel = LossKernel::kEager;
    // Offloaded activation checkpointing (Unsloth's use_gradient_checkpointing="unsloth", torchtune's
    // enable_activation_offloading): under full checkpointing the block inputs wait for backward in host RAM, and
    // cross PCIe twice (out after the block's forward, back before its backward); one block's stays on the GPU.
    bool offload_activations = false;
    // Unsloth's fused decoder-block kernels (Fast_RMS_Layernorm, LoRA_MLP, LoRA_QKV, fast_rope_embedding): a block
    // keeps the tensors TensorInfo::Kernels::kFusedOnly/kBoth name instead of transformers' eager set.
    bool fused_block_kernels = false;
    // bitsandbytes models only (int8/nf4): see Fp32Modules.
    Fp32Modules fp32_modules = Fp32Modules::kNone;
    // torch.compile of the loss (torchtune `compile: True` compiles the chunked loss, training.compile_loss): the
    // partitioner saves each chunk's 16-bit logits and recomputes log_softmax in backward instead of keeping its
    // fp32 output (AOTAutograd min-cut rematerialisation of pointwise ops). Only the chunked kernel is affected.
    bool compiled_loss = false;
    // Sample packing (LLaMA-Factory `packing`, axolotl `sample_packing`, trl `packing`, torchtune `packed`):
    // every sequence is seq_len tokens of concatenated samples, so no batch is longer than that and no token is
    // padding; without it a batch is padded to its longest sample (at most TrainingConfig's longest_seq_len).
    bool packing = false;
    // bitsandbytes paged optimizers (optim="paged_adamw_8bit" / "paged_adamw_32bit"): the optimizer states live in
    // CUDA unified memory and are evicted to host RAM when the forward/backward needs the room (bitsandbytes docs,
    // "Paged optimizers"), so only the optimizer step needs them on the card.
    bool paged_optimizer = false;
    // ---- headroom inputs for the verdict (judge_fit): what the engine does not model otherwise
    Display display = Display::kAuto;
    // Evaluation during training (HF `eval_strategy` != "no" with per_device_eval_batch_size): a no_grad forward
    // whose full-vocabulary logits are materialised while weights and optimizer states stay; 0 = no evaluation.
    int eval_batch = 0;
    // The longest sample, in tokens, when samples vary in length and are not packed (LLaMA-Factory cutoff_len):
    // 0 = every batch is seq_len long. The caller that builds graphs sets long_sample_extra_bytes from it.
    int longest_seq_len = 0;
    double long_sample_extra_bytes = 0;  // required_bytes at longest_seq_len less at seq_len (same micro-batch)
    // A margin the user asks for on top, as a fraction of the card (0 = none: the headroom terms above replace the
    // flat "keep 20% free" rule of thumb the guides this project started from gave).
    double reserve_fraction = 0;
    Tunables tunables;
};

// Data-parallel replicas: gpu_count / (tensor_parallel x pipeline_parallel) (at least 1).
int data_parallel(const TrainingConfig& config);
// What TrainingConfig::frozen_weights_16bit is when a job does not say: on for a Stable Diffusion UNet trained with
// LoRA under fp16/bf16 autocast, because diffusers' LoRA scripts cast the frozen UNet to the mixed-precision dtype
// (examples/text_to_image/train_text_to_image_lora.py: unet.to(accelerator.device, dtype=weight_dtype)); off
// otherwise (transformers loads fp32 unless told). The scenario's default and the advisor's mixed-precision change.
bool frozen_weights_16bit_default(Family family, Method method, Precision precision);
bool model_parallel(const TrainingConfig& config);  // tensor_parallel or pipeline_parallel > 1

// The share of a layer's or tensor's work and bytes one tensor-parallel rank holds: 1/t when Megatron splits it
// (`tp_split`: heads, FFN width, vocabulary) or sequence parallelism splits the rest along the sequence
// (Korthikanti et al. 2022, sec. 4.2.2); else 1 (replicated on every rank).
double tp_share(bool tp_split, const TrainingConfig& config);

// Which pipeline stage a layer runs on (0 .. pipeline_parallel - 1): blocks split evenly in order (Megatron's
// default layer assignment), what comes before the first block on the first stage, the rest on the last.
std::vector<int> layer_stages(const Graph& graph, int pipeline_parallel);

// Micro-batches whose saved activations a pipeline stage holds at once (Narayanan et al. 2021, sec. 2.2; Megatron
// schedules.py warm-up counts): 1F1B, stage i of p: min(p - i, m); interleaved with v chunks: (2(p - i - 1) +
// (v - 1)p + 1) chunks of 1/v of the stage, i.e. p + (p - 1)/v on the first stage (Korthikanti et al. 2022,
// sec. 4.2.3: "scaled by (1 + (p - 1)/(pm))"), capped by the m x v chunks a step has.
double pipeline_in_flight(int stage, int pipeline_parallel, int interleave, int micro_batches);

// ---- explained figures -------------------------------------------------------------------------------------
// A figure in bytes with the formula that made it: `formula` is a stable id (docs/memory-model.md lists them;
// the page translates them), operands are named numbers in base units.
struct Figure {
    double bytes = 0;
    const char* formula = "";
    std::vector<std::pair<const char*, double>> operands;
};

enum class PeakPhase : std::uint8_t { kForwardEnd, kBackward, kOptimizerStep };
const char* peak_phase_name(PeakPhase phase);  // "forward_end", "backward", "optimizer_step"

// ---- verdict ---------------------------------------------------------------------------------------------
// fits:   the job's nvidia-smi bytes plus the whole headroom fit the card;
// tight:  the job fits the card with every allocation the run is known to make (a desktop the user named, and the
//         longer of the longest sample's and the evaluation pass's extra: they come at different moments of the run),
//         but not with the whole headroom: a desktop assumed (Display::kAuto guesses Windows on an owned card with
//         display outputs), both of those terms together, the user's margin;
// does not fit: the job, or the job plus an allocation the run is known to make, is larger than the card. A
//         headroom term the user gave that alone passes the card makes the job fail when that moment comes (an OOM at
//         the first long sample or the first evaluation), so it cannot be "tight".
enum class Verdict : std::uint8_t { kFits, kTight, kDoesNotFit };
const char* verdict_name(Verdict verdict);  // "fits", "tight", "does_not_fit"

// What a real run needs on the card beyond what evaluate_memory models (the CUDA context, workspaces and the caching
// allocator's slack are already in the required bytes), each term from its own mechanism and source (memory.cpp).
struct Headroom {
    double display_bytes = 0;      // a desktop drawn by this card (Display)
    bool display_assumed = false;  // display_bytes is Display::kAuto's guess, not a desktop the user named
    double long_sample_bytes = 0;  // the longest sample's extra over seq_len (unpacked, variable-length samples)
    double evaluation_bytes = 0;   // an evaluation pass's extra over the training peak
    double reserve_bytes = 0;      // the user's own margin (TrainingConfig::reserve_fraction)
    double total_bytes() const { return display_bytes + long_sample_bytes + evaluation_bytes + reserve_bytes; }
    // What the run is known to allocate on top of its training peak at its worst moment: a desktop the user named
    // is always there; the longest sample comes in a training step and evaluation between steps, so the larger.
    double allocated_bytes() const {
        return (display_assumed ? 0.0 : display_bytes) +
               (long_sample_bytes > evaluation_bytes ? long_sample_bytes : evaluation_bytes);
    }
};

// The card less the whole headroom, at least 0: what every report, plan and reason shows as usable.
inline double usable_card_bytes(double card_bytes, const Headroom& headroom) {
    const double usable = card_bytes - headroom.total_bytes();
    return usable > 0 ? usable : 0.0;
}

struct FitVerdict {
    Verdict verdict = Verdict::kDoesNotFit;
    double required_bytes = 0;  // nvidia-smi bytes of the job
    double card_bytes = 0;
    Headroom headroom;
    // What `fits` compares with: the card less the headroom, never below 0 (a headroom larger than the card leaves
    // no room, and the verdict is then does_not_fit or tight by allocated_bytes()).
    double usable_bytes() const { return usable_card_bytes(card_bytes, headroom); }
};

// The one verdict function: the ranking, the advisor, the estimate report and the page all call it.
// card_bytes <= 0 (no card): does not fit.
FitVerdict judge_fit(double required_bytes, double card_bytes, const Headroom& headroom);

// The desktop's share of the card (measured figures in memory.cpp). `owned_display_card`: the card has display
// outputs and is in the user's own machine (what Display::kAuto counts a desktop for).
double display_bytes(Display display, bool owned_display_card);
// Whether a card of this market segment ("consumer", "workstation", "datacenter") has display outputs.
bool segment_has_display(const std::string& segment);

// ---- report ----------------------------------------------------------------------------------------------
struct MemoryReport {
    double params_total = 0;
    double params_trainable = 0;
    double params_per_gpu = 0;      // this GPU's share before ZeRO: tensor_parallel splits layers, pipeline stages
    Figure weights, gradients, optimizer, activations, temporary, framework;
    Figure autocast_weight_copies;  // part of activations' lifetime, reported separately (inside `activations`)
    Figure peak_allocated;          // torch.cuda.max_memory_allocated
    Figure reserved;                // torch.cuda.max_memory_reserved
    Figure nvidia_smi;              // reserved + CUDA context
    PeakPhase peak_phase = PeakPhase::kBackward;
    double host_ram_bytes = 0;      // optimizer offload: what the host must hold
    int pipeline_stage = 0;         // the stage whose GPU this report is for (the fuller of first and last)
    double in_flight_micro_batches = 1;  // pipeline: micro-batches whose activations that stage holds at once
    double card_memory_bytes = 0;   // 0 = no card given
    double usable_bytes = 0;        // card less the headroom
    FitVerdict verdict;             // judge_fit(nvidia_smi, card, headroom)
    bool fits = false;              // verdict == kFits
    bool fits_without_reserve = false;  // verdict != kDoesNotFit: within the whole card (fits or tight)
    double host_activation_bytes = 0;   // offload_activations: block inputs held in host RAM
    double offload_pcie_bytes_per_step = 0;  // offload_activations: bytes over PCIe per step (out and back)
};

// ---- prepare / evaluate ------------------------------------------------------------------------------------
// Everything that does not depend on the micro-batch, reduced once from the graph; evaluate() is then O(blocks).
struct Segment {
    double kept_per_sample_bytes = 0;   // saved and kept until backward (after checkpointing)
    double full_per_sample_bytes = 0;   // saved while this segment's backward runs (recomputed if checkpointed)
    double kept_const_bytes = 0;        // autocast weight copies kept until backward
    double grad_bytes = 0;              // gradients this segment produces
    double transient_per_sample_bytes = 0;  // backward's incoming/outgoing activation gradients
};

struct PreparedMemory {
    TrainingConfig config;
    double params_total = 0, params_trainable = 0, params_lora = 0;  // the whole model
    double rank_params = 0, rank_trainable = 0;  // on this GPU before ZeRO (tensor/pipeline parallel share)
    int stage = 0;                         // pipeline stage this preparation is for
    double in_flight = 1;                  // micro-batches whose kept activations the stage holds at once
    std::vector<PreparedMemory> last_stage;  // pipeline_parallel > 1: the last stage (head, loss), evaluated too
    double weight_bytes = 0, grad_bytes = 0, optimizer_bytes = 0, ddp_bucket_bytes = 0, gathered_bytes = 0;
    double ema_bytes = 0;                  // TrainingConfig::ema_weights: the averaged copy of the trainable weights
    // DataParallel: what only GPU 0 holds per sample of the micro-batch, for all n replicas: the gathered outputs and
    // the input batch before scatter (data_parallel.h).
    double dp_output_per_sample_bytes = 0, dp_input_per_sample_bytes = 0;
    double dp_gpu0_per_sample_bytes() const { return dp_output_per_sample_bytes + dp_input_per_sample_bytes; }
    double input_encoder_bytes = 0;        // SD pipelines: the frozen VAE + text encoders (unless precomputed_latents)
    double input_encoder_transient_per_sample_bytes = 0;  // what the VAE encoder's forward holds at once, per image
    double host_ram_bytes = 0;
    double saved_per_sample_bytes = 0;     // no checkpointing: all saved activations per sample
    double kept_per_sample_bytes = 0;      // with checkpointing
    double autocast_copy_bytes = 0;
    double loss_forward_per_sample_bytes = 0, loss_backward_per_sample_bytes = 0;
    double eval_logits_per_sample_bytes = 0;  // an evaluation forward's logits (compute dtype + fp32 copy), per sample
    double host_activation_per_sample_bytes = 0;  // offload_activations: block inputs in host RAM, per sample
    double optimizer_temp_bytes = 0;
    double dequant_temp_bytes = 0;         // int8/nf4: the 16-bit copy of the weight being multiplied
    double weight_bytes_per_param = 0, grad_bytes_per_param = 0, state_bytes_per_param = 0;
    std::vector<Segment> segments;         // forward order
};

// A Linear of the backbone that bitsandbytes replaces under int8/nf4 (Linear8bitLt / Linear4bit; transformers'
// get_keys_to_not_convert keeps the head in 16 bits, and convolutions are not converted).
bool bnb_quantized_linear(const Layer& layer, Precision precision);

// Reduce the graph (built with batch 1) for one configuration. The graph must have been built with
// BuildOptions::eager_attention == config.eager_attention.
PreparedMemory prepare_memory(const Graph& graph_per_sample, const TrainingConfig& config);

// The precision whose dtype rules the saved tensors follow: the configuration's own, or bf16's when DeepSpeed ZeRO,
// FSDP or Megatron-LM run the module itself in 16 bits under mixed precision (memory.cpp activation_regime).
Precision saved_tensor_regime(const TrainingConfig& config);

// What is saved for backward does not depend on the data-parallel layout (gpu_count, offload_optimizer,
// grad_accum_steps, and the strategy as far as saved_tensor_regime() stays the same). A cache of the graph's walks, for one graph and one job (precision, method, optimizer the same):
// repeated preparations of the same split and checkpointing walk the graph once.
class MemoryWalkCache {
public:
    MemoryWalkCache();
    ~MemoryWalkCache();
    MemoryWalkCache(const MemoryWalkCache&) = delete;
    MemoryWalkCache& operator=(const MemoryWalkCache&) = delete;
    struct Impl;
private:
    std::unique_ptr<Impl> impl_;
    friend std::vector<PreparedMemory> prepare_memory_sharded(const Graph&, const std::vector<TrainingConfig>&,
                                                              MemoryWalkCache*);
};

// prepare_memory for configurations that differ only in their data-parallel layout: the graph is walked once (or
// not at all, when `cache` holds the walk). Each result equals prepare_memory(graph, configs[i]).
std::vector<PreparedMemory> prepare_memory_sharded(const Graph& graph_per_sample,
                                                   const std::vector<TrainingConfig>& configs,
                                                   MemoryWalkCache* cache = nullptr);

// Bytes at a micro-batch; card_memory_bytes 0 = no verdict. `owned_display_card`: see display_bytes().
MemoryReport evaluate_memory(const PreparedMemory& prepared, double batch, double card_memory_bytes,
                             bool owned_display_card = false);

// Only the number the verdict uses (nvidia-smi bytes): allocation-free, for the solver.
double required_bytes(const PreparedMemory& prepared, double batch);

// Bytes an evaluation pass at TrainingConfig::eval_batch needs beyond the training peak at `batch` (>= 0).
double evaluation_extra_bytes(const PreparedMemory& prepared, double batch);

// ---- memory over one training step (issue 33) -------------------------------------------------------------
// The allocated bytes at each point of compute_peak's phase model (memory.cpp), in the order a step runs: before the
// forward, the end of the forward, the loss's backward, the backward of each segment from the last, the optimizer
// step, and, when the job evaluates (TrainingConfig::eval_batch > 0), an evaluation pass between steps. Each point is
// split into bands that say what they hold; a point's bands sum to its allocated bytes (before fragmentation and
// the CUDA context). The largest training point is the estimate's peak_allocated; the evaluation point is not part
// of that peak (its excess is the verdict's evaluation headroom), so it is marked apart.
enum class StepPoint : std::uint8_t { kStart, kForwardEnd, kLossBackward, kBackward, kOptimizerStep, kEvaluation };
const char* step_point_name(StepPoint point);  // "start", "forward_end", "loss_backward", "backward", ...

struct TimelinePoint {
    StepPoint point = StepPoint::kStart;
    int segment = -1;  // kBackward: the segment (forward order) whose backward runs
    double weights_bytes = 0;      // weights (+ frozen input encoders, gathered ZeRO-3/FSDP unit)
    double optimizer_bytes = 0;    // optimizer states and EMA on the card (paged states only in the step)
    double gradients_bytes = 0;    // gradients that exist at this point, DDP buckets included
    double activations_bytes = 0;  // saved for backward (recomputed segment's full set under checkpointing)
    double temporary_bytes = 0;    // loss, activation gradients, dequantised weights, the step's scratch
    double workspace_bytes = 0;    // cuBLAS + cuDNN workspaces
    double allocated_bytes() const {
        return weights_bytes + optimizer_bytes + gradients_bytes + activations_bytes + temporary_bytes + workspace_bytes;
    }
};

struct MemoryTimeline {
    std::vector<TimelinePoint> points;
    int peak_index = 0;  // the training point with the most allocated bytes (on equal bytes, the phase compute_peak names)
    int pipeline_stage = 0;  // the stage evaluate_memory reports (the fuller of first and last)
};

// The timeline of the stage evaluate_memory reports, at a micro-batch.
MemoryTimeline memory_timeline(const PreparedMemory& prepared, double batch);

// The headroom of a prepared job at a micro-batch on a card (all four terms), and the verdict with it.
Headroom job_headroom(const PreparedMemory& prepared, double batch, double card_bytes, bool owned_display_card);
FitVerdict judge_job(const PreparedMemory& prepared, double batch, double card_bytes, bool owned_display_card);

// Saved-for-backward bytes of the whole graph under a configuration (what the validation measures with
// saved_tensors_hooks, deduplicated by storage, parameters excluded), per sample.
double saved_activation_bytes_per_sample(const Graph& graph_per_sample, const TrainingConfig& config);
// Offloaded checkpointing (TrainingConfig::offload_activations): the block inputs that wait in host RAM, per sample;
// each crosses PCIe twice a step (out in forward, back before its recompute). 0 without offloading.
double offloaded_activation_bytes_per_sample(const Graph& graph_per_sample, const TrainingConfig& config);

// Bytes of one element under a precision (activation dtype, etc.).
double dtype_bytes(DtypeRule rule, Precision precision);

// ---- solver ------------------------------------------------------------------------------------------------
// Largest micro-batch (>= 1) that fits each card (0 = even batch 1 does not fit). Binary search on the
// monotone required_bytes(); one prepare for all cards. The default limit is the largest batch_size the scenario
// format accepts (scenario.cpp, 2^20), so "answer >= batch" is the same verdict as `fits` for every valid scenario.
// "Fits" is judge_job's kFits (with the headroom); `owned_display_card` as for display_bytes().
std::vector<int> max_batch_sizes(const PreparedMemory& prepared, const std::vector<double>& card_memory_bytes,
                                 int batch_limit = 1 << 20, bool owned_display_card = false);

// Largest sequence length (or image size, in steps of `step`) that fits one card at a fixed micro-batch:
// rebuilds the graph per probe (s^2 attention terms make it non-linear). 0 = nothing fits.
int max_shape_that_fits(const ModelSpec& spec, const TrainingConfig& config, double card_memory_bytes,
                        bool image, int step, int upper_limit);
// The same for many cards at once: every probed shape is built and prepared once and shared by all cards
// (their binary searches share most probes), so ~60 cards cost little more than one.
std::vector<int> max_shapes_that_fit(const ModelSpec& spec, const TrainingConfig& config,
                                     const std::vector<double>& card_memory_bytes, bool image, int step,
                                     int upper_limit);

// Trainable parameters per layer under a method (LoRA adapters are reported separately by prepare_memory).
bool layer_trainable(const Layer& layer, const TrainingConfig& config);

}  // namespace gg::engine
