// Ranking of buy and rent options, the time-cost frontier and budget tiers (see rank.h). No JSON, no UI.
//
// Sections: names | the prepared job | evaluating options | ordering | tiers
#include "engine/rank.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

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
        case ReasonCode::kCurrencyMismatch: return "currency_mismatch";
        case ReasonCode::kOwnershipExcluded: return "ownership_excluded";
        case ReasonCode::kBreakEven: return "break_even";
        case ReasonCode::kNeverBreaksEven: return "never_breaks_even";
        case ReasonCode::kResaleExtrapolated: return "resale_extrapolated";
        case ReasonCode::kHostShared: return "host_shared";
        case ReasonCode::kLaunchPriceBasis: return "launch_price_basis";
        case ReasonCode::kGlobalBatchChanged: return "global_batch_changed";
        case ReasonCode::kIncompatible: return "incompatible";
        case ReasonCode::kBillingRounded: return "billing_rounded";
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
    for (int n : all) {
        assert(n >= 1 && "prepare_job: card counts must be at least 1");
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
    const TimeReport r = evaluate_time(p->time, job.config.batch, gpu, job.time_options, job.dataset, *job.priors);
    if (status) *status = r.status;
    if (r.status != TimeStatus::kOk || !(r.total_s > 0)) return kNaN;
    return r.total_s;
}

// ---- evaluating options ------------------------------------------------------------------------------------------
namespace {

// Per-card results shared by the options of one card (rent offers repeat cards; buy options repeat counts).
struct CardCache {
    bool have_warnings = false;
    std::vector<CompatWarning> warnings;
    std::vector<std::pair<int, std::pair<double, TimeStatus>>> time_by_count;
};

struct Ctx {
    const JobModel& job;
    const CostSettings& settings;
    const DecisionInputs& d;
    const CompatData& compat;
    const std::vector<GpuSpec>& gpus;
    double cny_per_usd;
    mutable std::vector<CardCache> cache;  // indexed like `gpus`
    CardCache& card(const GpuSpec* g) const { return cache[std::size_t(g - gpus.data())]; }
};

double shown(const Ctx& c, double cny) { return from_cny(cny, c.d.currency, c.cny_per_usd); }

// Memory, compatibility and time: what does not depend on buying or renting.
void evaluate_card(const Ctx& c, RankOption& o) {
    const PreparedCount* p = c.job.find(o.count);
    assert(p != nullptr && "rank_options: every card count must be in prepare_job's counts");
    o.peak_bytes_per_card = p->required_bytes;
    o.usable_bytes_per_card = o.gpu->memory_bytes * (1.0 - c.job.config.reserve_fraction);
    o.fits = o.gpu->memory_bytes > 0 && o.peak_bytes_per_card <= o.usable_bytes_per_card;
    o.reasons.push_back({o.fits ? ReasonCode::kFits : ReasonCode::kDoesNotFit,
                         {{"peak_bytes", o.peak_bytes_per_card},
                          {"usable_bytes", o.usable_bytes_per_card},
                          {"card_bytes", o.gpu->memory_bytes}},
                         {}});
    CardCache& cc = c.card(o.gpu);
    if (!cc.have_warnings) {
        cc.warnings = check_compat(*o.gpu, c.job.needs, c.compat, &c.gpus);
        cc.have_warnings = true;
    }
    o.warnings = cc.warnings;
    for (const CompatWarning& w : o.warnings)
        if (w.severity == Severity::kBlocker) {
            o.reasons.push_back({ReasonCode::kIncompatible, {{"code", double(int(w.code))}}, {}});
            break;
        }
    TimeStatus status = TimeStatus::kOk;
    const auto hit = std::find_if(cc.time_by_count.begin(), cc.time_by_count.end(),
                                  [&](const auto& e) { return e.first == o.count; });
    if (hit != cc.time_by_count.end()) {
        o.time_s = hit->second.first;
        status = hit->second.second;
    } else {
        o.time_s = run_time_s(c.job, *o.gpu, o.count, &status);
        cc.time_by_count.push_back({o.count, {o.time_s, status}});
    }
    if (known(o.time_s)) {
        o.reasons.push_back({ReasonCode::kTime, {{"time_s", o.time_s}, {"project_time_s", o.time_s * c.d.runs}}, {}});
        if (c.job.time_is_floor) o.reasons.push_back({ReasonCode::kTimeIsFloor, {}, {}});
    } else {
        o.reasons.push_back({ReasonCode::kTimeUnknown, {{"status", double(int(status))}}, {}});
    }
    if (o.count != c.job.config.gpu_count) {
        const double per_card = c.job.config.batch * c.job.config.grad_accum_steps;
        o.reasons.push_back({ReasonCode::kGlobalBatchChanged,
                             {{"global_batch", per_card * o.count},
                              {"scenario_global_batch", per_card * c.job.config.gpu_count}},
                             {}});
    }
}

BuyInputs buy_inputs(const Ctx& c, int count, double time_s) {
    BuyInputs b;
    b.card_count = count;
    b.run_time_s = known(time_s) ? time_s : 0;
    b.runs = c.d.runs;
    b.cny_per_usd = c.cny_per_usd;
    b.electricity_price_per_kwh_cny = c.d.electricity_price_per_kwh_cny;
    b.utilization_fraction = c.d.utilization_fraction;
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
    if (c.d.deadline_s > 0 && known(o.time_s) && o.time_s > c.d.deadline_s) {
        o.reasons.push_back({ReasonCode::kOverDeadline, {{"time_s", o.time_s}, {"deadline_s", c.d.deadline_s}}, {}});
        ok = false;
    }
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
        if (!c.d.offer_currency.empty() && o.offer->currency != c.d.offer_currency) {
            o.reasons.push_back({ReasonCode::kCurrencyMismatch, {}, o.offer->currency});
            ok = false;
        }
    }
    o.eligible = ok;
}

// ---- ordering ----------------------------------------------------------------------------------------------------
// Objective metric, smaller is better; NaN = unknown.
double primary(const RankOption& o, Objective obj) {
    switch (obj) {
        case Objective::kCost: return o.cost_cny;
        case Objective::kTime: return o.time_s;
        case Objective::kValue: return o.value > 0 ? -o.value : kNaN;
    }
    return kNaN;
}
double secondary(const RankOption& o, Objective obj) { return obj == Objective::kTime ? o.cost_cny : o.time_s; }

int group(const RankOption& o, Objective obj) {
    if (o.eligible) return known(primary(o, obj)) ? 0 : 1;
    return o.fits ? 2 : 3;
}

bool less_metric(double a, double b) {  // unknown sorts last
    if (known(a) != known(b)) return known(a);
    return known(a) && a < b;
}

}  // namespace

RankResult rank_options(const JobModel& job, const std::vector<GpuSpec>& gpus, const std::vector<CloudOffer>& offers,
                        const CostSettings& settings, const DecisionInputs& d, const CompatData& compat) {
    assert(d.runs >= 1 && "rank_options: runs must be at least 1");
    const Ctx c{job, settings, d, compat, gpus, d.cny_per_usd > 0 ? d.cny_per_usd : settings.exchange_rate.cny_per_usd,
                std::vector<CardCache>(gpus.size())};
    RankResult out;
    out.options.reserve(gpus.size() * d.buy_counts.size() + offers.size());

    // Rent options first (the buy options' break-even refers to them).
    for (const CloudOffer& offer : offers) {
        const GpuSpec* gpu = nullptr;
        for (const GpuSpec& g : gpus)
            if (g.id == offer.gpu_id) gpu = &g;
        if (gpu == nullptr || job.find(offer.gpu_count) == nullptr) continue;
        RankOption o;
        o.reasons.reserve(8);
        o.kind = OptionKind::kRent;
        o.gpu = gpu;
        o.count = offer.gpu_count;
        o.offer = &offer;
        o.id = "rent:" + offer.id;
        evaluate_card(c, o);
        if (known(o.time_s)) {
            RentInputs in;
            in.run_time_s = o.time_s;
            in.runs = d.runs;
            in.storage_bytes = d.storage_bytes;
            in.storage_price_per_gb_month_cny = settings.storage.price_per_gb_month_cny;
            in.cny_per_usd = c.cny_per_usd;
            o.rent = rent_cost(offer, in);
            o.cost_cny = o.rent.total_cny;
            o.cash_cny = o.cost_cny;
            if (o.rent.billed_s_per_run > o.time_s * 1.01)
                o.reasons.push_back({ReasonCode::kBillingRounded,
                                     {{"billed_s", o.rent.billed_s_per_run}, {"run_time_s", o.time_s}}, {}});
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
        out.options.push_back(std::move(o));
    }
    const std::size_t rent_end = out.options.size();
    // The rent each buy option's break-even is measured against: the cheapest fitting hourly rent of the same
    // model, else the cheapest fitting hourly rent of any model.
    std::vector<const RankOption*> best_rent_of(gpus.size(), nullptr);
    const RankOption* best_rent_any = nullptr;
    // Equal costs are broken by id, so the choice does not depend on the order of the catalog's offers.
    auto cheaper = [](const RankOption& a, const RankOption* b) {
        return b == nullptr || a.cost_cny < b->cost_cny || (a.cost_cny == b->cost_cny && a.id < b->id);
    };
    for (std::size_t i = 0; i < rent_end; ++i) {
        const RankOption& r = out.options[i];
        if (!r.fits || !known(r.cost_cny) || r.offer->billing == Billing::Monthly) continue;  // per hour of use
        const RankOption*& same = best_rent_of[std::size_t(r.gpu - gpus.data())];
        if (cheaper(r, same)) same = &r;
        if (cheaper(r, best_rent_any)) best_rent_any = &r;
    }

    for (const GpuSpec& gpu : gpus) {
        for (int n : d.buy_counts) {
            if (job.find(n) == nullptr) continue;
            RankOption o;
            o.reasons.reserve(10);
            o.kind = OptionKind::kBuy;
            o.gpu = &gpu;
            o.count = n;
            o.id = "buy:" + gpu.id + ":" + std::to_string(n);
            evaluate_card(c, o);
            const BuyInputs in = buy_inputs(c, n, o.time_s);
            o.buy = buy_cost(gpu, in);
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
            if (n > 1) o.reasons.push_back({ReasonCode::kHostShared, {{"count", double(n)}}, {}});
            const auto& pts = settings.resale_value.points;
            if (!pts.empty() && o.buy.ownership_months > pts.back().age_months)
                o.reasons.push_back({ReasonCode::kResaleExtrapolated,
                                     {{"ownership_months", o.buy.ownership_months},
                                      {"last_point_months", pts.back().age_months}},
                                     {}});
            // Break-even against the cheapest fitting rent of the same model, else the cheapest fitting rent.
            if (known(o.time_s) && known(o.buy.total_cny)) {
                const RankOption* best_same = best_rent_of[std::size_t(&gpu - gpus.data())];
                const RankOption* best_any = best_rent_any;
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
            finish_cost(c, o);
            apply_filters(c, o);
            out.options.push_back(std::move(o));
        }
    }

    // Pareto frontier of (time, cost) among eligible options with both known: nobody else is at least as good in
    // both and strictly better in one. Sweep in (time, cost) order keeping the lowest cost seen: O(n log n).
    {
        std::vector<RankOption*> pts;
        for (RankOption& a : out.options)
            if (a.eligible && known(a.time_s) && known(a.cost_cny)) pts.push_back(&a);
        std::sort(pts.begin(), pts.end(), [](const RankOption* a, const RankOption* b) {
            return a->time_s != b->time_s ? a->time_s < b->time_s : a->cost_cny < b->cost_cny;
        });
        double best_cost = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < pts.size(); ++i) {
            RankOption* a = pts[i];
            // Earlier points have time <= a's. Dominated iff one of them costs less, or costs the same and is
            // strictly faster; an identical (time, cost) twin of a frontier point stays on the frontier.
            const bool same_as_prev = i > 0 && pts[i - 1]->time_s == a->time_s && pts[i - 1]->cost_cny == a->cost_cny;
            a->pareto = a->cost_cny < best_cost || (same_as_prev && pts[i - 1]->pareto);
            best_cost = std::min(best_cost, a->cost_cny);
        }
    }

    // Sort indices (RankOption is large), then move the options once into that order.
    const Objective obj = d.objective;
    std::vector<std::size_t> order(out.options.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    const std::vector<RankOption>& all = out.options;
    std::sort(order.begin(), order.end(), [obj, &all](std::size_t ia, std::size_t ib) {
        const RankOption& a = all[ia];
        const RankOption& b = all[ib];
        const int ga = group(a, obj), gb = group(b, obj);
        if (ga != gb) return ga < gb;
        const double pa = primary(a, obj), pb = primary(b, obj);
        if (less_metric(pa, pb)) return true;
        if (less_metric(pb, pa)) return false;
        const double sa = secondary(a, obj), sb = secondary(b, obj);
        if (less_metric(sa, sb)) return true;
        if (less_metric(sb, sa)) return false;
        return a.id < b.id;  // ids are unique: a total order, so the result is stable
    });
    std::vector<RankOption> sorted;
    sorted.reserve(order.size());
    for (std::size_t i : order) sorted.push_back(std::move(out.options[i]));
    out.options = std::move(sorted);
    return out;
}

// ---- tiers -------------------------------------------------------------------------------------------------------
TierSummary budget_tiers(const RankResult& ranked, const JobModel& job, const CompatData& compat) {
    TierSummary s;
    if (const PreparedCount* p = job.find(1))
        s.min_memory_bytes = p->required_bytes / (1.0 - job.config.reserve_fraction);
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
