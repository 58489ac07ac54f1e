// Grid fits of the time engine's priors (see fit.h).
#include "catalog/fit.h"

#include <cmath>
#include <limits>

namespace gg::catalog {
namespace {

// Fractions (scaling efficiency, MFU) are compared in points; everything else by log ratio.
bool is_fraction(const std::string& quantity) {
    return quantity == "scaling_efficiency_fraction" || quantity == "mfu_fraction";
}

engine::EfficiencyPrior* find_prior(engine::ThroughputPriors& priors, const std::string& id) {
    for (engine::EfficiencyPrior& e : priors.priors)
        if (e.id == id) return &e;
    return nullptr;
}

const engine::EfficiencyPrior* find_prior(const engine::ThroughputPriors& priors, const std::string& id) {
    for (const engine::EfficiencyPrior& e : priors.priors)
        if (e.id == id) return &e;
    return nullptr;
}

int grid_count(const FitAxis& a) { return int(std::floor((a.hi - a.lo) / a.step + 1e-6)) + 1; }

// Grid values are rounded to a millionth so that 0.85 is 0.85 and not 0.8500000001.
double grid_value(const FitAxis& a, int i) { return std::round((a.lo + i * a.step) * 1e6) / 1e6; }

FitPoint evaluate_point(const FitSpec& spec, const std::vector<double>& values,
                        const std::vector<const TimeCase*>& cases, engine::ThroughputPriors& scratch) {
    for (std::size_t i = 0; i < spec.axes.size(); ++i) set_knob(scratch, spec.axes[i], values[i]);
    return {values, fit_error(cases, scratch)};
}

}  // namespace

const char* fit_knob_name(FitKnob knob) {
    switch (knob) {
        case FitKnob::kMatmulFraction: return "matmul_fraction";
        case FitKnob::kBandwidthFraction: return "bandwidth_fraction";
        case FitKnob::kStreamBytesPerSmCycle: return "bytes_per_sm_cycle";
        case FitKnob::kPerLayerOverheadUs: return "per_layer_overhead_us";
        case FitKnob::kOverlapFraction: return "overlap_fraction";
        case FitKnob::kShardedOverlapFraction: return "sharded_overlap_fraction";
    }
    return "?";
}

std::vector<FitSpec> fit_specs(const engine::ThroughputPriors& priors) {
    std::vector<FitSpec> specs;
    for (const engine::EfficiencyPrior& e : priors.priors) {
        if (e.fitted_to.empty()) continue;
        FitSpec s;
        s.name = e.id;
        s.case_ids = e.fitted_to;
        s.axes.push_back({FitKnob::kMatmulFraction, e.id, 0.50, 0.85, 0.01});
        s.axes.push_back({FitKnob::kBandwidthFraction, e.id, 0.20, 1.00, 0.01});
        if (priors.stream_fitted_with == e.id && priors.stream_bytes_per_sm_cycle > 0)
            s.axes.push_back({FitKnob::kStreamBytesPerSmCycle, "", 5.0, 9.0, 0.1});
        specs.push_back(std::move(s));
    }
    if (!priors.overhead_fitted_to.empty())
        specs.push_back(
            {"per_layer_overhead", {{FitKnob::kPerLayerOverheadUs, "", 0, 60, 5}}, priors.overhead_fitted_to});
    if (!priors.comm.overlap_fitted_to.empty())
        specs.push_back({"overlap", {{FitKnob::kOverlapFraction, "", 0, 1, 0.1}}, priors.comm.overlap_fitted_to});
    if (!priors.comm.sharded_overlap_fitted_to.empty())
        specs.push_back({"sharded_overlap",
                         {{FitKnob::kShardedOverlapFraction, "", 0, 1, 0.1}},
                         priors.comm.sharded_overlap_fitted_to});
    return specs;
}

double knob_value(const engine::ThroughputPriors& priors, const FitAxis& axis) {
    switch (axis.knob) {
        case FitKnob::kMatmulFraction: {
            const engine::EfficiencyPrior* e = find_prior(priors, axis.prior_id);
            return e ? e->matmul_fraction.expected : 0.0;
        }
        case FitKnob::kBandwidthFraction: {
            const engine::EfficiencyPrior* e = find_prior(priors, axis.prior_id);
            return e ? e->bandwidth_fraction.expected : 0.0;
        }
        case FitKnob::kStreamBytesPerSmCycle: return priors.stream_bytes_per_sm_cycle;
        case FitKnob::kPerLayerOverheadUs:
            return priors.priors.empty() ? 0.0 : priors.priors.front().per_layer_overhead_s * 1e6;
        case FitKnob::kOverlapFraction: return priors.comm.overlap_fraction;
        case FitKnob::kShardedOverlapFraction: return priors.comm.sharded_overlap_fraction;
    }
    return 0;
}

void set_knob(engine::ThroughputPriors& priors, const FitAxis& axis, double value) {
    switch (axis.knob) {
        case FitKnob::kMatmulFraction:
            if (engine::EfficiencyPrior* e = find_prior(priors, axis.prior_id)) e->matmul_fraction.expected = value;
            break;
        case FitKnob::kBandwidthFraction:
            if (engine::EfficiencyPrior* e = find_prior(priors, axis.prior_id)) e->bandwidth_fraction.expected = value;
            break;
        case FitKnob::kStreamBytesPerSmCycle: priors.stream_bytes_per_sm_cycle = value; break;
        case FitKnob::kPerLayerOverheadUs:
            for (engine::EfficiencyPrior& e : priors.priors) e.per_layer_overhead_s = value * 1e-6;
            break;
        case FitKnob::kOverlapFraction: priors.comm.overlap_fraction = value; break;
        case FitKnob::kShardedOverlapFraction: priors.comm.sharded_overlap_fraction = value; break;
    }
}

std::vector<const TimeCase*> select_cases(const std::vector<TimeCase>& all, const std::vector<std::string>& ids,
                                          std::vector<std::string>& missing) {
    std::vector<const TimeCase*> out;
    for (const std::string& id : ids) {
        const TimeCase* found = nullptr;
        for (const TimeCase& c : all)
            if (c.row.id == id) found = &c;
        if (found && found->runnable && !found->informative) out.push_back(found);
        else missing.push_back(id);
    }
    return out;
}

double fit_error(const std::vector<const TimeCase*>& cases, const engine::ThroughputPriors& priors) {
    if (cases.empty()) return std::numeric_limits<double>::infinity();
    double sum_sq = 0;
    for (const TimeCase* c : cases) {
        const ValidationRow r = evaluate_time_case(*c, priors);
        if (!r.ran || !(r.predicted > 0) || !(r.measured > 0)) return std::numeric_limits<double>::infinity();
        const double e = is_fraction(r.quantity) ? r.predicted - r.measured : std::log(r.predicted / r.measured);
        sum_sq += e * e;
    }
    return std::sqrt(sum_sq / double(cases.size()));
}

RatioRange measured_over_predicted(const std::vector<const TimeCase*>& cases, const engine::ThroughputPriors& priors) {
    RatioRange out;
    for (const TimeCase* c : cases) {
        if (is_fraction(c->row.quantity)) continue;
        const ValidationRow r = evaluate_time_case(*c, priors);
        if (!r.ran || !(r.predicted > 0)) continue;
        // Time quantities fall as throughput rises: compare as throughputs.
        const bool is_time = r.quantity == "step_s" || r.quantity == "total_s" || r.quantity == "gpu_hours";
        const double ratio = is_time ? r.predicted / r.measured : r.measured / r.predicted;
        out.min = out.cases == 0 ? ratio : std::min(out.min, ratio);
        out.max = out.cases == 0 ? ratio : std::max(out.max, ratio);
        ++out.cases;
    }
    return out;
}

FitPoint grid_search(const FitSpec& spec, const std::vector<const TimeCase*>& cases,
                     const engine::ThroughputPriors& priors) {
    engine::ThroughputPriors scratch = priors;
    if (spec.axes.empty()) return {{}, fit_error(cases, priors)};
    FitPoint best{{}, std::numeric_limits<double>::infinity()};
    std::vector<int> index(spec.axes.size(), 0);
    std::vector<double> values(spec.axes.size());
    while (true) {
        for (std::size_t i = 0; i < spec.axes.size(); ++i) values[i] = grid_value(spec.axes[i], index[i]);
        const FitPoint p = evaluate_point(spec, values, cases, scratch);
        if (p.error < best.error) best = p;
        // Next grid point, the last axis fastest.
        std::size_t axis = spec.axes.size();
        while (axis > 0) {
            --axis;
            if (++index[axis] < grid_count(spec.axes[axis])) break;
            index[axis] = 0;
            if (axis == 0) return best;
        }
    }
}

bool Neighbourhood::optimal(double tie) const {
    for (const FitPoint& n : neighbours)
        if (n.error < committed.error - tie) return false;
    return std::isfinite(committed.error);
}

Neighbourhood neighbourhood(const FitSpec& spec, const std::vector<const TimeCase*>& cases,
                            const engine::ThroughputPriors& priors) {
    engine::ThroughputPriors scratch = priors;
    Neighbourhood out;
    std::vector<double> committed;
    for (const FitAxis& a : spec.axes) committed.push_back(knob_value(priors, a));
    out.committed = evaluate_point(spec, committed, cases, scratch);
    for (std::size_t i = 0; i < spec.axes.size(); ++i)
        for (const double delta : {-spec.axes[i].step, spec.axes[i].step}) {
            std::vector<double> v = committed;
            v[i] = std::round((v[i] + delta) * 1e6) / 1e6;
            if (v[i] < spec.axes[i].lo - 1e-9 || v[i] > spec.axes[i].hi + 1e-9) continue;
            out.neighbours.push_back(evaluate_point(spec, v, cases, scratch));
        }
    return out;
}

}  // namespace gg::catalog
