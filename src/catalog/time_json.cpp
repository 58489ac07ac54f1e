// Time report JSON, scenario glue and time validation (see time_json.h).
#include "catalog/time_json.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "catalog/embedded_data.h"
#include "catalog/loader_json.h"
#include "catalog/time_data.h"
#include "engine/plausibility.h"

namespace gg::catalog {
namespace {

using nlohmann::json;

json number_or_null(double v, bool known) { return known && std::isfinite(v) ? json(v) : json(nullptr); }

json figure(const engine::TimeFigure& f) {
    json ops = json::object();
    for (const auto& [name, value] : f.operands) ops[name] = value;
    return {{"formula", f.formula}, {"value", f.value}, {"operands", ops}};
}

}  // namespace

json time_to_json(const engine::TimeReport& r) {
    const bool ok = r.status == engine::TimeStatus::kOk;
    const bool has_total = ok && r.steps > 0;
    json j;
    j["status"] = engine::time_status_name(r.status);
    j["step_s"] = number_or_null(r.step_s, ok);
    j["total_s"] = number_or_null(r.total_s, has_total);
    j["low_s"] = number_or_null(r.low_s, has_total);
    j["high_s"] = number_or_null(r.high_s, has_total);
    j["epoch_s"] = number_or_null(r.epoch_s, ok && r.steps_per_epoch > 0);
    j["steps_per_epoch"] = number_or_null(r.steps_per_epoch, ok && r.steps_per_epoch > 0);
    j["samples_per_s"] = number_or_null(r.samples_per_s, ok);
    j["tokens_per_s"] = number_or_null(r.tokens_per_s, ok && r.tokens_per_s > 0);
    j["flop_per_step"] = number_or_null(r.flop_per_step, ok);
    j["mfu"] = number_or_null(r.mfu, ok);
    // Figures past any real run (engine/plausibility.h): shown, and flagged so no one plans with them.
    json implausible = json::array();
    if (ok)
        for (const engine::Implausible f : engine::implausible_flags(r.mfu, has_total ? r.total_s : 0.0, 0.0))
            implausible.push_back(engine::implausible_name(f));
    j["implausible"] = std::move(implausible);
    j["rate"] = engine::matmul_rate_name(r.rate);
    j["precision_fallback"] = r.precision_fallback;
    j["peak_inferred"] = r.peak_inferred;
    j["prior"] = r.prior_id.empty() ? json(nullptr) : json(r.prior_id);
    j["interconnect"] = r.interconnect_id.empty() ? json(nullptr) : json(r.interconnect_id);
    j["step_low_s"] = number_or_null(r.step_low_s, ok);
    j["step_high_s"] = number_or_null(r.step_high_s, ok);
    j["compute_s"] = number_or_null(r.compute_s, ok);
    j["memory_bound_s"] = number_or_null(r.memory_bound_s, ok);
    j["overhead_s"] = number_or_null(r.overhead_s, ok);
    j["recurrent_s"] = number_or_null(r.recurrent_s, ok);
    j["optimizer_s"] = number_or_null(r.optimizer_s, ok);
    j["optimizer_loop_s"] = number_or_null(r.optimizer_loop_s, ok);
    j["comm_s"] = number_or_null(r.comm_s, ok);
    j["exposed_comm_s"] = number_or_null(r.exposed_comm_s, ok);
    j["loader_wait_s"] = number_or_null(r.loader_wait_s, ok);
    j["offload_transfer_s"] = number_or_null(r.offload_transfer_s, ok);
    j["activation_offload_s"] = number_or_null(r.activation_offload_s, ok);
    j["input_encoder_s"] = number_or_null(r.input_encoder_s, ok);
    j["model_parallel_comm_s"] = number_or_null(r.model_parallel_comm_s, ok);
    j["pipeline_bubble_s"] = number_or_null(r.pipeline_bubble_s, ok);
    j["cpu_optimizer_s"] = number_or_null(r.cpu_optimizer_s, ok);
    j["cpu_optimizer_not_modelled"] = r.cpu_optimizer_not_modelled;
    j["samples_per_step"] = number_or_null(r.samples_per_step, ok);
    j["steps"] = number_or_null(r.steps, has_total);
    j["gpu_hours"] = number_or_null(r.gpu_hours, has_total);
    j["hardware_flop_per_step"] = number_or_null(r.hardware_flop_per_step, ok);
    j["peak_flop_per_s"] = number_or_null(r.peak_flop_per_s, r.peak_flop_per_s > 0);
    j["scaling_efficiency"] = number_or_null(r.scaling_efficiency, ok);
    // "Calibrated by you": the card's measured efficiency factor for the family is in every time above.
    j["calibration"] = ok && r.calibrated_efficiency_factor > 0
                           ? json{{"by", engine::kCalibratedByUser}, {"efficiency_factor", r.calibrated_efficiency_factor}}
                           : json(nullptr);
    json ex = json::object();
    if (ok) {
        ex["step"] = figure(r.step);
        ex["compute"] = figure(r.compute);
        ex["memory_bound"] = figure(r.memory_bound);
        ex["optimizer"] = figure(r.optimizer);
        ex["comm"] = figure(r.comm);
        ex["exposed_comm"] = figure(r.exposed_comm);
        ex["flop"] = figure(r.flop);
        if (*r.model_parallel.formula) ex["model_parallel"] = figure(r.model_parallel);
    }
    j["explain"] = ex;
    return j;
}

engine::TimeOptions time_options(const Scenario& s) {
    engine::TimeOptions o;
    if (!s.interconnect.empty()) o.interconnect_set = engine::parse_interconnect(s.interconnect, o.interconnect);
    o.network_id = s.network;
    o.peer_to_peer_set = s.peer_to_peer_set;
    o.peer_to_peer = s.peer_to_peer;
    o.loader_samples_per_s = s.loader_samples_per_s;
    o.loader = loader_setup(s);  // catalog/loader_json.cpp: the pipeline's per-CPU rate, workers, the user's CPUs
    if (s.grad_reduce_dtype == "fp32") o.grad_reduce_bytes = 4;
    else if (s.grad_reduce_dtype == "fp16" || s.grad_reduce_dtype == "bf16") o.grad_reduce_bytes = 2;
    return o;
}

engine::Dataset time_dataset(const Scenario& s) {
    engine::Dataset d;
    d.samples = s.dataset_samples;
    d.epochs = s.dataset_epochs > 0 ? s.dataset_epochs : 1.0;
    d.tokens = s.dataset_tokens;
    return d;
}

bool prepare_time_run(const Scenario& s, const Catalog& catalog, PreparedTimeRun& out) {
    const engine::GpuSpec* gpu = catalog.find_gpu(s.gpu_id);
    if (!gpu) return false;
    const engine::TrainingConfig config = s.training_config();
    engine::BuildOptions build;
    build.eager_attention = config.eager_attention;
    const engine::WorkloadShape shape = s.shape_per_sample();
    const engine::Graph graph = engine::build_graph(s.model, shape, build);
    out.prepared = engine::prepare_time(s.model, shape, graph, config);
    out.batch = s.batch_size;
    out.gpu = *gpu;
    out.options = time_options(s);
    out.dataset = time_dataset(s);
    return true;
}

engine::TimeReport evaluate_time_run(const PreparedTimeRun& run, const engine::ThroughputPriors& priors) {
    return engine::evaluate_time(run.prepared, run.batch, run.gpu, run.options, run.dataset, priors);
}

bool estimate_time(const Scenario& s, const Catalog& catalog, const engine::ThroughputPriors& priors,
                   engine::TimeReport& out) {
    PreparedTimeRun run;
    if (!prepare_time_run(s, catalog, run)) return false;
    out = evaluate_time_run(run, priors);
    return true;
}

bool is_throughput_quantity(const std::string& q) {
    return q == "samples_per_s" || q == "tokens_per_s" || q == "gpu_hours" || q == "total_s" || q == "step_s";
}

TimeTargets time_targets(const std::vector<ValidationRow>& rows) {
    TimeTargets t;
    std::map<std::string, std::vector<const ValidationRow*>> workloads;  // single-GPU Lambda rows by workload
    for (const ValidationRow& r : rows) {
        if (!r.ran || r.bound == "informative") continue;
        if (is_throughput_quantity(r.quantity) && r.measured > 0 && r.predicted > 0) {
            ++t.throughput;
            t.throughput_within += std::fabs(r.error_fraction) <= 0.25;
        }
        if (r.quantity == "scaling_efficiency_fraction") {
            ++t.scaling;
            t.scaling_within += std::fabs(r.predicted - r.measured) <= 0.10 + 1e-12;
        }
        if (r.quantity == "samples_per_s" && r.id.rfind("lambda-", 0) == 0) {
            const auto at = r.id.find("-1x-");
            if (at != std::string::npos) workloads[r.id.substr(0, at)].push_back(&r);
        }
    }
    for (const auto& [workload, list] : workloads)
        for (std::size_t i = 0; i < list.size(); ++i)
            for (std::size_t j = i + 1; j < list.size(); ++j) {
                const ValidationRow& a = *list[i];
                const ValidationRow& b = *list[j];
                if (std::max(a.measured, b.measured) < 1.15 * std::min(a.measured, b.measured)) continue;
                ++t.order_pairs;
                if ((a.measured > b.measured) == (a.predicted > b.predicted)) ++t.order_kept;
                else t.order_flipped.emplace_back(&a, &b);
            }
    return t;
}

const char* card_class(const engine::GpuSpec& gpu) {
    if (gpu.segment == "consumer") return "geforce";
    if (gpu.segment == "workstation") return "workstation";
    // Data-centre cards whose board power holds their clocks down under tensor-core load (docs/time-model.md sec. 2,
    // "Sustained rates"): 165 W or less, or unpublished (AWS's A10G, an A10 variant).
    if (gpu.segment == "datacenter") return gpu.tdp_w <= 165 ? "dc-power-capped" : "dc-full-power";
    return "other";
}

const std::vector<const char*>& card_classes() {
    static const std::vector<const char*> c = {"geforce", "workstation", "dc-power-capped", "dc-full-power", "other"};
    return c;
}

namespace {
struct ErrorSample {
    double abs_error = 0, log_error = 0;
};
ErrorGroup summarise(const std::string& name, std::vector<ErrorSample> v) {
    ErrorGroup g;
    g.name = name;
    g.cases = int(v.size());
    if (v.empty()) return g;
    double sq = 0;
    for (const ErrorSample& s : v) {
        sq += s.log_error * s.log_error;
        g.within_25 += s.abs_error <= 0.25;
    }
    g.rms_log_error = std::sqrt(sq / double(v.size()));
    std::sort(v.begin(), v.end(), [](const ErrorSample& a, const ErrorSample& b) { return a.abs_error < b.abs_error; });
    const std::size_t n = v.size();
    g.median_abs_error = n % 2 ? v[n / 2].abs_error : 0.5 * (v[n / 2 - 1].abs_error + v[n / 2].abs_error);
    return g;
}
}  // namespace

ErrorTable time_error_table(const std::vector<ValidationRow>& rows, const Catalog& catalog,
                            const std::vector<std::string>& fitted_ids) {
    std::vector<ErrorSample> all;
    std::map<std::string, std::vector<ErrorSample>> by_class, by_family;
    for (const ValidationRow& r : rows) {
        if (!r.ran || r.bound == "informative" || !is_throughput_quantity(r.quantity) || r.measured <= 0 ||
            r.predicted <= 0)
            continue;
        if (std::find(fitted_ids.begin(), fitted_ids.end(), r.id) != fitted_ids.end()) continue;
        const ErrorSample s{std::fabs(r.error_fraction), std::log(r.predicted / r.measured)};
        all.push_back(s);
        const engine::GpuSpec* gpu = catalog.find_gpu(r.gpu_id);
        by_class[gpu ? card_class(*gpu) : "other"].push_back(s);
        by_family[r.family.empty() ? "other" : r.family].push_back(s);
    }
    ErrorTable t;
    t.all = summarise("all", all);
    for (const char* c : card_classes())
        if (auto it = by_class.find(c); it != by_class.end()) t.by_class.push_back(summarise(c, it->second));
    for (auto& [family, samples] : by_family) t.by_family.push_back(summarise(family, samples));
    return t;
}

bool is_time_quantity(const std::string& q) {
    return q == "samples_per_s" || q == "tokens_per_s" || q == "step_s" || q == "total_s" || q == "gpu_hours" ||
           q == "flop_per_step" || q == "scaling_efficiency_fraction" || q == "speedup_ratio" || q == "mfu_fraction";
}

namespace {

double quantity_of(const std::string& q, const engine::TimeReport& r) {
    if (q == "samples_per_s") return r.samples_per_s;
    if (q == "tokens_per_s") return r.tokens_per_s;
    if (q == "step_s") return r.step_s;
    if (q == "total_s") return r.total_s;
    if (q == "gpu_hours") return r.gpu_hours;
    if (q == "flop_per_step") return r.flop_per_step;
    if (q == "scaling_efficiency_fraction") return r.scaling_efficiency;
    if (q == "mfu_fraction") return r.mfu;
    return 0;
}

// Parses and prepares one scenario object; `problem` set when it cannot.
bool prepare_one(const json& scenario_json, const std::string& where, const Catalog& catalog, PreparedTimeRun& out,
                 std::string& problem) {
    ParsedScenario p = parse_scenario_json(scenario_json, where);
    if (!p.problems.empty()) {
        problem = p.problems.front().pointer + ": " + p.problems.front().message;
        return false;
    }
    if (!prepare_time_run(p.scenario, catalog, out)) {
        problem = "GPU '" + p.scenario.gpu_id + "' is not in the catalog";
        return false;
    }
    return true;
}

// Evaluates one prepared run; `problem` set when the engine gives no estimate.
bool evaluate_one(const PreparedTimeRun& run, const engine::ThroughputPriors& priors, engine::TimeReport& out,
                  std::string& problem) {
    out = evaluate_time_run(run, priors);
    if (out.status != engine::TimeStatus::kOk) {
        problem = std::string("no estimate: ") + engine::time_status_name(out.status);
        return false;
    }
    return true;
}

}  // namespace

std::vector<TimeCase> load_time_cases(const std::string& file, std::string_view text, const Catalog& catalog) {
    std::vector<TimeCase> cases;
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array()) return cases;
    for (const json& c : doc["cases"]) {
        TimeCase tc;
        if (!read_validation_case(c, file, is_time_quantity, tc.row)) continue;
        tc.informative =
            c.contains("informative_only") && c["informative_only"].is_boolean() && c["informative_only"].get<bool>();
        if (c.contains("expressible") && c["expressible"].is_boolean() && !c["expressible"].get<bool>()) {
            tc.row.problem = "not expressible in the scenario format (tensor/pipeline parallelism): skipped";
        } else if (!c.contains("scenario")) {
            tc.row.problem = "no scenario";
        } else if (prepare_one(c["scenario"], file + "#" + tc.row.id, catalog, tc.run, tc.row.problem)) {
            tc.has_baseline = tc.row.quantity == "speedup_ratio";
            if (!tc.has_baseline) {
                tc.runnable = true;
            } else if (!c.contains("baseline_scenario")) {
                tc.row.problem = "speedup_ratio needs a baseline_scenario";
            } else {
                tc.runnable = prepare_one(c["baseline_scenario"], file + "#" + tc.row.id + "/baseline", catalog,
                                          tc.baseline, tc.row.problem);
            }
        }
        cases.push_back(std::move(tc));
    }
    return cases;
}

std::vector<TimeCase> load_time_cases() {
    std::vector<TimeCase> cases;
    for (const EmbeddedFile* f = embedded_files(); f->path != nullptr; ++f) {
        const std::string path = f->path;
        if (path.rfind("tests/validation/", 0) != 0) continue;
        auto more = load_time_cases(path, std::string_view(f->text, f->size_bytes), embedded_catalog());
        for (TimeCase& c : more) cases.push_back(std::move(c));
    }
    return cases;
}

ValidationRow evaluate_time_case(const TimeCase& c, const engine::ThroughputPriors& priors) {
    ValidationRow row = c.row;
    if (!c.runnable) return row;
    engine::TimeReport r;
    if (!evaluate_one(c.run, priors, r, row.problem)) return row;
    if (c.has_baseline) {
        engine::TimeReport base;
        if (!evaluate_one(c.baseline, priors, base, row.problem)) return row;
        // Same work on both sides: the speed-up is the ratio of throughputs.
        row.predicted = r.samples_per_s / base.samples_per_s;
    } else {
        row.predicted = quantity_of(row.quantity, r);
        // The range: step_low_s / step_high_s (and low_s / high_s for the whole job) bound every time and rate.
        if (r.step_s > 0 && r.step_low_s > 0 && r.step_high_s > 0) {
            const double fast = r.step_low_s / r.step_s, slow = r.step_high_s / r.step_s;
            if (row.quantity == "samples_per_s" || row.quantity == "tokens_per_s") {
                row.predicted_low = row.predicted / slow;
                row.predicted_high = row.predicted / fast;
            } else if (row.quantity == "step_s" || row.quantity == "total_s" || row.quantity == "gpu_hours") {
                row.predicted_low = row.predicted * fast;
                row.predicted_high = row.predicted * slow;
            }
        }
    }
    row.ran = true;
    row.family = engine::family_name(c.run.prepared.family);
    row.error_fraction = row.measured != 0 ? row.predicted / row.measured - 1.0 : 0.0;
    if (c.informative) {
        row.bound = "informative";
        row.pass = true;
    } else {
        row.pass = std::fabs(row.error_fraction) <= row.tolerance_fraction + 1e-12;
    }
    return row;
}

std::vector<ValidationRow> run_time_validation_file(const std::string& file, std::string_view text,
                                                    const Catalog& catalog, const engine::ThroughputPriors& priors) {
    std::vector<ValidationRow> rows;
    for (const TimeCase& c : load_time_cases(file, text, catalog)) rows.push_back(evaluate_time_case(c, priors));
    return rows;
}

std::vector<ValidationRow> run_time_validation() {
    std::vector<ValidationRow> rows;
    for (const TimeCase& c : load_time_cases()) rows.push_back(evaluate_time_case(c, embedded_time_data()));
    return rows;
}

}  // namespace gg::catalog
