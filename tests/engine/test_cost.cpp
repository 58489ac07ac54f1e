// Cost engine against hand-computed cases: rent with billing granularity, storage and currency; buy with host,
// electricity and interpolated resale; break-even. Each case writes its arithmetic next to the expected value.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/cost.h"

using namespace gg::engine;
using doctest::Approx;

namespace {

CloudOffer offer(double price_per_hour, const char* currency, double granularity_s, Billing billing = Billing::OnDemand) {
    CloudOffer o;
    o.id = "test-offer";
    o.gpu_id = "test-gpu";
    o.price_per_hour = price_per_hour;
    o.currency = currency;
    o.billing_granularity_s = granularity_s;
    o.billing = billing;
    return o;
}

ResaleValue brief_curve() {  // data/settings.json's placeholder curve
    ResaleValue r;
    r.points = {{0, 1.0}, {12, 0.75}, {24, 0.6}, {36, 0.45}};
    return r;
}

}  // namespace

TEST_CASE("cost: currency converts through CNY at the given rate and refuses what it cannot convert") {
    CHECK(to_cny(10, "USD", 7.0) == Approx(70));
    CHECK(to_cny(10, "CNY", 0) == Approx(10));
    CHECK(std::isnan(to_cny(10, "USD", 0)));  // no rate: unknown, never a silent 1:1
    CHECK(std::isnan(to_cny(10, "EUR", 7.0)));
    CHECK(from_cny(70, Currency::kUsd, 7.0) == Approx(10));
    CHECK(std::isnan(from_cny(70, Currency::kUsd, 0)));
}

TEST_CASE("cost: rent cost rounds each run up to the billed unit and adds storage") {
    SUBCASE("hourly billing, three runs of 1.5 h, 100 GB disk") {
        RentInputs in;
        in.run_time_s = 5400;  // 1.5 h
        in.runs = 3;
        in.storage_bytes = 100e9;
        in.storage_price_per_gb_month_cny = 0.3;
        const RentCost c = rent_cost(offer(2.0, "CNY", 3600), in);
        CHECK(c.billed_units_per_run == 2);          // ceil(5400 / 3600) = 2 hours
        CHECK(c.billed_s_per_run == Approx(7200));
        CHECK(c.compute_cny == Approx(12.0));        // 3 runs x 2 h x 2.0 CNY/h
        // storage: 100 GB x (3 x 7200 s / 2,592,000 s per 30-day month = 0.0083333 months) x 0.3 = 0.25 CNY
        CHECK(c.storage_cny == Approx(0.25));
        CHECK(c.total_cny == Approx(12.25));
    }
    SUBCASE("a run of exactly one hour is billed one hour, not two") {
        RentInputs in;
        in.run_time_s = 3600;
        const RentCost c = rent_cost(offer(2.0, "CNY", 3600), in);
        CHECK(c.billed_units_per_run == 1);
        CHECK(c.total_cny == Approx(2.0));
    }
    SUBCASE("per-second billing in USD") {
        RentInputs in;
        in.run_time_s = 1000.4;
        in.cny_per_usd = 7.0;
        const RentCost c = rent_cost(offer(55.04, "USD", 1), in);
        CHECK(c.billed_s_per_run == Approx(1001));   // ceil(1000.4 s)
        // 55.04 USD/h x 1001 s / 3600 s/h = 15.30418 USD x 7.0 CNY/USD = 107.1292 CNY
        CHECK(c.total_cny == Approx(107.1292).epsilon(1e-6));
    }
    SUBCASE("monthly billing bills whole months") {
        CloudOffer o = offer(6.494, "CNY", 2592000, Billing::Monthly);
        o.price_per_month = 4675.66;
        RentInputs in;
        in.run_time_s = 40 * 86400.0;  // 40 days -> 2 months of 30 days
        const RentCost c = rent_cost(o, in);
        CHECK(c.billed_units_per_run == 2);
        CHECK(c.total_cny == Approx(9351.32));  // 2 x 4675.66
    }
    SUBCASE("a USD offer without an exchange rate has no CNY cost") {
        RentInputs in;
        in.run_time_s = 3600;
        CHECK(std::isnan(rent_cost(offer(1.0, "USD", 3600), in).total_cny));
    }
}

TEST_CASE("cost: resale fraction interpolates the curve and extends its last segment, never below zero") {
    const ResaleValue r = brief_curve();
    CHECK(resale_fraction_at(r, 0) == Approx(1.0));
    CHECK(resale_fraction_at(r, 6) == Approx(0.875));   // halfway 1.0 -> 0.75
    CHECK(resale_fraction_at(r, 18) == Approx(0.675));  // halfway 0.75 -> 0.6
    CHECK(resale_fraction_at(r, 48) == Approx(0.30));   // 0.45 - 0.15/12 x 12
    CHECK(resale_fraction_at(r, 80) == Approx(0.0));    // 0.45 - 0.0125 x 44 < 0 -> 0
    CHECK(resale_fraction_at(ResaleValue{}, 5) == 0);   // no curve: nothing resold
}

TEST_CASE("cost: buy cost: cards + host + electricity - resale, hand-computed") {
    GpuSpec g;
    g.id = "test-4090";
    g.tdp_w = 450;
    g.street_price.new_cny = 12999;
    BuyInputs in;
    in.card_count = 1;
    in.run_time_s = 100 * 3600.0;  // 100 h per run
    in.runs = 2;                   // 200 h of training
    in.cny_per_usd = 7.0;
    in.electricity_price_per_kwh_cny = 0.4883;
    in.utilization_fraction = 0.5;
    in.host.cost_cny = 5000;
    in.host.power_w = 120;
    in.resale = brief_curve();
    const BuyCost c = buy_cost(g, in);
    CHECK(c.basis == PriceBasis::kStreetNew);
    CHECK(c.purchase_cny == Approx(17999));           // 12999 + 5000
    CHECK(c.power_w == Approx(570));                  // 450 + 120
    CHECK(c.training_hours == Approx(200));
    // ownership: 200 h / 0.5 / 730.5 h per month = 0.5475702 months
    CHECK(c.ownership_months == Approx(0.5475702).epsilon(1e-6));
    // resale fraction: 1 - 0.25 x 0.5475702 / 12 = 0.9885923; x 12999 = 12850.71
    CHECK(c.resale_fraction == Approx(0.9885923).epsilon(1e-6));
    CHECK(c.resale_cny == Approx(12850.71).epsilon(1e-5));
    // electricity: 570 W x 200 h = 114 kWh x 0.4883 = 55.6662 CNY
    CHECK(c.electricity_cny == Approx(55.6662).epsilon(1e-6));
    // total: 17999 - 12850.71 + 55.67 = 5203.96
    CHECK(c.total_cny == Approx(5203.96).epsilon(1e-5));

    SUBCASE("launch price in USD when there is no street price; two cards share one host") {
        GpuSpec l = g;
        l.street_price.new_cny = 0;
        l.launch_price_usd = 1599;
        BuyInputs two = in;
        two.card_count = 2;
        const BuyCost d = buy_cost(l, two);
        CHECK(d.basis == PriceBasis::kLaunchUsd);
        CHECK(d.card_price_cny == Approx(11193));     // 1599 x 7.0
        CHECK(d.purchase_cny == Approx(27386));       // 2 x 11193 + 5000
        CHECK(d.power_w == Approx(1020));             // 2 x 450 + 120
    }
    SUBCASE("no price at all: unknown, not zero") {
        GpuSpec u = g;
        u.street_price.new_cny = 0;
        PriceBasis b;
        CHECK(std::isnan(card_price_cny(u, 7.0, b)));
        CHECK(b == PriceBasis::kUnknown);
        CHECK(std::isnan(buy_cost(u, in).total_cny));
    }
    SUBCASE("a fixed ownership period sets the resale age") {
        BuyInputs k = in;
        k.ownership_months = 24;
        const BuyCost d = buy_cost(g, k);
        CHECK(d.resale_fraction == Approx(0.6));
        // 17999 - 0.6 x 12999 + 55.6662 = 10255.27
        CHECK(d.total_cny == Approx(10255.2662).epsilon(1e-7));
    }
}

TEST_CASE("cost: break-even: buying pays for itself when the rent saved covers the card, hand-computed") {
    GpuSpec g;
    g.id = "test";
    g.street_price.new_cny = 10000;
    g.tdp_w = 0;
    BuyInputs in;
    in.run_time_s = 3600;  // 1 h per run on the bought card
    in.utilization_fraction = 0.5;
    in.cny_per_usd = 7.0;
    const CloudOffer o = offer(2.0, "CNY", 1);
    SUBCASE("no host, no power, no resale: 10000 / 2.0 per hour = 5000 h") {
        const BreakEven be = break_even(g, in, o, 3600);
        REQUIRE(be.exists);
        CHECK(be.runs == Approx(5000).epsilon(1e-6));
        CHECK(be.training_hours == Approx(5000).epsilon(1e-6));
        CHECK(be.months == Approx(5000 / 0.5 / 730.5).epsilon(1e-6));  // 13.69 months
    }
    SUBCASE("power at 1000 W x 0.5 CNY/kWh = 0.5 CNY/h: 10000 / (2.0 - 0.5) = 6666.7 h") {
        in.host.power_w = 1000;
        in.electricity_price_per_kwh_cny = 0.5;
        const BreakEven be = break_even(g, in, o, 3600);
        REQUIRE(be.exists);
        CHECK(be.training_hours == Approx(6666.667).epsilon(1e-6));
    }
    SUBCASE("the rented card is twice as slow: each run costs 2 h of rent, so 2500 runs") {
        const BreakEven be = break_even(g, in, o, 7200);
        REQUIRE(be.exists);
        CHECK(be.runs == Approx(2500).epsilon(1e-6));
    }
    SUBCASE("rent cheaper than power: never") {
        in.host.power_w = 10000;
        in.electricity_price_per_kwh_cny = 0.5;  // 5 CNY/h of power > 2 CNY/h of rent
        CHECK_FALSE(break_even(g, in, o, 3600).exists);
    }
}
