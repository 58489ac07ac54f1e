// Internal to the memory engine (memory.cpp, memory_terms.cpp, memory_fit.cpp): the byte tables, trainability and
// saved-activations walk that prepare needs, and the per-stage requirement the timeline reads. Not part of the
// engine's API (memory.h is); no JSON or UI code.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/memory.h"

namespace gg::engine::memory_detail {

// ---- byte tables (memory_terms.cpp) ---------------------------------------------------------------------------
bool is_autocast(Precision p);
bool is_quantized(Precision p);
bool frozen_16bit(const TrainingConfig& c);
double compute_bytes(Precision p);
double param_bytes(Precision p);

// NF4 (Dettmers et al. 2023, QLoRA, sec. 3): 4-bit values + block-wise absmax over blocks of 64; with double
// quantization the absmax is 8-bit with one fp32 constant per 256 blocks: 4 + 8/64 + 32/(64*256) bits/param.
constexpr double kNf4BytesPerParam = (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;
// LLM.int8 (Dettmers et al. 2022, sec. 3): int8 weights with one fp32 scale per output row (Int8Params.SCB).
constexpr double kInt8BytesPerParam = 1.0;
bool megatron_mixed(const TrainingConfig& c);
bool deepspeed_mixed(const TrainingConfig& c);
bool fsdp_mixed(const TrainingConfig& c);
Precision activation_regime(const TrainingConfig& c);

// ---- trainability and the saved activations walk (memory_terms.cpp) ------------------------------------------
bool is_lora_target(const Layer& l, const TrainingConfig& c);
bool fp32_hidden_states(const TrainingConfig& c);

struct Walk {
    std::vector<Segment> segments;
    std::vector<std::int32_t> segment_block;  // block id per segment (-1 = outside blocks)
    std::vector<double> segment_params;       // parameters per segment (ZeRO-3 gather unit)
    double saved_per_sample = 0, kept_per_sample = 0, autocast_copies = 0;
    double host_per_sample = 0;  // offload_activations: block inputs waiting in host RAM
    double lora_params = 0, trainable = 0, total = 0;
};
double rank_params(const Layer& l, const TrainingConfig& c, bool other_stage_than_embedding);
Walk walk(const Graph& g, const TrainingConfig& c, const std::vector<int>& stages, int stage);
double optimizer_state_bytes(const Layer& l, double trainable_elements, Optimizer o, double state_bytes);

// ---- the backward walk (memory.cpp's peak, memory_fit.cpp's timeline) --------------------------------------------
// Backward, segment by segment from the last: earlier segments still hold what they kept, this segment holds
// everything it saved (recomputed under checkpointing), later segments' gradients exist. `kept` is what this
// micro-batch keeps for backward, `stash` what the stage's other micro-batches in flight keep. Calls
// visit(segment, activations, gradients, temporary) once per segment, the last first.
template <class Visit>
void walk_backward(const PreparedMemory& m, double batch, double stash, double kept, double grads_before,
                   Visit&& visit) {
    double kept_before = kept;
    double grads_after = 0;
    for (std::size_t i = m.segments.size(); i-- > 0;) {
        const Segment& s = m.segments[i];
        kept_before -= s.kept_per_sample_bytes * batch + s.kept_const_bytes;
        grads_after += s.grad_bytes;
        visit(i, stash + kept_before + s.full_per_sample_bytes * batch + s.kept_const_bytes,
              std::max(grads_before, grads_after), s.transient_per_sample_bytes * batch + m.dequant_temp_bytes);
    }
}

// ---- evaluate (memory.cpp) -------------------------------------------------------------------------------------
// One pipeline stage's bytes at a micro-batch (required_bytes takes the fullest stage).
double stage_required_bytes(const PreparedMemory& m, double batch);

}  // namespace gg::engine::memory_detail
