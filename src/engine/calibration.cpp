// Attribution of a user's measurement to the engine's terms, and the calibrated card's transforms (calibration.h).
#include "engine/calibration.h"

#include <algorithm>
#include <cmath>

#include "engine/memory.h"

namespace gg::engine {

double CardCalibration::efficiency_factor(const std::string& family) const {
    for (const Speed& s : speed)
        if (s.family == family) return s.efficiency_factor;
    return 0;
}

const char* calibration_issue_name(CalibrationIssue issue) {
    switch (issue) {
        case CalibrationIssue::kNone: return "none";
        case CalibrationIssue::kTensorsDiffer: return "tensors_differ";
        case CalibrationIssue::kContextOutOfRange: return "context_out_of_range";
        case CalibrationIssue::kAllocatorOutOfRange: return "allocator_out_of_range";
        case CalibrationIssue::kReservedBelowAllocated: return "reserved_below_allocated";
        case CalibrationIssue::kNoTimeEstimate: return "no_time_estimate";
        case CalibrationIssue::kNotCardWork: return "not_card_work";
        case CalibrationIssue::kFactorOutOfRange: return "factor_out_of_range";
    }
    return "none";
}

namespace {

double error_of(double predicted, double measured) { return measured > 0 ? predicted / measured - 1.0 : 0.0; }

// A difference within 1% of the figure is the readings' own rounding (nvidia-smi shows whole MiB; the Trainer's
// samples per second have 3 decimals): not a term to attribute.
constexpr double kSameFraction = 0.01;

}  // namespace

CalibrationResult attribute_measurement(const Measurement& m, const CalibrationInputs& e) {
    CalibrationResult r;
    r.predicted_allocated_bytes = e.peak_allocated_bytes;
    r.predicted_reserved_bytes = e.peak_allocated_bytes * (1.0 + e.fragmentation_fraction);
    r.predicted_nvidia_smi_bytes = r.predicted_reserved_bytes + e.cuda_context_bytes;
    r.nvidia_smi_error_fraction = error_of(r.predicted_nvidia_smi_bytes, m.nvidia_smi_bytes);
    r.allocated_error_fraction = error_of(r.predicted_allocated_bytes, m.peak_allocated_bytes);
    r.reserved_error_fraction = error_of(r.predicted_reserved_bytes, m.peak_reserved_bytes);

    // ---- memory
    const double A = m.peak_allocated_bytes, R = m.peak_reserved_bytes, N = m.nvidia_smi_bytes;
    if (A > 0) {
        r.tensors_delta_bytes = A - e.peak_allocated_bytes;
        if (std::fabs(r.allocated_error_fraction) > kSameFraction) r.issues.push_back(CalibrationIssue::kTensorsDiffer);
    }
    if ((A > 0 && R > 0 && R < A) || (R > 0 && N > 0 && N < R) || (A > 0 && N > 0 && N < A)) {
        r.issues.push_back(CalibrationIssue::kReservedBelowAllocated);
    } else {
        // The tensors the allocator's slack is a share of: measured when given, else the estimate's.
        const double tensors = A > 0 ? A : e.peak_allocated_bytes;
        if (R > 0) {
            // max_memory_reserved: the slack over the tensors is the allocator's (exact with A, else over the
            // estimate's tensors); nvidia-smi over reserved is the context (exact).
            const double slack = tensors > 0 ? R / tensors - 1.0 : 0.0;
            const double f = std::clamp(slack, 0.0, kCalibrationFragmentationMax);
            if (f != slack) {
                r.issues.push_back(CalibrationIssue::kAllocatorOutOfRange);
                r.unexplained_bytes += (slack - f) * tensors;
            }
            r.fragmentation_fraction = f;
            if (N > 0) {
                const double context = std::clamp(N - R, kCalibrationContextMinBytes, kCalibrationContextMaxBytes);
                if (context != N - R) {
                    r.issues.push_back(CalibrationIssue::kContextOutOfRange);
                    r.unexplained_bytes += (N - R) - context;
                }
                r.cuda_context_bytes = context;
            }
        } else if (N > 0) {
            // Only the whole: a difference within the readings' rounding changes nothing; else the split.
            const double predicted = tensors * (1.0 + e.fragmentation_fraction) + e.cuda_context_bytes;
            if (std::fabs(predicted / N - 1.0) > kSameFraction) {
                // The context first (a constant per card and CUDA version), with the allocator's slack at the
                // estimate's share; past the context's bounds the allocator's slack takes the rest, within its own.
                const double wanted = N - tensors * (1.0 + e.fragmentation_fraction);
                const double context = std::clamp(wanted, kCalibrationContextMinBytes, kCalibrationContextMaxBytes);
                r.cuda_context_bytes = context;
                if (context != wanted && tensors > 0) {
                    r.issues.push_back(CalibrationIssue::kContextOutOfRange);
                    const double slack = (N - context) / tensors - 1.0;
                    const double f = std::clamp(slack, 0.0, kCalibrationFragmentationMax);
                    r.fragmentation_fraction = f;
                    if (f != slack) {
                        r.issues.push_back(CalibrationIssue::kAllocatorOutOfRange);
                        r.unexplained_bytes = (slack - f) * tensors;
                    }
                }
            }
        }
    }

    // ---- throughput
    if (m.samples_per_s > 0) {
        if (!(e.samples_per_s > 0) || !(e.step_s > 0) || !(e.samples_per_step > 0)) {
            r.issues.push_back(CalibrationIssue::kNoTimeEstimate);
        } else {
            r.speed_error_fraction = error_of(e.samples_per_s, m.samples_per_s);
            const double measured_step_s = e.samples_per_step / m.samples_per_s;
            const double rest_s = e.step_s - e.card_work_s;
            if (!(e.card_work_s > 0) || measured_step_s <= rest_s) {
                r.issues.push_back(CalibrationIssue::kNotCardWork);
            } else {
                const double k = e.card_work_s / (measured_step_s - rest_s);
                if (k < kCalibrationFactorMin || k > kCalibrationFactorMax)
                    r.issues.push_back(CalibrationIssue::kFactorOutOfRange);
                else if (std::fabs(r.speed_error_fraction) > kSameFraction)
                    r.efficiency_factor = k;
            }
        }
    }
    return r;
}

Tunables calibrated_tunables(const Tunables& job, const CardCalibration& c) {
    Tunables t = job;
    if (c.cuda_context_bytes >= 0) t.cuda_context_bytes = c.cuda_context_bytes;
    if (c.fragmentation_fraction >= 0) t.fragmentation_fraction = c.fragmentation_fraction;
    return t;
}

double calibrated_required_bytes(double required_bytes, const Tunables& job, const CardCalibration& c) {
    if (!c.memory()) return required_bytes;
    const Tunables t = calibrated_tunables(job, c);
    const double allocated = (required_bytes - job.cuda_context_bytes) / (1.0 + job.fragmentation_fraction);
    return allocated * (1.0 + t.fragmentation_fraction) + t.cuda_context_bytes;
}

double uncalibrated_limit_bytes(double limit_bytes, const Tunables& job, const CardCalibration& c) {
    if (!c.memory()) return limit_bytes;
    const Tunables t = calibrated_tunables(job, c);
    const double allocated = (limit_bytes - t.cuda_context_bytes) / (1.0 + t.fragmentation_fraction);
    return allocated * (1.0 + job.fragmentation_fraction) + job.cuda_context_bytes;
}

}  // namespace gg::engine
