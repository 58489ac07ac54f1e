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
    in.gpu_hours_per_month = 365.25;  // half of the mean month (730.5 h)
    in.host.cost_cny = 5000;
    in.host.power_w = 120;
    in.resale = brief_curve();
    const BuyCost c = buy_cost(g, in);
    CHECK(c.basis == PriceBasis::kStreetNew);
    CHECK(c.purchase_cny == Approx(17999));           // 12999 + 5000
    CHECK(c.power_w == Approx(570));                  // 450 + 120
    CHECK(c.training_hours == Approx(200));
    // ownership: 200 h / 365.25 GPU-hours per month = 0.5475702 months
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
    SUBCASE("fewer GPU-hours per month keep the cards longer for the same training, so they resell for less") {
        BuyInputs k = in;
        k.gpu_hours_per_month = 20;  // 200 h of training at 20 h a month: 10 months
        const BuyCost d = buy_cost(g, k);
        CHECK(d.ownership_months == Approx(10));
        // resale: 1 - 0.25 x 10 / 12 = 0.7916667 (brief_curve); 17999 - 0.7916667 x 12999 + 55.6662 = 7763.79
        CHECK(d.resale_fraction == Approx(0.7916667).epsilon(1e-6));
        CHECK(d.total_cny == Approx(7763.79).epsilon(1e-5));
        CHECK(d.total_cny > c.total_cny);
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
    in.gpu_hours_per_month = 365.25;
    in.cny_per_usd = 7.0;
    const CloudOffer o = offer(2.0, "CNY", 1);
    SUBCASE("no host, no power, no resale: 10000 / 2.0 per hour = 5000 h") {
        const BreakEven be = break_even(g, in, o, 3600);
        REQUIRE(be.exists);
        CHECK(be.runs == Approx(5000).epsilon(1e-6));
        CHECK(be.training_hours == Approx(5000).epsilon(1e-6));
        CHECK(be.months == Approx(5000 / 365.25).epsilon(1e-6));  // 13.69 months at 365.25 GPU-hours a month
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

// ---- sessions: free tiers, rental overheads, checkpoints, preemptions --------------------------------------------
namespace {

SessionLimits kaggle_like() {  // data/cloud_offers.json kaggle-p100: 12 h sessions, 30 GPU-hours a week
    SessionLimits l;
    l.max_session_s = 12 * 3600;
    l.gpu_s_per_week = 30 * 3600;
    return l;
}

}  // namespace

TEST_CASE("sessions: a rental is one session whose start, setup and download are counted and billed") {
    SessionInputs in;
    in.run_time_s = 80;                  // ResNet-18 / CIFAR-10 on an RTX 3090: the 80 s
    in.start_s = 60;
    in.setup_s = 120;
    in.download_bytes = 170e6;           // CIFAR-10 python tarball, ~170 MB
    in.download_bytes_per_s = 10e6;      // 17 s
    const SessionPlan p = plan_sessions(SessionLimits{}, in);
    CHECK(p.status == SessionStatus::kOk);
    CHECK(p.sessions == 1);
    CHECK(p.download_s_per_session == Approx(17));
    CHECK(p.overhead_s == Approx(60 + 120 + 17));
    CHECK(p.session_s == Approx(80 + 197));
    CHECK(p.calendar_s == Approx(277));
    // Billed per second at 1.32 CNY/h: the terms add up to the compute bill, and training is only 80 of 277 s.
    CloudOffer o = offer(1.32, "CNY", 1);
    RentInputs r;
    r.run_time_s = in.run_time_s;
    r.sessions = &p;
    const RentCost c = rent_cost(o, r);
    CHECK(c.billed_s_per_run == Approx(277));
    CHECK(c.compute_cny == Approx(277 * 1.32 / 3600));
    CHECK(c.training_cny == Approx(80 * 1.32 / 3600));
    CHECK(c.overhead_cny == Approx(197 * 1.32 / 3600));
    CHECK(c.training_cny + c.overhead_cny + c.checkpoint_cny + c.lost_work_cny + c.rounding_cny ==
          Approx(c.compute_cny));
    CHECK(c.rounding_cny == Approx(0).epsilon(1e-9));
    // Hourly billing: the same 277 s pay a whole hour; rounding takes the rest.
    const RentCost hourly = rent_cost(offer(1.32, "CNY", 3600), r);
    CHECK(hourly.compute_cny == Approx(1.32));
    CHECK(hourly.rounding_cny == Approx(1.32 * (3600 - 277) / 3600));
}

TEST_CASE("sessions: unknown bandwidth or disk speed leaves the term out and says so") {
    SessionInputs in;
    in.run_time_s = 3600;
    in.download_bytes = 1e9;
    in.checkpoint_bytes = 1e9;
    const SessionPlan p = plan_sessions(kaggle_like(), in);
    CHECK(p.download_unknown);
    CHECK(p.download_s_per_session == 0);
    CHECK(p.checkpoint_time_unknown);  // checkpoints asked for, no write speed
    CHECK(p.session_s == Approx(3600));
}

TEST_CASE("sessions: a free tier splits a long run into sessions and waits out the weekly quota") {
    SessionInputs in;
    in.run_time_s = 40 * 3600;           // 40 h of training
    in.start_s = 60;
    in.download_bytes = 0;
    in.checkpoint_bytes = 1e9;
    in.checkpoint_write_bytes_per_s = 100e6;  // 10 s per save or load
    const SessionPlan p = plan_sessions(kaggle_like(), in);
    REQUIRE(p.status == SessionStatus::kOk);
    // First session: 43,200 - 60 start - 10 save = 43,130 s of training; the next ones also load (10 s):
    // 43,120 s. 144,000 - 43,130 = 100,870 -> ceil(100,870 / 43,120) = 3 more: 4 sessions.
    CHECK(p.sessions == 4);
    CHECK(p.checkpoint_saves == 3);
    CHECK(p.checkpoint_s == Approx(3 * 2 * 10));
    CHECK(p.overhead_s == Approx(4 * 60));
    const double held_s = 144000 + 240 + 60;
    CHECK(p.session_s == Approx(held_s));
    // 144,300 s against 108,000 s a week: 1.336 quotas; the job waits one week and finishes 36,300 s into the second.
    CHECK(p.weeks == Approx(held_s / 108000));
    CHECK(p.calendar_s == Approx(7 * 86400 + (held_s - 108000)));
}

TEST_CASE("sessions: without checkpoints a run longer than a session never finishes") {
    SessionInputs in;
    in.run_time_s = 13 * 3600;
    in.checkpointing = false;
    CHECK(plan_sessions(kaggle_like(), in).status == SessionStatus::kNeedsCheckpoints);
    in.run_time_s = 11 * 3600;  // fits in one session: no checkpoint needed
    const SessionPlan short_run = plan_sessions(kaggle_like(), in);
    CHECK(short_run.status == SessionStatus::kOk);
    CHECK(short_run.sessions == 1);
}

TEST_CASE("sessions: overheads that fill a whole session leave no time to train") {
    SessionLimits l;
    l.max_session_s = 3600;
    SessionInputs in;
    in.run_time_s = 7200;
    in.download_bytes = 40e9;
    in.download_bytes_per_s = 10e6;  // 4,000 s of download per session
    CHECK(plan_sessions(l, in).status == SessionStatus::kSessionTooShort);
}

TEST_CASE("sessions: spot preemptions follow Daly's expected-time formula") {
    SessionInputs in;
    in.run_time_s = 10 * 3600;
    in.checkpoint_bytes = 6e9;
    in.checkpoint_write_bytes_per_s = 100e6;  // C = 60 s
    in.start_s = 120;                         // R = 120 + 60 s load = 180 s
    in.interruptions_per_s = 0.1 / 3600;      // one preemption per 10 h on average
    const SessionPlan p = plan_sessions(SessionLimits{}, in);
    REQUIRE(p.status == SessionStatus::kOk);
    const double lambda = 0.1 / 3600, c = 60, r = 180, w = 36000;
    const double tau = std::sqrt(2 * c / lambda);  // Young 1974: 1,138 s
    CHECK(p.checkpoint_interval_s == Approx(tau));
    const double expected = w / tau * std::exp(lambda * r) * std::expm1(lambda * (tau + c)) / lambda;
    CHECK(p.session_s == Approx(expected + 120));
    CHECK(p.interruptions == Approx(lambda * expected));
    CHECK(p.lost_work_s > 0);
    CHECK(p.session_s > w);
    // Without checkpoints the whole run restarts after each preemption: (e^(lambda W) - 1) / lambda x e^(lambda R).
    in.checkpointing = false;
    const SessionPlan none = plan_sessions(SessionLimits{}, in);
    const double r0 = 120;
    CHECK(none.session_s == Approx(std::exp(lambda * r0) * std::expm1(lambda * w) / lambda + 120));
    CHECK(none.session_s > p.session_s);
}

TEST_CASE("sessions: a free offer costs nothing however many sessions it takes") {
    CloudOffer o = offer(0, "USD", 1, Billing::Free);
    SessionInputs in;
    in.run_time_s = 20 * 3600;
    in.checkpoint_bytes = 1e8;
    in.checkpoint_write_bytes_per_s = 1e8;
    const SessionPlan p = plan_sessions(kaggle_like(), in);
    RentInputs r;
    r.run_time_s = in.run_time_s;
    r.sessions = &p;
    const RentCost c = rent_cost(o, r);
    CHECK(p.sessions == 2);
    CHECK(c.compute_cny == 0);
    CHECK(c.total_cny == 0);
}
