// Internal to the time engine (time.cpp, time_comm.cpp, time_step.cpp): the links a collective runs over and the
// step times of one configuration at one set of efficiencies, which evaluate_time combines into the report. Not
// part of the engine's API (time.h is); no JSON or UI code.
#pragma once

#include <string>

#include "engine/time.h"

namespace gg::engine::time_detail {

// ---- links (time_comm.cpp) ---------------------------------------------------------------------------------------
struct Link {
    double bus_bytes_per_s = 0;
    double latency_s = 0;
    std::string id;
    bool crosses_nodes = false;  // the bottleneck is the network between nodes
};

// A link's bus bandwidth at its expected achievable fraction and at the slow and fast ends of its range.
struct Bus {
    double low = 0, mid = 0, high = 0;
    void keep_slower(const Bus& other) {
        low = std::min(low, other.low), mid = std::min(mid, other.mid), high = std::min(high, other.high);
    }
};

Bus link_bandwidth(const InterconnectSpec& e, const GpuSpec& gpu);

// The links of one ring: expected, and at the slow / fast ends of the links' measured ranges (step_high_s /
// step_low_s use them).
struct Links {
    Link mid, slow, fast;
};

// The bottleneck link of a ring of n GPUs (the scenario's interconnect, the card's defaults and the network).
Links resolve_link(const GpuSpec& gpu, const TimeOptions& o, const ThroughputPriors& priors, int n);
// A group holding `per_node` of each node's GPUs gets that share of the node's network bandwidth.
void share_node_network(Links& links, double per_node, double gpus_per_node);

// ---- one step at one set of efficiencies (time_step.cpp) -----------------------------------------------------
struct Efficiency {
    double matmul = 0, bandwidth = 0;
    double fused_attention_flop_per_s = 0;  // > 0: fused attention kernels run at most this fast (Hopper, FA2)
    double linear_best_flop_per_s = 0;      // > 0: the card's measured best GEMM at the Linear layers' rate
    double other_best_flop_per_s = 0;       // > 0: the same at the other compute-bound ops' rate (convolutions,
                                            // attention); differs from the Linear one under FP8 only
    double stream_scale = 1;                // the SM stream limit at this end of the range (bandwidth / expected)
    double host_scale = 1;                  // host-side times (dispatch, launches, for-loop optimizer) / this
    // > 0: a card with a measured best GEMM runs its GEMMs at that best x this (the prior's fraction over the
    // reference card's measured fraction of its peak, ThroughputPriors::matmul_reference_fraction), scaled like the
    // caps at the range's ends; 0: the measurement only caps the prior's fraction of the datasheet peak.
    double best_to_rate = 0;
};

struct StepTimes {
    double step_s = 0, compute_s = 0, memory_s = 0, overhead_s = 0, recurrent_s = 0, optimizer_s = 0, comm_s = 0,
           exposed_s = 0, optimizer_loop_s = 0, optimizer_loop_ops = 0, model_parallel_s = 0, bubble_s = 0,
           activation_offload_s = 0;
    DpStepTimes dp;
    // The step: its parts one after another (what overlaps is already out of exposed_s and activation_offload_s).
    double total() const {
        return compute_s + memory_s + overhead_s + recurrent_s + exposed_s + model_parallel_s + bubble_s +
               activation_offload_s;
    }
};

// The links a step uses: the data-parallel ring's, and under tensor/pipeline parallelism the tensor-parallel
// group's and the one between pipeline stages.
struct StepLinks {
    Link ring, tensor, pipeline;
    double host_bytes_per_s = 0;  // the card's PCIe link to host memory, each way (offloaded checkpointing)
};

// The framework's memory-bound kernels' bandwidth: DRAM's at the prior's fraction, capped by the SM stream limit.
double elementwise_bytes_per_s(double dram_bytes_per_s, double cap_bytes_per_s);
// One optimizer step of n GPUs over `links`: micro-batches, optimizer, communication, pipeline bubble.
StepTimes step_times(const PreparedTime& t, double batch, const GpuSpec& gpu, int n, const StepLinks& links,
                     double grad_bytes, double overlap, double sharded_overlap, double overlap_slowdown,
                     double peak, double peak_linear,
                     Efficiency e, double stream_cap_bytes_per_s, double overhead_per_pass, double kernel_launch_s,
                     double optimizer_op_s);

}  // namespace gg::engine::time_detail
