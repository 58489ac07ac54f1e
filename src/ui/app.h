// The page's UI: one AppState that owns everything the user sees and enters, and the functions that draw it
// with Dear ImGui each frame. No platform code here (no GLFW, GL or Emscripten): src/platform drives it.
#pragma once

#include <string>

#include "imgui.h"
#include "ui/strings.h"

namespace gg::ui {

// Fonts are rasterised at the device's pixel density, so text stays crisp on HiDPI screens.
struct FontSet {
    ImFont* body = nullptr;
    ImFont* heading = nullptr;
    ImVector<ImWchar> glyph_ranges;  // the string table's characters + Latin-1; must outlive the atlas
    float built_for_scale = 0;       // the dpi_scale the atlas was built for; 0 = never built
};

struct AppState {
    Lang lang = Lang::En;
    float dpi_scale = 1.0f;          // device pixels per CSS pixel, set by the platform each frame
    float body_font_css_px = 16.0f;  // body text size in CSS pixels
    FontSet fonts;
    int frame_count = 0;
};

// Once, after ImGui::CreateContext().
void app_init(AppState& app);

// Rebuilds the font atlas when the pixel density changed; returns true when it did (the renderer must
// then upload the atlas texture again).
bool app_update_fonts(AppState& app);

// One frame of UI, covering the whole display (between ImGui::NewFrame() and ImGui::Render()).
void app_frame(AppState& app);

// The report as JSON text (the page's test hook `gpuguide.report()`, same schema as the CLI's output).
std::string app_report_json(const AppState& app);

}  // namespace gg::ui
