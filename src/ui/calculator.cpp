// The Calculator tab's layout: the inputs (calculator_inputs.cpp) on the left, or on top on narrow screens, and the
// answer on the right, panel by panel (calculator_panels.h); also the helpers the panels share.
// Sections: shared helpers | results | layout.
#include <algorithm>
#include <cstdio>
#include <string>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/gan_panel.h"
#include "ui/format.h"
#include "ui/plan_panel.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

// ---- shared helpers: the results' JSON ------------------------------------------------------------------------
double json_number(const nlohmann::json& j, const char* key, double fallback) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return fallback;
    return j[key].get<double>();
}

std::string json_text(const nlohmann::json& j, const char* key, const std::string& fallback) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return fallback;
    return j[key].get<std::string>();
}

// The cheapest fitting rent offer and the buy option for the scenario's card, from the ranking.
const nlohmann::json* ranking_option(const nlohmann::json& ranking, const char* kind, const std::string& gpu, int count) {
    const nlohmann::json* best = nullptr;
    if (!ranking.is_object() || !ranking.contains("options")) return nullptr;
    for (const auto& o : ranking["options"]) {
        if (o.value("kind", "") != kind || o.value("gpu", "") != gpu) continue;
        if (std::string(kind) == "buy" && o.value("count", 0) != count) continue;
        // A rental is an offer's own card count: one the job does not fit has a price but is no answer.
        if (std::string(kind) == "rent" && !o.value("fits", false)) continue;
        const double c = o.contains("cost") ? json_number(o["cost"], "amount") : -1;
        if (c < 0) continue;
        if (best == nullptr || c < json_number((*best)["cost"], "amount")) best = &o;
    }
    return best;
}

// "1 card" / "3 cards" (English plural), "3 张卡" (Chinese has none).
std::string counted(int n, Str one, Str many, Lang lang) {
    char buf[64];
    std::snprintf(buf, sizeof buf, tr(n == 1 ? one : many, lang), n);
    return buf;
}

// The ranking option's reason with this code ({"code", "values"}, catalog/decision_json.cpp rank_json), or nullptr.
const nlohmann::json* find_reason(const nlohmann::json& option, const char* code) {
    if (option.contains("reasons"))
        for (const nlohmann::json& x : option["reasons"])
            if (x.value("code", "") == code) return &x;
    return nullptr;
}

// A price in its own currency, followed by its value in the output currency when they differ: "$20.93 (¥146.18)",
// so a formula's factors and its result are in the same money. The rate is the user's, else the catalog's.
std::string money_as(const AppState& app, double amount, const std::string& from, const std::string& to) {
    const std::string own = format_money(amount, from, app.lang);
    if (from == to) return own;
    const double rate = app.results.scenario.decision.cny_per_usd > 0 ? app.results.scenario.decision.cny_per_usd
                                                                       : app.catalog().settings.exchange_rate.cny_per_usd;
    double converted = -1;
    if (rate > 0 && from == "USD" && to == "CNY") converted = amount * rate;
    if (rate > 0 && from == "CNY" && to == "USD") converted = amount / rate;
    return converted >= 0 ? own + " (" + format_money(converted, to, app.lang) + ")" : own;
}

namespace {

void draw_results(AppState& app) {
    if (!app.scenario_problems.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
        wrapped_text(tr(Str::InputsInvalid, app.lang));
        for (const catalog::Problem& p : app.scenario_problems)
            ImGui::BulletText("%s: %s", catalog::printable(p.pointer, 120).c_str(), catalog::printable(p.message, 600).c_str());
        ImGui::PopStyleColor();
    }
    if (gan_active(app)) {  // a GAN's own answer; never a one-network result beside it
        draw_gan_results(app);
        return;
    }
    if (!app.results.valid) return;
    draw_verdict(app);
    draw_plan_verdict(app);
    draw_compare(app);
    draw_advice(app);
    draw_stack_config(app);
    draw_time(app);
    draw_calibration(app);
    draw_breakdown(app);
    draw_memory_timeline(app);
    draw_ranking(app);
    draw_memory_curve(app);
    draw_per_card(app);
}

// One column (phones, narrow windows): the inputs and the answer are two views under one switch, with a one-line
// verdict always in sight above them, so the answer is one tap away rather than below a long column of inputs.
void draw_narrow_summary(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    if (!app.scenario_problems.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
        wrapped_text(tr(Str::InputsInvalid, L));
        ImGui::PopStyleColor();
    }
    if (gan_active(app)) {
        draw_gan_summary(app);
        return;
    }
    if (!r.valid) return;
    const engine::MemoryReport& m = r.estimate.report;
    const engine::GpuSpec* gpu = app.catalog().find_gpu(r.scenario.scenario.gpu_id);
    if (gpu == nullptr) {
        wrapped_text(tr(Str::NoGpuChosen, L));
        return;
    }
    const engine::Verdict v = m.verdict.verdict;
    ImGui::PushStyleColor(ImGuiCol_Text, v == engine::Verdict::kTight ? kTightColor
                                                                      : verdict_color(v == engine::Verdict::kFits));
    wrapped_textf(tr(v == engine::Verdict::kFits    ? Str::SummaryFits
                     : v == engine::Verdict::kTight ? Str::SummaryTight
                                                    : Str::SummaryNoFit,
                     L),
                  cards_label(r.scenario.scenario.gpu_count, gpu->name, L).c_str(), format_gib(m.nvidia_smi.bytes, L).c_str(),
                  format_gib(m.usable_bytes, L).c_str());
    test_anchor(app, "narrow-verdict");
    ImGui::PopStyleColor();
    const double total_s = r.report.contains("time") ? json_number(r.report["time"], "total_s") : -1;
    // No time for a job that does not fit: it would not run (the answer view says why).
    if (total_s > 0 && v != engine::Verdict::kDoesNotFit)
        wrapped_textf(tr(Str::SummaryTime, L), format_duration(total_s, L).c_str());
}

void draw_narrow(AppState& app) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    const ImVec4 active = ImGui::GetStyleColorVec4(ImGuiCol_TabActive);  // the selected view looks like a selected tab
    bool switched = false;  // the other view starts at its top, not where this one was scrolled to
    for (int view = 0; view < 2; ++view) {
        if (view == 1) ImGui::SameLine();
        const bool on = app.narrow_show_answer == (view == 1);
        if (on) {
            ImGui::PushStyleColor(ImGuiCol_Button, active);
            ImGui::PushStyleColor(ImGuiCol_ButtonHovered, active);
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        }
        if (ImGui::Button(tr(view == 0 ? Str::NarrowJob : Str::NarrowAnswer, L), ImVec2(half, 2.0f * em))) {
            switched = app.narrow_show_answer != (view == 1);
            app.narrow_show_answer = view == 1;
        }
        test_anchor(app, view == 0 ? "view-job" : "view-answer");
        if (on) ImGui::PopStyleColor(3);
    }
    if (!app.narrow_show_answer) draw_narrow_summary(app);  // the answer view starts with the full verdict
    ImGui::Separator();
    ImGui::BeginChild("##narrow", ImVec2(0, 0), false);
    window_anchor(app, "results-pane");  // where the tests scroll (its scrollbar)
    if (switched) ImGui::SetScrollY(0);
    if (app.narrow_show_answer) {
        draw_results(app);
        ImGui::Spacing();
        if (ImGui::Button(tr(Str::NarrowChangeJob, L), ImVec2(-1, 2.0f * em))) {
            app.narrow_show_answer = false;
            ImGui::SetScrollY(0);
        }
    } else {
        draw_inputs(app);
        ImGui::Spacing();
        if (ImGui::Button(tr(Str::NarrowSeeAnswer, L), ImVec2(-1, 2.0f * em))) {
            app.narrow_show_answer = true;
            ImGui::SetScrollY(0);
        }
    }
    ImGui::EndChild();
}

}  // namespace

// ---- layout: two columns when there is room, one column on phones and narrow iframes -----------------------------
void draw_calculator(AppState& app) {
    const float em = ImGui::GetFontSize();
    const float width = ImGui::GetContentRegionAvail().x;
    if (width >= 46.0f * em) {
        const float left = std::min(24.0f * em, width * 0.38f);
        ImGui::BeginChild("##inputs", ImVec2(left, 0), false);
        window_anchor(app, "inputs-pane");  // where the tests scroll the inputs (its scrollbar)
        draw_inputs(app);
        ImGui::EndChild();
        ImGui::SameLine(0, 1.2f * em);
        ImGui::BeginChild("##results", ImVec2(0, 0), false);
        window_anchor(app, "results-pane");
        draw_results(app);
        ImGui::EndChild();
    } else if (app.embed) {  // a course page embeds a worked example: the answer first, then its settings
        draw_results(app);
        ImGui::Separator();
        draw_inputs(app);
    } else {
        draw_narrow(app);
    }
}

}  // namespace gg::ui
