// The one report of a whole scenario (base keys + decision keys): memory (report.h), time (time_json.h) and
// the scenario itself. `gpuguide estimate` prints it and the page's gpuguide.report() returns it, so the two are
// the same by construction. No UI code here.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "catalog/decision_json.h"
#include "catalog/report.h"

namespace gg::catalog {

// The whole scenario document: scenario_to_json + the decision keys.
nlohmann::json decision_scenario_to_json(const DecisionScenario& s);

// The report for a valid scenario: report_to_json(...) with "scenario" (the whole document) and "time"
// (time_to_json plus "scaling": scaling_to_json at 1, 2, 4, 8, 16 copies and the scenario's own count (scaling.h); null when the scenario names no
// GPU), and "checks": result_checks of that time.
nlohmann::json full_report(const DecisionScenario& s, const Estimate& estimate, const Catalog& catalog);

// Results no one can mean, each {"code", the value, "message"}: "run_over_a_century" (time.total_s over 100 years),
// "scaling_efficiency_above_one" (the scenario's or a scaling row's). [] when none.
nlohmann::json result_checks(const nlohmann::json& time);

}  // namespace gg::catalog
