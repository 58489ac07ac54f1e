// The page's frame: header with the language toggle, the tab bar, and the derived results kept in step with
// the inputs. Sizes are multiples of the font size; every string comes from the string table.
#include "ui/app.h"

#include <algorithm>
#include <string>
#include <utility>

#include "catalog/catalog.h"
#include "catalog/full_report.h"
#include "catalog/json_text.h"
#include "catalog/stack_config.h"
#include "engine/memory.h"
#include "ui/link.h"
#include "ui/strings.h"
#include "ui/widgets.h"
#include "ui/theme.h"

namespace gg::ui {

namespace {

// What a newcomer sees first: fine-tuning BERT-base on an 8 GB card, the seed guides' most common question.
constexpr const char* kDefaultScenario =
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw",)"
    R"("gpu":{"id":"rtx-4060","count":1},"dataset":{"samples":100000,"epochs":3}})";

void draw_header(AppState& app) {
    const float em = ImGui::GetFontSize();
    ImGui::PushFont(app.fonts.heading);
    ImGui::TextUnformatted(tr(Str::AppName, app.lang));
    ImGui::PopFont();
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* toggle = tr(Str::LanguageToggle, app.lang);
    const bool copied = app.link_copied_at_s >= 0 && ImGui::GetTime() - app.link_copied_at_s < 2.0;
    const char* link = tr(app.embed ? Str::OpenFull : copied ? Str::LinkCopied : Str::CopyLink, app.lang);
    const float toggle_w = ImGui::CalcTextSize(toggle).x + 2.0f * style.FramePadding.x;
    const float link_w = ImGui::CalcTextSize(link).x + 2.0f * style.FramePadding.x;
    ImGui::SameLine(ImGui::GetContentRegionMax().x - toggle_w - link_w - style.ItemSpacing.x);
    if (ImGui::Button((std::string(link) + "##link").c_str())) {
        if (app.embed) app.open_full_requested = true;
        else app.copy_link_requested = true;
    }
    test_anchor(app, "link");
    if (!app.embed && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::CopyLinkTip, app.lang));
    ImGui::SameLine();
    if (ImGui::Button((std::string(toggle) + "##lang").c_str()))
        app.lang = app.lang == Lang::En ? Lang::Zh : Lang::En;
    test_anchor(app, "lang");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::LanguageToggleTip, app.lang));
    if (!app.embed) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        wrapped_text(tr(Str::Tagline, app.lang));
        ImGui::PopStyleColor();
    }
    if (app.notice != Str::Dismiss) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.62f, 0.36f, 0.02f, 1.0f));
        wrapped_text(tr(app.notice, app.lang));
        for (const std::string& d : app.notice_details) {
            ImGui::Bullet();
            wrapped_text(d.c_str());
        }
        ImGui::PopStyleColor();
        if ((app.notice == Str::StoreBroken || app.notice == Str::StoreNewer) && !app.kept_store_text.empty()) {
            if (ImGui::SmallButton(tr(Str::SaveKeptStore, app.lang))) {
                app.download_name = "gpuguide-saved-settings.json";
                app.download_text = app.kept_store_text;
            }
            test_anchor(app, "save-kept-store");
            ImGui::SameLine();
        }
        if (ImGui::SmallButton(tr(Str::Dismiss, app.lang))) {
            app.notice = Str::Dismiss;
            app.notice_details.clear();
        }
    }
    ImGui::Dummy(ImVec2(0, 0.1f * em));
}

void tab(AppState& app, Tab which, Str label, const char* id, void (*draw)(AppState&)) {
    ImGuiTabItemFlags flags = 0;
    if (app.tab_requested && app.tab == which) flags |= ImGuiTabItemFlags_SetSelected;
    const bool open = ImGui::BeginTabItem(stable_label(tr(label, app.lang), id).c_str(), nullptr, flags);
    test_anchor(app, std::string("tab-") + id);
    if (open) {
        if (!app.tab_requested) app.tab = which;
        ImGui::BeginChild(id, ImVec2(0, 0), false);
        draw(app);
        ImGui::EndChild();
        ImGui::EndTabItem();
    }
}

}  // namespace

void app_init(AppState& app) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // nothing is written to disk (there is none on the web)
    io.LogFilename = nullptr;
    apply_theme(app.dpi_scale * app.body_font_css_px);
    const auto problems = app_load_scenario(app, kDefaultScenario);
    (void)problems;
    IM_ASSERT(problems.empty() && "the default scenario must be valid: fix kDefaultScenario");
}

bool app_update_fonts(AppState& app) {
    if (app.fonts.built_for_scale == app.dpi_scale) return false;
    const float body_px = app.body_font_css_px * app.dpi_scale;
    build_fonts(app.fonts, body_px);
    app.fonts.built_for_scale = app.dpi_scale;
    apply_theme(body_px);
    return true;
}

nlohmann::json app_scenario_json(const AppState& app) {
    nlohmann::json doc = catalog::scenario_to_json(app.scenario);
    if (app.decision.is_object())
        for (auto it = app.decision.begin(); it != app.decision.end(); ++it) doc[it.key()] = it.value();
    return doc;
}

namespace {
// The ranking of every option and the advice: the costliest part of a recomputation (docs/performance.md).
void update_decisions(AppState& app) {
    if (!app.decisions_pending || !app.results.valid) return;
    app.decisions_pending = false;
    Results& r = app.results;
    catalog::DecisionJson decided = catalog::rank_and_advise_json(r.scenario, app.catalog());  // the advisor runs once
    r.ranking = std::move(decided.ranking);
    r.advice = nullptr;
    const std::string& gpu_id = r.scenario.scenario.gpu_id;
    if (!gpu_id.empty() && decided.advice.contains("cards"))
        for (auto& card : decided.advice["cards"])
            if (card.value("gpu", "") == gpu_id) r.advice = std::move(card);
    ++app.results_generation;
}
}  // namespace

void app_update_results(AppState& app) {
    if (!app.scenario_dirty) return;
    app.scenario_dirty = false;
    const catalog::Catalog& cat = app.catalog();
    // One validation path for everything: the scenario as the CLI would read it.
    const catalog::ParsedDecision check = catalog::parse_decision_scenario_json(app_scenario_json(app), cat);
    app.scenario_problems = check.problems;
    if (!check.problems.empty()) return;  // keep showing the last valid results

    Results& r = app.results;
    r.scenario = check.value;
    const catalog::Scenario& s = r.scenario.scenario;
    r.estimate = catalog::estimate(s, cat);
    r.report = catalog::full_report(r.scenario, r.estimate, cat);
    r.stack_config = catalog::stack_config(s).text;
    r.ranking = nullptr;
    r.advice = nullptr;

    // Every card as the user's own (a consumer or workstation card may draw the desktop: engine::Display::kAuto),
    // the same verdict as the estimate's for the chosen card.
    const double needed = engine::required_bytes(r.estimate.prepared, s.batch_size);
    r.cards.clear();
    for (size_t i = 0; i < cat.gpus.size(); ++i) {
        const engine::GpuSpec& g = cat.gpus[i];
        const bool owned_display = engine::segment_has_display(g.segment);
        CardFit c;
        c.gpu_index = static_cast<int>(i);
        c.max_batch_size = engine::max_batch_sizes(r.estimate.prepared, {g.memory_bytes}, 1 << 20, owned_display)[0];
        c.verdict = engine::judge_job(r.estimate.prepared, s.batch_size, g.memory_bytes, owned_display).verdict;
        r.cards.push_back(c);
    }
    // Memory vs batch: powers of two up to past the largest batch any card takes (capped), plus the chosen one.
    r.curve_batch.clear();
    r.curve_bytes.clear();
    int top = std::max(s.batch_size * 4, 8);
    for (const CardFit& c : r.cards) top = std::max(top, std::min(c.max_batch_size * 2, 4096));
    top = std::min(top, 4096);
    // Stop once the curve is far above the chosen card (or the need at the chosen batch): the interesting part
    // is where it crosses the card's usable memory.
    const engine::GpuSpec* chosen = cat.find_gpu(s.gpu_id);
    const double ceiling = 3.0 * std::max(chosen ? chosen->memory_bytes : 0.0, needed);
    for (int b = 1; b <= top; b *= 2) {
        const double bytes = engine::required_bytes(r.estimate.prepared, b);
        r.curve_batch.push_back(b);
        r.curve_bytes.push_back(bytes);
        if (bytes > ceiling && b > s.batch_size) break;
    }
    r.valid = true;
    ++app.results_generation;
    app.decisions_pending = true;
    if (!(app.defer_first_decisions && app.frame_count == 0)) update_decisions(app);
}

namespace {
// The records of the user's own data the scenario needs: its card (when the user added it or priced it) and the
// user's offers for that card. Null when it needs none.
nlohmann::json user_records_for_link(const AppState& app) {
    if (!app.user_data.is_object()) return nullptr;
    const std::string& gpu = app.scenario.gpu_id;
    nlohmann::json out{{"schema_version", 1}, {"gpus", nlohmann::json::array()}, {"offers", nlohmann::json::array()}};
    auto has_id = [](const nlohmann::json& record, const std::string& key, const std::string& id) {
        return record.is_object() && record.contains(key) && record[key].is_string() && record[key] == id;
    };
    if (app.user_data.contains("gpus") && app.user_data["gpus"].is_array())
        for (const nlohmann::json& g : app.user_data["gpus"])
            if (has_id(g, "id", gpu)) out["gpus"].push_back(g);
    if (out["gpus"].empty()) return nullptr;  // a bundled card at its bundled price: the link needs nothing more
    if (app.user_data.contains("offers") && app.user_data["offers"].is_array())
        for (const nlohmann::json& o : app.user_data["offers"])
            if (has_id(o, "gpu", gpu)) out["offers"].push_back(o);
    return out;
}

// Adds a link's records to the user's own data (kept like anything the user entered). A record whose id the user
// already has keeps the user's version; its id is returned so the notice can say so.
std::vector<std::string> add_link_user_data(AppState& app, const nlohmann::json& link_data) {
    std::vector<std::string> kept;
    if (!link_data.is_object()) return kept;
    nlohmann::json merged = app.user_data.is_object() ? app.user_data : nlohmann::json::object();
    bool added = false;
    for (const char* key : {"gpus", "offers"}) {
        if (!link_data.contains(key) || !link_data[key].is_array()) continue;
        if (!merged.contains(key) || !merged[key].is_array()) merged[key] = nlohmann::json::array();
        for (const nlohmann::json& record : link_data[key]) {
            if (!record.is_object() || !record.contains("id") || !record["id"].is_string()) continue;
            const auto same_id = std::find_if(merged[key].begin(), merged[key].end(), [&](const nlohmann::json& r) {
                return r.is_object() && r.contains("id") && r["id"] == record["id"];
            });
            if (same_id == merged[key].end()) {
                merged[key].push_back(record);
                added = true;
            } else if (*same_id != record) {
                kept.push_back(record["id"].get<std::string>());
            }
        }
    }
    if (added) app_set_user_data(app, std::move(merged));
    return kept;
}
}  // namespace

std::string app_fragment(const AppState& app) {
    std::string fragment = (app.embed ? "embed=1&" : "") + scenario_to_fragment(app_scenario_json(app));
    const nlohmann::json records = user_records_for_link(app);
    if (!records.is_null()) fragment += "&" + user_data_to_fragment(records);
    return fragment;
}

const catalog::Catalog& AppState::catalog() const {
    return user_catalog_active ? user_catalog : catalog::embedded_catalog();
}

void app_set_user_data(AppState& app, nlohmann::json user_data) {
    app.user_data_problems.clear();
    auto listed = [&](const char* key) {
        return user_data.is_object() && user_data.contains(key) && !user_data[key].empty();
    };
    if (!listed("gpus") && !listed("offers")) {
        app.user_data = nullptr;
        app.user_catalog_active = false;
        app.user_catalog = catalog::Catalog();
    } else {
        if (!user_data.contains("schema_version")) user_data["schema_version"] = 1;
        app.user_catalog = catalog::merge_user_data(catalog::embedded_catalog(), user_data.dump(), app.user_data_problems);
        app.user_catalog_active = true;
        app.user_data = std::move(user_data);
    }
    app.scenario_dirty = true;
    ++app.results_generation;  // the platform saves the settings again even if the scenario is now invalid
}

namespace {
// The notice's list: each problem as "pointer: message", printable and short, at most 20 and then a count (a link
// with thousands of bad keys still gets a short notice).
void add_notice_details(AppState& app, const std::vector<catalog::Problem>& problems) {
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < problems.size() && i < kShown; ++i)
        app.notice_details.push_back(catalog::printable(problems[i].pointer, 120) + ": " +
                                     catalog::printable(problems[i].message, 600));
    if (problems.size() > kShown) app.notice_details.push_back("... +" + std::to_string(problems.size() - kShown));
}
}  // namespace

bool app_import_user_data(AppState& app, std::string_view text) {
    nlohmann::json doc = catalog::parse_json_text(text).value;  // discarded when broken, too deep or a key twice
    app.notice_details.clear();
    if (!doc.is_object()) {
        app.notice = Str::ImportBroken;
        return false;
    }
    app_set_user_data(app, std::move(doc));
    app.notice = app.user_data_problems.empty() ? Str::ImportDone : Str::UserDataProblems;
    add_notice_details(app, app.user_data_problems);
    return true;
}

std::string app_user_data_file(const AppState& app) {
    nlohmann::json doc = app.user_data.is_object() ? app.user_data : nlohmann::json::object();
    doc["schema_version"] = 1;
    if (!doc.contains("gpus")) doc["gpus"] = nlohmann::json::array();
    if (!doc.contains("offers")) doc["offers"] = nlohmann::json::array();
    return doc.dump(2);
}

std::string app_store_json(const AppState& app) {
    nlohmann::json doc{{"version", 1}, {"scenario", app_scenario_json(app)}};
    if (app.user_data.is_object()) doc["user_data"] = app.user_data;
    return doc.dump();
}

namespace {

// Whether the inputs are the default example's (what a failed link or store leaves when nothing else was loaded).
bool showing_default(const AppState& app) {
    const catalog::ParsedDecision d = catalog::parse_decision_scenario(kDefaultScenario, app.catalog(), "default");
    nlohmann::json doc = catalog::scenario_to_json(d.value.scenario);
    const nlohmann::json keys = catalog::decision_keys_to_json(d.value);
    if (keys.is_object())
        for (auto it = keys.begin(); it != keys.end(); ++it) doc[it.key()] = it.value();
    return doc == app_scenario_json(app);
}

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

}  // namespace

StoreStatus app_apply_store(AppState& app, std::string_view stored) {
    if (stored.empty()) return StoreStatus::kEmpty;
    const nlohmann::json doc = catalog::parse_json_text(stored).value;
    if (doc.is_object() && doc.contains("version") && doc["version"].is_number_integer() &&
        doc["version"].get<int>() > 1) {
        app.notice = Str::StoreNewer;
        app.store_writable = false;
        app.kept_store_text = std::string(stored);
        return StoreStatus::kNewer;
    }
    // Not doc.value("version", 0): it throws when "version" is not a number (found by tests/fuzz/fuzz_store).
    const bool v1 = doc.is_object() && doc.contains("version") && doc["version"] == 1;
    if (v1 && doc.contains("user_data"))
        app_set_user_data(app, doc["user_data"]);  // first: the scenario may name the user's own GPU
    const bool loaded = v1 && doc.contains("scenario") && app_load_scenario(app, doc["scenario"].dump()).empty();
    if (v1 && doc.contains("scenario") && !loaded) {
        // Saved by an older version that accepted a setting this one refuses: keep the rest, reset that one.
        std::vector<catalog::Problem> dropped;
        const std::string salvaged = salvage_scenario(app, doc["scenario"].dump(), dropped);
        if (!salvaged.empty() && app_load_scenario(app, salvaged).empty()) {
            app.notice = Str::StorePartlyApplied;
            add_notice_details(app, dropped);
            return StoreStatus::kLoaded;
        }
    }
    if (loaded) {
        if (!app.user_data_problems.empty()) {
            app.notice = Str::UserDataProblems;
            add_notice_details(app, app.user_data_problems);
        }
        return StoreStatus::kLoaded;
    }
    app.notice = Str::StoreBroken;
    app.kept_store_text = std::string(stored);
    return StoreStatus::kUnreadable;
}

void app_apply_fragment(AppState& app, std::string_view fragment) {
    const LinkScenario link = scenario_from_fragment(fragment);
    app.notice_details.clear();
    switch (link.status) {
        case LinkStatus::kNone: return;
        case LinkStatus::kOk: {
            // First the user's own card the link carries (a damaged part is skipped: the scenario then names an
            // unknown card, and the notice below says so).
            std::vector<std::string> kept;
            const LinkScenario user = user_data_from_fragment(fragment);
            if (user.status == LinkStatus::kOk) kept = add_link_user_data(app, nlohmann::json::parse(user.json_text));
            const auto problems = app_load_scenario(app, link.json_text);
            if (problems.empty()) {
                app.narrow_show_answer = true;  // a shared link opens on its answer (phones: the answer view)
                if (!kept.empty()) {
                    app.notice = Str::LinkOwnRecordKept;
                    app.notice_details = kept;
                }
                return;
            }
            // Keep what is valid: the settings the problems name go back to their defaults.
            std::vector<catalog::Problem> dropped;
            const std::string salvaged = salvage_scenario(app, link.json_text, dropped);
            if (!salvaged.empty() && app_load_scenario(app, salvaged).empty()) {
                app.narrow_show_answer = true;
                app.notice = Str::LinkPartlyApplied;
                add_notice_details(app, dropped);
                return;
            }
            app.notice = showing_default(app) ? Str::LinkInvalid : Str::LinkInvalidKept;
            add_notice_details(app, problems);
            return;
        }
        case LinkStatus::kNewerVersion: app.notice = showing_default(app) ? Str::LinkNewer : Str::LinkNewerKept; return;
        case LinkStatus::kBadEncoding:
        case LinkStatus::kBadJson:
        case LinkStatus::kUnknownFormat: app.notice = showing_default(app) ? Str::LinkBroken : Str::LinkBrokenKept; return;
    }
}

void app_frame(AppState& app) {
    app_update_results(app);
    if (app.frame_count > 0) update_decisions(app);  // deferred past the first frame (defer_first_decisions)
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##gpuguide", nullptr, flags);
    draw_header(app);
    if (ImGui::BeginTabBar("##tabs")) {
        // stable_label: the tab's ID ignores its label, so switching the language keeps the open tab.
        tab(app, Tab::Calculator, Str::TabCalculator, "calculator", draw_calculator);
        tab(app, Tab::Guide, Str::TabGuide, "guide", draw_guide);
        tab(app, Tab::Validation, Str::TabValidation, "validation", draw_validation);
        tab(app, Tab::Data, Str::TabData, "data", draw_data);
        ImGui::EndTabBar();
    }
    app.tab_requested = false;
    ImGui::End();
    ++app.frame_count;
}

std::string app_report_json(AppState& app) {
    app_update_results(app);
    if (!app.results.valid) return "null";
    return app.results.report.dump();
}

std::vector<catalog::Problem> app_load_scenario(AppState& app, std::string_view scenario_json) {
    const catalog::ParsedDecision parsed =
        catalog::parse_decision_scenario(scenario_json, app.catalog(), "scenario");
    if (!parsed.problems.empty()) return parsed.problems;
    app.scenario = parsed.value.scenario;
    app.decision = catalog::decision_keys_to_json(parsed.value);
    app.invalid_inputs.clear();
    app.scenario_dirty = true;
    app.explained_part = -1;
    return {};
}

}  // namespace gg::ui
