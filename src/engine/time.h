// The training-time engine: FLOPs per step from the layer graph, achievable throughput per card and precision
// (dense peak of the dtype actually used x a fitted efficiency prior, plus a memory-bandwidth roofline), multi-GPU
// communication (ring all-reduce, ZeRO/FSDP gathers, overlap with backward) and time to train. Every figure
// carries a formula id and its operands (docs/time-model.md lists them). Pure C++: no JSON, no UI.
//
// Sections: interconnects | throughput priors | options and dataset | report | prepare/evaluate | helpers
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/data_parallel.h"
#include "engine/hardware.h"
#include "engine/loader.h"
#include "engine/memory.h"
#include "engine/workload.h"

namespace gg::engine {

// ---- interconnects -----------------------------------------------------------------------------------------
// The link the gradients travel over. Names match the scenario format ("pcie3" ... "ethernet").
enum class Interconnect : std::uint8_t { kPcie3, kPcie4, kPcie5, kNvlinkBridge, kNvlink, kInfiniband, kEthernet };
const char* interconnect_name(Interconnect kind);                    // "pcie3", "nvlink-bridge", "ib", ...
bool parse_interconnect(std::string_view name, Interconnect& out);   // false when unknown

// The dense rate a GEMM runs at: the dtype of its inputs (and, for GeForce cards, of its accumulator).
enum class MatmulRate : std::uint8_t { kFp32, kTf32, kFp16, kBf16, kFp8 };
const char* matmul_rate_name(MatmulRate rate);  // "fp32", "tf32", "fp16", "bf16", "fp8"

// One row of data/interconnects.json (base units). Bandwidths are per GPU, per direction: the figure nccl-tests'
// "bus bandwidth" is compared with (nccl-tests doc/PERFORMANCE.md).
struct InterconnectSpec {
    std::string id;                 // "pcie4-p2p", "pcie4-host", "nvlink", "ib-hdr", ...
    Interconnect kind = Interconnect::kPcie4;
    bool peer_to_peer = true;       // PCIe: false = traffic staged through host memory
    bool per_gpu_link = false;      // true: bandwidth comes from GpuSpec::nvlink_bytes_per_s / 2 (NVLink, bridge)
    double nominal_bytes_per_s = 0; // per direction; ignored when per_gpu_link
    double achievable_fraction = 0; // measured all-reduce bus bandwidth / nominal (nccl-tests results)
    double fraction_low = 0;        // the slowest and fastest published or derived figure for this kind of link
    double fraction_high = 0;       // (low <= achievable <= high); they set the time range's high and low ends
    double latency_s = 0;           // per ring step (the alpha term)
    bool inter_node = false;        // a network between nodes (IB, RoCE, Ethernet)
    bool is_default = false;        // the row used for its `kind` when several exist
    std::string source;
};

struct InterconnectTable {
    std::vector<InterconnectSpec> entries;
    // The row for a kind (and, for PCIe, with or without peer-to-peer); nullptr when none.
    const InterconnectSpec* find(Interconnect kind, bool peer_to_peer = true) const;
    const InterconnectSpec* find_id(std::string_view id) const;
};

// ---- throughput priors -------------------------------------------------------------------------------------
// Fraction of the dense peak a workload family's matmuls reach, and of the memory bandwidth its bandwidth-bound
// ops reach, fitted to published measurements (data/throughput_priors.json keeps source and fit set).
struct Spread {
    double low = 0, expected = 0, high = 0;  // low <= expected <= high
};

struct EfficiencyPrior {
    std::string id;                          // "cnn", "transformer", ...
    std::vector<Family> families;            // the model families it applies to
    Spread matmul_fraction;                  // of the dense peak of the dtype used
    Spread bandwidth_fraction;               // of memory_bandwidth_bytes_per_s
    double per_layer_overhead_s = 0;         // launch/dispatch cost per layer call and pass (eager PyTorch)
    std::string source;
    std::vector<std::string> fitted_to;      // validation case ids the fit used (the rest are held out)
};

struct CommPrior {
    double overlap_fraction = 0;    // DDP / ZeRO-1/2: of backward compute time that bucketed all-reduce hides behind
    double sharded_overlap_fraction = 0;  // ZeRO-3 / FSDP: of forward/backward time that prefetched gathers hide behind
    double gpus_per_node = 8;       // above this, the inter-node interconnect carries the ring
    double overlap_slowdown_fraction = 0;  // compute slows by this while a collective runs beside it (0 = free)
    std::string source;
    std::vector<std::string> overlap_fitted_to;          // validation case ids each overlap was fitted to
    std::vector<std::string> sharded_overlap_fitted_to;
};

struct ThroughputPriors {
    std::vector<EfficiencyPrior> priors;
    CommPrior comm;
    InterconnectTable interconnects;
    // GPU time per kernel when tiny kernels are launched back to back (the floor of one recurrence step's kernels,
    // data/throughput_priors.json "kernel_launch"); 0 = not modelled (each step is then only its roofline).
    double kernel_launch_s = 0;
    std::string kernel_launch_source;
    // Host time per small kernel of a for-loop optimizer step (Python loop + eager dispatch + launch; data/
    // throughput_priors.json "optimizer_loop"); 0 = not modelled.
    double optimizer_op_s = 0;
    std::string optimizer_op_source;
    // ZeRO-Offload's CPU optimizer step (data/throughput_priors.json "cpu_optimizer"): bytes it moves through host
    // memory per parameter, and the achievable memory bandwidth of a desktop host and of a two-socket GPU server.
    // 0 = not modelled (the step is then flagged cpu_optimizer_not_modelled).
    double cpu_optimizer_bytes_per_param = 0;
    double desktop_host_bytes_per_s = 0, server_host_bytes_per_s = 0;
    std::string cpu_optimizer_source;
    // Bytes per SM cycle that eager framework kernels (elementwise, norms, reductions, layout transposes, optimizer
    // and dequantisation kernels) keep moving; their achieved bandwidth is at most SM cycles per second x this
    // (data/throughput_priors.json "sm_stream_limit"); 0 = not modelled (the bandwidth fraction alone).
    double stream_bytes_per_sm_cycle = 0;
    std::string stream_source;
    // The measured best GEMM of the card the priors' matmul fractions were fitted on, as a fraction of its datasheet
    // peak (data/throughput_priors.json "matmul_reference"). With it a card's measured best (matmul_limits) is its
    // GEMM speed: rate = best x prior fraction / this. 0 = the measurements only cap the prior's rate.
    double matmul_reference_fraction = 0;
    std::string matmul_reference_source;
    std::string stream_fitted_with;               // the prior it was fitted together with ("" = not fitted)
    // The most of the dense peak fused attention kernels (FlashAttention-2 class) reach, per NVIDIA architecture
    // (data/throughput_priors.json "fused_attention_limits"): Ampere/Ada 73%, Hopper 35% (its kernels were written for
    // Ampere's mma.sync, not Hopper's wgmma). No entry: attention runs at the prior's matmul fraction like any GEMM.
    struct FusedAttentionLimit {
        int compute_capability_major = 0;
        double fraction_of_peak = 0;
        std::string source;
    };
    std::vector<FusedAttentionLimit> fused_attention_limits;
    // The limit for a card (0 = none: no entry for its architecture, or not an NVIDIA card).
    double fused_attention_fraction(const GpuSpec& gpu) const;
    // The fastest a card's GEMMs were measured to run, per input dtype (data/throughput_priors.json "matmul_limits",
    // with their sources): with matmul_reference_fraction, the base of the card's GEMM rate; without it, a ceiling on
    // the prior's fraction of the datasheet peak. kFp16 inputs use the card's kFp16 entry, else its kBf16 one (one
    // tensor-core rate on these cards).
    // A power-capped card (T4 70 W, L4 72 W) reaches its best only in bursts shorter than its power controller's
    // response: a short best-of-sizes test keeps the burst, back-to-back GEMMs for most of a second settle at the clock
    // the board power allows. Where such a long-run rate was published (`sustained_flop_per_s`, with its source), that
    // is what a training run, hours of back-to-back kernels, gets; 0 = none published (the card's best is taken to be
    // sustained, as for cards whose best size is their largest, i.e. longest, one).
    struct MatmulLimit {
        std::string gpu_id;
        MatmulRate rate = MatmulRate::kBf16;  // kFp16, kBf16 or kFp8
        double flop_per_s = 0;
        std::string source;
        double sustained_flop_per_s = 0;
        std::string sustained_source;
        double training_flop_per_s() const { return sustained_flop_per_s > 0 ? sustained_flop_per_s : flop_per_s; }
    };
    std::vector<MatmulLimit> matmul_limits;
    // A card with no measurement of its own that takes another card's (data/throughput_priors.json
    // "matmul_limit_twins", with the reason for each): the same chip in the same configuration at the same power limit
    // (V100 SXM2 32GB = 16GB, H800 = H100 SXM), or at a lower one, where the other's figure is an upper bound (RTX 6000
    // Ada = L40S). Resolved at lookup, so a new measurement of the source card reaches its twins.
    struct MatmulTwin {
        std::string gpu_id;
        std::string same_as;
        std::string source;
    };
    std::vector<MatmulTwin> matmul_twins;
    // The id whose measurements a card uses: its twin's, else its own.
    const std::string& measured_id(const std::string& gpu_id) const;
    // A GeForce card (NVIDIA, segment "consumer", tensor cores: compute capability >= 7.5) without a measured FP16 or
    // BF16 GEMM is taken to reach the median share of its datasheet rate that the measured GeForce cards reach
    // (data/throughput_priors.json "geforce_unmeasured_share"; a test recomputes the medians): GeForce cards boost
    // past their rated clock, and without it an unmeasured GeForce card ran ~18% slower than its measured siblings.
    // 0 = not modelled. One share for FP16 and BF16 (one tensor-core rate on these cards). TF32 and FP32 keep the
    // prior's fraction of the peak (no such evidence for them).
    double geforce_share_16bit = 0;
    std::string geforce_share_source;
    // The share that applies to a card and rate (0 = none: measured, not a GeForce card with tensor cores, or not a
    // 16-bit rate).
    double geforce_share(const GpuSpec& gpu, MatmulRate rate) const;
    // One sustained tensor-core clock per card (data/throughput_priors.json "tf32_takes_16bit_share"): on every card
    // with both measured, the TF32 GEMM reaches the share of its datasheet TF32 rate that the FP16 GEMM reaches of its
    // FP16 rate (19 cards, ratio median 1.000, RMS log 0.030, the same table and method for both), because the clock a
    // power limit allows under tensor-core load does not depend on the input dtype. So a card of a listed segment with
    // a measured 16-bit GEMM and no TF32 one takes that share (its FP16 figure, else its BF16 one) x its datasheet
    // TF32 rate as its best TF32 GEMM. Empty = not modelled (TF32 keeps the prior's fraction of the peak).
    std::vector<std::string> tf32_share_segments;
    std::string tf32_share_source;
    // The 16-bit share a card's TF32 rate takes (0 = none: not TF32, TF32 measured, no 16-bit measurement, no TF32
    // datasheet rate, or a segment not listed).
    double tf32_share(const GpuSpec& gpu, MatmulRate rate) const;
    // The limit for a card and rate: its measurement, else the GeForce share x its datasheet rate, else (TF32) its
    // 16-bit share x its datasheet TF32 rate (0 = none: the prior's fraction of the peak applies alone).
    double matmul_limit_flop_per_s(const GpuSpec& gpu, MatmulRate rate) const;
    std::vector<std::string> overhead_fitted_to;  // validation case ids per_layer_overhead_s was fitted to
    const EfficiencyPrior* find(Family family) const;  // nullptr when no prior covers the family
};

// ---- options and dataset -----------------------------------------------------------------------------------
struct Dataset {
    double samples = 0;  // per epoch
    double epochs = 1;
    double tokens = 0;   // > 0: token-based (total tokens to train on; epochs ignored)
};

struct TimeOptions {
    Interconnect interconnect = Interconnect::kPcie4;
    bool interconnect_set = false;      // false: the card's own (SXM -> nvlink, PCIe -> pcie gen of the card)
    std::string network_id;             // the network between nodes: an inter-node row of data/interconnects.json
                                        // ("ib-ndr", "ethernet-100g", ...); "" = the row its kind defaults to (a
                                        // job wider than a node: InfiniBand's)
    bool peer_to_peer = true;           // false: NCCL_P2P_DISABLE=1, collectives staged through host memory over
                                        // PCIe (NVLink and bridges unused too)
    bool peer_to_peer_set = false;      // false: GeForce RTX 40-series and later (consumer, cc >= 8.9) -> false,
                                        // others -> true
    double loader_samples_per_s = 0;    // per GPU, what the input pipeline delivers (measured); 0 = the setup's
    LoaderSetup loader;                 // the CPU pipeline, its workers and CPUs (engine/loader.h); none = no limit
    double overlap_fraction = -1;       // < 0: the prior's (sets both the DDP and the sharded overlap when >= 0)
    // The host's achievable memory bandwidth, which ZeRO-Offload's CPU optimizer step streams through; 0 = the card's
    // default host (host_memory_bytes_per_s(gpu, priors): a server for data-centre cards, else a desktop).
    double host_memory_bytes_per_s = 0;
    double grad_reduce_bytes = 0;       // bytes per gradient value on the wire; 0 = the gradients' own dtype. 2 =
                                        // reduced in 16 bits: DDP's fp16/bf16_compress_hook, apex amp O2 (fp16
                                        // model, fp16 gradients), DeepSpeed fp16
};

// ---- report ------------------------------------------------------------------------------------------------
// A figure with the formula that made it: `formula` is a stable id (docs/time-model.md), operands base units.
struct TimeFigure {
    double value = 0;
    const char* formula = "";
    std::vector<std::pair<const char*, double>> operands;
};

enum class TimeStatus : std::uint8_t {
    kOk,
    kNoRate,      // no FP32 rate, published or measured (GpuSpec fp32 == 0, no matmul_limits): no time estimate
    kNoPrior,     // no efficiency prior covers the family
    kNoBandwidth, // multi-GPU without a known interconnect bandwidth
};
const char* time_status_name(TimeStatus status);

struct TimeReport {
    TimeStatus status = TimeStatus::kOk;
    MatmulRate rate = MatmulRate::kFp32;
    bool precision_fallback = false;  // the requested dtype is not supported by the card (e.g. bf16 on V100)
    bool peak_inferred = false;  // no datasheet rate: the peak is the card's measured best GEMM / matmul_reference
    std::string prior_id;
    std::string interconnect_id;      // the InterconnectSpec used ("" for one GPU)

    // per optimizer step (one GPU's view; all GPUs run in lock-step)
    double step_s = 0;               // expected
    double step_low_s = 0, step_high_s = 0;
    double compute_s = 0;            // compute-bound part of all micro-batches (matmul roofline)
    double memory_bound_s = 0;       // bandwidth-bound layers + optimizer step + dequantisation
    double overhead_s = 0;           // per-layer launch overhead
    double recurrent_s = 0;          // sequential recurrence steps (LSTM): latency- or bandwidth-bound, in step_s
    double optimizer_s = 0;          // part of memory_bound_s
    double optimizer_loop_s = 0;     // for-loop optimizer: its per-tensor kernels' host time, part of overhead_s
    double model_parallel_comm_s = 0;  // tensor-parallel all-reduces + pipeline sends per step (not hidden), in step_s
    double pipeline_bubble_s = 0;    // 1F1B fill and drain: (p - 1) / v micro-batch slots idle, in step_s
    double comm_s = 0;               // all data-parallel communication per step
    double exposed_comm_s = 0;       // what backward does not hide
    double loader_wait_s = 0;        // time per step the GPU waits for the input pipeline
    double offload_transfer_s = 0;   // ZeRO-Offload: gradients to host + 16-bit parameters back over PCIe, per step
    double input_encoder_s = 0;      // SD pipelines: the frozen VAE and text encoders' forward passes, per step
    double cpu_optimizer_s = 0;      // ZeRO-Offload: the optimizer step on the host's CPU, per step (in step_s)
    double activation_offload_s = 0; // offloaded checkpointing: the PCIe copies compute does not hide, per step
    DpStepTimes dp;                  // DataParallel: its transfers (all in comm_s and exposed_comm_s) and launch wait
                                     // (in overhead_s), per step
    bool cpu_optimizer_not_modelled = false;  // ZeRO-Offload without a host bandwidth: the CPU step is NOT in step_s

    // whole job
    double samples_per_step = 0;     // global batch: micro-batch x accumulation x GPUs
    double samples_per_s = 0;        // all GPUs
    double tokens_per_s = 0;         // all GPUs; 0 for non-sequence models
    double steps = 0;                // optimizer steps for the dataset (0 = no dataset)
    double steps_per_epoch = 0;      // ceil(samples / global batch); 0 for a token budget or no dataset
    double epoch_s = 0;              // one pass over the samples: steps_per_epoch x step_s (0 when not known)
    double total_s = 0, low_s = 0, high_s = 0;  // for the dataset (0 = no dataset); low = fastest
    double gpu_hours = 0;            // total_s x GPUs / 3600

    double flop_per_step = 0;        // model FLOPs per optimizer step, all GPUs, without recomputation
    double hardware_flop_per_step = 0;  // with recomputation and LoRA/dequant extras, all GPUs
    double peak_flop_per_s = 0;      // dense peak of the rate used, one GPU
    double mfu = 0;                  // flop_per_step / (step_s x GPUs x peak): model FLOPs utilisation
    double scaling_efficiency = 1;   // each GPU's share of the work, split without communication, / step_s (<= 1;
                                     // DDP: throughput(n) / (n x throughput(1)) at the same micro-batch)

    // > 0: the card carries the user's calibration for the model's family (calibration.h), already in every time
    // above; 0 = the priors alone.
    double calibrated_efficiency_factor = 0;

    TimeFigure step, compute, memory_bound, optimizer, comm, exposed_comm, flop;
    TimeFigure model_parallel;       // formula "time.model_parallel" (empty formula without tensor/pipeline parallel)
};

// ---- prepare / evaluate ------------------------------------------------------------------------------------
// One distinct layer cost, merged over repeated blocks (count = how many identical layers).
struct TimeLayer {
    double count = 1;
    bool compute_bound = true;          // kMatmul / kAttention
    bool linear = false;                // a Linear/Conv with weights (FP8 applies; attention core stays bf16)
    bool fused_attention = false;       // a fused attention kernel (FlashAttention / SDPA), not cuBLAS GEMMs
    double flop_per_sample = 0;         // hardware FLOPs per sample over all passes (forward, backward, recompute)
    double bytes_per_sample = 0;        // activation bytes moved per sample over all passes
    double weight_bytes = 0;            // weight bytes read per step over all passes (batch-independent)
    double passes = 1;                  // kernel calls per micro-batch (for the launch overhead)
    double serial_bytes_per_sample = 0; // bandwidth-bound kernels run before/after this one (NCHW<->NHWC transposes)
    double hidable_fraction = 0;           // tensor parallel: the share of its time a column-parallel weight gradient
                                        // takes, which backward's all-reduce overlaps (Korthikanti 2022, sec. 6.2)
};

// A recurrence (cuDNN LSTM, CUDNN_RNN_ALGO_STANDARD): time steps that run one after another, each a small GEMM
// of the recurrent weights plus one fused pointwise kernel (Appleyard, Kocisky, Blunsom 2016, arXiv 1604.01946).
struct RecurrentTime {
    double sequential_steps = 0;          // per micro-batch, all passes: directions x seq x (fwd + bwd data + recompute)
    double kernels_per_step = 2;          // recurrent GEMM + fused pointwise kernel
    double flop_per_step_per_sample = 0;  // 2 x 4h x h (one step's W_hh h_(t-1) for one sequence)
    double bytes_per_step_per_sample = 0; // h_(t-1) read + 4h gate pre-activations written, activation dtype
    double weight_bytes_per_step = 0;     // W_hh (4h x h) read once per step (no reuse across steps assumed)
};

struct PreparedTime {
    TrainingConfig config;
    Family family = Family::kDecoder;
    double tokens_per_sample = 0;       // seq_len for sequence models, 0 otherwise
    double params_total = 0, params_trainable = 0;  // the whole model
    double params_trainable_per_gpu = 0;  // what one GPU's optimizer steps before ZeRO (tensor/pipeline share)
    double model_flop_per_sample = 0;   // forward + backward (input and weight grads), no recomputation
    double hardware_flop_per_sample = 0;// + recomputation, LoRA adapters
    double forward_flop_per_sample = 0;
    double backward_fraction = 0;       // share of hardware FLOPs in backward (for the overlap window)
    double optimizer_bytes = 0;         // per step (one GPU, before ZeRO sharding)
    double optimizer_loop_ops = 0;      // for-loop optimizer: small kernels per step over the model's tensors (DDP)
    double optimizer_flat_ops = 0;      // ... per flat tensor, as ZeRO/FSDP step flattened partitions
    double ema_bytes = 0;               // weight EMA update per optimizer step (one GPU, before ZeRO-3 sharding)
    double ema_loop_ops = 0;            // ... its small kernels, one loop over the trainable tensors
    double fsdp_units = 1;              // FSDP FlatParameters: one per wrapped block + the root
    double offload_bytes = 0;           // ZeRO-Offload: bytes over PCIe per step (one GPU, before sharding)
    double offload_activation_bytes_per_sample = 0;  // offloaded checkpointing: block inputs sent to host RAM in
                                        // forward and back in backward, per sample (each way; memory.h)
    double dequant_bytes_per_micro = 0; // int8/nf4: quantized weights read + 16-bit copies written per micro-batch
    double grad_comm_bytes = 0;         // gradient bytes the data-parallel group reduces per step
    double grad_comm_values = 0;        // gradient values in them (trainable parameters, LoRA adapters included)
    double param_gather_bytes = 0;      // ZeRO-3/FSDP: parameter bytes all-gathered per pass
    DpTraffic dp;                       // DataParallel: what crosses the interconnect per micro-batch (strategy dp)
    // Tensor/pipeline parallelism (TrainingConfig::tensor_parallel, pipeline_parallel)
    double tp_collective_bytes_per_sample = 0;  // one block's s x h activation: each tensor-parallel all-reduce
    double tp_collectives_per_micro = 0;        // all-reduces per micro-batch on the busiest stage (0 without TP)
    double tp_backward_collectives_per_micro = 0;  // those of them in backward (hidden behind weight gradients)
    double p2p_bytes_per_sample = 0;            // sent between pipeline stages per micro-batch, each way, per GPU
    bool p2p_backward = true;                   // gradients flow back between the stages (something trains)
    std::vector<TimeLayer> layers;      // the GPU's layers: the whole model, or the first pipeline stage's
    std::vector<TimeLayer> last_stage_layers;  // pipeline_parallel > 1: the last stage's (head and loss)
    std::vector<RecurrentTime> recurrent;  // sequential parts taken out of `layers` (their FLOPs are not in them)
    // SD pipelines without precomputed latents: the frozen VAE encoder and the text encoders, forward only, one
    // micro-batch each (prepared with grad_accum_steps 1; evaluate_time runs them per micro-batch), each in the dtype
    // the scripts keep it in (ModelSpec::vae_base_channels, vae_fp32, text_encoders); empty otherwise.
    std::vector<std::shared_ptr<const PreparedTime>> input_encoders;
};

// Which kernel a depthwise Conv2d (groups == input channels > 1) runs in PyTorch: cuDNN or PyTorch's own
// CudaDepthwise2d kernels (aten/src/ATen/native/Convolution.cpp, select_conv_backend / use_cudnn_depthwise, with
// cuDNN >= 8.2; taken as torch >= 1.11, whose timm runs behave so, docs/validation-sources.md sec. 7s):
//  - channels_last activations: cuDNN, always ("always use cudnn_depthwise for channels_last format");
//  - NCHW fp16 (autocast's dtype): cuDNN when check_cudnn_depthwise_workload_with_filter says so (input channels
//    >= 32; k x k filter with k = 1, 3 or 5; input width >= 7; stride 1 always; stride 2 for k = 3/5 with >= 512
//    channels, or >= 256 channels at width >= 28), else PyTorch's. The heuristic's batch-1 exceptions (more stride-2
//    layers on cuDNN) are left out: the prepared time does not depend on the micro-batch;
//  - NCHW fp32, TF32 and bf16: PyTorch's kernels, always (that heuristic is "only for FP16").
enum class DepthwiseBackend : std::uint8_t { kNone, kCudnn, kNative };
DepthwiseBackend depthwise_backend(const Layer& l, Precision p, bool channels_last);

// Reduce the graph (built at batch 1 with BuildOptions::eager_attention == config.eager_attention) once.
// `shape` gives tokens per sample for sequence models.
PreparedTime prepare_time(const ModelSpec& spec, const WorkloadShape& shape, const Graph& graph_per_sample,
                          const TrainingConfig& config);

// How much of the report to fill: everything, or only what the ranking and the scaling rows read (status, step_s,
// steps, total_s, epoch_s, samples_per_s, tokens_per_s; the rest stays 0: no low/high range, no scaling efficiency,
// no formulas). Same numbers for the fields filled.
enum class TimeDetail : std::uint8_t { kFull, kTotalOnly };

// Time at a micro-batch on a card. config.gpu_count GPUs, config.grad_accum_steps micro-batches per step.
TimeReport evaluate_time(const PreparedTime& prepared, double batch, const GpuSpec& gpu, const TimeOptions& options,
                         const Dataset& dataset, const ThroughputPriors& priors,
                         TimeDetail detail = TimeDetail::kFull);

// ---- helpers -----------------------------------------------------------------------------------------------
// Which matmul rate a precision uses on a card, and its dense peak in FLOP/s (0 = none).
MatmulRate matmul_rate(Precision precision, const GpuSpec& gpu, bool& fallback);
MatmulRate matmul_rate(Precision precision, const DenseFlopPerS& rates, int compute_capability_major,
                       int compute_capability_minor, bool& fallback);
double peak_flop_per_s(MatmulRate rate, const GpuSpec& gpu);
// An NVIDIA GeForce card with tensor cores (segment "consumer", compute capability >= 7.5): the cards the GeForce median
// share (ThroughputPriors::geforce_share_16bit) is taken over and applies to.
bool geforce_with_tensor_cores(const GpuSpec& gpu);
double peak_flop_per_s(MatmulRate rate, const DenseFlopPerS& rates);
// The rates the time model runs a card at: its datasheet's, or, for a card with no published rate at all
// (dense_flop_per_s.fp32 == 0, e.g. AWS's A10G) but a measured best GEMM in priors.matmul_limits, the peak those
// measurements imply: best / matmul_reference_fraction per measured dtype (`inferred` set). 0 stays "unknown".
DenseFlopPerS rates_for_time(const GpuSpec& gpu, const ThroughputPriors& priors, bool& inferred);
// SM cycles per second (SMs x clock) from the FP32 peak and the FP32 lanes per SM of the compute capability; 0 when
// unknown (non-NVIDIA cards, no FP32 figure).
double sm_cycles_per_s(const GpuSpec& gpu);

// The host memory bandwidth a card's server or workstation has by default: data-centre cards sit in two-socket
// servers, the others in desktops (priors' cpu_optimizer record; 0 when it is missing).
double default_host_memory_bytes_per_s(const GpuSpec& gpu, const ThroughputPriors& priors);

// The interconnect a card uses by default (SXM/OAM -> nvlink, PCIe -> its PCIe generation).
Interconnect default_interconnect(const GpuSpec& gpu);
// Whether NVIDIA's driver gives the card PCIe peer-to-peer (time_comm.cpp resolve_link: GeForce RTX 20 series and later
// have none; their collectives are staged through host memory).
bool pcie_peer_to_peer_capable(const GpuSpec& gpu);

// Ring all-reduce time (Patarasuk & Yuan 2009; nccl-tests PERFORMANCE.md): 2(n-1)/n x bytes / bus + 2(n-1) x latency.
double ring_allreduce_s(double bytes, int gpu_count, double bus_bytes_per_s, double latency_s);
// Reduce-scatter or all-gather: (n-1)/n x bytes / bus + (n-1) x latency.
double ring_gather_s(double bytes, int gpu_count, double bus_bytes_per_s, double latency_s);

// Scaling efficiency at each GPU count (same micro-batch): throughput(n) / (n x throughput(1)).
std::vector<std::pair<int, double>> scaling_curve(const PreparedTime& prepared, double batch, const GpuSpec& gpu,
                                                  const TimeOptions& options, const ThroughputPriors& priors,
                                                  const std::vector<int>& gpu_counts = {1, 2, 4, 8, 16});

}  // namespace gg::engine
