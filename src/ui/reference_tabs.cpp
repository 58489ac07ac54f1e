// The Accuracy tab (every validation case: measured vs predicted, from the same data the tests use) and the
// GPUs-and-prices tab (the catalog with the source of every record).
#include <algorithm>
#include <cmath>
#include <string>

#include "catalog/catalog.h"
#include "catalog/report.h"
#include "catalog/time_json.h"
#include "ui/app.h"
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

std::string tflops(double flop_per_s) {
    return flop_per_s > 0 ? format_significant(flop_per_s / 1e12, 3) : std::string("-");
}

}  // namespace

void draw_validation(AppState& app) {
    const Lang L = app.lang;
    if (!app.validation_computed) {  // the whole suite runs once, on first view (a few ms)
        app.validation_rows = catalog::run_memory_validation();
        const auto time_rows = catalog::run_time_validation();
        app.validation_rows.insert(app.validation_rows.end(), time_rows.begin(), time_rows.end());
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
    ImGui::Checkbox(tr(Str::FilterFailures, L), &app.validation_only_failures);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
    const float em = ImGui::GetFontSize();
    const float avail = ImGui::GetContentRegionAvail().x;
    // Columns: 0 case, 1 quantity, 2 measured, 3 predicted, 4 error, 5 tolerance. On a phone the error comes right
    // after the case (the rest scrolls sideways), and the case column takes under half the width.
    const bool narrow = avail < 40 * em;
    static const int kWide[] = {0, 1, 2, 3, 4, 5};
    static const int kNarrow[] = {0, 4, 2, 3, 5, 1};
    const int* order = narrow ? kNarrow : kWide;
    const Str names[] = {Str::ColCase, Str::ColQuantity, Str::ColMeasured, Str::ColPredicted, Str::ColError,
                         Str::ColTolerance};
    const float widths[] = {narrow ? std::min(18 * em, 0.45f * avail) : 18 * em, 11 * em, 6.5f * em, 6.5f * em,
                            5 * em, 5 * em};
    if (ImGui::BeginTable(narrow ? "##validation_narrow" : "##validation", 6, flags, ImVec2(0, 0))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        for (int i = 0; i < 6; ++i) {
            const int c = order[i];
            ImGui::TableSetupColumn(tr(names[c], L), ImGuiTableColumnFlags_WidthFixed, widths[c]);
        }
        ImGui::TableHeadersRow();
        for (const auto& r : app.validation_rows) {
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
    section_heading(app, tr(Str::GpusTitle, L));
    if (ImGui::BeginTable("##gpus", 7, flags, ImVec2(0, half))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn(tr(Str::ColGpu, L), ImGuiTableColumnFlags_WidthFixed, 16 * em);
        ImGui::TableSetupColumn(tr(Str::ColMemory, L));
        ImGui::TableSetupColumn((std::string(tr(Str::ColBandwidth, L)) + " GB/s").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColFp32, L)) + " TFLOPS").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColTensor16, L)) + " TFLOPS").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColTdp, L)) + " W").c_str());
        ImGui::TableSetupColumn((std::string(tr(Str::ColPrice, L)) + " " + currency_unit("USD", L)).c_str());
        ImGui::TableHeadersRow();
        for (const auto& g : cat.gpus) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(g.name.c_str());
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
            ImGui::TextUnformatted(g.launch_price_usd > 0 ? format_grouped(g.launch_price_usd).c_str() : "-");
        }
        ImGui::EndTable();
    }
    section_heading(app, tr(Str::OffersTitle, L));
    if (ImGui::BeginTable("##offers", 7, flags, ImVec2(0, half))) {
        ImGui::TableSetupScrollFreeze(1, 1);
        ImGui::TableSetupColumn(tr(Str::ColProvider, L), ImGuiTableColumnFlags_WidthFixed, 8 * em);
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
            ImGui::TextUnformatted(g ? g->name.c_str() : o.gpu_id.c_str());
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
    }
}

}  // namespace gg::ui
