// The planner: for one option (a card model x a card count, with the host it sits in), the way to run the job that
// trains the same model with the same results and takes the least time, hence costs least on that option. Same
// results: the user's model, precision, optimizer, method, shape and global batch are kept; what may change is how
// the work is laid out (Rajbhandari et al. 2020, ZeRO: sharding is the same math as data parallelism; Chen et al.
// 2016: checkpointing recomputes the same forward; accumulation sums the same per-sample gradients; Shoeybi et al.
// 2019 / Narayanan et al. 2021: tensor and pipeline parallelism compute the same layers):
//   - distribution: DDP, ZeRO-1/2/3, FSDP, optimizer offload to host RAM (ZeRO-Offload), tensor parallelism inside a
//     server over NVLink/NVSwitch, pipeline stages;
//   - activation checkpointing (none, full) and a fused attention kernel instead of eager attention;
//   - micro-batch x accumulation x data-parallel replicas with the product = the user's global batch (models with
//     BatchNorm keep the user's micro-batch too: its statistics are per micro-batch).
// Memory is card-independent: every layout is prepared once per card count and its bytes at each micro-batch are
// tabulated; a card then only compares numbers, and times are computed for the layouts no other fitting layout
// beats on every axis (the pruning by structure). No JSON, no UI.
//
// Sections: plans | the search
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/card_memory.h"
#include "engine/compat.h"
#include "engine/hardware.h"
#include "engine/memory.h"
#include "engine/time.h"
#include "engine/workload.h"

namespace gg::engine {

// ---- plans -------------------------------------------------------------------------------------------------------
// Why a plan that would have run faster was not taken, or why no plan exists on an option.
enum class PlanRejection : std::uint8_t {
    kMemory,          // peak_bytes, usable_bytes: the lighter layout (values: at the plan's micro-batch) does not fit
    kSlower,          // time_s (the lighter layout fits, but its best micro-batch is slower: it was not chosen)
    kHostRam,         // host_ram_bytes, host_capacity_bytes: offloading would fit the card but not the host's RAM
    kHostRamUnknown,  // host_ram_bytes: offloading would fit the card; the host's RAM is not in the data
    kLink,            // tensor parallelism needs NVLink/NVSwitch inside one server; this card talks over PCIe
    kBatchSplit,      // global_batch, replicas: the global batch does not split over the data-parallel replicas
    kBatchNorm,       // global_batch, micro_batch: BatchNorm keeps the typed micro-batch, which the replicas cannot share
};
const char* plan_rejection_name(PlanRejection r);  // "memory", "slower", "host_ram", ...

// The layout axis a rejection is about (the plan's own layout with this axis one step lighter).
enum class PlanAxis : std::uint8_t {
    kNone, kCheckpointing, kSharding, kOffload, kTensorParallel, kPipeline, kMicroBatch,
};
const char* plan_axis_name(PlanAxis a);  // "none", "checkpointing", "sharding", ...

struct PlanNote {
    PlanRejection code = PlanRejection::kMemory;
    PlanAxis axis = PlanAxis::kNone;
    NamedValues<2> values;
};

struct Plan {
    bool found = false;
    Verdict verdict = Verdict::kDoesNotFit;  // kFits (with the headroom a real run needs) or kTight (the card only)
    Headroom headroom;            // judge_job's headroom of the plan on the target
    bool as_typed = false;        // the user's own layout (only the card count and the accumulation may differ)
    TrainingConfig config;        // batch = micro-batch; grad_accum_steps, gpu_count, strategy, TP/PP, checkpointing,
                                  // eager_attention, offload_optimizer: apply these to the scenario to reproduce it
    double global_batch = 0;      // micro-batch x accumulation x data-parallel replicas (= the user's)
    double peak_bytes_per_card = 0;   // nvidia-smi view (required_bytes)
    double host_ram_bytes = 0;        // per server: what optimizer offload keeps in host memory (0 = none)
    double time_s = 0;                // one run; NaN = unknown (no dataset or no priors)
    double step_s = 0;                // one optimizer step; NaN = unknown
    std::vector<PlanNote> notes;      // the rejected lighter layouts (found), or why nothing works (not found)
    double loader_cpus_per_gpu = -1;  // the target's CPUs per card its times assumed (PlanTarget::cpus_per_gpu)
};

// ---- the search --------------------------------------------------------------------------------------------------
struct PlanJob {
    ModelSpec spec;
    WorkloadShape shape;            // per sample (batch 1)
    TrainingConfig config;          // as typed: its global batch is kept
    Dataset dataset;
    TimeOptions time_options;       // interconnect_set false: each card its own link
    const ThroughputPriors* priors = nullptr;  // nullptr = no times: the lightest fitting layout wins
};

// Where an option's cards sit: the card, how many, and the host(s) they are in.
struct PlanTarget {
    const GpuSpec* gpu = nullptr;
    int count = 1;
    bool owned_display_card = false;  // a card in the user's own machine that may draw the desktop (display_bytes)
    double host_ram_bytes = 0;      // per server; 0 = unknown (no offload then)
    int gpus_per_server = 8;        // the cards of one server (tensor parallelism stays inside one)
    EccSetting ecc = EccSetting::kDefault;  // ECC as the user set it on their own card (card_memory.h)
    double cpus_per_gpu = -1;       // the loader's CPUs per card (engine/loader.h): < 0 = the job's own, 0 = unknown
};

// Prepares layouts lazily per card count and caches plans per (count, card memory, host RAM, link): a ranking of the
// whole catalog prepares each count once and searches each distinct card memory once.
class Planner {
public:
    explicit Planner(const PlanJob& job);
    ~Planner();
    Planner(const Planner&) = delete;
    Planner& operator=(const Planner&) = delete;

    // The fastest same-result plan that fits the target with the headroom a real run needs (judge_job's kFits);
    // when none does, the fastest that fits the card alone (kTight). The lightest one when times are unknown.
    Plan plan(const PlanTarget& target);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Models whose presets use BatchNorm: their statistics are per micro-batch, so a smaller micro-batch changes the
// results even at the same global batch (the planner keeps it; the advisor's accumulation says so).
bool uses_batchnorm(Family family);

}  // namespace gg::engine
