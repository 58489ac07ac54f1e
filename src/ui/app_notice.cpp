// What the notices say: problems, records and JSON values in words for the notice's list, and the notice as JSON
// for the tests (window.gpuguide.notice()).
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/strings.h"

namespace gg::ui {

// The notice's list: each problem as "pointer: message", printable and short, at most 20 and then a count (a link
// with thousands of bad keys still gets a short notice).
void add_notice_details(AppState& app, const std::vector<catalog::Problem>& problems) {
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < problems.size() && i < kShown; ++i)
        app.notice_details.push_back(catalog::printable(problems[i].pointer, 120) + ": " +
                                     catalog::printable(problems[i].message, 600));
    if (problems.size() > kShown) app.notice_details.push_back("... +" + std::to_string(problems.size() - kShown));
}

// What a JSON value is, in words for a notice ("a JSON array", "an object with the keys name, version, ...").
std::string what_it_holds(const nlohmann::json& doc) {
    switch (doc.type()) {
        case nlohmann::json::value_t::array: return "a JSON array (a list) of " + std::to_string(doc.size()) + " entries";
        case nlohmann::json::value_t::string: return "a JSON string";
        case nlohmann::json::value_t::boolean: return "true or false";
        case nlohmann::json::value_t::null: return "null";
        case nlohmann::json::value_t::object: {
            if (doc.empty()) return "an empty object {}";
            std::vector<std::string> keys;
            for (auto it = doc.begin(); it != doc.end(); ++it) keys.push_back(catalog::printable(it.key(), 40));
            return "an object with the keys " + label_list(keys);
        }
        default: return "a number";
    }
}

// "Lab card (my-lab-card)" / "Lab cluster · my-lab-card (my-offer-lab)": how a record is named in notices.
std::string record_label(const nlohmann::json& r, const std::string& key) {
    const std::string id = r.is_object() && r.contains("id") && r["id"].is_string() ? r["id"].get<std::string>() : "?";
    auto text = [&](const char* k) {
        return r.is_object() && r.contains(k) && r[k].is_string() ? r[k].get<std::string>() : std::string();
    };
    std::string name = key == "gpus"           ? text("name")
                       : key == "calibrations" ? "calibration · " + text("gpu")
                                               : text("provider") + (text("gpu").empty() ? "" : " · " + text("gpu"));
    return catalog::printable(name.empty() ? id : name, 80) + (name.empty() ? "" : " (" + catalog::printable(id, 80) + ")");
}

// At most kShownLabels of a list, then "... +N".
std::string label_list(const std::vector<std::string>& labels) {
    constexpr std::size_t kShownLabels = 12;
    std::string out;
    for (std::size_t i = 0; i < labels.size() && i < kShownLabels; ++i) out += (i ? ", " : "") + labels[i];
    if (labels.size() > kShownLabels) out += ", ... +" + std::to_string(labels.size() - kShownLabels);
    return out;
}

std::string formatted(const char* format, const std::string& value) {
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, format, value.c_str());
    return buffer;
}

nlohmann::json app_notice_json(const AppState& app) {
    nlohmann::json out{{"text", app.notice == Str::Dismiss ? nlohmann::json(nullptr) : nlohmann::json(tr(app.notice, app.lang))},
                       {"details", app.notice_details},
                       {"undo", app.undo_import_available},
                       {"store_blocked", app.store_blocked},
                       {"import", nullptr},
                       {"link", nullptr},
                       {"over_budget_cost", app.results.over_budget_cost}};
    const ImportPlan& plan = app.import_plan;
    if (plan.pending)
        out["import"] = {{"added", plan.added}, {"replaced", plan.replaced}, {"kept", plan.kept},
                         {"over_bundled", plan.over_bundled}, {"unchanged", plan.unchanged_count},
                         {"skipped", plan.skipped_count}, {"problems", plan.problems.size()},
                         {"pins", plan.pins.is_array() ? nlohmann::json{{"file", plan.pins.size()},
                                                                        {"yours", plan.current_pin_count}}
                                                       : nlohmann::json(nullptr)}};
    const AppState::LinkView& view = app.link_view;
    out["link_view"] = {{"pending", view.pending}, {"brought_pins", view.brought_pins}, {"undo", view.undo_available},
                        {"shown_pins", app.pins.size()},
                        {"saved_pins", view.saved_pins.is_array() ? view.saved_pins.size() : 0}};
    if (app.link_user_data.is_object())
        out["link"] = {{"records", app.link_records}, {"over_bundled", app.link_over_bundled},
                       {"ignored", app.link_ignored_count}, {"confirming", app.link_save_confirming}};
    return out;
}

}  // namespace gg::ui
