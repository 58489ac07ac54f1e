// The memory panel: where the memory goes (each part opens into its formula) and the largest batch on every
// card (a click picks the card). Reads AppState::results.
#include <algorithm>
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
    }
    const Str phase = m.peak_phase == engine::PeakPhase::kForwardEnd ? Str::PhaseForwardEnd
                      : m.peak_phase == engine::PeakPhase::kBackward ? Str::PhaseBackward
                                                                     : Str::PhaseOptimizer;
    hint_text(tr(phase, L));
    double parts_sum = 0;
    for (const Part& p : parts)
        if (p.figure != &m.framework) parts_sum += p.figure->bytes;
    if (parts_sum > m.peak_allocated.bytes * 1.01) hint_text(tr(Str::PartsNotAtOnce, L));
}

void draw_per_card(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Catalog& cat = app.catalog();
    section_heading(app, tr(Str::PerCardTitle, L));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingStretchProp;
    const float height = std::min(20.0f, 1.6f * static_cast<float>(r.cards.size()) + 2.0f) * ImGui::GetFontSize();
    if (ImGui::BeginTable("##percard", 4, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn(tr(Str::ColGpu, L), ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn(tr(Str::ColMemory, L), ImGuiTableColumnFlags_WidthFixed, 5.5f * ImGui::GetFontSize());
        ImGui::TableSetupColumn(tr(Str::ColFits, L), ImGuiTableColumnFlags_WidthFixed, 4.5f * ImGui::GetFontSize());
        ImGui::TableSetupColumn(tr(Str::ColMaxBatch, L), ImGuiTableColumnFlags_WidthFixed, 6.0f * ImGui::GetFontSize());
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
            if (ImGui::Selectable((g.name + "##card" + g.id).c_str(), g.id == app.scenario.gpu_id,
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
    }
}

}  // namespace gg::ui
