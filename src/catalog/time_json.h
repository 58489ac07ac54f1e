// The time engine's report as JSON, the scenario -> time-engine glue (options, dataset, one-call estimate) and the
// validation of time quantities against tests/validation/*.json. No UI code here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/time.h"

namespace gg::catalog {

// The `time` section of the estimate report. Keys scripts rely on (never renamed, only added):
//   step_s, total_s, low_s, high_s, samples_per_s, tokens_per_s, flop_per_step, mfu   (null when status != ok;
//   total_s/low_s/high_s null without a dataset)
// plus: status, rate, precision_fallback, peak_inferred (no datasheet rate: peak = measured best GEMM /
//   matmul_reference), prior, interconnect, step_low_s, step_high_s, compute_s, memory_bound_s,
//   overhead_s, optimizer_s, comm_s, exposed_comm_s, loader_wait_s, offload_transfer_s, cpu_optimizer_not_modelled,
//   samples_per_step, steps, epoch_s and steps_per_epoch (null for a token budget), gpu_hours,
//   hardware_flop_per_step, peak_flop_per_s, scaling_efficiency, model_parallel_comm_s, pipeline_bubble_s,
//   explain {<figure>: {formula, value, operands}} (figure "model_parallel" only under tensor/pipeline parallelism)
// full_report adds "scaling" (catalog/scaling.h).
nlohmann::json time_to_json(const engine::TimeReport& report);

// Scenario -> engine inputs.
engine::TimeOptions time_options(const Scenario& scenario);  // interconnect when given
engine::Dataset time_dataset(const Scenario& scenario);       // samples/epochs or tokens; zeros when absent

// A scenario ready to evaluate: the engine's prepare step (graph, FLOPs, bytes) done once. Priors enter only at
// evaluation, so a fit (catalog/fit.h) evaluates the same run under many priors.
struct PreparedTimeRun {
    engine::PreparedTime prepared;
    double batch = 1;
    engine::GpuSpec gpu;
    engine::TimeOptions options;
    engine::Dataset dataset;
};
// false when the scenario names no GPU or one not in `catalog`.
bool prepare_time_run(const Scenario& scenario, const Catalog& catalog, PreparedTimeRun& out);
engine::TimeReport evaluate_time_run(const PreparedTimeRun& run, const engine::ThroughputPriors& priors);

// One call: build the graph, prepare and evaluate on the scenario's GPU (looked up in `catalog`).
// Returns false (and leaves `out` default) when the scenario names no GPU or an unknown one.
bool estimate_time(const Scenario& scenario, const Catalog& catalog, const engine::ThroughputPriors& priors,
                   engine::TimeReport& out);

// Time quantities of the validation format: samples_per_s, tokens_per_s, step_s, total_s, gpu_hours, flop_per_step,
// scaling_efficiency_fraction, speedup_ratio, mfu_fraction.
bool is_time_quantity(const std::string& quantity);

// A time validation case, prepared: `row` holds its metadata (ran = false); runnable = false with row.problem set
// when it cannot run (not expressible, no scenario, unknown GPU, bad scenario). speedup_ratio cases also carry
// their baseline run.
struct TimeCase {
    ValidationRow row;
    bool runnable = false;
    bool informative = false;  // "informative_only": reported, never judged
    PreparedTimeRun run;
    bool has_baseline = false;
    PreparedTimeRun baseline;
};
// The time cases of one file's text, or of every embedded tests/validation/*.json (embedded catalog), in file order.
std::vector<TimeCase> load_time_cases(const std::string& file, std::string_view text, const Catalog& catalog);
std::vector<TimeCase> load_time_cases();
// The case's row under `priors`: predicted, error, pass (ran = false and problem set when the engine gives none).
ValidationRow evaluate_time_case(const TimeCase& c, const engine::ThroughputPriors& priors);

// The targets for the time engine (docs/time-model.md sec. 7), counted over time validation rows that ran
// and are judged (not "informative"):
//   - throughput-like quantities (is_throughput_quantity) within 25% of the measurement;
//   - GPUs in the published order for each workload: Lambda's single-GPU rows (ids "lambda-<workload>-1x-<gpu>"),
//     every pair measured more than 15% apart (closer pairs are ties: one run per cell, +-several %);
//   - multi-GPU scaling efficiency (scaling_efficiency_fraction) within 10 points.
// The tests and the Accuracy tab both count with this.
bool is_throughput_quantity(const std::string& quantity);  // samples/tokens per s, step / total time, GPU-hours
struct TimeTargets {
    int throughput = 0, throughput_within = 0;
    int order_pairs = 0, order_kept = 0;
    std::vector<std::pair<const ValidationRow*, const ValidationRow*>> order_flipped;  // pointers into `rows`
    int scaling = 0, scaling_within = 0;
};
TimeTargets time_targets(const std::vector<ValidationRow>& rows);

// The time engine's error by card class and by model family (issue 41; docs/time-model.md sec. 7 and the Accuracy
// tab): judged throughput-like rows (is_throughput_quantity) that ran and are not in `fitted_ids` (the cases a
// fitted number of data/throughput_priors.json was fitted to), grouped by the class of the row's card and by the
// family its model ran. Classes: GeForce (segment consumer), workstation, data-centre cards at 165 W of board power
// or less, or whose board power nobody publishes (T4 70 W, L4 72 W, A10 150 W, A30 165 W, AWS's A10G), and the
// other data-centre cards; an unknown card counts as "other".
struct ErrorGroup {
    std::string name;
    int cases = 0, within_25 = 0;      // rows, and rows within 25% of the measurement
    double median_abs_error = 0;       // median |predicted / measured - 1|
    double rms_log_error = 0;          // sqrt(mean(ln(predicted / measured)^2))
};
struct ErrorTable {
    ErrorGroup all;
    std::vector<ErrorGroup> by_class;   // in the order card_classes() gives, empty classes left out
    std::vector<ErrorGroup> by_family;  // by engine::family_name, alphabetical
};
const char* card_class(const engine::GpuSpec& gpu);       // "geforce", "workstation", "dc-power-capped", "dc-full-power", "other"
const std::vector<const char*>& card_classes();
ErrorTable time_error_table(const std::vector<ValidationRow>& rows, const Catalog& catalog,
                            const std::vector<std::string>& fitted_ids);

// Every time case of every embedded tests/validation/*.json file, run against the embedded catalog and time data.
// Cases marked "expressible": false are returned with ran = false; "informative_only" cases always pass.
std::vector<ValidationRow> run_time_validation();
std::vector<ValidationRow> run_time_validation_file(const std::string& file, std::string_view text,
                                                    const Catalog& catalog, const engine::ThroughputPriors& priors);

}  // namespace gg::catalog
