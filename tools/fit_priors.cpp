// Reproduces the fitted numbers of data/throughput_priors.json from the validation cases (`make fit`).
//
//   gg_fit_priors            every fit: the committed values, the grid's best, and the spread (low / high) the
//                            family priors derive from it; exit 1 when a committed value is not its grid's optimum
//   gg_fit_priors --check    only the committed values against their grid neighbours (fast; what the tests do)
//   gg_fit_priors --only cnn one fit by name (cnn, transformer, per_layer_overhead, overlap, sharded_overlap)
//
// The data and cases are the ones compiled in (data/*.json, tests/validation/*.json): rebuild after editing them.
// The grids and error measures are in src/catalog/fit.h.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "catalog/fit.h"
#include "catalog/time_data.h"

namespace {

using gg::catalog::FitPoint;
using gg::catalog::FitSpec;

// RMS differences smaller than this are ties (the data rounds to a grid step; the cases are rounded measurements).
constexpr double kTie = 5e-4;

std::string describe(const FitSpec& spec, const std::vector<double>& values) {
    std::string out;
    char buf[64];
    for (std::size_t i = 0; i < spec.axes.size(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%s %.3g", i ? ", " : "", gg::catalog::fit_knob_name(spec.axes[i].knob),
                      values[i]);
        out += buf;
    }
    return out;
}

void print_spread(const FitSpec& spec, const std::vector<const gg::catalog::TimeCase*>& cases,
                  const gg::engine::ThroughputPriors& priors) {
    const gg::engine::EfficiencyPrior* prior = nullptr;
    for (const auto& e : priors.priors)
        if (e.id == spec.name) prior = &e;
    if (!prior) return;
    const gg::catalog::RatioRange r = gg::catalog::measured_over_predicted(cases, priors);
    std::printf("  spread: measured/predicted %.3f..%.3f over %d cases ->\n", r.min, r.max, r.cases);
    std::printf("    matmul_fraction    low %.3f high %.3f (data: %.3f, %.3f)\n",
                prior->matmul_fraction.expected * r.min, prior->matmul_fraction.expected * r.max,
                prior->matmul_fraction.low, prior->matmul_fraction.high);
    std::printf("    bandwidth_fraction low %.3f high %.3f (data: %.3f, %.3f)\n",
                prior->bandwidth_fraction.expected * r.min, prior->bandwidth_fraction.expected * r.max,
                prior->bandwidth_fraction.low, prior->bandwidth_fraction.high);
}

}  // namespace

int main(int argc, char** argv) {
    bool check_only = false;
    std::string only;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--check")) check_only = true;
        else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else {
            std::fprintf(stderr, "usage: gg_fit_priors [--check] [--only NAME]\n");
            return 2;
        }
    }
    if (!gg::catalog::embedded_time_data_problems().empty()) {
        for (const auto& p : gg::catalog::embedded_time_data_problems())
            std::fprintf(stderr, "%s%s: %s\n", p.file.c_str(), p.pointer.c_str(), p.message.c_str());
        return 2;
    }
    const gg::engine::ThroughputPriors& priors = gg::catalog::embedded_time_data();
    const std::vector<gg::catalog::TimeCase> all = gg::catalog::load_time_cases();
    int failures = 0, ran = 0;
    for (const FitSpec& spec : gg::catalog::fit_specs(priors)) {
        if (!only.empty() && spec.name != only) continue;
        ++ran;
        std::vector<std::string> missing;
        const auto cases = gg::catalog::select_cases(all, spec.case_ids, missing);
        std::printf("fit %s: %zu cases\n", spec.name.c_str(), cases.size());
        for (const std::string& id : missing)
            std::printf("  MISSING case %s (not found, not runnable, or informative)\n", id.c_str());
        for (const auto& a : spec.axes)
            std::printf("  grid %s %.3g..%.3g step %.3g\n", gg::catalog::fit_knob_name(a.knob), a.lo, a.hi, a.step);
        const gg::catalog::Neighbourhood n = gg::catalog::neighbourhood(spec, cases, priors);
        std::printf("  committed: %s  RMS %.4f\n", describe(spec, n.committed.values).c_str(), n.committed.error);
        for (const FitPoint& p : n.neighbours)
            std::printf("    neighbour %s  RMS %.4f\n", describe(spec, p.values).c_str(), p.error);
        bool ok = missing.empty() && n.optimal(kTie);
        if (!check_only) {
            const FitPoint best = gg::catalog::grid_search(spec, cases, priors);
            std::printf("  grid best: %s  RMS %.4f\n", describe(spec, best.values).c_str(), best.error);
            ok = ok && n.committed.error <= best.error + kTie;
            print_spread(spec, cases, priors);
        }
        std::printf("  %s\n", ok ? "ok: the committed values are the grid's optimum (ties within 0.0005)"
                                    : "REFIT: the committed values are not the grid's optimum");
        failures += !ok;
    }
    if (ran == 0) {
        std::fprintf(stderr, "no fit named '%s'\n", only.c_str());
        return 2;
    }
    return failures ? 1 : 0;
}
