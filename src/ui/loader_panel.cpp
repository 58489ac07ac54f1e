// The calculator's data-loader inputs and line (see loader_panel.h).
#include "ui/loader_panel.h"

#include <string>
#include <vector>

#include "ui/calculator_panels.h"
#include "ui/format.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {
namespace {

const std::vector<Choice> kPipelineChoices = {{"", Str::LoaderPipelineAuto},
                                              {"cifar-augment", Str::LoaderPipelineCifar},
                                              {"imagenet-jpeg", Str::LoaderPipelineJpeg},
                                              {"pretokenized", Str::LoaderPipelineText},
                                              {"keeps-up", Str::LoaderPipelineKeepsUp}};

const char* pipeline_name(const std::string& id, Lang lang) {
    for (const Choice& c : kPipelineChoices)
        if (c.value[0] != '\0' && id == c.value) return tr(c.label, lang);
    return id.c_str();
}

}  // namespace

bool loader_inputs(AppState& app, catalog::Scenario& s, Lang L) {
    bool changed = false;
    if (s.loader_samples_per_s > 0) {  // a measured rate stands for the pipeline (dataset.loader_samples_per_s)
        if (!s.loader_pipeline.empty()) {
            s.loader_pipeline.clear();
            changed = true;
        }
    } else {
        field_label(tr(Str::LoaderPipeline, L), tr(Str::LoaderPipelineTip, L));
        changed |= choice_combo("##loader_pipeline", s.loader_pipeline, kPipelineChoices, L);
    }
    field_label(tr(Str::LoaderWorkers, L), tr(Str::LoaderWorkersTip, L));
    changed |= int_field(app, "##loader_workers", s.loader_workers, -1, 256, "");
    if (s.loader_workers == -1) hint_text(tr(Str::LoaderWorkersAuto, L));  // what the sentinel means, not a bare -1
    field_label(tr(Str::LoaderCpus, L), tr(Str::LoaderCpusTip, L));
    changed |= int_field(app, "##loader_cpus", s.loader_cpus, 0, 4096, "");
    if (s.loader_cpus == 0) hint_text(tr(Str::LoaderCpusNotGiven, L));
    return changed;
}

void draw_loader_line(AppState& app, const nlohmann::json& t, Lang L) {
    if (!t.contains("loader") || !t["loader"].is_object()) return;
    const nlohmann::json& l = t["loader"];
    const std::string status = l.value("status", "");
    const std::string pipeline = l.contains("pipeline") && l["pipeline"].is_string() ? l["pipeline"].get<std::string>() : "";
    const char* assumed = l.value("assumed", false) ? tr(Str::LoaderAssumed, L) : "";
    const std::string name = pipeline_name(pipeline, L) + std::string(l.value("in_training_process", false)
                                                                          ? tr(Str::LoaderInTrainingProcess, L)
                                                                          : "");
    const std::string workers = format_significant(json_number(l, "workers_used", 0), 3);
    const std::string per_cpu = format_grouped(json_number(l, "per_cpu_samples_per_s", 0));
    const std::string rate = format_grouped(json_number(l, "samples_per_s", 0));
    const std::string gpu = format_grouped(json_number(l, "gpu_samples_per_s", 0));
    if (status == "cpu_bound") {
        ImGui::PushStyleColor(ImGuiCol_Text, kTightColor);
        wrapped_textf(tr(Str::LoaderCpuBound, L), workers.c_str(), per_cpu.c_str(), rate.c_str(), gpu.c_str(),
                      name.c_str(), assumed);
        ImGui::PopStyleColor();
        test_anchor(app, "loader-cpu-bound");
    } else if (status == "keeps_up" && pipeline != "keeps-up") {
        hint_textf(tr(Str::LoaderKeepsUpLine, L), workers.c_str(), per_cpu.c_str(), rate.c_str(), gpu.c_str(),
                   name.c_str(), assumed);
    } else if (status == "cpus_unknown") {
        hint_textf(tr(Str::LoaderCpusUnknownLine, L), name.c_str(), per_cpu.c_str(), gpu.c_str());
    } else if (status == "no_pipeline") {
        hint_text(tr(Str::LoaderNoPipelineLine, L));
    } else if (status == "no_cpu_limit") {
        hint_text(tr(Str::LoaderNoLimitLine, L));
    }
}

}  // namespace gg::ui
