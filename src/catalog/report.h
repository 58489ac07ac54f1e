// Engine results -> report JSON (the `gpuguide estimate` output and the page's explanations). Keys scripts rely
// on are listed in estimate_report_json's comment; never rename them, only add. No UI code here.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/scenario.h"
#include "engine/memory.h"

namespace gg::catalog {

// Everything an estimate produces for one scenario (built once; the page keeps it while inputs are unchanged).
struct Estimate {
    engine::Graph graph;             // per sample (batch 1)
    engine::PreparedMemory prepared;
    engine::MemoryReport report;     // at the scenario's micro-batch, against its GPU (if any)
    int max_batch_size = -1;         // -1 = no GPU given; 0 = batch 1 does not fit
    bool memory_calibrated = false;  // the card's calibration (the user's own measurement) set the context and
                                     // allocator terms
    // The card's memory as the verdict counts it (engine/card_memory.h; report.card_memory_bytes is the total):
    // the datasheet size, whether ECC is on in this run and what it takes, and the nvidia-smi reading behind the
    // total ("" = no reading: the datasheet size less ECC's share).
    double datasheet_memory_bytes = 0;
    bool ecc_on = false;
    double ecc_reserved_bytes = 0;
    std::string visible_memory_source;
};

// Whether the scenario's card has display outputs (consumer, workstation) and so may draw the user's desktop.
bool owned_display_card(const Scenario& scenario, const Catalog& catalog);

// Runs the engine for a valid scenario (parse_scenario gave no problems); its GPU is looked up in `catalog`.
Estimate estimate(const Scenario& scenario, const Catalog& catalog = embedded_catalog());

// The report:
//   scenario (normalised), model {id, name, family, source},
//   params {total, trainable, per_gpu}, pipeline_stage, in_flight_micro_batches,
//   memory_bytes {weights, gradients, optimizer, activations, temporary, framework, peak_allocated, reserved,
//                 nvidia_smi, model_states, autocast_weight_copies}, peak_phase ("forward_end" | "backward" |
//   "optimizer_step"), host_ram_bytes, gpu {id, memory_bytes (nvidia-smi's total: what the verdict compares
//   with), datasheet_memory_bytes, ecc_on, ecc_reserved_bytes, visible_memory_source, usable_bytes, reserve_fraction}
//   | null,
//   fits (bool | null without a GPU: fits with the headroom), fits_without_reserve (fits or tight),
//   verdict ("fits" | "tight" | "does_not_fit" | null), headroom_bytes {display, long_sample, evaluation, reserve,
//   total} | null, max_batch_size (int | null without a GPU),
//   stack {name, loss_kernel, offload_activations, packing, host_activation_bytes, offload_pcie_bytes_per_step},
//   explain {<figure>: {formula, bytes, operands {name: value}}}
nlohmann::json report_to_json(const Scenario& scenario, const Estimate& estimate);

// One figure as {formula, bytes, operands}.
nlohmann::json figure_to_json(const engine::Figure& figure);

// The prepared pipeline stage the report shows (estimate.report.pipeline_stage): the last stage's when that one is
// fuller, else the first (the only one without pipeline parallelism).
const engine::PreparedMemory& reported_stage(const Estimate& estimate);

}  // namespace gg::catalog

namespace gg::catalog {

// ---- validation against measured / published cases (tests/validation/*.json, embedded) -------------------------
// Memory quantities the engine predicts; other quantities (time, cost) are skipped here.
bool is_memory_quantity(const std::string& quantity);

struct ValidationRow {
    std::string file;        // "tests/validation/published_memory.json"
    std::string id;
    std::string quantity;
    std::string bound;       // "" (two-sided), "upper" (predicted must be <= value), "lower", "informative" (not judged)
    double measured = 0;
    double predicted = 0;
    double predicted_low = 0;      // time cases: the engine's range for the quantity (low <= predicted <= high);
    double predicted_high = 0;     // 0 = no range (ratios, efficiencies, memory)
    double error_fraction = 0;     // predicted / measured - 1
    double tolerance_fraction = 0;
    bool ran = false;        // false: the scenario could not be run (see problem)
    bool pass = false;
    std::string problem;
    // The case as the calculator can open it (issue 33: a click on the Accuracy chart): its scenario as JSON text
    // ("" = none), the model family it ran (engine::family_name; "" = not run), its card and its stack ("" = none).
    std::string scenario_json;
    std::string family;
    std::string gpu_id;
    std::string stack;
    // The measured value lies in [predicted_low, predicted_high], with 0.5% slack for the 3-decimal rounding of the
    // priors' low/high in the data; false when the case has no range.
    bool measured_in_range() const {
        return ran && predicted_high > 0 && measured >= predicted_low * 0.995 && measured <= predicted_high * 1.005;
    }
};

// The common part of a validation case: false (and `row` untouched) unless `c` has a measured {quantity, value}
// whose quantity passes `accepts`; fills file, id, quantity, measured, tolerance and bound.
bool read_validation_case(const nlohmann::json& c, const std::string& file, bool (*accepts)(const std::string&),
                          ValidationRow& row);

// Every memory case of every embedded tests/validation/*.json file (in file order).
std::vector<ValidationRow> run_memory_validation();
// Cases of one file's text.
std::vector<ValidationRow> run_memory_validation_file(const std::string& file, std::string_view text);
// The predicted value of a memory quantity for an estimate (NaN if the quantity is not a memory quantity).
double predicted_quantity(const std::string& quantity, const Scenario& s, const Estimate& e);

}  // namespace gg::catalog
