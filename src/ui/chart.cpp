// Charts drawn with ImDrawList (no ImPlot dependency): axes with nice ticks and grid, scatter, lines,
// reference lines and a stacked bar. Sizes in font units so they scale with the text.
#include "ui/chart.h"

#include <algorithm>
#include <cmath>

#include "ui/format.h"

namespace gg::ui {

namespace {
ImU32 col(const ImVec4& v) { return ImGui::ColorConvertFloat4ToU32(v); }
std::string default_format(double v) { return format_significant(v, 3); }
}  // namespace

bool begin_chart(Chart& c, const char* id, ImVec2 size) {
    const float em = ImGui::GetFontSize();
    if (size.x <= 0) size.x = ImGui::GetContentRegionAvail().x;
    if (size.y <= 0) size.y = 14 * em;
    c.frame_min = ImGui::GetCursorScreenPos();
    c.frame_max = ImVec2(c.frame_min.x + size.x, c.frame_min.y + size.y);
    ImGui::InvisibleButton(id, size);
    if (!ImGui::IsItemVisible()) return false;
    c.hovered = ImGui::IsItemHovered();
    c.mouse = ImGui::GetIO().MousePos;
    c.draw = ImGui::GetWindowDrawList();
    // Room for y tick labels on the left, the y axis title above them (a line of its own, so it never runs into
    // the top tick label), and x tick labels + axis title below.
    c.plot_min = ImVec2(c.frame_min.x + 4.2f * em, c.frame_min.y + 1.6f * em);
    c.plot_max = ImVec2(c.frame_max.x - 0.8f * em, c.frame_max.y - 2.6f * em);
    c.draw->AddRectFilled(c.plot_min, c.plot_max, col(ImGui::GetStyleColorVec4(ImGuiCol_FrameBg)) & 0x60FFFFFF);
    c.draw->PushClipRect(c.frame_min, c.frame_max, true);
    c.best_hover_distance = 0.6f * em;
    return true;
}

void setup_axes(Chart& c, const Axis& x, const Axis& y, const char* x_label, const char* y_label) {
    const float em = ImGui::GetFontSize();
    c.x = x;
    c.x.pixel_min = c.plot_min.x;
    c.x.pixel_max = c.plot_max.x;
    c.y = y;
    c.y.pixel_min = c.plot_max.y;
    c.y.pixel_max = c.plot_min.y;
    const ImU32 grid = col(ImGui::GetStyleColorVec4(ImGuiCol_Border));
    const ImU32 text = col(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    const int x_ticks = std::max(2, static_cast<int>((c.plot_max.x - c.plot_min.x) / (6 * em)));
    const int y_ticks = std::max(2, static_cast<int>((c.plot_max.y - c.plot_min.y) / (2.5f * em)));
    float last_label_end = -1e9f;
    for (double v : c.x_ticks ? axis_ticks(c.x, x_ticks) : std::vector<double>{}) {
        const float px = static_cast<float>(c.x.to_pixel(v));
        c.draw->AddLine(ImVec2(px, c.plot_min.y), ImVec2(px, c.plot_max.y), grid);
        const std::string label = c.format_x ? c.format_x(v) : default_format(v);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        // Centred under the tick, but kept inside the widget (the last label would be cut at the right edge); a label
        // that would run into the one before it is left out (its grid line stays).
        const float lx = std::min(px - ts.x * 0.5f, c.frame_max.x - ts.x);
        if (lx < last_label_end + 0.3f * em) continue;
        c.draw->AddText(ImVec2(lx, c.plot_max.y + 0.2f * em), text, label.c_str());
        last_label_end = lx + ts.x;
    }
    for (double v : axis_ticks(c.y, y_ticks)) {
        const float py = static_cast<float>(c.y.to_pixel(v));
        c.draw->AddLine(ImVec2(c.plot_min.x, py), ImVec2(c.plot_max.x, py), grid);
        const std::string label = c.format_y ? c.format_y(v) : default_format(v);
        const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
        c.draw->AddText(ImVec2(c.plot_min.x - ts.x - 0.3f * em, py - ts.y * 0.5f), text, label.c_str());
    }
    if (x_label && *x_label) {
        const ImVec2 ts = ImGui::CalcTextSize(x_label);
        c.draw->AddText(ImVec2((c.plot_min.x + c.plot_max.x - ts.x) * 0.5f, c.plot_max.y + 1.35f * em), text, x_label);
    }
    if (y_label && *y_label) c.draw->AddText(ImVec2(c.frame_min.x, c.frame_min.y - 0.1f * em), text, y_label);
}

void chart_scatter(Chart& c, int series, const std::vector<double>& xs, const std::vector<double>& ys, ImU32 color,
                   float radius_em, const std::vector<bool>* filled) {
    const float r = radius_em * ImGui::GetFontSize();
    const size_t n = std::min(xs.size(), ys.size());
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
        const ImVec2 p(static_cast<float>(c.x.to_pixel(xs[i])), static_cast<float>(c.y.to_pixel(ys[i])));
        if (filled == nullptr || (i < filled->size() && (*filled)[i])) c.draw->AddCircleFilled(p, r, color);
        else c.draw->AddCircle(p, r, color, 0, r * 0.4f);
        if (c.hovered) {
            const float d = std::hypot(p.x - c.mouse.x, p.y - c.mouse.y);
            if (d < c.best_hover_distance) {
                c.best_hover_distance = d;
                c.hovered_series = series;
                c.hovered_index = static_cast<int>(i);
            }
        }
    }
}

void chart_line(Chart& c, const std::vector<double>& xs, const std::vector<double>& ys, ImU32 color,
                float thickness_em) {
    const size_t n = std::min(xs.size(), ys.size());
    std::vector<ImVec2> points;
    points.reserve(n);
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(xs[i]) && std::isfinite(ys[i]))
            points.emplace_back(static_cast<float>(c.x.to_pixel(xs[i])), static_cast<float>(c.y.to_pixel(ys[i])));
    if (points.size() >= 2)
        c.draw->AddPolyline(points.data(), static_cast<int>(points.size()), color, 0,
                            thickness_em * ImGui::GetFontSize());
}

void chart_hline(Chart& c, double y, ImU32 color, const char* label) {
    const float py = static_cast<float>(c.y.to_pixel(y));
    c.draw->AddLine(ImVec2(c.plot_min.x, py), ImVec2(c.plot_max.x, py), color, 0.1f * ImGui::GetFontSize());
    if (label && *label) {
        const ImVec2 ts = ImGui::CalcTextSize(label);
        c.draw->AddText(ImVec2(c.plot_max.x - ts.x - 0.2f * ImGui::GetFontSize(), py - ts.y - 0.1f * ImGui::GetFontSize()),
                        color, label);
    }
}

void chart_vline(Chart& c, double x, ImU32 color, const char* label) {
    const float px = static_cast<float>(c.x.to_pixel(x));
    c.draw->AddLine(ImVec2(px, c.plot_min.y), ImVec2(px, c.plot_max.y), color, 0.1f * ImGui::GetFontSize());
    if (label && *label) c.draw->AddText(ImVec2(px + 0.25f * ImGui::GetFontSize(), c.plot_min.y), color, label);
}

void end_chart(Chart& c) {
    c.draw->AddRect(c.plot_min, c.plot_max, col(ImGui::GetStyleColorVec4(ImGuiCol_Border)));
    c.draw->PopClipRect();
}

int stacked_bar(const char* id, const std::vector<BarSegment>& segments, double scale_max, double marker,
                ImU32 marker_color, float height_em) {
    const float em = ImGui::GetFontSize();
    const ImVec2 size(ImGui::GetContentRegionAvail().x, height_em * em);
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton(id, size);
    const bool hovered = ImGui::IsItemHovered();
    const float mouse_x = ImGui::GetIO().MousePos.x;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    draw->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + size.y), col(ImGui::GetStyleColorVec4(ImGuiCol_FrameBg)),
                        0.2f * em);
    if (!(scale_max > 0)) return -1;
    int hovered_index = -1;
    double acc = 0;
    for (size_t i = 0; i < segments.size(); ++i) {
        const double v = std::max(0.0, segments[i].value);
        const float x0 = p0.x + static_cast<float>(std::min(1.0, acc / scale_max)) * size.x;
        acc += v;
        const float x1 = p0.x + static_cast<float>(std::min(1.0, acc / scale_max)) * size.x;
        if (x1 > x0) draw->AddRectFilled(ImVec2(x0, p0.y), ImVec2(x1, p0.y + size.y), segments[i].color);
        if (hovered && mouse_x >= x0 && mouse_x < x1) hovered_index = static_cast<int>(i);
    }
    if (marker > 0) {
        const float mx = p0.x + static_cast<float>(std::min(1.0, marker / scale_max)) * size.x;
        draw->AddLine(ImVec2(mx, p0.y - 0.2f * em), ImVec2(mx, p0.y + size.y + 0.2f * em), marker_color, 0.15f * em);
    }
    if (acc > scale_max) {  // overflow: a hatched end shows the bar does not fit
        const float xe = p0.x + size.x;
        for (float x = xe - 1.2f * em; x < xe; x += 0.35f * em)
            draw->AddLine(ImVec2(x, p0.y + size.y), ImVec2(x + 0.35f * em, p0.y), IM_COL32(255, 255, 255, 200),
                          0.08f * em);
    }
    return hovered_index;
}

}  // namespace gg::ui
