// One training step of the time model at one set of efficiencies: the per-layer roofline of a micro-batch, the
// optimizer step, the data-parallel collectives and what of them overlaps backward, tensor/pipeline parallelism's
// collectives and bubble, offloaded activations. evaluate_time (time.cpp) runs it at the range's ends. No JSON, no UI.
#include <algorithm>
#include <cmath>

#include "engine/time_detail.h"

namespace gg::engine::time_detail {

namespace {

// A rate held to a measured ceiling (0 = none).
double capped(double rate, double cap) { return cap > 0 ? std::min(rate, cap) : rate; }

// A compute-bound op's rate: the prior's fraction of the datasheet peak, or, where the card's best GEMM was
// measured, the same fraction of what the card reaches (docs/time-model.md sec. 2).
double gemm_rate(double peak, double matmul_fraction, double best_flop_per_s, double best_to_rate) {
    if (best_flop_per_s > 0 && best_to_rate > 0) return best_flop_per_s * best_to_rate;
    return capped(peak * matmul_fraction, best_flop_per_s);
}

struct MicroTimes {
    double compute_s = 0, memory_s = 0, overhead_s = 0, recurrent_s = 0;
    double hidable_s = 0;  // column-parallel weight-gradient GEMMs: the window backward's all-reduces hide in
};

// One micro-batch: per layer roofline max(FLOPs / (peak x e_mm), bytes / (bandwidth x e_bw)) (Williams et al.
// 2009, "Roofline"), kernels run one after another on one stream.
// Matmul and convolution kernels (cuBLAS/cuDNN) stream their operands at bw x e.bandwidth; the other kernels at
// stream_bytes_per_s (elementwise_bytes_per_s: that, capped by the SM stream limit).
MicroTimes micro_batch_times(const PreparedTime& t, const std::vector<TimeLayer>& layers, double batch, double peak,
                             double peak_linear, double bw, double stream_bytes_per_s, Efficiency e,
                             double overhead_per_pass, double kernel_launch_s) {
    MicroTimes out;
    for (const TimeLayer& l : layers) {
        const double bytes = l.bytes_per_sample * batch + l.weight_bytes;
        if (l.compute_bound) {
            const double mem_s = bytes / (bw * e.bandwidth);
            double rate = gemm_rate(l.linear ? peak_linear : peak, e.matmul,
                                    l.linear ? e.linear_best_flop_per_s : e.other_best_flop_per_s, e.best_to_rate);
            if (l.fused_attention && e.fused_attention_flop_per_s > 0)
                rate = std::min(rate, e.fused_attention_flop_per_s);
            const double flop_s = l.flop_per_sample * batch / rate;
            if (flop_s >= mem_s) out.compute_s += l.count * flop_s;
            else out.memory_s += l.count * mem_s;
            out.hidable_s += l.count * l.hidable_fraction * std::max(flop_s, mem_s);
        } else {
            out.memory_s += l.count * bytes / stream_bytes_per_s;
        }
        out.overhead_s += l.count * l.passes * overhead_per_pass;
        out.memory_s += l.count * l.serial_bytes_per_sample * batch / stream_bytes_per_s;
    }
    // Recurrence: each step is the slowest of its kernels' launch floor, its GEMM at the matmul rate and its bytes
    // (W_hh re-read every step + the step's activations) at the bandwidth: a roofline with a latency floor.
    for (const RecurrentTime& r : t.recurrent) {
        const double launch_s = r.kernels_per_step * kernel_launch_s;
        const double flop_s = r.flop_per_step_per_sample * batch /
                              gemm_rate(peak_linear, e.matmul, e.linear_best_flop_per_s, e.best_to_rate);
        const double mem_s = (r.bytes_per_step_per_sample * batch + r.weight_bytes_per_step) / (bw * e.bandwidth);
        out.recurrent_s += r.sequential_steps * std::max({launch_s, flop_s, mem_s});
    }
    return out;
}

}  // namespace

// Achieved bandwidth of the framework's own memory-bound kernels (elementwise, norms, reductions, layout
// transposes, optimizer and dequantisation kernels): the prior's fraction of the card's bandwidth, but at most what
// the SMs keep in flight. By Little's law a kernel moves bytes in flight / memory latency per second; eager
// kernels hold a few bytes per thread in flight, so per SM and cycle they move a roughly fixed number of bytes
// (data/throughput_priors.json "sm_stream_limit", with its sources). Cards with much bandwidth per SM cycle
// (HBM: A100 ~13, H100 SXM ~13 B) cannot use it all with such kernels; GDDR cards (~3-7 B) are limited by DRAM.
// cuBLAS/cuDNN GEMM and convolution kernels keep far more in flight (multi-stage asynchronous copies into shared
// memory) and are not capped.
double elementwise_bytes_per_s(double dram_bytes_per_s, double cap_bytes_per_s) {
    return cap_bytes_per_s > 0 ? std::min(dram_bytes_per_s, cap_bytes_per_s) : dram_bytes_per_s;
}

StepTimes step_times(const PreparedTime& t, double batch, const GpuSpec& gpu, int n, const StepLinks& links,
                     double grad_bytes, double overlap, double sharded_overlap, double overlap_slowdown,
                     double peak, double peak_linear,
                     Efficiency e, double stream_cap_bytes_per_s, double overhead_per_pass, double kernel_launch_s,
                     double optimizer_op_s) {
    StepTimes s;
    const TrainingConfig& c = t.config;
    const Link& link = links.ring;
    const double bw = gpu.memory_bandwidth_bytes_per_s;
    const double stream_bytes_per_s =
        elementwise_bytes_per_s(bw * e.bandwidth, stream_cap_bytes_per_s * e.stream_scale);
    const int accum = std::max(1, c.grad_accum_steps);
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    const int v = pp > 1 ? std::max(1, c.pipeline_interleave) : 1;
    // The data-parallel replicas of each model slice are the ring the gradients are reduced over.
    n = std::max(1, n / (tp * pp));
    // Under pipelining the slower of the first stage (embedding) and the last (head, loss) sets the pace.
    MicroTimes mt =
        micro_batch_times(t, t.layers, batch, peak, peak_linear, bw, stream_bytes_per_s, e, overhead_per_pass,
                          kernel_launch_s);
    auto total = [](const MicroTimes& m) { return m.compute_s + m.memory_s + m.overhead_s + m.recurrent_s; };
    if (!t.last_stage_layers.empty()) {
        const MicroTimes last = micro_batch_times(t, t.last_stage_layers, batch, peak, peak_linear, bw,
                                                  stream_bytes_per_s, e, overhead_per_pass, kernel_launch_s);
        if (total(last) > total(mt)) mt = last;
    }
    const double dequant_s = t.dequant_bytes_per_micro / stream_bytes_per_s;
    const double micro_s = mt.compute_s + mt.memory_s + mt.overhead_s + mt.recurrent_s + dequant_s;
    // Tensor-parallel all-reduces and pipeline sends per micro-batch (exposed: see prepare_time). With an interleaved
    // schedule each micro-batch crosses v x as many stage boundaries (Narayanan et al. 2021, sec. 2.2.2).
    double mp_micro_s = 0;
    if (tp > 1 && links.tensor.bus_bytes_per_s > 0) {
        const double one = ring_allreduce_s(t.tp_collective_bytes_per_sample * batch, tp, links.tensor.bus_bytes_per_s,
                                            links.tensor.latency_s);
        const double weight_grad_s = mt.hidable_s;
        const double backward = t.tp_backward_collectives_per_micro * one;
        mp_micro_s += (t.tp_collectives_per_micro - t.tp_backward_collectives_per_micro) * one +
                      std::max(0.0, backward - weight_grad_s);
    }
    if (pp > 1 && links.pipeline.bus_bytes_per_s > 0)
        mp_micro_s += (t.p2p_backward ? 2.0 : 1.0) * v *
                      (t.p2p_bytes_per_sample * batch / links.pipeline.bus_bytes_per_s + links.pipeline.latency_s);

    // ZeRO-1 and up shard the optimizer step across the data-parallel group (Rajbhandari et al. 2020 sec. 5).
    const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
    const bool z3 = n > 1 && (c.strategy == Strategy::kZero3 || c.strategy == Strategy::kFsdp);
    s.optimizer_s = t.optimizer_bytes / (z1 ? n : 1) / stream_bytes_per_s;
    // A for-loop step's small kernels cost host time each; ZeRO/FSDP loop over flat partitions.
    const double flat_tensors = c.strategy == Strategy::kFsdp ? t.fsdp_units : 1.0;
    s.optimizer_loop_ops = z1 ? t.optimizer_flat_ops * flat_tensors : t.optimizer_loop_ops;
    // The weight EMA is not sharded by ZeRO-1/2 (each replica keeps its own copy); under ZeRO-3/FSDP it averages the
    // rank's shards.
    s.optimizer_s += t.ema_bytes / (z3 ? n : 1) / stream_bytes_per_s;
    s.optimizer_loop_ops += t.ema_loop_ops;
    s.optimizer_loop_s = s.optimizer_loop_ops * optimizer_op_s;

    // Communication per optimizer step. Backward of the last micro-batch is the window gradient buckets hide
    // behind (DDP: Li et al. 2020, "PyTorch Distributed", sec. 3.2.3; accumulation steps run under no_sync()).
    const double backward_s = micro_s * t.backward_fraction;
    const double forward_s = micro_s - backward_s;
    double hidden_window = overlap * backward_s;
    // Time a collective of comm_s adds when it may overlap window_s of compute: what does not fit in the window,
    // plus the compute it slows while it runs beside it. NCCL's collectives are kernels that take SMs and memory
    // bandwidth from the concurrent compute: "overlapping computation and communication can result in an average
    // computational slowdown of 18.9%, with a maximum of 40.0%" ("Characterizing Compute-Communication Overlap in
    // GPU-Accelerated Distributed Deep Learning: Performance and Power Implications", arXiv 2507.03114, 2025,
    // abstract; GPT and LLaMA models on 4 A100s, H100s, MI250s, MI210s). overlap_slowdown:
    // data/throughput_priors.json comm.overlap_slowdown_fraction.
    auto exposed = [overlap_slowdown](double comm_s, double window_s) {
        return std::max(0.0, comm_s - window_s) + overlap_slowdown * std::min(comm_s, std::max(0.0, window_s));
    };
    if (n > 1 && link.bus_bytes_per_s > 0) {
        const double G = grad_bytes, W = t.param_gather_bytes;
        if (c.strategy == Strategy::kDp) {
            // DataParallel: nothing overlaps (data_parallel.h); only GPU 0 steps, in the time each DDP rank takes.
            s.dp = dp_step_times(t.dp, n, batch, accum, link.bus_bytes_per_s, link.latency_s, micro_s, mt.overhead_s);
            s.comm_s = s.exposed_s = s.dp.comm_s();
        } else if (c.strategy == Strategy::kDdp) {
            s.comm_s = ring_allreduce_s(G, n, link.bus_bytes_per_s, link.latency_s);
            s.exposed_s = exposed(s.comm_s, hidden_window);
        } else if (!z3) {
            // ZeRO-1/2: reduce-scatter of gradients (overlaps backward) + all-gather of the updated parameters
            // after the step (exposed): the same 2 x (n-1)/n volume as all-reduce (ZeRO sec. 7.2.1).
            const double rs = ring_gather_s(G, n, link.bus_bytes_per_s, link.latency_s);
            const double ag = ring_gather_s(G, n, link.bus_bytes_per_s, link.latency_s);
            s.comm_s = rs + ag;
            s.exposed_s = exposed(rs, hidden_window) + ag;
        } else {
            // ZeRO-3 / FSDP FULL_SHARD, per micro-batch: all-gather W in forward, again in backward, reduce-scatter
            // G in backward: 1.5x the DDP volume (ZeRO sec. 7.2.1); prefetching overlaps each with compute.
            const double ag = ring_gather_s(W, n, link.bus_bytes_per_s, link.latency_s);
            const double rs = ring_gather_s(G, n, link.bus_bytes_per_s, link.latency_s);
            s.comm_s = accum * (2 * ag + rs);
            s.exposed_s = accum * (exposed(ag, sharded_overlap * forward_s) +
                                   exposed(ag + rs, sharded_overlap * backward_s));
        }
    }
    s.compute_s = accum * mt.compute_s;
    s.memory_s = accum * (mt.memory_s + dequant_s) + s.optimizer_s;
    s.overhead_s = accum * mt.overhead_s + s.optimizer_loop_s + s.dp.launch_wait_s;
    s.recurrent_s = accum * mt.recurrent_s;
    s.model_parallel_s = accum * mp_micro_s;
    // 1F1B pipeline: m micro-batches take m + (p - 1) slots of one forward + backward on a stage; the interleaved
    // schedule shrinks the fill and drain to (p - 1)/v slots (Narayanan et al. 2021, sec. 2.2, bubble fraction
    // (p - 1)/m, and sec. 2.2.2: "reduced by v").
    s.bubble_s = pp > 1 ? double(pp - 1) / v * (micro_s + mp_micro_s) : 0.0;
    // Offloaded checkpointing copies each block input to host RAM after the block's forward and back before its
    // recompute, on a side stream with pinned buffers, so the copies run beside compute ("use_streams ... where the
    // communications get overlapped with the computation", TRL get_act_offloading_ctx_manager, the OffloadActivations
    // torchtune wrote; Unsloth's offloaded checkpointer copies with non_blocking=True). The copy engines move the
    // bytes, not the SMs, so hidden copies cost nothing; PCIe is full duplex, so the outbound copies hide behind the
    // forward pass and the inbound ones behind the backward pass (recompute included). What does not fit shows.
    if (t.offload_activation_bytes_per_sample > 0 && links.host_bytes_per_s > 0) {
        const double copy_s = t.offload_activation_bytes_per_sample * batch / links.host_bytes_per_s;
        s.activation_offload_s = accum * (std::max(0.0, copy_s - forward_s) + std::max(0.0, copy_s - backward_s));
    }
    s.step_s = s.total();
    return s;
}

}  // namespace gg::engine::time_detail
