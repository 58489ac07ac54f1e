// A shared link (the URL's fragment): the page's state written into one (its scenario, the user's records it
// needs, the pins) and read back from one: its scenario, its own cards and offers for this view only, and its pins.
// The link's view and the user's answers to it are link_view.cpp's; the fragment's format is link.cpp's.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/format.h"
#include "ui/link.h"
#include "ui/strings.h"

namespace gg::ui {

void app_clear_link_records(AppState& app) {
    app.link_user_data = nullptr;
    app.link_records.clear();
    app.link_over_bundled.clear();
    app.link_ignored_count = 0;
    app.link_save_confirming = false;
    app.link_records_seen = false;
}

namespace {
// The records of the user's own data (and of a link's, for this view) the scenario needs: its card (when the user
// added it or priced it) and the offers for that card. Null when it needs none: a link carries nothing else.
nlohmann::json user_records_for_link(const AppState& app) {
    const std::string& gpu = app.scenario.gpu_id;
    nlohmann::json out{{"schema_version", 1}, {"gpus", nlohmann::json::array()}, {"offers", nlohmann::json::array()}};
    for (const nlohmann::json* data : {&app.user_data, &app.link_user_data}) {  // the user's own version first
        if (out["gpus"].empty())
            if (const nlohmann::json* g = record_with_id(*data, "gpus", gpu)) out["gpus"].push_back(*g);
    }
    if (out["gpus"].empty()) return nullptr;  // a bundled card at its bundled price: the link needs nothing more
    for (const nlohmann::json* data : {&app.user_data, &app.link_user_data})
        if (data->is_object() && data->contains("offers") && (*data)["offers"].is_array())
            for (const nlohmann::json& o : (*data)["offers"])
                if (has_text(o, "gpu", gpu) && o.contains("id") &&
                    std::none_of(out["offers"].begin(), out["offers"].end(),
                                 [&](const nlohmann::json& x) { return x["id"] == o["id"]; }))
                    out["offers"].push_back(o);
    return out;
}

// A link's record that replaces a bundled one, with the figures that differ: "RTX 4090 (rtx-4090): 96.0 GiB, ¥100
// (catalog: 24.0 GiB, ¥12,999)".
std::string over_bundled_line(const AppState& app, const std::string& key, const std::string& id) {
    const catalog::Catalog& base = catalog::embedded_catalog();
    const catalog::Catalog& now = app.catalog();
    if (key == "gpus") {
        const engine::GpuSpec* b = base.find_gpu(id);
        const engine::GpuSpec* n = now.find_gpu(id);
        if (b == nullptr) return id;
        auto figures = [&](const engine::GpuSpec& g) {
            return format_gib(g.memory_bytes, app.lang) +
                   (g.street_price.new_cny > 0 ? ", " + format_money(g.street_price.new_cny, "CNY", app.lang) : "");
        };
        return catalog::printable(b->name, 80) + " (" + catalog::printable(id, 80) + "): " +
               (n != nullptr && n != b ? figures(*n) : std::string("?")) + " (" +
               formatted(tr(Str::CatalogFigures, app.lang), figures(*b)) + ")";
    }
    const engine::CloudOffer* b = base.find_offer(id);
    const engine::CloudOffer* n = now.find_offer(id);
    if (b == nullptr) return id;
    auto figures = [&](const engine::CloudOffer& o) {
        return o.gpu_id + " x" + std::to_string(o.gpu_count) + ", " + format_money(o.price_per_hour, o.currency, app.lang) +
               tr(Str::PerHourSuffix, app.lang);
    };
    return catalog::printable(b->provider, 80) + " (" + catalog::printable(id, 80) + "): " +
           (n != nullptr ? figures(*n) : std::string("?")) + " (" + formatted(tr(Str::CatalogFigures, app.lang), figures(*b)) + ")";
}

// A link's own records, for this view only (never written to app.user_data): only those its scenario uses (its card,
// and offers for that card), at most kMaxLinkRecords. A record whose id the user already has keeps the user's
// version; its id is returned so the notice can say so.
std::vector<std::string> use_link_records(AppState& app, const std::string& scenario_text, const std::string& records_text) {
    constexpr int kMaxLinkRecords = 32;
    std::vector<std::string> kept;
    app_clear_link_records(app);
    const nlohmann::json scenario = catalog::parse_json_text(scenario_text).value;
    const nlohmann::json records = catalog::parse_json_text(records_text).value;
    std::string gpu;
    if (scenario.is_object() && scenario.contains("gpu") && scenario["gpu"].is_object() &&
        scenario["gpu"].contains("id") && scenario["gpu"]["id"].is_string())
        gpu = scenario["gpu"]["id"].get<std::string>();
    if (!records.is_object()) {  // none (or a previous link's are dropped)
        rebuild_catalog(app);
        app.scenario_dirty = true;
        return kept;
    }
    nlohmann::json used{{"schema_version", 1}, {"gpus", nlohmann::json::array()}, {"offers", nlohmann::json::array()}};
    std::vector<std::pair<std::string, std::string>> over;  // (key, id)
    int count = 0;
    for (const std::string key : {"gpus", "offers"}) {
        if (!records.contains(key) || !records[key].is_array()) continue;
        for (const nlohmann::json& record : records[key]) {
            const bool uses = !gpu.empty() && has_text(record, key == "gpus" ? "id" : "gpu", gpu) &&
                              record.contains("id") && record["id"].is_string();
            if (!uses || count >= kMaxLinkRecords) {
                ++app.link_ignored_count;
                continue;
            }
            const std::string id = record["id"].get<std::string>();
            if (const nlohmann::json* own = record_with_id(app.user_data, key.c_str(), id)) {
                if (*own != record) kept.push_back(id);
                continue;  // the user's own version is used
            }
            if (record_with_id(used, key.c_str(), id) != nullptr) continue;  // twice in the link: the first counts
            used[key].push_back(record);
            ++count;
            app.link_records.push_back(record_label(record, key));
            const catalog::Catalog& base = catalog::embedded_catalog();
            if (key == "gpus" ? base.find_gpu(id) != nullptr : base.find_offer(id) != nullptr) over.emplace_back(key, id);
        }
    }
    if (count > 0) app.link_user_data = std::move(used);
    rebuild_catalog(app);
    for (const auto& [key, id] : over) app.link_over_bundled.push_back(over_bundled_line(app, key, id));
    app.scenario_dirty = true;
    return kept;
}
}  // namespace

std::string app_fragment(const AppState& app) {
    std::string fragment = (app.embed ? "embed=1&" : "") + scenario_to_fragment(app_scenario_json(app));
    const nlohmann::json records = user_records_for_link(app);
    if (!records.is_null()) fragment += "&" + user_data_to_fragment(records);
    if (!app.pins.empty()) fragment += "&" + pins_to_fragment(app_pins_json(app));
    return fragment;
}

bool app_save_link_records(AppState& app, bool confirmed) {
    if (!app.link_user_data.is_object()) return false;
    if (!app.link_over_bundled.empty() && !confirmed) {
        app.link_save_confirming = true;
        return false;
    }
    nlohmann::json merged = app.user_data.is_object() ? app.user_data : nlohmann::json{{"schema_version", 1}};
    for (const char* key : kRecordKeys) {
        if (!app.link_user_data.contains(key)) continue;
        if (!merged.contains(key) || !merged[key].is_array()) merged[key] = nlohmann::json::array();
        for (const nlohmann::json& record : app.link_user_data[key])
            if (record_with_id(merged, key, record["id"].get<std::string>()) == nullptr) merged[key].push_back(record);
    }
    const std::vector<std::string> saved = app.link_records;
    app.link_user_data = nullptr;
    app.link_records.clear();
    app.link_over_bundled.clear();
    app.link_ignored_count = 0;
    app.link_save_confirming = false;
    app_set_user_data(app, std::move(merged));
    app.notice = Str::LinkRecordsSaved;
    app.notice_details = saved;
    return true;
}

namespace {
// A link's scenario, its own records and its pins, shown (app_apply_fragment decides what is saved).
// `notice` sets the link's notice and clears its list.
template <typename Notice>
void apply_link_scenario(AppState& app, std::string_view fragment, const std::string& scenario_text, Notice notice) {
    // First the link's own card and offers, for this view only (a damaged part is skipped: the scenario then
    // names an unknown card, and the notice below says so).
    std::vector<std::string> kept;
    const LinkScenario user = user_data_from_fragment(fragment);
    if (user.status == LinkStatus::kOk || app.link_user_data.is_object())  // (a link without them: none)
        kept = use_link_records(app, scenario_text, user.status == LinkStatus::kOk ? user.json_text : "null");
    const auto problems = app_load_scenario(app, scenario_text);
    // The link's pins are shown in place of the page's (a link without a list of them leaves them: "p=" of
    // null or of a number is not a list to show); a pin that cannot be used is shown with its problems.
    if (const LinkScenario pins = pins_from_fragment(fragment); pins.status == LinkStatus::kOk) {
        const nlohmann::json list = catalog::parse_json_text(pins.json_text).value;
        if (list.is_array()) {
            app_set_pins(app, list);
            app.link_view.brought_pins = true;
        }
    }
    if (problems.empty()) {
        app.narrow_show_answer = true;  // a shared link opens on its answer (phones: the answer view)
        if (!kept.empty()) {
            notice(Str::LinkOwnRecordKept);
            app.notice_details = kept;
        }
        return;
    }
    // Keep what is valid: the settings the problems name go back to their defaults.
    std::vector<catalog::Problem> dropped;
    const std::string salvaged = salvage_scenario(app, scenario_text, dropped);
    if (!salvaged.empty() && app_load_scenario(app, salvaged).empty()) {
        app.narrow_show_answer = true;
        notice(Str::LinkPartlyApplied);
        add_notice_details(app, dropped);
        return;
    }
    notice(showing_default(app) ? Str::LinkInvalid : Str::LinkInvalidKept);
    add_notice_details(app, problems);
}
}  // namespace

void app_apply_fragment(AppState& app, std::string_view fragment) {
    const LinkScenario link = scenario_from_fragment(fragment);
    if (link.status == LinkStatus::kNone) return;  // no link: the saved settings' notice keeps its details
    switch (app.notice) {  // a previous link's notice goes; another (a damaged store) stays, with its list
        case Str::LinkBroken: case Str::LinkNewer: case Str::LinkOwnRecordKept: case Str::LinkInvalid:
        case Str::LinkInvalidKept: case Str::LinkPartlyApplied: case Str::LinkBrokenKept: case Str::LinkNewerKept:
        case Str::LinkTooLarge: case Str::LinkRecordsSaved: case Str::LinkKept: case Str::LinkKeepUndone:
            app.notice = Str::Dismiss;
            app.notice_details.clear();
            break;
        default: break;
    }
    // Sets this link's notice and its list together (never a new notice over an old list).
    auto notice = [&](Str what) {
        app.notice = what;
        app.notice_details.clear();
    };
    switch (link.status) {
        case LinkStatus::kNone: return;
        case LinkStatus::kTooLarge: notice(Str::LinkTooLarge); return;
        case LinkStatus::kOk: {
            // What is saved now, kept by the saved settings until the user keeps the link's (a second link while one
            // is shown keeps the first one's: that is still what is saved).
            AppState::LinkView& view = app.link_view;
            // Nothing to keep when the page holds only the default example and no pins (a first visit): the link is
            // then simply what the page shows and saves, with no question for someone who saved nothing.
            const bool asks = view.pending || !(showing_default(app) && app.pins.empty());
            if (!view.pending) {
                view = AppState::LinkView();
                view.saved_scenario = app_scenario_json(app);
                view.saved_pins = app_pins_json(app);
            }
            apply_link_scenario(app, fragment, link.json_text, notice);
            // Shown, not saved, when it differs from what is saved: a page reopened from its own URL asks nothing.
            view.pending = asks && (app_scenario_json(app) != view.saved_scenario ||
                                    (view.brought_pins && app_pins_json(app) != view.saved_pins));
            if (view.pending) view.undo_available = false;
            return;
        }
        case LinkStatus::kNewerVersion: notice(showing_default(app) ? Str::LinkNewer : Str::LinkNewerKept); return;
        case LinkStatus::kBadEncoding:
        case LinkStatus::kBadJson:
        case LinkStatus::kUnknownFormat: notice(showing_default(app) ? Str::LinkBroken : Str::LinkBrokenKept); return;
    }
}
}  // namespace gg::ui
