// The whole report of a scenario: memory + time + the scenario (see full_report.h).
#include "catalog/full_report.h"

#include <algorithm>

#include "catalog/data_parallel_json.h"
#include "catalog/loader_json.h"
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

// Results no one can mean (issue 30), flagged with the reason rather than shown as if they were plans: a run that
// outlasts a century (a dataset or epoch count off by powers of ten), and a scaling efficiency above 1, which the
// engine's definition rules out (engine/time.h) and would be a bug to report.
nlohmann::json result_checks(const nlohmann::json& time) {
    constexpr double kCenturyS = 100 * 365.25 * 86400;
    nlohmann::json checks = nlohmann::json::array();
    if (!time.is_object()) return checks;
    if (time.contains("total_s") && time["total_s"].is_number() && time["total_s"].get<double>() > kCenturyS)
        checks.push_back({{"code", "run_over_a_century"}, {"total_s", time["total_s"]}, {"limit_s", kCenturyS},
                          {"message", "one training run takes more than a century: check the dataset size, the "
                                      "epochs, the batch size and the card"}});
    double highest = time.contains("scaling_efficiency") && time["scaling_efficiency"].is_number()
                         ? time["scaling_efficiency"].get<double>() : 0;
    if (time.contains("scaling") && time["scaling"].is_array())
        for (const nlohmann::json& row : time["scaling"])
            if (row.contains("scaling_efficiency") && row["scaling_efficiency"].is_number())
                highest = std::max(highest, row["scaling_efficiency"].get<double>());
    if (highest > 1 + 1e-9)
        checks.push_back({{"code", "scaling_efficiency_above_one"}, {"scaling_efficiency", highest},
                          {"message", "a scaling efficiency above 100%: each card's own work split without "
                                      "communication cannot take longer than its step; please report this scenario"}});
    return checks;
}

nlohmann::json full_report(const DecisionScenario& s, const Estimate& estimate, const Catalog& catalog) {
    nlohmann::json report = report_to_json(s.scenario, estimate);
    report["scenario"] = decision_scenario_to_json(s);
    // One prepared run (graph, FLOPs, bytes) for the scenario's own estimate and its rows at other card counts.
    PreparedTimeRun run;
    if (prepare_time_run(s.scenario, catalog, run)) {
        const engine::ThroughputPriors& priors = embedded_time_data();
        const engine::TimeReport time = evaluate_time_run(run, priors);
        report["time"] = time_to_json(time);
        report["time"]["loader"] = loader_to_json(s.scenario, time);  // catalog/loader_json.h
        report["time"]["scaling"] =
            scaling_to_json(scaling_rows(s.scenario, estimate, run, priors, scaling_copies(s.scenario)));
        if (s.scenario.strategy == "dp")
            report["data_parallel"] = data_parallel_to_json(s.scenario, estimate, catalog, &time, priors);
    } else {
        report["time"] = nullptr;
        if (s.scenario.strategy == "dp")
            report["data_parallel"] =
                data_parallel_to_json(s.scenario, estimate, catalog, nullptr, embedded_time_data());
    }
    report["checks"] = result_checks(report["time"]);
    return report;
}

}  // namespace gg::catalog
