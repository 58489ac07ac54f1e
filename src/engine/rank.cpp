// Ranking of buy and rent options, the time-cost frontier and budget tiers (see rank.h). No JSON, no UI.
//
// Sections: names | the prepared job | evaluating options | rank_options | tiers (the order: rank_order.cpp)
#include "engine/rank.h"
#include "engine/card_memory.h"
#include "engine/rank_detail.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

namespace gg::engine {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
bool known(double x) { return std::isfinite(x); }
}  // namespace

// ---- names -------------------------------------------------------------------------------------------------------
const char* objective_name(Objective o) {
    switch (o) {
        case Objective::kCost: return "cost";
        case Objective::kTime: return "time";
        case Objective::kValue: return "value";
    }
    return "cost";
}

const char* ownership_name(Ownership o) {
    switch (o) {
        case Ownership::kRent: return "rent";
        case Ownership::kBuy: return "buy";
        case Ownership::kBoth: return "both";
    }
    return "both";
}

const char* user_region_name(UserRegion r) {
    switch (r) {
        case UserRegion::kMainlandChina: return "mainland_china";
        case UserRegion::kElsewhere: return "elsewhere";
        case UserRegion::kUnknown: return "unknown";
    }
    return "unknown";
}

const char* option_kind_name(OptionKind k) { return k == OptionKind::kRent ? "rent" : "buy"; }

const char* reason_code_name(ReasonCode c) {
    switch (c) {
        case ReasonCode::kFits: return "fits";
        case ReasonCode::kDoesNotFit: return "does_not_fit";
        case ReasonCode::kTime: return "time";
        case ReasonCode::kTimeUnknown: return "time_unknown";
        case ReasonCode::kTimeIsFloor: return "time_is_floor";
        case ReasonCode::kCost: return "cost";
        case ReasonCode::kCostUnknown: return "cost_unknown";
        case ReasonCode::kOverBudget: return "over_budget";
        case ReasonCode::kOverDeadline: return "over_deadline";
        case ReasonCode::kRegionMismatch: return "region_mismatch";
        case ReasonCode::kAccessLimited: return "access_limited";
        case ReasonCode::kCurrencyMismatch: return "currency_mismatch";
        case ReasonCode::kOwnershipExcluded: return "ownership_excluded";
        case ReasonCode::kBreakEven: return "break_even";
        case ReasonCode::kNeverBreaksEven: return "never_breaks_even";
        case ReasonCode::kResaleExtrapolated: return "resale_extrapolated";
        case ReasonCode::kHostShared: return "host_shared";
        case ReasonCode::kHostUnderpowered: return "host_underpowered";
        case ReasonCode::kServerOnly: return "server_only";
        case ReasonCode::kLaunchPriceBasis: return "launch_price_basis";
        case ReasonCode::kPlanChanged: return "plan_changed";
        case ReasonCode::kMultiNode: return "multi_node";
        case ReasonCode::kIncompatible: return "incompatible";
        case ReasonCode::kBillingRounded: return "billing_rounded";
        case ReasonCode::kTight: return "tight";
        case ReasonCode::kFreeTier: return "free_tier";
        case ReasonCode::kSessionLimits: return "session_limits";
        case ReasonCode::kNoGuaranteedGpu: return "no_guaranteed_gpu";
        case ReasonCode::kNeedsCheckpoints: return "needs_checkpoints";
        case ReasonCode::kSessionTooShort: return "session_too_short";
        case ReasonCode::kSessionOverheads: return "session_overheads";
        case ReasonCode::kDownloadUnknown: return "download_unknown";
        case ReasonCode::kCheckpointTimeUnknown: return "checkpoint_time_unknown";
        case ReasonCode::kSpotInterruptions: return "spot_interruptions";
        case ReasonCode::kSpotRateUnknown: return "spot_rate_unknown";
        case ReasonCode::kDiskTooSmall: return "disk_too_small";
    }
    return "unknown";
}

// ---- the prepared job --------------------------------------------------------------------------------------------
const PreparedCount* JobModel::find(int count) const {
    for (const PreparedCount& p : per_count)
        if (p.count == count) return &p;
    return nullptr;
}

JobModel prepare_job(const ModelSpec& spec, const WorkloadShape& shape, const TrainingConfig& config,
                     const Dataset& dataset, const TimeOptions& time_options, const ThroughputPriors* priors,
                     bool time_is_floor, const std::vector<int>& counts) {
    JobModel job;
    job.spec = spec;
    job.shape = shape;
    job.shape.batch = 1;
    job.config = config;
    job.dataset = dataset;
    job.time_options = time_options;
    job.priors = priors;
    job.time_is_floor = time_is_floor;
    job.needs = {config.precision, false, config.optimizer, config.method};
    BuildOptions build;
    build.eager_attention = config.eager_attention;
    const Graph graph = build_graph(spec, job.shape, build);  // once: per-count reductions share it
    std::vector<int> all = counts;
    all.push_back(config.gpu_count);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    const int slice = std::max(1, config.tensor_parallel * config.pipeline_parallel);
    for (int n : all) {
        assert(n >= 1 && "prepare_job: card counts must be at least 1");
        if (n % slice != 0) continue;  // tensor x pipeline parallel needs whole model copies: no option at this count
        PreparedCount p;
        p.count = n;
        TrainingConfig c = config;
        c.gpu_count = n;
        p.memory = prepare_memory(graph, c);
        p.time = prepare_time(spec, job.shape, graph, c);
        p.required_bytes = required_bytes(p.memory, config.batch);
        job.per_count.push_back(std::move(p));
    }
    // Work per run: tokens when the dataset is given in tokens, else samples x epochs.
    if (dataset.tokens > 0) {
        job.work_per_run = dataset.tokens;
        job.work_in_tokens = true;
    } else {
        job.work_per_run = dataset.samples * (dataset.epochs > 0 ? dataset.epochs : 1);
    }
    return job;
}

const ThroughputPriors& peak_floor_priors() {
    static const ThroughputPriors priors = [] {
        ThroughputPriors p;
        EfficiencyPrior e;
        e.id = "peak_floor";
        for (int f = 0; f <= int(Family::kBiLstmCrf); ++f) e.families.push_back(Family(f));
        e.matmul_fraction = {1.0, 1.0, 1.0};     // 100% of the dense peak: unreachable, hence a floor
        e.bandwidth_fraction = {1.0, 1.0, 1.0};  // 100% of the memory bandwidth
        e.per_layer_overhead_s = 0;
        e.source = "roofline lower bound (Williams, Waterman, Patterson, 'Roofline', CACM 2009): no fitted priors";
        p.priors.push_back(e);
        p.comm.overlap_fraction = 0;
        p.comm.source = "unused: no interconnect rows, multi-GPU times stay unknown";
        return p;
    }();
    return priors;
}

double run_time_s(const JobModel& job, const GpuSpec& gpu, int count, TimeStatus* status) {
    const PreparedCount* p = job.find(count);
    if (status) *status = TimeStatus::kNoPrior;
    if (p == nullptr || job.priors == nullptr) return kNaN;
    const TimeReport r =
        evaluate_time(p->time, job.config.batch, gpu, job.time_options, job.dataset, *job.priors, TimeDetail::kTotalOnly);
    if (status) *status = r.status;
    if (r.status != TimeStatus::kOk || !(r.total_s > 0)) return kNaN;
    return r.total_s;
}

// ---- sessions ----------------------------------------------------------------------------------------------------
double job_base_model_bytes(const JobModel& job) {
    const PreparedCount* p = job.find(job.config.gpu_count);
    if (p == nullptr && !job.per_count.empty()) p = &job.per_count.front();
    if (p == nullptr) return 0;
    const Method m = job.config.method;
    const double bytes_per_param = m == Method::kLora || m == Method::kQlora ? 2.0 : 4.0;
    return p->memory.params_total * bytes_per_param + p->memory.input_encoder_bytes;
}

double job_checkpoint_bytes(const JobModel& job) {
    const PreparedCount* p = job.find(job.config.gpu_count);
    if (p == nullptr && !job.per_count.empty()) p = &job.per_count.front();
    if (p == nullptr) return 0;
    // fp32 trainable weights (4 B: what torch.save of the master weights / an fp32 model writes) + optimizer state
    return p->memory.params_trainable * (4.0 + p->memory.state_bytes_per_param);
}

SessionPlan sessions_for_offer(const JobModel& job, const CloudOffer& offer, double run_time_s,
                               const CostSettings& settings, const DecisionInputs& d) {
    const SessionOverheads& so = settings.overheads;
    auto pick = [](double given, const SourcedQuantity& fallback) { return given >= 0 ? given : fallback.value; };
    SessionInputs in;
    in.run_time_s = run_time_s;
    in.start_s = pick(d.instance_start_s, so.instance_start_s);
    in.setup_s = pick(d.environment_setup_s, so.environment_setup_s);
    in.download_bytes = d.dataset_bytes + (d.base_model_bytes >= 0 ? d.base_model_bytes : job_base_model_bytes(job));
    in.download_bytes_per_s = pick(d.download_bytes_per_s, so.download_bytes_per_s);
    in.checkpointing = d.checkpointing;
    in.checkpoint_bytes = job_checkpoint_bytes(job);
    in.checkpoint_write_bytes_per_s = pick(d.checkpoint_write_bytes_per_s, so.checkpoint_write_bytes_per_s);
    if (offer.billing == Billing::Spot) in.interruptions_per_s = pick(d.spot_interruptions_per_hour, so.spot_interruptions_per_hour) / 3600.0;
    return plan_sessions(offer.limits, in);
}

// ---- evaluating options ------------------------------------------------------------------------------------------
namespace {

// Per-card results shared by the options of one card (rent offers repeat cards; buy options repeat counts).
struct CardCache {
    std::shared_ptr<const std::vector<CompatWarning>> warnings;  // null until the card's first option
    int blocker_code = -1;  // the first blocking CompatCode among the warnings, -1 = none
};

// One run's time on one card model at one count, computed on first use.
struct CountTime {
    bool computed = false;
    double time_s = kNaN;
    TimeStatus status = TimeStatus::kOk;
};

struct Ctx {
    const JobModel& job;
    const CostSettings& settings;
    const DecisionInputs& d;
    const CompatData& compat;
    const std::vector<GpuSpec>& gpus;
    Planner& planner;
    double cny_per_usd;
    mutable std::vector<CardCache> cache;  // indexed like `gpus`
    mutable std::vector<CountTime> times;  // gpus x job.per_count, row per card: no search, no allocation per hit
    mutable std::vector<Reason> reason_buffer;  // see start_reasons
    std::size_t card_index(const GpuSpec* g) const { return std::size_t(g - gpus.data()); }
};

// An option's reasons are collected in one buffer that every option reuses, then copied out at their exact size
// (keep_reasons): one allocation per option, and no capacity reserved for reasons most options never have.
void start_reasons(const Ctx& c, RankOption& o) {
    o.reasons = std::move(c.reason_buffer);
    o.reasons.clear();
}
void keep_reasons(const Ctx& c, RankOption& o) {
    c.reason_buffer = std::move(o.reasons);
    o.reasons.assign(c.reason_buffer.begin(), c.reason_buffer.end());
}

double shown(const Ctx& c, double cny) { return from_cny(cny, c.d.currency, c.cny_per_usd); }

// Memory, compatibility and time: what does not depend on buying or renting. The planner picks the layout (plan) and
// its verdict (judge_job: fits with the headroom, or tight); `p` = the typed job at o.count when prepared (the time
// status and the headroom when no plan exists), else nullptr.
void evaluate_card(const Ctx& c, const PreparedCount* p, RankOption& o, double host_ram_bytes) {
    // A card bought goes into the user's own machine, where a consumer or workstation card may draw the desktop
    // (Display::kAuto); rented cards are headless servers.
    const bool owned_display = o.kind == OptionKind::kBuy && segment_has_display(o.gpu->segment);
    PlanTarget target;
    target.gpu = o.gpu;
    target.count = o.count;
    target.owned_display_card = owned_display;
    target.host_ram_bytes = host_ram_bytes;
    target.gpus_per_server = o.nodes > 1 ? o.count / o.nodes : o.count;
    if (o.offer) target.cpus_per_gpu = o.offer->vcpu_count / o.offer->gpu_count;  // 0 = unknown (engine/loader.h)
    o.plan = c.planner.plan(target);
    // What nvidia-smi shows as the card's total in its own ECC state (card_memory.h), as the planner judged it.
    const double card_bytes = usable_memory_bytes(*o.gpu);
    o.fits = card_bytes > 0 && o.plan.found;  // fits or tight: the job runs on the card
    o.fits_as_typed = o.fits && o.plan.as_typed;
    o.calibrated = o.gpu->calibration.memory() ||
                   o.gpu->calibration.efficiency_factor(family_name(c.job.spec.family)) > 0;
    if (o.plan.found) {
        o.peak_bytes_per_card = o.plan.peak_bytes_per_card;
        o.verdict = o.plan.verdict;
        o.headroom = o.plan.headroom;
    } else {
        // How far the job is from fitting: the least any layout needs, else the typed layout's bytes.
        o.peak_bytes_per_card =
            p ? calibrated_required_bytes(p->required_bytes, c.job.config.tunables, o.gpu->calibration) : 0;
        for (const PlanNote& n : o.plan.notes)
            if (n.code == PlanRejection::kMemory)
                for (const auto& [k, v] : n.values)
                    if (std::string_view(k) == "peak_bytes") o.peak_bytes_per_card = v;
        o.verdict = Verdict::kDoesNotFit;
        if (p) o.headroom = job_headroom(p->memory, c.job.config.batch, card_bytes, owned_display);
    }
    o.usable_bytes_per_card = usable_card_bytes(card_bytes, o.headroom);
    o.tight = o.fits && o.verdict == Verdict::kTight;
    o.reasons.push_back({o.fits ? ReasonCode::kFits : ReasonCode::kDoesNotFit,
                         {{"peak_bytes", o.peak_bytes_per_card},
                          {"usable_bytes", o.usable_bytes_per_card},
                          {"card_bytes", card_bytes}},
                         {}});
    if (o.tight)
        o.reasons.push_back({ReasonCode::kTight,
                             {{"peak_bytes", o.peak_bytes_per_card},
                              {"headroom_bytes", o.headroom.total_bytes()},
                              {"card_bytes", card_bytes}},
                             {}});
    const std::size_t card = c.card_index(o.gpu);
    CardCache& cc = c.cache[card];
    if (!cc.warnings) {
        std::vector<CompatWarning> warnings = check_compat(*o.gpu, c.job.needs, c.compat, &c.gpus);
        for (const CompatWarning& w : warnings)
            if (w.severity == Severity::kBlocker) {
                cc.blocker_code = int(w.code);
                break;
            }
        cc.warnings = std::make_shared<const std::vector<CompatWarning>>(std::move(warnings));
    }
    o.warnings = cc.warnings;  // shared, not copied: a card's options all carry the same warnings
    if (cc.blocker_code >= 0) o.reasons.push_back({ReasonCode::kIncompatible, {{"code", double(cc.blocker_code)}}, {}});
    o.time_s = o.plan.found ? o.plan.time_s : kNaN;
    TimeStatus status = TimeStatus::kNoPrior;
    if (!known(o.time_s) && p != nullptr) {
        CountTime& t = c.times[card * c.job.per_count.size() + std::size_t(p - c.job.per_count.data())];
        if (!t.computed) {
            t.time_s = run_time_s(c.job, *o.gpu, o.count, &t.status);
            t.computed = true;
        }
        status = t.status;
    }
    if (known(o.time_s)) {
        o.reasons.push_back({ReasonCode::kTime, {{"time_s", o.time_s}, {"project_time_s", o.time_s * c.d.runs}}, {}});
        if (c.job.time_is_floor) o.reasons.push_back({ReasonCode::kTimeIsFloor, {}, {}});
    } else {
        o.reasons.push_back({ReasonCode::kTimeUnknown, {{"status", double(int(status))}}, {}});
    }
    if (o.plan.found && !o.plan.as_typed)
        o.reasons.push_back({ReasonCode::kPlanChanged, {{"global_batch", o.plan.global_batch}}, {}});
    if (o.nodes > 1)
        o.reasons.push_back({ReasonCode::kMultiNode, {{"nodes", double(o.nodes)}, {"gpus_per_node", double(o.count / o.nodes)}}, {}});
}

// What a rented or free option's sessions mean for the user: limits to watch, overheads, what is not counted.
void add_session_reasons(RankOption& o, const CloudOffer& offer, double checkpoint_bytes, bool checkpointing) {
    const SessionPlan& s = o.sessions;
    const SessionLimits& l = offer.limits;
    switch (s.status) {
        case SessionStatus::kNeedsCheckpoints:
            o.reasons.push_back({ReasonCode::kNeedsCheckpoints, {{"run_time_s", o.time_s}, {"max_session_s", l.max_session_s}}, {}});
            break;
        case SessionStatus::kSessionTooShort:
            o.reasons.push_back({ReasonCode::kSessionTooShort,
                                 {{"overhead_s", s.overhead_s_per_session}, {"max_session_s", l.max_session_s}}, {}});
            break;
        case SessionStatus::kTooManyInterruptions:
            o.reasons.push_back({ReasonCode::kSpotInterruptions, {{"interruptions", kNaN}, {"lost_work_s", kNaN}}, {}});
            break;
        case SessionStatus::kOk: break;
    }
    if (offer.billing == Billing::Free || offer.has_limits)
        o.reasons.push_back({ReasonCode::kFreeTier, {{"sessions", s.sessions}, {"calendar_s", s.calendar_s}, {"weeks", s.weeks}}, {}});
    if (offer.has_limits)
        o.reasons.push_back({ReasonCode::kSessionLimits,
                             {{"max_session_s", l.max_session_s}, {"idle_timeout_s", l.idle_timeout_s},
                              {"gpu_s_per_week", l.gpu_s_per_week}}, {}});
    if (offer.has_limits && !l.gpu_guaranteed) o.reasons.push_back({ReasonCode::kNoGuaranteedGpu, {}, {}});
    if (s.status == SessionStatus::kOk)
        o.reasons.push_back({ReasonCode::kSessionOverheads,
                             {{"overhead_s", s.overhead_s}, {"checkpoint_s", s.checkpoint_s}, {"lost_work_s", s.lost_work_s}}, {}});
    if (s.download_unknown) o.reasons.push_back({ReasonCode::kDownloadUnknown, {}, {}});
    if (s.checkpoint_time_unknown && s.checkpoint_saves > 0)
        o.reasons.push_back({ReasonCode::kCheckpointTimeUnknown, {{"checkpoint_bytes", checkpoint_bytes}}, {}});
    if (offer.billing == Billing::Spot) {
        if (s.interruptions > 0)
            o.reasons.push_back({ReasonCode::kSpotInterruptions,
                                 {{"interruptions", s.interruptions}, {"lost_work_s", s.lost_work_s}}, {}});
        else if (s.status == SessionStatus::kOk)
            o.reasons.push_back({ReasonCode::kSpotRateUnknown, {}, {}});
    }
    if (checkpointing && l.disk_bytes > 0 && checkpoint_bytes > l.disk_bytes)
        o.reasons.push_back({ReasonCode::kDiskTooSmall, {{"checkpoint_bytes", checkpoint_bytes}, {"disk_bytes", l.disk_bytes}}, {}});
}

// What every buy option shares; the caller sets card_count and run_time_s per option. Made once per ranking: the
// host and the resale curve carry strings and a vector, so a copy per option would allocate.
BuyInputs shared_buy_inputs(const Ctx& c) {
    BuyInputs b;
    b.runs = c.d.runs;
    b.cny_per_usd = c.cny_per_usd;
    b.electricity_price_per_kwh_cny = c.d.electricity_price_per_kwh_cny;
    b.gpu_hours_per_month = c.d.gpu_hours_per_month;
    b.ownership_months = c.d.ownership_months;
    b.host = c.settings.host_system;
    b.resale = c.settings.resale_value;
    return b;
}

void finish_cost(const Ctx& c, RankOption& o) {
    if (known(o.cost_cny) && c.job.work_per_run > 0 && o.cost_cny > 0) {
        o.value = c.job.work_per_run * c.d.runs / o.cost_cny;
        o.value_in_tokens = c.job.work_in_tokens;
    }
}

void apply_filters(const Ctx& c, RankOption& o) {
    bool ok = o.fits;
    for (const Reason& r : o.reasons)
        if (r.code == ReasonCode::kIncompatible) ok = false;
    if (c.d.budget_cny > 0 && known(o.cash_cny) && o.cash_cny > c.d.budget_cny) {
        o.reasons.push_back({ReasonCode::kOverBudget, {{"cash", shown(c, o.cash_cny)}, {"budget", shown(c, c.d.budget_cny)}}, {}});
        ok = false;
    }
    if (c.d.budget_cny > 0 && !known(o.cash_cny)) ok = false;  // a ceiling cannot be checked without a price
    // A rental's run ends when its last session does (start, setup, downloads, weekly quotas waited out).
    const double finish_s = o.kind == OptionKind::kRent && o.calendar_s > 0 ? o.calendar_s : o.time_s;
    if (c.d.deadline_s > 0 && known(finish_s) && finish_s > c.d.deadline_s) {
        o.reasons.push_back({ReasonCode::kOverDeadline, {{"time_s", finish_s}, {"deadline_s", c.d.deadline_s}}, {}});
        ok = false;
    }
    if (o.kind == OptionKind::kRent && known(o.time_s) && o.sessions.status != SessionStatus::kOk) ok = false;
    if (c.d.deadline_s > 0 && !known(o.time_s)) ok = false;
    if ((c.d.ownership == Ownership::kRent && o.kind == OptionKind::kBuy) ||
        (c.d.ownership == Ownership::kBuy && o.kind == OptionKind::kRent)) {
        o.reasons.push_back({ReasonCode::kOwnershipExcluded, {}, {}});
        ok = false;
    }
    if (o.kind == OptionKind::kRent) {
        if (!c.d.region.empty() && o.offer->region != c.d.region && o.offer->region != "global") {
            o.reasons.push_back({ReasonCode::kRegionMismatch, {}, o.offer->region});
            ok = false;
        }
        // Where the user is (issue 40): an offer blocked in mainland China or paid only from abroad stays in the
        // ranking, labelled, after everything the user can use (group); nothing is dropped silently.
        if (c.d.user_region == UserRegion::kMainlandChina && o.offer->access.limits_mainland_china()) {
            const AccessFacts& a = o.offer->access;
            o.reasons.push_back({ReasonCode::kAccessLimited,
                                 {{"blocked", a.blocked_in_mainland_china.value == Fact::kYes ? 1.0 : 0.0},
                                  {"foreign_payment", a.international_payment_only.value == Fact::kYes ? 1.0 : 0.0}},
                                 o.offer->provider});
            o.access_limited = true;
        }
        if (!c.d.offer_currency.empty() && o.offer->currency != c.d.offer_currency) {
            o.reasons.push_back({ReasonCode::kCurrencyMismatch, {}, o.offer->currency});
            ok = false;
        }
    }
    o.eligible = ok;
}

}  // namespace

// ---- rank_options ------------------------------------------------------------------------------------------------
namespace {

// The cards by id, to find each offer's card in O(log gpus) comparisons rather than O(gpus). Equal ids (the
// catalog rejects them) stay in catalog order, and the last one is taken, as a scan to the end would.
std::vector<const GpuSpec*> cards_by_id(const std::vector<GpuSpec>& gpus) {
    std::vector<const GpuSpec*> by_id(gpus.size());
    for (std::size_t i = 0; i < gpus.size(); ++i) by_id[i] = &gpus[i];
    std::sort(by_id.begin(), by_id.end(), [](const GpuSpec* a, const GpuSpec* b) {
        const int order = a->id.compare(b->id);
        return order != 0 ? order < 0 : a < b;
    });
    return by_id;
}

// The card with this id (the last of equal ids), nullptr where the catalog has none.
const GpuSpec* card_with_id(const std::vector<const GpuSpec*>& by_id, const std::string& id) {
    const auto after = std::upper_bound(by_id.begin(), by_id.end(), id,
                                        [](const std::string& id, const GpuSpec* g) { return id < g->id; });
    return after != by_id.begin() && (*(after - 1))->id == id ? *(after - 1) : nullptr;
}

// A rent option: `nodes` instances of the offer (multi-node when > 1): the price and the host RAM are per instance.
RankOption& add_rent(const Ctx& c, RankResult& out, const CloudOffer& offer, const GpuSpec* gpu,
                     const PreparedCount* p, int nodes) {
    const JobModel& job = c.job;
    const CostSettings& settings = c.settings;
    const DecisionInputs& d = c.d;
    RankOption& o = out.options.emplace_back();
    start_reasons(c, o);
    o.kind = OptionKind::kRent;
    o.gpu = gpu;
    o.nodes = nodes;
    o.count = offer.gpu_count * nodes;
    o.offer = &offer;
    o.id.reserve(5 + offer.id.size() + 4);
    o.id.append("rent:").append(offer.id);
    if (nodes > 1) o.id.append(":x").append(std::to_string(nodes));
    evaluate_card(c, p, o, offer.host_ram_bytes);
    o.free_tier = offer.billing == Billing::Free;
    if (known(o.time_s)) {
        o.sessions = sessions_for_offer(job, offer, o.time_s, settings, d);
        o.calendar_s = o.sessions.calendar_s;
        add_session_reasons(o, offer, job_checkpoint_bytes(job), d.checkpointing);
        RentInputs in;
        in.run_time_s = o.time_s;
        in.runs = d.runs;
        in.storage_bytes = d.storage_bytes;
        in.storage_price_per_gb_month_cny = settings.storage.price_per_gb_month_cny;
        in.cny_per_usd = c.cny_per_usd;
        in.sessions = o.sessions.status == SessionStatus::kOk ? &o.sessions : nullptr;
        o.rent = rent_cost(offer, in);
        // Each instance bills its own hours; the project's disk is counted once.
        o.rent.compute_cny *= nodes;
        o.rent.total_cny = o.rent.compute_cny + o.rent.storage_cny;
        o.cost_cny = o.rent.total_cny;
        o.cash_cny = o.cost_cny;
        const double held_s = in.sessions != nullptr ? o.sessions.session_s : o.time_s;
        if (o.rent.billed_s_per_run > held_s * 1.01)
            o.reasons.push_back({ReasonCode::kBillingRounded,
                                 {{"billed_s", o.rent.billed_s_per_run}, {"run_time_s", held_s}}, {}});
    } else {
        o.cost_cny = o.cash_cny = kNaN;
    }
    if (known(o.cost_cny))
        o.reasons.push_back({ReasonCode::kCost,
                             {{"cost", shown(c, o.cost_cny)}, {"per_run", shown(c, o.rent.compute_cny / d.runs)}},
                             {}});
    else
        o.reasons.push_back({ReasonCode::kCostUnknown, {}, {}});
    finish_cost(c, o);
    apply_filters(c, o);
    keep_reasons(c, o);
    return o;
}

// The rent options: one per offer whose card is in the catalog, and for a full server of a data-centre card the
// multi-node option below.
void add_rent_options(const Ctx& c, const std::vector<CloudOffer>& offers, RankResult& out) {
    const JobModel& job = c.job;
    const DecisionInputs& d = c.d;
    const std::vector<const GpuSpec*> by_id = cards_by_id(c.gpus);
    const int per_node = job.priors ? int(job.priors->comm.gpus_per_node) : 8;
    for (const CloudOffer& offer : offers) {
        const GpuSpec* gpu = card_with_id(by_id, offer.gpu_id);
        if (gpu == nullptr || offer.gpu_count < 1) continue;
        const RankOption& single = add_rent(c, out, offer, gpu, job.find(offer.gpu_count), 1);
        // A full server of a data-centre card: when no plan fits one instance, or the one that does runs longer than
        // k instances would together (k x their time: the same money or less), the fewest instances that fit, joined
        // by the network between nodes (time_comm.cpp: a job wider than a node crosses InfiniBand unless told
        // otherwise).
        if (offer.gpu_count != per_node || gpu->segment != "datacenter") continue;
        const double single_time_s = single.fits ? single.time_s : kNaN;
        if (single.fits && !known(single_time_s)) continue;
        for (int nodes : d.multi_node_counts) {
            if (nodes < 2) continue;
            PlanTarget t;
            t.gpu = gpu;
            t.count = offer.gpu_count * nodes;
            t.host_ram_bytes = offer.host_ram_bytes;
            t.gpus_per_server = offer.gpu_count;
            t.cpus_per_gpu = offer.vcpu_count / offer.gpu_count;
            const Plan p = c.planner.plan(t);
            if (!p.found) continue;
            if (single.fits && !(known(p.time_s) && p.time_s * nodes < single_time_s)) break;
            add_rent(c, out, offer, gpu, job.find(t.count), nodes);
            break;
        }
    }
}

// The rent each buy option's break-even is measured against: the cheapest fitting hourly rent of the same
// model, else the cheapest fitting hourly rent of any model.
struct BestRents {
    std::vector<const RankOption*> of_card;  // indexed like the catalog's cards
    const RankOption* any = nullptr;
};

BestRents best_rents(const Ctx& c, const RankResult& out) {
    BestRents best;
    best.of_card.assign(c.gpus.size(), nullptr);
    // Equal costs are broken by id, so the choice does not depend on the order of the catalog's offers.
    auto cheaper = [](const RankOption& a, const RankOption* b) {
        return b == nullptr || a.cost_cny < b->cost_cny || (a.cost_cny == b->cost_cny && a.id < b->id);
    };
    for (const RankOption& r : out.options) {
        if (!r.fits || !known(r.cost_cny) || r.offer->billing == Billing::Monthly) continue;  // per hour of use
        const RankOption*& same = best.of_card[c.card_index(r.gpu)];
        if (cheaper(r, same)) same = &r;
        if (cheaper(r, best.any)) best.any = &r;
    }
    return best;
}

// Without a card price (no street or launch price: most data-centre cards, AWS's cloud-only A10G) or for a
// server-only module, nothing of the desktop model is known: no card price, no desktop host, no power draw
// or electricity, no resale. Unknown, not zero: the report prints them as null.
void forget_desktop_model(BuyCost& buy) {
    const double hours = buy.training_hours, months = buy.ownership_months;
    buy = BuyCost{};
    buy.training_hours = hours;
    buy.ownership_months = months;
    buy.card_price_cny = buy.cards_cny = buy.host_cny = buy.purchase_cny = kNaN;
    buy.power_w = buy.resale_fraction = buy.resale_cny = buy.electricity_cny = kNaN;
    buy.total_cny = kNaN;
}

// A buy option's cost and the reasons that explain it: the cost or its absence, a launch-price basis, a shared
// host, an underpowered supply, a resale curve extrapolated.
void add_buy_cost_reasons(const Ctx& c, const GpuSpec& gpu, int n, bool no_desktop_model, RankOption& o) {
    const CostSettings& settings = c.settings;
    const auto& resale_points = settings.resale_value.points;
    if (known(o.time_s) && known(o.buy.total_cny)) {
        o.cost_cny = o.buy.total_cny;
        o.cash_cny = o.buy.purchase_cny + o.buy.electricity_cny;
    } else if (known(o.buy.purchase_cny)) {
        o.cost_cny = kNaN;  // the purchase is known, but not the power and resale without a time
        o.cash_cny = o.buy.purchase_cny;
    } else {
        o.cost_cny = o.cash_cny = kNaN;
    }
    if (known(o.cost_cny))
        o.reasons.push_back({ReasonCode::kCost,
                             {{"cost", shown(c, o.cost_cny)}, {"upfront", shown(c, o.buy.purchase_cny)}}, {}});
    else
        o.reasons.push_back({ReasonCode::kCostUnknown, {}, {}});
    if (o.buy.basis == PriceBasis::kLaunchUsd)
        o.reasons.push_back({ReasonCode::kLaunchPriceBasis,
                             {{"launch_usd", gpu.launch_price_usd}, {"cny_per_usd", c.cny_per_usd}}, {}});
    if (n > 1 && !no_desktop_model) o.reasons.push_back({ReasonCode::kHostShared, {{"count", double(n)}}, {}});
    // The host's power supply must carry the cards at their board power and the host itself.
    if (!no_desktop_model && settings.host_system.psu_w > 0 && gpu.tdp_w > 0 &&
        n * gpu.tdp_w + settings.host_system.power_w > settings.host_system.psu_w)
        o.reasons.push_back({ReasonCode::kHostUnderpowered,
                             {{"power_w", n * gpu.tdp_w + settings.host_system.power_w},
                              {"psu_w", settings.host_system.psu_w}},
                             {}});
    if (!no_desktop_model && !resale_points.empty() && o.buy.ownership_months > resale_points.back().age_months)
        o.reasons.push_back({ReasonCode::kResaleExtrapolated,
                             {{"ownership_months", o.buy.ownership_months},
                              {"last_point_months", resale_points.back().age_months}},
                             {}});
}

// Break-even against the cheapest fitting rent of the same model, else the cheapest fitting rent.
void add_break_even(const Ctx& c, const GpuSpec& gpu, const BuyInputs& in, const BestRents& best, RankOption& o) {
    if (known(o.time_s) && known(o.buy.total_cny)) {
        const RankOption* best_same = best.of_card[c.card_index(&gpu)];
        const RankOption* best_any = best.any;
        if (const RankOption* r = best_same ? best_same : best_any) {
            const BreakEven be = break_even(gpu, in, *r->offer, r->time_s);
            if (be.exists)
                o.reasons.push_back({ReasonCode::kBreakEven,
                                     {{"runs", be.runs}, {"hours", be.training_hours}, {"months", be.months}},
                                     r->offer->id});
            else
                o.reasons.push_back({ReasonCode::kNeverBreaksEven,
                                     {{"horizon_months", kBreakEvenHorizonMonths}}, r->offer->id});
        }
    }
}

// A buy option: n cards of this model in one desktop host (`in` carries the decision's shared buy inputs).
void add_buy(const Ctx& c, const GpuSpec& gpu, int n, BuyInputs& in, const BestRents& best, RankResult& out) {
    const PreparedCount* p = c.job.find(n);  // the typed layout at n cards (nullptr: it needs other counts)
    RankOption& o = out.options.emplace_back();
    start_reasons(c, o);
    o.kind = OptionKind::kBuy;
    o.gpu = &gpu;
    o.count = n;
    const std::string count_text = std::to_string(n);
    o.id.reserve(5 + gpu.id.size() + count_text.size());
    o.id.append("buy:").append(gpu.id).append(":").append(count_text);
    evaluate_card(c, p, o, c.d.buy_host_ram_bytes);
    in.card_count = n;
    in.run_time_s = known(o.time_s) ? o.time_s : 0;
    o.buy = buy_cost(gpu, in);
    // SXM and OAM modules mount only on a server's baseboard (HGX and the like, 4 or 8 per board): a card price
    // plus a desktop host is no price anyone can buy them at.
    // A quote the user entered is used as given (it may be for a whole server).
    const bool server_only = (gpu.form_factor == "sxm" || gpu.form_factor == "oam") &&
                             gpu.street_price.source != kUserPriceSource;
    if (server_only) o.reasons.push_back({ReasonCode::kServerOnly, {}, {}});
    const bool no_desktop_model = server_only || o.buy.basis == PriceBasis::kUnknown;
    if (no_desktop_model) forget_desktop_model(o.buy);
    add_buy_cost_reasons(c, gpu, n, no_desktop_model, o);
    add_break_even(c, gpu, in, best, o);
    finish_cost(c, o);
    apply_filters(c, o);
    keep_reasons(c, o);
}

}  // namespace

RankResult rank_options(const JobModel& job, const std::vector<GpuSpec>& gpus, const std::vector<CloudOffer>& offers,
                        const CostSettings& settings, const DecisionInputs& d, const CompatData& compat) {
    assert(d.runs >= 1 && "rank_options: runs must be at least 1");
    Planner planner(PlanJob{job.spec, job.shape, job.config, job.dataset, job.time_options, job.priors});
    const Ctx c{job,
                settings,
                d,
                compat,
                gpus,
                planner,
                d.cny_per_usd > 0 ? d.cny_per_usd : settings.exchange_rate.cny_per_usd,
                std::vector<CardCache>(gpus.size()),
                std::vector<CountTime>(gpus.size() * job.per_count.size()),
                {}};
    RankResult out;
    // Room for every option: each is built in place, and pointers into the vector (BestRents) stay valid.
    out.options.reserve(gpus.size() * d.buy_counts.size() + 2 * offers.size());
    // Rent options first (the buy options' break-even refers to them).
    add_rent_options(c, offers, out);
    const BestRents best = best_rents(c, out);
    BuyInputs in = shared_buy_inputs(c);
    for (const GpuSpec& gpu : gpus) {
        for (int n : d.buy_counts) {
            if (gpu.laptop && n != 1) continue;  // a laptop holds one GPU: no 2, 4 or 8 of them in one machine
            add_buy(c, gpu, n, in, best, out);
        }
    }
    rank_detail::mark_pareto(out.options);
    rank_detail::order_by_objective(out.options, d.objective);
    return out;
}

// ---- tiers -------------------------------------------------------------------------------------------------------
TierSummary budget_tiers(const RankResult& ranked, const JobModel& job, const CompatData& compat) {
    TierSummary s;
    if (const PreparedCount* p = job.find(1))
        s.min_memory_bytes = (p->required_bytes +
                              job_headroom(p->memory, job.config.batch, 0, true).total_bytes()) /
                             (1.0 - job.config.reserve_fraction);
    double lower = 0;
    for (const BudgetTier& t : compat.budget_tiers) {
        TierResult r;
        r.tier = t;
        r.min_price_cny = lower;
        // `ranked` is ordered by the objective, so the first eligible option in the tier is its best.
        for (const RankOption& o : ranked.options) {
            if (o.kind != OptionKind::kBuy || o.count != 1) continue;
            const double price = o.buy.card_price_cny;
            if (!known(price) || price < lower || (t.max_price_cny > 0 && price >= t.max_price_cny)) continue;
            ++r.card_count;
            if (o.fits) ++r.fitting_count;
            // Within a tier the tier is the budget: the scenario's budget and ownership do not apply here; fit,
            // compatibility and the deadline do.
            const bool candidate = o.fits && known(o.cost_cny) &&
                                   std::none_of(o.reasons.begin(), o.reasons.end(), [](const Reason& x) {
                                       return x.code == ReasonCode::kIncompatible || x.code == ReasonCode::kOverDeadline;
                                   });
            if (r.best == nullptr && candidate) r.best = &o;
        }
        s.tiers.push_back(r);
        if (t.max_price_cny > 0) lower = t.max_price_cny;
    }
    for (const RankOption& o : ranked.options) {
        if (o.kind != OptionKind::kBuy || o.count != 1 || !o.fits || !known(o.buy.card_price_cny)) continue;
        if (s.cheapest_fit == nullptr || o.buy.card_price_cny < s.cheapest_fit->buy.card_price_cny ||
            (o.buy.card_price_cny == s.cheapest_fit->buy.card_price_cny && o.id < s.cheapest_fit->id))
            s.cheapest_fit = &o;
    }
    return s;
}

}  // namespace gg::engine
