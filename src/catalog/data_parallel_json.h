// The "data_parallel" section of the estimate report for strategy "dp" (torch.nn.DataParallel): GPU 0 and the other
// GPUs apart, the step's transfers, and what DDP would save (engine/data_parallel.h computes every number). No UI code.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/time.h"

namespace gg::catalog {

// null unless the scenario's strategy is "dp" on more than one GPU. Keys:
//   gpu_count, gpu0 {allocated_bytes, nvidia_smi_bytes, gathered_output_bytes, scattered_input_bytes,
//   optimizer_bytes}, other_gpus {allocated_bytes, nvidia_smi_bytes}, step_s, total_s (null without a dataset),
//   transfers {broadcast_s, reduce_s, scatter_gather_s, launch_wait_s} (per step), ddp {nvidia_smi_bytes, step_s,
//   total_s}, ddp_saves {gpu0_bytes, step_s, step_fraction, total_s}, slowdown_ratio (DP step / DDP step).
// `dp_time`: the scenario's own time report (nullptr when it has none: the time keys are then null).
nlohmann::json data_parallel_to_json(const Scenario& scenario, const Estimate& estimate, const Catalog& catalog,
                                     const engine::TimeReport* dp_time, const engine::ThroughputPriors& priors);

}  // namespace gg::catalog
