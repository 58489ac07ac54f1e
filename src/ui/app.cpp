// Draws the page: header with language toggle, then the content. Sizes are multiples of the font size so
// the layout scales from a 360 px iframe to a 4K screen; every string comes from the string table.
#include "ui/app.h"

#include <cstdio>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "ui/strings.h"
#include "ui/theme.h"

namespace gg::ui {

namespace {

void draw_header(AppState& app) {
    const float em = ImGui::GetFontSize();
    ImGui::PushFont(app.fonts.heading);
    ImGui::TextUnformatted(tr(Str::AppName, app.lang));
    ImGui::PopFont();
    const char* toggle = tr(Str::LanguageToggle, app.lang);
    const float toggle_w = ImGui::CalcTextSize(toggle).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine(ImGui::GetContentRegionMax().x - toggle_w);
    if (ImGui::Button((std::string(toggle) + "##lang").c_str()))
        app.lang = app.lang == Lang::En ? Lang::Zh : Lang::En;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::LanguageToggleTip, app.lang));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", tr(Str::Tagline, app.lang));
    ImGui::PopStyleColor();
    ImGui::Dummy(ImVec2(0, 0.25f * em));
    ImGui::Separator();
    ImGui::Dummy(ImVec2(0, 0.5f * em));
}

void draw_welcome(AppState& app) {
    const float em = ImGui::GetFontSize();
    const float max_w = 46.0f * em;  // a comfortable line length for reading
    const float avail = ImGui::GetContentRegionAvail().x;
    const float width = avail < max_w ? avail : max_w;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);

    ImGui::PushFont(app.fonts.heading);
    ImGui::TextWrapped("%s", tr(Str::WelcomeTitle, app.lang));
    ImGui::PopFont();
    ImGui::Dummy(ImVec2(0, 0.25f * em));
    ImGui::TextWrapped("%s", tr(Str::WelcomeBody, app.lang));
    ImGui::Dummy(ImVec2(0, 0.75f * em));

    ImGui::TextUnformatted(tr(Str::QuestionsTitle, app.lang));
    const Str questions[] = {Str::QuestionFit, Str::QuestionWhich, Str::QuestionTime, Str::QuestionCost,
                             Str::QuestionChange};
    for (Str q : questions) {
        ImGui::Bullet();
        ImGui::TextWrapped("%s", tr(q, app.lang));
    }
    ImGui::Dummy(ImVec2(0, 0.75f * em));

    const catalog::Catalog& cat = catalog::embedded_catalog();
    if (cat.gpus.empty()) {
        ImGui::TextWrapped("%s", tr(Str::CatalogEmpty, app.lang));
    } else {
        std::set<std::string> providers;
        for (const auto& offer : cat.offers) providers.insert(offer.provider);
        ImGui::Text(tr(Str::CatalogSummary, app.lang), static_cast<int>(cat.gpus.size()),
                    static_cast<int>(cat.offers.size()), static_cast<int>(providers.size()));
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", tr(Str::PrivacyNote, app.lang));
    ImGui::Text(tr(Str::Version, app.lang), GG_VERSION);
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
}

}  // namespace

void app_init(AppState& app) {
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;  // nothing is written to disk (there is none on the web)
    io.LogFilename = nullptr;
    apply_theme(app.dpi_scale * app.body_font_css_px);
}

bool app_update_fonts(AppState& app) {
    if (app.fonts.built_for_scale == app.dpi_scale) return false;
    const float body_px = app.body_font_css_px * app.dpi_scale;
    build_fonts(app.fonts, body_px);
    app.fonts.built_for_scale = app.dpi_scale;
    apply_theme(body_px);
    return true;
}

void app_frame(AppState& app) {
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("##gpuguide", nullptr, flags);
    draw_header(app);
    ImGui::BeginChild("##content", ImVec2(0, 0), false);
    draw_welcome(app);
    ImGui::EndChild();
    ImGui::End();
    ++app.frame_count;
}

std::string app_report_json(const AppState& app) {
    nlohmann::json report;
    report["version"] = GG_VERSION;
    report["language"] = app.lang == Lang::Zh ? "zh" : "en";
    return report.dump();
}

}  // namespace gg::ui
