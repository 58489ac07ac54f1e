// "Calibrate with my measurement" (issue 33): what the user's own run measured on their card, set against the
// engine's estimate of the same scenario, attributed term by term (the job's own tensors, the caching allocator, the
// CUDA context, the card's throughput efficiency for the model family), and the corrections a card then carries.
// Pure C++: no JSON, no UI. Sections: what a card carries | attributing a measurement | applying it
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gg::engine {

struct Tunables;

// What reports and the page call a figure the user's own measurement corrected.
inline constexpr const char* kCalibratedByUser = "calibrated by you";

// ---- what a card carries -------------------------------------------------------------------------------------------
// The user's corrections for one card (GpuSpec::calibration). A term < 0 (or an empty list) is not calibrated: the
// engine's default applies. Set only from the user's own measurements ("calibrated by you" wherever it shows).
struct CardCalibration {
    double cuda_context_bytes = -1;      // replaces Tunables::cuda_context_bytes on this card
    double fragmentation_fraction = -1;  // replaces Tunables::fragmentation_fraction on this card
    struct Speed {
        std::string family;              // family_name() of the model family it was measured with
        double efficiency_factor = 1;    // measured / estimated speed of the card's own work (see below)
    };
    std::vector<Speed> speed;
    bool memory() const { return cuda_context_bytes >= 0 || fragmentation_fraction >= 0; }
    bool any() const { return memory() || !speed.empty(); }
    // The factor for a family, or 0 when the card has none for it.
    double efficiency_factor(const std::string& family) const;
};

// Bounds a derived term must lie in before it is applied; outside them the measurement is more likely wrong (another
// scenario, another unit) than the card. Assumptions, stated as such:
//  - the CUDA context is "around 400MB if CUDA >= 11.7 is used and lazy module loading enabled" (ptrblck,
//    pytorch/pytorch#109888) and 1343 MiB with every kernel loaded eagerly (CUDA 11.2 on a V100, HF "Efficient
//    Training on a Single GPU"): 256 MiB .. 3 GiB leaves room on both sides for other CUDA and library versions;
//  - the caching allocator's slack (reserved / allocated - 1) between 0 and 1: above 1 half of what is reserved
//    would be free, which PyTorch's allocator releases and retries before it reports an OOM (c10/cuda/
//    CUDACachingAllocator.cpp, release_cached_blocks);
//  - a throughput factor between 0.25 and 4: the time model's published cases sit within +-25% for most cards
//    (docs/validation.md); a factor past 4 is a different job (batch, accumulation, steps vs samples) or another card.
inline constexpr double kCalibrationContextMinBytes = 256.0 * (1 << 20);
inline constexpr double kCalibrationContextMaxBytes = 3.0 * (1 << 30);
inline constexpr double kCalibrationFragmentationMax = 1.0;
inline constexpr double kCalibrationFactorMin = 0.25;
inline constexpr double kCalibrationFactorMax = 4.0;

// ---- attributing a measurement -------------------------------------------------------------------------------------
// What the user measured for one scenario they ran (0 = not given). nvidia-smi shows the process's whole use: the
// caching allocator's reserved bytes plus the CUDA context; torch.cuda.max_memory_allocated shows the tensors alone
// (no allocator slack, no context); torch.cuda.max_memory_reserved the allocator's reserved bytes (no context).
struct Measurement {
    double nvidia_smi_bytes = 0;
    double peak_allocated_bytes = 0;
    double peak_reserved_bytes = 0;
    double samples_per_s = 0;            // all cards, as the Hugging Face Trainer's train_samples_per_second
};

// The engine's uncalibrated estimate of the same scenario, the part of it each term explains.
struct CalibrationInputs {
    double peak_allocated_bytes = 0;     // MemoryReport::peak_allocated (tensors, workspaces)
    double fragmentation_fraction = 0;   // the Tunables the estimate used
    double cuda_context_bytes = 0;
    double samples_per_s = 0;            // TimeReport::samples_per_s (0 = no time estimate)
    double card_work_s = 0;              // of the step: the card's own work that its efficiency scales (compute,
                                         // bandwidth-bound ops, launch overhead, recurrences, frozen encoders)
    double step_s = 0;                   // the whole step (the rest: exposed communication, offload, loader wait)
    double samples_per_step = 0;
    std::string family;                  // family_name() of the scenario's model
};

// Why a term was not applied (a code with numbers; the page words it in the user's language).
enum class CalibrationIssue : std::uint8_t {
    kNone,
    kTensorsDiffer,       // max_memory_allocated differs from the estimate: the job's own tensors, not a card term
    kContextOutOfRange,   // the context the numbers imply is outside [min, max]: clamped, the rest to the allocator
    kAllocatorOutOfRange, // the allocator slack implied is outside [0, max]: clamped, the rest is left unexplained
    kReservedBelowAllocated,  // reserved < allocated, or nvidia-smi < reserved: impossible readings, not applied
    kNoTimeEstimate,      // no time estimate to compare a throughput with
    kNotCardWork,         // the measured step is shorter than the part of the step the card's efficiency does not set
    kFactorOutOfRange,    // the throughput factor is outside [kCalibrationFactorMin, kCalibrationFactorMax]
};
const char* calibration_issue_name(CalibrationIssue issue);

struct CalibrationResult {
    // The errors as the user sees them: predicted / measured - 1 (0 when not measured).
    double nvidia_smi_error_fraction = 0, allocated_error_fraction = 0, reserved_error_fraction = 0;
    double speed_error_fraction = 0;
    // The estimate the errors compare with (the same view as each measurement).
    double predicted_nvidia_smi_bytes = 0, predicted_allocated_bytes = 0, predicted_reserved_bytes = 0;
    // Attributed terms (what would be applied); < 0 / 0 = not derived.
    double cuda_context_bytes = -1;
    double fragmentation_fraction = -1;
    double efficiency_factor = 0;
    double tensors_delta_bytes = 0;      // measured - estimated tensors (reported, never applied to the card)
    double unexplained_bytes = 0;        // what neither card term explains within its bounds (reported)
    std::vector<CalibrationIssue> issues;
    bool applicable() const { return cuda_context_bytes >= 0 || fragmentation_fraction >= 0 || efficiency_factor > 0; }
};

// Attributes each measured figure to the terms that can explain it:
//  - max_memory_allocated vs the estimate's peak allocated: the job's own tensors (reported, not a card term);
//  - reserved vs allocated: the allocator's slack; nvidia-smi vs reserved: the CUDA context (exact when all three
//    are given);
//  - nvidia-smi without reserved: what nvidia-smi adds over the tensors (measured, or the estimate's without
//    max_memory_allocated) goes first to the context, within its bounds (a constant per card and CUDA version),
//    the rest to the allocator's slack within its bounds, the rest is left unexplained;
//  - throughput: the card's efficiency factor k with card_work_s / k + (step_s - card_work_s) = the measured step.
CalibrationResult attribute_measurement(const Measurement& measured, const CalibrationInputs& estimate);

// ---- applying it ---------------------------------------------------------------------------------------------------
// The tunables of a job on a card with this calibration (the calibrated terms replace the job's).
Tunables calibrated_tunables(const Tunables& job, const CardCalibration& calibration);
// nvidia-smi bytes on the calibrated card from those of the uncalibrated job: allocated x (1 + f) + context, with the
// card's f and context: (required - C) (1 + f') / (1 + f) + C'.
double calibrated_required_bytes(double required_bytes, const Tunables& job, const CardCalibration& calibration);
// The inverse: the uncalibrated bytes that the calibrated card holds in `limit_bytes` (to compare a job's
// uncalibrated required bytes with the card without re-preparing it).
double uncalibrated_limit_bytes(double limit_bytes, const Tunables& job, const CardCalibration& calibration);

}  // namespace gg::engine
