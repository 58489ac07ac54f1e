// One frame of the page as the platform draws it (web_main.cpp's main loop, without the GL): the fonts for the
// pixel density, the display size, the font atlas a renderer would upload, then app_frame. For tests/ui only.
#pragma once

#include <doctest/doctest.h>

#include "imgui.h"
#include "ui/app.h"

inline void run_frame(gg::ui::AppState& app, float width_px, float height_px) {
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
