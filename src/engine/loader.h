// The input pipeline as a DataLoader runs it: how many samples per second the CPU workers feeding one GPU deliver,
// and how that paces a training step. Pure engine: no JSON, no UI (the pipelines' rates come from
// data/loader_pipelines.json through catalog/loader_json.cpp).
#pragma once

namespace gg::engine {

// torch.utils.data.DataLoader's worker model (https://pytorch.org/docs/stable/data.html#multi-process-data-loading):
// num_workers > 0 starts that many processes per training process; each builds whole batches and prefetches
// (prefetch_factor batches each), so loading overlaps the GPU's step and the slower of the two sets the pace.
// num_workers = 0 loads in the training process itself, between steps: no overlap.
struct LoaderSetup {
    double per_cpu_samples_per_s = 0;  // one worker on one CPU for the chosen pipeline; 0 = no CPU limit
    int workers = -1;                  // num_workers per GPU process; -1 = not given (one per CPU the GPU gets);
                                       // 0 = loading in the training process
    double cpus_per_gpu = 0;           // CPUs (vCPUs) the machine gives each GPU's process; 0 = unknown
};

struct LoaderRate {
    double samples_per_s = 0;       // per GPU; 0 = no limit (no CPU pipeline, or its CPUs and workers unknown)
    double workers_used = 0;        // workers that run at once: min(workers, CPUs)
    bool cpus_known = false;        // the CPU count came from the offer or the scenario
    bool in_training_process = false;  // num_workers = 0: loading adds to the step instead of overlapping it
};

// rate = min(workers, CPUs per GPU) x per-CPU rate. Workers not given: one per CPU; CPUs unknown: each given
// worker is assumed to get a CPU of its own; neither known: no limit (the report says the CPU count is unknown).
LoaderRate loader_rate(const LoaderSetup& setup);

// The step as the loader paces it: `samples` per GPU per optimizer step; `measured_samples_per_s` (the scenario's own
// dataset.loader_samples_per_s) overrides the pipeline's rate. Overlapped: max(gpu_step, samples / rate); in the
// training process: gpu_step + samples / per-CPU rate.
double loader_paced_step_s(double gpu_step_s, double samples, double measured_samples_per_s, const LoaderSetup& setup);

}  // namespace gg::engine
