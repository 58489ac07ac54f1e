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

// ---- rent ----------------------------------------------------------------------------------------------------
RentCost rent_cost(const CloudOffer& offer, const RentInputs& in) {
    assert(in.runs >= 1 && "rent_cost: runs must be at least 1 (the scenario's 'runs')");
    assert(in.run_time_s >= 0 && "rent_cost: run_time_s must not be negative");
    RentCost c;
    const double granule_s = offer.billing_granularity_s > 0 ? offer.billing_granularity_s : 1.0;
    // Each run is a separate rental: the provider rounds its duration up to the billed unit.
    c.billed_units_per_run = std::ceil(in.run_time_s / granule_s - 1e-9);  // 1e-9: 3600.0/3600 stays 1, not 2
    if (c.billed_units_per_run < 1 && in.run_time_s > 0) c.billed_units_per_run = 1;
    c.billed_s_per_run = c.billed_units_per_run * granule_s;
    // Price of one granule: monthly offers quote per month, the rest per hour (prorated to the granule).
    const double granule_price = offer.billing == Billing::Monthly && offer.price_per_month > 0
                                     ? offer.price_per_month * (granule_s / kStorageMonthS)
                                     : offer.price_per_hour * granule_s / 3600.0;
    const double per_run_cny = to_cny(c.billed_units_per_run * granule_price, offer.currency, in.cny_per_usd);
    c.compute_cny = per_run_cny * in.runs;
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
    assert(in.utilization_fraction > 0 && in.utilization_fraction <= 1 &&
           "buy_cost: utilization_fraction must be in (0, 1] (settings.utilization_fraction)");
    BuyCost c;
    c.card_price_cny = card_price_cny(gpu, in.cny_per_usd, c.basis);
    c.cards_cny = c.card_price_cny * in.card_count;
    c.host_cny = in.host.cost_cny;
    c.purchase_cny = c.cards_cny + c.host_cny;
    // Power while training: every card at its board power (TDP) plus the host's average draw.
    c.power_w = gpu.tdp_w * in.card_count + in.host.power_w;
    c.training_hours = in.runs * in.run_time_s / 3600.0;
    // Calendar time the cards are owned: the project's training hours spread at the utilization.
    c.ownership_months = in.ownership_months > 0
                             ? in.ownership_months
                             : c.training_hours / in.utilization_fraction / kHoursPerMonth;
    c.resale_fraction = resale_fraction_at(in.resale, c.ownership_months);
    c.resale_cny = c.cards_cny * c.resale_fraction;
    // kWh = W x h / 1000.
    c.electricity_cny = c.power_w * c.training_hours / 1000.0 * in.electricity_price_per_kwh_cny;
    c.total_cny = c.purchase_cny - c.resale_cny + c.electricity_cny;
    return c;
}

// ---- break-even ----------------------------------------------------------------------------------------------
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
                   : runs * buy_in.run_time_s / 3600.0 / buy_in.utilization_fraction / kHoursPerMonth;
    };
    auto buy_at = [&](double runs) {
        const double hours = runs * buy_in.run_time_s / 3600.0;
        return purchase_cny - cards_cny * resale_fraction_at(buy_in.resale, months_at(runs)) +
               power_w * hours / 1000.0 * buy_in.electricity_price_per_kwh_cny;
    };
    auto diff = [&](double runs) { return runs * rent_run_time_s / 3600.0 * rent_per_hour_cny - buy_at(runs); };
    if (!std::isfinite(buy_at(1.0))) return be;
    // Runs that fill the horizon at the utilization (or 1e6 runs when ownership is fixed).
    const double horizon_runs = buy_in.ownership_months > 0
                                    ? 1e6
                                    : kBreakEvenHorizonMonths * kHoursPerMonth * buy_in.utilization_fraction * 3600.0 /
                                          buy_in.run_time_s;
    // Walk up in doublings to the first N with d(N) >= 0, then bisect (d may dip as resale flattens: the walk
    // finds the first crossing on its grid; the bisection refines it).
    // Start at a lower bound: with resale at its month-0 value, buy(N) >= purchase - cards x resale(0) + power x N,
    // so d(N) < 0 below N0 = (purchase - cards x resale(0)) / (rent - power per run).
    const double rent_per_run = rent_run_time_s / 3600.0 * rent_per_hour_cny;
    const double power_per_run = power_w * buy_in.run_time_s / 3600.0 / 1000.0 * buy_in.electricity_price_per_kwh_cny;
    const double sunk0 = purchase_cny - cards_cny * resale_fraction_at(buy_in.resale, 0);
    double lo = 0, hi = std::min(1e-3, horizon_runs);
    if (rent_per_run > power_per_run && sunk0 > 0) {
        lo = std::min(sunk0 / (rent_per_run - power_per_run), horizon_runs) * (1 - 1e-12);
        hi = std::min(std::max(2 * lo, 1e-3), horizon_runs);
    }
    while (diff(hi) < 0) {
        lo = hi;
        if (hi >= horizon_runs) return be;
        hi = std::min(hi * 2.0, horizon_runs);
    }
    for (int i = 0; i < 40; ++i) {  // the bracket is a factor 2 wide: 2^-40 relative precision
        const double mid = 0.5 * (lo + hi);
        if (diff(mid) < 0) lo = mid; else hi = mid;
    }
    be.exists = true;
    be.runs = hi;
    be.training_hours = hi * buy_in.run_time_s / 3600.0;
    be.months = months_at(hi);
    return be;
}

}  // namespace gg::engine
