// torch.nn.DataParallel's traffic, host pace and per-GPU memory (data_parallel.h). Must not include JSON or UI code.
#include "engine/data_parallel.h"

#include <algorithm>

namespace gg::engine {

double dp_input_bytes_per_sample(const Graph& g) {
    for (const Layer& l : g.layers) {
        if (l.kind == OpKind::kMatmul && l.conv_kernel > 0 && !l.saved.empty()) {
            // The first convolution saves its input: the image batch the loader produced, fp32 (ToTensor()).
            const std::int32_t t = l.saved.front().tensor;
            return t >= 0 && t < std::int32_t(g.tensors.size()) ? g.tensors[t].elements * 4.0 : 0.0;
        }
        if (l.kind == OpKind::kEmbedding) {
            // Token ids (int64) and the labels of the same length (the Hugging Face collators' input_ids, labels).
            for (const TensorInfo& t : g.tensors)
                if (t.rule == DtypeRule::kInt64) return 2.0 * t.elements * 8.0;
            return 0.0;
        }
    }
    return 0.0;
}

double dp_output_bytes_per_sample(const Graph& g, Precision precision) {
    return g.logits_elements * dtype_bytes(DtypeRule::kActivation, precision);
}

bool dp_loss_in_replicas(Family family) { return family == Family::kDecoder || family == Family::kEncoder; }

DpStepTimes dp_step_times(const DpTraffic& d, int n, double batch, int accum, double bus, double latency_s,
                          double device_micro_s, double host_micro_s) {
    DpStepTimes s;
    if (n <= 1 || bus <= 0) return s;
    const double others = n - 1.0;
    // NCCL broadcast and reduce are pipelined rings: each byte crosses each link once, so time = bytes / bus bandwidth
    // ("busbw = algbw" for both, nccl-tests doc/PERFORMANCE.md) plus one latency per hop. Every micro-batch replicates
    // the module and reduces its gradients (DataParallel has no no_sync(): forward always replicates).
    s.broadcast_s = accum * (d.broadcast_bytes / bus + others * latency_s);
    s.reduce_s = accum * (d.reduce_bytes / bus + others * latency_s);
    // Scatter and gather are copies between GPU 0 and each other card (comm.scatter / comm.gather: tensor copies),
    // all through GPU 0's link: the other replicas' share of the batch goes out, their outputs come back, and, when
    // the loss is taken on GPU 0, the outputs' gradients go out again in backward.
    const double out_bytes = d.output_bytes_per_sample * (d.output_gradient_scattered ? 2.0 : 1.0);
    s.scatter_gather_s = accum * (others * batch * (d.input_bytes_per_sample + out_bytes) / bus);
    // One Python thread per replica (parallel_apply), one GIL: the host issues n replicas' launches one after
    // another. Launches are asynchronous, so that only costs time when it outlasts the device's own work.
    s.launch_wait_s = accum * std::max(0.0, n * host_micro_s - device_micro_s);
    return s;
}

DpMemory dp_memory(const PreparedMemory& dp, double batch) {
    DpMemory r;
    const TrainingConfig& c = dp.config;
    const double n = data_parallel(c);
    const MemoryTimeline tl = memory_timeline(dp, batch);
    const double frag = 1.0 + c.tunables.fragmentation_fraction;
    const double io = dp.dp_gpu0_per_sample_bytes() * batch;
    r.gpu0_allocated_bytes = tl.points.empty() ? 0.0 : tl.points[tl.peak_index].allocated_bytes();
    r.gpu0_nvidia_smi_bytes = r.gpu0_allocated_bytes * frag + c.tunables.cuda_context_bytes;
    r.optimizer_bytes = dp.optimizer_bytes + dp.ema_bytes;
    r.gathered_output_bytes = dp.dp_output_per_sample_bytes * batch;
    r.scattered_input_bytes = dp.dp_input_per_sample_bytes * batch;
    // The other cards: no optimizer states, no step, no second gradient copy, no batch or gathered outputs.
    double other = 0;
    for (const TimelinePoint& p : tl.points) {
        if (p.point == StepPoint::kOptimizerStep || p.point == StepPoint::kEvaluation) continue;
        const double grads = std::max(0.0, p.gradients_bytes - dp.ddp_bucket_bytes);
        const double tmp = std::max(0.0, p.temporary_bytes - io);
        other = std::max(other, p.weights_bytes + grads + p.activations_bytes + tmp + p.workspace_bytes);
    }
    r.other_allocated_bytes = n > 1 ? other : 0.0;
    r.other_nvidia_smi_bytes = n > 1 ? other * frag + c.tunables.cuda_context_bytes : 0.0;
    return r;
}

DpVersusDdp dp_versus_ddp(const PreparedMemory& dp, const PreparedMemory& ddp, double batch, double dp_step_s,
                          double ddp_step_s) {
    DpVersusDdp r;
    r.dp = dp_memory(dp, batch);
    r.ddp_nvidia_smi_bytes = required_bytes(ddp, batch);
    r.dp_step_s = dp_step_s;
    r.ddp_step_s = ddp_step_s;
    return r;
}

}  // namespace gg::engine
