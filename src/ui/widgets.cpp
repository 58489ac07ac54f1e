// Input widgets with units, tooltips and inline range messages (see widgets.h).
#include "ui/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "imgui_internal.h"  // the window's current text-wrap position; RenderArrow
#include "ui/format.h"
#include "ui/glossary.h"
#include "ui/theme.h"

namespace gg::ui {

namespace {

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
    ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
    wrapped_textf(format, lo.c_str(), hi.c_str());
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
        ImGui::PushTextWrapPos(tooltip_wrap(22.0f));
        ImGui::TextUnformatted(tip);
        // The terms of art the label or its tip names, from the glossary.
        glossary_lines(std::string(label) + "\n" + tip, glossary_lang());
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

float tooltip_wrap(float ems) {
    const float em = ImGui::GetFontSize();
    const float screen = ImGui::GetIO().DisplaySize.x - 2.0f * em - 2.0f * ImGui::GetStyle().WindowPadding.x;
    return std::max(8.0f * em, std::min(ems * em, screen));
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
            if (ImGui::IsItemHovered()) glossary_tooltip(tr(c.label, lang), lang);  // "ZeRO-3", "QLoRA", ...
            if (selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    } else if (ImGui::IsItemHovered()) {
        glossary_tooltip(preview, lang);
    }
    return changed;
}

namespace {
// A field's anchor name: its ImGui id without the leading "##" ("##batch" -> "batch").
std::string anchor_name(const char* id) {
    while (*id == '#') ++id;
    return id;
}
}  // namespace

bool int_field(AppState& app, const char* id, int& value, int min, int max, const char* unit) {
    const ImGuiID key = ImGui::GetID(id);
    auto pending = app.invalid_inputs.find(key);
    int shown = pending != app.invalid_inputs.end() ? static_cast<int>(pending->second) : value;
    ImGui::SetNextItemWidth(-unit_width(unit) - 1);
    bool changed = false;
    const bool edited = ImGui::InputInt(id, &shown, 1, 10);
    test_anchor(app, anchor_name(id));
    if (edited) {
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
    const bool edited = ImGui::InputDouble(id, &shown, step, step * 10, format);
    test_anchor(app, anchor_name(id));
    if (edited) {
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

namespace {
bool is_cjk(unsigned int c) { return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFF00 && c <= 0xFFEF); }
// Chinese line-breaking basics: never start a line with closing punctuation, never end one with an opening bracket.
bool no_line_start(unsigned int c) {
    switch (c) {
        case 0xFF0C: case 0x3002: case 0x3001: case 0xFF1B: case 0xFF1A: case 0xFF1F: case 0xFF01: case 0xFF09:
        case 0x300B: case 0x300D: case 0x201D: case 0x2019: case ',': case '.': case ')': case ';': case ':': return true;
        default: return false;
    }
}
bool no_line_end(unsigned int c) { return c == 0xFF08 || c == 0x300A || c == 0x300C || c == 0x201C || c == '('; }
}  // namespace

std::vector<std::pair<int, int>> wrap_lines(const ImFont* font, float size_px, const char* text, float width_px) {
    std::vector<std::pair<int, int>> lines;  // [begin, end) byte offsets
    const float scale = size_px / font->FontSize;
    const char* line = text;
    const char* p = text;
    const char* brk = nullptr;       // best break so far on this line (line ends before it)
    const char* brk_next = nullptr;  // where the next line starts after that break (skips the space)
    float width = 0, width_at_brk = 0;
    unsigned int prev = 0, before_prev = 0;
    while (*p) {
        unsigned int c = 0;
        const int n = ImTextCharFromUtf8(&c, p, nullptr);
        if (c == '\n') {
            lines.emplace_back(int(line - text), int(p - text));
            p += n;
            line = p;
            brk = nullptr;
            width = 0;
            prev = before_prev = 0;
            continue;
        }
        // A break is allowed before c after a space, or between CJK characters (respecting punctuation); never in
        // "6.4 GiB", "3 cards", "3 张卡": a number keeps the word after it on its line.
        const bool number_space = prev == ' ' && before_prev >= '0' && before_prev <= '9';
        if (p != line && !number_space &&
            ((prev == ' ') || ((is_cjk(c) || is_cjk(prev)) && !no_line_start(c) && !no_line_end(prev)))) {
            brk = p;
            brk_next = p;
            width_at_brk = width;
        }
        const float advance = font->GetCharAdvance(static_cast<ImWchar>(c)) * scale;
        if (width + advance > width_px && p != line) {
            const char* end = brk ? brk : p;  // a hard break inside a long word when there is no better place
            const char* trimmed = end;
            while (trimmed > line && trimmed[-1] == ' ') --trimmed;
            lines.emplace_back(int(line - text), int(trimmed - text));
            width = brk ? width - width_at_brk : 0;  // what is already measured after the break moves down
            line = brk ? brk_next : p;
            brk = nullptr;
            if (line == p) prev = before_prev = 0;
            continue;  // measure c again on the new line
        }
        width += advance;
        before_prev = prev;
        prev = c;
        p += n;
    }
    if (p != line || lines.empty()) lines.emplace_back(int(line - text), int(p - text));
    return lines;
}

std::string stable_label(const char* text, const char* key) { return std::string(text) + "###" + key; }

bool copy_button(AppState& app, const char* label, const std::string& anchor, bool small) {
    const std::string id = std::string(label) + "##" + anchor;
    const bool clicked = small ? ImGui::SmallButton(id.c_str()) : ImGui::Button(id.c_str());
    test_anchor(app, anchor);
    if (clicked) {
        app.copy_source = anchor;
        app.copy_state = AppState::CopyState::kCopying;
        app.copy_at_s = ImGui::GetTime();
    }
    return clicked;
}

void copy_feedback(AppState& app, std::initializer_list<const char*> anchors) {
    bool mine = false;
    for (const char* a : anchors) mine |= app.copy_source == a;
    if (!mine || app.copy_state == AppState::CopyState::kCopying) return;
    // "Copied" confirms for 2 s; a refusal stays longer, until the user has found the box that shows the text.
    const bool refused = app.copy_state == AppState::CopyState::kRefused;
    if (ImGui::GetTime() - app.copy_at_s > (refused ? 10.0 : 2.0)) return;
    if (refused) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.62f, 0.36f, 0.02f, 1.0f));  // the notices' amber
        wrapped_text(tr(Str::CopyRefused, app.lang));
        ImGui::PopStyleColor();
    } else {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr(Str::ExportCopied, app.lang));
    }
}

void app_copy_result(AppState& app, bool ok) {
    app.copy_state = ok ? AppState::CopyState::kCopied : AppState::CopyState::kRefused;
    app.copy_at_s = ImGui::GetTime();
}

void test_anchor(AppState& app, const std::string& name) {
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    const float css = app.dpi_scale > 0 ? 1.0f / app.dpi_scale : 1.0f;  // ImGui draws in device pixels
    app.anchors[name] = {min.x * css, min.y * css, (max.x - min.x) * css, (max.y - min.y) * css,
                         ImGui::IsItemVisible(), app.frame_count};
}

void window_anchor(AppState& app, const std::string& name) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const float css = app.dpi_scale > 0 ? 1.0f / app.dpi_scale : 1.0f;
    app.anchors[name] = {pos.x * css, pos.y * css, size.x * css, size.y * css, true, app.frame_count};
}

void table_anchor(AppState& app, const std::string& name, const char* table_id) {
    test_anchor(app, name);
    const ImGuiTable* table = ImGui::TableFindByID(ImGui::GetID(table_id));
    if (table == nullptr) return;
    const float css = app.dpi_scale > 0 ? 1.0f / app.dpi_scale : 1.0f;
    AppState::Anchor& a = app.anchors[name];
    // A scrolling table's content is its inner window's; the rest fit their columns into the table's width.
    const float scroll_x = (table->Flags & ImGuiTableFlags_ScrollX) && table->InnerWindow ? table->InnerWindow->ScrollMax.x : 0;
    a.content_w = a.w + scroll_x * css;
    a.clipped_columns = 0;
    a.clipped_mask = 0;
    for (int i = 0; i < table->ColumnsCount; ++i) {
        const ImGuiTableColumn& c = table->Columns[i];
        if (!c.IsEnabled) continue;
        // The furthest any cell or the header's full name reached (ImGui records it even where it clips the text).
        const float reached = std::max({c.ContentMaxXFrozen, c.ContentMaxXUnfrozen, c.ContentMaxXHeadersIdeal});
        // A fitted column's width is rounded to whole pixels: less than 0.15 em past its edge cuts no letter.
        if (reached > c.MaxX + 0.15f * ImGui::GetFontSize()) {
            ++a.clipped_columns;
            if (i < 31) a.clipped_mask |= 1 << i;
        }
    }
}

void wrapped_text(const char* text) {
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float x = window->DC.CursorPos.x;
    const float wrap_pos = window->DC.TextWrapPos;
    const float right = wrap_pos > 0 ? window->Pos.x - window->Scroll.x + wrap_pos
                                     : x + ImGui::GetContentRegionAvail().x;
    const float width = right - x > ImGui::GetFontSize() ? right - x : ImGui::GetFontSize();
    const float local_x = ImGui::GetCursorPosX();  // continuation lines align with the first (e.g. after a bullet)
    const auto lines = wrap_lines(ImGui::GetFont(), ImGui::GetFontSize(), text, width);
    const ImVec2 top = window->DC.CursorPos;
    // Lines of one paragraph sit at the font's line height, like ImGui's own wrapped text: no item spacing.
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i > 0) ImGui::SetCursorPosX(local_x);
        if (i + 1 == lines.size()) ImGui::PopStyleVar();  // the paragraph's last line keeps the normal spacing
        ImGui::TextUnformatted(text + lines[i].first, text + lines[i].second);
    }
    // The glossary (issue 40): a paragraph that names a term of art explains it when hovered (a long press on a touch
    // screen rests the pointer there too). Looked up only while hovered; never inside a tooltip (it takes no input).
    if (!lines.empty() && ImGui::IsWindowHovered() &&
        ImGui::IsMouseHoveringRect(top, ImVec2(x + width, ImGui::GetItemRectMax().y)))
        glossary_tooltip(text, glossary_lang());
}

namespace {
// The lines of a frame-style item's visible label wrapped to the space left (less the frame padding and `indent`),
// their widest width, and the item's size.
struct WrappedLabel {
    std::string text;
    std::vector<std::pair<int, int>> lines;
    float widest = 0;
    ImVec2 size;
};
WrappedLabel wrap_label(const char* label, float indent) {
    const ImGuiStyle& style = ImGui::GetStyle();
    WrappedLabel w;
    w.text.assign(label, ImGui::FindRenderedTextEnd(label));
    const float avail = ImGui::GetContentRegionAvail().x;
    const float inner = std::max(ImGui::GetFontSize(), avail - 2 * style.FramePadding.x - indent);
    w.lines = wrap_lines(ImGui::GetFont(), ImGui::GetFontSize(), w.text.c_str(), inner);
    for (const auto& [b, e] : w.lines)
        w.widest = std::max(w.widest, ImGui::CalcTextSize(w.text.c_str() + b, w.text.c_str() + e).x);
    w.size = ImVec2(w.widest + 2 * style.FramePadding.x + indent,
                    float(w.lines.size()) * ImGui::GetTextLineHeight() + 2 * style.FramePadding.y);
    return w;
}

void draw_label_lines(const WrappedLabel& w, ImVec2 at) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const ImU32 colour = ImGui::GetColorU32(ImGuiCol_Text);
    for (std::size_t i = 0; i < w.lines.size(); ++i)
        draw->AddText(ImVec2(at.x, at.y + float(i) * ImGui::GetTextLineHeight()), colour,
                      w.text.c_str() + w.lines[i].first, w.text.c_str() + w.lines[i].second);
}
}  // namespace

bool wrapped_button(const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const WrappedLabel w = wrap_label(label, 0);
    if (w.lines.size() <= 1) return ImGui::Button(label);
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const bool pressed = ImGui::InvisibleButton(label, w.size);
    const ImGuiCol bg = ImGui::IsItemActive() ? ImGuiCol_ButtonActive
                        : ImGui::IsItemHovered() ? ImGuiCol_ButtonHovered : ImGuiCol_Button;
    ImGui::GetWindowDrawList()->AddRectFilled(pos, ImVec2(pos.x + w.size.x, pos.y + w.size.y), ImGui::GetColorU32(bg),
                                              style.FrameRounding);
    draw_label_lines(w, ImVec2(pos.x + style.FramePadding.x, pos.y + style.FramePadding.y));
    return pressed;
}

bool wrapped_collapsing_header(const char* label, bool default_open) {
    const ImGuiStyle& style = ImGui::GetStyle();
    // ImGui's header puts the title after the arrow: one font size plus twice the frame padding.
    const float arrow = ImGui::GetFontSize() + 2 * style.FramePadding.x;
    const WrappedLabel w = wrap_label(label, arrow);
    if (w.lines.size() <= 1) return ImGui::CollapsingHeader(label, default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID id = ImGui::GetID(label);
    bool open = storage->GetInt(id, default_open ? 1 : 0) != 0;  // CollapsingHeader's own key and default
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    const ImVec2 size(ImGui::GetContentRegionAvail().x, w.size.y);
    if (ImGui::InvisibleButton(label, size)) {
        open = !open;
        storage->SetInt(id, open ? 1 : 0);
    }
    const ImGuiCol bg = ImGui::IsItemActive() ? ImGuiCol_HeaderActive
                        : ImGui::IsItemHovered() ? ImGuiCol_HeaderHovered : ImGuiCol_Header;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(pos, ImVec2(pos.x + size.x, pos.y + size.y), ImGui::GetColorU32(bg), style.FrameRounding);
    ImGui::RenderArrow(draw, ImVec2(pos.x + style.FramePadding.x, pos.y + style.FramePadding.y),
                       ImGui::GetColorU32(ImGuiCol_Text), open ? ImGuiDir_Down : ImGuiDir_Right, 1.0f);
    draw_label_lines(w, ImVec2(pos.x + style.FramePadding.x + arrow, pos.y + style.FramePadding.y));
    return open;
}

namespace {
// printf into a line buffer, then `draw` it (wrapped_textf, hint_textf).
void draw_formatted(void (*draw)(const char*), const char* format, va_list args) {
    char buffer[2048];
    std::vsnprintf(buffer, sizeof buffer, format, args);
    draw(buffer);
}
}  // namespace

void wrapped_textf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    draw_formatted(wrapped_text, format, args);
    va_end(args);
}

void text_right(const std::string& text) {
    const float width = ImGui::CalcTextSize(text.c_str()).x;
    const float room = ImGui::GetContentRegionAvail().x;
    if (width < room) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room - width);
    ImGui::TextUnformatted(text.c_str());
}

void legend_item(const char* label, ImU32 color, Swatch shape, bool& line_start) {
    const float em = ImGui::GetFontSize();
    const float w = 1.2f * em + ImGui::CalcTextSize(label).x;
    if (!line_start && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w >
                           ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x)
        line_start = true;
    if (!line_start) ImGui::SameLine();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    if (shape == Swatch::kSquare)
        draw->AddRectFilled(ImVec2(p.x + 0.15f * em, p.y + 0.25f * em), ImVec2(p.x + 0.85f * em, p.y + 0.95f * em), color);
    else
        draw->AddCircleFilled(ImVec2(p.x + 0.45f * em, p.y + 0.55f * em), 0.3f * em, color);
    ImGui::Dummy(ImVec2(1.0f * em, em));
    ImGui::SameLine(0, 0.2f * em);
    ImGui::TextUnformatted(label);
    line_start = false;
}

void hint_text(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text(text);
    ImGui::PopStyleColor();
}

void hint_textf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    draw_formatted(hint_text, format, args);
    va_end(args);
}

void section_heading(AppState& app, const char* text) {
    ImGui::Dummy(ImVec2(0, 0.3f * ImGui::GetFontSize()));
    ImGui::PushFont(app.fonts.heading);
    wrapped_text(text);  // a phone is narrower than the longest headings
    ImGui::PopFont();
}

void problem_list(const char* heading, const std::vector<catalog::Problem>& problems) {
    ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
    wrapped_text(heading);
    for (const catalog::Problem& p : problems) {
        ImGui::Bullet();
        wrapped_text((p.pointer + ": " + p.message).c_str());
    }
    ImGui::PopStyleColor();
}

}  // namespace gg::ui
