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
    engine::TimeReport time;
    if (estimate_time(s.scenario, catalog, embedded_time_data(), time)) {
        report["time"] = time_to_json(time);
        report["time"]["scaling"] =
            scaling_to_json(scaling_rows(s.scenario, estimate, catalog, embedded_time_data(), scaling_copies(s.scenario)));
    } else {
        report["time"] = nullptr;
    }
    return report;
}

}  // namespace gg::catalog
