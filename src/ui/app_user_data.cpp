// The user's own cards, offers and calibrations (app.user_data): the catalog the page uses built from them, and a
// data file imported (checked, shown as a plan, confirmed or cancelled, undone) or exported.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/format.h"
#include "ui/strings.h"

namespace gg::ui {

bool has_text(const nlohmann::json& record, const char* key, const std::string& value) {
    return record.is_object() && record.contains(key) && record[key].is_string() && record[key] == value;
}

// The record of `list` (an array of records) with this id, or nullptr.
const nlohmann::json* record_with_id(const nlohmann::json& data, const char* key, const std::string& id) {
    if (!data.is_object() || !data.contains(key) || !data[key].is_array()) return nullptr;
    for (const nlohmann::json& r : data[key])
        if (has_text(r, "id", id)) return &r;
    return nullptr;
}

const catalog::Catalog& AppState::catalog() const {
    return user_catalog_active ? user_catalog : catalog::embedded_catalog();
}

// The catalog the page uses: the bundled one, the user's own records over it, then a link's records (this view).
void rebuild_catalog(AppState& app) {
    app.user_data_problems.clear();
    app.link_data_problems.clear();
    const bool own = app.user_data.is_object();
    const bool link = app.link_user_data.is_object();
    for (Pin& p : app.pins) p.computed = false;  // computed again against the new catalog (compute_pins)
    app.user_catalog_active = own || link;
    if (!app.user_catalog_active) {
        app.user_catalog = catalog::Catalog();
        return;
    }
    app.user_catalog = own ? catalog::merge_user_data(catalog::embedded_catalog(), app.user_data.dump(), app.user_data_problems)
                           : catalog::embedded_catalog();
    if (link) app.user_catalog = catalog::merge_user_data(app.user_catalog, app.link_user_data.dump(), app.link_data_problems);
}

void app_set_user_data(AppState& app, nlohmann::json user_data) {
    auto listed = [&](const char* key) {
        return user_data.is_object() && user_data.contains(key) && !user_data[key].empty();
    };
    if (!listed("gpus") && !listed("offers") && !listed("calibrations")) {
        app.user_data = nullptr;
    } else {
        if (!user_data.contains("schema_version")) user_data["schema_version"] = 1;
        app.user_data = std::move(user_data);
    }
    rebuild_catalog(app);
    app.scenario_dirty = true;
    ++app.results_generation;  // the platform saves the settings again even if the scenario is now invalid
}

namespace {
bool is_import_notice(Str notice) {
    switch (notice) {
        case Str::ImportNotJson: case Str::ImportNotData: case Str::ImportEmpty: case Str::ImportIsScenario:
        case Str::ImportIsSettings: case Str::ImportNewer: case Str::ImportTooLarge: case Str::ImportLoaded:
        case Str::ImportUndone: case Str::UserDataProblems: return true;
        default: return false;
    }
}
}  // namespace

bool app_import_user_data(AppState& app, std::string_view text) {
    app.import_plan = ImportPlan();
    if (is_import_notice(app.notice)) {  // the last import's answer; any other notice (a damaged store) stays
        app.notice = Str::Dismiss;
        app.notice_details.clear();
    }
    auto refuse = [&](Str why, std::string detail) {
        app.notice = why;
        app.notice_details.clear();
        if (!detail.empty()) app.notice_details.push_back(std::move(detail));
        return false;
    };
    if (text.size() > catalog::kMaxJsonTextBytes) {
        app_import_too_large(app, static_cast<double>(text.size()));
        return false;
    }
    const catalog::JsonText parsed = catalog::parse_json_text(text);  // too deep, a key twice, a syntax error
    if (!parsed.error.empty()) return refuse(Str::ImportNotJson, parsed.error);
    const nlohmann::json& doc = parsed.value;
    if (!doc.is_object()) return refuse(Str::ImportNotData, what_it_holds(doc));
    // The page's own saved settings ({"version": 1, "scenario": ..., "user_data": ...}, offered as a file when they
    // could not be used) and scenario files are not data files: loading one used to replace the user's data by none.
    if (doc.contains("version") && (doc.contains("scenario") || doc.contains("user_data")))
        return refuse(Str::ImportIsSettings, "");
    if (doc.contains("schema_version") && doc["schema_version"].is_number() && doc["schema_version"].get<double>() > 1)
        return refuse(Str::ImportNewer, "schema_version " + catalog::printable(doc["schema_version"].dump(), 40) +
                                            "; this version of gpuguide reads 1");
    const bool has_lists = doc.contains("gpus") || doc.contains("offers") || doc.contains("calibrations") || doc.contains("pins");
    if (!has_lists && (doc.contains("model") || doc.contains("batch_size") || doc.contains("gpu")))
        return refuse(Str::ImportIsScenario, "");
    for (const char* key : kRecordKeys)
        if (doc.contains(key) && !doc[key].is_array())
            return refuse(Str::ImportNotData, std::string("'") + key + "' is " + what_it_holds(doc[key]) +
                                                   ", not a list of records");
    if (doc.contains("pins") && !doc["pins"].is_array())
        return refuse(Str::ImportNotData, "'pins' is " + what_it_holds(doc["pins"]) + ", not a list of scenarios");
    if (!has_lists) return refuse(Str::ImportNotData, what_it_holds(doc));  // {}, a package.json, ...

    ImportPlan plan;
    nlohmann::json merged = app.user_data.is_object() ? app.user_data : nlohmann::json::object();
    merged["schema_version"] = 1;
    const catalog::Catalog& base = catalog::embedded_catalog();
    int records = 0;
    for (const std::string key : kRecordKeys) {
        if (!merged.contains(key) || !merged[key].is_array()) merged[key] = nlohmann::json::array();
        std::vector<std::string> file_ids;
        if (doc.contains(key))
            for (const nlohmann::json& record : doc[key]) {
                if (!record.is_object() || !record.contains("id") || !record["id"].is_string() ||
                    std::find(file_ids.begin(), file_ids.end(), record["id"].get<std::string>()) != file_ids.end()) {
                    ++plan.skipped_count;  // not a record, or its id twice in the file (the first counts)
                    continue;
                }
                const std::string id = record["id"].get<std::string>();
                file_ids.push_back(id);
                ++records;
                auto same = std::find_if(merged[key].begin(), merged[key].end(),
                                         [&](const nlohmann::json& r) { return has_text(r, "id", id); });
                if (same == merged[key].end()) {
                    merged[key].push_back(record);
                    plan.added.push_back(record_label(record, key));
                } else if (*same != record) {
                    *same = record;
                    plan.replaced.push_back(record_label(record, key));
                } else {
                    ++plan.unchanged_count;
                }
                if (key == "gpus" ? base.find_gpu(id) != nullptr : key == "offers" && base.find_offer(id) != nullptr)
                    plan.over_bundled.push_back(record_label(record, key));
            }
        if (app.user_data.is_object() && app.user_data.contains(key) && app.user_data[key].is_array())
            for (const nlohmann::json& r : app.user_data[key])
                if (!r.is_object() || !r.contains("id") || !r["id"].is_string() ||
                    std::find(file_ids.begin(), file_ids.end(), r["id"].get<std::string>()) == file_ids.end())
                    plan.kept.push_back(record_label(r, key));
    }
    const bool brings_pins = doc.contains("pins") && !doc["pins"].empty();
    if (records == 0 && !brings_pins) {  // "gpus": [] and "offers": [] (or only entries that are not records): nothing to add
        std::string detail;
        if (plan.skipped_count > 0) detail = std::to_string(plan.skipped_count) + " entries without an \"id\"";
        return refuse(Str::ImportEmpty, detail);
    }
    // The file's pins are checked with the records (catalog::merge_user_data: each a valid scenario against the
    // merged catalog), then kept apart: the user's data holds records, the page holds its pins.
    if (brings_pins) merged["pins"] = doc["pins"];
    catalog::merge_user_data(base, merged.dump(), plan.problems);
    if (brings_pins) {
        plan.pins = std::move(merged["pins"]);
        merged.erase("pins");
        plan.current_pin_count = static_cast<int>(app.pins.size());
    }
    plan.merged = std::move(merged);
    plan.pending = true;
    app.import_plan = std::move(plan);
    app.tab = Tab::Data;  // the question is on the "GPUs and prices" tab
    app.tab_requested = true;
    return true;
}

void app_import_too_large(AppState& app, double size_bytes) {
    app.import_plan = ImportPlan();
    app.notice = Str::ImportTooLarge;
    app.notice_details = {format_grouped(size_bytes) + " bytes; the limit is " + catalog::json_text_limit_words() +
                          " (a data file of a few hundred cards and offers is a few hundred KB)"};
}

void app_confirm_import(AppState& app) {
    if (!app.import_plan.pending) return;
    ImportPlan plan = std::move(app.import_plan);
    app.import_plan = ImportPlan();
    app.user_data_before_import = app.user_data.is_object() ? app.user_data : nlohmann::json::object();  // {}: none
    app.undo_import_available = true;
    app_set_user_data(app, std::move(plan.merged));
    app.pins_before_import = nullptr;
    std::vector<catalog::Problem> pin_problems;
    if (plan.pins.is_array()) {  // after the records: a pin may name the file's own card
        // A link's pins on screen are not the user's: the import replaces the saved ones (and "Undo import" brings
        // those back), and the imported pins are saved like any import.
        AppState::LinkView& view = app.link_view;
        const bool link_pins = view.pending && view.brought_pins;
        app.pins_before_import = link_pins ? view.saved_pins : app_pins_json(app);
        pin_problems = app_set_pins(app, plan.pins);
        if (link_pins) {
            view.brought_pins = false;
            view.pending = app_scenario_json(app) != view.saved_scenario;
        }
        for (catalog::Problem& p : pin_problems) p.file = catalog::kUserDataFile;
    }
    app.notice = Str::ImportLoaded;
    app.notice_details.clear();
    if (!plan.added.empty()) app.notice_details.push_back(formatted(tr(Str::ImportAddedLine, app.lang), label_list(plan.added)));
    if (!plan.replaced.empty())
        app.notice_details.push_back(formatted(tr(Str::ImportReplacedLine, app.lang), label_list(plan.replaced)));
    if (plan.pins.is_array()) {
        std::vector<std::string> pinned;
        for (const nlohmann::json& s : plan.pins)
            pinned.push_back(s.is_object() ? catalog::printable(s.value("model", "?") + " · " +
                                                                    (s.contains("gpu") && s["gpu"].is_object()
                                                                         ? s["gpu"].value("id", "?")
                                                                         : std::string("?")),
                                                                80)
                                           : std::string("?"));
        app.notice_details.push_back(formatted(tr(Str::ImportPinsLine, app.lang), label_list(pinned)));
    }
    if (app.notice_details.empty()) app.notice_details.push_back(tr(Str::ImportNothingNew, app.lang));
    add_notice_details(app, app.user_data_problems);
    add_notice_details(app, pin_problems);
}

void app_cancel_import(AppState& app) { app.import_plan = ImportPlan(); }

void app_undo_import(AppState& app) {
    if (!app.undo_import_available) return;
    nlohmann::json before = std::move(app.user_data_before_import);
    app.user_data_before_import = nullptr;
    app.undo_import_available = false;
    app.import_plan = ImportPlan();
    app_set_user_data(app, std::move(before));
    if (app.pins_before_import.is_array()) app_set_pins(app, app.pins_before_import);  // kept as they were: no problems new
    app.pins_before_import = nullptr;
    app.notice = Str::ImportUndone;
    app.notice_details.clear();
}

std::string app_user_data_file(const AppState& app) {
    nlohmann::json doc = app.user_data.is_object() ? app.user_data : nlohmann::json::object();
    doc["schema_version"] = 1;
    if (!doc.contains("gpus")) doc["gpus"] = nlohmann::json::array();
    if (!doc.contains("offers")) doc["offers"] = nlohmann::json::array();
    if (!app.pins.empty()) doc["pins"] = app_pins_json(app);  // the comparison, exported with the rest (issue 33)
    return doc.dump(2);
}

}  // namespace gg::ui
