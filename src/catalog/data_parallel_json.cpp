// The "data_parallel" report section (data_parallel_json.h). No UI code here.
#include "catalog/data_parallel_json.h"

#include "catalog/time_json.h"
#include "engine/data_parallel.h"

namespace gg::catalog {

namespace {
nlohmann::json number_or_null(double v, bool known) { return known ? nlohmann::json(v) : nlohmann::json(nullptr); }
}  // namespace

nlohmann::json data_parallel_to_json(const Scenario& s, const Estimate& e, const Catalog& catalog,
                                     const engine::TimeReport* dp_time, const engine::ThroughputPriors& priors) {
    if (s.strategy != "dp" || s.gpu_count < 2) return nullptr;
    Scenario ddp = s;
    ddp.strategy = "ddp";
    const engine::PreparedMemory ddp_memory = engine::prepare_memory(e.graph, ddp.training_config());
    engine::TimeReport ddp_time;
    const bool timed = dp_time && dp_time->status == engine::TimeStatus::kOk &&
                       estimate_time(ddp, catalog, priors, ddp_time) && ddp_time.status == engine::TimeStatus::kOk;
    const engine::DpVersusDdp v = engine::dp_versus_ddp(e.prepared, ddp_memory, s.batch_size,
                                                        timed ? dp_time->step_s : 0.0, timed ? ddp_time.step_s : 0.0);
    const bool totals = timed && dp_time->total_s > 0 && ddp_time.total_s > 0;
    nlohmann::json j;
    j["gpu_count"] = s.gpu_count;
    j["gpu0"] = {{"allocated_bytes", v.dp.gpu0_allocated_bytes},
                 {"nvidia_smi_bytes", v.dp.gpu0_nvidia_smi_bytes},
                 {"gathered_output_bytes", v.dp.gathered_output_bytes},
                 {"scattered_input_bytes", v.dp.scattered_input_bytes},
                 {"optimizer_bytes", v.dp.optimizer_bytes}};
    j["other_gpus"] = {{"allocated_bytes", v.dp.other_allocated_bytes},
                       {"nvidia_smi_bytes", v.dp.other_nvidia_smi_bytes}};
    j["step_s"] = number_or_null(v.dp_step_s, timed);
    j["total_s"] = number_or_null(totals ? dp_time->total_s : 0.0, totals);
    j["transfers"] = {{"broadcast_s", number_or_null(timed ? dp_time->dp.broadcast_s : 0.0, timed)},
                      {"reduce_s", number_or_null(timed ? dp_time->dp.reduce_s : 0.0, timed)},
                      {"scatter_gather_s", number_or_null(timed ? dp_time->dp.scatter_gather_s : 0.0, timed)},
                      {"launch_wait_s", number_or_null(timed ? dp_time->dp.launch_wait_s : 0.0, timed)}};
    j["ddp"] = {{"nvidia_smi_bytes", v.ddp_nvidia_smi_bytes},
                {"step_s", number_or_null(v.ddp_step_s, timed)},
                {"total_s", number_or_null(totals ? ddp_time.total_s : 0.0, totals)}};
    j["ddp_saves"] = {{"gpu0_bytes", v.gpu0_saving_bytes()},
                      {"step_s", number_or_null(v.step_saving_s(), timed)},
                      {"step_fraction", number_or_null(timed ? v.step_saving_s() / v.dp_step_s : 0.0, timed)},
                      {"total_s", number_or_null(totals ? dp_time->total_s - ddp_time.total_s : 0.0, totals)}};
    j["slowdown_ratio"] = number_or_null(v.slowdown_ratio(), timed);
    return j;
}

}  // namespace gg::catalog
