// The Accuracy tab (every validation case: measured vs predicted, from the same data the tests use) and the
// GPUs-and-prices tab (the catalog with the source of every record).
#include <algorithm>
#include <cmath>
#include <string>

#include "catalog/catalog.h"
#include "catalog/fit.h"
#include "catalog/report.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"
#include "ui/app.h"
#include "ui/chart.h"
#include "ui/export.h"
#include "ui/format.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

// A validation quantity's name for readers; the id itself (the data's key) for one without a name.
const char* quantity_label(const std::string& quantity, Lang lang) {
    static const std::pair<const char*, Str> kNames[] = {
        {"samples_per_s", Str::QSamplesPerS}, {"tokens_per_s", Str::QTokensPerS},
        {"saved_activations_bytes", Str::QSavedActivations}, {"params_total", Str::QParamsTotal},
        {"params_trainable", Str::QParamsTrainable}, {"param_tensors", Str::QParamTensors},
        {"param_matrices", Str::QParamMatrices}, {"total_s", Str::QTotalTime}, {"step_s", Str::QStepTime},
        {"nvidia_smi_bytes", Str::QNvidiaSmi}, {"scaling_efficiency_fraction", Str::QScalingEfficiency},
        {"speedup_ratio", Str::QSpeedup}, {"model_states_bytes", Str::QModelStates}, {"gpu_hours", Str::QGpuHours},
        {"mfu_fraction", Str::QMfu}, {"peak_allocated_bytes", Str::QPeakAllocated},
        {"peak_reserved_bytes", Str::QPeakReserved}, {"weights_bytes", Str::QWeights},
        {"max_seq_len", Str::QMaxSeqLen}};
    for (const auto& [id, label] : kNames)
        if (quantity == id) return tr(label, lang);
    return quantity.c_str();
}

std::string quantity_value(const std::string& quantity, double v, Lang lang) {
    if (quantity.size() > 6 && quantity.compare(quantity.size() - 6, 6, "_bytes") == 0) return format_gib(v, lang);
    if (quantity == "step_s" || quantity == "total_s") return format_duration(v, lang);
    if (quantity.find("fraction") != std::string::npos) return format_percent(v);
    if (quantity.rfind("params", 0) == 0) return format_count(v, lang);
    return format_significant(v, 4);
}

// The record's source as the data file quotes it (mostly English: titles, table names, verbatim rows), under a
// heading in the page's language, and the date it was checked.
void source_tooltip(const std::string& source, const std::string& as_of, Lang lang) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap(30.0f));
    ImGui::TextDisabled("%s", tr(Str::SourceHeading, lang));
    ImGui::TextUnformatted(source.c_str());
    if (!as_of.empty()) ImGui::TextDisabled(tr(Str::SourceAsOf, lang), as_of.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// ---- the Accuracy tab's chart and filters (issue 33) --------------------------------------------------------------
// Family groups: the model list's groups (the names a reader picked their model under), each with its chart colour.
struct FamilyGroup {
    Str label;
    std::initializer_list<const char*> families;  // engine::family_name values
    ImU32 color;
};
const FamilyGroup kFamilyGroups[] = {
    {Str::FamilyDecoder, {"decoder"}, IM_COL32(37, 99, 185, 255)},
    {Str::FamilyEncoder, {"encoder"}, IM_COL32(214, 110, 20, 255)},
    {Str::FamilyCnn, {"resnet", "vgg", "mobilenet", "efficientnet"}, IM_COL32(46, 140, 60, 255)},
    {Str::FamilyVit, {"vit"}, IM_COL32(150, 70, 170, 255)},
    {Str::FamilyDetection, {"yolo", "unet"}, IM_COL32(140, 90, 50, 255)},
    {Str::FamilyDiffusion, {"diffusion-unet"}, IM_COL32(210, 60, 130, 255)},
    {Str::FamilyRnn, {"bilstm-crf"}, IM_COL32(90, 90, 90, 255)},
};
constexpr int kFamilyGroupCount = int(sizeof kFamilyGroups / sizeof kFamilyGroups[0]);

int family_group(const std::string& family) {
    for (int g = 0; g < kFamilyGroupCount; ++g)
        for (const char* f : kFamilyGroups[g].families)
            if (family == f) return g;
    return -1;
}

// Kinds of figure: what a reader asks "how good is it at ...".
struct FigureKind {
    Str label;
    std::initializer_list<const char*> quantities;
};
const FigureKind kFigureKinds[] = {
    {Str::KindPeakMemory, {"peak_allocated_bytes", "nvidia_smi_bytes", "peak_reserved_bytes"}},
    {Str::KindModelStates, {"weights_bytes", "optimizer_bytes", "model_states_bytes"}},
    {Str::KindActivations, {"saved_activations_bytes"}},
    {Str::KindParams, {"params_total", "params_trainable", "param_tensors", "param_matrices"}},
    {Str::KindMaxLength, {"max_seq_len"}},
    {Str::KindThroughput, {"samples_per_s", "tokens_per_s"}},
    {Str::KindDuration, {"step_s", "total_s", "gpu_hours"}},
    {Str::KindScaling, {"scaling_efficiency_fraction", "speedup_ratio"}},
    {Str::KindMfu, {"mfu_fraction"}},
};
constexpr int kFigureKindCount = int(sizeof kFigureKinds / sizeof kFigureKinds[0]);

int figure_kind(const std::string& quantity) {
    for (int k = 0; k < kFigureKindCount; ++k)
        for (const char* q : kFigureKinds[k].quantities)
            if (quantity == q) return k;
    return -1;
}

bool row_passes_filters(const AppState& app, const catalog::ValidationRow& r) {
    if (app.validation_family >= 0 && family_group(r.family) != app.validation_family) return false;
    if (app.validation_kind >= 0 && figure_kind(r.quantity) != app.validation_kind) return false;
    if (!app.validation_gpu.empty() && r.gpu_id != app.validation_gpu) return false;
    return true;
}

// A combo over "All" and `count` labelled entries; `value` -1 = all.
void filter_combo(const char* id, int& value, int count, const char* (*label)(int, Lang), Lang lang) {
    if (ImGui::BeginCombo(id, value < 0 ? tr(Str::FilterAll, lang) : label(value, lang))) {
        if (ImGui::Selectable(tr(Str::FilterAll, lang), value < 0)) value = -1;
        for (int i = 0; i < count; ++i)
            if (ImGui::Selectable((std::string(label(i, lang)) + "##" + std::to_string(i)).c_str(), value == i)) value = i;
        ImGui::EndCombo();
    }
}

// One filter: its label above its combo, in a column of the filter row (three side by side, or stacked on a phone).
void filter_label(const char* text, bool stacked, int column, float width) {
    if (!stacked && column > 0) ImGui::SameLine();
    ImGui::BeginGroup();
    ImGui::TextDisabled("%s", text);
    ImGui::SetNextItemWidth(width);
}

void draw_filters(AppState& app) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    const bool stacked = avail < 40 * em;
    const float width = stacked ? avail : std::min(16 * em, (avail - 2 * ImGui::GetStyle().ItemSpacing.x) / 3);
    filter_label(tr(Str::FilterFamily, L), stacked, 0, width);
    filter_combo("##accuracy_family", app.validation_family, kFamilyGroupCount,
                 [](int i, Lang lang) { return tr(kFamilyGroups[i].label, lang); }, L);
    ImGui::EndGroup();
    filter_label(tr(Str::FilterCard, L), stacked, 1, width);
    // The cards the cases ran on, in catalog order (names as the catalog gives them).
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* shown = app.validation_gpu.empty() ? nullptr : cat.find_gpu(app.validation_gpu);
    if (ImGui::BeginCombo("##accuracy_card", app.validation_gpu.empty() ? tr(Str::FilterAll, L)
                                             : shown ? shown->name.c_str() : app.validation_gpu.c_str())) {
        if (ImGui::Selectable(tr(Str::FilterAll, L), app.validation_gpu.empty())) app.validation_gpu.clear();
        for (const engine::GpuSpec& g : cat.gpus) {
            const bool used = std::any_of(app.validation_rows.begin(), app.validation_rows.end(),
                                          [&](const catalog::ValidationRow& r) { return r.gpu_id == g.id; });
            if (used && ImGui::Selectable((g.name + "##" + g.id).c_str(), app.validation_gpu == g.id)) app.validation_gpu = g.id;
        }
        ImGui::EndCombo();
    }
    ImGui::EndGroup();
    filter_label(tr(Str::FilterKind, L), stacked, 2, width);
    filter_combo("##accuracy_kind", app.validation_kind, kFigureKindCount,
                 [](int i, Lang lang) { return tr(kFigureKinds[i].label, lang); }, L);
    ImGui::EndGroup();
}

// The most common tolerance among the drawn cases (the band), in whole percent.
int common_tolerance_percent(const std::vector<const catalog::ValidationRow*>& rows) {
    int counts[101] = {};
    for (const auto* r : rows) {
        const int t = int(std::lround(r->tolerance_fraction * 100));
        if (t > 0 && t <= 100) ++counts[t];
    }
    int best = 0;
    for (int t = 1; t <= 100; ++t)
        if (counts[t] > counts[best]) best = t;
    return best;
}

// Tick labels short enough for the axis, with the unit of the kind of figure picked: SI prefixes for counts and
// rates ("10k", "1.5G/s"), GiB for bytes, seconds for durations, percent for fractions (with every kind, only
// numbers: the axes then mix units).
std::string tick_si(double v) {
    static const char* kPrefixes[] = {"", "k", "M", "G", "T", "P"};
    int p = 0;
    while (std::fabs(v) >= 1000 && p < 5) {
        v /= 1000;
        ++p;
    }
    return format_significant(v, 3) + kPrefixes[p];
}
std::string tick_gib(double gib) { return format_significant(gib, 3) + " GiB"; }  // bytes are plotted in GiB
std::string tick_seconds(double s) { return tick_si(s) + " s"; }  // GPU-hours are plotted in GPU-seconds
std::string tick_per_s(double v) { return tick_si(v) + "/s"; }
std::string tick_percent(double f) { return format_significant(f * 100, 3) + "%"; }

// The tick format of a kind of figure (-1 = all kinds: plain numbers).
std::string (*tick_format(int kind))(double) {
    if (kind < 0) return tick_si;
    const std::string q = *kFigureKinds[kind].quantities.begin();
    if (q.size() > 6 && q.compare(q.size() - 6, 6, "_bytes") == 0) return tick_gib;
    if (q == "step_s") return tick_seconds;
    if (q == "samples_per_s") return tick_per_s;
    if (q == "mfu_fraction") return tick_percent;
    return tick_si;
}

// What a row's figures are multiplied by on the chart, so that one kind of figure has one unit: bytes in GiB (round
// GiB ticks), GPU-hours in GPU-seconds (beside step and total seconds).
double plotted_unit(const catalog::ValidationRow& r) {
    const std::string& q = r.quantity;
    if (q.size() > 6 && q.compare(q.size() - 6, 6, "_bytes") == 0) return 1.0 / engine::kBytesPerGiB;
    if (q == "gpu_hours") return 3600.0;
    return 1.0;
}

// Predicted against measured on log scales, one series per family group; a click opens the case.
void draw_accuracy_chart(AppState& app, const std::vector<std::size_t>& shown) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    // Bytes are plotted in GiB, so the log axis ticks at round GiB (1, 2, 5, 10, ...); see plotted_unit.
    std::vector<const catalog::ValidationRow*> drawn;
    double lo = 0, hi = 0;
    for (std::size_t i : shown) {
        const catalog::ValidationRow& r = app.validation_rows[i];
        if (!r.ran || !(r.measured > 0) || !(r.predicted > 0) || !std::isfinite(r.predicted)) continue;
        drawn.push_back(&r);
        const double unit = app.validation_kind >= 0 ? plotted_unit(r) : 1.0;
        const double a = std::min(r.measured, r.predicted) * unit, b = std::max(r.measured, r.predicted) * unit;
        lo = lo > 0 ? std::min(lo, a) : a;
        hi = std::max(hi, b);
    }
    wrapped_textf(tr(Str::AccuracyShown, L), int(shown.size()), int(app.validation_rows.size()), int(drawn.size()));
    if (drawn.empty()) return;
    const float width = std::min(ImGui::GetContentRegionAvail().x, 44 * em);
    Chart c;
    c.format_x = c.format_y = tick_format(app.validation_kind);
    if (!begin_chart(c, "##accuracy_chart", ImVec2(width, std::min(width * 0.75f, 24 * em)))) return;
    const Axis axis = make_log_axis(lo / 1.3, hi * 1.3);
    setup_axes(c, axis, axis, tr(Str::AccuracyAxisMeasured, L), tr(Str::AccuracyAxisPredicted, L));
    // The band and the diagonal, sampled along the axis (straight on log scales).
    const int tol = common_tolerance_percent(drawn);
    const std::vector<double> diag{axis.min, axis.max};
    if (tol > 0) {
        const float f = tol / 100.0f;
        const ImVec2 a0(float(c.x.to_pixel(axis.min)), float(c.y.to_pixel(axis.min * (1 + f))));
        const ImVec2 a1(float(c.x.to_pixel(axis.max)), float(c.y.to_pixel(axis.max * (1 + f))));
        const ImVec2 b1(float(c.x.to_pixel(axis.max)), float(c.y.to_pixel(axis.max * (1 - f))));
        const ImVec2 b0(float(c.x.to_pixel(axis.min)), float(c.y.to_pixel(axis.min * (1 - f))));
        c.draw->AddQuadFilled(a0, a1, b1, b0, IM_COL32(46, 140, 60, 40));
    }
    chart_line(c, diag, diag, IM_COL32(60, 60, 60, 160), 0.08f);
    // One series per family group (and one for cases without a family: not run through a family).
    std::vector<std::vector<const catalog::ValidationRow*>> series(kFamilyGroupCount + 1);
    for (const auto* r : drawn) {
        const int g = family_group(r->family);
        series[std::size_t(g < 0 ? kFamilyGroupCount : g)].push_back(r);
    }
    const catalog::ValidationRow* first = nullptr;
    for (std::size_t g = 0; g < series.size(); ++g) {
        std::vector<double> xs, ys;
        std::vector<bool> filled;
        for (const auto* r : series[g]) {
            const double unit = app.validation_kind >= 0 ? plotted_unit(*r) : 1.0;
            xs.push_back(r->measured * unit);
            ys.push_back(r->predicted * unit);
            filled.push_back(r->pass);
        }
        const ImU32 color = g < std::size_t(kFamilyGroupCount) ? kFamilyGroups[g].color : IM_COL32(120, 120, 120, 255);
        chart_scatter(c, int(g), xs, ys, color, 0.26f, &filled);
        if (first == nullptr && !series[g].empty()) first = series[g].front();
    }
    if (tol > 0) {
        char band[48];
        std::snprintf(band, sizeof band, tr(Str::AccuracyBand, L), tol);
        const ImVec2 ts = ImGui::CalcTextSize(band);
        c.draw->AddText(ImVec2(c.plot_max.x - ts.x - 0.3f * em, c.plot_max.y - ts.y - 0.2f * em),
                        ImGui::GetColorU32(ImGuiCol_TextDisabled), band);
    }
    end_chart(c);
    // The first point drawn, for the browser tests (they click it and expect its case in the calculator).
    if (first != nullptr) {
        const float r = 0.5f * em, dpi = app.dpi_scale > 0 ? app.dpi_scale : 1.0f;
        const double unit = app.validation_kind >= 0 ? plotted_unit(*first) : 1.0;
        const float px = float(c.x.to_pixel(first->measured * unit)), py = float(c.y.to_pixel(first->predicted * unit));
        AppState::Anchor& a = app.anchors["accuracy_point"];
        a = {(px - r) / dpi, (py - r) / dpi, 2 * r / dpi, 2 * r / dpi, true, app.frame_count};
    }
    if (c.hovered_series >= 0) {
        const catalog::ValidationRow& r = *series[std::size_t(c.hovered_series)][std::size_t(c.hovered_index)];
        ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(tooltip_wrap(26.0f));
        ImGui::TextUnformatted(r.id.c_str());
        ImGui::TextDisabled("%s", quantity_label(r.quantity, L));
        ImGui::Text("%s %s · %s %s", tr(Str::ColMeasured, L), quantity_value(r.quantity, r.measured, L).c_str(),
                    tr(Str::ColPredicted, L), quantity_value(r.quantity, r.predicted, L).c_str());
        const std::string e = (r.error_fraction >= 0 ? "+" : "") + format_percent(r.error_fraction);
        ImGui::TextColored(verdict_color(r.pass), "%s", e.c_str());
        ImGui::TextDisabled("%s", tr(Str::AccuracyPointTip, L));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
        if (ImGui::IsMouseClicked(0)) app_open_validation_case(app, std::size_t(&r - app.validation_rows.data()));
    }
    // Legend: the family groups drawn, each with its colour.
    bool line_start = true;
    for (int g = 0; g < kFamilyGroupCount; ++g)
        if (!series[std::size_t(g)].empty())
            legend_item(tr(kFamilyGroups[g].label, L), kFamilyGroups[g].color, Swatch::kDot, line_start);
}

// The stacks' published cases (tests/validation/stack_memory.json), one header per stack (issue 29).
void draw_stack_cases(AppState& app) {
    const Lang L = app.lang;
    std::vector<std::string> stacks;
    for (const auto& r : app.validation_rows)
        if (r.file == "tests/validation/stack_memory.json" && !r.stack.empty() &&
            std::find(stacks.begin(), stacks.end(), r.stack) == stacks.end())
            stacks.push_back(r.stack);
    if (stacks.empty()) return;
    section_heading(app, tr(Str::StacksTitle, L));
    hint_text(tr(Str::StacksHint, L));
    const float em = ImGui::GetFontSize();
    for (const std::string& stack : stacks) {
        if (!wrapped_collapsing_header(stable_label(stack.c_str(), ("stack_" + stack).c_str()).c_str(), true)) continue;
        const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollX |
                                      ImGuiTableFlags_SizingFixedFit;
        if (!ImGui::BeginTable(("##stack_" + stack).c_str(), 4, flags)) continue;
        ImGui::TableSetupColumn(tr(Str::ColCase, L), ImGuiTableColumnFlags_WidthFixed, 17 * em);
        ImGui::TableSetupColumn(tr(Str::ColMeasured, L), ImGuiTableColumnFlags_WidthFixed, 6.5f * em);
        ImGui::TableSetupColumn(tr(Str::ColPredicted, L), ImGuiTableColumnFlags_WidthFixed, 6.5f * em);
        ImGui::TableSetupColumn(tr(Str::ColError, L), ImGuiTableColumnFlags_WidthFixed, 5 * em);
        ImGui::TableHeadersRow();
        for (std::size_t i = 0; i < app.validation_rows.size(); ++i) {
            const catalog::ValidationRow& r = app.validation_rows[i];
            if (r.file != "tests/validation/stack_memory.json" || r.stack != stack) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            // The case's id opens it in the calculator.
            if (ImGui::Selectable((r.id + "##stackcase").c_str())) app_open_validation_case(app, i);
            source_tooltip(quantity_label(r.quantity, L) + std::string("\n") + tr(Str::AccuracyPointTip, L), "", L);
            ImGui::TableNextColumn();
            text_right(quantity_value(r.quantity, r.measured, L));
            ImGui::TableNextColumn();
            if (r.ran) text_right(quantity_value(r.quantity, r.predicted, L));
            else ImGui::TextDisabled("%s", tr(Str::NotRun, L));
            ImGui::TableNextColumn();
            if (r.ran) {
                const std::string e = (r.error_fraction >= 0 ? "+" : "") + format_percent(r.error_fraction);
                ImGui::TextColored(verdict_color(r.pass), "%s", e.c_str());
            }
        }
        ImGui::EndTable();
    }
}

std::string tflops(double flop_per_s) {
    return flop_per_s > 0 ? format_significant(flop_per_s / 1e12, 3) : std::string("-");
}

}  // namespace

bool app_open_validation_case(AppState& app, std::size_t index) {
    if (index >= app.validation_rows.size()) return false;
    const catalog::ValidationRow& r = app.validation_rows[index];
    if (r.scenario_json.empty() || !app_load_scenario(app, r.scenario_json).empty()) return false;
    app.tab = Tab::Calculator;
    app.tab_requested = true;
    app.narrow_show_answer = true;  // on a phone: the answer, which the case is about
    app.notice = Str::AccuracyCaseOpened;
    char line[512];
    std::snprintf(line, sizeof line, tr(Str::AccuracyCaseLine, app.lang), r.id.c_str(), quantity_label(r.quantity, app.lang),
                  quantity_value(r.quantity, r.measured, app.lang).c_str(),
                  r.ran ? quantity_value(r.quantity, r.predicted, app.lang).c_str() : tr(Str::NotRun, app.lang));
    app.notice_details = {line};
    return true;
}

// The time engine's error by card class and by model family (issue 41; docs/time-model.md sec. 7): the held-out
// throughput rows of the suite above, grouped by catalog::time_error_table. Family rows show the engine's family id.
Str card_class_label(const std::string& name) {
    if (name == "geforce") return Str::ClassGeforce;
    if (name == "workstation") return Str::ClassWorkstation;
    if (name == "dc-power-capped") return Str::ClassDcPowerCapped;
    if (name == "dc-full-power") return Str::ClassDcFullPower;
    return Str::ClassOther;
}

void draw_error_table(AppState& app) {
    const Lang L = app.lang;
    const catalog::ErrorTable& t = app.validation_error_table;
    if (t.all.cases == 0) return;
    section_heading(app, tr(Str::ErrorTableTitle, L));
    hint_text(tr(Str::ErrorTableHint, L));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollX |
                                  ImGuiTableFlags_SizingFixedFit;
    const int rows = 1 + int(t.by_class.size() + t.by_family.size());
    if (!ImGui::BeginTable("##error_table", 5, flags, ImVec2(0, (rows + 1.6f) * ImGui::GetFrameHeightWithSpacing())))
        return;
    ImGui::TableSetupScrollFreeze(1, 1);
    // Each column as wide as its longest text (header or cell), so nothing is cut in either language.
    for (Str c : {Str::ColGroup, Str::ColCases, Str::ColWithin25, Str::ColMedianError, Str::ColRmsLogError})
        ImGui::TableSetupColumn(tr(c, L), ImGuiTableColumnFlags_WidthFixed, 0.0f);
    ImGui::TableHeadersRow();
    auto row = [&](const char* label, const catalog::ErrorGroup& g) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(label);
        ImGui::TableNextColumn();
        ImGui::Text("%d", g.cases);
        ImGui::TableNextColumn();
        ImGui::Text("%d", g.within_25);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_percent(g.median_abs_error).c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", g.rms_log_error);
    };
    row(tr(Str::ClassAll, L), t.all);
    for (const catalog::ErrorGroup& g : t.by_class) row(tr(card_class_label(g.name), L), g);
    for (const catalog::ErrorGroup& g : t.by_family) row(g.name.c_str(), g);
    ImGui::EndTable();
    table_anchor(app, "error-table", "##error_table");
}

void draw_validation(AppState& app) {
    const Lang L = app.lang;
    if (!app.validation_computed) {  // the whole suite runs once, on first view (a few ms)
        app.validation_rows = catalog::run_memory_validation();
        const auto time_rows = catalog::run_time_validation();
        app.validation_rows.insert(app.validation_rows.end(), time_rows.begin(), time_rows.end());
        std::vector<std::string> fitted;  // the cases a fitted number was fitted to are not held out
        for (const catalog::FitSpec& f : catalog::fit_specs(catalog::embedded_time_data()))
            fitted.insert(fitted.end(), f.case_ids.begin(), f.case_ids.end());
        app.validation_error_table = catalog::time_error_table(time_rows, app.catalog(), fitted);
        app.validation_computed = true;
    }
    hint_text(tr(Str::ValidationIntro, L));
    int pass = 0, fail = 0, not_run = 0;
    for (const auto& r : app.validation_rows) (r.ran && r.bound != "informative" ? (r.pass ? pass : fail) : not_run)++;
    wrapped_textf(tr(Str::ValidationSummary, L), static_cast<int>(app.validation_rows.size()), pass, fail, not_run);
    int ranged = 0, in_range = 0;
    for (const auto& r : app.validation_rows) {
        if (!r.ran || r.predicted_high <= 0 || r.bound == "informative") continue;
        ++ranged;
        in_range += r.measured_in_range();
    }
    if (ranged > 0) wrapped_textf(tr(Str::ValidationRangeSummary, L), in_range, ranged);
    const catalog::TimeTargets targets = catalog::time_targets(app.validation_rows);
    if (targets.throughput > 0)
        wrapped_textf(tr(Str::ValidationTargets, L), targets.throughput_within, targets.throughput, targets.order_kept,
                      targets.order_pairs, targets.scaling_within, targets.scaling);
    draw_error_table(app);
    section_heading(app, tr(Str::AccuracyChartTitle, L));
    hint_text(tr(Str::AccuracyChartHint, L));
    draw_filters(app);
    std::vector<std::size_t> shown;
    for (std::size_t i = 0; i < app.validation_rows.size(); ++i)
        if (row_passes_filters(app, app.validation_rows[i])) shown.push_back(i);
    draw_accuracy_chart(app, shown);
    draw_stack_cases(app);
    section_heading(app, tr(Str::TabValidation, L));
    ImGui::Checkbox(tr(Str::FilterFailures, L), &app.validation_only_failures);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
    const float em = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    // Columns: 0 case, 1 quantity, 2 measured, 3 predicted, 4 error, 5 tolerance. On a phone the error comes first
    // (it stays while the rest scrolls sideways), then the case, each column as wide as its longest text: a case id
    // squeezed into half the screen was cut.
    const bool narrow = avail < 40 * em;
    static const int kWide[] = {0, 1, 2, 3, 4, 5};
    static const int kNarrow[] = {4, 0, 2, 3, 5, 1};
    const int* order = narrow ? kNarrow : kWide;
    const Str names[] = {Str::ColCase, Str::ColQuantity, Str::ColMeasured, Str::ColPredicted, Str::ColError,
                         Str::ColTolerance};
    const float widths[] = {18 * em, 11 * em, 6.5f * em, 6.5f * em, 5 * em, 5 * em};
    // Below the chart: at least 20 lines tall (the tab scrolls to it), else the rest of the view.
    const float table_h = std::max(20 * em, ImGui::GetContentRegionAvail().y);
    if (ImGui::BeginTable(narrow ? "##validation_narrow" : "##validation", 6, flags, ImVec2(0, table_h))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        for (int i = 0; i < 6; ++i) {
            const int c = order[i];
            ImGui::TableSetupColumn(tr(names[c], L), ImGuiTableColumnFlags_WidthFixed, narrow ? 0.0f : widths[c]);
        }
        ImGui::TableHeadersRow();
        for (const std::size_t index : shown) {
            const catalog::ValidationRow& r = app.validation_rows[index];
            if (app.validation_only_failures && (!r.ran || r.pass)) continue;
            ImGui::TableNextRow();
            for (int i = 0; i < 6; ++i) {
                ImGui::TableNextColumn();
                switch (order[i]) {
                    case 0:
                        ImGui::TextUnformatted(r.id.c_str());
                        source_tooltip(r.file + (r.problem.empty() ? "" : "\n" + r.problem), "", L);
                        break;
                    case 1: ImGui::TextUnformatted(quantity_label(r.quantity, L)); break;
                    case 2: ImGui::TextUnformatted(quantity_value(r.quantity, r.measured, L).c_str()); break;
                    case 3:
                        if (r.ran) ImGui::TextUnformatted(quantity_value(r.quantity, r.predicted, L).c_str());
                        else ImGui::TextDisabled("%s", tr(Str::NotRun, L));
                        break;
                    case 4:
                        if (r.ran && r.bound == "informative") {
                            ImGui::TextDisabled("%s", tr(Str::Informative, L));
                        } else if (r.ran) {
                            const std::string e = (r.error_fraction >= 0 ? "+" : "") + format_percent(r.error_fraction);
                            ImGui::TextColored(verdict_color(r.pass),
                                               "%s", e.c_str());
                        }
                        break;
                    default:
                        if (r.bound == "informative") ImGui::TextDisabled("-");
                        else ImGui::TextUnformatted(r.bound == "upper" ? "<=" : ("±" + format_percent(r.tolerance_fraction)).c_str());
                        break;
                }
            }
        }
        ImGui::EndTable();
        table_anchor(app, "validation-table", narrow ? "##validation_narrow" : "##validation");
    }
}

void draw_data(AppState& app) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    const catalog::Catalog& cat = app.catalog();
    hint_text(tr(Str::DataIntro, L));
    draw_user_data(app);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    const float half = std::max(12 * em, (ImGui::GetContentRegionAvail().y - 4 * em) * 0.5f);
    // On a phone the first column (it stays while the rest scrolls sideways) is as wide as its longest name, without
    // the vendor's brand: a fixed width cut the longer names.
    const bool narrow = ImGui::GetContentRegionAvail().x < 40 * em;
    section_heading(app, tr(Str::GpusTitle, L));
    // Launch prices are the makers' US dollars; a page set to CNY shows them in yuan at the rate its costs use (the
    // user's, else the catalog's, with its source), and says so (issue 40: the table stayed in USD).
    const engine::Currency currency = app.results.valid ? app.results.scenario.decision.currency : engine::Currency::kCny;
    const double user_rate = app.results.valid ? app.results.scenario.decision.cny_per_usd : 0;
    const engine::ExchangeRate& fx = cat.settings.exchange_rate;
    const double rate = user_rate > 0 ? user_rate : fx.cny_per_usd;
    const bool price_cny = currency == engine::Currency::kCny && rate > 0;
    if (price_cny && user_rate > 0)
        hint_textf(tr(Str::GpuPriceUserRate, L), format_significant(rate, 4).c_str());
    else if (price_cny) {
        hint_textf(tr(Str::GpuPriceRate, L), format_significant(rate, 4).c_str(), fx.as_of.c_str());
        source_tooltip(fx.source, fx.as_of, L);  // the rate's source in full (data/settings.json exchange_rate)
    }
    if (price_cny) test_anchor(app, "gpu-price-rate");
    if (ImGui::BeginTable("##gpus", 7, flags, ImVec2(0, half))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn(tr(Str::ColGpu, L), ImGuiTableColumnFlags_WidthFixed, narrow ? 0.0f : 16 * em);
        ImGui::TableSetupColumn(tr(Str::ColMemory, L));
        ImGui::TableSetupColumn((std::string(tr(Str::ColBandwidth, L)) + " GB/s").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColFp32, L)) + " TFLOPS").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColTensor16, L)) + " TFLOPS").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColTdp, L)) + " W").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColPrice, L)) + " " + currency_unit(price_cny ? "CNY" : "USD", L)).c_str());
        ImGui::TableHeadersRow();
        for (const auto& g : cat.gpus) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted((narrow ? without_brand(g.name) : g.name).c_str());
            source_tooltip(g.source, g.as_of, L);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(g.memory_bytes, L).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_significant(g.memory_bandwidth_bytes_per_s / 1e9, 4).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(tflops(g.dense_flop_per_s.fp32).c_str());
            ImGui::TableNextColumn();
            // Before Volta (compute capability 7.0) NVIDIA cards have no tensor cores: their FP16 figure is the
            // CUDA cores' (1/64 of FP32 on GP102), not a tensor rate.
            const bool no_tensor_cores = g.vendor == "nvidia" && g.compute_capability_major > 0 && g.compute_capability_major < 7;
            ImGui::TextUnformatted(no_tensor_cores ? tr(Str::NoTensorCores, L)
                                                   : tflops(std::max(g.dense_flop_per_s.fp16, g.dense_flop_per_s.bf16)).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(g.tdp_w > 0 ? format_significant(g.tdp_w, 4).c_str() : "-");
            ImGui::TableNextColumn();
            const double price = price_cny ? g.launch_price_usd * rate : g.launch_price_usd;
            ImGui::TextUnformatted(g.launch_price_usd > 0 ? format_grouped(std::round(price)).c_str() : "-");
            if (g.launch_price_usd > 0 && price_cny && ImGui::IsItemHovered())
                ImGui::SetTooltip("%s", format_money(g.launch_price_usd, "USD", L).c_str());
        }
        ImGui::EndTable();
        table_anchor(app, "gpus-table", "##gpus");
    }
    section_heading(app, tr(Str::OffersTitle, L));
    if (ImGui::BeginTable("##offers", 7, flags, ImVec2(0, half))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn(tr(Str::ColProvider, L), ImGuiTableColumnFlags_WidthFixed, narrow ? 0.0f : 8 * em);
        ImGui::TableSetupColumn(tr(Str::ColInstance, L));
        ImGui::TableSetupColumn(tr(Str::ColGpu, L));
        ImGui::TableSetupColumn(tr(Str::ColCount, L));
        ImGui::TableSetupColumn(tr(Str::ColPerHour, L));
        ImGui::TableSetupColumn(tr(Str::ColBilling, L));
        ImGui::TableSetupColumn(tr(Str::ColAsOf, L));
        ImGui::TableHeadersRow();
        for (const auto& o : cat.offers) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(o.provider.c_str());
            source_tooltip(o.source, o.as_of, L);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(o.instance.c_str());
            ImGui::TableNextColumn();
            const engine::GpuSpec* g = cat.find_gpu(o.gpu_id);
            ImGui::TextUnformatted(g ? (narrow ? without_brand(g->name) : g->name).c_str() : o.gpu_id.c_str());
            ImGui::TableNextColumn();
            ImGui::Text("%d", o.gpu_count);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_money(o.price_per_hour, o.currency, L).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(tr(billing_label(o.billing), L));
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(o.as_of.c_str());
        }
        ImGui::EndTable();
        table_anchor(app, "offers-table", "##offers");
    }
}

}  // namespace gg::ui
