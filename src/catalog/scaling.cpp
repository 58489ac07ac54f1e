// The same job on more cards of the same kind (see scaling.h).
#include "catalog/scaling.h"

#include <algorithm>

#include "engine/memory.h"

namespace gg::catalog {

std::vector<int> scaling_copies(const Scenario& s) {
    std::vector<int> copies = kScalingCopies;
    const int own = std::max(1, s.gpu_count / std::max(1, s.model_copy_gpus()));
    if (std::find(copies.begin(), copies.end(), own) == copies.end()) {
        copies.push_back(own);
        std::sort(copies.begin(), copies.end());
    }
    return copies;
}

std::vector<ScalingRow> scaling_rows(const Scenario& s, const Estimate& e, const Catalog& catalog,
                                     const engine::ThroughputPriors& priors, const std::vector<int>& copies) {
    PreparedTimeRun run;
    if (!prepare_time_run(s, catalog, run)) return {};
    return scaling_rows(s, e, run, priors, copies);
}

std::vector<ScalingRow> scaling_rows(const Scenario& s, const Estimate& e, const PreparedTimeRun& prepared,
                                     const engine::ThroughputPriors& priors, const std::vector<int>& copies) {
    std::vector<ScalingRow> rows;
    if (copies.empty()) return rows;
    PreparedTimeRun run = prepared;
    const int copy_gpus = s.model_copy_gpus();
    double first_samples_per_s = 0;
    for (int n : copies) {
        ScalingRow row;
        row.gpus = n * copy_gpus;
        // Memory: the same graph, sharded over this many cards.
        Scenario at = s;
        at.gpu_count = row.gpus;
        const engine::PreparedMemory memory = engine::prepare_memory(e.graph, at.training_config());
        row.fits = engine::evaluate_memory(memory, s.batch_size, engine::usable_memory_bytes(run.gpu, s.ecc)).fits;
        // Time: the prepared run, evaluated at this count (as engine::scaling_curve does), in full for its scaling
        // efficiency.
        run.prepared.config.gpu_count = row.gpus;
        const engine::TimeReport t = engine::evaluate_time(run.prepared, run.batch, run.gpu, run.options, run.dataset,
                                                           priors, engine::TimeDetail::kFull);
        row.timed = t.status == engine::TimeStatus::kOk && t.step_s > 0;
        if (row.timed) {
            row.step_s = t.step_s;
            row.samples_per_s = t.samples_per_s;
            row.total_s = t.total_s;
            if (rows.empty()) first_samples_per_s = t.samples_per_s;
            row.speedup = first_samples_per_s > 0 ? t.samples_per_s / first_samples_per_s : 0;
            // The engine's (time.h): the work split without communication over the step. Not speedup / copies: under
            // ZeRO/FSDP the optimizer step shrinks as cards are added, so the speed-up can exceed the copies (up to
            // 145% "efficiency" for ZeRO-3 Llama-2-7B on 8 x H100 before issue 30) without any parallel gain.
            row.scaling_efficiency = t.scaling_efficiency;
        }
        rows.push_back(row);
    }
    return rows;
}

nlohmann::json scaling_to_json(const std::vector<ScalingRow>& rows) {
    nlohmann::json out = nlohmann::json::array();
    for (const ScalingRow& r : rows) {
        auto num = [&](double v, bool known) { return known ? nlohmann::json(v) : nlohmann::json(nullptr); };
        // A count the job does not fit on has no time: it stops at the first step with out-of-memory (issue 40: a
        // time beside "No" reads as a time the student can have).
        const bool timed = r.timed && r.fits;
        const bool total = timed && r.total_s > 0;
        out.push_back({{"gpus", r.gpus},
                       {"fits", r.fits},
                       {"step_s", num(r.step_s, timed)},
                       {"samples_per_s", num(r.samples_per_s, timed)},
                       {"total_s", num(r.total_s, total)},
                       {"scaling_efficiency", num(r.scaling_efficiency, timed)},
                       {"speedup", num(r.speedup, timed && r.speedup > 0)}});
    }
    return out;
}

}  // namespace gg::catalog
