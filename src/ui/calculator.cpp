// The Calculator tab: "describe the job" inputs on the left (or on top on narrow screens) and the answer on
// the right: the verdict for the chosen card, where the memory goes (each part opens into its formula), the
// largest batch on every card, and memory against batch size.
// Sections: choices | inputs | results | layout.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "catalog/time_data.h"
#include "engine/cost.h"
#include "engine/workload.h"
#include "imgui_internal.h"  // the ranking table window's InnerClipRect (phone rows)
#include "ui/app.h"
#include "ui/chart.h"
#include "ui/export.h"
#include "ui/format.h"
#include "ui/plan_panel.h"
#include "ui/theme.h"
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
                                              {"fsdp", Str::StratFsdp}};

Str family_group(engine::Family f) {
    switch (f) {
        case engine::Family::kResNet:
        case engine::Family::kVgg:
        case engine::Family::kMobileNetV2:
        case engine::Family::kEfficientNetB0: return Str::FamilyCnn;
        case engine::Family::kYolo:
        case engine::Family::kUnet: return Str::FamilyDetection;
        case engine::Family::kVit: return Str::FamilyVit;
        case engine::Family::kEncoder: return Str::FamilyEncoder;
        case engine::Family::kDecoder: return Str::FamilyDecoder;
        case engine::Family::kSdUnet: return Str::FamilyDiffusion;
        case engine::Family::kBiLstmCrf: return Str::FamilyRnn;
    }
    return Str::FamilyCnn;
}

Str segment_label(const std::string& segment) {
    if (segment == "consumer") return Str::SegConsumer;
    if (segment == "workstation") return Str::SegWorkstation;
    return Str::SegDatacenter;
}

// ---- inputs ----------------------------------------------------------------------------------------------------
// Starting points for a custom model, which the user then edits: the published configs of GPT-2 small, BERT-base
// and ViT-B/16 (Hugging Face gpt2, bert-base-uncased and google/vit-base-patch16-224 config.json), ResNet-50
// (torchvision resnet50: bottleneck blocks 3-4-6-3, width 64; 25,557,032 parameters) and the original U-Net
// (Ronneberger et al. 2015, as in github.com/milesial/Pytorch-UNet: 64 channels, 4 down-sampling steps, 2 classes;
// 31,037,698 parameters, tests/validation/measured_saved_activations.json).
struct CustomTemplate {
    const char* family;
    Str label;
    const char* json;
};
const CustomTemplate kCustomTemplates[] = {
    {"decoder", Str::CustomDecoder,
     R"({"family":"decoder","layers":12,"hidden":768,"heads":12,"ffn":3072,"vocab":50257,"norm":"layernorm",)"
     R"("position":"learned","max_positions":1024,"activation":"gelu_new","glu":false,"tied_embeddings":true,"bias":true})"},
    {"encoder", Str::CustomEncoder,
     R"({"family":"encoder","layers":12,"hidden":768,"heads":12,"ffn":3072,"vocab":30522,"max_positions":512})"},
    {"vit", Str::CustomVit,
     R"({"family":"vit","image_size":224,"patch":16,"layers":12,"hidden":768,"heads":12,"ffn":3072})"},
    {"resnet", Str::CustomResNet,
     R"({"family":"resnet","depths":[3,4,6,3],"block":"bottleneck","width":64,"classes":1000})"},
    {"unet", Str::CustomUnet, R"({"family":"unet","base_channels":64,"depth":4,"in_channels":3,"classes":2})"},
};

}  // namespace

int custom_model_template_count() { return static_cast<int>(std::size(kCustomTemplates)); }
const char* custom_model_template(int index) { return kCustomTemplates[index].json; }

namespace {

// Applies a custom model through the scenario parser (one validation path); a draft it refuses stays on screen
// with the parser's reasons, and the last valid model keeps its results. A new model (a template picked) starts
// from its own sequence length and image size; an edited one keeps what the user set.
void apply_custom_model(AppState& app, nlohmann::json model, bool new_model) {
    nlohmann::json doc = app_scenario_json(app);
    doc["model"] = model;
    doc.erase("precomputed_latents");  // custom models have no frozen input encoders (the key would be refused)
    if (new_model) {
        doc.erase("seq_len");
        doc.erase("image_size");
        if (app.scenario.ema == app.scenario.ema_default()) doc.erase("ema");  // the new model's default applies
    }
    const auto problems = app_load_scenario(app, doc.dump());
    if (problems.empty()) {
        app.custom_model_draft = nullptr;
        app.custom_model_problems.clear();
    } else {
        app.custom_model_draft = std::move(model);
        app.custom_model_problems = problems;
    }
}

// A convolutional model's sizes that its JSON may leave out (the parser's defaults): taken from the model the
// page has, when it is of the same family, so every field shows a number.
void fill_cnn_defaults(nlohmann::json& model, const catalog::Scenario& s) {
    const std::string family = model.value("family", "");
    const engine::ModelSpec& m = s.model;
    const bool same = s.model_id == "custom" && s.custom_model.value("family", "") == family;
    if (family == "resnet") {
        if (!model.contains("depths")) model["depths"] = same ? m.depths : std::vector<int>{2, 2, 2, 2};
        if (!model.contains("block")) model["block"] = same && m.bottleneck ? "bottleneck" : "basic";
        if (!model.contains("width")) model["width"] = same ? m.width : 64;
        if (!model.contains("classes")) model["classes"] = same ? m.classes : 1000;
    } else if (family == "unet") {
        if (model.contains("width") && !model.contains("base_channels")) {  // "width" is the parser's alias
            model["base_channels"] = model["width"];
            model.erase("width");
        }
        if (!model.contains("base_channels")) model["base_channels"] = same ? m.base_channels : 64;
        if (!model.contains("depth")) model["depth"] = same ? m.unet_depth : 4;
        if (!model.contains("in_channels")) model["in_channels"] = same ? m.in_channels : 3;
        if (!model.contains("classes")) model["classes"] = same ? m.classes : 2;
    }
}

// A ResNet's blocks per stage: the number of stages, then one field per stage (a new stage repeats the last).
bool draw_resnet_depths(AppState& app, nlohmann::json& model) {
    const Lang L = app.lang;
    std::vector<int> depths;
    if (model["depths"].is_array())
        for (const nlohmann::json& d : model["depths"]) depths.push_back(d.is_number_integer() ? d.get<int>() : 1);
    if (depths.empty()) depths = {2, 2, 2, 2};
    bool edited = false;
    int stages = static_cast<int>(depths.size());
    field_label(tr(Str::CustomStages, L), tr(Str::CustomCnnTip, L));
    if (int_field(app, "##custom_stages", stages, 1, 8, "")) {
        depths.resize(static_cast<size_t>(stages), depths.back());
        edited = true;
    }
    for (size_t i = 0; i < depths.size(); ++i) {
        char label[96];
        std::snprintf(label, sizeof label, tr(Str::CustomStageBlocks, L), static_cast<int>(i + 1));
        field_label(label, tr(Str::CustomCnnTip, L));
        if (int_field(app, ("##custom_depth_" + std::to_string(i)).c_str(), depths[i], 1, 100, "")) edited = true;
    }
    if (edited) model["depths"] = depths;
    return edited;
}

bool is_hf_model(const nlohmann::json& model) { return model.is_object() && model.contains("hf_config"); }

constexpr std::size_t kHfConfigTextBytes = std::size_t(1) << 18;  // the config.json box: 256 KiB

// A Hugging Face config.json pasted as it is (catalog/hf_config.h): the model then works as a preset does, and the
// link carries the config. The text stays as typed; "Use this model" runs it through the scenario parser.
void draw_hf_config_paste(AppState& app) {
    const Lang L = app.lang;
    const catalog::Scenario& s = app.scenario;
    const bool hf_now = s.model_id == "custom" && is_hf_model(s.custom_model);
    std::vector<char>& text = app.hf_config_text;
    if (text.size() < kHfConfigTextBytes) text.assign(kHfConfigTextBytes, '\0');
    if (hf_now && text[0] == '\0') {  // a model from a link or a saved state: show its config
        const std::string dumped = s.custom_model["hf_config"].dump(1);
        if (dumped.size() + 1 < text.size()) std::copy(dumped.begin(), dumped.end(), text.begin());
    }
    const std::string label = std::string(tr(Str::HfConfigPaste, L)) + "##hf_config";
    const bool open = ImGui::TreeNodeEx(label.c_str(), hf_now ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    test_anchor(app, "hf_config_open");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::HfConfigTip, L));
    if (!open) return;
    ImGui::InputTextMultiline("##hf_config_text", text.data(), text.size(),
                              ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * 8));
    test_anchor(app, "hf_config_text");
    if (ImGui::Button(tr(Str::HfConfigApply, L))) {
        const catalog::JsonText doc = catalog::parse_json_text(std::string_view(text.data()));
        if (!doc.error.empty() || !doc.value.is_object()) {
            app.custom_model_draft = nlohmann::json{{"hf_config", nullptr}};
            app.custom_model_problems = {{"config.json", "", doc.error.empty() ? "config.json must be a JSON object"
                                                                               : doc.error}};
        } else {
            apply_custom_model(app, nlohmann::json{{"hf_config", doc.value}}, true);
        }
    }
    test_anchor(app, "hf_config_apply");
    if (is_hf_model(app.custom_model_draft) && !app.custom_model_problems.empty())
        problem_list(tr(Str::HfConfigProblems, L), app.custom_model_problems);
    ImGui::TreePop();
}

// The sizes of a custom model, each a whole-number field with the parser's limits.
bool draw_custom_model(AppState& app) {
    const Lang L = app.lang;
    const catalog::Scenario& s = app.scenario;
    if (s.model_id != "custom" && !app.custom_model_draft.is_object()) return false;
    nlohmann::json model = app.custom_model_draft.is_object() ? app.custom_model_draft : s.custom_model;
    if (is_hf_model(model)) return false;  // a pasted config.json: draw_hf_config_paste shows it and its problems
    const std::string family = model.value("family", "");
    const bool cnn = family == "resnet" || family == "unet";
    if (cnn) fill_cnn_defaults(model, s);
    struct Field {
        const char* key;
        Str label;
        int min;
        int max;
    };
    std::vector<Field> fields;
    bool edited = false;
    if (family == "resnet") {
        std::string block = model.value("block", "basic");
        field_label(tr(Str::CustomBlock, L), tr(Str::CustomCnnTip, L));
        if (choice_combo("##custom_block", block,
                         {{"basic", Str::CustomBlockBasic}, {"bottleneck", Str::CustomBlockBottleneck}}, L)) {
            model["block"] = block;
            edited = true;
        }
        fields.insert(fields.end(), {{"width", Str::CustomWidth, 1, 4096}, {"classes", Str::CustomClasses, 1, 1 << 20}});
    } else if (family == "unet") {
        fields.insert(fields.end(), {{"base_channels", Str::CustomBaseChannels, 1, 4096},
                  {"depth", Str::CustomUnetDepth, 1, 8},
                  {"in_channels", Str::CustomInChannels, 1, 1 << 10},
                  {"classes", Str::CustomClasses, 1, 1 << 16}});
    } else {
        if (family == "vit")
            fields.insert(fields.end(), {{"image_size", Str::CustomImage, 1, 8192}, {"patch", Str::CustomPatch, 1, 1024}});
        fields.insert(fields.end(), {{"layers", Str::CustomLayers, 1, 1000},
                                     {"hidden", Str::CustomHidden, 1, 1 << 17},
                                     {"heads", Str::CustomHeads, 1, 1024},
                                     {"ffn", Str::CustomFfn, 1, 1 << 20}});
        if (family != "vit") fields.push_back({"vocab", Str::CustomVocab, 1, 1 << 22});
        if (family == "encoder" || model.contains("max_positions"))
            fields.push_back({"max_positions", Str::CustomMaxPositions, 1, 1 << 20});
    }
    for (const Field& f : fields) {
        int value = model.contains(f.key) && model[f.key].is_number_integer() ? model[f.key].get<int>() : 0;
        field_label(tr(f.label, L), tr(cnn ? Str::CustomCnnTip : Str::CustomModelTip, L));
        if (int_field(app, (std::string("##custom_") + f.key).c_str(), value, f.min, f.max, "")) {
            model[f.key] = value;
            edited = true;
        }
    }
    if (family == "resnet" && draw_resnet_depths(app, model)) edited = true;
    if (edited) apply_custom_model(app, std::move(model), false);
    if (!app.custom_model_problems.empty()) problem_list(tr(Str::CustomModelProblems, L), app.custom_model_problems);
    return false;  // apply_custom_model already marked the scenario dirty when it took the change
}

bool model_combo(AppState& app) {
    catalog::Scenario& s = app.scenario;
    std::string preview = s.model.name.empty() ? s.model_id : s.model.name;
    if (s.model_id == "custom")
        for (const CustomTemplate& t : kCustomTemplates)
            if (s.custom_model.value("family", "") == t.family) preview = tr(t.label, app.lang);
    bool changed = false;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##model", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        const Str groups[] = {Str::FamilyCnn,     Str::FamilyDetection, Str::FamilyVit, Str::FamilyEncoder,
                              Str::FamilyDecoder, Str::FamilyDiffusion, Str::FamilyRnn};
        for (Str group : groups) {
            ImGui::TextDisabled("%s", tr(group, app.lang));
            for (const engine::ModelSpec& m : engine::preset_models()) {
                if (!m.available || family_group(m.family) != group) continue;
                const bool selected = s.model_id == m.id;
                ImGui::Indent();
                if (ImGui::Selectable((m.name + "##" + m.id).c_str(), selected) && !selected) {
                    // The EMA follows the model's default (Ultralytics' trainer always keeps one: on with a YOLO
                    // model, off again when leaving one) unless the user had changed it.
                    const bool was_default = s.ema == s.ema_default();
                    s.model_id = m.id;
                    s.model = m;
                    if (was_default) s.ema = s.ema_default();
                    if (!engine::has_input_encoders(m)) s.precomputed_latents = false;  // only SD pipelines have them
                    s.custom_model = nullptr;
                    app.custom_model_draft = nullptr;
                    app.custom_model_problems.clear();
                    s.seq_len = 0;  // the new model's defaults
                    s.image_size = 0;
                    changed = true;
                }
                ImGui::Unindent();
                if (selected) ImGui::SetItemDefaultFocus();
            }
        }
        ImGui::TextDisabled("%s", tr(Str::FamilyCustom, app.lang));
        for (const CustomTemplate& t : kCustomTemplates) {
            ImGui::Indent();
            if (ImGui::Selectable((std::string(tr(t.label, app.lang)) + "##custom_" + t.family).c_str(),
                                  s.model_id == "custom" && s.custom_model.value("family", "") == t.family))
                apply_custom_model(app, nlohmann::json::parse(t.json), true);
            ImGui::Unindent();
        }
        ImGui::EndCombo();
    }
    return changed;
}

// A different card: its own interconnect and peer-to-peer defaults apply again.
void select_gpu(catalog::Scenario& s, const std::string& gpu_id) {
    s.gpu_id = gpu_id;
    s.interconnect.clear();
    s.peer_to_peer_set = false;
    s.peer_to_peer = true;
}

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
const std::vector<Choice> kGradReduceChoices = {
    {"", Str::GradReduceOwn}, {"fp32", Str::GradReduceFp32}, {"fp16", Str::GradReduceFp16}, {"bf16", Str::GradReduceBf16}};

const std::vector<Choice> kOwnershipChoices = {{"both", Str::OwnBoth}, {"rent", Str::OwnRent}, {"buy", Str::OwnBuy}};

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

void draw_inputs(AppState& app) {
    catalog::Scenario& s = app.scenario;
    const Lang L = app.lang;
    bool changed = false;
    // "Latents precomputed" and "Frozen weights in 16 bits" follow their defaults (which depend on the model, the
    // method and the precision) unless the user set them.
    const bool latents_default = s.precomputed_latents == s.precomputed_latents_default();
    const bool frozen_default = s.frozen_weights_16bit == s.frozen_weights_16bit_default();

    section_heading(app, tr(Str::StepModel, L));
    field_label(tr(Str::Model, L), tr(Str::ModelTip, L));
    changed |= model_combo(app);
    draw_custom_model(app);
    draw_hf_config_paste(app);
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

    section_heading(app, tr(Str::StepTraining, L));
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
    if (s.frozen_weights_16bit_applies()) {
        field_label(tr(Str::FrozenWeights16bit, L), tr(Str::FrozenWeights16bitTip, L));
        changed |= ImGui::Checkbox("##frozen_weights_16bit", &s.frozen_weights_16bit);
        test_anchor(app, "frozen-weights-16bit");
    }
    field_label(tr(Str::Checkpointing, L), tr(Str::CheckpointingTip, L));
    changed |= choice_combo("##checkpointing", s.checkpointing, kCheckpointingChoices, L);
    field_label(tr(Str::Ema, L), tr(Str::EmaTip, L));
    changed |= ImGui::Checkbox("##ema", &s.ema);
    if (engine::has_input_encoders(s.model)) {
        field_label(tr(Str::PrecomputedLatents, L), tr(Str::PrecomputedLatentsTip, L));
        changed |= ImGui::Checkbox("##precomputed_latents", &s.precomputed_latents);
        test_anchor(app, "precomputed-latents");
    }
    if (!s.model.is_vision) {
        field_label(tr(Str::Attention, L), tr(Str::AttentionTip, L));
        changed |= choice_combo("##attention", s.attention, kAttentionChoices, L);
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
        field_label(tr(Str::Packing, L), tr(Str::PackingTip, L));
        changed |= ImGui::Checkbox("##packing", &s.packing);
        if (!s.packing) {
            field_label(tr(Str::LongestSample, L), tr(Str::LongestSampleTip, L));
            changed |= int_field(app, "##longest_seq_len", s.longest_seq_len, 0, 1 << 21, "");
        }
        field_label(tr(Str::EvalBatch, L), tr(Str::EvalBatchTip, L));
        changed |= int_field(app, "##eval_batch_size", s.eval_batch_size, 0, 1 << 20, "");
    } else {
        field_label(tr(Str::MemoryFormat, L), tr(Str::MemoryFormatTip, L));
        changed |= choice_combo("##memory_format", s.memory_format, kMemoryFormatChoices, L);
    }

    section_heading(app, tr(Str::StepHardware, L));
    field_label(tr(Str::Gpu, L), tr(Str::GpuTip, L));
    changed |= gpu_combo(app);
    field_label(tr(Str::Display, L), tr(Str::DisplayTip, L));
    changed |= choice_combo("##display", s.display, kDisplayChoices, L);
    field_label(tr(Str::GpuCount, L), tr(Str::GpuCountTip, L));
    changed |= int_field(app, "##gpu_count", s.gpu_count, 1, 1024, tr(Str::UnitCards, L));
    if (s.gpu_count > 1) {
        field_label(tr(Str::Strategy, L), tr(Str::StrategyTip, L));
        changed |= choice_combo("##strategy", s.strategy, kStrategyChoices, L);
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
    }
    // Megatron-LM's model parallelism, for transformers (scenario.cpp checks the divisibility rules and names the
    // field when they fail; the values stay as typed).
    const bool transformer = engine::is_transformer(s.model.family);
    const bool model_parallel = s.model_copy_gpus() > 1 || s.sequence_parallel ||
                                s.pipeline_interleave > 1;  // a leftover value keeps its field (and its error) visible
    if ((s.gpu_count > 1 && transformer) || model_parallel) {
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
    }
    field_label(tr(Str::Reserve, L), tr(Str::ReserveTip, L));
    double reserve_percent = s.reserve_fraction * 100.0;
    if (double_field(app, "##reserve", reserve_percent, 0, 90, 5, tr(Str::UnitPercent, L), "%.0f")) {
        s.reserve_fraction = reserve_percent / 100.0;
        changed = true;
    }
    changed |= draw_decision_inputs(app);
    if (changed && latents_default) s.precomputed_latents = s.precomputed_latents_default();
    if (changed && frozen_default) s.frozen_weights_16bit = s.frozen_weights_16bit_default();
    if (!s.frozen_weights_16bit_applies()) s.frozen_weights_16bit = false;  // never left set where it cannot apply
    if (changed) app.scenario_dirty = true;
}

// ---- results ----------------------------------------------------------------------------------------------------
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
                      gpu->name.c_str());
        ImGui::PopStyleColor();
        ImGui::PopFont();
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
        if (v == engine::Verdict::kTight) hint_textf(tr(Str::VerdictTightWhy, L), terms.c_str());
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

void draw_memory_curve(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    if (r.curve_batch.size() < 2) return;
    section_heading(app, tr(Str::MemVsBatchTitle, L));
    Chart c;
    if (!begin_chart(c, "##memcurve", ImVec2(-1, 15.0f * ImGui::GetFontSize()))) return;
    // Plotted in GiB, so the linear axis's 1-2-5 steps are round GiB (in bytes they would be 4.66, 9.31, ...).
    std::vector<double> curve_gib(r.curve_bytes.size());
    for (size_t i = 0; i < curve_gib.size(); ++i) curve_gib[i] = r.curve_bytes[i] / engine::kBytesPerGiB;
    double hi = 0;
    for (double g : curve_gib) hi = std::max(hi, g);
    const engine::MemoryReport& m = r.estimate.report;
    if (m.card_memory_bytes > 0) hi = std::max(hi, m.card_memory_bytes / engine::kBytesPerGiB);
    Axis x = make_log_axis(r.curve_batch.front(), r.curve_batch.back());
    Axis y = make_linear_axis(0, hi * 1.05, 5);
    setup_axes(c, x, y, tr(Str::AxisBatch, L), tr(Str::AxisGiB, L));
    if (m.usable_bytes > 0) {
        const std::string label = std::string(tr(Str::Usable, L)) + " " + format_gib(m.usable_bytes, L);
        chart_hline(c, m.usable_bytes / engine::kBytesPerGiB, IM_COL32(180, 30, 30, 255), label.c_str());
    }
    chart_line(c, r.curve_batch, curve_gib, IM_COL32(37, 99, 185, 255));
    chart_scatter(c, 0, r.curve_batch, curve_gib, IM_COL32(37, 99, 185, 255));
    const std::vector<double> cx = {static_cast<double>(r.scenario.scenario.batch_size)};
    const std::vector<double> cy = {m.nvidia_smi.bytes / engine::kBytesPerGiB};
    chart_scatter(c, 1, cx, cy, IM_COL32(230, 140, 40, 255), 0.4f);
    if (c.hovered_series >= 0) {
        const double b = c.hovered_series == 0 ? r.curve_batch[c.hovered_index] : cx[0];
        const double bytes = c.hovered_series == 0 ? r.curve_bytes[c.hovered_index] : m.nvidia_smi.bytes;
        ImGui::SetTooltip("%s %s: %s", tr(Str::AxisBatch, L), format_significant(b, 6).c_str(),
                          format_gib(bytes, L).c_str());
    }
    end_chart(c);
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


// ---- rent vs buy over months of ownership -----------------------------------------------------------------------
double json_number(const nlohmann::json& j, const char* key, double fallback = -1);
const nlohmann::json* ranking_option(const Results& r, const char* kind, const std::string& gpu, int count);
std::string months_tick(double v) { return format_significant(v, 3); }

void draw_rent_vs_buy(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id);
    const nlohmann::json* rent = ranking_option(r, "rent", s.gpu_id, 1);
    if (gpu == nullptr || rent == nullptr) return;
    const engine::CloudOffer* offer = cat.find_offer(rent->value("offer", ""));
    if (offer == nullptr || offer->gpu_count != 1) return;
    const engine::DecisionInputs& d = r.scenario.decision;
    engine::BuyInputs buy;
    buy.card_count = 1;
    buy.cny_per_usd = d.cny_per_usd > 0 ? d.cny_per_usd : cat.settings.exchange_rate.cny_per_usd;
    buy.electricity_price_per_kwh_cny = d.electricity_price_per_kwh_cny;
    buy.utilization_fraction = d.utilization_fraction;
    buy.host = cat.settings.host_system;
    buy.resale = cat.settings.resale_value;
    engine::RentInputs rent_in;
    rent_in.cny_per_usd = buy.cny_per_usd;
    // Cumulative cost of training for m months at the user's utilization, in CNY.
    std::vector<double> months, rent_cny, buy_cny;
    for (double m = 0; m <= 36.0 + 1e-9; m += 1.0) {
        const double hours = m * engine::kHoursPerMonth * buy.utilization_fraction;
        buy.run_time_s = rent_in.run_time_s = hours * 3600.0;
        buy.ownership_months = m > 0 ? m : 1e-6;
        const double b = engine::buy_cost(*gpu, buy).total_cny;
        const double rc = hours > 0 ? engine::rent_cost(*offer, rent_in).total_cny : 0.0;
        if (!std::isfinite(b) || !std::isfinite(rc)) return;  // price unknown: no chart rather than a wrong one
        months.push_back(m);
        buy_cny.push_back(b);
        rent_cny.push_back(rc);
    }
    section_heading(app, tr(Str::RentBuyTitle, L));
    Chart c;
    c.format_x = months_tick;
    if (!begin_chart(c, "##rentbuy", ImVec2(-1, 13.0f * ImGui::GetFontSize()))) return;
    double hi = 0;
    for (size_t i = 0; i < months.size(); ++i) hi = std::max({hi, rent_cny[i], buy_cny[i]});
    Axis months_axis;
    months_axis.min = 0;
    months_axis.max = 36;
    setup_axes(c, months_axis, make_linear_axis(0, hi, 5), tr(Str::AxisMonths, L), currency_unit("CNY", L).c_str());
    const ImU32 rent_color = IM_COL32(230, 140, 40, 255), buy_color = IM_COL32(37, 99, 185, 255);
    chart_line(c, months, rent_cny, rent_color);
    chart_line(c, months, buy_cny, buy_color);
    // Where the two cumulative curves cross (linear between whole months).
    double crossing = -1;
    for (size_t i = 1; i < months.size() && crossing < 0; ++i) {
        const double d0 = buy_cny[i - 1] - rent_cny[i - 1], d1 = buy_cny[i] - rent_cny[i];
        if (d0 > 0 && d1 <= 0) crossing = months[i - 1] + d0 / (d0 - d1) * (months[i] - months[i - 1]);
    }
    if (crossing > 0) chart_vline(c, crossing, IM_COL32(90, 96, 106, 255), "");
    if (c.hovered) {
        const int i = std::clamp(static_cast<int>(std::lround(c.x.to_value(c.mouse.x))), 0, static_cast<int>(months.size()) - 1);
        ImGui::SetTooltip("%s %s\n%s: %s\n%s: %s", format_significant(months[i], 3).c_str(), tr(Str::AxisMonths, L),
                          tr(Str::LegendRent, L), format_money(rent_cny[i], "CNY", L).c_str(), tr(Str::LegendBuy, L),
                          format_money(buy_cny[i], "CNY", L).c_str());
    }
    end_chart(c);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(rent_color), "— %s: %s", tr(Str::LegendRent, L), offer->provider.c_str());
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(buy_color), "— %s", tr(Str::LegendBuy, L));
    if (crossing > 0) wrapped_textf(tr(Str::BreakEvenAt, L), format_significant(crossing, 2).c_str());
    else hint_text(tr(Str::NoBreakEven, L));
}

// ---- time, advice and the ranking ----------------------------------------------------------------------------
double json_number(const nlohmann::json& j, const char* key, double fallback) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return fallback;
    return j[key].get<double>();
}

// The cheapest fitting rent offer and the buy option for the scenario's card, from the ranking.
const nlohmann::json* ranking_option(const Results& r, const char* kind, const std::string& gpu, int count) {
    const nlohmann::json* best = nullptr;
    if (!r.ranking.contains("options")) return nullptr;
    for (const auto& o : r.ranking["options"]) {
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

// The cost of one ranked option (the ranking's JSON), as formulas with the numbers filled in. Used under the
// scenario's own card and in the ranking table's cost cells.
void rent_formula(const AppState& app, const nlohmann::json& option) {
    const Lang L = app.lang;
    const engine::CloudOffer* offer = app.catalog().find_offer(option.value("offer", ""));
    if (offer == nullptr || !option.contains("rent") || !option.contains("cost")) return;
    const nlohmann::json& d = option["rent"];
    const std::string cur = option["cost"].value("currency", "CNY");
    wrapped_textf(tr(Str::RentFormula, L), format_duration(json_number(d, "billed_s_per_run", 0), L).c_str(),
                  format_duration(json_number(option, "time_s", 0), L).c_str(),
                  format_duration(json_number(d, "billing_granularity_s", 0), L).c_str(),
                  counted(app.results.scenario.decision.runs, Str::CountRun, Str::CountRuns, L).c_str(),
                  money_as(app, offer->price_per_hour, offer->currency, cur).c_str(),
                  format_money(json_number(d["compute"], "amount", 0), cur, L).c_str(),
                  format_money(json_number(d["storage"], "amount", 0), cur, L).c_str(), offer->source.c_str(),
                  offer->as_of.c_str());
}

void buy_formula(const AppState& app, const nlohmann::json& option) {
    const Lang L = app.lang;
    if (!option.contains("buy") || !option.contains("cost")) return;
    const nlohmann::json& b = option["buy"];
    const std::string currency = option["cost"].value("currency", "CNY");
    auto money = [&](const char* key) { return format_money(json_number(b[key], "amount", 0), currency, L); };
    const std::string basis = b.value("price_basis", "");
    const engine::GpuSpec* gpu = app.catalog().find_gpu(option.value("gpu", ""));
    auto reason = [&](const char* code) { return find_reason(option, code); };
    if (reason("server_only")) {
        wrapped_text(tr(Str::BuyServerOnly, L));
        return;
    }
    // No price (most data-centre cards): a formula of zeros would read as a price; say what is missing instead.
    if (basis == "unknown" || !std::isfinite(json_number(option["cost"], "amount"))) {
        wrapped_text(tr(Str::BuyPriceUnknown, L));
        return;
    }
    const bool users = gpu && gpu->street_price.source == AppState::kUserPriceSource;
    char basis_text[256];
    if (users) std::snprintf(basis_text, sizeof basis_text, "%s", tr(Str::PriceUser, L));
    else if (basis == "launch_usd") std::snprintf(basis_text, sizeof basis_text, tr(Str::PriceLaunch, L), gpu ? gpu->launch_year : 0);
    else std::snprintf(basis_text, sizeof basis_text, "%s", tr(Str::PriceStreet, L));
    wrapped_textf(tr(Str::BuyFormulaCards, L), counted(option.value("count", 1), Str::CountCard, Str::CountCards, L).c_str(),
                  money("card_price").c_str(), basis_text, money("host").c_str(), money("purchase").c_str());
    if (const nlohmann::json* x = reason("host_underpowered"))
        hint_textf(tr(Str::BuyHostUnderpowered, L), format_grouped(json_number((*x)["values"], "power_w", 0)).c_str(),
                   format_grouped(json_number((*x)["values"], "psu_w", 0)).c_str());
    const double time_s = json_number(option, "time_s", 0);
    if (time_s <= 0) return;  // the electricity and the resale need a time
    const double hours_s = time_s * app.results.scenario.decision.runs;
    const double kwh_price = app.results.scenario.decision.electricity_price_per_kwh_cny;
    wrapped_textf(tr(Str::BuyFormulaPower, L), format_significant(json_number(b, "power_w", 0), 4).c_str(),
                  format_duration(hours_s, L).c_str(), money_as(app, kwh_price, "CNY", currency).c_str(),
                  money("electricity").c_str());
    const double owned_s = json_number(b, "ownership_months", 0) * engine::kHoursPerMonth * 3600;
    wrapped_textf(tr(Str::BuyFormulaResale, L), format_duration(owned_s, L).c_str(),
                  format_percent(json_number(b, "resale_fraction", 0)).c_str(), money("resale").c_str(),
                  format_money(json_number(option["cost"], "amount"), currency, L).c_str());
}

void draw_cost_lines(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    const catalog::Catalog& cat = app.catalog();
    if (const nlohmann::json* rent = ranking_option(r, "rent", s.gpu_id, s.gpu_count)) {
        const engine::CloudOffer* offer = cat.find_offer(rent->value("offer", ""));
        // The cheapest rental of this card may use another number of cards than the scenario (offers come in
        // fixed sizes), so the line says how many and for how long.
        const double rent_hours_s = json_number(*rent, "time_s", 0) * r.scenario.decision.runs;
        if (offer) wrapped_textf(tr(Str::RentLine, L), offer->instance.c_str(), offer->provider.c_str(),
                                 format_money(offer->price_per_hour, offer->currency, L).c_str(),
                                 counted(rent->value("count", 1), Str::CountCard, Str::CountCards, L).c_str(),
                                 format_duration(rent_hours_s, L).c_str(),
                                 format_money(json_number((*rent)["cost"], "amount"), (*rent)["cost"].value("currency", "CNY"), L).c_str());
        if (offer) test_anchor(app, "rent-line");
        if (offer && rent->contains("rent") &&
            ImGui::TreeNode(stable_label(tr(Str::CostFormula, L), "rent-formula").c_str())) {
            rent_formula(app, *rent);
            ImGui::TreePop();
        }
    } else {
        // No priced rental: say why. The card may have offers while the job does not fit it, or has no total time
        // yet (no dataset: the line above asks for one).
        if (!cat.rents(s.gpu_id)) hint_text(tr(Str::NoOfferForCard, L));
        else if (!r.estimate.report.fits) hint_text(tr(Str::OfferButDoesNotFit, L));
        else if (r.ranking.contains("options")) {
            // It fits as set, yet no offer of this card fits: its job needs more cards than one offer has.
            const int largest = cat.most_rented_at_once(s.gpu_id);
            if (largest > 0 && largest < s.gpu_count) {
                hint_textf(tr(Str::OfferTooSmall, L), largest);
                test_anchor(app, "offer-too-small");
            }
        }
    }
    if (const nlohmann::json* buy = ranking_option(r, "buy", s.gpu_id, s.gpu_count)) {
        const std::string currency = (*buy)["cost"].value("currency", "CNY");
        const double upfront = buy->contains("buy") ? json_number((*buy)["buy"]["purchase"], "amount") : -1;
        const double host = buy->contains("buy") ? json_number((*buy)["buy"]["host"], "amount", 0) : 0;
        wrapped_textf(tr(Str::BuyLine, L), format_money(upfront, currency, L).c_str(),
                      format_money(json_number((*buy)["cost"], "amount"), currency, L).c_str(),
                      format_money(host, currency, L).c_str());
        if (buy->contains("buy") && ImGui::TreeNode(stable_label(tr(Str::CostFormula, L), "buy-formula").c_str())) {
            buy_formula(app, *buy);
            ImGui::TreePop();
        }
    }
    draw_rent_vs_buy(app);
}

// The engine's rows at 1, 2, 4, 8, 16 copies (catalog/scaling.h): speed-up, efficiency, time, memory verdict. A click
// on a row sets the card count.
void draw_scaling(AppState& app, const nlohmann::json& t, bool with_dataset) {
    if (!t.contains("scaling") || !t["scaling"].is_array() || t["scaling"].size() < 2) return;
    const Lang L = app.lang;
    const nlohmann::json& rows = t["scaling"];
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode(stable_label(tr(Str::ScalingTitle, L), "scaling").c_str())) return;
    hint_text(tr(Str::ScalingNote, L));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    const float em = ImGui::GetFontSize();
    // As wide as its columns need (not the whole results column, where "Fits?" would sit far from its row).
    const float width = std::min(ImGui::GetContentRegionAvail().x, 32.0f * em);
    if (ImGui::BeginTable("##scaling", 5, flags, ImVec2(width, 0))) {
        // Shares of the width, not fixed widths: on a phone the time column keeps room for "36.7 min".
        ImGui::TableSetupColumn(tr(Str::ColCards, L), ImGuiTableColumnFlags_WidthStretch, 0.7f);
        ImGui::TableSetupColumn(tr(Str::ColSpeedup, L), ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn(tr(Str::ColScalingEfficiency, L), ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn(tr(with_dataset ? Str::ColTimeToTrain : Str::ColStepTime, L),
                                ImGuiTableColumnFlags_WidthStretch, 1.4f);
        ImGui::TableSetupColumn(tr(Str::ColFits, L), ImGuiTableColumnFlags_WidthStretch, 0.8f);
        ImGui::TableHeadersRow();
        for (const nlohmann::json& row : rows) {
            const int gpus = row.value("gpus", 0);
            if (gpus <= 0) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string label = std::to_string(gpus) + "##scale" + std::to_string(gpus);
            if (ImGui::Selectable(label.c_str(), gpus == app.scenario.gpu_count, ImGuiSelectableFlags_SpanAllColumns) &&
                gpus != app.scenario.gpu_count) {
                app.scenario.gpu_count = gpus;
                app.scenario_dirty = true;
            }
            test_anchor(app, "scaling-" + std::to_string(gpus));
            const double speedup = json_number(row, "speedup"), eff = json_number(row, "scaling_efficiency");
            const double time = json_number(row, with_dataset ? "total_s" : "step_s");
            ImGui::TableNextColumn();
            if (speedup > 0) ImGui::Text("%sx", format_significant(speedup, 3).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (eff > 0) ImGui::TextUnformatted(format_percent(eff).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (time > 0) ImGui::TextUnformatted(format_duration(time, L).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            const bool fits = row.value("fits", false);
            ImGui::TextColored(verdict_color(fits), "%s", tr(fits ? Str::Yes : Str::No, L));
        }
        ImGui::EndTable();
    }
    // Explain speed-ups above the number of cards (ZeRO/FSDP; the efficiency stays <= 100%, engine/time.h).
    bool above_linear = false;
    const double first_gpus = rows.empty() ? 1.0 : std::max(1.0, json_number(rows.front(), "gpus"));
    for (const nlohmann::json& row : rows)
        above_linear |= json_number(row, "speedup") > json_number(row, "gpus") / first_gpus * 1.005;
    if (above_linear) hint_text(tr(Str::ScalingAboveLinear, L));
    ImGui::TreePop();
}

void draw_time(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    const engine::GpuSpec* gpu = app.catalog().find_gpu(s.gpu_id);
    if (gpu == nullptr) return;
    section_heading(app, tr(Str::TimeTitle, L));
    const nlohmann::json& t = r.report.contains("time") ? r.report["time"] : nlohmann::json();
    const double step = json_number(t, "step_s");
    if (step < 0) {
        hint_text(tr(Str::TimeUnknown, L));
        return;
    }
    const double total = json_number(t, "total_s"), low = json_number(t, "low_s"), high = json_number(t, "high_s");
    // A loader slower than the fast and the slow kernel estimates sets every end of the range: no range to show.
    const double loader_wait = json_number(t, "loader_wait_s", 0);
    const bool loader_bound = loader_wait > 0 && high <= low;
    if (total > 0 && loader_bound) {
        wrapped_textf(tr(Str::TimeLineLoaderBound, L), s.gpu_count, gpu->name.c_str(), format_duration(total, L).c_str(),
                      format_duration(step, L).c_str());
    } else if (total > 0) {
        wrapped_textf(tr(Str::TimeLine, L), s.gpu_count, gpu->name.c_str(), format_duration(total, L).c_str(),
                           format_duration(step, L).c_str(), format_duration(low, L).c_str(),
                           format_duration(high, L).c_str());
    } else {
        hint_text(tr(Str::TimeNoDataset, L));
    }
    // Per epoch, when the dataset is counted in samples over several epochs (with one, it is the total above).
    const double epoch = json_number(t, "epoch_s"), steps_per_epoch = json_number(t, "steps_per_epoch");
    if (epoch > 0 && steps_per_epoch > 0 && s.dataset_epochs > 1) {
        wrapped_textf(tr(Str::EpochLine, L), format_grouped(s.dataset_samples).c_str(),
                      format_grouped(steps_per_epoch).c_str(), format_duration(epoch, L).c_str());
    }
    const double sps = json_number(t, "samples_per_s"), mfu = json_number(t, "mfu");
    if (sps > 0 && mfu >= 0) hint_textf(tr(Str::ThroughputLine, L), format_significant(sps, 4).c_str(), format_percent(mfu).c_str());
    if (t.value("peak_inferred", false)) hint_text(tr(Str::PeakInferredHint, L));
    if (loader_wait > 0) wrapped_textf(tr(Str::LoaderWaitLine, L), format_duration(loader_wait, L).c_str());
    const double encoders = json_number(t, "input_encoder_s", 0);
    if (encoders > 0) {
        hint_textf(tr(Str::EncoderLine, L), format_duration(encoders, L).c_str());
        test_anchor(app, "encoder-line");
    }
    // Detection pipelines are the common loader-bound case (docs/validation-sources.md sec. 7k).
    if (s.model.family == engine::Family::kYolo && s.loader_samples_per_s <= 0) hint_text(tr(Str::YoloLoaderHint, L));
    draw_scaling(app, t, total > 0);
    if (t.contains("explain") && t["explain"].is_object() &&
        ImGui::TreeNode(stable_label(tr(Str::TimeFormula, L), "time-formula").c_str())) {
        // The step first, then its parts in the order they add up, then the FLOPs MFU is computed from.
        for (const char* key :
             {"step", "compute", "memory_bound", "optimizer", "comm", "exposed_comm", "model_parallel", "flop"}) {
            if (!t["explain"].contains(key) || !t["explain"][key].is_object()) continue;
            const nlohmann::json& f = t["explain"][key];
            const std::string id = f.value("formula", key);
            const double value = json_number(f, "value", -1);
            const std::string shown = value < 0 ? "-"
                                      : id == "time.model_flop" ? format_significant(value / 1e12, 3) + " TFLOP"
                                                                 : format_duration(value, L);
            wrapped_textf("%s  %s", shown.c_str(), formula_text(id, L));
            hint_text(id.c_str());
            if (f.contains("operands") && f["operands"].is_object())
                for (auto op = f["operands"].begin(); op != f["operands"].end(); ++op)
                    if (op.value().is_number())
                        ImGui::BulletText("%s = %s", op.key().c_str(),
                                          format_operand(op.key().c_str(), op.value().get<double>(), L).c_str());
        }
        ImGui::TreePop();
    }
    draw_cost_lines(app);
}

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

void draw_advice(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    if (!r.advice.is_object()) return;
    const std::string status = r.advice.value("status", "");
    if (status == "works_as_is") return;  // the verdict already says it fits
    section_heading(app, tr(Str::AdviceTitle, L));
    if (status != "fixed" || !r.advice.contains("fix")) {
        wrapped_text(tr(Str::AdviceNone, L));
        return;
    }
    const nlohmann::json& fix = r.advice["fix"];
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
    if (ImGui::Button(tr(Str::ApplyFix, L))) apply_fix(app, fix);
}

// Money on a log axis: "10 k" / "1 M" in English, "1 万" / "100 万" in Chinese (counts of yuan past 9,999).
std::string money_tick_en(double v) { return v < 1000 ? format_significant(v, 3) : format_count(v, Lang::En); }
std::string money_tick_zh(double v) { return v < 1000 ? format_significant(v, 3) : format_count(v, Lang::Zh); }

void draw_cost_time_chart(AppState& app, const std::vector<const nlohmann::json*>& shown) {
    const Lang L = app.lang;
    // Three series: rent (0) and buy (2) options off the frontier, and the frontier (1).
    std::vector<double> xs, ys, bx, by, fx, fy;
    for (const nlohmann::json* o : shown) {
        const double t = json_number(*o, "time_s"), c = json_number((*o)["cost"], "amount");
        if (t <= 0 || c <= 0 || !std::isfinite(c)) continue;
        const bool frontier = o->value("pareto", false), buy = o->value("kind", "") == "buy";
        (frontier ? fx : buy ? bx : xs).push_back(t / 3600.0);  // plotted in hours: ticks at 1-2-5 x 10^k h
        (frontier ? fy : buy ? by : ys).push_back(c);
    }
    if (xs.size() + bx.size() + fx.size() < 2) return;
    section_heading(app, tr(Str::CostTimeTitle, L));
    Chart c;
    if (!begin_chart(c, "##costtime", ImVec2(-1, 15.0f * ImGui::GetFontSize()))) return;
    double tmin = 1e300, tmax = 0, cmin = 1e300, cmax = 0;
    for (auto* v : {&xs, &bx, &fx}) for (double t : *v) tmin = std::min(tmin, t), tmax = std::max(tmax, t);
    for (auto* v : {&ys, &by, &fy}) for (double x : *v) cmin = std::min(cmin, x), cmax = std::max(cmax, x);
    c.format_y = L == Lang::Zh ? money_tick_zh : money_tick_en;
    setup_axes(c, make_log_axis(tmin, tmax), make_log_axis(cmin, cmax), tr(Str::AxisHours, L),
               currency_unit(app.results.ranking.value("currency", "CNY"), L).c_str());
    const ImU32 rent_color = IM_COL32(230, 140, 40, 190), buy_color = IM_COL32(120, 126, 136, 190);
    chart_scatter(c, 0, xs, ys, rent_color, 0.22f);
    chart_scatter(c, 2, bx, by, buy_color, 0.22f);
    std::vector<size_t> order(fx.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return fx[a] < fx[b]; });
    std::vector<double> lx, ly;
    for (size_t i : order) lx.push_back(fx[i]), ly.push_back(fy[i]);
    chart_line(c, lx, ly, IM_COL32(37, 99, 185, 255));
    chart_scatter(c, 1, fx, fy, IM_COL32(37, 99, 185, 255), 0.3f);
    if (c.hovered_series >= 0) {
        const std::vector<double>& hx = c.hovered_series == 0 ? xs : c.hovered_series == 2 ? bx : fx;
        const std::vector<double>& hy = c.hovered_series == 0 ? ys : c.hovered_series == 2 ? by : fy;
        const double t_h = hx[c.hovered_index];
        const double cost = hy[c.hovered_index];
        for (const nlohmann::json* o : shown)
            if (json_number(*o, "time_s") / 3600.0 == t_h && json_number((*o)["cost"], "amount") == cost) {
                const double t = json_number(*o, "time_s");
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(tooltip_wrap(30.0f));
                ImGui::TextUnformatted(option_label(app.catalog(), *o, L).c_str());
                ImGui::Text("%s  ·  %s", format_duration(t, L).c_str(),
                            format_money(cost, (*o)["cost"].value("currency", "CNY"), L).c_str());
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
                break;
            }
    }
    end_chart(c);
    // Legend: which dots are rentals and which purchases.
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(rent_color), "● %s", tr(Str::LegendRent, L));
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(buy_color), "● %s", tr(Str::LegendBuy, L));
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(IM_COL32(37, 99, 185, 255)), "— %s", tr(Str::LegendFrontier, L));
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
    if (column == 0 && !o.value("pareto", false)) return;  // the option's name explains itself
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap(28.0f));
    switch (column) {
        case 0: wrapped_text(tr(Str::ParetoTip, L)); break;
        case 5: batch_line(); break;
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

void draw_ranking(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    if (!r.ranking.contains("options")) return;
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
        if (ImGui::SmallButton(name)) {
            app.clipboard_text = export_ranking(r.ranking, format, L, app.catalog());
            app.export_copied_at_s = ImGui::GetTime();
        }
        test_anchor(app, std::string("copy-") + name);
    }
    if (app.export_copied_at_s >= 0 && ImGui::GetTime() - app.export_copied_at_s < 2.0) {
        ImGui::SameLine();
        ImGui::TextDisabled("%s", tr(Str::ExportCopied, L));
    }
    if (shown.empty()) hint_text(tr(Str::NothingFits, L));
    draw_cost_time_chart(app, shown);
    const float em = ImGui::GetFontSize();
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_Sortable;
    // Narrow screens (phones): the fixed columns alone would take the whole width and leave the option's name one
    // letter wide. There each row has two lines: the option, then its memory and verdict under it; the table keeps
    // the option, time and cost columns.
    const bool narrow = ImGui::GetContentRegionAvail().x < 36.0f * em;
    const float row_lines = narrow ? 2.0f : 1.0f;
    const float height = std::min(22.0f, 1.6f * row_lines * static_cast<float>(shown.size()) + 2.0f) * em;
    if (ImGui::BeginTable("##ranking", narrow ? 4 : 7, flags, ImVec2(0, height))) {
        ImGui::TableSetupScrollFreeze(0, 1);
        // Column user ids: 0 the engine's rank (the default order, so the sort arrow starts on "#"), 1 memory,
        // 2 time, 3 cost, 4 fits, 5 the option's name (alphabetical).
        ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_DefaultSort,
                                (narrow ? 2.2f : 2.8f) * em, 0);
        ImGui::TableSetupColumn(tr(Str::ColOption, L), ImGuiTableColumnFlags_WidthStretch, 1.0f, 5);
        // The plan: how the option runs the job (engine/planner.h); not sortable, it is words.
        if (!narrow)
            ImGui::TableSetupColumn(tr(Str::ColPlan, L), ImGuiTableColumnFlags_WidthStretch | ImGuiTableColumnFlags_NoSort,
                                    1.3f, 6);
        if (!narrow) ImGui::TableSetupColumn(tr(Str::ColMemory, L), ImGuiTableColumnFlags_WidthFixed, 7.5f * em, 1);
        ImGui::TableSetupColumn(tr(Str::ColTime, L), ImGuiTableColumnFlags_WidthFixed, 5.0f * em, 2);
        ImGui::TableSetupColumn(tr(Str::ColCost, L), ImGuiTableColumnFlags_WidthFixed, 5.0f * em, 3);
        if (!narrow) ImGui::TableSetupColumn(tr(Str::ColFits, L), ImGuiTableColumnFlags_WidthFixed, 4.5f * em, 4);
        // The header row, with the numeric columns' names right-aligned over their numbers (TableHeadersRow draws
        // every name at the left; the sort arrow keeps the cell's right end).
        ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
        const int columns = ImGui::TableGetColumnCount();
        const float arrow_w = std::floor(em * 0.65f + ImGui::GetStyle().FramePadding.x);
        float header_bottom = 0;
        for (int c = 0; c < columns; ++c) {
            if (!ImGui::TableSetColumnIndex(c)) continue;
            const char* name = ImGui::TableGetColumnName(c);
            const bool numeric = narrow ? (c == 2 || c == 3) : (c == 4 || c == 5);  // the time and cost columns
            if (numeric) {
                const float room = ImGui::GetContentRegionAvail().x - arrow_w - ImGui::CalcTextSize(name).x;
                if (room > 0) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + room);
            }
            ImGui::PushID(c);  // as TableHeadersRow does: one ID per column
            ImGui::TableHeader(name);
            ImGui::PopID();
            header_bottom = std::max(header_bottom, ImGui::GetItemRectMax().y);
        }
        // The option's label, once per row (the name column and its sort need it).
        std::vector<std::string> labels(shown.size());
        std::vector<int> order(shown.size());
        for (size_t i = 0; i < shown.size(); ++i) {
            labels[i] = option_label(app.catalog(), *shown[i], L);
            order[i] = static_cast<int>(i);
        }
        // Sort the shown rows by the clicked column; ties keep the engine's order (stable sort).
        if (const ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs(); specs && specs->SpecsCount > 0) {
            const ImGuiTableColumnSortSpecs& spec = specs->Specs[0];
            const bool ascending = spec.SortDirection != ImGuiSortDirection_Descending;
            auto key = [&](const nlohmann::json* o) -> double {
                switch (spec.ColumnUserID) {
                    case 1: return json_number(*o, "peak_bytes_per_card", 0);
                    case 2: { const double t = json_number(*o, "time_s"); return t >= 0 ? t : 1e300; }
                    case 3: { const double c = o->contains("cost") ? json_number((*o)["cost"], "amount") : -1; return c >= 0 && std::isfinite(c) ? c : 1e300; }
                    case 4: return o->value("fits", false) ? 0.0 : 1.0;
                    default: return o->value("rank", 0);
                }
            };
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
                if (spec.ColumnUserID == 5) return ascending ? labels[a] < labels[b] : labels[a] > labels[b];
                // Unknown times and costs ("-") stay at the end in both directions.
                const double ka = key(shown[a]), kb = key(shown[b]);
                if ((ka >= 1e300) != (kb >= 1e300)) return kb >= 1e300;
                return ascending ? ka < kb : ka > kb;
            });
        }
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(shown.size()));
        while (clipper.Step()) {
            for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
                const nlohmann::json& o = *shown[order[i]];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                const float line_h = ImGui::GetTextLineHeight();
                const std::string rank = std::to_string(o.value("rank", 0));
                // The row's selectable spans every column; its label is the rank, right-aligned by padding.
                const float pad = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(rank.c_str()).x;
                const float x0 = ImGui::GetCursorPosX();
                if (ImGui::Selectable(("##opt" + o.value("id", "")).c_str(), false, ImGuiSelectableFlags_SpanAllColumns,
                                      ImVec2(0, narrow ? 2.0f * line_h : 0.0f))) {
                    // The option's plan becomes the inputs (card, count and layout); without one, its card and count.
                    if (!apply_plan(app, o)) {
                        select_gpu(app.scenario, o.value("gpu", ""));
                        app.scenario.gpu_count = o.value("count", 1);
                        app.scenario_dirty = true;
                    }
                }
                const bool row_hovered = ImGui::IsItemHovered();
                // Narrow: the option's line starts at the row's left edge with the rank in front (the name needs
                // the width); wide: the rank in its own column.
                const ImVec2 rank_top = ImGui::GetCursorScreenPos();
                if (!narrow) {
                    ImGui::SameLine(x0 + std::max(0.0f, pad), 0);
                    ImGui::TextDisabled("%s", rank.c_str());
                }
                ImGui::TableNextColumn();
                std::string text = (o.value("pareto", false) ? "* " : "  ") + labels[order[i]];
                if (narrow) {
                    // A phone needs the width for the offer: "RTX 4090", not "NVIDIA GeForce RTX 4090".
                    for (const char* prefix : {"NVIDIA GeForce ", "NVIDIA "})
                        if (const std::size_t at = text.find(prefix); at != std::string::npos) {
                            text.erase(at, std::strlen(prefix));
                            break;
                        }
                }
                const ImVec2 row_top = ImGui::GetCursorScreenPos();
                // A phone shows the peak only (the usable memory is in the cell's tooltip).
                const std::string memory = narrow ? format_gib(json_number(o, "peak_bytes_per_card", 0), L)
                                                  : format_gib(json_number(o, "peak_bytes_per_card", 0), L) + " / " +
                                                        format_gib(json_number(o, "usable_bytes_per_card", 0), L);
                const bool fits = o.value("fits", false);
                // A row shown only because "also show the options that were left out" is on: it may fit and still be
                // excluded (budget, rent or buy, compatibility); say so rather than "Yes".
                const bool left_out = fits && !o.value("eligible", false);
                const char* verdict = tr(left_out ? Str::LeftOut : fits ? Str::Yes : Str::No, L);
                const ImU32 verdict_col = left_out ? ImGui::GetColorU32(ImGuiCol_TextDisabled) : ImGui::GetColorU32(verdict_color(fits));
                if (narrow) {
                    // First line: the option across the rest of the row; second line: memory and verdict here,
                    // then the time and cost in their columns.
                    ImDrawList* draw = ImGui::GetWindowDrawList();
                    // Past the cells' clip rectangles, inside the table's scrolling region (its window's inner clip).
                    const ImRect inner = ImGui::GetCurrentWindow()->InnerClipRect;
                    // Below the frozen header row: a row scrolled half under it must not draw over the names.
                    draw->PushClipRect(ImVec2(rank_top.x, std::max({row_top.y, inner.Min.y, header_bottom})),
                                       ImVec2(inner.Max.x, std::min(row_top.y + line_h, inner.Max.y)), false);
                    draw->AddText(ImVec2(rank_top.x, row_top.y), ImGui::GetColorU32(ImGuiCol_TextDisabled), rank.c_str());
                    draw->AddText(ImVec2(rank_top.x + ImGui::CalcTextSize((rank + " ").c_str()).x, row_top.y),
                                  ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
                    draw->PopClipRect();
                    // The verdict first: the time column starts where a long memory figure would end.
                    std::string second = std::string("  ") + verdict + "  ·  " + memory;
                    const std::string plan_words =
                        o.contains("plan") ? plan_summary(o["plan"], r.scenario.scenario, L) : std::string();
                    if (!plan_words.empty()) second += "  ·  " + plan_words;
                    // Up to the time column, whose numbers are right-aligned and may start early.
                    const float time_x = ImGui::TableGetCellBgRect(ImGui::GetCurrentTable(), 2).Min.x;
                    draw->PushClipRect(ImVec2(row_top.x, std::max({row_top.y + line_h, inner.Min.y, header_bottom})),
                                       ImVec2(std::min(inner.Max.x, time_x), std::min(row_top.y + 2 * line_h, inner.Max.y)), false);
                    draw->AddText(ImVec2(row_top.x, row_top.y + line_h), verdict_col, second.c_str());
                    draw->PopClipRect();
                } else {
                    ImGui::TextUnformatted(text.c_str());
                    ImGui::TableNextColumn();
                    const std::string plan_words =
                        o.contains("plan") ? plan_summary(o["plan"], r.scenario.scenario, L) : std::string();
                    ImGui::TextUnformatted(plan_words.empty() ? "-" : plan_words.c_str());
                    if (i == 0) test_anchor(app, "ranking-first-plan");
                    ImGui::TableNextColumn();
                    ImGui::TextUnformatted(memory.c_str());
                }
                ImGui::TableNextColumn();
                if (narrow) ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, row_top.y + line_h));
                const double t = json_number(o, "time_s");
                text_right(t > 0 ? format_duration(t, L) : "-");
                ImGui::TableNextColumn();
                if (narrow) ImGui::SetCursorScreenPos(ImVec2(ImGui::GetCursorScreenPos().x, row_top.y + line_h));
                const double cost = o.contains("cost") ? json_number(o["cost"], "amount") : -1;
                text_right(cost >= 0 ? format_money(cost, o["cost"].value("currency", "CNY"), L) : "-");
                if (i == 0) test_anchor(app, "ranking-first-cost");
                if (!narrow) {
                    ImGui::TableNextColumn();
                    ImGui::PushStyleColor(ImGuiCol_Text, verdict_col);
                    ImGui::TextUnformatted(verdict);
                    ImGui::PopStyleColor();
                }
                // The tooltip of the hovered cell, by what the cell shows (0 the option, 1 memory, 2 time, 3 cost,
                // 4 fits, 5 the plan); the rank column explains the option, as the name does.
                constexpr int kWideColumns[] = {0, 0, 5, 1, 2, 3, 4};
                constexpr int kNarrowColumns[] = {0, 0, 2, 3};
                if (row_hovered)
                    for (int column = 0; column < (narrow ? 4 : 7); ++column)
                        if (ImGui::TableGetColumnFlags(column) & ImGuiTableColumnFlags_IsHovered)
                            ranking_cell_tooltip(app, o, narrow ? kNarrowColumns[column] : kWideColumns[column]);
            }
        }
        ImGui::EndTable();
    }
}

// The config to paste into the scenario's stack (catalog::stack_config), read-only and selectable (Ctrl+C copies).
void draw_stack_config(AppState& app) {
    const Results& r = app.results;
    if (r.stack_config.empty()) return;
    const Lang L = app.lang;
    const std::string& stack = r.scenario.scenario.stack;
    const char* name = tr(stack == "llama-factory" ? Str::StackLlamaFactory
                          : stack == "torchtune"   ? Str::StackTorchtune
                                                   : Str::StackHf,
                          L);
    char title[256];
    std::snprintf(title, sizeof title, tr(Str::StackConfigTitle, L), name);
    if (!ImGui::TreeNode(stable_label(title, "stack-config").c_str())) return;
    test_anchor(app, "stack-config");
    hint_text(tr(Str::StackConfigTip, L));
    int lines = 1;
    for (char ch : r.stack_config) lines += ch == '\n';
    const float h = (float(std::min(lines, 24)) + 1.0f) * ImGui::GetTextLineHeight();
    // ReadOnly: ImGui never writes into the buffer, so the results' string is shown as it is.
    ImGui::InputTextMultiline("##stack_config", const_cast<char*>(r.stack_config.c_str()), r.stack_config.size() + 1,
                              ImVec2(-FLT_MIN, h), ImGuiInputTextFlags_ReadOnly);
    ImGui::TreePop();
}

void draw_results(AppState& app) {
    if (!app.scenario_problems.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
        wrapped_text(tr(Str::InputsInvalid, app.lang));
        for (const catalog::Problem& p : app.scenario_problems)
            ImGui::BulletText("%s: %s", catalog::printable(p.pointer, 120).c_str(), catalog::printable(p.message, 600).c_str());
        ImGui::PopStyleColor();
    }
    if (!app.results.valid) return;
    draw_verdict(app);
    draw_plan_verdict(app);
    draw_advice(app);
    draw_stack_config(app);
    draw_time(app);
    draw_breakdown(app);
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
                  gpu->name.c_str(), format_gib(m.nvidia_smi.bytes, L).c_str(), format_gib(m.usable_bytes, L).c_str());
    ImGui::PopStyleColor();
    const double total_s = r.report.contains("time") ? json_number(r.report["time"], "total_s") : -1;
    if (total_s > 0) wrapped_textf(tr(Str::SummaryTime, L), format_duration(total_s, L).c_str());
}

void draw_narrow(AppState& app) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    const float half = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    const ImVec4 active = ImGui::GetStyleColorVec4(ImGuiCol_TabActive);  // the selected view looks like a selected tab
    for (int view = 0; view < 2; ++view) {
        if (view == 1) ImGui::SameLine();
        const bool on = app.narrow_show_answer == (view == 1);
        if (on) {
            ImGui::PushStyleColor(ImGuiCol_Button, active);
            ImGui::PushStyleColor(ImGuiCol_ButtonHovered, active);
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        }
        if (ImGui::Button(tr(view == 0 ? Str::NarrowJob : Str::NarrowAnswer, L), ImVec2(half, 2.0f * em)))
            app.narrow_show_answer = view == 1;
        test_anchor(app, view == 0 ? "view-job" : "view-answer");
        if (on) ImGui::PopStyleColor(3);
    }
    if (!app.narrow_show_answer) draw_narrow_summary(app);  // the answer view starts with the full verdict
    ImGui::Separator();
    ImGui::BeginChild("##narrow", ImVec2(0, 0), false);
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
        draw_inputs(app);
        ImGui::EndChild();
        ImGui::SameLine(0, 1.2f * em);
        ImGui::BeginChild("##results", ImVec2(0, 0), false);
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

std::vector<std::string> network_choice_values() {
    std::vector<std::string> out;
    for (const Choice& c : kNetworkChoices) out.push_back(c.value);
    return out;
}

}  // namespace gg::ui
