// The uncalibrated estimate for an attribution, and the user-data record of a calibration (calibrate.h).
#include "catalog/calibrate.h"

#include "catalog/report.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"

namespace gg::catalog {

using nlohmann::json;

bool calibration_inputs(const Scenario& scenario, const Catalog& catalog, engine::CalibrationInputs& out) {
    if (scenario.gpu_id.empty() || catalog.find_gpu(scenario.gpu_id) == nullptr) return false;
    // The scenario's own tunables (given or default) keep estimate() from applying the card's calibration.
    Scenario s = scenario;
    s.has_tunables = true;
    const Estimate e = estimate(s, catalog);
    out = {};
    out.peak_allocated_bytes = e.report.peak_allocated.bytes;
    out.fragmentation_fraction = s.tunables.fragmentation_fraction;
    out.cuda_context_bytes = s.tunables.cuda_context_bytes;
    out.family = engine::family_name(s.model.family);
    PreparedTimeRun run;
    if (prepare_time_run(s, catalog, run)) {
        run.gpu.calibration = {};
        const engine::TimeReport t = evaluate_time_run(run, embedded_time_data());
        if (t.status == engine::TimeStatus::kOk && t.step_s > 0) {
            out.samples_per_s = t.samples_per_s;
            out.step_s = t.step_s;
            out.samples_per_step = t.samples_per_step;
            // The card's own work (calibration.h): what its efficiency scales in evaluate_time.
            out.card_work_s = t.compute_s + t.memory_bound_s + t.overhead_s + t.recurrent_s + t.pipeline_bubble_s +
                              t.input_encoder_s;
        }
    }
    return true;
}

engine::CardCalibration accept_calibration(const engine::CardCalibration& current, const engine::CalibrationResult& r,
                                           const std::string& family) {
    engine::CardCalibration c = current;
    if (r.cuda_context_bytes >= 0) c.cuda_context_bytes = r.cuda_context_bytes;
    if (r.fragmentation_fraction >= 0) c.fragmentation_fraction = r.fragmentation_fraction;
    if (r.efficiency_factor > 0) {
        bool replaced = false;
        for (auto& s : c.speed)
            if (s.family == family) {
                s.efficiency_factor = r.efficiency_factor;
                replaced = true;
            }
        if (!replaced) c.speed.push_back({family, r.efficiency_factor});
    }
    return c;
}

std::string calibration_record_id(const std::string& gpu_id) { return "calibration-" + gpu_id; }

json calibration_record(const std::string& gpu_id, const engine::CardCalibration& c, const engine::Measurement& m,
                        const std::string& model_id, const std::string& as_of) {
    json j{{"id", calibration_record_id(gpu_id)}, {"gpu", gpu_id}, {"as_of", as_of}};
    if (c.cuda_context_bytes >= 0) j["cuda_context_bytes"] = c.cuda_context_bytes;
    if (c.fragmentation_fraction >= 0) j["fragmentation_fraction"] = c.fragmentation_fraction;
    if (!c.speed.empty()) {
        j["speed"] = json::array();
        for (const auto& s : c.speed) j["speed"].push_back({{"family", s.family}, {"efficiency_factor", s.efficiency_factor}});
    }
    json measured{{"model", model_id}};
    if (m.nvidia_smi_bytes > 0) measured["nvidia_smi_bytes"] = m.nvidia_smi_bytes;
    if (m.peak_allocated_bytes > 0) measured["peak_allocated_bytes"] = m.peak_allocated_bytes;
    if (m.peak_reserved_bytes > 0) measured["peak_reserved_bytes"] = m.peak_reserved_bytes;
    if (m.samples_per_s > 0) measured["samples_per_s"] = m.samples_per_s;
    j["measured"] = measured;
    return j;
}

json calibration_result_json(const engine::CalibrationResult& r) {
    auto opt = [](double v, bool has) { return has ? json(v) : json(nullptr); };
    json issues = json::array();
    for (engine::CalibrationIssue i : r.issues) issues.push_back(engine::calibration_issue_name(i));
    return {{"errors", {{"nvidia_smi_fraction", r.nvidia_smi_error_fraction},
                        {"allocated_fraction", r.allocated_error_fraction},
                        {"reserved_fraction", r.reserved_error_fraction},
                        {"speed_fraction", r.speed_error_fraction}}},
            {"predicted", {{"nvidia_smi_bytes", r.predicted_nvidia_smi_bytes},
                           {"peak_allocated_bytes", r.predicted_allocated_bytes},
                           {"peak_reserved_bytes", r.predicted_reserved_bytes}}},
            {"terms", {{"cuda_context_bytes", opt(r.cuda_context_bytes, r.cuda_context_bytes >= 0)},
                       {"fragmentation_fraction", opt(r.fragmentation_fraction, r.fragmentation_fraction >= 0)},
                       {"efficiency_factor", opt(r.efficiency_factor, r.efficiency_factor > 0)},
                       {"tensors_delta_bytes", r.tensors_delta_bytes},
                       {"unexplained_bytes", r.unexplained_bytes}}},
            {"issues", issues},
            {"applicable", r.applicable()}};
}

}  // namespace gg::catalog
