// Pins: scenarios kept beside the current one for comparison (issue 33). What a pin holds and when it is computed;
// the drawing is in compare_panel.cpp. Each pin is computed at most once per catalog: pinning the current scenario
// copies its results, a pin from a link, the saved settings or the ranking is computed when it arrives.
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/plan_panel.h"

namespace gg::ui {

namespace {

// The two costs the cost panel shows for a scenario's card and count (draw_cost_lines), from its ranking.
void set_costs(Pin& pin, const nlohmann::json& ranking, const catalog::Scenario& s) {
    const nlohmann::json* rent = ranking_option(ranking, "rent", s.gpu_id, s.gpu_count);
    const nlohmann::json* buy = ranking_option(ranking, "buy", s.gpu_id, s.gpu_count);
    pin.rent = rent ? *rent : nlohmann::json(nullptr);
    pin.buy = buy ? *buy : nlohmann::json(nullptr);
}

// One page recompute for one scenario: the estimate report and the ranking (the advice is not shown for pins).
void compute_pin(AppState& app, Pin& pin) {
    const catalog::Catalog& cat = app.catalog();
    pin.computed = true;
    ++app.pin_computations;
    pin.report = nullptr;
    pin.rent = nullptr;
    pin.buy = nullptr;
    pin.problems.clear();
    if (!pin.scenario.is_object()) {
        pin.problems.push_back({"", "", "is not a scenario (a JSON object with \"model\" and \"gpu\")"});
        return;
    }
    const catalog::ParsedDecision parsed = catalog::parse_decision_scenario_json(pin.scenario, cat, "pin");
    pin.problems = parsed.problems;
    pin.normalized = nullptr;
    if (!parsed.problems.empty()) return;
    pin.normalized = catalog::decision_scenario_to_json(parsed.value);
    const catalog::Estimate estimate = catalog::estimate(parsed.value.scenario, cat);
    pin.report = catalog::full_report(parsed.value, estimate, cat);
    set_costs(pin, catalog::rank_json(parsed.value, cat), parsed.value.scenario);
}

double number_at(const nlohmann::json& j, const char* object, const char* key) {
    if (!j.is_object() || !j.contains(object)) return -1;
    return json_number(j[object], key);
}

double cost_of(const nlohmann::json& option) {
    return option.is_object() && option.contains("cost") ? json_number(option["cost"], "amount") : -1;
}

std::string currency_of(const nlohmann::json& option) {
    return option.is_object() && option.contains("cost") && option["cost"].is_object()
               ? option["cost"].value("currency", "")
               : std::string();
}

// pin minus current, or null when either is unknown (or the costs are in different currencies).
nlohmann::json difference(double pin, double current) {
    return pin >= 0 && current >= 0 ? nlohmann::json(pin - current) : nlohmann::json(nullptr);
}

nlohmann::json entry_json(const nlohmann::json& scenario, const nlohmann::json& report, const nlohmann::json& rent,
                          const nlohmann::json& buy) {
    return {{"scenario", scenario}, {"report", report}, {"rent", rent}, {"buy", buy}};
}

}  // namespace

bool app_pin_current(AppState& app) {
    const Results& r = app.results;
    if (!r.valid || !app.scenario_problems.empty() || static_cast<int>(app.pins.size()) >= kMaxPins) return false;
    Pin pin;
    pin.scenario = catalog::decision_scenario_to_json(r.scenario);
    pin.normalized = pin.scenario;
    for (const Pin& p : app.pins)
        if (p.scenario == pin.scenario) return false;  // pinned already
    pin.report = r.report;
    if (!app.decisions_pending && r.ranking.is_object()) {
        set_costs(pin, r.ranking, r.scenario.scenario);
        pin.computed = true;
    }
    app.pins.push_back(std::move(pin));
    ++app.results_generation;  // the link and the saved settings carry the pins
    return true;
}

bool app_pin_option(AppState& app, const nlohmann::json& option) {
    if (static_cast<int>(app.pins.size()) >= kMaxPins) return false;
    // The option's scenario as a click on its row would set the inputs (its plan, else its card and count).
    const catalog::Scenario typed = app.scenario;
    const bool dirty = app.scenario_dirty;
    if (!apply_plan(app, option)) {
        select_gpu(app.scenario, option.value("gpu", ""));
        app.scenario.gpu_count = option.value("count", 1);
    }
    Pin pin;
    pin.scenario = app_scenario_json(app);
    app.scenario = typed;
    app.scenario_dirty = dirty;
    for (const Pin& p : app.pins)
        if (p.scenario == pin.scenario) return false;
    app.pins.push_back(std::move(pin));
    ++app.results_generation;
    return true;
}

void app_unpin(AppState& app, int index) {
    if (index < 0 || index >= static_cast<int>(app.pins.size())) return;
    app.pins.erase(app.pins.begin() + index);
    ++app.results_generation;
}

std::vector<catalog::Problem> app_set_pins(AppState& app, const nlohmann::json& scenarios) {
    app.pins.clear();
    std::vector<catalog::Problem> problems;
    if (!scenarios.is_array()) {
        if (!scenarios.is_null()) problems.push_back({"", "/pins", "is not a list of scenarios"});
        return problems;
    }
    for (const nlohmann::json& s : scenarios) {
        if (static_cast<int>(app.pins.size()) >= kMaxPins) {
            problems.push_back({"", "/pins/" + std::to_string(kMaxPins), "more than " + std::to_string(kMaxPins) +
                                                                           " pinned scenarios: the rest are left out"});
            break;
        }
        Pin pin;
        pin.scenario = s;
        compute_pin(app, pin);
        for (const catalog::Problem& p : pin.problems)
            problems.push_back({"", "/pins/" + std::to_string(app.pins.size()) + p.pointer, p.message});
        app.pins.push_back(std::move(pin));
    }
    return problems;
}

nlohmann::json app_pins_json(const AppState& app) {
    nlohmann::json out = nlohmann::json::array();
    for (const Pin& p : app.pins) out.push_back(p.scenario);
    return out;
}

void compute_pins(AppState& app) {
    for (Pin& p : app.pins)
        if (!p.computed) compute_pin(app, p);
}

nlohmann::json app_compare_json(AppState& app) {
    app_update_results(app);
    compute_pins(app);
    const Results& r = app.results;
    nlohmann::json out{{"pins", nlohmann::json::array()}, {"current", nullptr}};
    nlohmann::json current_rent = nullptr, current_buy = nullptr;
    if (r.valid) {
        Pin now;
        set_costs(now, r.ranking, r.scenario.scenario);
        current_rent = now.rent;
        current_buy = now.buy;
        out["current"] = entry_json(catalog::decision_scenario_to_json(r.scenario), r.report, current_rent, current_buy);
    }
    for (const Pin& p : app.pins) {
        nlohmann::json e = entry_json(p.scenario, p.report, p.rent, p.buy);
        e["problems"] = nlohmann::json::array();
        for (const catalog::Problem& x : p.problems) e["problems"].push_back({{"pointer", x.pointer}, {"message", x.message}});
        const bool same_rent_money = currency_of(p.rent) == currency_of(current_rent);
        const bool same_buy_money = currency_of(p.buy) == currency_of(current_buy);
        e["differences"] = {
            {"peak_bytes", difference(number_at(p.report, "memory_bytes", "nvidia_smi"),
                                      r.valid ? number_at(r.report, "memory_bytes", "nvidia_smi") : -1)},
            {"total_s", difference(number_at(p.report, "time", "total_s"), r.valid ? number_at(r.report, "time", "total_s") : -1)},
            {"rent_cost", same_rent_money ? difference(cost_of(p.rent), cost_of(current_rent)) : nlohmann::json(nullptr)},
            {"buy_cost", same_buy_money ? difference(cost_of(p.buy), cost_of(current_buy)) : nlohmann::json(nullptr)}};
        out["pins"].push_back(std::move(e));
    }
    return out;
}

}  // namespace gg::ui
