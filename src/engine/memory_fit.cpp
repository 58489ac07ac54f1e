// The memory engine's answers (see memory.h): the fit verdict with its headroom (desktop, evaluation pass), the
// memory over one training step (timeline), and the solver for the largest batch or shape that fits a card.
// No JSON, no UI.
#include "engine/memory.h"
#include "engine/memory_detail.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace gg::engine {

using memory_detail::stage_required_bytes;
using memory_detail::walk_backward;

// ---- verdict -----------------------------------------------------------------------------------------------
const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::kFits: return "fits";
        case Verdict::kTight: return "tight";
        case Verdict::kDoesNotFit: return "does_not_fit";
    }
    return "does_not_fit";
}

FitVerdict judge_fit(double required, double card, const Headroom& headroom) {
    FitVerdict v;
    v.required_bytes = required;
    v.card_bytes = card;
    v.headroom = headroom;
    if (!(card > 0) || !(required + headroom.allocated_bytes() <= card)) v.verdict = Verdict::kDoesNotFit;
    else if (required + headroom.total_bytes() <= card) v.verdict = Verdict::kFits;
    else v.verdict = Verdict::kTight;
    return v;
}

bool segment_has_display(const std::string& segment) { return segment == "consumer" || segment == "workstation"; }

// A desktop drawn by the training card, as nvidia-smi counts it before the job starts:
//  - Windows: 793 MiB = 830 MiB on the RTX 3090 that drives the display ("Disp.A On") less 37 MiB on the idle
//    RTX 3090 beside it in the same machine (github.com/noonghunna/club-3090 issue #32, driver 596.36, 2026);
//  - Linux: Xorg 28 MiB + gnome-shell 46 MiB = 74 MiB for a bare GNOME session (github.com/NVIDIA/nvidia-docker
//    issue #1264, nvidia-smi -q "Processes"). Browsers with hardware acceleration add hundreds of MiB to GiBs
//    (Firefox 2108 MiB: Comfy-Org/ComfyUI_frontend issue #3272), which no default can know.
// kAuto counts the Windows figure on an owned card with display outputs: the larger measured desktop, as the
// operating system is not known.
constexpr double kWindowsDesktopBytes = 793.0 * (1 << 20);
constexpr double kLinuxDesktopBytes = (28.0 + 46.0) * (1 << 20);

double display_bytes(Display d, bool owned_display_card) {
    switch (d) {
        case Display::kNone: return 0;
        case Display::kLinuxDesktop: return kLinuxDesktopBytes;
        case Display::kWindowsDesktop: return kWindowsDesktopBytes;
        case Display::kAuto: return owned_display_card ? kWindowsDesktopBytes : 0.0;
    }
    return 0;
}

// An evaluation pass between steps (transformers Trainer.evaluate -> prediction_step under torch.no_grad, after
// zero_grad(set_to_none=True)): weights, optimizer states and any accumulated gradients stay; no activation is
// kept, so at most one block's tensors exist at a time (a segment's full saved bytes bound what it holds), plus the
// full-vocabulary logits and their fp32 copy (the model's forward with labels). The headroom is the amount by
// which that exceeds the training peak.
double evaluation_extra_bytes(const PreparedMemory& m, double batch) {
    const TrainingConfig& c = m.config;
    if (c.eval_batch <= 0) return 0;
    double largest_segment = 0;
    for (const Segment& s : m.segments) largest_segment = std::max(largest_segment, s.full_per_sample_bytes);
    const double states = m.weight_bytes + m.input_encoder_bytes + m.optimizer_bytes + m.ema_bytes +
                          m.ddp_bucket_bytes + m.gathered_bytes;
    const double grads = c.grad_accum_steps > 1 || !c.tunables.zero_grad_set_to_none ? m.grad_bytes : 0.0;
    const double eval_allocated = states + grads +
                                  c.eval_batch * (largest_segment + m.eval_logits_per_sample_bytes) +
                                  c.tunables.cublas_workspace_bytes + c.tunables.cudnn_workspace_bytes;
    const double eval_required = eval_allocated * (1.0 + c.tunables.fragmentation_fraction) +
                                 c.tunables.cuda_context_bytes;
    return std::max(0.0, eval_required - required_bytes(m, batch));
}

// ---- memory over one training step ----------------------------------------------------------------------------
const char* step_point_name(StepPoint point) {
    switch (point) {
        case StepPoint::kStart: return "start";
        case StepPoint::kForwardEnd: return "forward_end";
        case StepPoint::kLossBackward: return "loss_backward";
        case StepPoint::kBackward: return "backward";
        case StepPoint::kOptimizerStep: return "optimizer_step";
        case StepPoint::kEvaluation: return "evaluation";
    }
    return "start";
}

// compute_peak's phases point by point, with its terms kept apart (the same expressions; a test checks that the
// largest training point is compute_peak's allocated bytes), and evaluation_extra_bytes's pass after them.
MemoryTimeline memory_timeline(const PreparedMemory& first, double batch) {
    const PreparedMemory* chosen = &first;  // the stage evaluate_memory reports
    for (const PreparedMemory& s : first.last_stage)
        if (stage_required_bytes(s, batch) > stage_required_bytes(first, batch)) chosen = &s;
    const PreparedMemory& m = *chosen;
    const TrainingConfig& c = m.config;
    MemoryTimeline tl;
    tl.pipeline_stage = m.stage;
    const double paged_out = c.paged_optimizer && !c.offload_optimizer ? m.optimizer_bytes : 0.0;
    const double weights = m.weight_bytes + m.input_encoder_bytes + m.gathered_bytes;
    const double optimizer = m.optimizer_bytes - paged_out + m.ema_bytes;
    const double stash = (m.in_flight - 1.0) * (m.kept_per_sample_bytes * batch + m.autocast_copy_bytes);
    const double grads_before = (c.grad_accum_steps > 1 || !c.tunables.zero_grad_set_to_none) ? m.grad_bytes : 0;
    const double kept = m.kept_per_sample_bytes * batch + m.autocast_copy_bytes;
    const double kept_all = kept + stash;
    const double loss_fwd = m.loss_forward_per_sample_bytes * batch;
    const double loss_bwd = m.loss_backward_per_sample_bytes * batch;
    const double encoding = m.input_encoder_transient_per_sample_bytes * batch;
    const bool encoder_peak = encoding > kept_all + loss_fwd;
    const double ws = c.tunables.cublas_workspace_bytes + c.tunables.cudnn_workspace_bytes;
    auto add = [&](StepPoint p, int segment, double optimizer_bytes, double grads, double act, double tmp) {
        TimelinePoint x;
        x.point = p;
        x.segment = segment;
        x.weights_bytes = weights;
        x.optimizer_bytes = optimizer_bytes;
        x.gradients_bytes = m.ddp_bucket_bytes + grads;
        x.activations_bytes = act;
        x.temporary_bytes = tmp + m.dp_gpu0_per_sample_bytes() * batch;  // DataParallel's batch and outputs on GPU 0
        x.workspace_bytes = ws;
        tl.points.push_back(x);
    };
    add(StepPoint::kStart, -1, optimizer, grads_before, stash, 0);
    add(StepPoint::kForwardEnd, -1, optimizer, grads_before, encoder_peak ? 0 : kept_all, encoder_peak ? encoding : loss_fwd);
    add(StepPoint::kLossBackward, -1, optimizer, grads_before, kept_all, loss_bwd);
    walk_backward(m, batch, stash, kept, grads_before, [&](std::size_t i, double act, double grad, double tmp) {
        add(StepPoint::kBackward, static_cast<int>(i), optimizer, grad, act, tmp);
    });
    add(StepPoint::kOptimizerStep, -1, optimizer + paged_out, m.grad_bytes, 0, m.optimizer_temp_bytes);
    // The peak as compute_peak names it: on equal bytes the backward wins, then the forward's end, then the step.
    auto preference = [](StepPoint p) {
        return p == StepPoint::kBackward || p == StepPoint::kLossBackward ? 0 : p == StepPoint::kForwardEnd ? 1
               : p == StepPoint::kOptimizerStep                           ? 2 : 3;
    };
    for (std::size_t i = 0; i < tl.points.size(); ++i) {
        const double bytes = tl.points[i].allocated_bytes(), best = tl.points[tl.peak_index].allocated_bytes();
        if (bytes > best || (bytes == best && preference(tl.points[i].point) < preference(tl.points[tl.peak_index].point)))
            tl.peak_index = static_cast<int>(i);
    }
    if (c.eval_batch > 0) {  // as evaluation_extra_bytes: no activation kept, one segment's tensors plus the logits
        double largest_segment = 0;
        for (const Segment& s : m.segments) largest_segment = std::max(largest_segment, s.full_per_sample_bytes);
        add(StepPoint::kEvaluation, -1, m.optimizer_bytes + m.ema_bytes, grads_before, 0,
            c.eval_batch * (largest_segment + m.eval_logits_per_sample_bytes));
    }
    return tl;
}

Headroom job_headroom(const PreparedMemory& m, double batch, double card, bool owned_display_card) {
    const TrainingConfig& c = m.config;
    Headroom h;
    h.display_bytes = display_bytes(c.display, owned_display_card);
    h.display_assumed = c.display == Display::kAuto;
    // The longest sample's extra scales with the micro-batch (activations are per sample); packing makes every
    // sequence seq_len long, so there is none.
    if (!c.packing && c.long_sample_extra_bytes > 0 && c.batch > 0)
        h.long_sample_bytes = c.long_sample_extra_bytes * batch / c.batch;
    h.evaluation_bytes = evaluation_extra_bytes(m, batch);
    h.reserve_bytes = card > 0 ? card * c.reserve_fraction : 0.0;
    return h;
}

FitVerdict judge_job(const PreparedMemory& m, double batch, double card, bool owned_display_card) {
    return judge_fit(required_bytes(m, batch), card, job_headroom(m, batch, card, owned_display_card));
}

// ---- solver ------------------------------------------------------------------------------------------------
std::vector<int> max_batch_sizes(const PreparedMemory& m, const std::vector<double>& cards, int batch_limit,
                                 bool owned_display_card) {
    std::vector<int> out(cards.size(), 0);
    for (std::size_t i = 0; i < cards.size(); ++i) {
        const auto fits = [&](int b) {
            return judge_job(m, b, cards[i], owned_display_card).verdict == Verdict::kFits;
        };
        if (!fits(1)) continue;
        int lo = 1, hi = 2;
        while (hi <= batch_limit && fits(hi)) {
            lo = hi;
            hi *= 2;
        }
        hi = std::min(hi, batch_limit + 1);
        while (hi - lo > 1) {  // invariant: lo fits, hi does not (or is past the limit)
            const int mid = lo + (hi - lo) / 2;
            if (fits(mid)) lo = mid; else hi = mid;
        }
        out[i] = lo;
    }
    return out;
}

std::vector<int> max_shapes_that_fit(const ModelSpec& spec, const TrainingConfig& c, const std::vector<double>& cards,
                                     bool image, int step, int upper_limit) {
    assert(step > 0 && "max_shapes_that_fit: step must be positive (e.g. 1 for tokens, 32 for image sizes)");
    std::vector<std::pair<int, double>> memo;  // probe (in steps) -> required bytes; few entries, linear scan
    auto required_at = [&](int v) {
        for (const auto& [k, r] : memo)
            if (k == v) return r;
        WorkloadShape s;
        s.batch = 1;
        (image ? s.image_size : s.seq_len) = v * step;
        BuildOptions o;
        o.eager_attention = c.eager_attention;
        const double r = required_bytes(prepare_memory(build_graph(spec, s, o), c), c.batch);
        memo.emplace_back(v, r);
        return r;
    };
    std::vector<int> out(cards.size(), 0);
    for (std::size_t i = 0; i < cards.size(); ++i) {
        // The headroom of this job on the card, less the longest-sample term (the shape is what is searched).
        Headroom h;
        h.display_bytes = display_bytes(c.display, false);
        h.reserve_bytes = cards[i] * c.reserve_fraction;
        const double usable = cards[i] - h.total_bytes();
        if (required_at(1) > usable) continue;
        int lo = 1, hi = upper_limit / step + 1;  // lo fits, hi does not (or is past the limit)
        while (hi - lo > 1) {
            const int mid = lo + (hi - lo) / 2;
            if (required_at(mid) <= usable) lo = mid; else hi = mid;
        }
        out[i] = lo * step;
    }
    return out;
}

int max_shape_that_fits(const ModelSpec& spec, const TrainingConfig& c, double card, bool image, int step,
                        int upper_limit) {
    return max_shapes_that_fit(spec, c, {card}, image, step, upper_limit)[0];
}

}  // namespace gg::engine
