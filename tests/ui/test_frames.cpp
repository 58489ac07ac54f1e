// Headless Dear ImGui frames of the whole page: the UI runs without a renderer, in both languages and at
// several pixel densities and display sizes, and its report is valid JSON.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "ui/app.h"

namespace {
struct ImGuiContextScope {
    ImGuiContextScope() { ImGui::CreateContext(); }
    ~ImGuiContextScope() { ImGui::DestroyContext(); }
};

void run_frame(gg::ui::AppState& app, float width_px, float height_px) {
    gg::ui::app_update_fonts(app);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width_px, height_px);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what a renderer would upload
    REQUIRE(pixels != nullptr);
    ImGui::NewFrame();
    gg::ui::app_frame(app);
    ImGui::Render();
    CHECK(ImGui::GetDrawData()->TotalVtxCount > 0);
}
}  // namespace

TEST_CASE("the page draws in both languages from a phone to a 4K screen") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (float scale : {1.0f, 2.0f, 3.0f}) {
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            CAPTURE(scale);
            app.dpi_scale = scale;
            app.lang = lang;
            run_frame(app, 360 * scale, 640 * scale);
            run_frame(app, 3840, 2160);
        }
    }
    CHECK(app.frame_count == 12);
}

TEST_CASE("fonts are rebuilt only when the pixel density changes") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    CHECK(gg::ui::app_update_fonts(app));
    CHECK_FALSE(gg::ui::app_update_fonts(app));
    app.dpi_scale = 1.5f;
    CHECK(gg::ui::app_update_fonts(app));
    CHECK(app.fonts.body->FontSize == doctest::Approx(app.body_font_css_px * 1.5f));
    CHECK(app.fonts.heading->FontSize > app.fonts.body->FontSize);
}

TEST_CASE("every character of the string table is in the font") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_update_fonts(app);
    for (int i = 0; i < gg::ui::string_count(); ++i) {
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            const char* text = gg::ui::string_at(i, lang);
            for (const char* p = text; *p;) {
                unsigned int c = 0;
                p += ImTextCharFromUtf8(&c, p, nullptr);
                CAPTURE(text);
                CAPTURE(c);
                CHECK(app.fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
            }
        }
    }
}

TEST_CASE("the report is JSON with the version") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    const auto report = nlohmann::json::parse(gg::ui::app_report_json(app));
    CHECK(report.at("version").get<std::string>() == GG_VERSION);
}
