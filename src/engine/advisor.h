// The advisor: when a job does not fit a card (or misses the deadline), search combinations of changes (mixed
// precision, activation checkpointing, gradient accumulation at the same global batch, 8-bit optimizer, LoRA /
// QLoRA, ZeRO-3 over more cards, shorter sequences or smaller images) and report the smallest set that works:
// fewest changes, then least GPU-time (one run's time x cards), then least accuracy risk. Shorter sequences / smaller images change what is
// learned, so they are only tried when nothing that keeps the task works. Every change carries its accuracy risk as a code
// with a reason code. Configurations are prepared once and evaluated for every card. No JSON, no UI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/card_memory.h"
#include "engine/compat.h"
#include "engine/hardware.h"
#include "engine/memory.h"
#include "engine/time.h"
#include "engine/workload.h"

namespace gg::engine {

enum class Change : std::uint8_t {
    kMixedPrecision,   // fp32/tf32 -> bf16-amp (compute capability 8.0+) or fp16-amp; value = 1 bf16, 2 fp16
    kCheckpointing,    // -> full activation checkpointing (one checkpoint per block)
    kAccumulation,     // smaller micro-batch, more accumulation steps, same global batch; value = micro-batch
    kOptimizer8bit,    // adam/adamw -> bitsandbytes AdamW 8-bit
    kLora,             // full fine-tuning -> LoRA (transformer families)
    kQlora,            // -> QLoRA (4-bit NF4 base, decoder LLMs)
    kMoreCards,        // ZeRO-3 over more cards, same global batch; value = cards
    kShorterSequence,  // value = the new sequence length
    kSmallerImage,     // value = the new image size
    kNoEma,            // drop the weight EMA (its copy of the trainable weights)
    kPrecomputeLatents,  // SD pipelines: encode the dataset once (VAE latents, text embeddings) before training
    kFrozenWeights16bit, // under fp16/bf16 autocast with LoRA or a frozen backbone: keep the frozen weights in 16 bits
    // Stack switches (tried first: they compute the same results; the catalog names the line to set per stack):
    kPlan,               // the planner's same-result layout on the same cards (planner.h): sharding, offload,
                         // tensor/pipeline split, checkpointing, fused attention, micro-batch x accumulation;
                         // value = cards (Fix::config holds the layout)
    kFusedLoss,          // fused linear cross-entropy (Liger, Unsloth): no full-vocabulary logits
    kOffloadActivations, // under full checkpointing: the block inputs wait in host RAM
    kSwitchToDdp,        // torch.nn.DataParallel -> DistributedDataParallel (torchrun, one process per card): the same
                         // gradients, without GPU 0's gathered outputs and input batch (data_parallel.h)
};
const char* change_name(Change change);  // "mixed_precision", "checkpointing", ...

enum class AccuracyRisk : std::uint8_t { kNone, kSmall, kTaskDependent };
const char* accuracy_risk_name(AccuracyRisk risk);  // "none", "small", "task_dependent"

// Why a change does or may cost accuracy (docs/decisions.md cites the paper for each).
enum class RiskReason : std::uint8_t {
    kRecomputeExact,      // checkpointing recomputes the same forward (RNG state restored): same gradients
    kSameGradient,        // accumulation sums the same per-sample gradients (models without BatchNorm)
    kBatchNormStatistics, // accumulation with BatchNorm: statistics over the smaller micro-batch
    kHalfPrecisionScaled, // AMP keeps fp32 master weights (+ loss scaling for fp16): Micikevicius et al. 2018
    kBlockwiseQuantized,  // 8-bit optimizer states, block-wise quantized: Dettmers et al. 2022
    kLowRankUpdate,       // LoRA trains a low-rank update only: Hu et al. 2021
    kFourBitBase,         // QLoRA: frozen 4-bit NF4 base + LoRA: Dettmers et al. 2023
    kShardingExact,       // ZeRO-3 partitions states; same math as data parallel: Rajbhandari et al. 2020
    kTruncatedContext,    // shorter sequences drop context the task may need
    kLowerResolution,     // smaller images lose detail (small objects in detection)
    kNoWeightAverage,     // no EMA: the run ends with the optimizer's last weights, not their moving average
    kFixedAugmentation,   // latents encoded once: each image's random crop/flip is fixed for the whole run
    kFrozenRounded,       // frozen weights rounded to fp16/bf16 (what autocast computes with anyway)
    kSameResults,         // a kernel or placement switch: the same loss and gradients, computed differently
};
const char* risk_reason_name(RiskReason reason);

struct AppliedChange {
    Change change = Change::kMixedPrecision;
    double value = 0;
    AccuracyRisk risk = AccuracyRisk::kNone;
    RiskReason reason = RiskReason::kRecomputeExact;
};

struct Fix {
    std::vector<AppliedChange> changes;  // empty = the job already works as given
    TrainingConfig config;               // the changed configuration (batch = micro-batch, gpu_count = cards)
    WorkloadShape shape;                 // per sample (batch 1)
    double global_batch = 0;             // micro-batch x accumulation x cards (kept unless the shape changed)
    double peak_bytes_per_card = 0;      // nvidia-smi view
    double usable_bytes_per_card = 0;
    // kTight: the planner's layout, which fits the card but not the headroom (the user's reserve, a desktop); given
    // only when no change fits within the headroom, as the ranking runs the card tight with it.
    Verdict verdict = Verdict::kFits;
    double time_s = 0;                   // one run (NaN = unknown)
    double time_ratio = 0;               // time_s / the original's time on this card; without a dataset, the ratio of
                                         // their optimizer steps (the same number of steps); NaN = unknown
};

enum class AdviceStatus : std::uint8_t {
    kWorksAsIs,    // fits (and meets the deadline): no change needed
    kFixed,        // a fix was found
    kNoFix,        // nothing within the search space works on this card
};
const char* advice_status_name(AdviceStatus status);  // "works_as_is", "fixed", "no_fix"

struct CardAdvice {
    const GpuSpec* gpu = nullptr;
    AdviceStatus status = AdviceStatus::kNoFix;
    double original_peak_bytes = 0;      // per card, as given
    double original_usable_bytes = 0;
    double original_time_s = 0;          // NaN = unknown
    bool fits_as_is = false;
    bool meets_deadline_as_is = true;
    Fix fix;                             // kWorksAsIs: the original; kFixed: the best fix
    // When `fix` changes the card count (kMoreCards): the best fix on the job's own count, found the same way
    // (kFixed), or none (kNoFix). Someone who owns one card needs that one first (issue 40); kNoFix whenever `fix`
    // keeps the count.
    AdviceStatus same_count_status = AdviceStatus::kNoFix;
    Fix same_count_fix;
};

struct AdviceOptions {
    double deadline_s = 0;               // 0 = only memory matters
    // false: a fix that keeps the results (checkpointing, accumulation without BatchNorm, more cards with ZeRO-3:
    // AccuracyRisk::kNone) always wins over one that may change them, whatever the count of changes (the planner's
    // rule, planner.h); true: the user allows result-changing changes, and the fewest changes win.
    bool allow_result_changes = false;
    // The RAM of the host the advised cards sit in (the user's own: settings host_system.ram_gib), for the planner's
    // optimizer offload; 0 = unknown (no offload planned).
    double host_ram_bytes = 0;
    // ECC as the user set it on their own card (the scenario's gpu.ecc), for the card of that id only; the other
    // cards keep their own default state (card_memory.h).
    std::string ecc_gpu_id;
    EccSetting ecc = EccSetting::kDefault;
    int max_changes = 4;                 // search depth
    std::vector<int> more_cards = {2, 4, 8};
};

struct AdviceJob {
    ModelSpec spec;
    WorkloadShape shape;                 // per sample, resolved image size / seq len
    TrainingConfig config;               // as given
    Dataset dataset;
    TimeOptions time_options;
    const ThroughputPriors* priors = nullptr;  // nullptr = no times (fewest changes, then least risk)
    // The stack switches the job's stack exposes (catalog: the scenario's `stack`); they are tried before any change
    // that alters the results.
    bool offer_fused_loss = false;
    bool offer_offload_activations = false;
};

// One entry per GPU in `gpus`, in the same order.
std::vector<CardAdvice> advise(const AdviceJob& job, const std::vector<GpuSpec>& gpus, const CompatData& compat,
                               const AdviceOptions& options);

}  // namespace gg::engine
