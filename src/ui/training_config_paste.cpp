// "Paste your training config": a LLaMA-Factory / axolotl / torchtune YAML, a PEFT adapter_config.json or
// TrainingArguments JSON read by catalog::read_training_config into the calculator's scenario (the card stays the
// one chosen), with what was assumed and the keys not used listed under the box. ImGui only; no platform code.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "catalog/training_config.h"
#include "ui/calculator_panels.h"
#include "ui/strings.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

constexpr std::size_t kTrainingConfigTextBytes = std::size_t(1) << 18;  // 256 KiB, catalog::kMaxYamlTextBytes

bool pasted_hf_model(const catalog::Scenario& s) {
    return s.model_id == "custom" && s.custom_model.is_object() && s.custom_model.contains("hf_config");
}

void use_training_config(AppState& app) {
    const std::string text(app.training_config_text.data());
    catalog::TrainingConfigRead read = catalog::read_training_config(text, "training config");
    // A base model that is not bundled: the config.json pasted in the box above, when the calculator uses one.
    if (!read.unknown_model.empty() && pasted_hf_model(app.scenario)) {
        const nlohmann::json hf = app.scenario.custom_model["hf_config"];
        catalog::TrainingConfigOptions options;
        options.hf_config = &hf;
        const std::string name = read.unknown_model;
        read = catalog::read_training_config(text, "training config", options);
        read.assumed.insert(read.assumed.begin(), {name, "not bundled: the config.json pasted above is used"});
    }
    app.training_config_problems = read.problems;
    app.training_config_unknown_model = read.unknown_model;
    app.training_config_notes.clear();
    if (!read.problems.empty()) return;
    for (const catalog::ConfigKeyNote& n : read.assumed)
        app.training_config_notes.push_back({true, n.key, n.note, n.kind});
    for (const catalog::ConfigKeyNote& n : read.not_used)
        app.training_config_notes.push_back({false, n.key, n.note, n.kind});
    nlohmann::json scenario = read.scenario;
    if (!app.scenario.gpu_id.empty()) scenario["gpu"]["id"] = app.scenario.gpu_id;  // the card is the reader's choice
    std::vector<catalog::Problem> problems = app_load_scenario(app, scenario.dump());
    if (!problems.empty() && scenario["gpu"].contains("id")) {  // e.g. bf16 on a card without it: the config alone
        scenario["gpu"].erase("id");
        problems = app_load_scenario(app, scenario.dump());
    }
    app.training_config_problems = problems;
}

void draw_notes(const AppState& app, bool assumed, Str heading) {
    const bool any = std::any_of(app.training_config_notes.begin(), app.training_config_notes.end(),
                                 [&](const TrainingConfigNote& n) { return n.assumed == assumed; });
    if (!any) return;
    ImGui::TextUnformatted(tr(heading, app.lang));
    // The common reasons in the page's language; the reader's own sentences (what it assumed and why, a key it
    // cannot read) are English, and the Chinese page says so once.
    const bool sentences = std::any_of(app.training_config_notes.begin(), app.training_config_notes.end(),
                                       [&](const TrainingConfigNote& n) {
                                           return n.assumed == assumed && n.kind == catalog::ConfigNoteKind::kOther;
                                       });
    if (app.lang == Lang::Zh && sentences) hint_text(tr(Str::TrainingConfigNotesInEnglish, app.lang));
    for (const TrainingConfigNote& n : app.training_config_notes) {
        if (n.assumed != assumed) continue;
        const char* note = n.note.c_str();
        switch (n.kind) {
            case catalog::ConfigNoteKind::kIrrelevant: note = tr(Str::TrainingConfigNoteIrrelevant, app.lang); break;
            case catalog::ConfigNoteKind::kEmpty: note = tr(Str::TrainingConfigNoteEmpty, app.lang); break;
            case catalog::ConfigNoteKind::kNotModelled: note = tr(Str::TrainingConfigNoteNotModelled, app.lang); break;
            case catalog::ConfigNoteKind::kOther: break;
        }
        if (app.lang == Lang::En) note = n.note.c_str();  // English keeps the stack's name ("torchtune's default")
        hint_textf("%s: %s", n.key.c_str(), note);
    }
}

}  // namespace

void draw_training_config_paste(AppState& app) {
    const Lang L = app.lang;
    std::vector<char>& text = app.training_config_text;
    const std::string label = std::string(tr(Str::TrainingConfigPaste, L)) + "##training_config";
    const bool open = ImGui::TreeNodeEx(label.c_str(), 0);
    test_anchor(app, "training_config_open");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(tooltip_wrap(30.0f));
        ImGui::TextUnformatted(tr(Str::TrainingConfigTip, L));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    if (!open) return;
    if (text.size() < kTrainingConfigTextBytes) text.assign(kTrainingConfigTextBytes, '\0');
    if (ImGui::InputTextMultiline("##training_config_text", text.data(), text.size(),
                                  ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * 8)))
        app.paste_refused = false;
    test_anchor(app, "training_config_text");
    if (ImGui::Button(tr(Str::TrainingConfigApply, L))) use_training_config(app);
    test_anchor(app, "training_config_apply");
    ImGui::SameLine();
    if (ImGui::Button((std::string(tr(Str::Paste, L)) + "##training_config_paste").c_str())) {
        app.paste_requested = true;
        app.paste_into_training_config = true;
    }
    test_anchor(app, "training_config_paste");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(Str::PasteTip, L));
    if (!app.training_config_problems.empty()) {
        // problem_list's layout, without the pointer: each message starts with the config's own key.
        ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
        wrapped_text(tr(Str::TrainingConfigProblems, L));
        for (const catalog::Problem& p : app.training_config_problems) {
            ImGui::Bullet();
            wrapped_text(p.message.c_str());
        }
        ImGui::PopStyleColor();
        if (!app.training_config_unknown_model.empty()) hint_text(tr(Str::TrainingConfigNeedsHfConfig, L));
    }
    draw_notes(app, true, Str::TrainingConfigAssumed);
    draw_notes(app, false, Str::TrainingConfigNotUsed);
    test_anchor(app, "training_config_notes");
    ImGui::TreePop();
}

}  // namespace gg::ui
