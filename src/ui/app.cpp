// The page's frame: header with the language toggle, the tab bar, and the derived results kept in step with
// the inputs. Sizes are multiples of the font size; every string comes from the string table.
#include "ui/app.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "catalog/catalog.h"
#include "catalog/full_report.h"
#include "catalog/json_text.h"
#include "catalog/stack_config.h"
#include "engine/memory.h"
#include "imgui_internal.h"  // the open popups (Escape closes them)
#include "ui/format.h"
#include "ui/gan_panel.h"
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

// A link's own cards and offers, used for this view only: what they are, which replace a catalog record, and
// "Save to my data" (with a confirmation when one replaces a catalog record). Separate from app.notice, so a
// link's other notice (e.g. a setting reset) does not hide it.
void draw_link_records(AppState& app) {
    if (!app.link_user_data.is_object() || app.link_records_seen) return;
    const Lang L = app.lang;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.62f, 0.36f, 0.02f, 1.0f));
    wrapped_text(tr(Str::LinkRecordsInView, L));
    for (const std::string& r : app.link_records) {
        ImGui::Bullet();
        wrapped_text(r.c_str());
    }
    if (!app.link_over_bundled.empty()) {
        wrapped_text(tr(Str::LinkRecordsOverBundled, L));
        for (const std::string& r : app.link_over_bundled) {
            ImGui::Bullet();
            wrapped_text(r.c_str());
        }
    }
    if (app.link_ignored_count > 0) wrapped_textf(tr(Str::LinkRecordsIgnored, L), app.link_ignored_count);
    ImGui::PopStyleColor();
    if (app.link_save_confirming) {
        wrapped_text(tr(Str::LinkSaveConfirm, L));
        if (ImGui::SmallButton(tr(Str::LinkSaveYes, L))) app_save_link_records(app, true);
        test_anchor(app, "link-save-yes");
        ImGui::SameLine();
        if (ImGui::SmallButton(tr(Str::ImportCancel, L))) app.link_save_confirming = false;
        test_anchor(app, "link-save-cancel");
    } else {
        if (ImGui::SmallButton(tr(Str::LinkSaveRecords, L))) app_save_link_records(app, false);
        test_anchor(app, "link-save");
        ImGui::SameLine();
        if (ImGui::SmallButton((std::string(tr(Str::Dismiss, L)) + "##link-records").c_str())) app.link_records_seen = true;
        test_anchor(app, "link-records-ok");
    }
}

// Results no one can mean (catalog::result_checks, and a cost past any budget), with the reason.
void draw_result_checks(AppState& app) {
    const Results& r = app.results;
    if (!r.valid) return;
    const Lang L = app.lang;
    std::vector<std::string> lines;
    char buffer[1024];
    if (r.report.contains("checks") && r.report["checks"].is_array())
        for (const nlohmann::json& c : r.report["checks"]) {
            const std::string code = c.value("code", "");
            if (code == "run_over_a_century" && c.contains("total_s") && c["total_s"].is_number())
                std::snprintf(buffer, sizeof buffer, tr(Str::CheckCentury, L), format_duration(c["total_s"].get<double>(), L).c_str());
            else if (code == "scaling_efficiency_above_one" && c.contains("scaling_efficiency") && c["scaling_efficiency"].is_number())
                std::snprintf(buffer, sizeof buffer, tr(Str::CheckEfficiency, L), format_percent(c["scaling_efficiency"].get<double>()).c_str());
            else
                continue;
            lines.emplace_back(buffer);
        }
    if (r.over_budget_cost > 0) {
        std::snprintf(buffer, sizeof buffer, tr(Str::CheckCost, L), format_money(r.over_budget_cost, r.over_budget_currency, L).c_str());
        lines.emplace_back(buffer);
    }
    if (lines.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.70f, 0.18f, 0.10f, 1.0f));
    wrapped_text(tr(Str::CheckTitle, L));
    for (const std::string& line : lines) {
        ImGui::Bullet();
        wrapped_text(line.c_str());
    }
    ImGui::PopStyleColor();
    test_anchor(app, "result-checks");
}

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
        const bool store_notice = app.notice == Str::StoreBroken || app.notice == Str::StoreNewer ||
                                  app.notice == Str::StoreSetAside || app.notice == Str::StorePartlyApplied ||
                                  app.notice == Str::PageRecovered;
        if (store_notice && !app.kept_store_text.empty()) {
            if (ImGui::SmallButton(tr(Str::SaveKeptStore, app.lang))) {
                app.download_name = "gpuguide-saved-settings.json";
                app.download_text = app.kept_store_text;
                if (app.store_blocked) {  // the user has the text now: the settings may be saved again
                    app.store_blocked = false;
                    ++app.results_generation;
                }
            }
            test_anchor(app, "save-kept-store");
            ImGui::SameLine();
        }
        if (app.notice == Str::ImportLoaded && app.undo_import_available) {
            if (ImGui::SmallButton(tr(Str::UndoImport, app.lang))) app_undo_import(app);
            test_anchor(app, "undo-import-notice");
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::UndoImportTip, app.lang));
            ImGui::SameLine();
        }
        if (app.notice == Str::StartedOver && !app.start_over_undo.is_null()) {
            if (ImGui::SmallButton(stable_label(tr(Str::StartOverUndo, app.lang), "start-over-undo").c_str()))
                app_undo_start_over(app);
            test_anchor(app, "start-over-undo");
            ImGui::SameLine();
        }
        if (app.notice == Str::LinkKept && app.link_view.undo_available) {
            if (ImGui::SmallButton(stable_label(tr(Str::LinkKeepUndo, app.lang), "link-undo").c_str())) app_undo_keep_link(app);
            test_anchor(app, "link-undo");
            ImGui::SameLine();
        }
        if (ImGui::SmallButton(tr(Str::Dismiss, app.lang))) {
            if (app.notice == Str::StartedOver) app.start_over_undo = nullptr;  // dismissed: nothing left to undo
            app.notice = Str::Dismiss;
            app.notice_details.clear();
        }
        test_anchor(app, "dismiss-notice");
    }
    draw_link_view(app);
    draw_link_records(app);
    draw_result_checks(app);
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
        window_anchor(app, "tab-pane");  // where the tests scroll a tab (its scrollbar)
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

void app_load_default_scenario(AppState& app) { app_load_scenario(app, kDefaultScenario); }

bool app_update_fonts(AppState& app) {
    if (app.fonts.built_for_scale == app.dpi_scale) return false;
    const float body_px = app.body_font_css_px * app.dpi_scale;
    build_fonts(app.fonts, body_px);
    app.fonts.built_for_scale = app.dpi_scale;
    apply_theme(body_px);
    return true;
}

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

namespace {
// The ranking of every option and the advice: the costliest part of a recomputation (docs/performance.md).
void update_decisions(AppState& app) {
    if (!app.decisions_pending || !app.results.valid) return;
    app.decisions_pending = false;
    Results& r = app.results;
    catalog::DecisionJson decided = catalog::rank_and_advise_json(r.scenario, app.catalog());  // the advisor runs once
    r.ranking = std::move(decided.ranking);
    r.advice = nullptr;
    // The cheapest option the job fits, against any budget (in the ranking's currency).
    r.over_budget_cost = 0;
    r.over_budget_currency.clear();
    if (r.ranking.is_object() && r.ranking.contains("options") && r.ranking["options"].is_array()) {
        const std::string currency = r.ranking.value("currency", "CNY");
        const double rate = app.catalog().settings.exchange_rate.cny_per_usd;
        double cheapest = -1;
        for (const nlohmann::json& o : r.ranking["options"]) {
            // A free tier costs nothing whatever the job; what limits it is calendar time, not a budget.
            if (!o.value("fits", false) || o.value("free", false) || !o.contains("cost") || !o["cost"].is_object() ||
                !o["cost"].contains("amount") || !o["cost"]["amount"].is_number())
                continue;
            const double amount = o["cost"]["amount"].get<double>();
            if (cheapest < 0 || amount < cheapest) cheapest = amount;
        }
        const double cheapest_cny = currency == "USD" ? cheapest * rate : cheapest;
        if (cheapest > 0 && cheapest_cny > kAnyBudgetCny) {
            r.over_budget_cost = cheapest;
            r.over_budget_currency = currency;
        }
    }
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
    app.fix_confirm_cards = 0;  // a question about the last results' fix
    if (gan_active(app)) {
        gan_update_results(app);
        return;
    }
    const catalog::Catalog& cat = app.catalog();
    // One validation path for everything: the scenario as the CLI would read it.
    const catalog::ParsedDecision check = catalog::parse_decision_scenario_json(app_decided_scenario_json(app), cat);
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
        // nvidia-smi's total; the scenario's gpu.ecc is the user's setting on the chosen card only.
        const double card_bytes =
            engine::usable_memory_bytes(g, g.id == s.gpu_id ? s.ecc : engine::EccSetting::kDefault);
        CardFit c;
        c.gpu_index = static_cast<int>(i);
        c.max_batch_size = engine::max_batch_sizes(r.estimate.prepared, {card_bytes}, s.batch_limit(), owned_display)[0];
        c.verdict = engine::judge_job(r.estimate.prepared, s.batch_size, card_bytes, owned_display).verdict;
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

void rebuild_catalog(AppState& app);

// A link's own records, for this view only (never written to app.user_data): only those its scenario uses (its card,
// and offers for that card), at most kMaxLinkRecords. A record whose id the user already has keeps the user's
// version; its id is returned so the notice can say so.
std::vector<std::string> use_link_records(AppState& app, const std::string& scenario_text, const std::string& records_text) {
    constexpr int kMaxLinkRecords = 32;
    std::vector<std::string> kept;
    app.link_user_data = nullptr;
    app.link_records.clear();
    app.link_over_bundled.clear();
    app.link_ignored_count = 0;
    app.link_save_confirming = false;
    app.link_records_seen = false;
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

const catalog::Catalog& AppState::catalog() const {
    return user_catalog_active ? user_catalog : catalog::embedded_catalog();
}

namespace {
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
}  // namespace

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

namespace {
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

const char* kRecordKeys[] = {"gpus", "offers", "calibrations"};
}  // namespace

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

std::string app_user_data_file(const AppState& app) {
    nlohmann::json doc = app.user_data.is_object() ? app.user_data : nlohmann::json::object();
    doc["schema_version"] = 1;
    if (!doc.contains("gpus")) doc["gpus"] = nlohmann::json::array();
    if (!doc.contains("offers")) doc["offers"] = nlohmann::json::array();
    if (!app.pins.empty()) doc["pins"] = app_pins_json(app);  // the comparison, exported with the rest (issue 33)
    return doc.dump(2);
}

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


void app_frame(AppState& app) {
    ImGui::GetIO().UserData = &app;  // the page's language for the glossary's tooltips (glossary_lang)
    // Escape closes an open dropdown, combo or menu (issue 40): Dear ImGui 1.86 does that only with keyboard
    // navigation on, which would also move the focus on Tab and the arrows.
    const bool escape = app.escape_pressed || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
    app.escape_pressed = false;
    if (escape && GImGui->OpenPopupStack.Size > 0) ImGui::ClosePopupToLevel(0, true);
    app_update_results(app);
    if (app.frame_count > 0) {  // deferred past the first frame (defer_first_decisions)
        update_decisions(app);
        compute_pins(app);
    }
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
    app.open_popups = GImGui->OpenPopupStack.Size;
    ++app.frame_count;
}

std::string app_report_json(AppState& app) {
    app_update_results(app);
    if (gan_active(app)) return app.gan_report.dump();
    if (!app.results.valid) return "null";
    return app.results.report.dump();
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


}  // namespace gg::ui
