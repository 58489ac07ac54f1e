// The scenario the inputs hold: as the CLI's JSON, loaded from text, the default example, "Start over" and its
// Undo, and a scenario with problems salvaged (the settings they name reset) for links and the saved settings.
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/gan_panel.h"

namespace gg::ui {

nlohmann::json app_scenario_json(const AppState& app) {
    if (gan_active(app)) return gan_scenario_doc(app);  // a GAN scenario (gan_panel.cpp)
    nlohmann::json doc = catalog::scenario_to_json(app.scenario);
    if (app.decision.is_object())
        for (auto it = app.decision.begin(); it != app.decision.end(); ++it) doc[it.key()] = it.value();
    return doc;
}

nlohmann::json app_decided_scenario_json(const AppState& app) {
    nlohmann::json doc = app_scenario_json(app);
    if (!app.user_region.empty()) doc["user_region"] = app.user_region;
    return doc;
}

std::vector<catalog::Problem> app_load_scenario(AppState& app, std::string_view scenario_json) {
    if (std::vector<catalog::Problem> gan; gan_load_scenario(app, scenario_json, gan)) return gan;  // gan_panel.cpp
    const catalog::ParsedDecision parsed =
        catalog::parse_decision_scenario(scenario_json, app.catalog(), "scenario");
    if (!parsed.problems.empty()) return parsed.problems;
    app.scenario = parsed.value.scenario;
    app.gan_model_id.clear();
    app.decision = catalog::decision_keys_to_json(parsed.value);
    // Where the reader is belongs to the reader (app.user_region), not to a scenario a link or file brought.
    if (app.decision.is_object()) app.decision.erase("user_region");
    app.invalid_inputs.clear();
    app.scenario_dirty = true;
    app.explained_part = -1;
    return {};
}

void app_start_over(AppState& app) {
    app.start_over_undo = app_scenario_json(app);
    app_load_default_scenario(app);
    app.model_defaults_note = false;
    app.notice = Str::StartedOver;
    app.notice_details.clear();
}

void app_undo_start_over(AppState& app) {
    if (app.start_over_undo.is_null()) return;
    // The inputs from before are a scenario this page wrote and accepted: loading it back cannot fail, unless the
    // user's own card it used was removed since (then the example stays and the notice says so).
    const auto problems = app_load_scenario(app, app.start_over_undo.dump());
    app.start_over_undo = nullptr;
    app.notice = problems.empty() ? Str::Dismiss : Str::StartOverUndoFailed;
    app.notice_details.clear();
    add_notice_details(app, problems);
}

// Whether the inputs are the default example's (what a failed link or store leaves when nothing else was loaded).
bool showing_default(const AppState& app) {
    const catalog::ParsedDecision d = catalog::parse_decision_scenario(kDefaultScenario, app.catalog(), "default");
    nlohmann::json doc = catalog::scenario_to_json(d.value.scenario);
    const nlohmann::json keys = catalog::decision_keys_to_json(d.value);
    if (keys.is_object())
        for (auto it = keys.begin(); it != keys.end(); ++it) doc[it.key()] = it.value();
    return doc == app_scenario_json(app);
}

namespace {

// Removes the value at `pointer` ("/gpu/id"); an array element takes its whole array with it (a list with one bad
// entry is left at its default, not shortened). False when there is nothing to remove (the whole document).
bool erase_at(nlohmann::json& doc, const std::string& pointer) {
    if (pointer.empty() || pointer[0] != '/') return false;
    try {
        nlohmann::json::json_pointer p(pointer);
        while (!p.empty()) {
            const std::string key = p.back();
            const nlohmann::json::json_pointer parent = p.parent_pointer();
            if (!doc.contains(parent)) return false;
            nlohmann::json& holder = doc[parent];
            if (holder.is_object()) return holder.erase(key) > 0;
            p = parent;  // inside an array: remove the array
        }
    } catch (const nlohmann::json::exception&) {
    }
    return false;
}

}  // namespace

// A scenario (from a link or the saved state) with problems: the settings the problems name are removed and the
// rest parsed again, for a few rounds (a removed setting can make another invalid, e.g. LoRA settings after
// 'method'). Returns the scenario JSON that parses, or "" when none does; `dropped` collects every problem met.
std::string salvage_scenario(const AppState& app, std::string_view text, std::vector<catalog::Problem>& dropped) {
    nlohmann::json doc = catalog::parse_json_text(text).value;
    if (!doc.is_object()) return "";
    for (int round = 0; round < 8; ++round) {
        const catalog::ParsedDecision parsed = catalog::parse_decision_scenario_json(doc, app.catalog(), "scenario");
        if (parsed.problems.empty()) return doc.dump();
        bool removed = false;
        for (const catalog::Problem& p : parsed.problems) {
            dropped.push_back(p);
            removed |= erase_at(doc, p.pointer);
        }
        if (!removed) return "";
    }
    return "";
}

}  // namespace gg::ui
