// The fitted numbers of data/throughput_priors.json are reproducible: each is the optimum of its grid over the
// cases the data lists for it (src/catalog/fit.h; tools/fit_priors.cpp prints the same fits). When the engine's
// FLOP or byte counts change, these fail until the priors are refitted (`make fit`).
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "catalog/fit.h"
#include "catalog/time_data.h"

namespace {

using namespace gg::catalog;

const std::vector<TimeCase>& all_cases() {
    static const std::vector<TimeCase> c = load_time_cases();
    return c;
}

// RMS differences below this are ties: the data keeps values on the grid, the cases are rounded measurements.
constexpr double kTie = 5e-4;

}  // namespace

TEST_CASE("fit: the data describes a fit for every fitted prior, and its cases exist") {
    const auto& priors = embedded_time_data();
    const std::vector<FitSpec> specs = fit_specs(priors);
    std::set<std::string> names;
    for (const FitSpec& s : specs) names.insert(s.name);
    for (const char* name : {"cnn", "transformer", "per_layer_overhead", "overlap", "sharded_overlap"}) {
        CAPTURE(name);
        CHECK(names.count(name) == 1);
    }
    for (const FitSpec& s : specs) {
        CAPTURE(s.name);
        std::vector<std::string> missing;
        const auto cases = select_cases(all_cases(), s.case_ids, missing);
        for (const std::string& id : missing) FAIL_CHECK("fit case not found, not runnable or informative: " << id);
        CHECK(cases.size() == s.case_ids.size());
        CHECK(cases.size() >= 2);
    }
    // The stream limit is fitted with the cnn prior: its fit has three axes.
    for (const FitSpec& s : specs)
        if (s.name == priors.stream_fitted_with) CHECK(s.axes.size() == 3);
}

TEST_CASE("fit: every fitted number of data/throughput_priors.json is the optimum of its grid") {
    const auto& priors = embedded_time_data();
    for (const FitSpec& s : fit_specs(priors)) {
        CAPTURE(s.name);
        std::vector<std::string> missing;
        const auto cases = select_cases(all_cases(), s.case_ids, missing);
        const Neighbourhood n = neighbourhood(s, cases, priors);
        const FitPoint best = grid_search(s, cases, priors);
        CAPTURE(n.committed.error);
        CAPTURE(best.error);
        CHECK(std::isfinite(n.committed.error));
        CHECK(n.optimal(kTie));
        CHECK(n.committed.error <= best.error + kTie);
        // Committed values lie on the grid (the data is not tuned between grid points).
        for (std::size_t i = 0; i < s.axes.size(); ++i) {
            const FitAxis& a = s.axes[i];
            const double v = knob_value(priors, a);
            CAPTURE(fit_knob_name(a.knob));
            CHECK(v >= a.lo - 1e-9);
            CHECK(v <= a.hi + 1e-9);
            const double steps = (v - a.lo) / a.step;
            CHECK(std::fabs(steps - std::round(steps)) < 1e-6);
        }
    }
}

TEST_CASE("fit: a family prior's low / high are its expected value scaled by the fit's spread") {
    const auto& priors = embedded_time_data();
    int checked = 0;
    for (const gg::engine::EfficiencyPrior& e : priors.priors) {
        if (e.fitted_to.empty()) continue;
        CAPTURE(e.id);
        std::vector<std::string> missing;
        const RatioRange r = measured_over_predicted(select_cases(all_cases(), e.fitted_to, missing), priors);
        REQUIRE(r.cases == int(e.fitted_to.size()));
        CHECK(r.min <= 1.0);
        CHECK(r.max >= 1.0);
        // The data rounds to 3 decimals.
        CHECK(std::fabs(e.matmul_fraction.low - e.matmul_fraction.expected * r.min) <= 0.0015);
        CHECK(std::fabs(e.matmul_fraction.high - e.matmul_fraction.expected * r.max) <= 0.0015);
        CHECK(std::fabs(e.bandwidth_fraction.low - e.bandwidth_fraction.expected * r.min) <= 0.0015);
        CHECK(std::fabs(e.bandwidth_fraction.high - e.bandwidth_fraction.expected * r.max) <= 0.0015);
        ++checked;
    }
    CHECK(checked >= 2);
    // A prior fitted to nothing spans the fitted ones: its range may not look narrower than what was measured.
    for (const gg::engine::EfficiencyPrior& e : priors.priors) {
        if (!e.fitted_to.empty()) continue;
        CAPTURE(e.id);
        for (const gg::engine::EfficiencyPrior& f : priors.priors) {
            if (f.fitted_to.empty()) continue;
            CHECK(e.matmul_fraction.low <= f.matmul_fraction.low + 1e-9);
            CHECK(e.matmul_fraction.high >= f.matmul_fraction.high - 1e-9);
            CHECK(e.bandwidth_fraction.low <= f.bandwidth_fraction.low + 1e-9);
            CHECK(e.bandwidth_fraction.high >= f.bandwidth_fraction.high - 1e-9);
        }
    }
}

TEST_CASE("fit: a stale prior is caught, and the grid search finds the fitted value again") {
    gg::engine::ThroughputPriors stale = embedded_time_data();
    FitSpec cnn;
    for (const FitSpec& s : fit_specs(stale))
        if (s.name == "cnn") cnn = s;
    REQUIRE(cnn.axes.size() >= 2);
    std::vector<std::string> missing;
    const auto cases = select_cases(all_cases(), cnn.case_ids, missing);
    const double fitted = knob_value(stale, cnn.axes[1]);  // the bandwidth fraction
    set_knob(stale, cnn.axes[1], fitted - 0.15);
    CHECK_FALSE(neighbourhood(cnn, cases, stale).optimal(kTie));
    // Searching the bandwidth axis alone (the others as committed) lands within a grid step of the data.
    FitSpec one = cnn;
    one.axes = {cnn.axes[1]};
    const FitPoint best = grid_search(one, cases, stale);
    REQUIRE(best.values.size() == 1);
    CHECK(std::fabs(best.values[0] - fitted) <= 0.011);
}

TEST_CASE("fit: errors are in log ratio for throughputs and in points for efficiencies") {
    const auto& priors = embedded_time_data();
    std::vector<std::string> missing;
    const auto one = select_cases(all_cases(), {"lambda-resnet50-fp16-1x-v100-sxm2-16gb"}, missing);
    REQUIRE(one.size() == 1);
    const ValidationRow r = evaluate_time_case(*one[0], priors);
    CHECK(fit_error(one, priors) == doctest::Approx(std::fabs(std::log(r.predicted / r.measured))));
    const auto eff = select_cases(all_cases(), {"lambda-scaling-resnet50-fp16-8x-v100-sxm2-16gb"}, missing);
    REQUIRE(eff.size() == 1);
    const ValidationRow e = evaluate_time_case(*eff[0], priors);
    CHECK(fit_error(eff, priors) == doctest::Approx(std::fabs(e.predicted - e.measured)));
    // Unknown ids are reported, and an empty case list has no error to minimise.
    missing.clear();
    CHECK(select_cases(all_cases(), {"no-such-case"}, missing).empty());
    CHECK(missing.size() == 1);
    CHECK(std::isinf(fit_error({}, priors)));
}
