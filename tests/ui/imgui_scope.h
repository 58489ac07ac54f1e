// A Dear ImGui context for the length of a test (app_init and frames need one; the fonts are built per context).
#pragma once

#include "imgui.h"

struct ImGuiContextScope {
    ImGuiContextScope() { ImGui::CreateContext(); }
    ~ImGuiContextScope() { ImGui::DestroyContext(); }
    ImGuiContextScope(const ImGuiContextScope&) = delete;
    ImGuiContextScope& operator=(const ImGuiContextScope&) = delete;
};
