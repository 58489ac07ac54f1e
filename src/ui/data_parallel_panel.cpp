// torch.nn.DataParallel's cards apart and what DDP would save: shows the report's "data_parallel" section
// (catalog/data_parallel_json.h); computes nothing. ImGui only.
#include "ui/calculator_panels.h"
#include "ui/format.h"
#include "ui/strings.h"
#include "ui/widgets.h"

namespace gg::ui {

void draw_data_parallel(AppState& app) {
    const nlohmann::json& report = app.results.report;
    if (!report.is_object() || !report.contains("data_parallel") || !report["data_parallel"].is_object()) return;
    const nlohmann::json& d = report["data_parallel"];
    const Lang L = app.lang;
    const nlohmann::json none = nlohmann::json::object();
    auto part = [&](const char* key) -> const nlohmann::json& {
        return d.contains(key) && d[key].is_object() ? d[key] : none;
    };
    auto gib = [&](const nlohmann::json& j, const char* key) { return format_gib(json_number(j, key, 0), L); };
    auto secs = [&](const nlohmann::json& j, const char* key) {
        const double v = json_number(j, key);
        return v < 0 ? std::string("-") : format_duration(v, L);
    };
    section_heading(app, tr(Str::DpTitle, L));
    const nlohmann::json &gpu0 = part("gpu0"), &others = part("other_gpus"), &moves = part("transfers"),
                         &ddp = part("ddp"), &saves = part("ddp_saves");
    wrapped_textf(tr(Str::DpGpu0, L), gib(gpu0, "nvidia_smi_bytes").c_str(), gib(gpu0, "optimizer_bytes").c_str(),
                  gib(gpu0, "gathered_output_bytes").c_str(), gib(gpu0, "scattered_input_bytes").c_str());
    wrapped_textf(tr(Str::DpOthers, L), gib(others, "nvidia_smi_bytes").c_str());
    if (json_number(d, "step_s") < 0) return;  // no time without a card
    hint_textf(tr(Str::DpTransfers, L), secs(moves, "broadcast_s").c_str(), secs(moves, "reduce_s").c_str(),
               secs(moves, "scatter_gather_s").c_str(), secs(moves, "launch_wait_s").c_str());
    wrapped_textf(tr(Str::DpDdpSaves, L), secs(ddp, "step_s").c_str(), secs(d, "step_s").c_str(),
                  secs(saves, "total_s").c_str(), gib(ddp, "nvidia_smi_bytes").c_str(),
                  gib(gpu0, "nvidia_smi_bytes").c_str());
}

}  // namespace gg::ui
