// The DataLoader's pace (see loader.h).
#include "engine/loader.h"

#include <algorithm>

namespace gg::engine {

LoaderRate loader_rate(const LoaderSetup& s) {
    LoaderRate r;
    r.cpus_known = s.cpus_per_gpu > 0;
    if (!(s.per_cpu_samples_per_s > 0)) return r;
    if (s.workers == 0) {
        // The training process decodes and augments itself: one CPU, and the GPU waits meanwhile.
        r.in_training_process = true;
        r.workers_used = 1;
        r.samples_per_s = s.per_cpu_samples_per_s;
        return r;
    }
    double workers = 0;
    if (s.workers > 0 && r.cpus_known) workers = std::min<double>(s.workers, s.cpus_per_gpu);  // processes share CPUs
    else if (s.workers > 0) workers = s.workers;   // CPUs unknown: each worker assumed to get one
    else if (r.cpus_known) workers = s.cpus_per_gpu;  // workers not given: one per CPU
    r.workers_used = workers;
    r.samples_per_s = workers * s.per_cpu_samples_per_s;
    return r;
}

double loader_paced_step_s(double gpu_step_s, double samples, double measured_samples_per_s, const LoaderSetup& setup) {
    if (measured_samples_per_s > 0) return std::max(gpu_step_s, samples / measured_samples_per_s);
    const LoaderRate r = loader_rate(setup);
    if (!(r.samples_per_s > 0)) return gpu_step_s;
    if (r.in_training_process) return gpu_step_s + samples / r.samples_per_s;
    return std::max(gpu_step_s, samples / r.samples_per_s);
}

}  // namespace gg::engine
