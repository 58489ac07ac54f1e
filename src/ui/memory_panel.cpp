// The memory panel: where the memory goes (each part opens into its formula), memory through one training step
// (the report's memory_timeline, drawn as stacked bands) and the largest batch on every card (a click picks the
// card). Reads AppState::results; computes no figure of its own.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/chart.h"
#include "ui/format.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

struct Part {
    Str label;
    const engine::Figure* figure;
    ImU32 color;
};

void draw_figure_explanation(const engine::Figure& f, Lang lang) {
    ImGui::Indent();
    if (const char* text = formula_text(f.formula, lang); *text) wrapped_text(text);
    hint_text(f.formula);
    for (const auto& [name, value] : f.operands)
        ImGui::BulletText("%s = %s", name, format_operand(name, value, lang).c_str());
    ImGui::Unindent();
}

}  // namespace

void draw_breakdown(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const engine::MemoryReport& m = r.estimate.report;
    const Part parts[] = {
        {r.estimate.prepared.input_encoder_bytes > 0 ? Str::PartWeightsEncoders : Str::PartWeights, &m.weights,
         IM_COL32(37, 99, 185, 255)},
        {Str::PartGradients, &m.gradients, IM_COL32(86, 145, 220, 255)},
        {r.estimate.prepared.ema_bytes > 0 ? Str::PartOptimizerEma : Str::PartOptimizer, &m.optimizer,
         IM_COL32(140, 110, 200, 255)},
        {Str::PartActivations, &m.activations, IM_COL32(230, 140, 40, 255)},
        {Str::PartTemporary, &m.temporary, IM_COL32(240, 190, 80, 255)},
        {Str::PartFramework, &m.framework, IM_COL32(140, 146, 156, 255)},
    };
    section_heading(app, tr(Str::BreakdownTitle, L));
    std::vector<BarSegment> segments;
    for (const Part& p : parts) segments.push_back({p.figure->bytes, p.color, tr(p.label, L)});
    const double scale = std::max(m.card_memory_bytes, m.nvidia_smi.bytes) * 1.02;
    const int hovered = stacked_bar("##membar", segments, scale, m.usable_bytes, IM_COL32(180, 30, 30, 255));
    if (hovered >= 0)
        ImGui::SetTooltip("%s: %s", segments[hovered].label, format_gib(segments[hovered].value, L).c_str());

    hint_text(tr(Str::ExplainTip, L));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("##breakdown", 2, flags)) {
        ImGui::TableSetupColumn(tr(Str::ColPart, L), ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn(tr(Str::ColBytes, L), ImGuiTableColumnFlags_WidthFixed, 6.5f * ImGui::GetFontSize());
        ImGui::TableHeadersRow();
        int index = 0;
        auto row = [&](Str label, const engine::Figure& f, ImU32 color, bool strong) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (color != 0) {
                const ImVec2 p = ImGui::GetCursorScreenPos();
                const float sz = 0.7f * ImGui::GetFontSize();
                ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + 0.2f * sz), ImVec2(p.x + sz, p.y + 1.2f * sz), color);
                ImGui::Dummy(ImVec2(sz, sz));
                ImGui::SameLine();
            }
            const bool open = app.explained_part == index;
            if (strong) ImGui::PushFont(app.fonts.body);
            if (ImGui::Selectable((std::string(tr(label, L)) + "##part" + std::to_string(index)).c_str(), open,
                                  ImGuiSelectableFlags_SpanAllColumns))
                app.explained_part = open ? -1 : index;
            if (strong) ImGui::PopFont();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(f.bytes, L).c_str());
            if (open) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                draw_figure_explanation(f, L);
                ImGui::TableNextColumn();
            }
            ++index;
        };
        for (const Part& p : parts) row(p.label, *p.figure, p.color, false);
        row(Str::PeakAllocated, m.peak_allocated, 0, true);
        row(Str::NvidiaSmi, m.nvidia_smi, 0, true);
        ImGui::EndTable();
        table_anchor(app, "breakdown-table", "##breakdown");
    }
    const Str phase = m.peak_phase == engine::PeakPhase::kForwardEnd ? Str::PhaseForwardEnd
                      : m.peak_phase == engine::PeakPhase::kBackward ? Str::PhaseBackward
                                                                     : Str::PhaseOptimizer;
    hint_text(tr(phase, L));
    double parts_sum = 0;
    for (const Part& p : parts)
        if (p.figure != &m.framework) parts_sum += p.figure->bytes;
    if (parts_sum > m.peak_allocated.bytes * 1.01) hint_text(tr(Str::PartsNotAtOnce, L));
    draw_data_parallel(app);
}

// ---- memory through one training step (issue 33) ------------------------------------------------------------
// The report's memory_timeline (engine::memory_timeline, computed with the estimate): one column per point of the
// step, evenly spaced, the bands stacked from the ones that stay all step (weights, optimizer states, workspaces) to
// the ones that come and go (gradients, activations, temporaries); the peak marked and the card's memory drawn.
namespace {

struct TimelineBand {
    const char* key;  // in the report's "bands"
    Str label;
    ImU32 color;      // the breakdown's colour of the same part
};

std::vector<TimelineBand> timeline_bands(const Results& r) {
    return {{"weights", r.estimate.prepared.input_encoder_bytes > 0 ? Str::PartWeightsEncoders : Str::PartWeights,
             IM_COL32(37, 99, 185, 255)},
            {"optimizer", r.estimate.prepared.ema_bytes > 0 ? Str::PartOptimizerEma : Str::PartOptimizer,
             IM_COL32(140, 110, 200, 255)},
            {"workspace", Str::TimelineWorkspace, IM_COL32(120, 150, 140, 255)},
            {"gradients", Str::PartGradients, IM_COL32(86, 145, 220, 255)},
            {"activations", Str::PartActivations, IM_COL32(230, 140, 40, 255)},
            {"temporary", Str::TimelineTemporary, IM_COL32(240, 190, 80, 255)}};
}

// A point's short name under the axis and its long name in the tooltip.
Str timeline_short(const std::string& point) {
    return point == "start" ? Str::TimelineStart : point == "forward_end" ? Str::TimelineForwardEnd
           : point == "loss_backward" ? Str::TimelineLoss : point == "backward" ? Str::TimelineBackward
           : point == "optimizer_step" ? Str::TimelineStep : Str::TimelineEval;
}
std::string timeline_long(const nlohmann::json& p, int segments, Lang L) {
    const std::string point = p.value("point", "");
    if (point == "backward") {
        char buf[160];
        std::snprintf(buf, sizeof buf, tr(Str::TimelineBackwardLong, L), p.value("segment", 0) + 1, segments);
        return buf;
    }
    return tr(point == "start" ? Str::TimelineStartLong : point == "forward_end" ? Str::TimelineForwardEndLong
              : point == "loss_backward" ? Str::TimelineLossLong : point == "optimizer_step" ? Str::TimelineStepLong
                                                                                           : Str::TimelineEvalLong,
              L);
}

std::string gib_tick(double gib) { return format_significant(gib, 3); }

// The x-axis units the backward pass's points share, however many segments it has (read_timeline).
constexpr double kTimelineBackwardUnits = 3.0;

// The timeline's numbers: the report's points, the bands' tops point by point (in GiB: the linear axis's 1-2-5
// steps are round GiB) and where each point sits on the x axis.
struct Timeline {
    const nlohmann::json* points = nullptr;
    std::vector<TimelineBand> bands;
    int n = 0;
    std::vector<std::vector<double>> tops;  // [band][point]
    int segments = 0;                       // the backward pass's points
    int peak = -1;
    double hi = 0;  // the highest top, or the card's memory
    double card_bytes = 0;
    std::vector<double> xs;
    bool has_eval = false;  // the last point is the evaluation pass, a column of its own
    int training = 0;       // the points of the step itself
    double bottom(std::size_t b, int i) const { return b == 0 ? 0.0 : tops[b - 1][i]; }
};

// False when the report has no timeline to draw.
bool read_timeline(const Results& r, Timeline& t) {
    if (!r.report.contains("memory_timeline") || !r.report["memory_timeline"].contains("points")) return false;
    const nlohmann::json& points = r.report["memory_timeline"]["points"];
    if (!points.is_array() || points.size() < 2) return false;
    t.points = &points;
    t.bands = timeline_bands(r);
    const int n = t.n = static_cast<int>(points.size());
    t.tops.assign(t.bands.size(), std::vector<double>(n, 0.0));
    for (int i = 0; i < n; ++i) {
        const nlohmann::json& p = points[i];
        double acc = 0;
        for (std::size_t b = 0; b < t.bands.size(); ++b) {
            acc += std::max(0.0, json_number(p.value("bands", nlohmann::json::object()), t.bands[b].key, 0)) /
                   engine::kBytesPerGiB;
            t.tops[b][i] = acc;
        }
        t.hi = std::max(t.hi, acc);
        if (p.value("point", "") == "backward") ++t.segments;
        if (p.value("peak", false)) t.peak = i;
    }
    t.card_bytes = r.estimate.report.card_memory_bytes;
    if (t.card_bytes > 0) t.hi = std::max(t.hi, t.card_bytes / engine::kBytesPerGiB);
    // Where each point sits on the x axis, in units: one per phase; the backward's points share three (a 32-layer
    // model's 33 points would otherwise squeeze the forward pass into a corner); the evaluation a little apart.
    t.xs.assign(n, 0.0);
    for (int i = 1; i < n; ++i) {
        const std::string point = points[i].value("point", "");
        t.xs[i] = t.xs[i - 1] + (point == "backward" ? kTimelineBackwardUnits / std::max(1, t.segments)
                                 : point == "evaluation" ? 1.5 : 1.0);
    }
    t.has_eval = points.back().value("point", "") == "evaluation";
    t.training = t.has_eval ? n - 1 : n;
    return true;
}

// A phase's name under the axis (one name for the backward's points).
struct PhaseLabel {
    const char* text;
    double at;
    bool second_line = false;
};

std::vector<PhaseLabel> phase_labels(const Timeline& t, Lang L) {
    std::vector<PhaseLabel> labels;
    int first_backward = -1, last_backward = -1, backward_label = -1;
    for (int i = 0; i < t.n; ++i) {
        const std::string point = (*t.points)[i].value("point", "");
        if (point != "backward") {
            labels.push_back({tr(timeline_short(point), L), t.xs[i]});
            continue;
        }
        if (first_backward < 0) {
            first_backward = i;
            backward_label = static_cast<int>(labels.size());
            labels.push_back({tr(Str::TimelineBackward, L), 0});
        }
        last_backward = i;
    }
    if (backward_label >= 0) labels[backward_label].at = (t.xs[first_backward] + t.xs[last_backward]) * 0.5;
    return labels;
}

// The phases' names go on a second line where they would run into each other (a phone); returns whether any does
// (then there is no room for the axis's title).
bool stagger_phase_labels(std::vector<PhaseLabel>& labels, const Chart& c, const Axis& x) {
    const float em = ImGui::GetFontSize();
    const auto plot_x = [&](double v) {
        return c.plot_min.x + static_cast<float>((v - x.min) / (x.max - x.min)) * (c.plot_max.x - c.plot_min.x);
    };
    bool staggered = false;
    float line_end[2] = {-1e9f, -1e9f};
    for (PhaseLabel& l : labels) {
        const float w = ImGui::CalcTextSize(l.text).x, left = plot_x(l.at) - w * 0.5f;
        l.second_line = left < line_end[0] + 0.4f * em && left >= line_end[1] + 0.4f * em;
        staggered |= l.second_line;
        line_end[l.second_line ? 1 : 0] = left + w;
    }
    return staggered;
}

float point_px(const Chart& c, const Timeline& t, int i) { return static_cast<float>(c.x.to_pixel(t.xs[i])); }
float gib_py(const Chart& c, double gib) { return static_cast<float>(c.y.to_pixel(gib)); }

// Each band between two neighbouring points is a quadrilateral (convex: both sides are vertical).
void draw_timeline_bands(const Chart& c, const Timeline& t) {
    auto px = [&](int i) { return point_px(c, t, i); };
    auto py = [&](double gib) { return gib_py(c, gib); };
    for (std::size_t b = 0; b < t.bands.size(); ++b) {
        for (int i = 0; i + 1 < t.training; ++i)
            c.draw->AddQuadFilled(ImVec2(px(i), py(t.bottom(b, i))), ImVec2(px(i), py(t.tops[b][i])),
                                  ImVec2(px(i + 1), py(t.tops[b][i + 1])), ImVec2(px(i + 1), py(t.bottom(b, i + 1))),
                                  t.bands[b].color);
        if (t.has_eval) {  // the evaluation pass is not part of the step: a column of its own
            const int i = t.n - 1;
            const float w = 0.3f * static_cast<float>(c.x.to_pixel(1) - c.x.to_pixel(0));
            c.draw->AddRectFilled(ImVec2(px(i) - w, py(t.tops[b][i])), ImVec2(px(i) + w, py(t.bottom(b, i))),
                                  t.bands[b].color);
        }
    }
}

// Each band's name inside it, where the band is tall enough under the whole name; nowhere when it is not.
void draw_band_labels(const Chart& c, const Timeline& t, Lang L) {
    const float em = ImGui::GetFontSize();
    auto px = [&](int i) { return point_px(c, t, i); };
    auto py = [&](double gib) { return gib_py(c, gib); };
    for (std::size_t b = 0; b < t.bands.size(); ++b) {
        const char* label = tr(t.bands[b].label, L);
        const ImVec2 ts = ImGui::CalcTextSize(label);
        // The band's top and bottom (pixels) at a pixel x, linear between the points.
        auto edges_at = [&](float x_px, float& top_px, float& bottom_px) {
            int j = 0;
            while (j + 2 < t.training && px(j + 1) < x_px) ++j;
            const float span = px(j + 1) - px(j);
            const float f = span > 0 ? std::clamp((x_px - px(j)) / span, 0.0f, 1.0f) : 0.0f;
            top_px = py(t.tops[b][j] + f * (t.tops[b][j + 1] - t.tops[b][j]));
            bottom_px = py(t.bottom(b, j) + f * (t.bottom(b, j + 1) - t.bottom(b, j)));
        };
        float best_room = 0, best_x = 0, best_y = 0;
        for (int i = 0; i < t.training; ++i) {
            const float lx = std::clamp(px(i) - ts.x * 0.5f, c.plot_min.x + 0.2f * em, c.plot_max.x - ts.x - 0.2f * em);
            float highest_top = -1e9f, lowest_bottom = 1e9f;
            for (float sx = lx; sx <= lx + ts.x + 0.5f; sx += std::max(1.0f, 0.25f * em)) {
                float top, bottom;
                edges_at(std::min(sx, lx + ts.x), top, bottom);
                highest_top = std::max(highest_top, top);
                lowest_bottom = std::min(lowest_bottom, bottom);
            }
            const float room = lowest_bottom - highest_top;
            if (room > best_room) best_room = room, best_x = lx, best_y = (highest_top + lowest_bottom - ts.y) * 0.5f;
        }
        if (best_room >= ts.y + 0.2f * em) c.draw->AddText(ImVec2(best_x, best_y), IM_COL32(255, 255, 255, 235), label);
    }
}

// The phases under the axis, with a grid line at each (the backward's points are its run of columns).
void draw_phases(const Chart& c, const Timeline& t, const std::vector<PhaseLabel>& labels) {
    const float em = ImGui::GetFontSize();
    const ImU32 text = ImGui::GetColorU32(ImGuiCol_TextDisabled);
    const ImU32 grid = ImGui::GetColorU32(ImGuiCol_Border);
    for (int i = 0; i < t.n; ++i)
        if ((*t.points)[i].value("point", "") != "backward")
            c.draw->AddLine(ImVec2(point_px(c, t, i), c.plot_min.y), ImVec2(point_px(c, t, i), c.plot_max.y), grid);
    for (const PhaseLabel& l : labels) {
        const ImVec2 ts = ImGui::CalcTextSize(l.text);
        const float lx = std::clamp(static_cast<float>(c.x.to_pixel(l.at)) - ts.x * 0.5f, c.frame_min.x, c.frame_max.x - ts.x);
        c.draw->AddText(ImVec2(lx, c.plot_max.y + (l.second_line ? 1.3f : 0.2f) * em), text, l.text);
    }
}

// The card's memory and the peak (a marker with its figure; its anchor for the tests).
void draw_card_and_peak(AppState& app, Chart& c, const Timeline& t) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    if (t.card_bytes > 0) {
        const std::string label = std::string(tr(Str::TimelineCard, L)) + " " + format_gib(t.card_bytes, L);
        chart_hline(c, t.card_bytes / engine::kBytesPerGiB, IM_COL32(180, 30, 30, 255), label.c_str());
    }
    if (t.peak < 0) return;
    const ImVec2 top(point_px(c, t, t.peak), gib_py(c, t.tops.back()[t.peak]));
    const ImU32 mark = IM_COL32(30, 30, 30, 255);
    c.draw->AddTriangleFilled(ImVec2(top.x - 0.35f * em, top.y - 0.6f * em), ImVec2(top.x + 0.35f * em, top.y - 0.6f * em),
                              top, mark);
    const std::string label = std::string(tr(Str::TimelinePeak, L)) + " " +
                              format_gib(json_number((*t.points)[t.peak], "allocated_bytes", 0), L);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    const float lx = std::clamp(top.x - ts.x * 0.5f, c.plot_min.x + 0.2f * em, c.plot_max.x - ts.x - 0.2f * em);
    const float ly = std::max(c.plot_min.y + 0.1f * em, top.y - 0.7f * em - ts.y);
    c.draw->AddText(ImVec2(lx, ly), mark, label.c_str());
    const float dpi = app.dpi_scale > 0 ? app.dpi_scale : 1.0f;
    AppState::Anchor& a = app.anchors["timeline-peak"];
    a = {(top.x - 0.35f * em) / dpi, (top.y - 0.6f * em) / dpi, 0.7f * em / dpi, 0.6f * em / dpi, true, app.frame_count};
}

// Hover: the nearest point's name, each band and the total.
void timeline_tooltip(const Chart& c, const Timeline& t, Lang L) {
    const float em = ImGui::GetFontSize();
    int i = 0;  // the point nearest the pointer
    for (int j = 1; j < t.n; ++j)
        if (std::fabs(point_px(c, t, j) - c.mouse.x) < std::fabs(point_px(c, t, i) - c.mouse.x)) i = j;
    c.draw->AddLine(ImVec2(point_px(c, t, i), c.plot_min.y), ImVec2(point_px(c, t, i), c.plot_max.y),
                    IM_COL32(30, 30, 30, 120), 0.08f * em);
    const nlohmann::json& p = (*t.points)[i];
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap(24.0f));
    ImGui::TextUnformatted(timeline_long(p, t.segments, L).c_str());
    for (std::size_t b = t.bands.size(); b-- > 0;) {
        const double bytes = json_number(p.value("bands", nlohmann::json::object()), t.bands[b].key, 0);
        if (!(bytes > 0)) continue;
        const ImVec2 q = ImGui::GetCursorScreenPos();
        ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(q.x, q.y + 0.2f * em), ImVec2(q.x + 0.7f * em, q.y + 0.9f * em),
                                                  t.bands[b].color);
        ImGui::Dummy(ImVec2(0.7f * em, em));
        ImGui::SameLine();
        ImGui::Text("%s: %s", tr(t.bands[b].label, L), format_gib(bytes, L).c_str());
    }
    ImGui::Text("%s: %s%s", tr(Str::TimelineAllocated, L), format_gib(json_number(p, "allocated_bytes", 0), L).c_str(),
                i == t.peak ? (std::string(" (") + tr(Str::TimelinePeak, L) + ")").c_str() : "");
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// Legend: every band the step holds, in the stacking order (top first, as drawn).
void timeline_legend(const Timeline& t, Lang L) {
    bool line_start = true;
    for (std::size_t b = t.bands.size(); b-- > 0;) {
        if (t.tops[b] == (b == 0 ? std::vector<double>(t.n, 0.0) : t.tops[b - 1])) continue;  // empty all step
        legend_item(tr(t.bands[b].label, L), t.bands[b].color, Swatch::kSquare, line_start);
    }
}

}  // namespace

void draw_memory_timeline(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    Timeline t;
    if (!read_timeline(r, t)) return;
    section_heading(app, tr(Str::TimelineTitle, L));
    const float em = ImGui::GetFontSize();
    Chart c;
    c.format_y = gib_tick;
    c.x_ticks = false;  // the x axis is the step's phases, named under it below
    if (!begin_chart(c, "##timeline", ImVec2(-1, 16.0f * em))) return;
    test_anchor(app, "memory-timeline");
    Axis x;
    x.min = -0.5;
    x.max = t.xs.back() + 0.5;
    std::vector<PhaseLabel> labels = phase_labels(t, L);
    const bool staggered = stagger_phase_labels(labels, c, x);
    setup_axes(c, x, make_linear_axis(0, t.hi * 1.08, 5), staggered ? "" : tr(Str::TimelineAxis, L), tr(Str::AxisGiB, L));
    draw_timeline_bands(c, t);
    draw_band_labels(c, t, L);
    draw_phases(c, t, labels);
    draw_card_and_peak(app, c, t);
    if (c.hovered) timeline_tooltip(c, t, L);
    end_chart(c);
    timeline_legend(t, L);
    hint_textf(tr(Str::TimelineHint, L), format_gib(r.estimate.report.nvidia_smi.bytes, L).c_str());
    if (t.has_eval) hint_text(tr(Str::TimelineEvalHint, L));
}

void draw_per_card(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Catalog& cat = app.catalog();
    section_heading(app, tr(Str::PerCardTitle, L));
    const float em = ImGui::GetFontSize();
    // On a phone the card names keep their width and the table scrolls sideways (squeezed, they were cut).
    const bool narrow = ImGui::GetContentRegionAvail().x < 30.0f * em;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  (narrow ? ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit
                                          : ImGuiTableFlags_SizingStretchProp);
    const float height = std::min(20.0f, 1.6f * static_cast<float>(r.cards.size()) + 2.0f) * em;
    if (ImGui::BeginTable("##percard", 4, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(1, 1);  // the header row, and on a phone the card's name while it scrolls
        ImGui::TableSetupColumn(tr(Str::ColGpu, L), narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch);
        // Fixed widths that hold the names and numbers; on a phone fitted to them (0).
        ImGui::TableSetupColumn(tr(Str::ColMemory, L), ImGuiTableColumnFlags_WidthFixed, narrow ? 0.0f : 5.5f * em);
        ImGui::TableSetupColumn(tr(Str::ColFits, L), ImGuiTableColumnFlags_WidthFixed, narrow ? 0.0f : 4.5f * em);
        ImGui::TableSetupColumn(tr(Str::ColMaxBatch, L), ImGuiTableColumnFlags_WidthFixed, narrow ? 0.0f : 6.0f * em);
        ImGui::TableHeadersRow();
        // Smallest card first: the first "yes" is the cheapest kind of card that runs the job.
        std::vector<const CardFit*> order;
        for (const CardFit& c : r.cards) order.push_back(&c);
        std::stable_sort(order.begin(), order.end(), [&](const CardFit* a, const CardFit* b) {
            return cat.gpus[a->gpu_index].memory_bytes < cat.gpus[b->gpu_index].memory_bytes;
        });
        for (const CardFit* c : order) {
            const engine::GpuSpec& g = cat.gpus[c->gpu_index];
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (ImGui::Selectable(((narrow ? without_brand(g.name) : g.name) + "##card" + g.id).c_str(), g.id == app.scenario.gpu_id,
                                  ImGuiSelectableFlags_SpanAllColumns)) {
                select_gpu(app.scenario, g.id);
                app.scenario_dirty = true;
            }
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(g.memory_bytes, L).c_str());
            ImGui::TableNextColumn();
            const engine::Verdict v = c->verdict;  // the engine's three steps
            ImGui::TextColored(v == engine::Verdict::kTight ? kTightColor : verdict_color(v == engine::Verdict::kFits),
                               "%s", tr(v == engine::Verdict::kFits    ? Str::Yes
                                        : v == engine::Verdict::kTight ? Str::TightShort
                                                                       : Str::No,
                                        L));
            ImGui::TableNextColumn();
            if (c->max_batch_size > 0) ImGui::Text("%d", c->max_batch_size);
            else ImGui::TextDisabled("-");
        }
        ImGui::EndTable();
        table_anchor(app, "percard-table", "##percard");
    }
}

}  // namespace gg::ui
