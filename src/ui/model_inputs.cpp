// The calculator's model inputs: the model box (presets by family, the GANs, the custom-model starting points), the
// custom-model editor and the Hugging Face config.json box. Writes AppState::scenario through the scenario parser;
// draws no result. The other inputs are calculator_inputs.cpp's.
#include <algorithm>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/gan_models.h"
#include "catalog/json_text.h"
#include "catalog/model_defaults.h"
#include "engine/workload.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/gan_panel.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

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

}  // namespace

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
    if (ImGui::InputTextMultiline("##hf_config_text", text.data(), text.size(),
                                  ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * 8)))
        app.paste_refused = false;  // the user pasted or typed another way
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
    ImGui::SameLine();
    // Phones have no Ctrl+V, and a canvas gets no Paste in the browser's menu: this reads the clipboard instead.
    if (ImGui::Button((std::string(tr(Str::Paste, L)) + "##hf_config_paste").c_str())) app.paste_requested = true;
    test_anchor(app, "hf_config_paste");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::PasteTip, L));
    if (app.paste_refused) hint_text(tr(Str::PasteRefused, L));
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
    if (const engine::GanSpec* gan = catalog::find_gan_preset(app.gan_model_id)) preview = gan->name;
    bool changed = false;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo("##model", preview.c_str(), ImGuiComboFlags_HeightLarge)) {
        const Str groups[] = {Str::FamilyCnn,     Str::FamilyDetection, Str::FamilyVit, Str::FamilyEncoder,
                              Str::FamilyDecoder, Str::FamilyDiffusion, Str::FamilyRnn};
        for (Str group : groups) {
            ImGui::TextDisabled("%s", tr(group, app.lang));
            for (const engine::ModelSpec& m : engine::preset_models()) {
                if (!m.available || family_group(m.family) != group) continue;
                const bool selected = !gan_active(app) && s.model_id == m.id;
                ImGui::Indent();
                if (ImGui::Selectable((m.name + "##" + m.id).c_str(), selected) && !selected) {
                    // The new model's usual batch, precision and checkpointing (catalog::switch_model), said so below
                    // the box; when the kept settings do not fit the new model, the model alone changes and the
                    // problems show.
                    std::vector<catalog::Problem> problems;
                    if (catalog::switch_model(s, m.id, app.catalog(), problems)) {
                        app.custom_model_draft = nullptr;
                        app.custom_model_problems.clear();
                        app.model_defaults_note = true;
                        changed = true;
                        ImGui::Unindent();
                        continue;
                    }
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
        if (changed) app.gan_model_id.clear();  // a one-network preset leaves the GAN view
        changed |= draw_gan_choices(app);     // the "GANs" group (gan_panel.cpp)
        ImGui::TextDisabled("%s", tr(Str::FamilyCustom, app.lang));
        for (const CustomTemplate& t : kCustomTemplates) {
            ImGui::Indent();
            if (ImGui::Selectable((std::string(tr(t.label, app.lang)) + "##custom_" + t.family).c_str(),
                                  s.model_id == "custom" && s.custom_model.value("family", "") == t.family)) {
                app.gan_model_id.clear();
                apply_custom_model(app, nlohmann::json::parse(t.json), true);
            }
            ImGui::Unindent();
        }
        ImGui::EndCombo();
    }
    return changed;
}

void app_paste_result(AppState& app, bool ok, std::string_view text) {
    app.paste_refused = !ok;
    std::vector<char>& box = app.paste_into_training_config ? app.training_config_text : app.hf_config_text;
    app.paste_into_training_config = false;
    if (!ok) return;
    if (box.size() < kHfConfigTextBytes) box.assign(kHfConfigTextBytes, '\0');
    // As ImGui's own paste does: no carriage returns, and what fits the box, never half a UTF-8 character.
    std::size_t n = 0, read = 0;
    for (; read < text.size() && n + 1 < box.size(); ++read)
        if (text[read] != '\r') box[n++] = text[read];
    if (read < text.size()) {
        std::size_t lead = n;  // the last character's first byte
        while (lead > 0 && (static_cast<unsigned char>(box[lead - 1]) & 0xC0) == 0x80) --lead;
        if (lead > 0) {
            const unsigned char b = static_cast<unsigned char>(box[lead - 1]);
            const std::size_t length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
            if (n - (lead - 1) < length) n = lead - 1;
        }
    }
    std::fill(box.begin() + static_cast<std::ptrdiff_t>(n), box.end(), '\0');
}

}  // namespace gg::ui
