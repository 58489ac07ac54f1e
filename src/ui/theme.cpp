// A light, calm theme for a reading-heavy tool, and the font atlas built from the embedded subset font
// (generated ui_font.cpp). Sizes derive from the body font size so HiDPI and zoom just work.
#include "ui/theme.h"

#include "imgui.h"

namespace gg::ui {

extern const unsigned char kUiFontTtf[];
extern const unsigned int kUiFontTtfSizeBytes;

namespace {
constexpr float kHeadingScale = 1.45f;

ImVec4 rgb(int r, int g, int b, float a = 1.0f) { return ImVec4(r / 255.0f, g / 255.0f, b / 255.0f, a); }
}  // namespace

void apply_theme(float body_px) {
    ImGuiStyle style;  // start from defaults each time, so repeated calls never compound scaling
    ImGui::StyleColorsLight(&style);
    const float em = body_px;
    style.WindowPadding = ImVec2(1.0f * em, 0.75f * em);
    style.FramePadding = ImVec2(0.5f * em, 0.3f * em);
    style.CellPadding = ImVec2(0.4f * em, 0.25f * em);
    style.ItemSpacing = ImVec2(0.6f * em, 0.45f * em);
    style.ItemInnerSpacing = ImVec2(0.4f * em, 0.3f * em);
    style.IndentSpacing = 1.2f * em;
    style.ScrollbarSize = 0.8f * em;
    style.GrabMinSize = 0.7f * em;
    style.WindowRounding = 0.0f;
    style.ChildRounding = 0.3f * em;
    style.FrameRounding = 0.25f * em;
    style.PopupRounding = 0.25f * em;
    style.ScrollbarRounding = 0.4f * em;
    style.GrabRounding = 0.25f * em;
    style.TabRounding = 0.25f * em;
    style.WindowBorderSize = 0.0f;
    style.FrameBorderSize = 0.0f;
    style.TouchExtraPadding = ImVec2(0.1f * em, 0.1f * em);

    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = rgb(28, 32, 38);
    c[ImGuiCol_TextDisabled] = rgb(95, 102, 112);
    c[ImGuiCol_WindowBg] = rgb(250, 250, 252);
    c[ImGuiCol_ChildBg] = rgb(255, 255, 255, 0.0f);
    c[ImGuiCol_PopupBg] = rgb(255, 255, 255);
    c[ImGuiCol_Border] = rgb(214, 218, 225);
    c[ImGuiCol_FrameBg] = rgb(236, 239, 244);
    c[ImGuiCol_FrameBgHovered] = rgb(224, 231, 242);
    c[ImGuiCol_FrameBgActive] = rgb(210, 222, 240);
    c[ImGuiCol_Button] = rgb(226, 234, 247);
    c[ImGuiCol_ButtonHovered] = rgb(203, 219, 245);
    c[ImGuiCol_ButtonActive] = rgb(180, 203, 240);
    c[ImGuiCol_Header] = rgb(226, 234, 247);
    c[ImGuiCol_HeaderHovered] = rgb(210, 224, 246);
    c[ImGuiCol_HeaderActive] = rgb(190, 210, 242);
    c[ImGuiCol_Tab] = rgb(232, 236, 242);
    c[ImGuiCol_TabHovered] = rgb(203, 219, 245);
    c[ImGuiCol_TabActive] = rgb(37, 99, 185);
    c[ImGuiCol_Separator] = rgb(214, 218, 225);
    c[ImGuiCol_CheckMark] = rgb(37, 99, 185);
    c[ImGuiCol_SliderGrab] = rgb(37, 99, 185);
    c[ImGuiCol_SliderGrabActive] = rgb(25, 75, 150);
    c[ImGuiCol_PlotHistogram] = rgb(37, 99, 185);
    c[ImGuiCol_TableHeaderBg] = rgb(236, 239, 244);
    c[ImGuiCol_TableRowBgAlt] = rgb(244, 246, 249);
    ImGui::GetStyle() = style;
}

void build_fonts(FontSet& fonts, float body_px) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    if (fonts.glyph_ranges.empty()) {
        // The embedded font was subset at build time to the characters of the UI sources (strings, guide,
        // formatting) plus Latin-1, so "every code point" bakes exactly those glyphs and nothing more.
        fonts.glyph_ranges.push_back(0x0020);
        fonts.glyph_ranges.push_back(0xFFFF);
        fonts.glyph_ranges.push_back(0);
    }
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;  // the data is a constant array in the binary
    config.OversampleH = 1;               // rasterised at device resolution: no oversampling needed
    config.OversampleV = 1;
    config.PixelSnapH = true;
    void* data = const_cast<unsigned char*>(kUiFontTtf);
    const int size = static_cast<int>(kUiFontTtfSizeBytes);
    fonts.body = io.Fonts->AddFontFromMemoryTTF(data, size, body_px, &config, fonts.glyph_ranges.Data);
    fonts.heading =
        io.Fonts->AddFontFromMemoryTTF(data, size, body_px * kHeadingScale, &config, fonts.glyph_ranges.Data);
    io.Fonts->Build();
    io.FontDefault = fonts.body;
}

}  // namespace gg::ui
