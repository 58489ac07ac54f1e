// The same job on more cards of the same kind: speed-up, scaling efficiency, time to train and the memory verdict
// at 1, 2, 4, 8 and 16 model copies (issue 4: "scaling efficiency for 1, 2, 4, 8, 16 cards"). The micro-batch per
// card stays as set, so the global batch grows with the cards (weak scaling, as Lambda's benchmark measures it).
// No UI code here.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/time_json.h"
#include "engine/time.h"

namespace gg::catalog {

struct ScalingRow {
    int gpus = 1;                   // cards in all: copies x tensor_parallel x pipeline_parallel
    bool fits = false;              // the memory verdict at this count (ZeRO/FSDP shard finer on more cards)
    bool timed = false;             // the time engine gave a step time (false: no rate, no prior, no link)
    double step_s = 0;              // per optimizer step
    double samples_per_s = 0;       // all cards
    double total_s = 0;             // for the scenario's dataset; 0 without one
    double speedup = 0;             // throughput / the first row's (one copy); above the copies under ZeRO/FSDP,
                                    // whose optimizer step shrinks as cards are added
    double scaling_efficiency = 0;  // the engine's (time.h): each card's work split without communication / step_s,
                                    // at most 1; DDP: speedup / copies
};

// The default counts of model copies.
inline const std::vector<int> kScalingCopies = {1, 2, 4, 8, 16};
// kScalingCopies plus the scenario's own count of copies when that is not among them (e.g. 64 cards), sorted.
std::vector<int> scaling_copies(const Scenario& scenario);

// One row per count of model copies (each copy tensor_parallel x pipeline_parallel cards), for a valid scenario
// that names a card of `catalog`; empty otherwise. `estimate` is the scenario's own memory estimate (its graph is
// reused). The scenario's own interconnect, peer-to-peer and gradient dtype hold at every count; beyond one node
// (data/throughput_priors.json comm.gpus_per_node) the engine adds the InfiniBand link between nodes.
std::vector<ScalingRow> scaling_rows(const Scenario& scenario, const Estimate& estimate, const Catalog& catalog,
                                     const engine::ThroughputPriors& priors,
                                     const std::vector<int>& copies = kScalingCopies);
// The same from the scenario's prepared time run (time_json.h prepare_time_run), when the caller has one.
std::vector<ScalingRow> scaling_rows(const Scenario& scenario, const Estimate& estimate, const PreparedTimeRun& run,
                                     const engine::ThroughputPriors& priors,
                                     const std::vector<int>& copies = kScalingCopies);

// [{gpus, fits, step_s, samples_per_s, total_s, scaling_efficiency, speedup}]; time keys null when the row is not
// timed or the job does not fit on that many cards (it would stop with out-of-memory), total_s null without a dataset. Expected values only: the scenario's own estimate carries the low..high
// range (each row is the engine's cheap evaluation, TimeDetail::kTotalOnly).
nlohmann::json scaling_to_json(const std::vector<ScalingRow>& rows);

}  // namespace gg::catalog
