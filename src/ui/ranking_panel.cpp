// The ranking panel: every card and offer ranked for the job, with filters, its cost-time chart and a tooltip per
// cell that shows what the figure is made of. A click on a row picks that card (or applies its plan).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/export.h"
#include "ui/format.h"
#include "ui/glossary.h"
#include "ui/plan_panel.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

// A rental's access and payment facts (the ranking's "access": only those a source states), each with its source.
void access_lines(const nlohmann::json& o, Lang L) {
    const nlohmann::json& a = o.contains("access") && o["access"].is_object() ? o["access"] : nlohmann::json::object();
    if (a.empty()) {
        hint_text(tr(Str::AccessUnknownFacts, L));
        return;
    }
    auto fact = [&](const char* key, Str yes, Str no) {
        if (!a.contains(key) || !a[key].is_object()) return;
        const nlohmann::json& f = a[key];
        const bool value = f.value("value", false);
        if (!value && no == Str::Dismiss) return;  // Str::Dismiss: nothing worth saying when the fact is "no"
        ImGui::Bullet();
        ImGui::SameLine();
        wrapped_text(tr(value ? yes : no, L));
        ImGui::Indent();
        hint_textf(tr(Str::AccessSource, L), catalog::printable(f.value("source", ""), 400).c_str());
        ImGui::Unindent();
    };
    fact("blocked_in_mainland_china", Str::AccessBlocked, Str::AccessNotBlocked);
    fact("international_payment_only", Str::AccessForeignPay, Str::AccessCnyPay);
    fact("phone_verification", Str::AccessPhone, Str::Dismiss);
    fact("real_name_verification", Str::AccessRealName, Str::Dismiss);
}

// What a ranking cell's figure is made of, with the numbers filled in (column ids as in draw_ranking).
void ranking_cell_tooltip(const AppState& app, const nlohmann::json& o, int column) {
    const Lang L = app.lang;
    const Results& r = app.results;
    const std::string currency = o.contains("cost") ? o["cost"].value("currency", "CNY") : "CNY";
    auto reason = [&](const char* code) { return find_reason(o, code); };
    auto value = [](const nlohmann::json* x, const char* key) { return x ? json_number((*x)["values"], key, 0) : 0.0; };
    // The plan behind the row's memory and time, and why lighter layouts were not taken.
    auto batch_line = [&] {
        const nlohmann::json& plan = o.contains("plan") ? o["plan"] : nlohmann::json();
        const std::string summary = plan_summary(plan, r.scenario.scenario, L);
        if (!summary.empty()) wrapped_textf("%s: %s", tr(Str::ColPlan, L), summary.c_str());
        plan_notes(plan, L);
    };
    const bool rent = o.value("kind", "") == "rent";
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap(28.0f));
    switch (column) {
        case 0: {  // the option's name in full (the cell leaves the brand out), what the star means, its terms, and
                   // for a rental what it takes to reach and pay for the provider
            const std::string label = option_label(app.catalog(), o, L);
            wrapped_text(label.c_str());
            if (o.value("pareto", false)) wrapped_text(tr(Str::ParetoTip, L));
            glossary_lines(label, L);  // "spot"
            if (rent) access_lines(o, L);
            break;
        }
        case 5:
            batch_line();
            glossary_lines(plan_summary(o.contains("plan") ? o["plan"] : nlohmann::json(), r.scenario.scenario, L), L);
            break;
        case 1: {
            const nlohmann::json* fit = reason(o.value("fits", false) ? "fits" : "does_not_fit");
            const double card = value(fit, "card_bytes"), usable = value(fit, "usable_bytes");
            wrapped_textf(tr(Str::VerdictNeeds, L), format_gib(value(fit, "peak_bytes"), L).c_str(),
                          format_gib(usable, L).c_str(), format_gib(card, L).c_str(),
                          format_percent(card > 0 ? 1.0 - usable / card : 0).c_str());
            batch_line();
            break;
        }
        case 2: {
            const double t = json_number(o, "time_s");
            if (t > 0) {
                const int runs = r.scenario.decision.runs;
                if (runs > 1)
                    wrapped_textf(tr(Str::CellTime, L), format_duration(t, L).c_str(), runs,
                                  format_duration(t * runs, L).c_str());
                else
                    wrapped_textf(tr(Str::CellTimeOneRun, L), format_duration(t, L).c_str());
            } else {
                wrapped_text(tr(Str::TimeUnknown, L));
            }
            sessions_lines(app, o);
            batch_line();
            break;
        }
        case 3:
            if (o.value("kind", "") == "rent") rent_formula(app, o);
            else buy_formula(app, o);
            break;
        default: {
            if (o.value("eligible", false)) {
                wrapped_text(tr(Str::CellEligible, L));
                break;
            }
            wrapped_text(tr(Str::CellLeftOut, L));
            auto bullet = [](const std::string& line) {
                ImGui::Bullet();
                ImGui::SameLine();
                wrapped_text(line.c_str());
            };
            char line[512];
            if (const nlohmann::json* x = reason("does_not_fit")) {
                std::snprintf(line, sizeof line, tr(Str::WhyNoFit, L), format_gib(value(x, "peak_bytes"), L).c_str(),
                              format_gib(value(x, "usable_bytes"), L).c_str());
                bullet(line);
            }
            if (reason("incompatible")) bullet(tr(Str::WhyIncompatible, L));
            if (const nlohmann::json* x = reason("over_budget")) {
                std::snprintf(line, sizeof line, tr(Str::WhyBudget, L), format_money(value(x, "cash"), currency, L).c_str(),
                              format_money(value(x, "budget"), currency, L).c_str());
                bullet(line);
            }
            if (const nlohmann::json* x = reason("over_deadline")) {
                std::snprintf(line, sizeof line, tr(Str::WhyDeadline, L), format_duration(value(x, "time_s"), L).c_str(),
                              format_duration(value(x, "deadline_s"), L).c_str());
                bullet(line);
            }
            if (const nlohmann::json* x = reason("region_mismatch")) {
                std::snprintf(line, sizeof line, tr(Str::WhyRegion, L), x->value("other", "").c_str());
                bullet(line);
            }
            if (const nlohmann::json* x = reason("currency_mismatch")) {
                std::snprintf(line, sizeof line, tr(Str::WhyCurrency, L), x->value("other", "").c_str());
                bullet(line);
            }
            if (reason("ownership_excluded")) bullet(tr(Str::WhyOwnership, L));
            if (o.value("fits", false) && (reason("time_unknown") || reason("cost_unknown")) &&
                (r.scenario.decision.budget_cny > 0 || r.scenario.decision.deadline_s > 0))
                bullet(tr(Str::WhyUnknown, L));
            break;
        }
    }
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// ---- the ranking table ------------------------------------------------------------------------------------------
// What each column shows, in the order drawn. The ids are the sort keys (0 the engine's rank, the default order,
// so the sort arrow starts on "#"; 1 memory, 2 time, 3 cost, 4 fits, 5 the option's name, alphabetical; 6 the
// plan, how the option runs the job (engine/planner.h): words, not sortable).
enum Column { kRank = 0, kMemory = 1, kTime = 2, kCost = 3, kFits = 4, kOption = 5, kPlan = 6 };
constexpr Column kWide[] = {kRank, kOption, kPlan, kMemory, kTime, kCost, kFits};
constexpr Column kNarrow[] = {kRank, kOption, kTime, kCost, kFits, kMemory, kPlan};
constexpr int kColumns = 7;

// The table's rows and how it is laid out, for the functions that draw it.
struct RankingTable {
    std::vector<const nlohmann::json*> shown;  // the options listed, in the engine's order
    // The option's label, once per row (the name column and its sort need it), without the brand ("RTX 4090", not
    // "NVIDIA GeForce RTX 4090": the cell's tooltip names the card in full).
    std::vector<std::string> labels;
    std::vector<int> order;  // the rows in the clicked column's order (indices into shown)
    float label_w = 0;       // the widest label, with the Pareto mark
    bool narrow = false;
    const Column* layout = kWide;
};

// The heading, the filter, the exports and the cost-time chart; returns the options the table lists.
std::vector<const nlohmann::json*> draw_ranking_head(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    section_heading(app, tr(Str::RankingTitle, L));
    hint_text(tr(Str::RankingHint, L));
    hint_text(tr(Str::RankingPlanHint, L));
    ImGui::Checkbox(tr(Str::ShowNotFitting, L), &app.show_not_fitting);
    std::vector<const nlohmann::json*> shown;
    for (const auto& o : r.ranking["options"])
        if (app.show_not_fitting || o.value("eligible", false)) shown.push_back(&o);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", tr(Str::ExportLabel, L));
    const std::pair<const char*, ExportFormat> formats[] = {
        {"Markdown", ExportFormat::kMarkdown}, {"CSV", ExportFormat::kCsv}, {"JSON", ExportFormat::kJson}};
    for (const auto& [name, format] : formats) {
        ImGui::SameLine();
        if (copy_button(app, name, std::string("copy-") + name, true))
            app.clipboard_text = export_ranking(r.ranking, format, L, app.catalog());
    }
    copy_feedback(app, {"copy-Markdown", "copy-CSV", "copy-JSON"});
    if (shown.empty()) hint_text(tr(Str::NothingFits, L));
    draw_cost_time_chart(app, shown);
    return shown;
}

// Each row's label, in the engine's order, and the widest.
void label_rows(const AppState& app, RankingTable& t) {
    const Lang L = app.lang;
    t.labels.resize(t.shown.size());
    t.order.resize(t.shown.size());
    for (size_t i = 0; i < t.shown.size(); ++i) {
        t.labels[i] = without_brand(option_label(app.catalog(), *t.shown[i], L));
        // A card the user calibrated with their own measurement says so on each of its options.
        if (t.shown[i]->value("calibrated", false)) t.labels[i] += std::string(" · ") + tr(Str::CalibratedByYou, L);
        // Ranked after what the reader can use, and says why (issue 40): never dropped.
        if (t.shown[i]->value("access_limited", false)) t.labels[i] += std::string(" · ") + tr(Str::AccessLimitedTag, L);
        t.order[i] = static_cast<int>(i);
        t.label_w = std::max(t.label_w, ImGui::CalcTextSize(("* " + t.labels[i]).c_str()).x);
    }
}

// A desktop gives the option's name the width of the longest (issue 40: at 1280 px a shared width cut "(spot)"),
// leaving the plan (its words also in the cell's tooltip) at least 10 font sizes; the numbers keep theirs. Measured
// before the table begins (the room is the panel's).
float option_column_width(const RankingTable& t) {
    const float em = ImGui::GetFontSize();
    constexpr float kNumbersEm = 2.8f + 7.5f + 5.0f + 5.0f + 5.5f;  // rank, memory, time, cost, fits (below)
    const float padding = 2.0f * ImGui::GetStyle().CellPadding.x;
    const float room = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize - 7.0f * padding -
                       (kNumbersEm + 10.0f) * em;
    return std::min(t.label_w + padding, std::max(8.0f * em, room));
}

// The columns' names, sort flags and widths.
void setup_ranking_columns(const RankingTable& t, float option_w, Lang L) {
    const float em = ImGui::GetFontSize();
    const bool narrow = t.narrow;
    for (int c = 0; c < kColumns; ++c) {
        const Column k = t.layout[c];
        const char* name = k == kRank ? "#" : tr(k == kOption ? Str::ColOption : k == kPlan ? Str::ColPlan
                                                 : k == kMemory ? Str::ColMemory : k == kTime ? Str::ColTime
                                                 : k == kCost ? Str::ColCost : Str::ColFits, L);
        ImGuiTableColumnFlags f = k == kRank ? ImGuiTableColumnFlags_DefaultSort
                                  : k == kPlan ? ImGuiTableColumnFlags_NoSort : ImGuiTableColumnFlags_None;
        // A desktop: fixed numbers and option, the plan's words stretch; a phone fits each column to its content (0).
        f |= k == kPlan && !narrow ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed;
        const float width = narrow ? (k == kRank ? 2.2f * em : 0.0f)
                            : k == kRank ? 2.8f * em : k == kOption ? option_w : k == kPlan ? 1.0f
                            : k == kMemory ? 7.5f * em : k == kFits ? 5.5f * em : 5.0f * em;
        ImGui::TableSetupColumn(name, f, width, static_cast<ImGuiID>(k));
    }
}

// The header row, with the numeric columns' names right-aligned over their numbers (TableHeadersRow draws every
// name at the left; the sort arrow keeps the cell's right end).
void draw_ranking_headers(const RankingTable& t) {
    const float em = ImGui::GetFontSize();
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    const float arrow_w = std::floor(em * 0.65f + ImGui::GetStyle().FramePadding.x);
    for (int c = 0; c < kColumns; ++c) {
        if (!ImGui::TableSetColumnIndex(c)) continue;
        const char* name = ImGui::TableGetColumnName(c);
        if (t.layout[c] == kTime || t.layout[c] == kCost) {
            const float room = ImGui::GetContentRegionAvail().x - arrow_w - ImGui::CalcTextSize(name).x;
            if (room > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room);
        }
        ImGui::PushID(c);  // as TableHeadersRow does: one ID per column
        ImGui::TableHeader(name);
        ImGui::PopID();
    }
}

// Sort the shown rows by the clicked column; ties keep the engine's order (stable sort).
void sort_ranking_rows(RankingTable& t) {
    const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs();
    if (!specs || specs->SpecsCount <= 0) return;
    const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
    const bool ascending = spec.SortDirection != ImGuiSortDirection_Descending;
    auto key = [&](const nlohmann::json* o) -> double {
        switch (spec.ColumnUserID) {
            case kMemory: return json_number(*o, "peak_bytes_per_card", 0);
            case kTime: {
                const double cal = json_number(*o, "calendar_s");
                const double t = cal > 0 ? cal : json_number(*o, "time_s");
                return t >= 0 ? t : 1e300;
            }
            case kCost: { const double c = o->contains("cost") ? json_number((*o)["cost"], "amount") : -1; return c >= 0 && std::isfinite(c) ? c : 1e300; }
            case kFits: return o->value("fits", false) ? 0.0 : 1.0;
            default: return o->value("rank", 0);
        }
    };
    const std::vector<std::string>& labels = t.labels;
    const std::vector<const nlohmann::json*>& shown = t.shown;
    std::stable_sort(t.order.begin(), t.order.end(), [&](int a, int b) {
        if (spec.ColumnUserID == kOption) return ascending ? labels[a] < labels[b] : labels[a] > labels[b];
        // Unknown times and costs ("-") stay at the end in both directions.
        const double ka = key(shown[a]), kb = key(shown[b]);
        if ((ka >= 1e300) != (kb >= 1e300)) return kb >= 1e300;
        return ascending ? ka < kb : ka > kb;
    });
}

// The rank cell: the row's selectable, which spans every column (a click applies the option), and its right-click
// menu; returns whether the row is hovered.
bool draw_rank_cell(AppState& app, const nlohmann::json& o, int i) {
    const Lang L = app.lang;
    const std::string rank = std::to_string(o.value("rank", 0));
    // The row's selectable spans every column; its label is the rank, right-aligned by padding.
    const float pad = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(rank.c_str()).x;
    const float x0 = ImGui::GetCursorPosX();
    if (ImGui::Selectable(("##opt" + o.value("id", "")).c_str(), false, ImGuiSelectableFlags_SpanAllColumns)) {
        // The option's plan becomes the inputs (card, count and layout); without one, its card and count.
        if (!apply_plan(app, o)) {
            select_gpu(app.scenario, o.value("gpu", ""));
            app.scenario.gpu_count = o.value("count", 1);
            app.scenario_dirty = true;
        }
    }
    const bool row_hovered = ImGui::IsItemHovered();
    if (i == 0) test_anchor(app, "ranking-first-row");
    // Right-click (or a long press on a touch screen: the platform makes it one): pin the option beside the current
    // one.
    if (ImGui::BeginPopupContextItem(("##pin" + o.value("id", "")).c_str())) {
        if (ImGui::MenuItem(tr(Str::PinOption, L), nullptr, false, static_cast<int>(app.pins.size()) < kMaxPins))
            app_pin_option(app, o);
        test_anchor(app, "pin-option");
        ImGui::EndPopup();
    }
    ImGui::SameLine(x0 + std::max(0.0f, pad), 0);
    ImGui::TextDisabled("%s", rank.c_str());
    return row_hovered;
}

// One cell of the other columns: the option, its plan, memory, time, cost and whether it fits.
void draw_ranking_cell(AppState& app, const nlohmann::json& o, int i, Column column, const std::string& label,
                       bool narrow) {
    const Lang L = app.lang;
    const bool fits = o.value("fits", false);
    switch (column) {
        case kRank: break;  // draw_rank_cell
        case kOption: {
            // A phone needs the width for the offer: "RTX 4090", not "NVIDIA GeForce RTX 4090".
            const std::string text = (o.value("pareto", false) ? "* " : "  ") + label;
            // A name wider than its column (the longest Chinese ones at 1280 px, issue 40) goes on to a second line
            // instead of losing its end; the row grows, the plan's words stay cut.
            if (!narrow && ImGui::CalcTextSize(text.c_str()).x > ImGui::GetContentRegionAvail().x) {
                ImGui::PushTextWrapPos(0.0f);
                ImGui::TextUnformatted(text.c_str());
                ImGui::PopTextWrapPos();
            } else {
                ImGui::TextUnformatted(text.c_str());
            }
            break;
        }
        case kPlan: {
            const std::string plan_words =
                o.contains("plan") ? plan_summary(o["plan"], app.results.scenario.scenario, L) : std::string();
            ImGui::TextUnformatted(plan_words.empty() ? "-" : plan_words.c_str());
            if (i == 0) test_anchor(app, "ranking-first-plan");
            break;
        }
        case kMemory:
            // A phone shows the peak only (the usable memory is in the cell's tooltip).
            ImGui::TextUnformatted((narrow ? format_gib(json_number(o, "peak_bytes_per_card", 0), L)
                                           : format_gib(json_number(o, "peak_bytes_per_card", 0), L) + " / " +
                                                 format_gib(json_number(o, "usable_bytes_per_card", 0), L))
                                       .c_str());
            break;
        case kTime: {
            // A rental ends when its last session does (start, setup, downloads, weekly quotas): its calendar time.
            // None for an option the job does not fit: it would not run (the memory says why).
            const double calendar = json_number(o, "calendar_s");
            const double t = calendar > 0 ? calendar : json_number(o, "time_s");
            text_right(t > 0 && fits ? format_duration(t, L) : "-");
            break;
        }
        case kCost: {
            const double cost = o.contains("cost") ? json_number(o["cost"], "amount") : -1;
            text_right(cost >= 0 ? format_money(cost, o["cost"].value("currency", "CNY"), L) : "-");
            if (i == 0) test_anchor(app, "ranking-first-cost");
            break;
        }
        case kFits: {
            // A row shown only because "also show the options that were left out" is on: it may fit and still be
            // excluded (budget, rent or buy, compatibility); say so rather than "Yes".
            const bool left_out = fits && !o.value("eligible", false);
            ImGui::PushStyleColor(ImGuiCol_Text,
                                  left_out ? ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled) : verdict_color(fits));
            ImGui::TextUnformatted(tr(left_out ? Str::LeftOut : fits ? Str::Yes : Str::No, L));
            ImGui::PopStyleColor();
            break;
        }
    }
}

// One row: its cells, then the tooltip of the hovered cell.
void draw_ranking_row(AppState& app, const RankingTable& t, int i) {
    const nlohmann::json& o = *t.shown[t.order[i]];
    ImGui::TableNextRow();
    bool row_hovered = false;
    for (int c = 0; c < kColumns; ++c) {
        ImGui::TableSetColumnIndex(c);
        if (t.layout[c] == kRank) row_hovered = draw_rank_cell(app, o, i);
        else draw_ranking_cell(app, o, i, t.layout[c], t.labels[t.order[i]], t.narrow);
    }
    // The tooltip of the hovered cell, by what the cell shows (0 the option, 1 memory, 2 time, 3 cost, 4 fits, 5 the
    // plan); the rank column explains the option, as the name does.
    if (row_hovered)
        for (int c = 0; c < kColumns; ++c)
            if (ImGui::TableGetColumnFlags(c) & ImGuiTableColumnFlags_IsHovered) {
                const Column k = t.layout[c];
                ranking_cell_tooltip(app, o, k == kRank || k == kOption ? 0 : k == kPlan ? 5 : static_cast<int>(k));
            }
}

}  // namespace

void draw_ranking(AppState& app) {
    const Results& r = app.results;
    if (!r.ranking.contains("options")) return;
    RankingTable t;
    t.shown = draw_ranking_head(app);
    const float em = ImGui::GetFontSize();
    // Narrow screens (phones): squeezed into the width, the option's name was one letter wide (and a second line
    // under it was cut at the time column). There every column keeps the width of what it shows and the table scrolls
    // sideways, the time and cost right after the option (the memory and the plan, words, last).
    t.narrow = ImGui::GetContentRegionAvail().x < 36.0f * em;
    t.layout = t.narrow ? kNarrow : kWide;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_Sortable |
                                  (t.narrow ? ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit
                                            : ImGuiTableFlags_SizingStretchProp);
    const float height = std::min(22.0f, 1.6f * static_cast<float>(t.shown.size()) + 2.0f) * em;
    label_rows(app, t);
    const float option_w = option_column_width(t);
    if (ImGui::BeginTable("##ranking", kColumns, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(t.narrow ? 1 : 0, 1);
        setup_ranking_columns(t, option_w, app.lang);
        draw_ranking_headers(t);
        sort_ranking_rows(t);
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(t.shown.size()));
        while (clipper.Step())
            for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) draw_ranking_row(app, t, i);
        ImGui::EndTable();
        table_anchor(app, "ranking-table", "##ranking");
    }
}

}  // namespace gg::ui
