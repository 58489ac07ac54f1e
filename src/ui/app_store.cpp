// The saved settings (the browser's store): what is written ({"version": 1, "scenario", "user_data", ...}) and
// what is read back at start-up, with each part that cannot be used set aside and listed, never lost.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/strings.h"

namespace gg::ui {

std::string app_store_json(const AppState& app) {
    // A link shown and not kept changes nothing saved (issue 39): the scenario and pins from before it are written.
    const AppState::LinkView& view = app.link_view;
    nlohmann::json doc{{"version", 1}, {"scenario", view.pending ? view.saved_scenario : app_scenario_json(app)}};
    if (!app.user_region.empty()) doc["user_region"] = app.user_region;
    if (app.user_data.is_object()) doc["user_data"] = app.user_data;
    if (app.undo_import_available) doc["user_data_before_import"] = app.user_data_before_import;
    if (app.undo_import_available && app.pins_before_import.is_array()) doc["pins_before_import"] = app.pins_before_import;
    const nlohmann::json pins = view.pending && view.brought_pins ? view.saved_pins : app_pins_json(app);
    if (pins.is_array() && !pins.empty()) doc["pins"] = pins;
    // "Start over" kept the inputs from before for its Undo: a reload keeps them too, until Undo or Dismiss.
    if (app.start_over_undo.is_object()) doc["scenario_before_start_over"] = app.start_over_undo;
    return doc.dump();
}

StoreStatus app_apply_store(AppState& app, std::string_view stored) {
    if (stored.empty()) return StoreStatus::kEmpty;
    const catalog::JsonText parsed = catalog::parse_json_text(stored);
    const nlohmann::json& doc = parsed.value;
    // Not get<int>(): a version of 4294967297 would narrow to 1.
    if (doc.is_object() && doc.contains("version") && doc["version"].is_number() && doc["version"].get<double>() > 1) {
        app.notice = Str::StoreNewer;
        app.store_writable = false;
        app.kept_store_text = std::string(stored);
        return StoreStatus::kNewer;
    }
    // Not doc.value("version", 0): it throws when "version" is not a number (found by tests/fuzz/fuzz_store).
    const bool v1 = doc.is_object() && doc.contains("version") && doc["version"] == 1;
    auto broken = [&](std::string why) {
        app.notice = Str::StoreBroken;
        app.notice_details = {std::move(why)};
        app.kept_store_text = std::string(stored);
        return StoreStatus::kUnreadable;
    };
    if (!v1)
        return broken(!parsed.error.empty() ? parsed.error
                                            : "not gpuguide's saved settings: " + what_it_holds(doc) +
                                                  ", where an object with \"version\": 1 and \"scenario\" was expected");
    // What could not be used is listed, and the whole stored text is kept aside by the platform (kPartlyLoaded).
    std::vector<catalog::Problem> set_aside;
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "version" && it.key() != "scenario" && it.key() != "user_data" &&
            it.key() != "user_data_before_import" && it.key() != "pins" && it.key() != "pins_before_import" &&
            it.key() != "user_region" && it.key() != "scenario_before_start_over")
            set_aside.push_back({"", "/" + it.key(), "not a key of the saved settings"});
    if (doc.contains("user_region")) {  // the reader's answer to "where are you?" (asked again when unusable)
        const nlohmann::json& r = doc["user_region"];
        if (r == "mainland_china" || r == "elsewhere")
            app.user_region = r.get<std::string>();
        else
            set_aside.push_back({"", "/user_region", "is " + what_it_holds(r) +
                                                         ", not \"mainland_china\" or \"elsewhere\" (asked again)"});
    }
    auto own_data = [&](const char* key) -> nlohmann::json {  // user_data or user_data_before_import; null: none
        if (!doc.contains(key) || doc[key].is_null()) return nullptr;
        const nlohmann::json& u = doc[key];
        if (!u.is_object()) {
            set_aside.push_back({"", std::string("/") + key, "is " + what_it_holds(u) + ", not an object with \"gpus\" and \"offers\""});
            return nullptr;
        }
        nlohmann::json known = nlohmann::json::object();  // what this version reads; the rest is listed
        for (auto it = u.begin(); it != u.end(); ++it)
            if (it.key() != "schema_version" && it.key() != "about" && it.key() != "gpus" && it.key() != "offers" &&
                it.key() != "calibrations")
                set_aside.push_back({"", std::string("/") + key + "/" + it.key(),
                                     "not a key of your data (it has schema_version, about, gpus, offers and "
                                     "calibrations)"});
            else
                known[it.key()] = it.value();
        return known;
    };
    if (const nlohmann::json u = own_data("user_data"); u.is_object()) app_set_user_data(app, u);  // first: the scenario may name it
    if (nlohmann::json before = own_data("user_data_before_import"); before.is_object()) {
        app.user_data_before_import = std::move(before);
        app.undo_import_available = true;
        // The pins the import replaced: restored as they were by "Undo import" (checked then, like any pins).
        if (doc.contains("pins_before_import")) {
            if (doc["pins_before_import"].is_array())
                app.pins_before_import = doc["pins_before_import"];
            else
                set_aside.push_back({"", "/pins_before_import", "is " + what_it_holds(doc["pins_before_import"]) +
                                                                    ", not a list of scenarios"});
        }
    }
    bool loaded = doc.contains("scenario") && app_load_scenario(app, doc["scenario"].dump()).empty();
    bool reset = false;
    if (doc.contains("scenario") && !loaded) {
        // Saved by an older version that accepted a setting this one refuses: keep the rest, reset that one.
        std::vector<catalog::Problem> dropped;
        const std::string salvaged = salvage_scenario(app, doc["scenario"].dump(), dropped);
        if (!salvaged.empty() && app_load_scenario(app, salvaged).empty()) {
            loaded = reset = true;
            set_aside.insert(set_aside.end(), dropped.begin(), dropped.end());
        }
    }
    if (!loaded) {
        std::vector<catalog::Problem> problems;
        if (doc.contains("scenario")) {
            const catalog::ParsedDecision p = catalog::parse_decision_scenario_json(doc["scenario"], app.catalog(), "scenario");
            problems = p.problems;
        }
        app.notice_details.clear();
        const StoreStatus status = broken(problems.empty() ? std::string("its \"scenario\" is missing or cannot be used")
                                                           : "its scenario could not be used:");
        add_notice_details(app, problems);
        return status;
    }
    if (doc.contains("pins")) {  // after the scenario and the user's data: each pin is computed once
        const std::vector<catalog::Problem> pin_problems = app_set_pins(app, doc["pins"]);
        set_aside.insert(set_aside.end(), pin_problems.begin(), pin_problems.end());
    }
    if (doc.contains("scenario_before_start_over")) {
        // Checked when Undo loads it (app_undo_start_over), like any scenario; only its kind is checked here.
        if (doc["scenario_before_start_over"].is_object())
            app.start_over_undo = doc["scenario_before_start_over"];
        else
            set_aside.push_back({"", "/scenario_before_start_over",
                                 "is " + what_it_holds(doc["scenario_before_start_over"]) + ", not a scenario"});
    }
    if (!set_aside.empty()) {
        const bool only_settings = reset && std::all_of(set_aside.begin(), set_aside.end(), [](const catalog::Problem& p) {
            return p.pointer.rfind("/user_data", 0) != 0 && p.file != "";
        });
        app.notice = only_settings ? Str::StorePartlyApplied : Str::StoreSetAside;
        app.notice_details.clear();
        add_notice_details(app, set_aside);
        app.kept_store_text = std::string(stored);
        return StoreStatus::kPartlyLoaded;
    }
    if (!app.user_data_problems.empty()) {
        app.notice = Str::UserDataProblems;
        app.notice_details.clear();
        add_notice_details(app, app.user_data_problems);
    } else if (app.start_over_undo.is_object()) {
        app.notice = Str::StartedOver;  // its Undo button, as before the reload
        app.notice_details.clear();
    }
    return StoreStatus::kLoaded;
}

void app_store_copy_result(AppState& app, const std::string& key, bool copied) {
    if (copied) {
        app.notice_details.push_back(formatted(tr(Str::StoreKeptUnder, app.lang), catalog::printable(key, 120)));
        return;
    }
    app.store_blocked = true;  // sync_browser writes nothing until the text was saved as a file
    app.notice_details.push_back(tr(Str::StoreNotCopied, app.lang));
}

}  // namespace gg::ui
