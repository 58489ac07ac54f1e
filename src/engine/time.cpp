// The training-time engine (see time.h): evaluate_time turns a prepared configuration (time_prepare.cpp) into the
// report for one card: rates and efficiencies (time_rates.cpp), the links (time_comm.cpp), the step at the expected
// and the range's ends (time_step.cpp), offload, the input encoders, the loader, the dataset's steps and the
// formulas; and the scaling curve. docs/time-model.md explains every formula id. No JSON, no UI.
#include "engine/time.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/time_detail.h"

namespace gg::engine {

using namespace time_detail;

// ---- evaluate ----------------------------------------------------------------------------------------------
namespace {

// The links of a job: the data-parallel ring's, the tensor-parallel group's, the one between pipeline stages.
struct JobLinks {
    Links ring, tensor, pipeline;
};

// The links the job's groups run over; false (r.status = kNoBandwidth) where a group that needs one has none.
bool resolve_job_links(const GpuSpec& gpu, const TimeOptions& o, const ThroughputPriors& priors,
                       const TrainingConfig& c, bool full, TimeReport& r, JobLinks& job) {
    const int n = std::max(1, c.gpu_count);
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    const int dp = data_parallel(c);
    Links &links = job.ring, &tp_links = job.tensor, &pp_links = job.pipeline;
    const Link& link = links.mid;
    if (n > 1) {
        links = resolve_link(gpu, o, priors, n);
        if (link.bus_bytes_per_s <= 0 || links.slow.bus_bytes_per_s <= 0) {
            r.status = TimeStatus::kNoBandwidth;
            return false;
        }
        if (full) r.interconnect_id = link.id;
    }
    if (tp * pp > 1) {
        // Megatron-LM orders the ranks tensor-parallel first, then data-parallel, then pipeline (Megatron-LM
        // parallel_state.py initialize_model_parallel, its example: 16 GPUs, t = 2, p = 4: data-parallel groups
        // [g0, g2], ..., pipeline groups [g0, g4, g8, g12]). So, with nodes of gpus_per_node GPUs:
        //  - the tensor-parallel group is t neighbours: inside a node, on its own link, whatever joins the nodes;
        //  - a data-parallel group spans t x d ranks: inside a node if they fit, else across nodes with
        //    gpus_per_node / t of its GPUs in each (the node's other GPUs run the other groups over their NICs);
        //  - the pipeline is outermost: once the job leaves a node, some stage boundary crosses the network, and
        //    each GPU sends its 1/t slice over its own NIC.
        const double per_node = priors.comm.gpus_per_node;
        TimeOptions inside = o;
        const bool network = o.interconnect == Interconnect::kInfiniband || o.interconnect == Interconnect::kEthernet;
        if (o.interconnect_set && network) inside.interconnect_set = false;
        const bool multi_node = n > per_node;
        if (tp > 1) {
            tp_links = resolve_link(gpu, inside, priors, tp);
            if (tp_links.mid.bus_bytes_per_s <= 0) {
                r.status = TimeStatus::kNoBandwidth;
                return false;
            }
        }
        if (pp > 1) {
            pp_links = resolve_link(gpu, multi_node ? o : inside, priors, multi_node ? n : tp * pp);
            share_node_network(pp_links, 1.0, per_node);
        }
        if (dp > 1) {
            if (double(tp) * dp <= per_node) {
                links = resolve_link(gpu, inside, priors, tp * dp);
            } else {
                links = resolve_link(gpu, o, priors, n);
                share_node_network(links, std::max(1.0, per_node / tp), per_node);
            }
            if (link.bus_bytes_per_s <= 0) {
                r.status = TimeStatus::kNoBandwidth;
                return false;
            }
        }
        // The link the report names: the gradients' ring, or without replicas the tensor-parallel group's.
        if (full) r.interconnect_id = dp > 1 ? link.id : tp > 1 ? tp_links.mid.id : pp_links.mid.id;
    }
    return true;
}

// The efficiencies at the expected point and the range's ends, with the measured limits that cap them.
struct Efficiencies {
    Efficiency mid, fast, slow;
    double attention_cap_flop_per_s = 0, linear_best_flop_per_s = 0;
};

Efficiencies efficiencies(const GpuSpec& gpu, const ThroughputPriors& priors, const EfficiencyPrior& prior,
                          MatmulRate rate, double peak_other) {
    Efficiencies out;
    // Fused attention runs at most at FlashAttention-2's measured fraction of the peak: "50-73% of the theoretical
    // maximum FLOPs/s on A100" (Dao 2023, FlashAttention-2, arXiv 2307.08691, abstract), "only 35% utilization on
    // the H100 GPU" (Shah et al. 2024, FlashAttention-3, arXiv 2407.08608, abstract: its kernels were written for
    // Ampere and use neither Hopper's asynchronous wgmma instructions nor TMA). Attention is bf16/fp16 even under
    // FP8 (peak_other). Fractions and sources: data/throughput_priors.json "fused_attention_limits".
    const double attention_cap_flop_per_s = priors.fused_attention_fraction(gpu) * peak_other;
    // A card whose best GEMM was measured (data/throughput_priors.json "matmul_limits": Bekman's maximum achievable
    // matmul FLOPS, a community torch.mm table) runs its GEMMs at the prior's share of that best: best x fraction /
    // matmul_reference (H100 SXM: 794.5 x 0.85 / 0.869 = 777 TFLOPS, not 0.85 x 989 = 841; RTX 4090: 166.6 x 0.85 /
    // 0.869 = 163, not 0.85 x 165.2 = 140). gemm_rate() falls back to a ceiling when no reference is given.
    const MatmulRate rate_other = rate == MatmulRate::kFp8 ? MatmulRate::kBf16 : rate;
    const double linear_best_flop_per_s = priors.matmul_limit_flop_per_s(gpu, rate);
    const double other_best_flop_per_s = priors.matmul_limit_flop_per_s(gpu, rate_other);
    const double best_to_rate = priors.matmul_reference_fraction > 0
                                    ? prior.matmul_fraction.expected / priors.matmul_reference_fraction
                                    : 0.0;
    out.mid = {prior.matmul_fraction.expected, prior.bandwidth_fraction.expected,
               attention_cap_flop_per_s, linear_best_flop_per_s, other_best_flop_per_s, 1, 1, best_to_rate};
    // The range's ends scale every rate by the fit's spread (data/throughput_priors.json "about": low / high =
    // expected x the smallest / largest measured/predicted of the fit set): the fractions, and with them the two
    // limits that cap those fractions (the SM stream limit, FlashAttention-2's Hopper limit), so a capped card's range
    // is as wide as an uncapped one's, and the host-side times (the spread is of whole measured steps).
    const double mm_fast = prior.matmul_fraction.high / prior.matmul_fraction.expected;
    const double mm_slow = prior.matmul_fraction.low / prior.matmul_fraction.expected;
    const double bw_fast = prior.bandwidth_fraction.high / prior.bandwidth_fraction.expected;
    const double bw_slow = prior.bandwidth_fraction.low / prior.bandwidth_fraction.expected;
    out.fast = {prior.matmul_fraction.high,        prior.bandwidth_fraction.high,
                attention_cap_flop_per_s * mm_fast,   linear_best_flop_per_s * mm_fast,
                other_best_flop_per_s * mm_fast,      bw_fast,
                mm_fast,                              best_to_rate};
    out.slow = {prior.matmul_fraction.low,         prior.bandwidth_fraction.low,
                attention_cap_flop_per_s * mm_slow,   linear_best_flop_per_s * mm_slow,
                other_best_flop_per_s * mm_slow,      bw_slow,
                mm_slow,                              best_to_rate};
    out.attention_cap_flop_per_s = attention_cap_flop_per_s;
    out.linear_best_flop_per_s = linear_best_flop_per_s;
    return out;
}

// The card's PCIe link to host memory (its generation's peer-to-peer row: nominal unless measured), which
// ZeRO-Offload and offloaded checkpointing copy over; 0 where nothing is copied.
double host_link_bytes_per_s(const PreparedTime& t, const GpuSpec& gpu, const ThroughputPriors& priors) {
    double host_link_bytes_per_s = 0;
    if (t.offload_bytes > 0 || t.offload_activation_bytes_per_sample > 0) {
        const Interconnect pcie = gpu.pcie_gen >= 5 ? Interconnect::kPcie5
                                  : gpu.pcie_gen == 4 ? Interconnect::kPcie4 : Interconnect::kPcie3;
        const InterconnectSpec* spec = priors.interconnects.find(pcie, true);
        host_link_bytes_per_s = spec ? link_bandwidth(*spec, gpu).mid : 0;
    }
    return host_link_bytes_per_s;
}

// What every step of one evaluation shares: the configuration, the card's rates, the communication settings,
// the host-side costs and the user's calibration; the expected step, the range's ends and the scaling ideal differ
// only in their links and efficiencies.
struct StepModel {
    const PreparedTime& t;
    double batch;
    const GpuSpec& gpu;
    const TimeOptions& o;
    const ThroughputPriors& priors;
    DenseFlopPerS rates;
    double peak = 0, peak_other = 0;
    double grad_bytes = 0, overlap = 0, sharded = 0;
    double oh = 0, kl = 0;  // the prior's per-layer overhead, the kernel launch time
    double sm_cycle_rate_hz = 0, stream_cap_bytes_per_s = 0;
    double calibrated_k = 0;

    StepTimes at(int gpus, const StepLinks& l, Efficiency e) const {
        StepTimes st = step_times(t, batch, gpu, gpus, l, grad_bytes, overlap, sharded,
                                  priors.comm.overlap_slowdown_fraction, peak_other, peak, e, stream_cap_bytes_per_s,
                                  oh / e.host_scale, kl / e.host_scale, priors.optimizer_op_s / e.host_scale);
        if (calibrated_k > 0) {
            for (double* v : {&st.compute_s, &st.memory_s, &st.overhead_s, &st.recurrent_s, &st.optimizer_s,
                              &st.optimizer_loop_s, &st.bubble_s})
                *v /= calibrated_k;
            st.step_s = st.total();
        }
        return st;
    }
    // The frozen input encoders' forward passes (SD pipelines), once per micro-batch, at the model's efficiencies
    // and each encoder's own rate.
    double encoders_s(Efficiency e) const {
        const int accum = std::max(1, t.config.grad_accum_steps);
        double sum_s = 0;
        for (const auto& enc : t.input_encoders) {
            bool enc_fallback = false;
            const MatmulRate enc_rate = matmul_rate(enc->config.precision, rates, gpu.compute_capability_major,
                                                    gpu.compute_capability_minor, enc_fallback);
            const double enc_peak = peak_flop_per_s(enc_rate, rates);
            sum_s += accum * step_times(*enc, batch, gpu, 1, {}, 0, 0, 0, 0, enc_peak, enc_peak, e,
                                        stream_cap_bytes_per_s, oh / e.host_scale, kl / e.host_scale,
                                        priors.optimizer_op_s / e.host_scale)
                                 .step_s;
        }
        return calibrated_k > 0 ? sum_s / calibrated_k : sum_s;
    }
    // Input pipeline: each GPU's loader must deliver batch x accum samples per step; prefetching workers overlap
    // loading with compute (torch.utils.data.DataLoader prefetch_factor), so the slower of the two sets the pace.
    double with_loader(double step_s) const {
        const int accum = std::max(1, t.config.grad_accum_steps);
        return loader_paced_step_s(step_s, batch * accum, o.loader_samples_per_s, o.loader);  // engine/loader.cpp
    }
};

// ZeRO-Offload's transfers and CPU optimizer step per step (r.offload_transfer_s, r.cpu_optimizer_s); their sum is
// returned, `one_gpu_s` gets the same job's CPU step on one card.
double offload_step_s(const StepModel& sm, double host_link_bytes_per_s, TimeReport& r, double& one_gpu_s) {
    const PreparedTime& t = sm.t;
    const TrainingConfig& c = t.config;
    const int n = std::max(1, c.gpu_count);
    // ZeRO-Offload moves the gradients to host memory and the updated parameters back over the same link.
    double offload_s = 0;
    if (t.offload_bytes > 0) {
        const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
        if (host_link_bytes_per_s > 0) offload_s = t.offload_bytes / (z1 ? n : 1) / host_link_bytes_per_s;
    }
    r.offload_transfer_s = offload_s;
    // The optimizer step on the CPU (DeepSpeed's CPU-Adam): a streaming kernel over the fp32 parameter, gradient and
    // both moments (csrc/includes/cpu_adam.h), bound by the host's memory bandwidth, which every rank of a server
    // shares (priors.cpu_optimizer_bytes_per_param; TimeOptions::host_memory_bytes_per_s). Not overlapped with the
    // GPU's next step (ZeRO-Offload's delayed parameter update is off by default). One card's share x the ranks of
    // its server; `one_gpu` = the same job's CPU step on one card.
    double cpu_optimizer_s = 0, cpu_optimizer_one_gpu_s = 0;
    if (t.offload_bytes > 0) {
        const double host_bw = sm.o.host_memory_bytes_per_s > 0 ? sm.o.host_memory_bytes_per_s
                                                                 : default_host_memory_bytes_per_s(sm.gpu, sm.priors);
        const double bytes = sm.priors.cpu_optimizer_bytes_per_param;
        if (host_bw > 0 && bytes > 0) {
            const bool z1 = n > 1 && c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
            const double per_server = std::min<double>(n, std::max(1.0, sm.priors.comm.gpus_per_node));
            const double params_per_rank = t.grad_comm_values / (z1 ? n : 1);
            cpu_optimizer_s = params_per_rank * per_server * bytes / host_bw;
            cpu_optimizer_one_gpu_s = t.grad_comm_values * bytes / host_bw;
        } else {
            r.cpu_optimizer_not_modelled = true;
        }
    }
    r.cpu_optimizer_s = cpu_optimizer_s;
    one_gpu_s = cpu_optimizer_one_gpu_s;
    return offload_s + cpu_optimizer_s;
}

// Dataset: steps = ceil(samples / global batch) per epoch x epochs, or ceil(tokens / tokens per step); the totals
// and throughputs at r.step_s.
void count_steps(const PreparedTime& t, const Dataset& d, TimeReport& r) {
    if (d.tokens > 0 && t.tokens_per_sample > 0) {
        r.steps = std::ceil(d.tokens / (r.samples_per_step * t.tokens_per_sample));
    } else if (d.samples > 0) {
        r.steps_per_epoch = std::ceil(d.samples / r.samples_per_step);
        r.steps = r.steps_per_epoch * std::max(0.0, d.epochs);
    }
    r.total_s = r.steps * r.step_s;
    r.epoch_s = r.steps_per_epoch * r.step_s;
    r.samples_per_s = r.samples_per_step / r.step_s;
    r.tokens_per_s = r.samples_per_s * t.tokens_per_sample;
}

// The expected step's parts, copied into the report.
void report_parts(const StepTimes& s, TimeReport& r) {
    r.compute_s = s.compute_s;
    r.activation_offload_s = s.activation_offload_s;
    r.memory_bound_s = s.memory_s;
    r.overhead_s = s.overhead_s;
    r.recurrent_s = s.recurrent_s;
    r.optimizer_s = s.optimizer_s;
    r.optimizer_loop_s = s.optimizer_loop_s;
    r.comm_s = s.comm_s;
    r.dp = s.dp;
    r.exposed_comm_s = s.exposed_s;
    r.model_parallel_comm_s = s.model_parallel_s;
    r.pipeline_bubble_s = s.bubble_s;
}

// Scaling efficiency: each GPU's own share of the work, perfectly split (no communication), over the step it
// takes. Under DDP that share is the same micro-batch on one GPU, so this is throughput(n) / (n x throughput(1)).
// Under ZeRO/FSDP it is not: each GPU updates only 1/n of the weights, and one GPU running the whole optimizer
// step (and the whole offload) is not the work split n ways. Compared with one such GPU, ZeRO-3 Llama-2-7B on
// 8 x H100 came out at up to 145% (issue 30): the optimizer step shrinking with n was counted as parallel
// efficiency. The ideal is now the step at n GPUs without links (step_times adds no communication when the bus
// has no bandwidth), so the efficiency is at most 1 and the speed-up over one GPU can still exceed n, for that
// reason (catalog/scaling.h). Under tensor/pipeline parallelism one GPU cannot run the job at all: the share of
// the step left once communication and the pipeline bubble are taken out.
void scaling_efficiency(const StepModel& sm, const StepTimes& s, const Efficiency& e_mid, double host_link_bytes_per_s,
                        double cpu_optimizer_one_gpu_s, double encoder_s, TimeReport& r) {
    const TrainingConfig& c = sm.t.config;
    const int n = std::max(1, c.gpu_count);
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    if (tp * pp > 1) {
        r.scaling_efficiency = (s.step_s - s.exposed_s - s.model_parallel_s - s.bubble_s) / s.step_s;
    } else if (n > 1) {
        // The CPU optimizer step (ZeRO-Offload) split the same way, without the host memory bandwidth the ranks of
        // a server share (that contention, like communication, is what the efficiency measures).
        const StepTimes split = sm.at(n, {{}, {}, {}, host_link_bytes_per_s}, e_mid);
        const bool z1 = c.strategy != Strategy::kDdp && c.strategy != Strategy::kDp;
        const double cpu_share_s = cpu_optimizer_one_gpu_s / (z1 ? n : 1);
        const double ideal_step = sm.with_loader(split.step_s + r.offload_transfer_s + cpu_share_s + encoder_s);
        r.scaling_efficiency = ideal_step / r.step_s;
    }
}

// The formulas of the step, the compute roofline and the bandwidth roofline (docs/time-model.md: their ids).
void step_formulas(const StepModel& sm, const Efficiencies& e, TimeReport& r) {
    const PreparedTime& t = sm.t;
    const GpuSpec& gpu = sm.gpu;
    const ThroughputPriors& priors = sm.priors;
    const TrainingConfig& c = t.config;
    const int accum = std::max(1, c.grad_accum_steps);
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    const double kl = sm.kl;
    r.step = {r.step_s, "time.step", {{"compute_s", r.compute_s}, {"memory_bound_s", r.memory_bound_s},
                                      {"overhead_s", r.overhead_s}, {"recurrent_s", r.recurrent_s},
                                      {"kernel_launch_s", kl}, {"exposed_comm_s", r.exposed_comm_s},
                                      {"offload_transfer_s", r.offload_transfer_s},
                                      {"activation_offload_s", r.activation_offload_s},
                                      {"input_encoder_s", r.input_encoder_s},
                                      {"loader_wait_s", r.loader_wait_s},
                                      {"model_parallel_comm_s", r.model_parallel_comm_s},
                                      {"pipeline_bubble_s", r.pipeline_bubble_s}, {"grad_accum_steps", double(accum)}}};
    r.compute = {r.compute_s, "time.compute_roofline",
                 {{"hardware_flop_per_sample", t.hardware_flop_per_sample}, {"batch", sm.batch},
                  {"peak_flop_per_s", sm.peak}, {"matmul_fraction", e.mid.matmul},
                  {"tensor_parallel", double(tp)}, {"pipeline_parallel", double(pp)}}};
    // Only where a fused-attention limit applies (an architecture with an entry).
    if (e.attention_cap_flop_per_s > 0)
        r.compute.operands.push_back({"fused_attention_flop_per_s", e.attention_cap_flop_per_s});
    // Only where a measured best GEMM exists for this card and rate, or a GeForce card takes the measured median share.
    if (e.linear_best_flop_per_s > 0)
        r.compute.operands.push_back({"matmul_limit_flop_per_s", e.linear_best_flop_per_s});
    if (const double share = priors.geforce_share(gpu, r.rate); share > 0)
        r.compute.operands.push_back({"geforce_median_share", share});
    if (const double share = priors.tf32_share(gpu, r.rate); share > 0)
        r.compute.operands.push_back({"tf32_16bit_share", share});
    r.memory_bound = {r.memory_bound_s, "time.bandwidth_roofline",
                      {{"memory_bandwidth_bytes_per_s", gpu.memory_bandwidth_bytes_per_s},
                       {"bandwidth_fraction", e.mid.bandwidth}, {"dequant_bytes_per_micro", t.dequant_bytes_per_micro},
                       {"sm_cycles_per_s", sm.sm_cycle_rate_hz},
                       {"stream_bytes_per_sm_cycle", priors.stream_bytes_per_sm_cycle},
                       {"elementwise_bytes_per_s",
                        elementwise_bytes_per_s(gpu.memory_bandwidth_bytes_per_s * e.mid.bandwidth,
                                                sm.stream_cap_bytes_per_s)}}};
}

// The formulas of the optimizer step, the collectives, model parallelism and the model FLOPs.
void comm_formulas(const StepModel& sm, const StepTimes& s, const JobLinks& links, TimeReport& r) {
    const PreparedTime& t = sm.t;
    const ThroughputPriors& priors = sm.priors;
    const TrainingConfig& c = t.config;
    const int accum = std::max(1, c.grad_accum_steps);
    const int tp = std::max(1, c.tensor_parallel), pp = std::max(1, c.pipeline_parallel);
    const int dp = data_parallel(c);
    const double batch = sm.batch;
    const Link& link = links.ring.mid;
    const Links &tp_links = links.tensor, &pp_links = links.pipeline;
    r.optimizer = {r.optimizer_s + r.optimizer_loop_s, "time.optimizer_step",
                   {{"optimizer_bytes", t.optimizer_bytes}, {"params_trainable", t.params_trainable},
                    {"params_trainable_per_gpu", t.params_trainable_per_gpu},
                    {"optimizer_loop_ops", s.optimizer_loop_ops}, {"optimizer_op_s", priors.optimizer_op_s},
                    {"optimizer_loop_s", r.optimizer_loop_s}}};
    if (c.ema_weights) {
        r.optimizer.operands.push_back({"ema_bytes", t.ema_bytes});
        r.optimizer.operands.push_back({"ema_loop_ops", t.ema_loop_ops});
    }
    r.comm = {r.comm_s, c.strategy == Strategy::kDdp  ? "time.ring_allreduce"
                        : c.strategy == Strategy::kDp ? "time.dp_broadcast_reduce"
                                                      : "time.zero_collectives",
              {{"grad_bytes", sm.grad_bytes}, {"param_gather_bytes", t.param_gather_bytes},
               {"gpu_count", double(dp)}, {"bus_bytes_per_s", link.bus_bytes_per_s}, {"latency_s", link.latency_s}}};
    if (c.strategy == Strategy::kDp)
        for (auto op : {std::pair<const char*, double>{"dp_broadcast_s", r.dp.broadcast_s}, {"dp_reduce_s", r.dp.reduce_s},
                        {"dp_scatter_gather_s", r.dp.scatter_gather_s}, {"dp_launch_wait_s", r.dp.launch_wait_s},
                        {"dp_output_bytes_per_sample", t.dp.output_bytes_per_sample},
                        {"dp_input_bytes_per_sample", t.dp.input_bytes_per_sample}})
            r.comm.operands.push_back(op);
    if (tp * pp > 1)
        r.model_parallel = {r.model_parallel_comm_s + r.pipeline_bubble_s, "time.model_parallel",
                            {{"tensor_parallel", double(tp)}, {"pipeline_parallel", double(pp)},
                             {"pipeline_interleave", double(pp > 1 ? std::max(1, c.pipeline_interleave) : 1)},
                             {"tp_collectives_per_micro", t.tp_collectives_per_micro},
                             {"tp_collective_bytes", t.tp_collective_bytes_per_sample * batch},
                             {"tp_bus_bytes_per_s", tp_links.mid.bus_bytes_per_s},
                             {"p2p_bytes", t.p2p_bytes_per_sample * batch},
                             {"p2p_bus_bytes_per_s", pp_links.mid.bus_bytes_per_s},
                             {"micro_batches", double(accum)},
                             {"model_parallel_comm_s", r.model_parallel_comm_s},
                             {"pipeline_bubble_s", r.pipeline_bubble_s}}};
    r.exposed_comm = {r.exposed_comm_s, "time.exposed_comm",
                      {{"comm_s", r.comm_s}, {"overlap_fraction", sm.overlap}, {"sharded_overlap_fraction", sm.sharded},
                       {"overlap_slowdown_fraction", priors.comm.overlap_slowdown_fraction},
                       {"backward_fraction", t.backward_fraction}}};
    r.flop = {r.flop_per_step, "time.model_flop",
              {{"model_flop_per_sample", t.model_flop_per_sample}, {"samples_per_step", r.samples_per_step}}};
}

}  // namespace

TimeReport evaluate_time(const PreparedTime& t, double batch, const GpuSpec& gpu, const TimeOptions& o,
                         const Dataset& d, const ThroughputPriors& priors, TimeDetail detail) {
    assert(batch >= 1 && "evaluate_time: the micro-batch must be >= 1");
    TimeReport r;
    const TrainingConfig& c = t.config;
    const int n = std::max(1, c.gpu_count);
    const int accum = std::max(1, c.grad_accum_steps);
    bool fallback = false;
    bool inferred = false;
    StepModel sm{t, batch, gpu, o, priors, rates_for_time(gpu, priors, inferred)};
    const DenseFlopPerS& rates = sm.rates;
    r.peak_inferred = inferred;
    r.rate = matmul_rate(c.precision, rates, gpu.compute_capability_major, gpu.compute_capability_minor, fallback);
    r.precision_fallback = fallback;
    const double peak = sm.peak = peak_flop_per_s(r.rate, rates);
    // FP8 (Transformer Engine) runs only the Linear GEMMs in FP8; attention's matmuls stay BF16.
    sm.peak_other = r.rate == MatmulRate::kFp8 ? rates.bf16 : peak;
    r.peak_flop_per_s = peak;
    if (rates.fp32 <= 0 || peak <= 0 || gpu.memory_bandwidth_bytes_per_s <= 0) {
        r.status = TimeStatus::kNoRate;
        return r;
    }
    const EfficiencyPrior* prior = priors.find(t.family);
    if (!prior) {
        r.status = TimeStatus::kNoPrior;
        return r;
    }
    const bool full = detail == TimeDetail::kFull;
    if (full) r.prior_id = prior->id;
    JobLinks links;
    if (!resolve_job_links(gpu, o, priors, c, full, r, links)) return r;
    // Megatron-LM as Korthikanti et al. (2022) ran it reduces the data-parallel gradients after the last micro-batch's
    // backward (sec. 6.3: "we do not use any overlapping of gradient all-reduces with back-propagation"): nothing
    // overlaps under tensor/pipeline parallelism unless overlap_fraction says so (newer Megatron-Core can overlap).
    sm.overlap = o.overlap_fraction >= 0 ? o.overlap_fraction
                 : model_parallel(c)     ? 0.0
                                         : priors.comm.overlap_fraction;
    sm.sharded = o.overlap_fraction >= 0 ? o.overlap_fraction : priors.comm.sharded_overlap_fraction;
    // Gradients reduced in another dtype than they are kept in (e.g. DDP's fp16_compress_hook casts each bucket to
    // fp16 before the all-reduce: torch.distributed.algorithms.ddp_comm_hooks.default_hooks docs) move that many
    // bytes per value.
    sm.grad_bytes = o.grad_reduce_bytes > 0 ? t.grad_comm_values * o.grad_reduce_bytes : t.grad_comm_bytes;
    const Efficiencies e = efficiencies(gpu, priors, *prior, r.rate, sm.peak_other);
    sm.oh = prior->per_layer_overhead_s;
    sm.kl = priors.kernel_launch_s;
    sm.sm_cycle_rate_hz = sm_cycles_per_s(gpu);
    sm.stream_cap_bytes_per_s = sm.sm_cycle_rate_hz * priors.stream_bytes_per_sm_cycle;  // 0: not modelled
    const double host_link = host_link_bytes_per_s(t, gpu, priors);
    // "Calibrated by you" (calibration.h): the user's measured throughput of this card on this family scales the
    // card's own work (compute, bandwidth-bound ops, launch overhead, recurrences, the pipeline's idle slots, which
    // are micro-batches of that work); communication, offload and the loader keep their own models.
    sm.calibrated_k = gpu.calibration.efficiency_factor(family_name(t.family));
    r.calibrated_efficiency_factor = sm.calibrated_k;
    const StepTimes s = sm.at(n, {links.ring.mid, links.tensor.mid, links.pipeline.mid, host_link}, e.mid);
    double cpu_optimizer_one_gpu_s = 0;
    const double offload_s = offload_step_s(sm, host_link, r, cpu_optimizer_one_gpu_s);
    r.samples_per_step = batch * accum * data_parallel(c);
    const double encoder_s = sm.encoders_s(e.mid);
    r.input_encoder_s = encoder_s;
    const double unpaced_step_s = s.step_s + offload_s + encoder_s;
    r.step_s = sm.with_loader(unpaced_step_s);
    count_steps(t, d, r);
    if (!full) return r;  // the ranking's figures; the rest (a range, scaling, formulas) costs 3 more evaluations

    // The range: fast kernels on the fast end of the link's measured range, slow kernels on its slow end.
    const StepTimes fast = sm.at(n, {links.ring.fast, links.tensor.fast, links.pipeline.fast, host_link}, e.fast);
    const StepTimes slow = sm.at(n, {links.ring.slow, links.tensor.slow, links.pipeline.slow, host_link}, e.slow);
    r.step_low_s = sm.with_loader(fast.step_s + offload_s + sm.encoders_s(e.fast));
    r.step_high_s = sm.with_loader(slow.step_s + offload_s + sm.encoders_s(e.slow));
    r.loader_wait_s = r.step_s - unpaced_step_s;  // exactly 0 when the loader keeps up (with_loader returns its input)
    report_parts(s, r);

    r.flop_per_step = t.model_flop_per_sample * r.samples_per_step;
    r.hardware_flop_per_step = t.hardware_flop_per_sample * r.samples_per_step;
    r.mfu = r.flop_per_step / (r.step_s * n * peak);
    scaling_efficiency(sm, s, e.mid, host_link, cpu_optimizer_one_gpu_s, encoder_s, r);

    r.low_s = r.steps * r.step_low_s;
    r.high_s = r.steps * r.step_high_s;
    r.gpu_hours = r.total_s * n / 3600.0;
    step_formulas(sm, e, r);
    comm_formulas(sm, s, links, r);
    return r;
}

// ---- scaling curve -----------------------------------------------------------------------------------------
std::vector<std::pair<int, double>> scaling_curve(const PreparedTime& prepared, double batch, const GpuSpec& gpu,
                                                  const TimeOptions& options, const ThroughputPriors& priors,
                                                  const std::vector<int>& gpu_counts) {
    std::vector<std::pair<int, double>> out;
    PreparedTime p = prepared;
    // Under tensor/pipeline parallelism a count is a number of model replicas (each tp x pp GPUs).
    const int replica = std::max(1, prepared.config.tensor_parallel * prepared.config.pipeline_parallel);
    for (int n : gpu_counts) {
        p.config.gpu_count = n * replica;
        const TimeReport r = evaluate_time(p, batch, gpu, options, Dataset{}, priors);
        out.emplace_back(n * replica, r.status == TimeStatus::kOk ? r.scaling_efficiency : 0.0);
    }
    return out;
}

}  // namespace gg::engine
