// The advisor's search (see advisor.h). Each combination of card-independent changes ("variant") is prepared once;
// for every card the variants are tried in order of how many changes they make, accumulation (a smaller micro-batch
// at the same global batch) is added per card where the micro-batch alone does not fit, and times come from the
// time engine for the few candidates that tie on the number of changes.
//
// Sections: names | risks | variants | search
#include "engine/advisor.h"
#include "engine/planner.h"  // uses_batchnorm

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <memory>

namespace gg::engine {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool known(double x) { return std::isfinite(x); }
}  // namespace

// ---- names -------------------------------------------------------------------------------------------------------
const char* change_name(Change c) {
    switch (c) {
        case Change::kMixedPrecision: return "mixed_precision";
        case Change::kCheckpointing: return "checkpointing";
        case Change::kAccumulation: return "accumulation";
        case Change::kOptimizer8bit: return "optimizer_8bit";
        case Change::kLora: return "lora";
        case Change::kQlora: return "qlora";
        case Change::kMoreCards: return "more_cards";
        case Change::kShorterSequence: return "shorter_sequence";
        case Change::kSmallerImage: return "smaller_image";
        case Change::kNoEma: return "no_ema";
        case Change::kPrecomputeLatents: return "precompute_latents";
        case Change::kFrozenWeights16bit: return "frozen_weights_16bit";
        case Change::kPlan: return "plan";
        case Change::kFusedLoss: return "fused_loss";
        case Change::kOffloadActivations: return "offload_activations";
        case Change::kSwitchToDdp: return "switch_to_ddp";
    }
    return "unknown";
}

const char* accuracy_risk_name(AccuracyRisk r) {
    switch (r) {
        case AccuracyRisk::kNone: return "none";
        case AccuracyRisk::kSmall: return "small";
        case AccuracyRisk::kTaskDependent: return "task_dependent";
    }
    return "none";
}

const char* risk_reason_name(RiskReason r) {
    switch (r) {
        case RiskReason::kRecomputeExact: return "recompute_exact";
        case RiskReason::kSameGradient: return "same_gradient";
        case RiskReason::kBatchNormStatistics: return "batchnorm_statistics";
        case RiskReason::kHalfPrecisionScaled: return "half_precision_scaled";
        case RiskReason::kBlockwiseQuantized: return "blockwise_quantized";
        case RiskReason::kLowRankUpdate: return "low_rank_update";
        case RiskReason::kFourBitBase: return "four_bit_base";
        case RiskReason::kShardingExact: return "sharding_exact";
        case RiskReason::kTruncatedContext: return "truncated_context";
        case RiskReason::kLowerResolution: return "lower_resolution";
        case RiskReason::kNoWeightAverage: return "no_weight_average";
        case RiskReason::kFixedAugmentation: return "fixed_augmentation";
        case RiskReason::kFrozenRounded: return "frozen_rounded";
        case RiskReason::kSameResults: return "same_results";
    }
    return "unknown";
}

const char* advice_status_name(AdviceStatus s) {
    switch (s) {
        case AdviceStatus::kWorksAsIs: return "works_as_is";
        case AdviceStatus::kFixed: return "fixed";
        case AdviceStatus::kNoFix: return "no_fix";
    }
    return "no_fix";
}

namespace {

// ---- risks -------------------------------------------------------------------------------------------------------

AppliedChange make_change(Change c, double value, Family family) {
    switch (c) {
        case Change::kMixedPrecision: return {c, value, AccuracyRisk::kSmall, RiskReason::kHalfPrecisionScaled};
        case Change::kCheckpointing: return {c, value, AccuracyRisk::kNone, RiskReason::kRecomputeExact};
        case Change::kAccumulation:
            return uses_batchnorm(family) ? AppliedChange{c, value, AccuracyRisk::kSmall, RiskReason::kBatchNormStatistics}
                                          : AppliedChange{c, value, AccuracyRisk::kNone, RiskReason::kSameGradient};
        case Change::kOptimizer8bit: return {c, value, AccuracyRisk::kSmall, RiskReason::kBlockwiseQuantized};
        case Change::kLora: return {c, value, AccuracyRisk::kTaskDependent, RiskReason::kLowRankUpdate};
        case Change::kQlora: return {c, value, AccuracyRisk::kTaskDependent, RiskReason::kFourBitBase};
        case Change::kMoreCards: return {c, value, AccuracyRisk::kNone, RiskReason::kShardingExact};
        case Change::kShorterSequence: return {c, value, AccuracyRisk::kTaskDependent, RiskReason::kTruncatedContext};
        case Change::kSmallerImage: return {c, value, AccuracyRisk::kTaskDependent, RiskReason::kLowerResolution};
        // The averaged weights are what Ultralytics validates and saves, and diffusers' --use_ema saves; without
        // them the run keeps the last iterate, whose quality relative to the average depends on the task.
        case Change::kNoEma: return {c, value, AccuracyRisk::kTaskDependent, RiskReason::kNoWeightAverage};
        // Encoding once fixes each image's random crop and flip (diffusers' --random_flip / --center_crop happen in
        // the dataset transform, before vae.encode): the same latents every epoch, less augmentation.
        case Change::kPrecomputeLatents: return {c, value, AccuracyRisk::kSmall, RiskReason::kFixedAugmentation};
        // Autocast already multiplies with 16-bit copies of these weights; storing them so only drops the fp32
        // originals nothing updates (QLoRA goes further: a 4-bit base).
        case Change::kFrozenWeights16bit: return {c, value, AccuracyRisk::kSmall, RiskReason::kFrozenRounded};
        // Liger's and Unsloth's fused cross-entropy compute the same loss in chunks ("exact": Liger README, Unsloth
        // "0% loss in accuracy"); offloading moves the same tensors to host RAM and back.
        case Change::kPlan:
        case Change::kFusedLoss:
        case Change::kOffloadActivations:
        case Change::kSwitchToDdp: return {c, value, AccuracyRisk::kNone, RiskReason::kSameResults};
    }
    return {c, value, AccuracyRisk::kNone, RiskReason::kRecomputeExact};
}

int risk_score(const std::vector<AppliedChange>& changes) {
    int s = 0;
    for (const AppliedChange& c : changes) s += int(c.risk);
    return s;
}

// Changes that may change what is learned (every risk but kNone).
std::size_t result_changes(const std::vector<AppliedChange>& changes) {
    std::size_t n = 0;
    for (const AppliedChange& c : changes) n += c.risk != AccuracyRisk::kNone;
    return n;
}

// ---- variants ----------------------------------------------------------------------------------------------------
enum class AmpKind : std::uint8_t { kAsIs, kBf16, kFp16 };

struct Variant {
    TrainingConfig config;      // batch = the original micro-batch; gpu_count = cards
    int shape_index = 0;        // into Search::shapes
    AmpKind amp = AmpKind::kAsIs;
    std::vector<AppliedChange> changes;  // without accumulation
    double samples_per_card_step = 0;    // global batch / cards: micro-batch x accumulation must equal it
    PreparedMemory memory;
    std::unique_ptr<PreparedTime> time;  // lazily
};

struct Search {
    const AdviceJob& job;
    bool allow_result_changes = false;
    double global_batch = 0;
    std::vector<WorkloadShape> shapes;   // [0] = as given
    std::vector<Graph> graphs;
    std::vector<Variant> variants;       // sorted by changes.size()
};

// Largest divisor of n that is <= limit (>= 1), or 0 if limit < 1.
int largest_divisor_at_most(int n, int limit) {
    for (int d = std::min(n, limit); d >= 1; --d)
        if (n % d == 0) return d;
    return 0;
}

// Shapes: as given, then shorter sequences (1/2, 1/4) or smaller images (3/4, 1/2, multiples of 32), with the
// change each one is (`shape_change`, `shape_value`: index 0 is the placeholder of the shape as given), and their
// graphs.
void build_shapes(Search& s, std::vector<Change>& shape_change, std::vector<double>& shape_value) {
    const AdviceJob& job = s.job;
    const TrainingConfig& base = job.config;
    s.shapes.push_back(job.shape);
    if (job.spec.is_vision && job.shape.image_size > 0) {
        for (double f : {0.75, 0.5}) {
            const int px = int(std::floor(job.shape.image_size * f / 32.0)) * 32;
            if (px >= 32 && px < job.shape.image_size) {
                WorkloadShape w = job.shape;
                w.image_size = px;
                s.shapes.push_back(w);
                shape_change.push_back(Change::kSmallerImage);
                shape_value.push_back(px);
            }
        }
    } else if (!job.spec.is_vision && job.shape.seq_len >= 64) {
        for (int div : {2, 4}) {
            WorkloadShape w = job.shape;
            w.seq_len = job.shape.seq_len / div;
            s.shapes.push_back(w);
            shape_change.push_back(Change::kShorterSequence);
            shape_value.push_back(w.seq_len);
        }
    }
    BuildOptions build;
    build.eager_attention = base.eager_attention;
    for (const WorkloadShape& w : s.shapes) s.graphs.push_back(build_graph(job.spec, w, build));
}

// The knobs of one variant (0/1 switches; amp: AmpKind; m: 0 the method as given, 1 LoRA, 2 QLoRA).
struct Knobs {
    int f16, pre, no_ema, amp, ck, o8, m;
};

// One variant: the knobs on cards[ci] cards and shape si; none when the global batch does not split evenly over
// the cards, or when f16 has no frozen weights under autocast to keep in 16 bits.
void add_variant(Search& s, const Knobs& k, const std::vector<int>& cards, std::size_t ci, std::size_t si,
                 const std::vector<Change>& shape_change, const std::vector<double>& shape_value) {
    const TrainingConfig& base = s.job.config;
    const Family family = s.job.spec.family;
    const bool mp = model_parallel(base);
    const int f16 = k.f16, pre = k.pre, no_ema = k.no_ema, amp = k.amp, ck = k.ck, o8 = k.o8, m = k.m;
    const int n = cards[ci];
    // The global batch must split evenly over the cards.
    const double per_card = s.global_batch / (mp ? data_parallel(base) : n);
    if (per_card < 1 || std::floor(per_card) != per_card) return;
    Variant v;
    v.config = base;
    v.shape_index = int(si);
    v.amp = AmpKind(amp);
    v.samples_per_card_step = per_card;
    if (amp == 1) v.config.precision = Precision::kBf16Amp;
    if (amp == 2) v.config.precision = Precision::kFp16Amp;
    if (amp > 0) v.changes.push_back(make_change(Change::kMixedPrecision, amp, family));
    if (ck) {
        v.config.checkpointing = Checkpointing::kFull;
        v.changes.push_back(make_change(Change::kCheckpointing, 1, family));
    }
    if (o8) {
        v.config.optimizer = Optimizer::kAdamW8bit;
        v.changes.push_back(make_change(Change::kOptimizer8bit, 1, family));
    }
    if (m == 1) {
        v.config.method = Method::kLora;
        v.changes.push_back(make_change(Change::kLora, v.config.lora.rank, family));
    }
    if (m == 2) {
        // QLoRA: frozen NF4 base weights (bitsandbytes) + LoRA adapters; the scenario
        // format pairs method qlora with precision nf4 (scenario.cpp).
        v.config.method = Method::kQlora;
        v.config.precision = Precision::kNf4;
        v.changes.push_back(make_change(Change::kQlora, v.config.lora.rank, family));
    }
    if (ci > 0) {
        v.config.gpu_count = n;
        if (v.config.strategy == Strategy::kDdp || v.config.strategy == Strategy::kZero1 ||
            v.config.strategy == Strategy::kZero2)
            v.config.strategy = Strategy::kZero3;
        v.changes.push_back(make_change(Change::kMoreCards, n, family));
    }
    if (si > 0) v.changes.push_back(make_change(shape_change[si], shape_value[si], family));
    if (no_ema) {
        v.config.ema_weights = false;
        v.changes.push_back(make_change(Change::kNoEma, 1, family));
    }
    if (pre) {
        v.config.precomputed_latents = true;
        v.changes.push_back(make_change(Change::kPrecomputeLatents, 1, family));
    }
    // Switching to mixed precision brings the frozen weights' dtype the way the
    // model's script does (diffusers' LoRA scripts cast the frozen UNet with it).
    if (amp > 0 && frozen_weights_16bit_default(family, v.config.method, v.config.precision))
        v.config.frozen_weights_16bit = true;
    if (f16) {
        const Precision p = v.config.precision;
        const Method mt = v.config.method;
        if (!(p == Precision::kFp16Amp || p == Precision::kBf16Amp) ||
            !(mt == Method::kLora || mt == Method::kFrozenBackbone) ||
            v.config.frozen_weights_16bit)
            return;  // nothing frozen under autocast in this variant, or already 16-bit
        v.config.frozen_weights_16bit = true;
        v.changes.push_back(make_change(Change::kFrozenWeights16bit, 1, family));
    }
    v.memory = prepare_memory(s.graphs[si], v.config);
    s.variants.push_back(std::move(v));
}

// The stack switches and DataParallel -> DDP on the configuration as given (results unchanged).
void add_switch_variants(Search& s) {
    const AdviceJob& job = s.job;
    const TrainingConfig& base = job.config;
    const Family family = job.spec.family;
    // Stack switches on the configuration as given: each alone, then both (the search tries them first).
    const bool can_fuse = job.offer_fused_loss && family == Family::kDecoder && base.loss_kernel != LossKernel::kFused;
    const bool can_offload = job.offer_offload_activations && base.checkpointing == Checkpointing::kFull &&
                             !base.offload_activations;
    for (int fuse = 0; fuse < (can_fuse ? 2 : 1); ++fuse)
        for (int off = 0; off < (can_offload ? 2 : 1); ++off) {
            if (!fuse && !off) continue;
            Variant v;
            v.config = base;
            v.samples_per_card_step = s.global_batch / data_parallel(base);
            if (fuse) {
                v.config.loss_kernel = LossKernel::kFused;
                v.changes.push_back(make_change(Change::kFusedLoss, 1, family));
            }
            if (off) {
                v.config.offload_activations = true;
                v.changes.push_back(make_change(Change::kOffloadActivations, 1, family));
            }
            v.memory = prepare_memory(s.graphs[0], v.config);
            s.variants.push_back(std::move(v));
        }
    // DataParallel -> DDP: the same mean gradient over the same global batch (DP sums the replicas' gradients of one
    // loss over the whole batch, DDP averages the ranks' gradients), with GPU 0 no fuller than the others.
    if (base.strategy == Strategy::kDp && data_parallel(base) > 1) {
        Variant v;
        v.config = base;
        v.config.strategy = Strategy::kDdp;
        v.samples_per_card_step = s.global_batch / data_parallel(base);
        v.changes.push_back(make_change(Change::kSwitchToDdp, 1, family));
        v.memory = prepare_memory(s.graphs[0], v.config);
        s.variants.push_back(std::move(v));
    }
}

void sort_variants(Search& s) {
    // Fewest changes first; unless result changes are allowed, fewest result-changing ones before that.
    const bool by_results = !s.allow_result_changes;
    std::stable_sort(s.variants.begin(), s.variants.end(), [by_results](const Variant& a, const Variant& b) {
        if (by_results && result_changes(a.changes) != result_changes(b.changes))
            return result_changes(a.changes) < result_changes(b.changes);
        return a.changes.size() < b.changes.size();
    });
}

void build_variants(Search& s) {
    const AdviceJob& job = s.job;
    const TrainingConfig& base = job.config;
    const Family family = job.spec.family;
    s.global_batch = base.batch * base.grad_accum_steps * data_parallel(base);
    // Under tensor/pipeline parallelism the advisor changes only what Megatron-LM's layout allows here: precision,
    // checkpointing, shapes (no 8-bit optimizer, LoRA, or ZeRO-3 over more cards: scenario.cpp refuses them).
    const bool mp = model_parallel(base);

    std::vector<Change> shape_change = {Change::kMixedPrecision};  // placeholder for index 0
    std::vector<double> shape_value = {0};
    build_shapes(s, shape_change, shape_value);

    const bool can_amp = base.precision == Precision::kFp32 || base.precision == Precision::kTf32;
    const bool can_ckpt = base.checkpointing != Checkpointing::kFull;
    const bool can_opt8 = (base.optimizer == Optimizer::kAdam || base.optimizer == Optimizer::kAdamW) &&
                          base.method != Method::kQlora && !mp;
    const bool can_lora = is_transformer(family) && (base.method == Method::kFull || base.method == Method::kFrozenBackbone) &&
                          !mp;
    const bool can_qlora = family == Family::kDecoder && base.method != Method::kQlora && !mp;
    const bool can_drop_ema = base.ema_weights;
    const bool can_precompute = has_input_encoders(job.spec) && !base.precomputed_latents;
    const bool can_frozen16 = !base.frozen_weights_16bit;  // where the variant has frozen weights under autocast
    std::vector<int> cards = {base.gpu_count};
    if (!mp)
        for (int n : {2, 4, 8})
            if (n > base.gpu_count) cards.push_back(n);

    for (int f16 = 0; f16 < (can_frozen16 ? 2 : 1); ++f16)
    for (int pre = 0; pre < (can_precompute ? 2 : 1); ++pre)
    for (int no_ema = 0; no_ema < (can_drop_ema ? 2 : 1); ++no_ema)
        for (int amp = 0; amp < (can_amp ? 3 : 1); ++amp)
            for (int ck = 0; ck < (can_ckpt ? 2 : 1); ++ck)
                for (int o8 = 0; o8 < (can_opt8 ? 2 : 1); ++o8)
                    for (int m = 0; m < 3; ++m) {
                        if ((m == 1 && !can_lora) || (m == 2 && !can_qlora)) continue;
                        if (m == 2 && amp > 0) continue;  // QLoRA sets the precision itself (nf4 weights)
                        for (std::size_t ci = 0; ci < cards.size(); ++ci)
                            for (std::size_t si = 0; si < s.shapes.size(); ++si)
                                add_variant(s, {f16, pre, no_ema, amp, ck, o8, m}, cards, ci, si, shape_change,
                                            shape_value);
                    }
    add_switch_variants(s);
    sort_variants(s);
}

// A variant whose changes are all stack switches (the same results, computed differently).
bool switches_only(const Variant& v) {
    return std::all_of(v.changes.begin(), v.changes.end(), [](const AppliedChange& c) {
        return c.change == Change::kFusedLoss || c.change == Change::kOffloadActivations ||
               c.change == Change::kSwitchToDdp;
    });
}

// One run's time (NaN without a dataset or priors); `step_s` gets the optimizer step's time, which orders the variants
// as well when no dataset is given: they keep the global batch, hence the number of steps.
double variant_time_s(Search& s, Variant& v, const GpuSpec& gpu, int micro, int accum, double& step_s) {
    step_s = kNaN;
    if (s.job.priors == nullptr) return kNaN;
    if (!v.time) {
        v.time = std::make_unique<PreparedTime>(
            prepare_time(s.job.spec, s.shapes[v.shape_index], s.graphs[v.shape_index], v.config));
    }
    PreparedTime& t = *v.time;
    t.config.grad_accum_steps = accum;  // micro-batches per step (evaluate_time reads it from the config)
    t.config.batch = micro;
    const TimeReport r = evaluate_time(t, micro, gpu, s.job.time_options, s.job.dataset, *s.job.priors);
    if (r.status != TimeStatus::kOk) return kNaN;
    if (r.step_s > 0) step_s = r.step_s;
    return r.total_s > 0 ? r.total_s : kNaN;
}

// The planner's layout on the job's own cards as the advice's fix (one change: "plan"), with the plan's verdict.
void fill_from_plan(const Plan& plan, const AdviceJob& job, double card_bytes, double original_step_s, CardAdvice& a) {
    Fix& f = a.fix;
    f.changes = {make_change(Change::kPlan, job.config.gpu_count, job.spec.family)};
    f.config = plan.config;
    f.shape = job.shape;
    f.global_batch = plan.global_batch;
    f.peak_bytes_per_card = plan.peak_bytes_per_card;
    f.usable_bytes_per_card = usable_card_bytes(card_bytes, plan.headroom);
    f.verdict = plan.verdict;
    f.time_s = plan.time_s;
    f.time_ratio = known(plan.time_s) && known(a.original_time_s) ? plan.time_s / a.original_time_s
                   : known(plan.step_s) && known(original_step_s) ? plan.step_s / original_step_s
                                                                   : kNaN;
    a.status = AdviceStatus::kFixed;
}


// The best fix a search found so far.
struct Best {
    bool found = false;
    std::size_t result_changes = 0;  // compared first unless result changes are allowed
    std::size_t changes = 0;
    double time_s = kNaN;
    double step_s = kNaN;
    int risk = 0;
    std::size_t index = 0;
    int micro = 0, accum = 0;
    bool accumulation = false;
};

// The stack switches alone (results unchanged), at the job's own micro-batch: the one with fewest changes that fits
// `usable`, with its time.
Best best_stack_switch(Search& s, const GpuSpec& gpu, double usable, int micro0, int accum0) {
    Best best;
    for (std::size_t i = 1; i < s.variants.size(); ++i) {
        const Variant& v = s.variants[i];
        if (v.changes.empty() || !switches_only(v) || required_bytes(v.memory, micro0) > usable) continue;
        if (best.found && v.changes.size() >= best.changes) continue;
        best = {true, 0, v.changes.size(), kNaN, kNaN, 0, i, micro0, accum0, false};
    }
    if (best.found) {
        double step_s = kNaN;
        best.time_s = variant_time_s(s, s.variants[best.index], gpu, micro0, accum0, step_s);
        best.step_s = step_s;
    }
    return best;
}

// The planner's layout on the job's own cards (the ranking's own answer for them): true when it fits within the
// headroom (`a` holds it as the fix); a plan that fits only the card goes to `tight_plan`.
bool plan_on_own_cards(Planner& planner, const AdviceJob& job, const GpuSpec& gpu, EccSetting ecc,
                       const AdviceOptions& options, double card_bytes, double original_step_s, CardAdvice& a,
                       Fix& tight_plan) {
    PlanTarget t;
    t.gpu = &gpu;
    t.count = job.config.gpu_count;
    t.owned_display_card = segment_has_display(gpu.segment);
    t.host_ram_bytes = options.host_ram_bytes;
    t.gpus_per_server = job.config.gpu_count;
    t.ecc = ecc;
    const Plan plan = planner.plan(t);
    const bool in_time = !(options.deadline_s > 0) || !known(plan.time_s) || plan.time_s <= options.deadline_s;
    if (plan.found && !plan.as_typed && in_time) {
        fill_from_plan(plan, job, card_bytes, original_step_s, a);
        // A plan that fits the card but not the headroom (the user's reserve, the desktop) is the ranking's
        // "tight" answer: the fix only if no change gets within the headroom (below).
        if (plan.verdict == Verdict::kFits) return true;
        tight_plan = a.fix;
        a.fix = Fix{};
        a.status = AdviceStatus::kNoFix;
    }
    return false;
}

// Everything the variant search on one card reads.
struct CardSearch {
    const GpuSpec& gpu;
    const CompatData& compat;
    const AdviceOptions& options;
    double card_bytes;
    double usable;  // the card less the original job's headroom
    bool bf16_ok;
    int micro0;
};

// The search over the variants, from `best` (the stack switches' or nothing). keep_count: only variants on the
// job's own card count (the same-count alternative to a fix that adds cards).
Best search_variants(Search& s, const CardSearch& card, Best best, bool keep_count) {
    const AdviceJob& job = s.job;
    const GpuSpec& gpu = card.gpu;
    const CompatData& compat = card.compat;
    const AdviceOptions& options = card.options;
    const double card_bytes = card.card_bytes, usable = card.usable;
    const bool bf16_ok = card.bf16_ok;
    const int micro0 = card.micro0;
    for (int pass = 0; pass < 2 && !best.found; ++pass)
    for (std::size_t i = 0; i < s.variants.size(); ++i) {
        Variant& v = s.variants[i];
        if (!v.changes.empty() && switches_only(v)) continue;  // tried above
        if (keep_count && v.config.gpu_count != job.config.gpu_count) continue;
        if ((v.shape_index != 0) != (pass == 1)) continue;
        // Sorted: once past the best's rank nothing better follows (a variant's accumulation, added below, is
        // result-changing only for BatchNorm models, where it only adds to the count).
        const std::size_t v_results = s.allow_result_changes ? 0 : result_changes(v.changes);
        if (best.found && (v_results > best.result_changes ||
                           (v_results == best.result_changes && v.changes.size() > best.changes)))
            break;
        if (int(v.changes.size()) > options.max_changes) continue;
        if (v.amp == AmpKind::kBf16 && !bf16_ok) continue;
        if (v.amp == AmpKind::kFp16 && bf16_ok) continue;  // bf16 preferred where supported (no loss scaling)
        if (!precision_supported(gpu, v.config.precision, compat)) continue;
        const int per_card = int(v.samples_per_card_step);
        int micro = largest_divisor_at_most(per_card, micro0);
        bool accumulation = false;
        if (micro < 1) continue;
        if (!(card_bytes > 0) || required_bytes(v.memory, micro) > usable) {
            // Under pipeline parallelism the micro-batches per step are the pipeline's own (they set the
            // activations each stage holds and the schedule's rules): no accumulation change is proposed.
            if (v.config.pipeline_parallel > 1) continue;
            // Accumulation: the largest micro-batch that fits and divides the per-card samples per step.
            const std::vector<int> m =
                max_batch_sizes(v.memory, {card_bytes}, micro, segment_has_display(gpu.segment));
            const int fit = m.empty() ? 0 : m[0];
            micro = fit >= 1 ? largest_divisor_at_most(per_card, fit) : 0;
            // The variant's own headroom may differ from the original's (evaluation): hold it to `usable` too.
            while (micro >= 1 && required_bytes(v.memory, micro) > usable)
                micro = largest_divisor_at_most(per_card, micro - 1);
            if (micro < 1) continue;
            accumulation = true;
        }
        const std::size_t changes = v.changes.size() + (accumulation ? 1 : 0);
        const std::size_t results =
            s.allow_result_changes ? 0 : v_results + (accumulation && uses_batchnorm(job.spec.family) ? 1 : 0);
        if (int(changes) > options.max_changes) continue;
        if (best.found && (results > best.result_changes ||
                           (results == best.result_changes && changes > best.changes)))
            continue;
        const int accum = per_card / micro;
        double step_s = kNaN;
        const double t = variant_time_s(s, v, gpu, micro, accum, step_s);
        if (options.deadline_s > 0 && known(t) && t > options.deadline_s) continue;
        std::vector<AppliedChange> all = v.changes;
        if (accumulation) all.push_back(make_change(Change::kAccumulation, micro, job.spec.family));
        const int risk = risk_score(all);
        bool better = !best.found || results < best.result_changes ||
                      (results == best.result_changes && changes < best.changes);
        if (!better && results == best.result_changes && changes == best.changes) {
            // Least GPU-time (time x cards), not wall time: more cards finish sooner but cost as many cards.
            // Without a dataset, step time x cards orders them the same way (same steps per run).
            const bool runs = known(t) && known(best.time_s);
            const double gpu_s = (runs ? t : step_s) * v.config.gpu_count;
            const double best_gpu_s = (runs ? best.time_s : best.step_s) * s.variants[best.index].config.gpu_count;
            if (known(gpu_s) != known(best_gpu_s)) better = known(gpu_s);
            else if (known(gpu_s) && gpu_s != best_gpu_s) better = gpu_s < best_gpu_s;
            else better = risk < best.risk;  // equal time (or none): least accuracy risk; else enumeration order
        }
        if (better) best = {true, results, changes, t, step_s, risk, i, micro, accum, accumulation};
    }
    return best;
}

// The fix a search found, into `f`.
void fill_fix(const Search& s, const Best& best, double usable, double original_time_s, double original_step_s,
              Fix& f) {
    const AdviceJob& job = s.job;
    const Variant& v = s.variants[best.index];
    f.changes = v.changes;
    if (best.accumulation) f.changes.push_back(make_change(Change::kAccumulation, best.micro, job.spec.family));
    f.config = v.config;
    f.config.batch = best.micro;
    f.config.grad_accum_steps = best.accum;
    f.shape = s.shapes[v.shape_index];
    f.global_batch = double(best.micro) * best.accum * data_parallel(v.config);
    f.peak_bytes_per_card = required_bytes(v.memory, best.micro);
    f.usable_bytes_per_card = usable;
    f.time_s = best.time_s;
    f.time_ratio = known(best.time_s) && known(original_time_s) ? best.time_s / original_time_s
                   : known(best.step_s) && known(original_step_s) ? best.step_s / original_step_s
                                                                   : kNaN;
}

}  // namespace

// ---- search ------------------------------------------------------------------------------------------------------
std::vector<CardAdvice> advise(const AdviceJob& job, const std::vector<GpuSpec>& gpus, const CompatData& compat,
                               const AdviceOptions& options) {
    assert(job.config.batch >= 1 && job.config.grad_accum_steps >= 1 && job.config.gpu_count >= 1 &&
           "advise: batch, grad_accum_steps and gpu_count must be at least 1 (parse the scenario first)");
    Search s{job, options.allow_result_changes, 0, {}, {}, {}};
    build_variants(s);
    // The ranking's planner (planner.h), for the same-result layouts on the user's own cards: one for all cards.
    Planner planner(PlanJob{job.spec, job.shape, job.config, job.dataset, job.time_options, job.priors});
    const int micro0 = int(job.config.batch);
    const int accum0 = job.config.grad_accum_steps;

    std::vector<CardAdvice> out;
    out.reserve(gpus.size());
    for (const GpuSpec& gpu : gpus) {
        CardAdvice a;
        a.gpu = &gpu;
        // What nvidia-smi shows as the card's total in the run's ECC state (card_memory.h).
        const EccSetting ecc = gpu.id == options.ecc_gpu_id ? options.ecc : EccSetting::kDefault;
        const double card_bytes = usable_memory_bytes(gpu, ecc);
        // The card less the headroom of the original job (judge_fit's "fits"); the advised card is the user's own,
        // so a consumer or workstation card may draw the desktop (Display::kAuto).
        const double usable = judge_job(s.variants.front().memory, micro0, card_bytes,
                                        segment_has_display(gpu.segment)).usable_bytes();
        const bool bf16_ok = precision_supported(gpu, Precision::kBf16Amp, compat);
        // The original, as given (variant 0 is the unchanged configuration: no changes sorts first).
        Variant& v0 = s.variants.front();
        assert(v0.changes.empty() && "advise: the first variant must be the unchanged configuration");
        a.original_peak_bytes = required_bytes(v0.memory, micro0);
        a.original_usable_bytes = usable;
        a.fits_as_is = card_bytes > 0 && a.original_peak_bytes <= usable;
        double original_step_s = kNaN;
        a.original_time_s = variant_time_s(s, v0, gpu, micro0, accum0, original_step_s);
        a.meets_deadline_as_is = !(options.deadline_s > 0) || !known(a.original_time_s) || a.original_time_s <= options.deadline_s;

        Best best;
        // Stack switches first (they do not change results): the job as given with a fused loss and/or offloaded
        // activations, at its own micro-batch. Then two passes: first without shorter sequences / smaller images
        // (they change what is learned, so a fix that keeps the task is preferred even with more changes); then
        // with them, if nothing else works.
        if (card_bytes > 0 && !a.fits_as_is) best = best_stack_switch(s, gpu, usable, micro0, accum0);
        // Then the planner's layout on the same cards (the ranking's own answer for them): it keeps the results, so
        // unless the user allows result changes it comes before any change of what is learned.
        Fix tight_plan;
        tight_plan.verdict = Verdict::kDoesNotFit;  // none yet
        if (!best.found && !s.allow_result_changes && card_bytes > 0 && (!a.fits_as_is || !a.meets_deadline_as_is) &&
            plan_on_own_cards(planner, job, gpu, ecc, options, card_bytes, original_step_s, a, tight_plan)) {
            out.push_back(std::move(a));
            continue;
        }
        const CardSearch card{gpu, compat, options, card_bytes, usable, bf16_ok, micro0};
        const Best switched = best;
        best = search_variants(s, card, switched, false);
        if (best.found) {
            fill_fix(s, best, usable, a.original_time_s, original_step_s, a.fix);
            a.status = a.fix.changes.empty() ? AdviceStatus::kWorksAsIs : AdviceStatus::kFixed;
            // A fix that adds cards: also the best one on the job's own count, for someone who owns only those
            // (issue 40: the page lists it first and asks before changing the count).
            if (a.status == AdviceStatus::kFixed && a.fix.config.gpu_count != job.config.gpu_count) {
                const Best same = search_variants(s, card, switched, true);
                if (same.found) {
                    fill_fix(s, same, usable, a.original_time_s, original_step_s, a.same_count_fix);
                    a.same_count_status = AdviceStatus::kFixed;
                }
            }
        } else if (tight_plan.verdict == Verdict::kTight) {
            // Issue 40: nothing fits within the headroom, but the ranking runs this card tight with the planner's
            // layout; the advice says the same, as tight, rather than "no fix".
            a.fix = std::move(tight_plan);
            a.status = AdviceStatus::kFixed;
        } else {
            a.status = AdviceStatus::kNoFix;
            a.fix.config = job.config;
            a.fix.shape = job.shape;
            a.fix.time_s = kNaN;
            a.fix.time_ratio = kNaN;
        }
        out.push_back(std::move(a));
    }
    return out;
}

}  // namespace gg::engine