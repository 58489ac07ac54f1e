// Input widgets of the page: a label with a beginner's tooltip, then the field at full width, its unit, and
// a message under it when the value is out of range (the value is then kept aside, not applied).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "ui/app.h"

namespace gg::ui {

// "Label (?)" on its own line; hovering either shows `tip`.
void field_label(const char* label, const char* tip);

// A combo over string values; `label_of` gives each value's display text. Returns true when changed.
struct Choice {
    const char* value;
    Str label;
};
bool choice_combo(const char* id, std::string& value, const std::vector<Choice>& choices, Lang lang);

// Whole number in [min, max]. An out-of-range entry stays visible with a message and is not applied. Both number
// fields record their input as a test anchor named by `id` without its "##" ("##batch" -> "batch").
bool int_field(AppState& app, const char* id, int& value, int min, int max, const char* unit);
// Real number in [min, max] (step: the +/- buttons' step, 0 = none).
bool double_field(AppState& app, const char* id, double& value, double min, double max, double step,
                  const char* unit, const char* format = "%.6g");

// Wrapped text that also breaks between Chinese characters (Dear ImGui 1.86 breaks only at spaces, which leaves
// ragged lines in Chinese). Wraps at the current PushTextWrapPos, else at the region's right edge.
// A label whose ImGui ID is the same in every language: the visible text, then "###" and a fixed key (ImGui hashes
// only what follows "###"). Every widget that keeps state (tab, tree node, collapsing header) uses one, so switching
// the language leaves what the user opened open.
std::string stable_label(const char* text, const char* key);

// The wrap position for a tooltip `ems` font sizes wide, narrowed to fit the screen (a phone is ~24 em wide):
// ImGui keeps a tooltip inside the display only when it is narrower than it.
float tooltip_wrap(float ems);

// A Copy button (SmallButton when `small`), recorded as anchor `anchor`: true when clicked, and the caller then sets
// app.clipboard_text. copy_feedback draws, on the same line, what came of the last copy by any of `anchors` ("Copied",
// or that the browser refused and the text is shown to copy by hand).
bool copy_button(AppState& app, const char* label, const std::string& anchor, bool small);
void copy_feedback(AppState& app, std::initializer_list<const char*> anchors);

// Records the last item's rectangle as anchor `name` (AppState::anchors), for the browser tests.
void test_anchor(AppState& app, const std::string& name);
// The current window's rectangle (a scrolling pane: the tests scroll it with the wheel over its scrollbar).
void window_anchor(AppState& app, const std::string& name);
// The same for a table just ended (after ImGui::EndTable; `table_id` as given to BeginTable), with the width of its
// content and the number of its columns whose content is wider than the column (text cut at the edge).
void table_anchor(AppState& app, const std::string& name, const char* table_id);

void wrapped_text(const char* text);
void wrapped_textf(const char* format, ...) IM_FMTARGS(1);
// Where wrapped_text breaks `text` for a line width of `width_px` with `font` at `size_px` (pure layout; tested).
std::vector<std::pair<int, int>> wrap_lines(const ImFont* font, float size_px, const char* text, float width_px);

// A button whose label wraps onto more lines when it is wider than the space left; ImGui::Button would clip it (the
// guide's "try it" buttons on a phone). `label` may carry "##id" / "###id" like any ImGui label. Same colours and
// rounding as ImGui::Button; one line when it fits.
bool wrapped_button(const char* label);
// A collapsing header whose title wraps the same way (ImGui::CollapsingHeader clips it). Its open state lives where
// CollapsingHeader keeps it (the window's state storage under the label's ID), so both draw the same section.
bool wrapped_collapsing_header(const char* label, bool default_open);

// One line of text against the right edge of the space left (a table cell), so a column of numbers lines up by
// its last digit or unit. Left-aligned when it is wider than the space.
void text_right(const std::string& text);

// One item of a chart legend that wraps: a swatch (a square, or a dot) in `color` and its label, on the current line
// when it fits, else on the next. `line_start` is true before the legend's first item and is kept by the calls.
enum class Swatch { kSquare, kDot };
void legend_item(const char* label, ImU32 color, Swatch shape, bool& line_start);

// Small grey text, wrapped like wrapped_text.
void hint_text(const char* text);
void hint_textf(const char* format, ...) IM_FMTARGS(1);
// A heading line and one bullet per problem ("/pointer: message"), in the error colour.
void problem_list(const char* heading, const std::vector<catalog::Problem>& problems);
// A heading in the heading font.
void section_heading(AppState& app, const char* text);

}  // namespace gg::ui
