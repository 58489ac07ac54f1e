// GAN phases, memory and time (gan.h). The networks' operation lists come from gan_nets.cpp; the card's rates and
// the CNN efficiency prior from time.h / data/throughput_priors.json. Must not include JSON or UI code.
#include "engine/gan.h"

#include <algorithm>
#include <cmath>

namespace gg::engine {

const char* gan_kind_name(GanKind kind) {
    switch (kind) {
        case GanKind::kStyleGan2: return "stylegan2";
        case GanKind::kDcgan: return "dcgan";
        case GanKind::kPix2pix: return "pix2pix";
        case GanKind::kStyleGan3: return "stylegan3";
    }
    return "stylegan2";
}

namespace {

// What one pass over a network costs: forward, the input-gradient backward and the weight-gradient backward.
// Per op: roofline max(FLOPs / matmul rate, conv bytes / bandwidth) (Williams et al. 2009) for the conv, its
// bandwidth-bound neighbours at the bandwidth, and the prior's per-launch overhead per kernel (eager PyTorch).
// An input-gradient conv costs what the forward conv does (a transposed conv of the same size), the elementwise
// backward moves about twice the forward's bytes (gradient in, saved tensor in, gradient out); a weight gradient is
// one more conv-sized GEMM.
struct Rates {
    double fp16_flop_per_s = 0, fp32_flop_per_s = 0, bytes_per_s = 0, stream_bytes_per_s = 0, launch_s = 0;
};

struct PassCost {
    double forward_s = 0, input_grad_s = 0, weight_grad_s = 0;
    double forward_flop = 0;
};

PassCost pass_cost(const GanNetwork& n, double batch, const Rates& r) {
    PassCost c;
    for (const GanOp& op : n.ops) {
        const double rate = op.fp16 ? r.fp16_flop_per_s : r.fp32_flop_per_s;
        const double conv_s = std::max(op.matmul_flop * batch / rate, op.matmul_bytes * batch / r.bytes_per_s);
        const double stream_s = op.stream_bytes * batch / r.stream_bytes_per_s;
        const double fir_s = op.fir_flop * batch / r.fp32_flop_per_s;
        // NCHW <-> NHWC transposes around an FP16 (tensor-core) conv call: 2 x (input + output) bytes (gan.h).
        const double layout_s = op.fp16 ? 2 * op.layout_bytes * batch / r.stream_bytes_per_s : 0;
        c.forward_s += conv_s + layout_s + stream_s + fir_s + op.kernels * r.launch_s;
        c.input_grad_s += conv_s + layout_s + 2 * stream_s + fir_s + op.kernels * r.launch_s;
        c.weight_grad_s += op.params > 0 ? conv_s + layout_s + r.launch_s : 0;
        c.forward_flop += (op.matmul_flop + op.fir_flop) * batch;
    }
    return c;
}

// Adam (torch.optim.Adam, for-loop implementation of torch < 2.0, the reference code's era): per parameter it reads
// p, g, m, v and writes p, m, v in fp32 (28 bytes), about 5 kernels per parameter tensor.
double adam_step_s(const GanNetwork& n, const Rates& r) {
    return 28.0 * n.params() / r.bytes_per_s + 5.0 * double(n.ops.size()) * r.launch_s;
}

// The ring all-reduce of a network's fp32 gradients after each phase (stylegan3 training_loop.py flattens and
// all_reduces them once the phase's backward is done; stylegan2-ada's DDP buckets do the same work): 2(n-1)/n x bytes
// over the link (Patarasuk & Yuan 2009), not hidden behind compute.
double allreduce_s(const GanNetwork& n, int gpus, double link_bytes_per_s, double latency_s) {
    if (gpus <= 1 || link_bytes_per_s <= 0) return 0;
    return ring_allreduce_s(4.0 * n.params(), gpus, link_bytes_per_s, latency_s);
}

}  // namespace

GanReport evaluate_gan(const GanSpec& spec, const GanTraining& t, const GpuSpec& gpu, const ThroughputPriors& priors) {
    const GanNetworks nets = build_gan_networks(spec);
    GanReport rep;
    const double b = std::max(1.0, t.batch);
    rep.g_params = nets.g.params();
    rep.d_params = nets.d.params();
    // Persistent state, fp32 throughout (the FP16 layers cast weight.to(x.dtype) per call; the parameters stay fp32).
    rep.g_weight_bytes = 4 * rep.g_params;
    rep.d_weight_bytes = 4 * rep.d_params;
    rep.g_ema_bytes = spec.g_ema ? 4 * rep.g_params + nets.g.buffer_bytes : 0;
    rep.gradient_bytes = 4 * (rep.g_params + rep.d_params);
    rep.optimizer_bytes = 8 * (rep.g_params + rep.d_params);  // Adam exp_avg + exp_avg_sq
    rep.buffer_bytes = nets.g.buffer_bytes + nets.d.buffer_bytes;
    rep.workspace_bytes = t.tunables.cublas_workspace_bytes + t.tunables.cudnn_workspace_bytes;

    const double g_saved = nets.g.saved_bytes_per_sample(true);
    const double d_saved = nets.d.saved_bytes_per_sample(true);
    const double d_saved_frozen = nets.d.saved_bytes_per_sample(false);
    const double img = nets.image_bytes_per_sample;
    // The gradient transients of a backward: the incoming and outgoing activation gradients of the largest layer.
    const double g_grad_tmp = 2 * nets.g.largest_activation_bytes_per_sample;
    const double d_grad_tmp = 2 * nets.d.largest_activation_bytes_per_sample;

    // ---- rates
    Rates r;
    const EfficiencyPrior* prior = priors.find(Family::kResNet);  // the CNN prior: these are convolutional nets
    bool fallback = false;
    const MatmulRate rate16 = matmul_rate(Precision::kFp16Amp, gpu, fallback);
    const double peak16 = peak_flop_per_s(rate16, gpu);
    const double peak32 = peak_flop_per_s(MatmulRate::kFp32, gpu);
    if (prior != nullptr && peak32 > 0 && gpu.memory_bandwidth_bytes_per_s > 0) {
        const double e = prior->matmul_fraction.expected;
        // As time_step.cpp's gemm_rate: where the card's best FP16 GEMM was measured (matmul_limits), the prior's
        // fraction of that measured best over the reference card's best-to-peak ratio; else the fraction of the
        // datasheet peak.
        const double limit16 = priors.matmul_limit_flop_per_s(gpu, rate16);
        const double ref = priors.matmul_reference_fraction;
        r.fp16_flop_per_s = limit16 > 0 ? (ref > 0 ? limit16 * e / ref : std::min(peak16 * e, limit16)) : peak16 * e;
        if (r.fp16_flop_per_s <= 0) r.fp16_flop_per_s = peak32 * e;
        r.fp32_flop_per_s = peak32 * e;  // allow_tf32 = False in both training loops: plain FP32 on CUDA cores
        r.bytes_per_s = gpu.memory_bandwidth_bytes_per_s * prior->bandwidth_fraction.expected;
        // Eager elementwise kernels move at most stream_bytes_per_sm_cycle per SM cycle (data/throughput_priors.json
        // "sm_stream_limit", the time engine's cap on the same kernels).
        const double sm_cycles = sm_cycles_per_s(gpu);
        r.stream_bytes_per_s = r.bytes_per_s;
        if (sm_cycles > 0 && priors.stream_bytes_per_sm_cycle > 0)
            r.stream_bytes_per_s = std::min(r.bytes_per_s, sm_cycles * priors.stream_bytes_per_sm_cycle);
        r.launch_s = prior->per_layer_overhead_s;
        rep.time_ok = true;
    }
    double link_bytes_per_s = 0, latency_s = 0;
    if (t.gpu_count > 1) {
        const InterconnectSpec* link = priors.interconnects.find(default_interconnect(gpu));
        if (link != nullptr) {
            link_bytes_per_s = (link->per_gpu_link ? gpu.nvlink_bytes_per_s / 2 : link->nominal_bytes_per_s) *
                               link->achievable_fraction;
            latency_s = link->latency_s;
        }
    }
    const PassCost g = rep.time_ok ? pass_cost(nets.g, b, r) : PassCost{};
    const double gb_reg = std::max(1.0, std::floor(b / std::max(1, spec.pl_batch_shrink)));
    const PassCost g_half = rep.time_ok ? pass_cost(nets.g, gb_reg, r) : PassCost{};
    const PassCost d = rep.time_ok ? pass_cost(nets.d, b, r) : PassCost{};
    const double g_opt = rep.time_ok ? adam_step_s(nets.g, r) + allreduce_s(nets.g, t.gpu_count, link_bytes_per_s, latency_s) : 0;
    const double d_opt = rep.time_ok ? adam_step_s(nets.d, r) + allreduce_s(nets.d, t.gpu_count, link_bytes_per_s, latency_s) : 0;
    auto train_s = [](const PassCost& c) { return c.forward_s + c.input_grad_s + c.weight_grad_s; };
    // A regularization pass with create_graph: forward, first-order input gradients (no weight gradients: the code's
    // no_weight_gradients), their double backward (gradient of the input gradient: another input-gradient and a
    // weight-gradient pass) and the backward through the forward: 1 forward, 3 input-gradient, 2 weight-gradient.
    auto reg_s = [](const PassCost& c) { return c.forward_s + 3 * c.input_grad_s + 2 * c.weight_grad_s; };

    if (spec.kind == GanKind::kStyleGan2 || spec.kind == GanKind::kStyleGan3) {
        // training/loss.py StyleGAN2Loss.accumulate_gradients, training_loop.py phases Gmain, Greg, Dmain, Dreg.
        // Gmain: G's forward kept through D's forward and D's input-gradient backward (D frozen: requires_grad_(False)).
        // Without path length (stylegan3 -t / -r) the G phase is "Gboth" and there is no Greg.
        rep.phases.push_back({spec.path_length ? "Gmain" : "Gboth", 1, b, 0,
                              train_s(g) + d.forward_s + d.input_grad_s + g_opt,
                              b * (g_saved + d_saved_frozen + img) + b * std::max(g_grad_tmp, d_grad_tmp)});
        // Greg: path length at batch / pl_batch_shrink, the create_graph backward keeps about G's saved set again.
        if (spec.path_length)
            rep.phases.push_back({"Greg", double(spec.g_reg_interval), gb_reg, 0, reg_s(g_half) + g_opt,
                                  gb_reg * (2 * g_saved + img + g_grad_tmp)});
        // Dmain: G's forward without a graph (G frozen, z needs no gradient), D on the fakes then on the reals, each
        // trained and freed before the next.
        rep.phases.push_back({"Dmain", 1, b, 0, g.forward_s + 2 * train_s(d) + d_opt,
                              b * (d_saved + 2 * img + d_grad_tmp)});
        // Dreg: R1 on the reals (requires_grad_ on the images), the gradient graph about D's saved set again.
        rep.phases.push_back({"Dreg", double(spec.d_reg_interval), b, 0, reg_s(d) + d_opt,
                              b * (2 * d_saved + img + d_grad_tmp)});
        const std::size_t k = spec.path_length ? 1 : 0;
        rep.phases[0].flop = 3 * g.forward_flop + 2 * d.forward_flop;
        if (spec.path_length) rep.phases[1].flop = 6 * g_half.forward_flop;
        rep.phases[1 + k].flop = g.forward_flop + 6 * d.forward_flop;
        rep.phases[2 + k].flop = 6 * d.forward_flop;
    } else {
        // The DCGAN tutorial's loop and pix2pix_model.py optimize_parameters: fake = G(input) once; D's step on
        // fake.detach() and on the reals while G's graph waits; then G's step through D (frozen in pix2pix; the
        // tutorial's D computes weight gradients it discards, zeroed next step).
        const double g_kept = b * (g_saved + img);
        rep.phases.push_back({"Dmain", 1, b, 0, g.forward_s + 2 * train_s(d) + d_opt,
                              g_kept + b * (d_saved + d_grad_tmp)});
        const bool d_weight_grads = spec.kind == GanKind::kDcgan;
        rep.phases.push_back({"Gmain", 1, b, 0,
                              g.input_grad_s + g.weight_grad_s + d.forward_s + d.input_grad_s +
                                  (d_weight_grads ? d.weight_grad_s : 0) + g_opt,
                              g_kept + b * ((d_weight_grads ? d_saved : d_saved_frozen) + std::max(g_grad_tmp, d_grad_tmp))});
        rep.phases[0].flop = g.forward_flop + 6 * d.forward_flop;
        rep.phases[1].flop = 2 * g.forward_flop + (d_weight_grads ? 3 : 2) * d.forward_flop;
    }
    for (const GanPhase& p : rep.phases) {
        if (p.activation_bytes > rep.peak_activation_bytes) {
            rep.peak_activation_bytes = p.activation_bytes;
            rep.peak_phase = p.name;
        }
        rep.iteration_s += p.seconds / p.every;
    }
    // G_ema.lerp_ over G's parameters and copy of its buffers every iteration (training_loop.py "Gema").
    if (rep.time_ok && spec.g_ema) rep.iteration_s += 12.0 * rep.g_params / r.bytes_per_s + 2.0 * nets.g.ops.size() * r.launch_s;
    rep.peak_allocated_bytes = rep.g_weight_bytes + rep.d_weight_bytes + rep.g_ema_bytes + rep.gradient_bytes +
                               rep.optimizer_bytes + rep.buffer_bytes + rep.workspace_bytes + rep.peak_activation_bytes;
    rep.nvidia_smi_bytes = rep.peak_allocated_bytes * (1 + t.tunables.fragmentation_fraction) + t.tunables.cuda_context_bytes;
    if (rep.time_ok && rep.iteration_s > 0) {
        rep.samples_per_s = b * std::max(1, t.gpu_count) / rep.iteration_s;
        rep.sec_per_kimg = 1000 / rep.samples_per_s;
    }
    return rep;
}

}  // namespace gg::engine
