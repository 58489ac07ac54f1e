// The planner's search (see planner.h). Per card count: every same-result layout is prepared once (memory now, time
// on first use) and its required bytes are tabulated at each micro-batch that keeps the global batch. Per target:
// the fitting (layout, micro-batch) pairs are found by table look-ups, pairs that another fitting pair beats on every
// axis are dropped, and the rest are timed; the fastest wins.
//
// Sections: names | layouts | candidates | notes | plan
#include "engine/planner.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace gg::engine {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The largest micro-batch and accumulation the scenario format accepts (scenario.cpp: batch_size and
// grad_accum_steps 1..2^20): a plan must be a scenario.
constexpr long long kMaxCount = 1 << 20;
bool known(double x) { return std::isfinite(x); }
}  // namespace

// ---- names -------------------------------------------------------------------------------------------------------
const char* plan_rejection_name(PlanRejection r) {
    switch (r) {
        case PlanRejection::kMemory: return "memory";
        case PlanRejection::kSlower: return "slower";
        case PlanRejection::kHostRam: return "host_ram";
        case PlanRejection::kHostRamUnknown: return "host_ram_unknown";
        case PlanRejection::kLink: return "link";
        case PlanRejection::kBatchSplit: return "batch_split";
        case PlanRejection::kBatchNorm: return "batchnorm_micro_batch";
    }
    return "unknown";
}

const char* plan_axis_name(PlanAxis a) {
    switch (a) {
        case PlanAxis::kNone: return "none";
        case PlanAxis::kCheckpointing: return "checkpointing";
        case PlanAxis::kSharding: return "sharding";
        case PlanAxis::kOffload: return "offload";
        case PlanAxis::kTensorParallel: return "tensor_parallel";
        case PlanAxis::kPipeline: return "pipeline";
        case PlanAxis::kMicroBatch: return "micro_batch";
    }
    return "none";
}

bool uses_batchnorm(Family f) {
    return f == Family::kResNet || f == Family::kMobileNetV2 || f == Family::kEfficientNetB0 || f == Family::kYolo ||
           f == Family::kUnet;
}

namespace {

// ---- layouts -----------------------------------------------------------------------------------------------------
// Sharding levels, lightest first: what each keeps whole on every card (ZeRO paper, Fig. 1).
int shard_level(Strategy s) {
    switch (s) {
        case Strategy::kDdp: case Strategy::kDp: return 0;  // DataParallel keeps everything whole too
        case Strategy::kZero1: return 1;
        case Strategy::kZero2: return 2;
        case Strategy::kZero3: case Strategy::kFsdp: return 3;
    }
    return 0;
}
int log2_of(int n) {
    int l = 0;
    while (n > 1) { n >>= 1; ++l; }
    return l;
}

// One way to lay the job out on `count` cards, card-independent.
struct Layout {
    TrainingConfig config;       // gpu_count, strategy, TP/PP, checkpointing, attention, offload; batch/accum per micro
    bool typed = false;          // the user's own layout (micro-batch as typed)
    int replicas = 1;            // data-parallel replicas
    PreparedMemory memory;
    std::unique_ptr<PreparedTime> time;  // on first use
    std::vector<int> micros;     // ascending; micro x accum x replicas = global batch
    std::vector<double> required_bytes;  // at each micro (its own accumulation)
    std::vector<double> job_headroom_bytes;  // at each micro: the longest sample's and evaluation's headroom (the
                                             // card-independent terms of job_headroom)
    std::vector<double> job_allocated_bytes;  // at each micro: the larger of the two (Headroom::allocated_bytes)
    double host_ram_per_card = 0;        // optimizer offload: per card
    // Axis levels (0 = lightest), for pruning and for the notes.
    int level(PlanAxis a) const {
        switch (a) {
            case PlanAxis::kCheckpointing: return int(config.checkpointing == Checkpointing::kFull);
            case PlanAxis::kSharding: return shard_level(config.strategy);
            case PlanAxis::kOffload: return int(config.offload_optimizer);
            case PlanAxis::kTensorParallel: return log2_of(config.tensor_parallel);
            case PlanAxis::kPipeline: return log2_of(config.pipeline_parallel);
            default: return 0;
        }
    }
};

constexpr PlanAxis kAxes[] = {PlanAxis::kCheckpointing, PlanAxis::kSharding, PlanAxis::kOffload,
                              PlanAxis::kTensorParallel, PlanAxis::kPipeline};

struct CountLayouts {
    int count = 0;
    std::vector<Layout> layouts;
    bool any_split = false;      // some layout splits the global batch over its replicas
    int smallest_replicas = 0;   // for the batch-split note
};

}  // namespace

struct Planner::Impl {
    PlanJob job;
    double global_batch = 1;
    Graph fused_graph;                   // fused attention (what the planner runs)
    Graph typed_graph;                   // eager attention when typed so (else unused)
    std::vector<std::unique_ptr<CountLayouts>> counts;
    MemoryWalkCache fused_walks, typed_walks;  // per graph: the walks repeat across card counts
    struct PlanKey {
        const GpuSpec* gpu;
        int count;
        bool owned_display;
        double host_ram;
        int per_server;
        EccSetting ecc;
        double cpus_per_gpu;
        bool operator<(const PlanKey& o) const {
            return std::tie(gpu, count, owned_display, host_ram, per_server, ecc, cpus_per_gpu) <
                   std::tie(o.gpu, o.count, o.owned_display, o.host_ram, o.per_server, o.ecc, o.cpus_per_gpu);
        }
    };
    std::map<PlanKey, Plan> plans;
    double target_cpus_per_gpu = -1;     // the target searched now (PlanTarget::cpus_per_gpu), for time_of

    CountLayouts& layouts_for(int count);
    double time_of(Layout& l, int micro, const GpuSpec& gpu, double* step_s);
    Plan search(const PlanTarget& t, bool tight);
};

namespace {

// Divisors of n in ascending order.
std::vector<int> divisors(long long n) {
    std::vector<int> low, high;
    for (long long d = 1; d * d <= n; ++d)
        if (n % d == 0) {
            low.push_back(int(d));
            if (d != n / d) high.push_back(int(n / d));
        }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

// Whether Megatron-LM's layout applies to the job as the scenario format accepts it (scenario.cpp): transformers,
// full training or a frozen backbone in 16/32-bit, heads / KV heads / FFN split by tp, layers split by pp.
bool model_parallel_ok(const ModelSpec& spec, const TrainingConfig& c, int tp, int pp) {
    if (tp == 1 && pp == 1) return true;
    if (!is_transformer(spec.family)) return false;
    if (c.method == Method::kLora || c.method == Method::kQlora) return false;
    if (c.precision == Precision::kInt8 || c.precision == Precision::kNf4) return false;
    if (c.optimizer == Optimizer::kAdamW8bit) return false;
    const int kv = spec.kv_heads > 0 ? spec.kv_heads : spec.heads;
    if (tp > 1 && (spec.heads % tp != 0 || kv % tp != 0 || spec.ffn % tp != 0)) return false;
    if (pp > 1 && (spec.layers <= 0 || spec.layers % pp != 0 || spec.shared_layers)) return false;
    return true;
}

}  // namespace

CountLayouts& Planner::Impl::layouts_for(int count) {
    for (auto& c : counts)
        if (c->count == count) return *c;
    auto out = std::make_unique<CountLayouts>();
    out->count = count;
    const TrainingConfig& typed = job.config;
    const Family family = job.spec.family;
    const long long g = (long long)std::llround(global_batch);
    const bool bn = uses_batchnorm(family);
    const int typed_micro = int(typed.batch);

    auto add = [&](TrainingConfig c, bool is_typed) {
        const int slice = c.tensor_parallel * c.pipeline_parallel;
        const int replicas = count / slice;
        if (replicas < 1 || count % slice != 0) return;
        if (out->smallest_replicas == 0 || replicas < out->smallest_replicas) out->smallest_replicas = replicas;
        if (g % replicas != 0) return;
        const long long per_replica = g / replicas;
        // Micro-batch and accumulation are each at most kMaxCount: a larger split has no plan (and the divisor search
        // below stays within sqrt(kMaxCount^2) = kMaxCount steps).
        if (per_replica > kMaxCount * kMaxCount) return;
        Layout l;
        l.typed = is_typed;
        l.replicas = replicas;
        c.gpu_count = count;
        std::vector<int> micros;
        if (is_typed || bn) {
            if (per_replica % typed_micro == 0 && per_replica / typed_micro <= kMaxCount) micros.push_back(typed_micro);
        } else {
            for (int m : divisors(per_replica))
                // A pipeline keeps its stages busy only with at least as many micro-batches as stages (Megatron-LM's
                // schedules need m >= p for 1F1B's steady state; the stash below assumes it).
                if ((c.pipeline_parallel == 1 || per_replica / m >= c.pipeline_parallel) && m <= kMaxCount &&
                    per_replica / m <= kMaxCount)
                    micros.push_back(m);
        }
        if (c.pipeline_parallel > 1 && !is_typed)
            micros.erase(std::remove_if(micros.begin(), micros.end(),
                                        [&](int m) { return per_replica / m < c.pipeline_parallel; }),
                         micros.end());
        if (micros.empty()) return;
        out->any_split = true;
        // Memory is prepared below, once per layout; a pipeline's stash depends on its micro-batch count only below
        // p, which the micro-batches above exclude (the typed layout is prepared at its own count).
        c.batch = micros.back();
        c.grad_accum_steps = int(per_replica / micros.back());
        l.config = c;
        l.micros = std::move(micros);
        out->layouts.push_back(std::move(l));
    };

    // The user's own layout at this count (same micro-batch; the accumulation keeps the global batch).
    {
        TrainingConfig c = typed;
        if (model_parallel_ok(job.spec, c, c.tensor_parallel, c.pipeline_parallel)) add(c, true);
    }
    // Every same-result layout: lightest first.
    for (int tp = 1; tp <= 8 && tp <= count; tp *= 2)
        for (int pp = 1; tp * pp <= count; pp *= 2) {
            if (!model_parallel_ok(job.spec, typed, tp, pp)) continue;
            if (count % (tp * pp) != 0) continue;
            const int replicas = count / (tp * pp);
            std::vector<Strategy> strategies = {Strategy::kDdp};
            if (replicas > 1) {
                strategies.push_back(Strategy::kZero1);
                // Megatron-LM's distributed optimizer is ZeRO-1; ZeRO-2/3 with tensor or pipeline parallelism is not in
                // the scenario format (scenario.cpp).
                if (tp * pp == 1) {
                    strategies.push_back(Strategy::kZero2);
                    strategies.push_back(Strategy::kZero3);
                    strategies.push_back(Strategy::kFsdp);
                }
            }
            for (Strategy s : strategies)
                for (int offload = 0; offload < 2; ++offload) {
                    // ZeRO-Offload moves the optimizer of one card (Ren et al. 2021, sec. 4.1) or of ZeRO's shards; not
                    // with plain DDP on several cards, not with model parallelism (scenario.cpp), and only when the
                    // optimizer has states to move.
                    // (FSDP's own CPUOffload moves parameters and gradients too: not this layout.)
                    if (offload && (tp * pp > 1 || (replicas > 1 && s == Strategy::kDdp) || s == Strategy::kFsdp ||
                                    typed.optimizer == Optimizer::kSgd || typed.method == Method::kFrozenBackbone))
                        continue;
                    for (int ck = 0; ck < 2; ++ck) {
                        TrainingConfig c = typed;
                        c.tensor_parallel = tp;
                        c.pipeline_parallel = pp;
                        c.pipeline_interleave = 1;
                        // Sequence parallelism splits what TP replicates, at no extra communication (Korthikanti et al.
                        // 2022, sec. 4.2.2): on whenever TP is, where the tokens split evenly.
                        c.sequence_parallel = false;
                        if (tp > 1) {
                            const long long tokens = job.spec.family == Family::kVit && job.spec.patch > 0
                                ? (long long)(job.shape.image_size / job.spec.patch) * (job.shape.image_size / job.spec.patch) + 1
                                : job.shape.seq_len;
                            c.sequence_parallel = tokens > 0 && tokens % tp == 0;
                        }
                        c.strategy = s;
                        c.offload_optimizer = offload == 1;
                        c.checkpointing = ck ? Checkpointing::kFull : Checkpointing::kNone;
                        c.eager_attention = false;  // the fused kernel: same math, no s x s tensors
                        add(c, false);
                    }
                }
        }
    // Memory: layouts that differ only in their data-parallel sharding and offload save the same tensors for
    // backward, so each group walks the graph once (prepare_memory_sharded). The typed layout is its own group.
    const long long g_batch = (long long)std::llround(global_batch);
    std::vector<bool> done(out->layouts.size(), false);
    for (std::size_t i = 0; i < out->layouts.size(); ++i) {
        if (done[i]) continue;
        const TrainingConfig& a = out->layouts[i].config;
        std::vector<std::size_t> group = {i};
        if (!out->layouts[i].typed)
            for (std::size_t j = i + 1; j < out->layouts.size(); ++j) {
                const Layout& o = out->layouts[j];
                const TrainingConfig& b = o.config;
                if (!done[j] && !o.typed && b.tensor_parallel == a.tensor_parallel &&
                    b.pipeline_parallel == a.pipeline_parallel && b.checkpointing == a.checkpointing &&
                    b.eager_attention == a.eager_attention && b.sequence_parallel == a.sequence_parallel &&
                    saved_tensor_regime(b) == saved_tensor_regime(a))
                    group.push_back(j);
            }
        std::vector<TrainingConfig> configs;
        for (std::size_t j : group) configs.push_back(out->layouts[j].config);
        const Graph& graph = a.eager_attention ? typed_graph : fused_graph;
        std::vector<PreparedMemory> prepared =
            prepare_memory_sharded(graph, configs, a.eager_attention ? &typed_walks : &fused_walks);
        for (std::size_t k = 0; k < group.size(); ++k) {
            Layout& l = out->layouts[group[k]];
            done[group[k]] = true;
            l.memory = std::move(prepared[k]);
            l.host_ram_per_card = l.memory.host_ram_bytes;
            const long long per_replica = g_batch / l.replicas;
            for (int m : l.micros) {
                // zero_grad(set_to_none) frees gradients only when nothing accumulates: the bytes depend on the count
                // of micro-batches (memory.cpp compute_peak), so each micro-batch is evaluated with its own.
                l.memory.config.grad_accum_steps = int(per_replica / m);
                l.required_bytes.push_back(required_bytes(l.memory, m));
                const Headroom h = job_headroom(l.memory, m, 0, false);
                l.job_headroom_bytes.push_back(h.long_sample_bytes + h.evaluation_bytes);
                l.job_allocated_bytes.push_back(h.allocated_bytes());  // display 0 here: the target adds its own
            }
            l.memory.config.grad_accum_steps = l.config.grad_accum_steps;
        }
    }
    counts.push_back(std::move(out));
    return *counts.back();
}

double Planner::Impl::time_of(Layout& l, int micro, const GpuSpec& gpu, double* step_s) {
    if (step_s) *step_s = kNaN;
    if (job.priors == nullptr) return kNaN;
    if (!l.time) {
        const Graph& graph = l.config.eager_attention ? typed_graph : fused_graph;
        l.time = std::make_unique<PreparedTime>(prepare_time(job.spec, job.shape, graph, l.config));
    }
    PreparedTime& t = *l.time;
    const long long per_replica = std::llround(global_batch) / l.replicas;
    t.config.batch = micro;
    t.config.grad_accum_steps = int(per_replica / micro);  // evaluate_time reads the micro-batches per step here
    TimeOptions options = job.time_options;
    if (target_cpus_per_gpu >= 0) options.loader.cpus_per_gpu = target_cpus_per_gpu;  // the server's own CPUs
    const TimeReport r = evaluate_time(t, micro, gpu, options, job.dataset, *job.priors, TimeDetail::kTotalOnly);
    if (r.status != TimeStatus::kOk) return kNaN;
    if (step_s && r.step_s > 0) *step_s = r.step_s;
    return r.total_s > 0 ? r.total_s : kNaN;
}

namespace {

// ---- candidates --------------------------------------------------------------------------------------------------
struct Candidate {
    std::size_t layout = 0;
    std::size_t micro = 0;       // index into the layout's micros
    double time_s = kNaN, step_s = kNaN;
};

// NVLink or NVSwitch inside the server: SXM/OAM modules (all-to-all over NVSwitch / Infinity Fabric). PCIe cards'
// bridges join pairs at most, and the ranking's cards talk over their PCIe default (time_rates.cpp
// default_interconnect).
bool tensor_parallel_link(const GpuSpec& gpu) {
    return (gpu.form_factor == "sxm" || gpu.form_factor == "oam") && gpu.nvlink_bytes_per_s > 0;
}

// What a target allows a layout at a micro-batch: the card less the headroom (the desktop and the user's margin,
// `target_extra`, and the layout's own longest-sample and evaluation terms), or, when only a tight plan is sought,
// the card less what the run is known to allocate at its worst moment (judge_fit: a desktop the user named,
// `target_display`, and the larger of the longest-sample and evaluation terms).
// On a card the user calibrated (calibration.h) the layouts' uncalibrated bytes are compared with the card's room
// taken back through the calibration (exact: the transform is monotone), and the plan's bytes are shown calibrated.
struct Allow {
    double card = 0, target_extra = 0, target_display = 0;
    bool tight = false;
    const CardCalibration* calibration = nullptr;  // the card's, when it carries memory terms
    const Tunables* tunables = nullptr;            // the job's (uncalibrated)
    double room(const Layout& l, std::size_t i) const {
        return tight ? card - target_display - l.job_allocated_bytes[i] : card - target_extra - l.job_headroom_bytes[i];
    }
    double usable(const Layout& l, std::size_t i) const {
        const double r = room(l, i);
        return calibration ? uncalibrated_limit_bytes(r, *tunables, *calibration) : r;
    }
    double shown(double required_bytes) const {
        return calibration ? calibrated_required_bytes(required_bytes, *tunables, *calibration) : required_bytes;
    }
    double shown_usable(const Layout& l, std::size_t i) const { return std::max(0.0, room(l, i)); }
};

// The largest micro-batch of a layout that fits (index into micros), or -1.
int best_micro(const Layout& l, const Allow& a) {
    if (!(a.card > 0)) return -1;
    for (int i = int(l.micros.size()) - 1; i >= 0; --i)
        if (l.required_bytes[std::size_t(i)] <= a.usable(l, std::size_t(i))) return i;
    return -1;
}

bool dominates(const Layout& a, int am, const Layout& b, int bm) {
    for (PlanAxis ax : kAxes)
        if (a.level(ax) > b.level(ax)) return false;
    return a.micros[std::size_t(am)] >= b.micros[std::size_t(bm)];
}

// The metric a plan is chosen by: the run's time, else the step's (the global batch is kept, so the step count is
// the same), else the layout's weight (lightest first, then the larger micro-batch).
struct Score {
    double time = 0;
    int weight = 0;
    int micro = 0;
    bool typed = false;
};
bool better(const Score& a, const Score& b) {
    const bool ka = known(a.time), kb = known(b.time);
    if (ka != kb) return ka;
    if (ka && a.time != b.time) return a.time < b.time;
    if (a.weight != b.weight) return a.weight < b.weight;
    if (a.micro != b.micro) return a.micro > b.micro;
    return a.typed && !b.typed;
}
int weight_of(const Layout& l) {
    int w = 0;
    for (PlanAxis ax : kAxes) w += l.level(ax);
    return w + int(l.config.eager_attention);
}

// What a target's server allows a layout besides the card's memory: host RAM for offload, a link for tensor
// parallelism.
struct ServerRules {
    int per_server = 1;        // the target's GPUs in one server
    bool nvlink = false;       // tensor_parallel_link
    double host_ram_bytes = 0;  // the server's, 0 = unknown
    double host_need(const Layout& l) const { return l.host_ram_per_card * per_server; }
    // The planner proposes offload only where the host's RAM is known to hold it; the user's own layout is refused
    // only where it is known not to.
    bool host_ok(const Layout& l) const {
        if (l.host_ram_per_card <= 0) return true;
        if (host_ram_bytes <= 0) return l.typed;
        return host_need(l) <= host_ram_bytes;
    }
    // Tensor parallelism is proposed over NVLink/NVSwitch only; the user's own layout runs over whatever link the card
    // has (the time model charges it).
    bool link_ok(const Layout& l) const {
        return l.typed || l.config.tensor_parallel == 1 || (nvlink && l.config.tensor_parallel <= per_server);
    }
};

// The room a target gives the job's layouts (see Allow).
Allow allow_for(const PlanJob& job, const PlanTarget& t, bool tight) {
    Allow allow;
    allow.card = usable_memory_bytes(*t.gpu, t.ecc);  // nvidia-smi's total in the run's ECC state (card_memory.h)
    allow.tight = tight;
    if (t.gpu->calibration.memory()) {
        allow.calibration = &t.gpu->calibration;
        allow.tunables = &job.config.tunables;
    }
    const double display = display_bytes(job.config.display, t.owned_display_card);
    allow.target_display = job.config.display == Display::kAuto ? 0.0 : display;  // a guessed desktop: only `fits`
    allow.target_extra = display + (allow.card > 0 ? allow.card * job.config.reserve_fraction : 0.0);
    return allow;
}

// Fitting pairs, then those no other fitting pair beats on every axis (the typed layout is always kept).
std::vector<Candidate> undominated_fits(const CountLayouts& cl, const Allow& allow, const ServerRules& rules) {
    std::vector<Candidate> fit;
    for (std::size_t i = 0; i < cl.layouts.size(); ++i) {
        const Layout& l = cl.layouts[i];
        if (!rules.link_ok(l) || !rules.host_ok(l)) continue;
        const int m = best_micro(l, allow);
        if (m >= 0) fit.push_back({i, std::size_t(m)});
    }
    std::vector<Candidate> kept;
    for (std::size_t a = 0; a < fit.size(); ++a) {
        const Layout& la = cl.layouts[fit[a].layout];
        bool dominated = false;
        if (!la.typed)
            for (std::size_t b = 0; b < fit.size() && !dominated; ++b) {
                if (a == b) continue;
                const Layout& lb = cl.layouts[fit[b].layout];
                if (lb.typed) continue;
                if (dominates(lb, int(fit[b].micro), la, int(fit[a].micro)) &&
                    !dominates(la, int(fit[a].micro), lb, int(fit[b].micro)))
                    dominated = true;
                // Equal on every axis (ZeRO-3 and FSDP, or the same layout twice): keep the first.
                else if (b < a && dominates(lb, int(fit[b].micro), la, int(fit[a].micro)) &&
                         lb.config.strategy == la.config.strategy)
                    dominated = true;
            }
        if (!dominated) kept.push_back(fit[a]);
    }
    return kept;
}

// The layout one step lighter than `l` on axis `ax` and equal on every other (nullptr: none).
const Layout* one_lighter(const CountLayouts& cl, const Layout& l, PlanAxis ax) {
    const int lvl = l.level(ax);
    for (const Layout& o : cl.layouts) {
        if (o.typed || o.config.eager_attention != l.config.eager_attention) continue;
        bool same = o.level(ax) == lvl - 1;
        for (PlanAxis other : kAxes)
            if (other != ax && o.level(other) != l.level(other)) same = false;
        if (ax == PlanAxis::kSharding && lvl == 3 && o.config.strategy != Strategy::kZero2) same = false;
        if (same) return &o;
    }
    return nullptr;
}

// The plan's notes: each axis the plan raised, one step lighter, and why that was not taken; and a larger
// micro-batch of its own layout. time_of(layout, micro, &step_s): the run's time (and its step's) on the target's card
// (Planner::Impl::time_of).
template <class TimeOf>
void add_lighter_notes(const CountLayouts& cl, const Layout& l, std::size_t micro, const Allow& allow,
                       const ServerRules& rules, const TimeOf& time_of, Plan& plan) {
    for (PlanAxis ax : kAxes) {
        if (l.level(ax) == 0) continue;
        const Layout* lighter = one_lighter(cl, l, ax);
        if (lighter == nullptr) continue;
        if (!rules.link_ok(*lighter)) {
            plan.notes.push_back({PlanRejection::kLink, ax, {}});
            continue;
        }
        const int m = best_micro(*lighter, allow);
        if (m >= 0 && !rules.host_ok(*lighter)) {
            const PlanRejection why =
                rules.host_ram_bytes > 0 ? PlanRejection::kHostRam : PlanRejection::kHostRamUnknown;
            plan.notes.push_back({why, ax,
                                  {{"host_ram_bytes", rules.host_need(*lighter)},
                                   {"host_capacity_bytes", rules.host_ram_bytes}}});
        } else if (m >= 0) {
            Layout& lw = const_cast<Layout&>(*lighter);
            double step = kNaN;
            const double time = time_of(lw, lw.micros[std::size_t(m)], &step);
            plan.notes.push_back({PlanRejection::kSlower, ax, {{"time_s", time}, {"step_s", step}}});
        } else {
            // At the smallest micro-batch it allows: the most it could save.
            plan.notes.push_back({PlanRejection::kMemory, ax,
                                  {{"peak_bytes", allow.shown(lighter->required_bytes.front())},
                                   {"usable_bytes", allow.shown_usable(*lighter, 0)}}});
        }
    }
    if (micro + 1 < l.micros.size())
        plan.notes.push_back({PlanRejection::kMemory, PlanAxis::kMicroBatch,
                              {{"peak_bytes", allow.shown(l.required_bytes[micro + 1])},
                               {"usable_bytes", allow.shown_usable(l, micro + 1)}}});
}

// Nothing fits: how far the layout that needs the least memory (at its smallest micro-batch) among those the card's
// links and host allow is from fitting, and a layout the host or the link rules out that would fit the card's memory.
void add_unfit_notes(const CountLayouts& cl, const Allow& allow, const ServerRules& rules, Plan& plan) {
    const Layout* least = nullptr;
    const Layout* least_any = nullptr;
    for (const Layout& l : cl.layouts) {
        if (least_any == nullptr || l.required_bytes.front() < least_any->required_bytes.front()) least_any = &l;
        if (!rules.link_ok(l) || !rules.host_ok(l)) continue;
        if (least == nullptr || l.required_bytes.front() < least->required_bytes.front()) least = &l;
    }
    if (least != nullptr)
        plan.notes.push_back({PlanRejection::kMemory, PlanAxis::kNone,
                              {{"peak_bytes", allow.shown(least->required_bytes.front())},
                               {"usable_bytes", allow.shown_usable(*least, 0)}}});
    // A layout the host or the link rules out that would fit the card's memory.
    for (const Layout& l : cl.layouts) {
        if (best_micro(l, allow) < 0) continue;
        if (!rules.link_ok(l)) {
            plan.notes.push_back({PlanRejection::kLink, PlanAxis::kTensorParallel, {}});
            break;
        }
    }
    for (const Layout& l : cl.layouts) {
        if (best_micro(l, allow) < 0 || !rules.link_ok(l) || rules.host_ok(l)) continue;
        plan.notes.push_back({rules.host_ram_bytes > 0 ? PlanRejection::kHostRam : PlanRejection::kHostRamUnknown,
                              PlanAxis::kOffload,
                              {{"host_ram_bytes", rules.host_need(l)}, {"host_capacity_bytes", rules.host_ram_bytes}}});
        break;
    }
}

}  // namespace

Plan Planner::Impl::search(const PlanTarget& t, bool tight) {
    Plan plan;
    target_cpus_per_gpu = t.cpus_per_gpu;
    CountLayouts& cl = layouts_for(t.count);
    const Allow allow = allow_for(job, t, tight);
    const GpuSpec& gpu = *t.gpu;
    ServerRules rules;
    rules.per_server = std::max(1, std::min(t.count, t.gpus_per_server));
    rules.nvlink = tensor_parallel_link(gpu);
    rules.host_ram_bytes = t.host_ram_bytes;

    std::vector<Candidate> kept = undominated_fits(cl, allow, rules);
    const Candidate* best = nullptr;
    Score best_score;
    for (Candidate& c : kept) {
        Layout& l = cl.layouts[c.layout];
        c.time_s = time_of(l, l.micros[c.micro], gpu, &c.step_s);
        const Score s{known(c.time_s) ? c.time_s : c.step_s, weight_of(l), l.micros[c.micro], l.typed};
        if (best == nullptr || better(s, best_score)) {
            best = &c;
            best_score = s;
        }
    }

    if (best != nullptr) {
        Layout& l = cl.layouts[best->layout];
        const int micro = l.micros[best->micro];
        plan.found = true;
        plan.as_typed = l.typed;
        plan.config = l.config;
        plan.config.batch = micro;
        plan.config.grad_accum_steps = int(std::llround(global_batch) / l.replicas / micro);
        plan.global_batch = double(micro) * plan.config.grad_accum_steps * l.replicas;
        plan.peak_bytes_per_card = allow.shown(l.required_bytes[best->micro]);
        // The verdict's own numbers for the plan (judge_job at its micro-batch and accumulation).
        l.memory.config.grad_accum_steps = plan.config.grad_accum_steps;
        const FitVerdict v = judge_job(l.memory, micro, allow.card, t.owned_display_card);
        l.memory.config.grad_accum_steps = l.config.grad_accum_steps;
        plan.verdict = tight ? Verdict::kTight : Verdict::kFits;
        plan.headroom = v.headroom;
        plan.host_ram_bytes = rules.host_need(l);
        plan.time_s = best->time_s;
        plan.step_s = best->step_s;
        const auto timing = [&](Layout& lw, int m, double* step_s) { return time_of(lw, m, gpu, step_s); };
        add_lighter_notes(cl, l, best->micro, allow, rules, timing, plan);
        return plan;
    }

    // ---- nothing works: why.
    plan.found = false;
    plan.config = job.config;
    plan.config.gpu_count = t.count;
    plan.time_s = plan.step_s = kNaN;
    if (!cl.any_split) {
        // With BatchNorm the micro-batch is kept as typed (its statistics are per micro-batch): say so when the replicas
        // could share the global batch but not at that micro-batch.
        const long long g = std::llround(global_batch);
        if (uses_batchnorm(job.spec.family) && cl.smallest_replicas > 0 && g % cl.smallest_replicas == 0)
            plan.notes.push_back({PlanRejection::kBatchNorm, PlanAxis::kMicroBatch,
                                  {{"global_batch", global_batch}, {"micro_batch", job.config.batch}}});
        else
            plan.notes.push_back({PlanRejection::kBatchSplit, PlanAxis::kNone,
                                  {{"global_batch", global_batch}, {"replicas", double(cl.smallest_replicas)}}});
        return plan;
    }
    add_unfit_notes(cl, allow, rules, plan);
    return plan;
}

// ---- plan --------------------------------------------------------------------------------------------------------
Planner::Planner(const PlanJob& job) : impl_(std::make_unique<Impl>()) {
    Impl& p = *impl_;
    p.job = job;
    p.job.shape.batch = 1;
    const TrainingConfig& c = job.config;
    assert(c.batch >= 1 && c.grad_accum_steps >= 1 && c.gpu_count >= 1 &&
           "Planner: batch, grad_accum_steps and gpu_count must be at least 1 (parse the scenario first)");
    p.global_batch = c.batch * c.grad_accum_steps * data_parallel(c);
    BuildOptions fused;
    fused.eager_attention = false;
    p.fused_graph = build_graph(job.spec, p.job.shape, fused);
    if (c.eager_attention) {
        BuildOptions eager;
        eager.eager_attention = true;
        p.typed_graph = build_graph(job.spec, p.job.shape, eager);
    }
}

Planner::~Planner() = default;

Plan Planner::plan(const PlanTarget& target) {
    assert(target.gpu != nullptr && target.count >= 1 && "Planner::plan: a target needs a card and a count >= 1");
    const Impl::PlanKey key{target.gpu, target.count, target.owned_display_card, target.host_ram_bytes,
                            target.gpus_per_server, target.ecc, target.cpus_per_gpu};
    auto it = impl_->plans.find(key);
    if (it != impl_->plans.end()) return it->second;
    // A plan with the headroom a real run needs; else one that fits the card alone (tight), whose notes still say
    // why nothing fits with the headroom when neither exists.
    Plan p = impl_->search(target, false);
    if (!p.found) {
        Plan t = impl_->search(target, true);
        if (t.found) p = std::move(t);
    }
    p.loader_cpus_per_gpu = target.cpus_per_gpu;
    impl_->plans.emplace(key, p);
    return p;
}


}  // namespace gg::engine
