// "Calibrate with my measurement" (issue 33) on the calculator: what the user's own run measured on the scenario's
// card, the error against gpuguide's uncalibrated estimate, the term that explains it (engine/calibration.h), and
// "Apply to my card" / "Undo" / "Remove" over the user's data ("calibrations" of catalog::merge_user_data, saved and
// exported with the rest). Also the "calibrated by you" badge the results show. No engine logic here.
#include <algorithm>
#include <string>

#include "catalog/calibrate.h"
#include "engine/workload.h"
#include "ui/app.h"
#include "ui/format.h"
#include "ui/strings.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {

std::string signed_percent(double fraction) { return (fraction >= 0 ? "+" : "") + format_percent(fraction); }

// The user's record for a card in app.user_data["calibrations"], or nullptr.
const nlohmann::json* calibration_record_of(const AppState& app, const std::string& gpu_id) {
    if (!app.user_data.is_object() || !app.user_data.contains("calibrations") || !app.user_data["calibrations"].is_array())
        return nullptr;
    for (const nlohmann::json& r : app.user_data["calibrations"])
        if (r.is_object() && r.contains("gpu") && r["gpu"].is_string() && r["gpu"].get<std::string>() == gpu_id) return &r;
    return nullptr;
}

// Replaces the card's record by `record` (null: removes it) and rebuilds the merged catalog.
void set_calibration_record(AppState& app, const std::string& gpu_id, nlohmann::json record) {
    nlohmann::json data = app.user_data.is_object() ? app.user_data : nlohmann::json{{"schema_version", 1}};
    if (!data.contains("calibrations") || !data["calibrations"].is_array()) data["calibrations"] = nlohmann::json::array();
    nlohmann::json& list = data["calibrations"];
    for (auto it = list.begin(); it != list.end();) {
        if (it->is_object() && it->value("gpu", "") == gpu_id) it = list.erase(it);
        else ++it;
    }
    if (!record.is_null()) list.push_back(std::move(record));
    app_set_user_data(app, std::move(data));
    app.scenario_dirty = true;
}

std::string gpu_name(const AppState& app, const std::string& id) {
    const engine::GpuSpec* g = app.catalog().find_gpu(id);
    return g ? g->name : id;
}

}  // namespace

bool app_check_calibration(AppState& app, const engine::Measurement& measured) {
    app.calibration_checked = false;
    app.calibration_message = Str::Dismiss;
    if (app.scenario.gpu_id.empty() || app.catalog().find_gpu(app.scenario.gpu_id) == nullptr) return false;
    if (!(measured.nvidia_smi_bytes > 0) && !(measured.peak_allocated_bytes > 0) &&
        !(measured.peak_reserved_bytes > 0) && !(measured.samples_per_s > 0))
        return false;
    engine::CalibrationInputs in;
    if (!catalog::calibration_inputs(app.scenario, app.catalog(), in)) return false;
    app.calibration_result = engine::attribute_measurement(measured, in);
    app.calibration_measured = measured;
    app.calibration_gpu = app.scenario.gpu_id;
    app.calibration_family = in.family;
    app.calibration_checked = true;
    return true;
}

bool app_apply_calibration(AppState& app) {
    if (!app.calibration_checked || !app.calibration_result.applicable()) return false;
    const engine::GpuSpec* g = app.catalog().find_gpu(app.calibration_gpu);
    if (g == nullptr) return false;
    const nlohmann::json* before = calibration_record_of(app, app.calibration_gpu);
    app.calibration_undo_record = before ? *before : nlohmann::json(nullptr);
    app.calibration_undo_gpu = app.calibration_gpu;
    app.calibration_undo_available = true;
    const engine::CardCalibration merged =
        catalog::accept_calibration(g->calibration, app.calibration_result, app.calibration_family);
    set_calibration_record(app, app.calibration_gpu,
                           catalog::calibration_record(app.calibration_gpu, merged, app.calibration_measured,
                                                       app.scenario.model.id, app.today_iso));
    app.calibration_checked = false;
    app.calibration_message = Str::CalApplied;
    return true;
}

void app_undo_calibration(AppState& app) {
    if (!app.calibration_undo_available) return;
    set_calibration_record(app, app.calibration_undo_gpu, app.calibration_undo_record);
    app.calibration_undo_available = false;
    app.calibration_undo_record = nullptr;
    app.calibration_message = Str::CalUndone;
}

void app_remove_calibration(AppState& app, const std::string& gpu_id) {
    const nlohmann::json* before = calibration_record_of(app, gpu_id);
    if (before == nullptr) return;
    app.calibration_undo_record = *before;
    app.calibration_undo_gpu = gpu_id;
    app.calibration_undo_available = true;
    set_calibration_record(app, gpu_id, nullptr);
    app.calibration_message = Str::Dismiss;
}

bool draw_calibration_badge(AppState& app) {
    const engine::GpuSpec* g = app.scenario.gpu_id.empty() ? nullptr : app.catalog().find_gpu(app.scenario.gpu_id);
    if (g == nullptr || !g->calibration.any()) return false;
    const Lang L = app.lang;
    const engine::CardCalibration& c = g->calibration;
    std::string parts;
    char buf[160];
    if (c.cuda_context_bytes >= 0) {
        std::snprintf(buf, sizeof buf, tr(Str::CalBadgeContext, L), format_gib(c.cuda_context_bytes, L).c_str());
        parts += buf;
    }
    if (c.fragmentation_fraction >= 0) {
        std::snprintf(buf, sizeof buf, tr(Str::CalBadgeAllocator, L), format_percent(c.fragmentation_fraction).c_str());
        parts += (parts.empty() ? "" : ", ") + std::string(buf);
    }
    for (const auto& s : c.speed) {
        std::snprintf(buf, sizeof buf, tr(Str::CalBadgeSpeed, L), format_significant(s.efficiency_factor, 3).c_str(),
                      s.family.c_str());
        parts += (parts.empty() ? "" : ", ") + std::string(buf);
    }
    std::snprintf(buf, sizeof buf, tr(Str::CalBadge, L), g->name.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, kTightColor);
    wrapped_text((std::string(buf) + " " + parts).c_str());
    ImGui::PopStyleColor();
    test_anchor(app, "calibration_badge");
    return true;
}

void draw_calibration(AppState& app) {
    const Lang L = app.lang;
    const float em = ImGui::GetFontSize();
    const bool open = wrapped_collapsing_header(stable_label(tr(Str::CalTitle, L), "calibrate").c_str(), false);
    test_anchor(app, "calibration_header");
    if (!open) return;
    const engine::GpuSpec* g = app.scenario.gpu_id.empty() ? nullptr : app.catalog().find_gpu(app.scenario.gpu_id);
    if (g == nullptr) {
        hint_text(tr(Str::CalNoCard, L));
        return;
    }
    hint_textf(tr(Str::CalIntro, L), g->name.c_str());
    AppState::CalibrationDraft& d = app.calibration_draft;
    bool edited = false;
    field_label(tr(Str::CalNvidiaSmi, L), tr(Str::CalNvidiaSmiTip, L));
    edited |= double_field(app, "##cal_nvidia_smi", d.nvidia_smi_gib, 0, 1024, 0, tr(Str::AxisGiB, L), "%.4g");
    field_label(tr(Str::CalAllocated, L), tr(Str::CalAllocatedTip, L));
    edited |= double_field(app, "##cal_allocated", d.allocated_gib, 0, 1024, 0, tr(Str::AxisGiB, L), "%.4g");
    field_label(tr(Str::CalReserved, L), tr(Str::CalReservedTip, L));
    edited |= double_field(app, "##cal_reserved", d.reserved_gib, 0, 1024, 0, tr(Str::AxisGiB, L), "%.4g");
    field_label(tr(Str::CalSpeed, L), tr(Str::CalSpeedTip, L));
    ImGui::SetNextItemWidth(7 * em);
    const char* units[] = {tr(Str::CalSamplesPerS, L), tr(Str::CalStepsPerS, L)};
    if (ImGui::Combo("##cal_speed_unit", &d.speed_unit, units, 2)) edited = true;
    ImGui::SameLine();
    edited |= double_field(app, "##cal_speed", d.speed_per_s, 0, 1e7, 0, "", "%.5g");
    if (edited || app.calibration_gpu != app.scenario.gpu_id) app.calibration_checked = false;

    if (ImGui::Button(tr(Str::CalCheck, L))) {
        engine::Measurement m;
        m.nvidia_smi_bytes = d.nvidia_smi_gib * engine::kBytesPerGiB;
        m.peak_allocated_bytes = d.allocated_gib * engine::kBytesPerGiB;
        m.peak_reserved_bytes = d.reserved_gib * engine::kBytesPerGiB;
        // Steps are optimizer steps: each trains the global batch (micro-batch x accumulation x cards).
        const int model_parallel = std::max(1, app.scenario.tensor_parallel * app.scenario.pipeline_parallel);
        const double per_step = double(app.scenario.batch_size) * std::max(1, app.scenario.grad_accum_steps) *
                                std::max(1, app.scenario.gpu_count / model_parallel);
        m.samples_per_s = d.speed_unit == 1 ? d.speed_per_s * per_step : d.speed_per_s;
        if (!app_check_calibration(app, m)) app.calibration_message = Str::CalNothingEntered;
    }
    test_anchor(app, "calibration_check");
    if (app.calibration_message == Str::CalNothingEntered) ImGui::TextColored(kBadColor, "%s", tr(Str::CalNothingEntered, L));

    if (app.calibration_checked) {
        const engine::CalibrationResult& r = app.calibration_result;
        const engine::Measurement& m = app.calibration_measured;
        char line[400];
        auto error_line = [&](const char* what, double measured, double predicted, double error) {
            std::snprintf(line, sizeof line, tr(Str::CalErrorLine, L), what, format_gib(measured, L).c_str(),
                          format_gib(predicted, L).c_str(), signed_percent(error).c_str());
            ImGui::Bullet();
            wrapped_text(line);
        };
        if (m.nvidia_smi_bytes > 0)
            error_line(tr(Str::CalNvidiaSmi, L), m.nvidia_smi_bytes, r.predicted_nvidia_smi_bytes, r.nvidia_smi_error_fraction);
        if (m.peak_allocated_bytes > 0)
            error_line(tr(Str::CalAllocated, L), m.peak_allocated_bytes, r.predicted_allocated_bytes, r.allocated_error_fraction);
        if (m.peak_reserved_bytes > 0)
            error_line(tr(Str::CalReserved, L), m.peak_reserved_bytes, r.predicted_reserved_bytes, r.reserved_error_fraction);
        if (m.samples_per_s > 0 && r.speed_error_fraction != 0) {
            const double predicted = m.samples_per_s * (1 + r.speed_error_fraction);
            std::snprintf(line, sizeof line, tr(Str::CalErrorLine, L), tr(Str::CalSpeed, L),
                          format_rate(m.samples_per_s, L).c_str(), format_rate(predicted, L).c_str(),
                          signed_percent(r.speed_error_fraction).c_str());
            ImGui::Bullet();
            wrapped_text(line);
        }
        // What explains it.
        if (r.cuda_context_bytes >= 0) {
            std::snprintf(line, sizeof line, tr(Str::CalTermContext, L), format_gib(r.cuda_context_bytes, L).c_str(),
                          format_gib(app.scenario.tunables.cuda_context_bytes, L).c_str());
            wrapped_text(line);
        }
        if (r.fragmentation_fraction >= 0) {
            std::snprintf(line, sizeof line, tr(Str::CalTermAllocator, L), format_percent(r.fragmentation_fraction).c_str(),
                          format_percent(app.scenario.tunables.fragmentation_fraction).c_str());
            wrapped_text(line);
        }
        if (r.efficiency_factor > 0) {
            std::snprintf(line, sizeof line, tr(Str::CalTermSpeed, L), format_percent(r.efficiency_factor).c_str());
            wrapped_text(line);
        }
        for (engine::CalibrationIssue issue : r.issues) {
            switch (issue) {
                case engine::CalibrationIssue::kTensorsDiffer: {
                    const std::string delta = (r.tensors_delta_bytes >= 0 ? "+" : "") + format_gib(r.tensors_delta_bytes, L);
                    std::snprintf(line, sizeof line, tr(Str::CalTensorsDiffer, L), delta.c_str());
                    hint_text(line);
                    break;
                }
                case engine::CalibrationIssue::kContextOutOfRange: hint_text(tr(Str::CalContextOutOfRange, L)); break;
                case engine::CalibrationIssue::kAllocatorOutOfRange:
                    std::snprintf(line, sizeof line, tr(Str::CalUnexplained, L), format_gib(r.unexplained_bytes, L).c_str());
                    hint_text(line);
                    break;
                case engine::CalibrationIssue::kReservedBelowAllocated:
                    ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
                    wrapped_text(tr(Str::CalImpossible, L));
                    ImGui::PopStyleColor();
                    break;
                case engine::CalibrationIssue::kNoTimeEstimate: hint_text(tr(Str::CalNoTime, L)); break;
                case engine::CalibrationIssue::kNotCardWork: hint_text(tr(Str::CalNotCardWork, L)); break;
                case engine::CalibrationIssue::kFactorOutOfRange: hint_text(tr(Str::CalFactorOutOfRange, L)); break;
                case engine::CalibrationIssue::kNone: break;
            }
        }
        if (r.applicable()) {
            if (ImGui::Button(tr(Str::CalApply, L))) app_apply_calibration(app);
            test_anchor(app, "calibration_apply");
        } else {
            hint_text(tr(Str::CalNothingToApply, L));
        }
    }
    if (app.calibration_message == Str::CalApplied || app.calibration_message == Str::CalUndone) {
        char line[240];
        std::snprintf(line, sizeof line, tr(app.calibration_message, L), gpu_name(app, app.calibration_undo_gpu).c_str());
        ImGui::PushStyleColor(ImGuiCol_Text, kGoodColor);
        wrapped_text(line);
        ImGui::PopStyleColor();
    }
    if (app.calibration_undo_available) {
        if (ImGui::Button(tr(Str::CalUndo, L))) app_undo_calibration(app);
        test_anchor(app, "calibration_undo");
        ImGui::SameLine();
    }
    if (calibration_record_of(app, app.scenario.gpu_id) != nullptr) {
        if (ImGui::Button(tr(Str::CalRemove, L))) app_remove_calibration(app, app.scenario.gpu_id);
        test_anchor(app, "calibration_remove");
    } else if (app.calibration_undo_available) {
        ImGui::NewLine();
    }
}

}  // namespace gg::ui
