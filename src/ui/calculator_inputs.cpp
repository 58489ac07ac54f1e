// The calculator's inputs ("describe the job"): the choices each list offers, the card, the decision keys (budget,
// deadline, ownership) and the four steps (model, data, training, hardware), one function per group of fields.
// Writes AppState::scenario; draws no result. The model box and its editors are model_inputs.cpp's.
// Sections: choices | card | decision | steps.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/gan_models.h"
#include "catalog/json_text.h"
#include "catalog/model_defaults.h"
#include "catalog/time_data.h"
#include "engine/workload.h"
#include "ui/app.h"
#include "ui/gan_panel.h"
#include "ui/calculator_panels.h"
#include "ui/format.h"
#include "ui/loader_panel.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

// ---- choices: scenario values and their display strings ----------------------------------------------------
const std::vector<Choice> kPrecisionChoices = {
    {"fp32", Str::PrecFp32}, {"tf32", Str::PrecTf32}, {"fp16-amp", Str::PrecFp16Amp}, {"bf16-amp", Str::PrecBf16Amp},
    {"bf16", Str::PrecBf16}, {"fp8", Str::PrecFp8},   {"int8", Str::PrecInt8},         {"nf4", Str::PrecNf4}};
const std::vector<Choice> kOptimizerChoices = {
    {"sgd", Str::OptSgd},     {"sgd-momentum", Str::OptSgdMomentum}, {"adam", Str::OptAdam},
    {"adamw", Str::OptAdamW}, {"adamw-8bit", Str::OptAdamW8bit},     {"adafactor", Str::OptAdafactor},
    {"lion", Str::OptLion}};
const std::vector<Choice> kOptimizerImplChoices = {
    {"foreach", Str::ImplForeach}, {"for-loop", Str::ImplForLoop}, {"fused", Str::ImplFused}};
const std::vector<Choice> kMethodChoices = {{"full", Str::MethodFull},
                                            {"frozen-backbone", Str::MethodFrozen},
                                            {"lora", Str::MethodLora},
                                            {"qlora", Str::MethodQlora}};
const std::vector<Choice> kCheckpointingChoices = {
    {"none", Str::CkptNone}, {"selective", Str::CkptSelective}, {"full", Str::CkptFull}};
const std::vector<Choice> kAttentionChoices = {
    {"eager", Str::AttnEager}, {"sdpa", Str::AttnSdpa}, {"flash", Str::AttnFlash}};
const std::vector<Choice> kStackChoices = {{"hf-trainer", Str::StackHf},       {"llama-factory", Str::StackLlamaFactory},
                                           {"unsloth", Str::StackUnsloth},     {"torchtune", Str::StackTorchtune},
                                           {"axolotl", Str::StackAxolotl}};
const std::vector<Choice> kDisplayChoices = {{"auto", Str::DisplayAuto},
                                             {"none", Str::DisplayNone},
                                             {"linux-desktop", Str::DisplayLinux},
                                             {"windows-desktop", Str::DisplayWindows}};
const std::vector<Choice> kMemoryFormatChoices = {{"nchw", Str::MemNchw}, {"channels_last", Str::MemChannelsLast}};
const std::vector<Choice> kStrategyChoices = {{"ddp", Str::StratDdp},     {"zero1", Str::StratZero1},
                                              {"zero2", Str::StratZero2}, {"zero3", Str::StratZero3},
                                              {"fsdp", Str::StratFsdp},   {"dp", Str::StratDp}};

Str segment_label(const std::string& segment) {
    if (segment == "consumer") return Str::SegConsumer;
    if (segment == "workstation") return Str::SegWorkstation;
    return Str::SegDatacenter;
}

}  // namespace

// A different card: its own interconnect and peer-to-peer defaults apply again.
void select_gpu(catalog::Scenario& s, const std::string& gpu_id) {
    s.gpu_id = gpu_id;
    s.interconnect.clear();
    s.peer_to_peer_set = false;
    s.peer_to_peer = true;
    s.ecc = engine::EccSetting::kDefault;
}

namespace {

// ---- card -------------------------------------------------------------------------------------------------------
bool gpu_combo(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* current = cat.find_gpu(s.gpu_id);
    std::string preview = current ? current->name + "  " + format_gib(current->memory_bytes, app.lang)
                                   : std::string(tr(Str::GpuNone, app.lang));
    bool changed = false;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##gpu", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        for (const char* segment : {"consumer", "workstation", "datacenter"}) {
            ImGui::TextDisabled("%s", tr(segment_label(segment), app.lang));
            for (const engine::GpuSpec& g : cat.gpus) {
                if (g.segment != segment) continue;
                const bool selected = g.id == s.gpu_id;
                const std::string label = g.name + "  ·  " + format_gib(g.memory_bytes, app.lang) + "##" + g.id;
                ImGui::Indent();
                if (ImGui::Selectable(label.c_str(), selected) && !selected) {
                    select_gpu(s, g.id);
                    changed = true;
                }
                ImGui::Unindent();
                if (selected) ImGui::SetItemDefaultFocus();
            }
        }
        ImGui::EndCombo();
    }
    return changed;
}

// "" = the card's default (the scenario leaves the key out).
const std::vector<Choice> kInterconnectChoices = {
    {"", Str::LinkDefault},  {"pcie3", Str::LinkPcie3}, {"pcie4", Str::LinkPcie4},       {"pcie5", Str::LinkPcie5},
    {"nvlink-bridge", Str::LinkNvlinkBridge}, {"nvlink", Str::LinkNvlink}, {"ib", Str::LinkIb}, {"ethernet", Str::LinkEthernet}};
// The inter-node rows of data/interconnects.json ("" = the default of the link's kind); a test checks that the list
// names every row (catalog::network_ids()).
const std::vector<Choice> kNetworkChoices = {
    {"", Str::NetDefault},          {"ib-hdr", Str::NetIbHdr},          {"ib-ndr", Str::NetIbNdr},
    {"roce-200g", Str::NetRoce200}, {"roce-800g", Str::NetRoce800},     {"efa-400g", Str::NetEfa400},
    {"efa-3200g", Str::NetEfa3200}, {"ethernet-100g", Str::NetEth100}, {"ethernet-25g", Str::NetEth25},
    {"ethernet-10g", Str::NetEth10}};
const std::vector<Choice> kPeerToPeerChoices = {{"", Str::LinkDefault}, {"on", Str::P2pOn}, {"off", Str::P2pOff}};
const std::vector<Choice> kEccChoices = {{"", Str::EccDefault}, {"on", Str::P2pOn}, {"off", Str::EccOff}};
const std::vector<Choice> kGradReduceChoices = {
    {"", Str::GradReduceOwn}, {"fp32", Str::GradReduceFp32}, {"fp16", Str::GradReduceFp16}, {"bf16", Str::GradReduceBf16}};

// ---- decision ---------------------------------------------------------------------------------------------------
const std::vector<Choice> kOwnershipChoices = {{"both", Str::OwnBoth}, {"rent", Str::OwnRent}, {"buy", Str::OwnBuy}};
const std::vector<Choice> kRegionChoices = {
    {"", Str::RegionNotSaid}, {"mainland_china", Str::RegionMainland}, {"elsewhere", Str::RegionElsewhere}};

// "Where are you?", asked once at the top of the inputs until answered (issue 40). The page's language is no answer:
// Chinese readers live in Taiwan, Hong Kong, Singapore and abroad, English ones in Beijing. The answer is the reader's
// (app.user_region): saved in the browser, changed later under "Rent or buy", never carried by a link.
void draw_region_question(AppState& app) {
    if (!app.user_region.empty()) return;
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImGui::GetStyleColorVec4(ImGuiCol_FrameBg));
    // The child's content width (its border and padding taken off), and the lines wrapped_text will draw in it.
    const float wrap_w = ImGui::GetContentRegionAvail().x - 2.0f * ImGui::GetStyle().WindowPadding.x -
                         2.0f * ImGui::GetStyle().ChildBorderSize;
    // (wrapped_text sets its lines a line height apart, then one item spacing)
    const float text_h = static_cast<float>(wrap_lines(ImGui::GetFont(), em, tr(Str::RegionQuestion, L), wrap_w).size()) *
                             ImGui::GetTextLineHeight() + ImGui::GetStyle().ItemSpacing.y;
    const float button_h = ImGui::GetFrameHeight();
    // Room for the question and the two buttons (side by side, or one under the other when narrow).
    const float both_w = ImGui::CalcTextSize(tr(Str::RegionMainland, L)).x + ImGui::CalcTextSize(tr(Str::RegionElsewhere, L)).x +
                         4.0f * ImGui::GetStyle().FramePadding.x + 2.0f * ImGui::GetStyle().ItemSpacing.x;
    const bool stacked = both_w > wrap_w;
    // The text, the buttons, the child's padding above and below.
    const float h = text_h + (stacked ? 2.0f * button_h + ImGui::GetStyle().ItemSpacing.y : button_h) +
                    2.0f * ImGui::GetStyle().WindowPadding.y + 0.25f * em;
    ImGui::BeginChild("##region-question", ImVec2(0, h), true, ImGuiWindowFlags_NoScrollbar);
    wrapped_text(tr(Str::RegionQuestion, L));
    if (ImGui::Button(stable_label(tr(Str::RegionMainland, L), "region-mainland").c_str())) {
        app.user_region = "mainland_china";
        app.scenario_dirty = true;
    }
    test_anchor(app, "region-mainland");
    if (!stacked) ImGui::SameLine();
    if (ImGui::Button(stable_label(tr(Str::RegionElsewhere, L), "region-elsewhere").c_str())) {
        app.user_region = "elsewhere";
        app.scenario_dirty = true;
    }
    test_anchor(app, "region-elsewhere");
    ImGui::EndChild();
    ImGui::PopStyleColor();
}

// Budget, deadline and ownership live in the decision keys of the scenario (catalog/decision_json.h).
bool draw_decision_inputs(AppState& app) {
    const Lang L = app.lang;
    nlohmann::json& d = app.decision;
    bool changed = false;
    std::string ownership = d.value("ownership", std::string("both"));
    field_label(tr(Str::Ownership, L), tr(Str::OwnershipTip, L));
    if (choice_combo("##ownership", ownership, kOwnershipChoices, L)) {
        d["ownership"] = ownership;
        changed = true;
    }
    std::string region = app.user_region;
    field_label(tr(Str::RegionLabel, L), tr(Str::RegionTip, L));
    if (choice_combo("##user-region", region, kRegionChoices, L)) {
        app.user_region = region;
        changed = true;
    }
    test_anchor(app, "user-region");
    std::string currency = d.value("currency", std::string("CNY"));
    field_label(tr(Str::Currency, L), tr(Str::CurrencyTip, L));
    if (choice_combo("##currency", currency, {{"CNY", Str::CurCny}, {"USD", Str::CurUsd}}, L)) {
        d["currency"] = currency;
        if (d.contains("budget")) d["budget"]["currency"] = currency;
        changed = true;
    }
    double budget = d.contains("budget") ? d["budget"].value("amount", 0.0) : 0.0;
    field_label(tr(Str::Budget, L), tr(Str::BudgetTip, L));
    if (double_field(app, "##budget", budget, 0, 1e9, 1000, currency_unit(currency, L).c_str(), "%.0f")) {
        if (budget > 0) d["budget"] = {{"amount", budget}, {"currency", currency}};
        else d.erase("budget");
        changed = true;
    }
    double deadline = d.value("deadline_h", 0.0);
    field_label(tr(Str::Deadline, L), tr(Str::DeadlineTip, L));
    if (double_field(app, "##deadline", deadline, 0, 1e6, 1, tr(Str::UnitHours, L), "%.4g")) {
        if (deadline > 0) d["deadline_h"] = deadline;
        else d.erase("deadline_h");
        changed = true;
    }
    // Off (the default): the advice keeps what is learned wherever a change that does so works (planner.h).
    bool allow = d.value("allow_result_changes", false);
    if (ImGui::Checkbox(stable_label(tr(Str::AllowResultChanges, L), "allow-result-changes").c_str(), &allow)) {
        if (allow) d["allow_result_changes"] = true;
        else d.erase("allow_result_changes");
        changed = true;
    }
    test_anchor(app, "allow-result-changes");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        wrapped_text(tr(Str::AllowResultChangesTip, L));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    return changed;
}

// ---- steps: the four groups of inputs, in the order drawn -----------------------------------------------------
// Each draws its fields and returns whether one changed (a field is drawn whether or not an earlier one changed).

// "Start over" at the right end of the first heading's line: the example's inputs again, with Undo.
void draw_start_over(AppState& app) {
    const Lang L = app.lang;
    const char* label = tr(Str::StartOver, L);
    const float w = ImGui::CalcTextSize(label).x + 2.0f * ImGui::GetStyle().FramePadding.x;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX(), ImGui::GetContentRegionMax().x - w));
    if (ImGui::SmallButton(stable_label(label, "start-over").c_str())) app_start_over(app);
    test_anchor(app, "start-over");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(tooltip_wrap(22.0f));
        wrapped_text(tr(Str::StartOverTip, L));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

// After a switch of model: the new model's usual batch, precision and checkpointing (catalog::switch_model).
void draw_model_defaults_note(AppState& app) {
    const catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    const Choice* precision = nullptr;
    for (const Choice& c : kPrecisionChoices)
        if (c.value == s.precision) precision = &c;
    const Choice* checkpointing = nullptr;
    for (const Choice& c : kCheckpointingChoices)
        if (c.value == s.checkpointing) checkpointing = &c;
    hint_textf(tr(Str::ModelDefaultsNote, L), s.batch_size, precision ? tr(precision->label, L) : s.precision.c_str(),
               checkpointing ? tr(checkpointing->label, L) : s.checkpointing.c_str());
    test_anchor(app, "model-defaults-note");
}

// The size of one sample: the image size of a vision model, the sequence length of the others.
bool draw_sample_size(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    if (s.model.is_vision) {
        int image = s.image_size > 0 ? s.image_size : s.model.default_image_size;
        field_label(tr(Str::ImageSize, L), tr(Str::ImageSizeTip, L));
        if (int_field(app, "##image_size", image, 32, 4096, tr(Str::UnitPixels, L))) {
            s.image_size = image;
            changed = true;
        }
    } else {
        int seq = s.seq_len > 0 ? s.seq_len : s.model.default_seq_len;
        field_label(tr(Str::SeqLen, L), tr(Str::SeqLenTip, L));
        if (int_field(app, "##seq_len", seq, 1, 1 << 20, tr(Str::UnitTokens, L))) {
            s.seq_len = seq;
            changed = true;
        }
    }
    return changed;
}

// Step 2: how much data, and how fast it is read.
bool draw_data_step(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    section_heading(app, tr(Str::StepData, L));
    if (s.model.is_vision && s.dataset_tokens > 0) {  // a token budget left from a language model: images count samples
        s.dataset_tokens = 0;
        changed = true;
    }
    if (s.dataset_tokens > 0) {  // a token budget (language models), as the scenario gave it
        field_label(tr(Str::Tokens, L), tr(Str::TokensTip, L));
        changed |= double_field(app, "##tokens", s.dataset_tokens, 1, 1e15, 0, tr(Str::UnitTokens, L), "%.4g");
    } else {
        field_label(tr(Str::Samples, L), tr(Str::SamplesTip, L));
        changed |= double_field(app, "##samples", s.dataset_samples, 0, 1e12, 0, tr(Str::UnitSamples, L), "%.0f");
        field_label(tr(Str::Epochs, L), tr(Str::EpochsTip, L));
        changed |= double_field(app, "##epochs", s.dataset_epochs, 0, 1e4, 1, "", "%.4g");
    }
    field_label(tr(Str::Loader, L), tr(Str::LoaderTip, L));
    changed |= double_field(app, "##loader", s.loader_samples_per_s, 0, 1e9, 0, tr(Str::UnitSamplesPerS, L), "%.4g");
    changed |= loader_inputs(app, s, L);  // ui/loader_panel.cpp: pipeline, workers, CPU threads
    return changed;
}

// Step 3's first fields: the batch, the precision, the optimizer and the fine-tuning method (LoRA's rank with it).
bool draw_batch_precision_method(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    // Under tensor/pipeline parallelism the GPUs of one model copy share each micro-batch.
    const bool per_copy = s.model_copy_gpus() > 1;
    field_label(tr(per_copy ? Str::BatchSizeCopy : Str::BatchSize, L), tr(Str::BatchSizeTip, L));
    changed |= int_field(app, "##batch", s.batch_size, 1, 1 << 20, "");
    field_label(tr(Str::GradAccum, L), tr(Str::GradAccumTip, L));
    changed |= int_field(app, "##accum", s.grad_accum_steps, 1, 1 << 16, "");
    field_label(tr(Str::Precision, L), tr(Str::PrecisionTip, L));
    if (choice_combo("##precision", s.precision, kPrecisionChoices, L)) {
        // 4-bit weights only make sense with QLoRA, and QLoRA needs them: keep the pair consistent.
        if (s.precision == "nf4") s.method = "qlora";
        else if (s.method == "qlora") s.method = "lora";
        if ((s.precision == "int8") && s.method == "full") s.method = "lora";
        changed = true;
    }
    field_label(tr(Str::Optimizer, L), tr(Str::OptimizerTip, L));
    changed |= choice_combo("##optimizer", s.optimizer, kOptimizerChoices, L);
    field_label(tr(Str::OptimizerImpl, L), tr(Str::OptimizerImplTip, L));
    changed |= choice_combo("##optimizer_impl", s.optimizer_impl, kOptimizerImplChoices, L);
    field_label(tr(Str::Method, L), tr(Str::MethodTip, L));
    if (choice_combo("##method", s.method, kMethodChoices, L)) {
        if (s.method == "qlora") s.precision = "nf4";
        else if (s.precision == "nf4") s.precision = "bf16-amp";
        if (s.method == "full" && s.precision == "int8") s.precision = "bf16-amp";
        changed = true;
    }
    if (s.method == "lora" || s.method == "qlora") {
        field_label(tr(Str::LoraRank, L), tr(Str::LoraRankTip, L));
        changed |= int_field(app, "##lora_rank", s.lora_rank, 1, 4096, "");
    }
    return changed;
}

// The two switches whose defaults depend on the model, the method and the precision: a click on either sets it, and
// it must not be put back to its default in the same frame (draw_inputs).
struct DefaultedClicks {
    bool frozen = false;
    bool latents = false;
};

// Step 3's memory switches: frozen weights in 16 bits, checkpointing, the EMA, precomputed latents.
bool draw_memory_switches(AppState& app, DefaultedClicks& clicks) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    if (s.frozen_weights_16bit_applies()) {
        field_label(tr(Str::FrozenWeights16bit, L), tr(Str::FrozenWeights16bitTip, L));
        clicks.frozen = ImGui::Checkbox("##frozen_weights_16bit", &s.frozen_weights_16bit);
        changed |= clicks.frozen;
        test_anchor(app, "frozen-weights-16bit");
    }
    field_label(tr(Str::Checkpointing, L), tr(Str::CheckpointingTip, L));
    changed |= choice_combo("##checkpointing", s.checkpointing, kCheckpointingChoices, L);
    field_label(tr(Str::Ema, L), tr(Str::EmaTip, L));
    changed |= ImGui::Checkbox("##ema", &s.ema);
    if (engine::has_input_encoders(s.model)) {
        field_label(tr(Str::PrecomputedLatents, L), tr(Str::PrecomputedLatentsTip, L));
        clicks.latents = ImGui::Checkbox("##precomputed_latents", &s.precomputed_latents);
        changed |= clicks.latents;
        test_anchor(app, "precomputed-latents");
    }
    return changed;
}

// The fine-tuning stack and its help (which stack to pick, issue 40).
bool draw_stack_choice(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    // The fine-tuning stack and the switches it exposes (catalog::Scenario::loss_kernel and friends); a switch
    // another stack does not have is cleared when the stack changes, so the scenario stays valid.
    field_label(tr(Str::Stack, L), tr(Str::StackTip, L));
    if (choice_combo("##stack", s.stack, kStackChoices, L)) {
        changed = true;
        if (s.stack != "hf-trainer" && s.stack != "llama-factory" && s.stack != "axolotl") s.liger_kernel = false;
        if (s.stack != "llama-factory") s.use_unsloth = false;
        if (s.stack != "unsloth" && s.stack != "torchtune" && s.stack != "axolotl") s.offload_activations_set = false;
    }
    test_anchor(app, "stack");
    // Which stack to pick (issue 40), each in a line with the sources below.
    if (ImGui::TreeNode(stable_label(tr(Str::StackHelpTitle, L), "stack-help").c_str())) {
        test_anchor(app, "stack-help");
        for (Str line : {Str::StackHelpHf, Str::StackHelpLlamaFactory, Str::StackHelpUnsloth, Str::StackHelpAxolotl,
                         Str::StackHelpTorchtune}) {
            ImGui::Bullet();
            wrapped_text(tr(line, L));
        }
        hint_text(tr(Str::StackHelpSources, L));
        ImGui::TreePop();
    } else {
        test_anchor(app, "stack-help");
    }
    return changed;
}

// The switches of the chosen stack: Liger's kernels, Unsloth under LLaMA-Factory, activation offloading.
bool draw_stack_switches(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    if (s.stack == "hf-trainer" || s.stack == "llama-factory" || s.stack == "axolotl") {
        field_label(tr(Str::LigerKernel, L), tr(Str::LigerKernelTip, L));
        changed |= ImGui::Checkbox("##liger_kernel", &s.liger_kernel);
    }
    if (s.stack == "llama-factory") {
        field_label(tr(Str::UseUnsloth, L), tr(Str::UseUnslothTip, L));
        changed |= ImGui::Checkbox("##use_unsloth", &s.use_unsloth);
    }
    if ((s.stack == "unsloth" || s.stack == "torchtune" || s.stack == "axolotl") && s.checkpointing == "full") {
        field_label(tr(Str::OffloadActivations, L), tr(Str::OffloadActivationsTip, L));
        bool offload = s.offload_activations_effective();
        if (ImGui::Checkbox("##offload_activations", &offload)) {
            s.offload_activations = offload;
            s.offload_activations_set = true;
            changed = true;
        }
    }
    return changed;
}

// Step 3's last fields for a language model: attention, the stack, packing and the evaluation batch.
bool draw_language_inputs(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    field_label(tr(Str::Attention, L), tr(Str::AttentionTip, L));
    changed |= choice_combo("##attention", s.attention, kAttentionChoices, L);
    changed |= draw_stack_choice(app);
    changed |= draw_stack_switches(app);
    field_label(tr(Str::Packing, L), tr(Str::PackingTip, L));
    changed |= ImGui::Checkbox("##packing", &s.packing);
    if (!s.packing) {
        field_label(tr(Str::LongestSample, L), tr(Str::LongestSampleTip, L));
        changed |= int_field(app, "##longest_seq_len", s.longest_seq_len, 0, 1 << 21, "");
    }
    field_label(tr(Str::EvalBatch, L), tr(Str::EvalBatchTip, L));
    changed |= int_field(app, "##eval_batch_size", s.eval_batch_size, 0, 1 << 20, "");
    return changed;
}

// Step 3: how the model is trained.
bool draw_training_step(AppState& app, DefaultedClicks& clicks) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    section_heading(app, tr(Str::StepTraining, L));
    changed |= draw_batch_precision_method(app);
    changed |= draw_memory_switches(app, clicks);
    if (!s.model.is_vision) {
        changed |= draw_language_inputs(app);
    } else {
        field_label(tr(Str::MemoryFormat, L), tr(Str::MemoryFormatTip, L));
        changed |= choice_combo("##memory_format", s.memory_format, kMemoryFormatChoices, L);
    }
    return changed;
}

// ECC on the user's own card, where it takes memory (GDDR cards with ECC: engine/card_memory.h).
bool draw_ecc(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    const engine::GpuSpec* card = app.catalog().find_gpu(s.gpu_id);
    if (card == nullptr || !engine::ecc_in_band(*card)) return false;
    field_label(tr(Str::Ecc, L), tr(Str::EccTip, L));
    std::string ecc = s.ecc == engine::EccSetting::kOn ? "on" : s.ecc == engine::EccSetting::kOff ? "off" : "";
    if (!choice_combo("##ecc", ecc, kEccChoices, L)) return false;
    s.ecc = ecc == "on" ? engine::EccSetting::kOn : ecc == "off" ? engine::EccSetting::kOff : engine::EccSetting::kDefault;
    return true;
}

// More than one card: the link between them, the network between servers, peer-to-peer and the gradients' type.
bool draw_multi_gpu_links(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    field_label(tr(Str::Interconnect, L), tr(Str::InterconnectTip, L));
    // NVLink is offered only for cards that have it (the scenario refuses it otherwise).
    std::vector<Choice> links = kInterconnectChoices;
    if (const engine::GpuSpec* card = app.catalog().find_gpu(s.gpu_id))
        links.erase(std::remove_if(links.begin(), links.end(),
                                   [&](const Choice& c) { return !catalog::interconnect_possible(*card, c.value); }),
                    links.end());
    if (choice_combo("##interconnect", s.interconnect, links, L)) {
        catalog::align_network(s, catalog::NetworkEdit::kLinkChanged);
        changed = true;
    }
    const bool across_servers = s.gpu_count > catalog::embedded_time_data().comm.gpus_per_node ||
                                s.interconnect == "ib" || s.interconnect == "ethernet" || !s.network.empty();
    if (across_servers) {
        field_label(tr(Str::Network, L), tr(Str::NetworkTip, L));
        if (choice_combo("##network", s.network, kNetworkChoices, L)) {
            catalog::align_network(s, catalog::NetworkEdit::kNetworkChanged);
            changed = true;
        }
    }
    field_label(tr(Str::PeerToPeer, L), tr(Str::PeerToPeerTip, L));
    std::string p2p = !s.peer_to_peer_set ? "" : s.peer_to_peer ? "on" : "off";
    if (choice_combo("##p2p", p2p, kPeerToPeerChoices, L)) {
        s.peer_to_peer_set = !p2p.empty();
        s.peer_to_peer = p2p != "off";
        changed = true;
    }
    field_label(tr(Str::GradReduce, L), tr(Str::GradReduceTip, L));
    changed |= choice_combo("##grad_reduce", s.grad_reduce_dtype, kGradReduceChoices, L);
    return changed;
}

// Megatron-LM's model parallelism, for transformers (scenario.cpp checks the divisibility rules and names the
// field when they fail; the values stay as typed).
bool draw_model_parallel(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    const bool transformer = engine::is_transformer(s.model.family);
    const bool model_parallel = s.model_copy_gpus() > 1 || s.sequence_parallel ||
                                s.pipeline_interleave > 1;  // a leftover value keeps its field (and its error) visible
    if (!((s.gpu_count > 1 && transformer) || model_parallel)) return false;
    field_label(tr(Str::TensorParallel, L), tr(Str::TensorParallelTip, L));
    changed |= int_field(app, "##tensor_parallel", s.tensor_parallel, 1, 1024, tr(Str::UnitCards, L));
    if (s.tensor_parallel > 1 || s.sequence_parallel) {
        field_label(tr(Str::SequenceParallel, L), tr(Str::SequenceParallelTip, L));
        changed |= ImGui::Checkbox("##sequence_parallel", &s.sequence_parallel);
    }
    field_label(tr(Str::PipelineParallel, L), tr(Str::PipelineParallelTip, L));
    changed |= int_field(app, "##pipeline_parallel", s.pipeline_parallel, 1, 1024, "");
    if (s.pipeline_parallel > 1 || s.pipeline_interleave > 1) {
        field_label(tr(Str::PipelineInterleave, L), tr(Str::PipelineInterleaveTip, L));
        changed |= int_field(app, "##pipeline_interleave", s.pipeline_interleave, 1, 64, "");
    }
    return changed;
}

// Step 4: the card, how many, and how they work together; the memory kept in reserve.
bool draw_hardware_step(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    section_heading(app, tr(Str::StepHardware, L));
    field_label(tr(Str::Gpu, L), tr(Str::GpuTip, L));
    changed |= gpu_combo(app);
    changed |= draw_ecc(app);
    field_label(tr(Str::Display, L), tr(Str::DisplayTip, L));
    changed |= choice_combo("##display", s.display, kDisplayChoices, L);
    field_label(tr(Str::GpuCount, L), tr(Str::GpuCountTip, L));
    changed |= int_field(app, "##gpu_count", s.gpu_count, 1, 1024, tr(Str::UnitCards, L));
    // The strategy and the optimizer offload change the answer on one card too (DeepSpeed converts the model to 16
    // bit; the offloaded states leave the card): shown whenever they are set, so no hidden value decides the verdict.
    if (s.gpu_count > 1 || s.strategy != "ddp") {
        field_label(tr(Str::Strategy, L), tr(Str::StrategyTip, L));
        changed |= choice_combo("##strategy", s.strategy, kStrategyChoices, L);
        test_anchor(app, "strategy");
    }
    if (s.offload_optimizer || s.strategy.rfind("zero", 0) == 0) {
        field_label(tr(Str::OffloadOptimizer, L), tr(Str::OffloadOptimizerTip, L));
        changed |= ImGui::Checkbox("##offload_optimizer", &s.offload_optimizer);
        test_anchor(app, "offload-optimizer");
    }
    if (s.gpu_count > 1) changed |= draw_multi_gpu_links(app);
    changed |= draw_model_parallel(app);
    field_label(tr(Str::Reserve, L), tr(Str::ReserveTip, L));
    double reserve_percent = s.reserve_fraction * 100.0;
    if (double_field(app, "##reserve", reserve_percent, 0, 90, 5, tr(Str::UnitPercent, L), "%.0f")) {
        s.reserve_fraction = reserve_percent / 100.0;
        changed = true;
    }
    return changed;
}

}  // namespace

void draw_inputs(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    // "Latents precomputed" and "Frozen weights in 16 bits" follow their defaults (which depend on the model, the
    // method and the precision) unless the user set them.
    const bool latents_default = s.precomputed_latents == s.precomputed_latents_default();
    const bool frozen_default = s.frozen_weights_16bit == s.frozen_weights_16bit_default();

    draw_region_question(app);
    section_heading(app, tr(Str::StepModel, L));
    test_anchor(app, "inputs");  // the first of the inputs (the phone tests want the verdict above it)
    draw_start_over(app);
    field_label(tr(Str::Model, L), tr(Str::ModelTip, L));
    const bool model_changed = model_combo(app);
    test_anchor(app, "model");
    changed |= model_changed;
    if (gan_active(app)) {  // a GAN: only the inputs that apply to it (gan_panel.cpp)
        if (draw_gan_inputs(app) || changed) app.scenario_dirty = true;
        return;
    }
    if (app.model_defaults_note) draw_model_defaults_note(app);
    draw_custom_model(app);
    draw_hf_config_paste(app);
    draw_training_config_paste(app);
    changed |= draw_sample_size(app);
    changed |= draw_data_step(app);
    DefaultedClicks clicks;
    changed |= draw_training_step(app, clicks);
    changed |= draw_hardware_step(app);
    changed |= draw_decision_inputs(app);
    if (changed && latents_default && !clicks.latents) s.precomputed_latents = s.precomputed_latents_default();
    if (changed && frozen_default && !clicks.frozen) s.frozen_weights_16bit = s.frozen_weights_16bit_default();
    if (!s.frozen_weights_16bit_applies()) s.frozen_weights_16bit = false;  // never left set where it cannot apply
    if (changed) app.scenario_dirty = true;
    if (changed && !model_changed) app.model_defaults_note = false;  // the note is about the switch only
}

std::vector<std::string> network_choice_values() {
    std::vector<std::string> out;
    for (const Choice& c : kNetworkChoices) out.push_back(c.value);
    return out;
}


// The GPU box, for the GAN inputs (gan_panel.h).
bool draw_gpu_choice(AppState& app) { return gpu_combo(app); }

}  // namespace gg::ui
