// Input widgets with units, tooltips and inline range messages (see widgets.h).
#include "ui/widgets.h"

#include <cmath>
#include <cstdio>

#include "ui/format.h"

namespace gg::ui {

namespace {
const ImVec4 kErrorColor(0.70f, 0.13f, 0.13f, 1.0f);

float unit_width(const char* unit) {
    if (unit == nullptr || *unit == 0) return 0;
    return ImGui::CalcTextSize(unit).x + ImGui::GetStyle().ItemSpacing.x;
}

void draw_unit(const char* unit) {
    if (unit == nullptr || *unit == 0) return;
    ImGui::SameLine();
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", unit);
}

void range_message(const char* format, const std::string& lo, const std::string& hi) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColor);
    ImGui::TextWrapped(format, lo.c_str(), hi.c_str());
    ImGui::PopStyleColor();
}
}  // namespace

void field_label(const char* label, const char* tip) {
    ImGui::TextUnformatted(label);
    const bool hovered_label = ImGui::IsItemHovered();
    ImGui::SameLine(0, 0.3f * ImGui::GetFontSize());
    ImGui::TextDisabled("(?)");
    if ((hovered_label || ImGui::IsItemHovered()) && tip && *tip) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(22.0f * ImGui::GetFontSize());
        ImGui::TextUnformatted(tip);
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

bool choice_combo(const char* id, std::string& value, const std::vector<Choice>& choices, Lang lang) {
    const char* preview = value.c_str();
    for (const Choice& c : choices)
        if (value == c.value) preview = tr(c.label, lang);
    bool changed = false;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo(id, preview)) {
        for (const Choice& c : choices) {
            const bool selected = value == c.value;
            if (ImGui::Selectable(tr(c.label, lang), selected) && !selected) {
                value = c.value;
                changed = true;
            }
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    return changed;
}

bool int_field(AppState& app, const char* id, int& value, int min, int max, const char* unit) {
    const ImGuiID key = ImGui::GetID(id);
    auto pending = app.invalid_inputs.find(key);
    int shown = pending != app.invalid_inputs.end() ? static_cast<int>(pending->second) : value;
    ImGui::SetNextItemWidth(-unit_width(unit) - 1);
    bool changed = false;
    if (ImGui::InputInt(id, &shown, 1, 10)) {
        if (shown >= min && shown <= max) {
            app.invalid_inputs.erase(key);
            changed = shown != value;
            value = shown;
        } else {
            app.invalid_inputs[key] = shown;
        }
    }
    draw_unit(unit);
    if (app.invalid_inputs.count(key))
        range_message(tr(Str::RangeInt, app.lang), format_grouped(min), format_grouped(max));
    return changed;
}

bool double_field(AppState& app, const char* id, double& value, double min, double max, double step,
                  const char* unit, const char* format) {
    const ImGuiID key = ImGui::GetID(id);
    auto pending = app.invalid_inputs.find(key);
    double shown = pending != app.invalid_inputs.end() ? pending->second : value;
    ImGui::SetNextItemWidth(-unit_width(unit) - 1);
    bool changed = false;
    if (ImGui::InputDouble(id, &shown, step, step * 10, format)) {
        if (std::isfinite(shown) && shown >= min && shown <= max) {
            app.invalid_inputs.erase(key);
            changed = shown != value;
            value = shown;
        } else {
            app.invalid_inputs[key] = shown;
        }
    }
    draw_unit(unit);
    if (app.invalid_inputs.count(key))
        range_message(tr(Str::RangeNumber, app.lang), format_significant(min, 6), format_significant(max, 6));
    return changed;
}

void hint_text(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
}

void section_heading(AppState& app, const char* text) {
    ImGui::Dummy(ImVec2(0, 0.3f * ImGui::GetFontSize()));
    ImGui::PushFont(app.fonts.heading);
    ImGui::TextUnformatted(text);
    ImGui::PopFont();
}

}  // namespace gg::ui
