// Refitting the time engine's fitted priors (data/throughput_priors.json) from the validation cases, so that every
// fitted number in the data can be reproduced: tools/fit_priors.cpp (`make fit`) runs the grid searches, and
// tests/catalog/test_fit.cpp checks that the committed values are still the optimum of their grids.
//
// Each fit varies one or more knobs over a grid, holds every other prior at its committed value, and minimises the
// RMS error over the cases the data lists for it:
//   - a family prior (priors[].fitted_to): matmul and bandwidth fraction, step 0.01, the matmul fraction capped at
//     0.85: the best measured maximum achievable matmul FLOPS (MAMF, BF16, best shape found) is 85.9% of the peak on
//     an A100 SXM, 83.0% on a GH200, 82.2% on an A100 PCIe, 80.1% on an H100 SXM (stas00/ml-engineering,
//     compute/accelerator/README.md, "Maximum Achievable Matmul FLOPS comparison table", mamf-finder.py), so no
//     training run's GEMMs go faster; with the SM stream limit (step 0.1 B) when the data says it was fitted with
//     that prior (sm_stream_limit.fitted_with);
//   - per_layer_overhead_us (per_layer_overhead_fitted_to), step 5 us, the same value for every prior;
//   - comm.overlap_fraction and comm.sharded_overlap_fraction (comm.*_fitted_to), step 0.1.
// Errors: log(predicted / measured) for throughputs, times and ratios; predicted - measured for fractions
// (scaling efficiency, MFU). No UI code here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/time_json.h"
#include "engine/time.h"

namespace gg::catalog {

enum class FitKnob : std::uint8_t {
    kMatmulFraction,         // priors[prior].matmul_fraction.expected
    kBandwidthFraction,      // priors[prior].bandwidth_fraction.expected
    kStreamBytesPerSmCycle,  // sm_stream_limit.bytes_per_sm_cycle
    kPerLayerOverheadUs,     // priors[*].per_layer_overhead_us (all priors together)
    kOverlapFraction,        // comm.overlap_fraction
    kShardedOverlapFraction  // comm.sharded_overlap_fraction
};
const char* fit_knob_name(FitKnob knob);  // the data's key: "matmul_fraction", "bytes_per_sm_cycle", ...

struct FitAxis {
    FitKnob knob = FitKnob::kMatmulFraction;
    std::string prior_id;  // for the fraction knobs
    double lo = 0, hi = 1, step = 0.01;
};

struct FitSpec {
    std::string name;  // "cnn", "transformer", "per_layer_overhead", "overlap", "sharded_overlap"
    std::vector<FitAxis> axes;
    std::vector<std::string> case_ids;
};

// The fits the data describes (family priors with fitted_to, then the overhead and the two overlaps when their
// case lists are given).
std::vector<FitSpec> fit_specs(const engine::ThroughputPriors& priors);

double knob_value(const engine::ThroughputPriors& priors, const FitAxis& axis);
void set_knob(engine::ThroughputPriors& priors, const FitAxis& axis, double value);

// The cases of `ids` among `all` (a pointer each, in the order of `ids`); ids not found or not runnable go to
// `missing`.
std::vector<const TimeCase*> select_cases(const std::vector<TimeCase>& all, const std::vector<std::string>& ids,
                                          std::vector<std::string>& missing);

// RMS error of the cases under `priors` (see the file comment); +inf when a case gives no estimate.
double fit_error(const std::vector<const TimeCase*>& cases, const engine::ThroughputPriors& priors);

// Smallest and largest measured / predicted over the cases (throughput-like quantities only): the family priors'
// low / high are expected x these (the fit's spread).
struct RatioRange {
    double min = 0, max = 0;
    int cases = 0;
};
RatioRange measured_over_predicted(const std::vector<const TimeCase*>& cases, const engine::ThroughputPriors& priors);

struct FitPoint {
    std::vector<double> values;  // one per axis
    double error = 0;
};

// Exhaustive search over the spec's grid (each axis lo..hi by step). Ties go to the first point found.
FitPoint grid_search(const FitSpec& spec, const std::vector<const TimeCase*>& cases,
                     const engine::ThroughputPriors& priors);

// The committed point and its grid neighbours (+-1 step along each axis, inside the axis' range).
struct Neighbourhood {
    FitPoint committed;
    std::vector<FitPoint> neighbours;
    // The committed point is a local optimum: no neighbour is better by more than `tie` (RMS units).
    bool optimal(double tie) const;
};
Neighbourhood neighbourhood(const FitSpec& spec, const std::vector<const TimeCase*>& cases,
                            const engine::ThroughputPriors& priors);

}  // namespace gg::catalog
