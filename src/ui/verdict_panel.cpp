// The verdict panel: the answer for the chosen card and count, the advisor's changes that make a job fit (a click
// applies one) and the config to paste into the scenario's stack. Reads AppState::results.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "catalog/catalog.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/format.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

void draw_verdict(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const engine::MemoryReport& m = r.estimate.report;
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* gpu = cat.find_gpu(r.scenario.scenario.gpu_id);

    section_heading(app, tr(Str::ResultTitle, L));
    if (gpu == nullptr) {
        wrapped_text(tr(Str::NoGpuChosen, L));
    } else {
        // The engine's three steps (engine::judge_fit): fits with the headroom, tight, does not fit.
        const engine::Verdict v = m.verdict.verdict;
        ImGui::PushFont(app.fonts.heading);
        ImGui::PushStyleColor(ImGuiCol_Text, v == engine::Verdict::kTight ? kTightColor
                                                                          : verdict_color(v == engine::Verdict::kFits));
        wrapped_textf(tr(v == engine::Verdict::kFits    ? Str::VerdictFits
                         : v == engine::Verdict::kTight ? Str::VerdictTight
                                                        : Str::VerdictNoFit,
                         L),
                      cards_label(r.scenario.scenario.gpu_count, gpu->name, L).c_str());
        test_anchor(app, "verdict");
        ImGui::PopStyleColor();
        ImGui::PopFont();
        draw_calibration_badge(app);  // the user's own measurement of this card, when there is one
        // The headroom's named terms, each with its bytes: what a real run needs beyond the estimate.
        const engine::Headroom& h = m.verdict.headroom;
        std::string terms;
        const auto term = [&](Str name, double bytes) {
            if (!(bytes > 0)) return;
            if (!terms.empty()) terms += L == Lang::Zh ? "、" : ", ";
            char buf[160];
            std::snprintf(buf, sizeof buf, tr(name, L), format_gib(bytes, L).c_str());
            terms += buf;
        };
        term(Str::HeadroomDesktop, h.display_bytes);
        term(Str::HeadroomLongSample, h.long_sample_bytes);
        term(Str::HeadroomEvaluation, h.evaluation_bytes);
        term(Str::HeadroomReserve, h.reserve_bytes);
        if (terms.empty())
            wrapped_textf(tr(Str::VerdictCardNoHeadroom, L), format_gib(m.nvidia_smi.bytes, L).c_str(),
                          format_gib(m.card_memory_bytes, L).c_str());
        else
            wrapped_textf(tr(Str::VerdictCard, L), format_gib(m.nvidia_smi.bytes, L).c_str(),
                          format_gib(m.card_memory_bytes, L).c_str(), format_gib(h.total_bytes(), L).c_str(),
                          terms.c_str());
        // The card's memory as nvidia-smi shows it (engine/card_memory.h): ECC's check bits, the driver's share.
        const catalog::Estimate& e = r.estimate;
        const std::string usable = format_gib(m.card_memory_bytes, L), datasheet = format_gib(e.datasheet_memory_bytes, L);
        if (e.ecc_on && e.ecc_reserved_bytes > 0) {
            hint_textf(tr(Str::CardMemoryEccOn, L), usable.c_str(), datasheet.c_str(),
                       format_gib(e.ecc_reserved_bytes, L).c_str());
            test_anchor(app, "card-memory-ecc-on");
        } else if (gpu->ecc && engine::ecc_in_band(*gpu)) {
            hint_textf(tr(Str::CardMemoryEccOff, L), usable.c_str(), datasheet.c_str());
            test_anchor(app, "card-memory-ecc-off");
        } else if (m.card_memory_bytes < e.datasheet_memory_bytes) {
            hint_textf(tr(Str::CardMemoryDriver, L), usable.c_str(), datasheet.c_str());
            test_anchor(app, "card-memory-driver");
        }
        if (v == engine::Verdict::kTight) hint_textf(tr(Str::VerdictTightWhy, L), terms.c_str());
        // Does not fit although the steps do: a term the user gave (evaluation, the longest sample) passes the card.
        if (v == engine::Verdict::kDoesNotFit && m.nvidia_smi.bytes <= m.card_memory_bytes && h.allocated_bytes() > 0) {
            std::string when;
            char buf[160];
            const bool eval = h.evaluation_bytes >= h.long_sample_bytes;
            std::snprintf(buf, sizeof buf, tr(eval ? Str::HeadroomEvaluation : Str::HeadroomLongSample, L),
                          format_gib(eval ? h.evaluation_bytes : h.long_sample_bytes, L).c_str());
            when = buf;
            ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
            wrapped_textf(tr(Str::VerdictNoFitWhy, L), when.c_str());
            ImGui::PopStyleColor();
            test_anchor(app, "verdict-why");
        }
        const catalog::Scenario& sc = r.scenario.scenario;
        const Str max_batch = sc.model_copy_gpus() > 1 ? Str::MaxBatchCopy : Str::MaxBatch;
        if (r.estimate.max_batch_size > 0) ImGui::Text(tr(max_batch, L), r.estimate.max_batch_size);
        else if (r.estimate.max_batch_size == 0 && m.verdict.verdict != engine::Verdict::kTight)
            wrapped_text(tr(Str::MaxBatchNone, L));  // tight: the line above says what stands in the way
    }
    hint_textf(tr(Str::ParamsLine, L), format_count(m.params_total, L).c_str(),
                        format_count(m.params_trainable, L).c_str());
    // Tensor/pipeline parallelism: each GPU holds a share, and the micro-batch is per model copy.
    const catalog::Scenario& s = r.scenario.scenario;
    if (s.model_copy_gpus() > 1)
        hint_textf(tr(Str::ModelParallelLine, L), format_count(m.params_per_gpu, L).c_str(),
                   s.model_copy_gpus());
    if (s.pipeline_parallel > 1)
        hint_textf(tr(Str::PipelineStageLine, L), m.pipeline_stage + 1, s.pipeline_parallel,
                   format_significant(m.in_flight_micro_batches, 3).c_str());
}

namespace {

Str change_label(const std::string& change) {
    if (change == "mixed_precision") return Str::ChangeMixedPrecision;
    if (change == "checkpointing") return Str::ChangeCheckpointing;
    if (change == "accumulation") return Str::ChangeAccumulation;
    if (change == "optimizer_8bit") return Str::ChangeOptimizer8bit;
    if (change == "lora") return Str::ChangeLora;
    if (change == "qlora") return Str::ChangeQlora;
    if (change == "more_cards") return Str::ChangeMoreCards;
    if (change == "shorter_sequence") return Str::ChangeShorterSequence;
    if (change == "no_ema") return Str::ChangeNoEma;
    if (change == "precompute_latents") return Str::ChangePrecomputeLatents;
    if (change == "frozen_weights_16bit") return Str::ChangeFrozenWeights16bit;
    if (change == "fused_loss") return Str::ChangeFusedLoss;
    if (change == "offload_activations") return Str::ChangeOffloadActivations;
    if (change == "plan") return Str::ChangePlan;
    if (change == "switch_to_ddp") return Str::ChangeSwitchToDdp;
    return Str::ChangeSmallerImage;
}

// Copies the advisor's fixed configuration into the inputs (one click).
void apply_fix(AppState& app, const nlohmann::json& fix) {
    catalog::Scenario& s = app.scenario;
    auto str = [&](const char* key, std::string& out) { if (fix.contains(key) && fix[key].is_string()) out = fix[key].get<std::string>(); };
    auto num = [&](const char* key, int& out) { if (fix.contains(key) && fix[key].is_number()) out = static_cast<int>(fix[key].get<double>()); };
    str("precision", s.precision);
    str("optimizer", s.optimizer);
    str("method", s.method);
    str("checkpointing", s.checkpointing);
    str("strategy", s.strategy);
    num("micro_batch", s.batch_size);
    num("grad_accum_steps", s.grad_accum_steps);
    num("gpu_count", s.gpu_count);
    // A planned layout (change "plan"): the split, offload and attention kernel too.
    num("tensor_parallel", s.tensor_parallel);
    num("pipeline_parallel", s.pipeline_parallel);
    num("pipeline_interleave", s.pipeline_interleave);
    if (fix.contains("sequence_parallel") && fix["sequence_parallel"].is_boolean())
        s.sequence_parallel = fix["sequence_parallel"].get<bool>();
    if (fix.contains("offload_optimizer") && fix["offload_optimizer"].is_boolean())
        s.offload_optimizer = fix["offload_optimizer"].get<bool>();
    if (fix.value("eager_attention", true) == false && s.attention == "eager") s.attention = "sdpa";
    if (fix.contains("ema") && fix["ema"].is_boolean()) s.ema = fix["ema"].get<bool>();
    if (fix.contains("precomputed_latents") && fix["precomputed_latents"].is_boolean())
        s.precomputed_latents = fix["precomputed_latents"].get<bool>();
    if (fix.contains("frozen_weights_16bit") && fix["frozen_weights_16bit"].is_boolean())
        s.frozen_weights_16bit = fix["frozen_weights_16bit"].get<bool>();
    // Stack switches: the stack's own switch for the mechanism (stack_switch_line offers only those it has).
    if (fix.value("fused_loss", false) && s.loss_kernel() != engine::LossKernel::kFused) s.liger_kernel = true;
    if (fix.value("offload_activations", false) && !s.offload_activations_effective()) {
        s.offload_activations = true;
        s.offload_activations_set = true;
    }
    if (fix.contains("seq_len") && fix["seq_len"].is_number() && !s.model.is_vision) num("seq_len", s.seq_len);
    if (fix.contains("image_size") && fix["image_size"].is_number() && s.model.is_vision) num("image_size", s.image_size);
    app.invalid_inputs.clear();
    app.scenario_dirty = true;
}

}  // namespace

namespace {

// One fix's changes (each with its accuracy risk and the stack's line) and what it then needs.
void draw_fix_changes(const nlohmann::json& fix, Lang L) {
    for (const auto& change : fix.value("changes", nlohmann::json::array())) {
        const std::string risk = change.value("accuracy_risk", "none");
        const Str risk_label = risk == "none" ? Str::RiskNone : risk == "small" ? Str::RiskSmall : Str::RiskTask;
        ImGui::Bullet();
        // Changes with a number say it (their strings take it as %d): "over 4 cards", "512 tokens", "384 px".
        const Str label = change_label(change.value("change", ""));
        std::string what = tr(label, L);
        if (label == Str::ChangeMoreCards || label == Str::ChangeShorterSequence || label == Str::ChangeSmallerImage) {
            char buf[256];
            std::snprintf(buf, sizeof buf, tr(label, L), int(json_number(change, "value", 0)));
            what = buf;
        }
        wrapped_textf("%s (%s)", what.c_str(), tr(risk_label, L));
        if (change.contains("stack_line") && change["stack_line"].is_string()) {
            ImGui::Indent();
            hint_textf(tr(Str::StackLine, L), change["stack_line"].get<std::string>().c_str());
            ImGui::Unindent();
        }
    }
    const std::string need = format_gib(json_number(fix, "peak_bytes_per_card", 0), L);
    const std::string usable = format_gib(json_number(fix, "usable_bytes_per_card", 0), L);
    const double ratio = json_number(fix, "time_ratio", -1);  // null when the card has no time estimate
    if (ratio > 0 && std::fabs(ratio - 1.0) < 0.05)  // "takes 1x the time" reads oddly
        wrapped_textf(tr(Str::AdviceResultSameTime, L), need.c_str(), usable.c_str());
    else if (ratio > 0)
        wrapped_textf(tr(Str::AdviceResult, L), need.c_str(), usable.c_str(),
                      (format_significant(ratio, 2) + "x").c_str());
    else
        wrapped_textf(tr(Str::AdviceResultNoTime, L), need.c_str(), usable.c_str());
    if (json_text(fix, "verdict") == "tight") {  // the planner's layout into the headroom (docs/decisions.md)
        ImGui::PushStyleColor(ImGuiCol_Text, kTightColor);
        wrapped_text(tr(Str::AdviceTight, L));
        ImGui::PopStyleColor();
    }
}

// "Apply: uses N cards", then the question before the count changes (issue 40: someone who owns one card must not
// find four in the inputs after one click).
void draw_count_changing_apply(AppState& app, const nlohmann::json& fix, int own_cards, int fix_cards) {
    const Lang L = app.lang;
    char buf[256];
    if (app.fix_confirm_cards != fix_cards) {
        std::snprintf(buf, sizeof buf, tr(Str::ApplyFixCards, L), fix_cards);
        if (ImGui::Button(stable_label(buf, "apply-fix-cards").c_str())) app.fix_confirm_cards = fix_cards;
        test_anchor(app, "apply-fix-cards");
        return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, kTightColor);
    wrapped_textf(tr(Str::ApplyFixCardsAsk, L), own_cards, fix_cards);
    ImGui::PopStyleColor();
    test_anchor(app, "apply-fix-cards-ask");
    std::snprintf(buf, sizeof buf, tr(Str::ApplyFixCardsYes, L), fix_cards);
    if (ImGui::Button(stable_label(buf, "apply-fix-cards-yes").c_str())) {
        app.fix_confirm_cards = 0;
        apply_fix(app, fix);
    }
    test_anchor(app, "apply-fix-cards-yes");
    ImGui::SameLine();
    if (ImGui::Button(stable_label(tr(Str::ImportCancel, L), "apply-fix-cards-cancel").c_str())) app.fix_confirm_cards = 0;
    test_anchor(app, "apply-fix-cards-cancel");
}

}  // namespace

// The advisor's fixes for the scenario's card: one that keeps the user's card count first (the advisor's own best,
// or its best on that count when the best adds cards), then one that adds cards, labelled with its count and asked.
void draw_advice(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    if (!r.advice.is_object()) return;
    const std::string status = r.advice.value("status", "");
    if (status == "works_as_is") return;  // the verdict already says it fits
    section_heading(app, tr(Str::AdviceTitle, L));
    if (status != "fixed" || !r.advice.contains("fix") || !r.advice["fix"].is_object()) {
        wrapped_text(tr(Str::AdviceNone, L));
        return;
    }
    const nlohmann::json& fix = r.advice["fix"];
    const int own_cards = r.scenario.scenario.gpu_count;
    const int fix_cards = int(json_number(fix, "gpu_count", own_cards));
    if (fix_cards == own_cards) {
        draw_fix_changes(fix, L);
        if (ImGui::Button(stable_label(tr(Str::ApplyFix, L), "apply-fix").c_str())) apply_fix(app, fix);
        test_anchor(app, "apply-fix");
        return;
    }
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* gpu = cat.find_gpu(r.scenario.scenario.gpu_id);
    const std::string own = cards_label(own_cards, gpu ? gpu->name : r.scenario.scenario.gpu_id, L);
    const nlohmann::json* same = r.advice.contains("fix_same_count") && r.advice["fix_same_count"].is_object()
                                     ? &r.advice["fix_same_count"]
                                     : nullptr;
    if (same != nullptr) {
        wrapped_textf(tr(Str::AdviceOnYourCards, L), own.c_str());
        test_anchor(app, "advice-same-count");
        draw_fix_changes(*same, L);
        if (ImGui::Button(stable_label(tr(Str::ApplyFix, L), "apply-fix").c_str())) apply_fix(app, *same);
        test_anchor(app, "apply-fix");
    } else {
        wrapped_textf(tr(Str::AdviceNoSameCount, L), own.c_str());
        test_anchor(app, "advice-same-count-none");
    }
    ImGui::Spacing();
    wrapped_textf(tr(Str::AdviceMoreCards, L), fix_cards);
    test_anchor(app, "advice-more-cards");
    draw_fix_changes(fix, L);
    draw_count_changing_apply(app, fix, own_cards, fix_cards);
}

// The config to paste into the scenario's stack (catalog::stack_config), read-only and selectable (Ctrl+C copies a
// selection), with a Copy button for all of it.
void draw_stack_config(AppState& app) {
    const Results& r = app.results;
    if (r.stack_config.empty()) return;
    const Lang L = app.lang;
    const std::string& stack = r.scenario.scenario.stack;
    const char* name = tr(stack == "llama-factory" ? Str::StackLlamaFactory
                          : stack == "torchtune"   ? Str::StackTorchtune
                          : stack == "unsloth"     ? Str::StackUnsloth
                          : stack == "axolotl"     ? Str::StackAxolotl
                                                   : Str::StackHf,
                          L);
    char title[256];
    std::snprintf(title, sizeof title, tr(Str::StackConfigTitle, L), name);
    const bool open = ImGui::TreeNode(stable_label(title, "stack-config").c_str());
    test_anchor(app, "stack-config");  // its title, open or not (the tests open it)
    if (!open) return;
    hint_text(tr(Str::StackConfigTip, L));
    if (copy_button(app, tr(Str::Copy, L), "copy-config", false)) app.clipboard_text = r.stack_config;
    copy_feedback(app, {"copy-config"});
    int lines = 1;
    for (char ch : r.stack_config) lines += ch == '\n';
    const float h = (float(std::min(lines, 24)) + 1.0f) * ImGui::GetTextLineHeight();
    // ReadOnly: ImGui never writes into the buffer, so the results' string is shown as it is.
    ImGui::InputTextMultiline("##stack_config", const_cast<char*>(r.stack_config.c_str()), r.stack_config.size() + 1,
                              ImVec2(-FLT_MIN, h), ImGuiInputTextFlags_ReadOnly);
    ImGui::TreePop();
}

}  // namespace gg::ui
