// Plans on the page (see plan_panel.h): words for a plan, its notes, applying it, and the plan line under the verdict.
//
// Sections: words | notes | applying | the verdict's plan line
#include "ui/plan_panel.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/format.h"
#include "ui/strings.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

double number(const nlohmann::json& j, const char* key, double fallback = 0) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return fallback;
    return j[key].get<double>();
}

std::string printf_string(const char* format, ...) IM_FMTARGS(1);
std::string printf_string(const char* format, ...) {
    char buf[512];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buf, sizeof buf, format, args);
    va_end(args);
    return buf;
}

Str axis_phrase(const std::string& axis) {
    if (axis == "checkpointing") return Str::AxisCheckpointing;
    if (axis == "sharding") return Str::AxisSharding;
    if (axis == "offload") return Str::AxisOffload;
    if (axis == "tensor_parallel") return Str::AxisTensorParallel;
    if (axis == "pipeline") return Str::AxisPipeline;
    if (axis == "micro_batch") return Str::AxisMicroBatch;
    return Str::AxisNone;
}

}  // namespace

// ---- words -------------------------------------------------------------------------------------------------------
std::string plan_summary(const nlohmann::json& plan, const catalog::Scenario& typed, Lang L) {
    if (!plan.is_object() || !plan.value("found", false) || !plan.contains("scenario")) return "";
    const nlohmann::json& s = plan["scenario"];
    const nlohmann::json& g = s.contains("gpu") ? s["gpu"] : nlohmann::json::object();
    std::vector<std::string> parts;
    if (plan.value("as_typed", false)) parts.push_back(tr(Str::PlanAsTyped, L));
    const int count = g.value("count", 1);
    const int tp = g.value("tensor_parallel", 1), pp = g.value("pipeline_parallel", 1);
    const int replicas = count / std::max(1, tp * pp);
    const std::string strategy = g.value("strategy", "ddp");
    if (replicas > 1) {
        if (strategy == "ddp") parts.push_back(tr(Str::PlanDdp, L));
        else if (strategy == "fsdp") parts.push_back(tr(Str::PlanFsdp, L));
        else if (strategy.size() == 5 && strategy.rfind("zero", 0) == 0)
            parts.push_back(printf_string(tr(Str::PlanZero, L), strategy[4] - '0'));
    }
    if (tp > 1) parts.push_back(printf_string(tr(Str::PlanTensorParallel, L), tp));
    if (pp > 1) parts.push_back(printf_string(tr(Str::PlanPipeline, L), pp));
    if (s.value("offload_optimizer", false))
        parts.push_back(printf_string(tr(Str::PlanOffload, L), format_gib(number(plan, "host_ram_bytes"), L).c_str()));
    const std::string ckpt = s.value("checkpointing", "none");
    if (ckpt == "full") parts.push_back(tr(Str::PlanCkptFull, L));
    else if (ckpt == "selective") parts.push_back(tr(Str::PlanCkptSelective, L));
    if (typed.attention == "eager" && s.value("attention", "eager") != "eager") parts.push_back(tr(Str::PlanFusedAttention, L));
    const int steps = s.value("grad_accum_steps", 1);
    parts.push_back(steps > 1 ? printf_string(tr(Str::PlanMicroBatch, L), s.value("batch_size", 1), steps)
                              : printf_string(tr(Str::PlanMicroBatchOnly, L), s.value("batch_size", 1)));
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : (L == Lang::Zh ? "，" : ", ")) + p;
    return out;
}

// ---- notes -------------------------------------------------------------------------------------------------------
void plan_notes(const nlohmann::json& plan, Lang L) {
    if (!plan.is_object() || !plan.contains("notes") || plan["notes"].empty()) return;
    wrapped_text(tr(plan.value("found", false) ? Str::PlanWhyTitle : Str::PlanWhyNoneTitle, L));
    for (const nlohmann::json& n : plan["notes"]) {
        const std::string code = n.value("code", "");
        const nlohmann::json& v = n.contains("values") ? n["values"] : nlohmann::json::object();
        const char* axis = tr(axis_phrase(n.value("axis", "none")), L);
        std::string line;
        if (code == "memory")
            line = printf_string(tr(Str::NoteMemory, L), axis, format_gib(number(v, "peak_bytes"), L).c_str(),
                                 format_gib(number(v, "usable_bytes"), L).c_str());
        else if (code == "slower") {
            const double t = number(v, "time_s", -1), step = number(v, "step_s", -1);
            if (t > 0) line = printf_string(tr(Str::NoteSlower, L), axis, format_duration(t, L).c_str());
            else if (step > 0) line = printf_string(tr(Str::NoteSlowerStep, L), axis, format_duration(step, L).c_str());
        } else if (code == "host_ram")
            line = printf_string(tr(Str::NoteHostRam, L), format_gib(number(v, "host_ram_bytes"), L).c_str(),
                                 format_gib(number(v, "host_capacity_bytes"), L).c_str());
        else if (code == "host_ram_unknown")
            line = printf_string(tr(Str::NoteHostRamUnknown, L), format_gib(number(v, "host_ram_bytes"), L).c_str());
        else if (code == "link")
            line = tr(Str::NoteLink, L);
        else if (code == "batch_split")
            line = printf_string(tr(Str::NoteBatchSplit, L), format_count(number(v, "global_batch"), L).c_str(),
                                 format_count(number(v, "replicas"), L).c_str());
        else if (code == "batchnorm_micro_batch")
            line = printf_string(tr(Str::NoteBatchNorm, L), format_count(number(v, "micro_batch"), L).c_str(),
                                 format_count(number(v, "global_batch"), L).c_str());
        if (line.empty()) continue;
        ImGui::Bullet();
        ImGui::SameLine();
        wrapped_text(line.c_str());
    }
}

// ---- applying ----------------------------------------------------------------------------------------------------
bool apply_plan(AppState& app, const nlohmann::json& option) {
    if (!option.contains("plan") || !option["plan"].value("found", false) || !option["plan"].contains("scenario"))
        return false;
    const nlohmann::json& s = option["plan"]["scenario"];
    const nlohmann::json& g = s["gpu"];
    catalog::Scenario& sc = app.scenario;
    // The card's own link, as the ranking assumes (select_gpu in calculator_inputs.cpp does the same).
    sc.gpu_id = g.value("id", sc.gpu_id);
    sc.interconnect.clear();
    sc.peer_to_peer_set = false;
    sc.peer_to_peer = true;
    sc.ecc = engine::EccSetting::kDefault;
    sc.gpu_count = g.value("count", sc.gpu_count);
    sc.strategy = g.value("strategy", sc.strategy);
    sc.tensor_parallel = g.value("tensor_parallel", 1);
    sc.pipeline_parallel = g.value("pipeline_parallel", 1);
    sc.pipeline_interleave = g.value("pipeline_interleave", 1);
    sc.sequence_parallel = g.value("sequence_parallel", false);
    sc.batch_size = s.value("batch_size", sc.batch_size);
    sc.grad_accum_steps = s.value("grad_accum_steps", sc.grad_accum_steps);
    sc.checkpointing = s.value("checkpointing", sc.checkpointing);
    sc.attention = s.value("attention", sc.attention);
    sc.offload_optimizer = s.value("offload_optimizer", sc.offload_optimizer);
    app.scenario_dirty = true;
    return true;
}

// ---- the verdict's plan line -------------------------------------------------------------------------------------
namespace {
// Whether the advice (the `gpuguide advise` entry of the scenario's card) has a fix whose every change keeps the
// results: on the scenario's own card count (`same_count`: "fix" when it keeps the count, else "fix_same_count"), or
// one that changes the count.
bool advice_keeps_results(const nlohmann::json& advice, int own_cards, bool same_count) {
    if (!advice.is_object() || advice.value("status", "") != "fixed") return false;
    const auto all_none = [](const nlohmann::json& fix) {
        if (!fix.is_object() || !fix.contains("changes") || !fix["changes"].is_array() || fix["changes"].empty())
            return false;
        for (const nlohmann::json& c : fix["changes"])
            if (!c.is_object() || c.value("accuracy_risk", "") != "none") return false;
        return true;
    };
    if (!advice.contains("fix")) return false;
    const nlohmann::json& fix = advice["fix"];
    const bool fix_keeps_count = fix.is_object() && int(number(fix, "gpu_count", own_cards)) == own_cards;
    if (same_count) {
        if (fix_keeps_count) return all_none(fix);
        return advice.contains("fix_same_count") && all_none(advice["fix_same_count"]);
    }
    return !fix_keeps_count && all_none(fix);
}

// The plan's notes in a tooltip over the last item, when it is hovered.
void notes_tooltip(const nlohmann::json& plan, Lang L) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
    plan_notes(plan, L);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}
}  // namespace

void draw_plan_verdict(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    if (s.gpu_id.empty() || !r.ranking.contains("options")) return;
    // The user's own card at the user's own count: the buy option, else the cheapest rental of that size.
    const nlohmann::json* own = nullptr;
    for (const auto& o : r.ranking["options"]) {
        if (o.value("gpu", "") != s.gpu_id || o.value("count", 0) != s.gpu_count || o.value("nodes", 1) != 1) continue;
        if (own == nullptr || o.value("kind", "") == "buy") own = &o;
    }
    if (own == nullptr || !own->contains("plan")) return;
    const nlohmann::json& plan = (*own)["plan"];
    const bool fits_as_typed = r.estimate.report.fits;
    if (!plan.value("found", false)) {
        if (fits_as_typed) return;  // a reserve or host limit the ranking applies: its row says why
        // The line must agree with the advice under it (issue 40: "no way keeps the results" beside a fix marked "no
        // effect on accuracy"): the planner tries layouts only, the advisor also the stack's own switches (a fused
        // loss), which keep the results, and more cards.
        const Str line = advice_keeps_results(r.advice, s.gpu_count, true)    ? Str::VerdictPlanNoneSwitch
                         : advice_keeps_results(r.advice, s.gpu_count, false) ? Str::VerdictPlanNoneMoreCards
                                                                               : Str::VerdictPlanNone;
        ImGui::PushStyleColor(ImGuiCol_Text, line == Str::VerdictPlanNone ? kBadColor : kTightColor);
        wrapped_text(tr(line, L));
        ImGui::PopStyleColor();
        notes_tooltip(plan, L);
        test_anchor(app, "plan-none");
        return;
    }
    const std::string summary = plan_summary(plan, s, L);
    if (fits_as_typed && plan.value("as_typed", false)) {
        ImGui::PushStyleColor(ImGuiCol_Text, kGoodColor);
        wrapped_text(tr(Str::VerdictPlanAsTyped, L));
        ImGui::PopStyleColor();
        test_anchor(app, "plan-as-typed");
        return;
    }
    if (fits_as_typed) {
        // It fits as set, and the same cards run it faster another way.
        const double plan_s = number(plan, "time_s", -1), typed_s = number(r.report["time"], "total_s", -1);
        if (!(plan_s > 0 && typed_s > plan_s * 1.02)) return;  // within 2%: not worth a change
        wrapped_textf(tr(Str::VerdictPlanFaster, L), summary.c_str(), format_duration(plan_s, L).c_str(),
                      format_duration(typed_s, L).c_str());
    } else {
        ImGui::PushStyleColor(ImGuiCol_Text, kGoodColor);
        wrapped_textf(tr(Str::VerdictPlanFits, L), summary.c_str());
        ImGui::PopStyleColor();
    }
    notes_tooltip(plan, L);
    if (ImGui::Button(stable_label(tr(Str::ApplyPlan, L), "apply-plan").c_str())) apply_plan(app, *own);
    test_anchor(app, "apply-plan");
}

}  // namespace gg::ui
