// The decision keys of a scenario (budget, deadline, region, objective, ownership, electricity, utilization, runs,
// ...) and the JSON of `gpuguide rank` / `gpuguide advise`. The base keys are parsed by parse_scenario_json; the
// decision keys are taken out of the document first, so the base parser never sees them. Never throws. No UI.
//
// Decision keys (all optional):
//   "budget": {"amount": 20000, "currency": "CNY" | "USD"}   ceiling on what is paid out (rent total; buy: cards +
//                                                            host + power); also sets the output currency
//   "currency": "CNY" | "USD"       output currency (default: the budget's, else CNY)
//   "deadline_h": 24                one run must finish within it
//   "region": "cn"                  offers in this region (or "global") only
//   "offer_currency": "CNY"         offers priced in this currency only
//   "objective": "cost" | "time" | "value"       (default "cost")
//   "ownership": "rent" | "buy" | "both"          (default "both")
//   "electricity_per_kwh": 0.6 | {"amount": 0.6, "currency": "CNY"}  (default: settings' default_electricity)
//   "gpu_hours_per_month": 120      hours a bought card trains in a month, 1..730.5 (default: settings utilization
//                                   x 730.5 h); sets how many months the project keeps the cards (their resale age)
//   "utilization": 0.5              the same as a fraction of the month (gpu_hours_per_month / 730.5); not with it
//   "user_region": "mainland_china" | "elsewhere"   where the user is: in mainland China, offers blocked there or
//                                   paid only from abroad (data/cloud_offers.json "access") are labelled
//                                   access_limited and ranked after the rest (default: unknown, no effect)
//   "ownership_months": 24          keep bought cards this long before resale (default: the project's duration)
//   "runs": 1                       runs of the job in the project
//   "storage_gb": 100               cloud disk kept while renting (10^9 bytes)
//   "cny_per_usd": 7.1              the user's exchange rate (default: data/settings.json exchange_rate)
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/scenario.h"
#include "engine/advisor.h"
#include "engine/rank.h"

namespace gg::catalog {

// The decision keys, in the order decision_keys_to_json writes them.
extern const std::vector<std::string> kDecisionKeys;

struct DecisionScenario {
    Scenario scenario;
    engine::DecisionInputs decision;
    nlohmann::json decision_json;  // the decision keys as given (normalised), written back by decision_keys_to_json
};

struct ParsedDecision {
    DecisionScenario value;
    std::vector<Problem> problems;  // empty = valid
};

// Parses the whole scenario: base keys (parse_scenario_json) + decision keys, resolved against the catalog's
// settings (exchange rate, electricity, utilization).
ParsedDecision parse_decision_scenario(std::string_view json_text, const Catalog& catalog,
                                       const std::string& file = "scenario");
ParsedDecision parse_decision_scenario_json(const nlohmann::json& doc, const Catalog& catalog,
                                            const std::string& file = "scenario");
// A number in the reports' JSON, or null where it is unknown (NaN) or endless (infinity): the ranking's and the GAN
// reports' (gan_rank.cpp, gan_report.cpp) one rule.
nlohmann::json num_or_null(double x);

// The decision keys only (merge into scenario_to_json for the whole document).
nlohmann::json decision_keys_to_json(const DecisionScenario& s);

// The engine job for a scenario: graph once, memory and time reduced for every count in `counts`.
// Times use the embedded fitted priors when they cover the model's family, else the roofline floor (flagged).
engine::JobModel decision_job(const Scenario& scenario, const std::vector<int>& counts);

// {"options": [...], "tiers": {...}, "objective", "currency", "time_basis"}: see docs/decisions.md for every key.
// Options the job does not fit carry the advisor's fix for their GPU ("fix"), so none is shown without it.
nlohmann::json rank_json(const DecisionScenario& s, const Catalog& catalog);
// {"cards": [...]} one entry per GPU of the catalog.
nlohmann::json advise_json(const DecisionScenario& s, const Catalog& catalog);

// Both, with the advisor run once (what the page recomputes after every input change): equal to
// {rank_json(s, catalog), advise_json(s, catalog)}.
struct DecisionJson {
    nlohmann::json ranking;
    nlohmann::json advice;
};
DecisionJson rank_and_advise_json(const DecisionScenario& s, const Catalog& catalog);

}  // namespace gg::catalog
