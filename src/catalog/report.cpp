// Engine results -> report JSON (see report.h). Units: bytes everywhere; names carry them.
#include "catalog/report.h"

#include <cmath>
#include <limits>

#include "catalog/embedded_data.h"

namespace gg::catalog {

using nlohmann::json;

bool owned_display_card(const Scenario& s, const Catalog& catalog) {
    const engine::GpuSpec* g = s.gpu_id.empty() ? nullptr : catalog.find_gpu(s.gpu_id);
    return g != nullptr && engine::segment_has_display(g->segment);
}

Estimate estimate(const Scenario& s, const Catalog& catalog) {
    Estimate e;
    engine::TrainingConfig c = s.training_config();
    // A card the user calibrated (merge_user_data's "calibrations") brings its own context and allocator terms,
    // unless the scenario sets the tunables itself.
    if (!s.gpu_id.empty() && !s.has_tunables)
        if (const engine::GpuSpec* g = catalog.find_gpu(s.gpu_id); g != nullptr && g->calibration.memory()) {
            c.tunables = engine::calibrated_tunables(c.tunables, g->calibration);
            e.memory_calibrated = true;
        }
    engine::BuildOptions o;
    o.eager_attention = c.eager_attention;
    e.graph = engine::build_graph(s.model, s.shape_per_sample(), o);
    e.prepared = engine::prepare_memory(e.graph, c);
    double card_bytes = 0;
    if (!s.gpu_id.empty())
        if (const engine::GpuSpec* g = catalog.find_gpu(s.gpu_id)) {
            card_bytes = engine::usable_memory_bytes(*g, s.ecc);  // nvidia-smi's total, ECC as the scenario says
            e.datasheet_memory_bytes = g->memory_bytes;
            e.ecc_on = engine::ecc_on(*g, s.ecc);
            e.ecc_reserved_bytes = e.ecc_on ? engine::ecc_reserved_bytes(*g) : 0.0;
            e.visible_memory_source = g->visible_memory_source;
        }
    // The card of an estimate is the user's own: a consumer or workstation card may draw the desktop.
    const bool owned_display = owned_display_card(s, catalog);
    e.report = engine::evaluate_memory(e.prepared, s.batch_size, card_bytes, owned_display);
    if (card_bytes > 0) e.max_batch_size = engine::max_batch_sizes(e.prepared, {card_bytes}, s.batch_limit(), owned_display)[0];
    return e;
}

// The pipeline stage whose GPU the report shows (the fuller of the first and the last; the first without pipelining).
const engine::PreparedMemory& reported_stage(const Estimate& e) {
    return e.report.pipeline_stage > 0 && !e.prepared.last_stage.empty() ? e.prepared.last_stage[0] : e.prepared;
}

json figure_to_json(const engine::Figure& f) {
    json ops = json::object();
    for (const auto& [name, value] : f.operands) ops[name] = value;
    return {{"formula", f.formula}, {"bytes", f.bytes}, {"operands", ops}};
}


json report_to_json(const Scenario& s, const Estimate& e) {
    const engine::MemoryReport& r = e.report;
    json j;
    j["scenario"] = scenario_to_json(s);
    j["model"] = {{"id", s.model_id}, {"name", s.model.name}, {"family", engine::family_name(s.model.family)},
                  {"source", s.model.source}};
    const engine::WorkloadShape shape = s.shape_per_sample();
    if (s.model.is_vision) j["model"]["image_size"] = shape.image_size;
    else j["model"]["seq_len"] = shape.seq_len;
    j["params"] = {{"total", r.params_total}, {"trainable", r.params_trainable}, {"per_gpu", r.params_per_gpu}};
    j["pipeline_stage"] = r.pipeline_stage;
    j["in_flight_micro_batches"] = r.in_flight_micro_batches;
    const engine::PreparedMemory& stage = reported_stage(e);
    const double model_states = stage.weight_bytes + stage.grad_bytes + stage.optimizer_bytes + stage.ema_bytes;
    j["memory_bytes"] = {{"weights", r.weights.bytes},
                         {"gradients", r.gradients.bytes},
                         {"optimizer", r.optimizer.bytes},
                         {"activations", r.activations.bytes},
                         {"temporary", r.temporary.bytes},
                         {"framework", r.framework.bytes},
                         {"peak_allocated", r.peak_allocated.bytes},
                         {"reserved", r.reserved.bytes},
                         {"nvidia_smi", r.nvidia_smi.bytes},
                         {"model_states", model_states},
                         {"autocast_weight_copies", r.autocast_weight_copies.bytes}};
    j["peak_phase"] = engine::peak_phase_name(r.peak_phase);
    j["host_ram_bytes"] = r.host_ram_bytes;
    if (r.card_memory_bytes > 0) {
        j["gpu"] = {{"id", s.gpu_id},
                    {"count", s.gpu_count},
                    {"memory_bytes", r.card_memory_bytes},
                    {"datasheet_memory_bytes", e.datasheet_memory_bytes},
                    {"ecc_on", e.ecc_on},
                    {"ecc_reserved_bytes", e.ecc_reserved_bytes},
                    {"visible_memory_source", e.visible_memory_source},
                    {"usable_bytes", r.usable_bytes},
                    {"reserve_fraction", s.reserve_fraction}};
        j["fits"] = r.fits;
        j["fits_without_reserve"] = r.fits_without_reserve;
        j["verdict"] = engine::verdict_name(r.verdict.verdict);
        const engine::Headroom& h = r.verdict.headroom;
        j["headroom_bytes"] = {{"display", h.display_bytes},
                               {"long_sample", h.long_sample_bytes},
                               {"evaluation", h.evaluation_bytes},
                               {"reserve", h.reserve_bytes},
                               {"total", h.total_bytes()},
                               // what the run is known to allocate at its worst moment (does_not_fit past the card)
                               {"allocated", h.allocated_bytes()}};
        j["max_batch_size"] = e.max_batch_size;
    } else {
        j["gpu"] = nullptr;
        j["fits"] = nullptr;
        j["fits_without_reserve"] = nullptr;
        j["verdict"] = nullptr;
        j["headroom_bytes"] = nullptr;
        j["max_batch_size"] = nullptr;
    }
    // "Calibrated by you": the memory figures use the context and allocator terms of the user's own measurement.
    j["calibration"] = e.memory_calibrated
                           ? json{{"by", engine::kCalibratedByUser},
                                  {"cuda_context_bytes", e.prepared.config.tunables.cuda_context_bytes},
                                  {"fragmentation_fraction", e.prepared.config.tunables.fragmentation_fraction}}
                           : json(nullptr);
    j["stack"] = {{"name", s.stack},
                  {"loss_kernel", s.loss_kernel() == engine::LossKernel::kFused     ? "fused"
                                  : s.loss_kernel() == engine::LossKernel::kChunked ? "chunked"
                                                                                    : "eager"},
                  {"offload_activations", e.prepared.config.offload_activations},
                  {"packing", s.packing},
                  {"host_activation_bytes", r.host_activation_bytes},
                  {"offload_pcie_bytes_per_step", r.offload_pcie_bytes_per_step}};
    // Memory through one training step (engine::memory_timeline): each point's bands sum to its allocated bytes, and
    // the peak point's allocated bytes are memory_bytes.peak_allocated.
    const engine::MemoryTimeline tl = engine::memory_timeline(e.prepared, s.batch_size);
    json points = json::array();
    for (std::size_t i = 0; i < tl.points.size(); ++i) {
        const engine::TimelinePoint& p = tl.points[i];
        json point = {{"point", engine::step_point_name(p.point)},
                      {"allocated_bytes", p.allocated_bytes()},
                      {"peak", static_cast<int>(i) == tl.peak_index},
                      {"training", p.point != engine::StepPoint::kEvaluation},
                      {"bands", {{"weights", p.weights_bytes},
                                 {"optimizer", p.optimizer_bytes},
                                 {"gradients", p.gradients_bytes},
                                 {"activations", p.activations_bytes},
                                 {"temporary", p.temporary_bytes},
                                 {"workspace", p.workspace_bytes}}}};
        if (p.point == engine::StepPoint::kBackward) point["segment"] = p.segment;
        points.push_back(std::move(point));
    }
    j["memory_timeline"] = {{"pipeline_stage", tl.pipeline_stage}, {"peak_index", tl.peak_index}, {"points", std::move(points)}};
    j["explain"] = {{"weights", figure_to_json(r.weights)},
                    {"gradients", figure_to_json(r.gradients)},
                    {"optimizer", figure_to_json(r.optimizer)},
                    {"activations", figure_to_json(r.activations)},
                    {"temporary", figure_to_json(r.temporary)},
                    {"framework", figure_to_json(r.framework)},
                    {"peak_allocated", figure_to_json(r.peak_allocated)},
                    {"reserved", figure_to_json(r.reserved)},
                    {"nvidia_smi", figure_to_json(r.nvidia_smi)}};
    return j;
}

}  // namespace gg::catalog

// ---- validation --------------------------------------------------------------------------------------------------
namespace gg::catalog {

bool is_memory_quantity(const std::string& q) {
    return q == "params_total" || q == "params_trainable" || q == "param_tensors" || q == "param_matrices" ||
           q == "saved_activations_bytes" ||
           q == "peak_allocated_bytes" || q == "nvidia_smi_bytes" || q == "weights_bytes" || q == "optimizer_bytes" ||
           q == "model_states_bytes" || q == "peak_reserved_bytes" || q == "max_seq_len";
}

double predicted_quantity(const std::string& q, const Scenario& s, const Estimate& e) {
    const engine::MemoryReport& r = e.report;
    if (q == "params_total") return r.params_total;
    if (q == "params_trainable") return r.params_trainable;
    if (q == "param_tensors") return e.graph.param_tensor_count();
    if (q == "param_matrices") return e.graph.param_matrix_count();
    // What saved_tensors_hooks sees (deduplicated storages, parameters excluded), after checkpointing.
    const engine::PreparedMemory& stage = reported_stage(e);
    if (q == "saved_activations_bytes") return stage.kept_per_sample_bytes * s.batch_size;
    if (q == "peak_allocated_bytes") return r.peak_allocated.bytes;
    if (q == "nvidia_smi_bytes") return r.nvidia_smi.bytes;
    if (q == "peak_reserved_bytes") return r.reserved.bytes;
    if (q == "weights_bytes") return stage.weight_bytes;
    if (q == "optimizer_bytes") return stage.optimizer_bytes + stage.ema_bytes;
    if (q == "model_states_bytes")
        return stage.weight_bytes + stage.grad_bytes + stage.optimizer_bytes + stage.ema_bytes;
    // The longest sequence that fits the scenario's card at its micro-batch (the verdict's boundary: Unsloth's
    // maximum-context tables pad every sample to the length they report).
    if (q == "max_seq_len" && !s.model.is_vision && r.card_memory_bytes > 0)
        return engine::max_shape_that_fits(s.model, s.training_config(), r.card_memory_bytes, false, 1, 1 << 20);
    return std::numeric_limits<double>::quiet_NaN();
}

bool read_validation_case(const json& c, const std::string& file, bool (*accepts)(const std::string&),
                          ValidationRow& row) {
    if (!c.is_object() || !c.contains("measured") || !c["measured"].is_object()) return false;
    const json& m = c["measured"];
    if (!m.contains("quantity") || !m["quantity"].is_string() || !m.contains("value") || !m["value"].is_number())
        return false;
    if (!accepts(m["quantity"].get<std::string>())) return false;
    row.file = file;
    row.quantity = m["quantity"].get<std::string>();
    row.id = c.value("id", std::string("?"));
    row.measured = m["value"].get<double>();
    row.tolerance_fraction =
        c.contains("tolerance_fraction") && c["tolerance_fraction"].is_number() ? c["tolerance_fraction"].get<double>() : 0.0;
    if (c.contains("bound") && c["bound"].is_string()) row.bound = c["bound"].get<std::string>();
    if (m.contains("bound") && m["bound"].is_string()) row.bound = m["bound"].get<std::string>();
    if (c.contains("scenario") && c["scenario"].is_object()) {
        const json& sc = c["scenario"];
        row.scenario_json = sc.dump();
        if (sc.contains("gpu") && sc["gpu"].is_object() && sc["gpu"].contains("id") && sc["gpu"]["id"].is_string())
            row.gpu_id = sc["gpu"]["id"].get<std::string>();
        if (sc.contains("stack") && sc["stack"].is_string()) row.stack = sc["stack"].get<std::string>();
    }
    return true;
}

std::vector<ValidationRow> run_memory_validation_file(const std::string& file, std::string_view text) {
    std::vector<ValidationRow> rows;
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array()) return rows;
    for (const json& c : doc["cases"]) {
        ValidationRow row;
        if (!read_validation_case(c, file, is_memory_quantity, row)) continue;
        if (!c.contains("scenario")) {
            row.problem = "no scenario";
            rows.push_back(row);
            continue;
        }
        ParsedScenario p = parse_scenario_json(c["scenario"], file + "#" + row.id);
        if (!p.problems.empty()) {
            row.problem = p.problems.front().pointer + ": " + p.problems.front().message;
            rows.push_back(row);
            continue;
        }
        const Estimate e = estimate(p.scenario);
        row.ran = true;
        row.family = engine::family_name(p.scenario.model.family);
        row.predicted = predicted_quantity(row.quantity, p.scenario, e);
        row.error_fraction = row.measured != 0 ? row.predicted / row.measured - 1.0 : 0.0;
        const double tol = row.tolerance_fraction;
        // "informative_only": true marks a rule of thumb or an estimate, not a measurement: shown, never judged
        // (as in time_json.cpp).
        if (c.contains("informative_only") && c["informative_only"].is_boolean() && c["informative_only"].get<bool>()) {
            row.bound = "informative";
            row.pass = true;
        } else if (row.bound == "upper") row.pass = row.predicted <= row.measured * (1.0 + tol);
        else if (row.bound == "lower") row.pass = row.predicted >= row.measured * (1.0 - tol);
        else row.pass = std::fabs(row.error_fraction) <= tol + 1e-12;
        rows.push_back(row);
    }
    return rows;
}

std::vector<ValidationRow> run_memory_validation() {
    std::vector<ValidationRow> rows;
    for (const EmbeddedFile* f = embedded_files(); f->path != nullptr; ++f) {
        const std::string path = f->path;
        if (path.rfind("tests/validation/", 0) != 0) continue;
        auto more = run_memory_validation_file(path, std::string_view(f->text, f->size_bytes));
        rows.insert(rows.end(), more.begin(), more.end());
    }
    return rows;
}

}  // namespace gg::catalog
