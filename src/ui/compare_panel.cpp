// The comparison panel: up to three pinned scenarios next to the current one (memory bars on one scale, time,
// cost, verdict) with each pin's difference from the current scenario. Draws app_compare_json (compare.cpp);
// computes nothing itself.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/full_report.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/chart.h"
#include "ui/format.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

// The scenario's keys as "a.b" paths with their values (arrays whole), for the lines that tell pins apart.
void flatten(const nlohmann::json& j, const std::string& prefix, std::vector<std::pair<std::string, std::string>>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
        return;
    }
    out.emplace_back(prefix, j.is_string() ? j.get<std::string>() : j.dump());
}

// "key = value" of every setting where this scenario differs from any other column (model and card are shown
// above it), so two columns say what sets them apart in the scenario file's own words.
std::vector<std::string> distinct_settings(const nlohmann::json& scenario, const std::vector<const nlohmann::json*>& all) {
    std::vector<std::pair<std::string, std::string>> mine;
    flatten(scenario, "", mine);
    std::vector<std::string> out;
    for (const std::pair<std::string, std::string>& setting : mine) {  // (not a structured binding: clang 14 cannot capture one)
        const std::string& key = setting.first;
        if (key == "model" || key == "gpu.id" || key == "gpu.count") continue;
        for (const nlohmann::json* other : all) {
            std::vector<std::pair<std::string, std::string>> theirs;
            flatten(*other, "", theirs);
            const bool same = std::any_of(theirs.begin(), theirs.end(), [&](const auto& kv) { return kv == setting; });
            if (!same) {
                out.push_back(key + " = " + setting.second);
                break;
            }
        }
    }
    return out;
}

double number_at(const nlohmann::json& j, const char* object, const char* key) {
    if (!j.is_object() || !j.contains(object)) return -1;
    return json_number(j[object], key);
}

// "+1.2 GiB (+15%)" / "-3.0 h (-40%)": a pin's difference from the current scenario.
std::string signed_difference(const nlohmann::json& d, double current, std::string (*format)(double, Lang), Lang L) {
    if (!d.is_number()) return "";
    const double v = d.get<double>();
    std::string out = (v > 0 ? "+" : v < 0 ? "-" : "±") + format(std::fabs(v), L);
    if (current > 0) {
        char pct[32];
        std::snprintf(pct, sizeof pct, " (%+.0f%%)", 100.0 * v / current);
        out += pct;
    }
    return out;
}

std::string money_in(double amount, const std::string& currency, Lang L) { return format_money(amount, currency, L); }

// The colours of the breakdown's bar (memory_panel.cpp), so a pin's bar reads the same way.
struct BarPart {
    const char* key;
    Str label;
    ImU32 color;
};
const BarPart kBarParts[] = {
    {"weights", Str::PartWeights, IM_COL32(37, 99, 185, 255)},
    {"gradients", Str::PartGradients, IM_COL32(86, 145, 220, 255)},
    {"optimizer", Str::PartOptimizer, IM_COL32(140, 110, 200, 255)},
    {"activations", Str::PartActivations, IM_COL32(230, 140, 40, 255)},
    {"temporary", Str::PartTemporary, IM_COL32(240, 190, 80, 255)},
    {"framework", Str::PartFramework, IM_COL32(140, 146, 156, 255)},
};

// The comparison's columns: the pins, oldest first, then the current scenario (app_compare_json's entries).
struct CompareColumns {
    std::vector<const nlohmann::json*> entries;
    // What sets the columns apart: each scenario with its defaults filled in (Pin::normalized), else as given.
    std::vector<const nlohmann::json*> scenarios;
    int count = 0;
    int now = -1;        // the current scenario's column, or -1
    double scale = 0;    // one memory scale for every bar
};

CompareColumns compare_columns(const AppState& app, const nlohmann::json& cmp) {
    CompareColumns t;
    // Columns: the pins, oldest first, then the current scenario.
    for (const nlohmann::json& e : cmp["pins"]) t.entries.push_back(&e);
    if (!cmp["current"].is_null()) t.entries.push_back(&cmp["current"]);
    t.count = static_cast<int>(t.entries.size());
    t.now = cmp["current"].is_null() ? -1 : t.count - 1;
    // What sets the columns apart: each scenario with its defaults filled in (Pin::normalized), else as given.
    for (std::size_t i = 0; i < t.entries.size(); ++i) {
        const bool pin = static_cast<int>(i) != t.now && i < app.pins.size();
        t.scenarios.push_back(pin && app.pins[i].normalized.is_object() ? &app.pins[i].normalized
                                                                         : &(*t.entries[i])["scenario"]);
    }
    // One memory scale for every bar: the largest card or need among the columns.
    for (const nlohmann::json* e : t.entries) {
        const nlohmann::json& r = (*e)["report"];
        t.scale = std::max({t.scale, number_at(r, "gpu", "memory_bytes"), number_at(r, "memory_bytes", "nvidia_smi")});
    }
    t.scale *= 1.02;
    return t;
}

// The heading and "Pin this scenario"; false when nothing is pinned yet (the hint says how).
bool draw_pin_controls(AppState& app) {
    const Lang L = app.lang;
    section_heading(app, tr(Str::CompareTitle, L));
    const bool full = static_cast<int>(app.pins.size()) >= kMaxPins;
    const nlohmann::json current_doc = catalog::decision_scenario_to_json(app.results.scenario);
    const bool pinned = std::any_of(app.pins.begin(), app.pins.end(), [&](const Pin& p) { return p.scenario == current_doc; });
    ImGui::BeginDisabled(full || pinned);
    if (ImGui::Button(stable_label(tr(Str::PinCurrent, L), "pin").c_str())) app_pin_current(app);
    ImGui::EndDisabled();
    test_anchor(app, "pin");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(tooltip_wrap(24));
        ImGui::TextUnformatted(tr(Str::PinCurrentTip, L));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    if (pinned || full) {
        ImGui::SameLine();
        hint_text(tr(pinned ? Str::PinnedAlready : Str::PinsFull, L));
    }
    if (app.pins.empty()) {
        hint_text(tr(Str::CompareHint, L));
        return false;
    }
    return true;
}

// Heading row: "Pinned 1" with Edit and Unpin; "Now". Returns the column whose Unpin was pressed, or -1.
int draw_compare_heading_row(AppState& app, const CompareColumns& t) {
    const Lang L = app.lang;
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    ImGui::TableNextColumn();
    int unpin = -1;
    for (int c = 0; c < t.count; ++c) {
        ImGui::TableNextColumn();
        ImGui::PushID(c);
        if (c == t.now) {
            ImGui::PushFont(app.fonts.heading);
            ImGui::TextUnformatted(tr(Str::ColNow, L));
            ImGui::PopFont();
        } else {
            char title[64];
            std::snprintf(title, sizeof title, tr(Str::ColPinned, L), c + 1);
            ImGui::PushFont(app.fonts.heading);
            ImGui::TextUnformatted(title);
            ImGui::PopFont();
            if (ImGui::SmallButton(stable_label(tr(Str::PinLoad, L), "load").c_str()))
                app_load_scenario(app, app.pins[c].scenario.dump());
            test_anchor(app, "pin-load-" + std::to_string(c));
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::PinLoadTip, L));
            ImGui::SameLine();
            if (ImGui::SmallButton(stable_label(tr(Str::Unpin, L), "unpin").c_str())) unpin = c;
            test_anchor(app, "unpin-" + std::to_string(c));
        }
        ImGui::PopID();
    }
    return unpin;
}

// A row's name in the first column.
void row_label(Str label, Lang L) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", tr(label, L));
    ImGui::PopTextWrapPos();
}

// A pin's difference from the current scenario, under its figure (nothing when unknown).
void diff_line(const std::string& text) {
    if (text.empty()) return;
    ImGui::TextDisabled("%s", text.c_str());
}

// What each column is: model, card and count, and the settings that set it apart.
void draw_scenario_row(const AppState& app, const CompareColumns& t) {
    const Lang L = app.lang;
    row_label(Str::RowScenario, L);
    for (int c = 0; c < t.count; ++c) {
        ImGui::TableNextColumn();
        const nlohmann::json& e = *t.entries[c];
        ImGui::PushTextWrapPos(0.0f);
        const nlohmann::json& r = e["report"];
        if (r.is_object()) {
            // A scenario without a card (a link's or a saved one whose unknown card was reset) has "gpu": null.
            ImGui::TextUnformatted(json_text(r.contains("model") ? r["model"] : nlohmann::json(), "name").c_str());
            const nlohmann::json& g = r.contains("gpu") ? r["gpu"] : nlohmann::json();
            const engine::GpuSpec* gpu = app.catalog().find_gpu(json_text(g, "id"));
            if (g.is_object())
                ImGui::Text("%s x%d", gpu ? gpu->name.c_str() : json_text(g, "id").c_str(),
                            static_cast<int>(json_number(g, "count", 1)));
            else
                ImGui::TextDisabled("%s", tr(Str::NoCardChosen, L));
        }
        std::vector<const nlohmann::json*> others;
        for (int o = 0; o < t.count; ++o)
            if (o != c) others.push_back(t.scenarios[o]);
        for (const std::string& s : distinct_settings(*t.scenarios[c], others)) ImGui::TextDisabled("%s", s.c_str());
        if (e.contains("problems") && !e["problems"].empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
            ImGui::TextUnformatted(tr(Str::PinProblems, L));
            for (const nlohmann::json& p : e["problems"])
                ImGui::TextUnformatted((json_text(p, "pointer") + ": " + json_text(p, "message")).c_str());
            ImGui::PopStyleColor();
        }
        ImGui::PopTextWrapPos();
    }
}

void draw_verdict_row(const CompareColumns& t, Lang L) {
    row_label(Str::RowVerdict, L);
    for (int c = 0; c < t.count; ++c) {
        ImGui::TableNextColumn();
        const nlohmann::json& r = (*t.entries[c])["report"];
        if (!r.is_object()) continue;
        const std::string v = json_text(r, "verdict");
        const bool fits = v == "fits", tight = v == "tight";
        ImGui::PushStyleColor(ImGuiCol_Text, tight ? kTightColor : verdict_color(fits));
        ImGui::TextUnformatted(tr(tight ? Str::TightShort : fits ? Str::Yes : Str::No, L));
        ImGui::PopStyleColor();
    }
}

// Each column's memory as the breakdown's bar, on one scale, with the card's usable memory marked.
void draw_memory_row(const CompareColumns& t, Lang L) {
    row_label(Str::RowMemory, L);
    const double now_peak = t.now >= 0 ? number_at((*t.entries[t.now])["report"], "memory_bytes", "nvidia_smi") : -1;
    for (int c = 0; c < t.count; ++c) {
        ImGui::TableNextColumn();
        const nlohmann::json& r = (*t.entries[c])["report"];
        if (!r.is_object()) continue;
        std::vector<BarSegment> segments;
        for (const BarPart& p : kBarParts) segments.push_back({number_at(r, "memory_bytes", p.key), p.color, tr(p.label, L)});
        const double usable = number_at(r, "gpu", "usable_bytes");
        const int hovered = stacked_bar(("##pinbar" + std::to_string(c)).c_str(), segments, t.scale, usable,
                                        IM_COL32(180, 30, 30, 255), 1.0f);
        if (hovered >= 0)
            ImGui::SetTooltip(tr(Str::PinBarTip, L), segments[hovered].label, format_gib(segments[hovered].value, L).c_str(),
                              format_gib(usable, L).c_str());
        const double peak = number_at(r, "memory_bytes", "nvidia_smi");
        ImGui::Text("%s / %s", format_gib(peak, L).c_str(), format_gib(usable, L).c_str());
        if (c != t.now) diff_line(signed_difference((*t.entries[c])["differences"]["peak_bytes"], now_peak, format_gib, L));
    }
}

void draw_time_row(const CompareColumns& t, Lang L) {
    row_label(Str::RowTime, L);
    const double now_s = t.now >= 0 ? number_at((*t.entries[t.now])["report"], "time", "total_s") : -1;
    for (int c = 0; c < t.count; ++c) {
        ImGui::TableNextColumn();
        // A pin that does not fit has no time to show: it stops at the first step (issue 40).
        const nlohmann::json& r = (*t.entries[c])["report"];
        if (r.is_object() && json_text(r, "verdict") == "does_not_fit") {
            ImGui::TextDisabled("%s", tr(Str::PinNoTimeNoFit, L));
            continue;
        }
        const double time_s = number_at(r, "time", "total_s");
        ImGui::TextUnformatted(time_s > 0 ? format_duration(time_s, L).c_str() : "-");
        if (c != t.now) diff_line(signed_difference((*t.entries[c])["differences"]["total_s"], now_s, format_duration, L));
    }
}

// The cheapest rent offer or the buy option of each column's card ("rent" or "buy"), with the pins' differences.
void draw_cost_row(const CompareColumns& t, const char* kind, Lang L) {
    row_label(std::string(kind) == "rent" ? Str::RowRent : Str::RowBuy, L);
    const nlohmann::json* now_option = t.now >= 0 ? &(*t.entries[t.now])[kind] : nullptr;
    const double now_cost =
        now_option && now_option->is_object() && now_option->contains("cost") ? json_number((*now_option)["cost"], "amount") : -1;
    for (int c = 0; c < t.count; ++c) {
        ImGui::TableNextColumn();
        const nlohmann::json& o = (*t.entries[c])[kind];
        const double cost = o.is_object() && o.contains("cost") ? json_number(o["cost"], "amount") : -1;
        const std::string currency = cost >= 0 ? json_text(o["cost"], "currency", "CNY") : std::string("CNY");
        ImGui::TextUnformatted(cost >= 0 ? format_money(cost, currency, L).c_str() : "-");
        if (c == t.now) continue;
        const nlohmann::json& d = (*t.entries[c])["differences"][std::string(kind) + "_cost"];
        if (!d.is_number()) continue;
        const double v = d.get<double>();
        std::string text = (v > 0 ? "+" : v < 0 ? "-" : "±") + money_in(std::fabs(v), currency, L);
        if (now_cost > 0) {
            char pct[32];
            std::snprintf(pct, sizeof pct, " (%+.0f%%)", 100.0 * v / now_cost);
            text += pct;
        }
        diff_line(text);
    }
}

}  // namespace

void draw_compare(AppState& app) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    if (!draw_pin_controls(app)) return;

    const nlohmann::json cmp = app_compare_json(app);
    const CompareColumns t = compare_columns(app, cmp);
    // Fixed-width columns in a table that scrolls sideways: on a phone the pins are a swipe away, never squeezed.
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_BordersInnerV |
                                  ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit;
    const float label_w = 6.5f * em, column_w = 11.5f * em;
    if (!ImGui::BeginTable("##compare", t.count + 1, flags, ImVec2(0, 0), 0.0f)) return;
    ImGui::TableSetupScrollFreeze(1, 0);
    ImGui::TableSetupColumn("##what", ImGuiTableColumnFlags_WidthFixed, label_w);
    for (int c = 0; c < t.count; ++c)
        ImGui::TableSetupColumn(("##c" + std::to_string(c)).c_str(), ImGuiTableColumnFlags_WidthFixed, column_w);
    const int unpin = draw_compare_heading_row(app, t);
    draw_scenario_row(app, t);
    draw_verdict_row(t, L);
    draw_memory_row(t, L);
    draw_time_row(t, L);
    for (const char* kind : {"rent", "buy"}) draw_cost_row(t, kind, L);
    ImGui::EndTable();
    table_anchor(app, "compare-table", "##compare");
    if (unpin >= 0) app_unpin(app, unpin);
}

}  // namespace gg::ui
