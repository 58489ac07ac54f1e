// Rent and buy costs, resale interpolation and break-even (see cost.h). No JSON, no UI.
#include "engine/cost.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace gg::engine {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

const char* currency_code(Currency currency) { return currency == Currency::kUsd ? "USD" : "CNY"; }

double to_cny(double amount, const std::string& code, double cny_per_usd) {
    if (code == "CNY") return amount;
    if (code == "USD") return cny_per_usd > 0 ? amount * cny_per_usd : kNaN;
    return kNaN;
}

double from_cny(double amount_cny, Currency currency, double cny_per_usd) {
    if (currency == Currency::kCny) return amount_cny;
    return cny_per_usd > 0 ? amount_cny / cny_per_usd : kNaN;
}

// ---- sessions ------------------------------------------------------------------------------------------------
const char* session_status_name(SessionStatus status) {
    switch (status) {
        case SessionStatus::kOk: return "ok";
        case SessionStatus::kSessionTooShort: return "session_too_short";
        case SessionStatus::kNeedsCheckpoints: return "needs_checkpoints";
        case SessionStatus::kTooManyInterruptions: return "too_many_interruptions";
    }
    return "ok";
}

namespace {
constexpr double kWeekS = 7.0 * 24 * 3600;
}

SessionPlan plan_sessions(const SessionLimits& limits, const SessionInputs& in) {
    assert(in.run_time_s >= 0 && "plan_sessions: run_time_s must not be negative");
    SessionPlan p;
    const double work_s = in.run_time_s;
    // Downloads: bytes / bandwidth, paid again in every session (a fresh machine: Colab's and Kaggle's VMs start
    // empty, a released rental's disk is gone). Unknown bandwidth: not counted, and said so.
    if (in.download_bytes > 0) {
        if (in.download_bytes_per_s > 0) p.download_s_per_session = in.download_bytes / in.download_bytes_per_s;
        else p.download_unknown = true;
    }
    const bool saves = in.checkpointing && in.checkpoint_bytes > 0;
    // One save (or one load when resuming): checkpoint bytes / disk write speed (loads taken at the same speed).
    double save_s = 0;
    if (saves) {
        if (in.checkpoint_write_bytes_per_s > 0) save_s = in.checkpoint_bytes / in.checkpoint_write_bytes_per_s;
        else p.checkpoint_time_unknown = true;
    }
    const double first_overhead_s = in.start_s + in.setup_s + p.download_s_per_session;
    const double resume_overhead_s = first_overhead_s + save_s;  // + loading the checkpoint back
    p.overhead_s_per_session = first_overhead_s;

    double session_s = 0;  // what the sessions hold, before quotas
    if (in.interruptions_per_s > 0) {
        // Random preemptions at rate lambda (spot). Expected wall-clock time of work W split into segments of tau, each
        // followed by a save of C, restarting after each failure with a restart cost R: Daly 2006 ("A higher order
        // estimate of the optimum checkpoint interval for restart dumps", Future Gener. Comput. Syst. 22(3), eq. 13):
        //   T = (W / tau) x e^(lambda R) x (e^(lambda (tau + C)) - 1) / lambda.
        // tau = sqrt(2 C / lambda), Young's first-order optimum (Young 1974, CACM 17(9)); without checkpoints the
        // whole run is one segment (tau = W, C = 0).
        const double lambda = in.interruptions_per_s;
        const double tau = saves ? std::sqrt(2.0 * save_s / lambda) : work_s;
        const double c = saves ? save_s : 0.0;
        const double segments = tau > 0 ? work_s / tau : 0.0;
        const double exponent = lambda * (tau + c);
        if (exponent > 50) {  // e^50 restarts per segment: the run never finishes in practice
            p.status = SessionStatus::kTooManyInterruptions;
            p.sessions = 0;
            return p;
        }
        const double expected_s = tau > 0 ? segments * std::exp(lambda * resume_overhead_s) * std::expm1(exponent) / lambda
                                          : work_s;  // free, instant saves: nothing is ever lost
        p.checkpoint_interval_s = saves ? tau : 0.0;
        p.checkpoint_saves = saves ? std::ceil(segments - 1e-9) : 0.0;
        p.checkpoint_s = p.checkpoint_saves * save_s;
        p.interruptions = lambda * expected_s;
        const double restarts_s = p.interruptions * resume_overhead_s;
        p.lost_work_s = std::max(0.0, expected_s - work_s - p.checkpoint_s - restarts_s);
        p.overhead_s = first_overhead_s + restarts_s;
        p.sessions = 1 + p.interruptions;
        session_s = expected_s + first_overhead_s;
    } else if (limits.max_session_s > 0 && work_s + first_overhead_s > limits.max_session_s) {
        // Sessions that end at a fixed length (a free tier): the job saves just before each end and resumes in the
        // next, which repeats start, setup and downloads and loads the checkpoint.
        const double first_work_s = limits.max_session_s - first_overhead_s - save_s;
        const double next_work_s = limits.max_session_s - resume_overhead_s - save_s;
        if (first_work_s <= 0 || next_work_s <= 0) {
            p.status = SessionStatus::kSessionTooShort;
            p.sessions = 0;
        } else if (!in.checkpointing) {
            p.status = SessionStatus::kNeedsCheckpoints;
            p.sessions = 0;
        } else {
            const double more = std::ceil((work_s - first_work_s) / next_work_s - 1e-9);
            p.sessions = 1 + std::max(0.0, more);
            p.checkpoint_saves = p.sessions - 1;
            p.checkpoint_s = p.checkpoint_saves * 2 * save_s;  // a save at each end, a load at each resume
            p.overhead_s = first_overhead_s + (p.sessions - 1) * first_overhead_s;
            session_s = work_s + p.overhead_s + p.checkpoint_s;
        }
    } else {
        p.overhead_s = first_overhead_s;
        session_s = work_s + first_overhead_s;
    }
    p.session_s = session_s;
    // Weekly quota (Kaggle): the sessions' GPU time is drawn from it; past it the job waits for the next week.
    // Calendar: whole weeks waited + the last week's share (the quota taken as used at the start of each week).
    p.calendar_s = session_s;
    if (limits.gpu_s_per_week > 0 && session_s > 0) {
        p.weeks = session_s / limits.gpu_s_per_week;
        const double waited_weeks = std::ceil(p.weeks - 1e-9) - 1;
        if (waited_weeks > 0) p.calendar_s = waited_weeks * kWeekS + (session_s - waited_weeks * limits.gpu_s_per_week);
    }
    return p;
}

// ---- rent ----------------------------------------------------------------------------------------------------
RentCost rent_cost(const CloudOffer& offer, const RentInputs& in) {
    assert(in.runs >= 1 && "rent_cost: runs must be at least 1 (the scenario's 'runs')");
    assert(in.run_time_s >= 0 && "rent_cost: run_time_s must not be negative");
    RentCost c;
    const double granule_s = offer.billing_granularity_s > 0 ? offer.billing_granularity_s : 1.0;
    // Each session is a separate rental: the provider rounds its duration up to the billed unit.
    const double sessions = in.sessions != nullptr && in.sessions->sessions >= 1 ? in.sessions->sessions : 1.0;
    const double held_s = in.sessions != nullptr ? in.sessions->session_s : in.run_time_s;
    const double per_session_s = held_s / sessions;
    double units_per_session = std::ceil(per_session_s / granule_s - 1e-9);  // 1e-9: 3600.0/3600 stays 1, not 2
    if (units_per_session < 1 && per_session_s > 0) units_per_session = 1;
    c.billed_units_per_run = units_per_session * sessions;
    c.billed_s_per_run = c.billed_units_per_run * granule_s;
    // Price of one granule: monthly offers quote per month, free tiers nothing, the rest per hour (prorated).
    const double granule_price = offer.billing == Billing::Free ? 0.0
                                 : offer.billing == Billing::Monthly && offer.price_per_month > 0
                                     ? offer.price_per_month * (granule_s / kStorageMonthS)
                                     : offer.price_per_hour * granule_s / 3600.0;
    // A free offer costs 0 in any currency, with or without an exchange rate.
    const double per_run_cny = offer.billing == Billing::Free
                                   ? 0.0
                                   : to_cny(c.billed_units_per_run * granule_price, offer.currency, in.cny_per_usd);
    c.compute_cny = per_run_cny * in.runs;
    // The bill by term, at the price of a billed second (rounding takes what the terms leave).
    const double per_s_cny = c.billed_s_per_run > 0 ? per_run_cny / c.billed_s_per_run : 0.0;
    const double runs = in.runs;
    if (in.sessions != nullptr) {
        c.training_cny = per_s_cny * in.run_time_s * runs;
        c.overhead_cny = per_s_cny * in.sessions->overhead_s * runs;
        c.checkpoint_cny = per_s_cny * in.sessions->checkpoint_s * runs;
        c.lost_work_cny = per_s_cny * in.sessions->lost_work_s * runs;
    } else {
        c.training_cny = per_s_cny * in.run_time_s * runs;
    }
    // Billed time is never below the time held, so a negative rest is floating-point noise.
    c.rounding_cny = std::max(0.0, c.compute_cny - c.training_cny - c.overhead_cny - c.checkpoint_cny - c.lost_work_cny);
    // Storage is kept while the instance is billed: 10^9-byte GB x 30-day months x price.
    const double months = in.runs * c.billed_s_per_run / kStorageMonthS;
    c.storage_cny = in.storage_bytes > 0 ? in.storage_bytes / 1e9 * months * in.storage_price_per_gb_month_cny : 0;
    c.total_cny = c.compute_cny + c.storage_cny;
    return c;
}

// ---- buy -----------------------------------------------------------------------------------------------------
const char* price_basis_name(PriceBasis basis) {
    switch (basis) {
        case PriceBasis::kStreetNew: return "street_new";
        case PriceBasis::kLaunchUsd: return "launch_usd";
        case PriceBasis::kUnknown: break;
    }
    return "unknown";
}

double resale_fraction_at(const ResaleValue& resale, double age_months) {
    const auto& p = resale.points;
    if (p.empty()) return 0;
    if (age_months <= p.front().age_months || p.size() == 1) return p.front().value_fraction;
    for (std::size_t i = 1; i < p.size(); ++i) {
        if (age_months <= p[i].age_months) {
            const double t = (age_months - p[i - 1].age_months) / (p[i].age_months - p[i - 1].age_months);
            return p[i - 1].value_fraction + t * (p[i].value_fraction - p[i - 1].value_fraction);
        }
    }
    // Past the last point: extend the last segment (no data there), never below 0.
    const ResalePoint& a = p[p.size() - 2];
    const ResalePoint& b = p.back();
    const double slope = (b.value_fraction - a.value_fraction) / (b.age_months - a.age_months);
    return std::max(0.0, b.value_fraction + slope * (age_months - b.age_months));
}

double card_price_cny(const GpuSpec& gpu, double cny_per_usd, PriceBasis& basis) {
    if (gpu.street_price.new_cny > 0) {
        basis = PriceBasis::kStreetNew;
        return gpu.street_price.new_cny;
    }
    if (gpu.launch_price_usd > 0 && cny_per_usd > 0) {
        basis = PriceBasis::kLaunchUsd;
        return gpu.launch_price_usd * cny_per_usd;
    }
    basis = PriceBasis::kUnknown;
    return kNaN;
}

BuyCost buy_cost(const GpuSpec& gpu, const BuyInputs& in) {
    assert(in.card_count >= 1 && "buy_cost: card_count must be at least 1");
    assert(in.runs >= 1 && "buy_cost: runs must be at least 1 (the scenario's 'runs')");
    assert(in.gpu_hours_per_month > 0 && in.gpu_hours_per_month <= kHoursPerMonth * (1 + 1e-9) &&
           "buy_cost: gpu_hours_per_month must be in (0, kHoursPerMonth] (the scenario's gpu_hours_per_month)");
    BuyCost c;
    c.card_price_cny = card_price_cny(gpu, in.cny_per_usd, c.basis);
    c.cards_cny = c.card_price_cny * in.card_count;
    c.host_cny = in.host.cost_cny;
    c.purchase_cny = c.cards_cny + c.host_cny;
    // Power while training: every card at its board power (TDP) plus the host's average draw.
    c.power_w = gpu.tdp_w * in.card_count + in.host.power_w;
    c.training_hours = in.runs * in.run_time_s / 3600.0;
    // Calendar time the cards are owned: the project's training hours at the user's GPU-hours per month.
    c.ownership_months = in.ownership_months > 0 ? in.ownership_months : c.training_hours / in.gpu_hours_per_month;
    c.resale_fraction = resale_fraction_at(in.resale, c.ownership_months);
    c.resale_cny = c.cards_cny * c.resale_fraction;
    // kWh = W x h / 1000.
    c.electricity_cny = c.power_w * c.training_hours / 1000.0 * in.electricity_price_per_kwh_cny;
    c.total_cny = c.purchase_cny - c.resale_cny + c.electricity_cny;
    return c;
}

// ---- break-even ----------------------------------------------------------------------------------------------
namespace {

// The sign of d(N) = rent(N) - buy(N) where it is certain, so that the search evaluates d exactly only near its
// root (about 4 evaluations instead of about 44). On each segment of the resale curve d is affine in N (months grow
// linearly with N, or are fixed); the model below is that function, written with per-run rates and slopes instead
// of break_even's divisions, so the two differ by rounding only: under 1e-14 of the sum of the magnitudes of their
// terms (about 30 roundings of at most 2^-53 each). Where the model's |d| exceeds kMarginFraction (1e-12) of that
// sum, break_even's own d has the model's sign, so the search takes the same steps and ends on the same bits as
// with d everywhere. A wider margin would only mean more exact evaluations.
class DiffSignModel {
public:
    DiffSignModel(const std::vector<ResalePoint>& points, double fixed_months, double months_per_run,
                  double purchase_cny, double cards_cny, double rent_per_run_cny, double power_per_run_cny)
        : p_(points), fixed_months_(fixed_months), months_per_run_(months_per_run), purchase_cny_(purchase_cny),
          cards_cny_(cards_cny), rent_per_run_cny_(rent_per_run_cny), power_per_run_cny_(power_per_run_cny) {
        // A curve that starts before age 0 or whose ages do not strictly ascend (outside the bound above): no model.
        double max_abs_slope = 0, max_abs_fraction = 0;
        if (!p_.empty() && !(p_.front().age_months >= 0)) usable_ = false;
        for (std::size_t i = 1; i < p_.size(); ++i) {
            const double s = slope(p_[i - 1], p_[i]);
            if (!(p_[i].age_months > p_[i - 1].age_months) || !std::isfinite(s)) usable_ = false;
            max_abs_slope = std::max(max_abs_slope, std::abs(s));
        }
        for (const ResalePoint& q : p_) max_abs_fraction = std::max(max_abs_fraction, std::abs(q.value_fraction));
        if (usable_ && p_.size() >= 2) seg_slope_ = slope(p_[0], p_[1]);
        // The sum of the magnitudes of d's terms is at most margin_fixed_ + runs x margin_per_run_ (runs >= 0):
        // rent, purchase, power, and the resale with its slope (months are fixed or runs x months_per_run).
        const double fixed = fixed_months > 0 ? fixed_months : 0;
        const double per_run = fixed_months > 0 ? 0 : months_per_run;
        margin_fixed_ = kMarginFraction * (std::abs(purchase_cny) +
                                           std::abs(cards_cny) * (max_abs_fraction + max_abs_slope * fixed));
        margin_per_run_ = kMarginFraction * (std::abs(rent_per_run_cny) + std::abs(power_per_run_cny) +
                                             std::abs(cards_cny) * max_abs_slope * std::abs(per_run));
    }

    // -1: d(runs) < 0, +1: d(runs) >= 0, 0: too close to call (or no model): evaluate d. runs >= 0.
    int sign(double runs) {
        if (!usable_) return 0;
        const double months = fixed_months_ > 0 ? fixed_months_ : runs * months_per_run_;
        const double d = runs * rent_per_run_cny_ -
                         (purchase_cny_ - cards_cny_ * resale_fraction(months) + runs * power_per_run_cny_);
        const double margin = margin_fixed_ + runs * margin_per_run_;
        return int(d > margin) - int(d < -margin);  // 0 also when anything is NaN; no branch on the coin-toss sign
    }

private:
    // resale_fraction_at's curve; the segment of the last call is tried first (the search narrows on one point).
    double resale_fraction(double months) {
        if (p_.empty()) return 0;
        if (months <= p_.front().age_months || p_.size() == 1) return p_.front().value_fraction;
        if (!(months > p_[seg_ - 1].age_months && months <= p_[seg_].age_months)) {
            std::size_t i = 1;
            while (i < p_.size() && months > p_[i].age_months) ++i;
            if (i == p_.size()) {  // past the last point: the last segment extended, never below 0
                const ResalePoint& a = p_[p_.size() - 2];
                const ResalePoint& b = p_.back();
                return std::max(0.0, b.value_fraction + slope(a, b) * (months - b.age_months));
            }
            seg_ = i;
            seg_slope_ = slope(p_[i - 1], p_[i]);
        }
        return p_[seg_ - 1].value_fraction + (months - p_[seg_ - 1].age_months) * seg_slope_;
    }
    static double slope(const ResalePoint& a, const ResalePoint& b) {
        return (b.value_fraction - a.value_fraction) / (b.age_months - a.age_months);
    }

    const std::vector<ResalePoint>& p_;
    double fixed_months_, months_per_run_, purchase_cny_, cards_cny_, rent_per_run_cny_, power_per_run_cny_;
    bool usable_ = true;
    static constexpr double kMarginFraction = 1e-12;  // 100x the rounding bound (see above)
    double margin_fixed_ = 0, margin_per_run_ = 0;
    std::size_t seg_ = 1;      // the segment (p_[seg_ - 1], p_[seg_]) of the last call
    double seg_slope_ = kNaN;  // its slope (fraction per month)
};

}  // namespace

BreakEven break_even(const GpuSpec& gpu, const BuyInputs& buy_in, const CloudOffer& offer, double rent_run_time_s) {
    BreakEven be;
    if (!(buy_in.run_time_s > 0) || !(rent_run_time_s > 0)) return be;
    const double rent_per_hour_cny = to_cny(offer.price_per_hour, offer.currency, buy_in.cny_per_usd);
    if (!std::isfinite(rent_per_hour_cny)) return be;
    // d(N) = rent(N) - buy(N), continuous in N (runs); buy(N) is evaluated with the resale at N's ownership.
    // Same formula as buy_cost (purchase - resale + electricity), inlined so the search does not copy the inputs.
    PriceBasis basis;
    const double cards_cny = card_price_cny(gpu, buy_in.cny_per_usd, basis) * buy_in.card_count;
    const double purchase_cny = cards_cny + buy_in.host.cost_cny;
    const double power_w = gpu.tdp_w * buy_in.card_count + buy_in.host.power_w;
    auto months_at = [&](double runs) {
        return buy_in.ownership_months > 0
                   ? buy_in.ownership_months
                   : runs * buy_in.run_time_s / 3600.0 / buy_in.gpu_hours_per_month;
    };
    auto buy_at = [&](double runs) {
        const double hours = runs * buy_in.run_time_s / 3600.0;
        return purchase_cny - cards_cny * resale_fraction_at(buy_in.resale, months_at(runs)) +
               power_w * hours / 1000.0 * buy_in.electricity_price_per_kwh_cny;
    };
    auto diff = [&](double runs) { return runs * rent_run_time_s / 3600.0 * rent_per_hour_cny - buy_at(runs); };
    if (!std::isfinite(buy_at(1.0))) return be;
    // Runs that fill the horizon at the GPU-hours per month (or 1e6 runs when ownership is fixed).
    const double horizon_runs = buy_in.ownership_months > 0
                                    ? 1e6
                                    : kBreakEvenHorizonMonths * buy_in.gpu_hours_per_month * 3600.0 / buy_in.run_time_s;
    // Walk up in doublings to the first N with d(N) >= 0, then bisect (d may dip as resale flattens: the walk
    // finds the first crossing on its grid; the bisection refines it).
    // Start at a lower bound: with resale at its month-0 value, buy(N) >= purchase - cards x resale(0) + power x N,
    // so d(N) < 0 below N0 = (purchase - cards x resale(0)) / (rent - power per run).
    const double rent_per_run = rent_run_time_s / 3600.0 * rent_per_hour_cny;
    const double power_per_run = power_w * buy_in.run_time_s / 3600.0 / 1000.0 * buy_in.electricity_price_per_kwh_cny;
    const double sunk0 = purchase_cny - cards_cny * resale_fraction_at(buy_in.resale, 0);
    // d(N) < 0, decided by the model where it is certain (3-4x fewer evaluations of d; see DiffSignModel).
    DiffSignModel model(buy_in.resale.points, buy_in.ownership_months,
                        buy_in.run_time_s / 3600.0 / buy_in.gpu_hours_per_month, purchase_cny,
                        cards_cny, rent_per_run, power_per_run);
    auto below = [&](double runs) {
        const int s = model.sign(runs);
        return s != 0 ? s < 0 : diff(runs) < 0;
    };
    double lo = 0, hi = std::min(1e-3, horizon_runs);
    if (rent_per_run > power_per_run && sunk0 > 0) {
        lo = std::min(sunk0 / (rent_per_run - power_per_run), horizon_runs) * (1 - 1e-12);
        hi = std::min(std::max(2 * lo, 1e-3), horizon_runs);
    }
    while (below(hi)) {
        lo = hi;
        if (hi >= horizon_runs) return be;
        hi = std::min(hi * 2.0, horizon_runs);
    }
    for (int i = 0; i < 40; ++i) {  // the bracket is a factor 2 wide: 2^-40 relative precision
        const double mid = 0.5 * (lo + hi);
        const bool mid_below = below(mid);
        lo = mid_below ? mid : lo;  // selects, not a branch: the sign is a coin toss to the branch predictor
        hi = mid_below ? hi : mid;
    }
    be.exists = true;
    be.runs = hi;
    be.training_hours = hi * buy_in.run_time_s / 3600.0;
    be.months = months_at(hi);
    return be;
}

}  // namespace gg::engine
