// The whole report of a scenario: memory + time + the scenario (see full_report.h).
#include "catalog/full_report.h"

#include "catalog/scaling.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"

namespace gg::catalog {

nlohmann::json decision_scenario_to_json(const DecisionScenario& s) {
    nlohmann::json doc = scenario_to_json(s.scenario);
    const nlohmann::json decision = decision_keys_to_json(s);
    if (decision.is_object())
        for (auto it = decision.begin(); it != decision.end(); ++it) doc[it.key()] = it.value();
    return doc;
}

nlohmann::json full_report(const DecisionScenario& s, const Estimate& estimate, const Catalog& catalog) {
    nlohmann::json report = report_to_json(s.scenario, estimate);
    report["scenario"] = decision_scenario_to_json(s);
    // One prepared run (graph, FLOPs, bytes) for the scenario's own estimate and its rows at other card counts.
    PreparedTimeRun run;
    if (prepare_time_run(s.scenario, catalog, run)) {
        const engine::ThroughputPriors& priors = embedded_time_data();
        report["time"] = time_to_json(evaluate_time_run(run, priors));
        report["time"]["scaling"] =
            scaling_to_json(scaling_rows(s.scenario, estimate, run, priors, scaling_copies(s.scenario)));
    } else {
        report["time"] = nullptr;
    }
    return report;
}

}  // namespace gg::catalog
