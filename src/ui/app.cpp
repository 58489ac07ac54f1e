// The page's frame: header with the language toggle, the notices, the tab bar, and the frame loop that keeps the
// derived results in step with the inputs. Sizes are multiples of the font size; every string comes from the
// string table. The state's other concerns are in app_*.cpp (app_internal.h).
#include "ui/app.h"

#include <cstdio>
#include <string>
#include <vector>

#include "imgui_internal.h"  // the open popups (Escape closes them)
#include "ui/app_internal.h"
#include "ui/format.h"
#include "ui/strings.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

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

}  // namespace gg::ui
