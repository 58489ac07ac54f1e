// A small ImPlot-shaped chart API drawn with ImDrawList inside an InvisibleButton: begin_chart / setup axes /
// chart_scatter / chart_line / chart_bars / chart_hline / end_chart. The axis maths is in axis.h (pure, tested).
// The Chart lives on the caller's stack for one frame: no hidden global state.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "imgui.h"
#include "ui/axis.h"

namespace gg::ui {

struct Chart {
    ImVec2 frame_min, frame_max;  // the whole widget
    ImVec2 plot_min, plot_max;    // the data area inside the axes
    Axis x, y;
    ImDrawList* draw = nullptr;
    bool hovered = false;
    ImVec2 mouse;
    int hovered_series = -1;   // set by the series calls: which series / point is under the mouse
    int hovered_index = -1;
    float best_hover_distance = 0;
    // Tick labels, with their unit where the axis has one ("2 GiB", "¥500", "20 h"); empty: 3 significant digits.
    std::function<std::string(double)> format_x, format_y;
    bool x_ticks = true;  // false: the x axis holds categories the caller names itself (no grid, no tick labels)
};

// Reserves `size` (a negative x means "all available width") and lays out the plot area. Returns false when
// the chart is not visible (then skip the rest, and do not call end_chart).
bool begin_chart(Chart& chart, const char* id, ImVec2 size);
// Data ranges; call both before any series. The axes draw their grid, ticks and labels.
void setup_axes(Chart& chart, const Axis& x, const Axis& y, const char* x_label, const char* y_label);
// Points; `series` names the series for hover reporting. Radius in multiples of the font size.
void chart_scatter(Chart& chart, int series, const std::vector<double>& xs, const std::vector<double>& ys,
                   ImU32 color, float radius_em = 0.28f, const std::vector<bool>* filled = nullptr);
void chart_line(Chart& chart, const std::vector<double>& xs, const std::vector<double>& ys, ImU32 color,
                float thickness_em = 0.12f);
// A horizontal or vertical reference line with a short label at its end.
void chart_hline(Chart& chart, double y, ImU32 color, const char* label);
void chart_vline(Chart& chart, double x, ImU32 color, const char* label);
void end_chart(Chart& chart);

// One horizontal stacked bar (e.g. memory parts against a card's capacity): segments in order, with an
// optional marker line at `marker` (same units as the values) on a scale of `scale_max`.
struct BarSegment {
    double value;
    ImU32 color;
    const char* label;  // shown in the tooltip
};
// Returns the index of the hovered segment, or -1.
int stacked_bar(const char* id, const std::vector<BarSegment>& segments, double scale_max, double marker,
                ImU32 marker_color, float height_em = 1.4f);

}  // namespace gg::ui
