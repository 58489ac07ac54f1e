// The same job on more cards (src/catalog/scaling.h): the rows agree with the engine run at each count, time and
// throughput are consistent with each other, and the memory verdict follows ZeRO's sharding.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "catalog/full_report.h"
#include "catalog/scaling.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"

namespace {

using namespace gg::catalog;

Scenario parse(const std::string& text) {
    const ParsedScenario p = parse_scenario(text);
    REQUIRE(p.problems.empty());
    return p.scenario;
}

std::vector<ScalingRow> rows_of(const Scenario& s) {
    return scaling_rows(s, estimate(s), embedded_catalog(), embedded_time_data());
}

}  // namespace

TEST_CASE("scaling: each row is the engine's estimate at that card count, and the rows agree with each other") {
    const Scenario s = parse(R"({"model": "bert-large", "batch_size": 16, "seq_len": 384, "precision": "fp16-amp",
        "gpu": {"id": "a100-sxm4-80gb", "count": 2, "interconnect": "nvlink"}, "dataset": {"samples": 88000, "epochs": 2}})");
    const std::vector<ScalingRow> rows = rows_of(s);
    REQUIRE(rows.size() == kScalingCopies.size());
    const ScalingRow& one = rows.front();
    CHECK(one.gpus == 1);
    CHECK(one.speedup == doctest::Approx(1.0));
    CHECK(one.scaling_efficiency == doctest::Approx(1.0));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const ScalingRow& r = rows[i];
        CAPTURE(r.gpus);
        CHECK(r.gpus == kScalingCopies[i]);
        REQUIRE(r.timed);
        CHECK(r.fits);  // DDP: every card holds the whole job, whatever the count
        // The same numbers as a scenario that asks for this count.
        Scenario at = s;
        at.gpu_count = r.gpus;
        gg::engine::TimeReport t;
        REQUIRE(estimate_time(at, embedded_catalog(), embedded_time_data(), t));
        CHECK(r.step_s == doctest::Approx(t.step_s).epsilon(1e-12));
        CHECK(r.total_s == doctest::Approx(t.total_s).epsilon(1e-12));
        // Speed-up over copies is the engine's own scaling efficiency (its full evaluation) under data parallelism.
        CHECK(r.scaling_efficiency == doctest::Approx(t.scaling_efficiency).epsilon(1e-9));
        // A fixed dataset: 2 epochs of 88000 samples, each in whole steps of 16 samples per card (the last one
        // partial); speed-up = cards x efficiency.
        CHECK(r.total_s == doctest::Approx(2 * std::ceil(88000.0 / (16.0 * r.gpus)) * r.step_s).epsilon(1e-12));
        CHECK(r.speedup == doctest::Approx(r.gpus * r.scaling_efficiency).epsilon(1e-9));
        if (i > 0) {
            // DDP adds communication and removes nothing: more cards are faster, but never more than linearly.
            CHECK(r.speedup > rows[i - 1].speedup);
            CHECK(r.scaling_efficiency <= rows[i - 1].scaling_efficiency + 1e-12);
        }
    }
}

TEST_CASE("scaling: under ZeRO-3 the memory verdict changes with the count, as the memory engine says") {
    const Scenario s = parse(R"({"model": "llama-2-7b", "batch_size": 1, "seq_len": 2048, "precision": "bf16-amp",
        "checkpointing": "full", "attention": "flash", "gpu": {"id": "a100-sxm4-80gb", "count": 8, "strategy": "zero3"},
        "dataset": {"tokens": 1000000000}})");
    const std::vector<ScalingRow> rows = rows_of(s);
    REQUIRE(rows.size() == kScalingCopies.size());
    bool some_fit = false, some_not = false;
    for (const ScalingRow& r : rows) {
        CAPTURE(r.gpus);
        Scenario at = s;
        at.gpu_count = r.gpus;
        CHECK(r.fits == estimate(at).report.fits);
        some_fit |= r.fits;
        some_not |= !r.fits;
    }
    // 7B with AdamW is ~16 bytes per parameter of model states: not on one 80 GB card, fine sharded over 8.
    CHECK_FALSE(rows.front().fits);
    CHECK(rows[3].fits);
    CHECK(some_fit);
    CHECK(some_not);
}

TEST_CASE("scaling: under ZeRO and FSDP the efficiency stays at or below 100%, while the speed-up may pass the cards") {
    // Issue 30: ZeRO-3 Llama-2-7B on 8 x H100 showed efficiencies up to 145%: the rows divided the speed-up over one
    // card by the cards, and one card runs the whole optimizer step where each of n ZeRO cards runs 1/n of it. The
    // efficiency is now the engine's: each card's share of the work, split without communication, over its step.
    for (const char* strategy : {"zero1", "zero2", "zero3", "fsdp"}) {
        CAPTURE(strategy);
        const Scenario s = parse(std::string(R"({"model": "llama-2-7b", "batch_size": 1, "seq_len": 2048,
            "precision": "bf16-amp", "checkpointing": "full", "attention": "flash",
            "gpu": {"id": "h100-sxm", "count": 8, "strategy": ")") + strategy + R"("}, "dataset": {"tokens": 1e9}})");
        const std::vector<ScalingRow> rows = rows_of(s);
        REQUIRE(rows.size() == kScalingCopies.size());
        bool past_linear = false;
        for (const ScalingRow& r : rows) {
            CAPTURE(r.gpus);
            REQUIRE(r.timed);
            CHECK(r.scaling_efficiency > 0.5);
            CHECK(r.scaling_efficiency <= 1.0 + 1e-12);
            Scenario at = s;
            at.gpu_count = r.gpus;
            gg::engine::TimeReport t;
            REQUIRE(estimate_time(at, embedded_catalog(), embedded_time_data(), t));
            CHECK(r.scaling_efficiency == doctest::Approx(t.scaling_efficiency).epsilon(1e-12));
            past_linear |= r.speedup > r.gpus;
        }
        CHECK(past_linear);  // the optimizer step shrinks with the cards: the page explains it (ScalingAboveLinear)
    }
}

TEST_CASE("scaling: the scenario's own count joins the rows when it is not one of 1, 2, 4, 8, 16") {
    const Scenario s = parse(R"({"model": "llama-2-70b", "batch_size": 1, "seq_len": 4096, "precision": "bf16-amp",
        "checkpointing": "full", "attention": "flash", "gpu": {"id": "a100-sxm4-80gb", "count": 64, "strategy": "zero3"}})");
    CHECK(scaling_copies(s) == std::vector<int>{1, 2, 4, 8, 16, 64});
    Scenario eight = s;
    eight.gpu_count = 8;
    CHECK(scaling_copies(eight) == kScalingCopies);
    const std::vector<ScalingRow> rows = scaling_rows(s, estimate(s), embedded_catalog(), embedded_time_data(),
                                                      scaling_copies(s));
    REQUIRE(rows.size() == 6);
    CHECK(rows.back().gpus == 64);
    CHECK(rows.back().fits == estimate(s).report.fits);
    CHECK_FALSE(rows[4].fits);  // 70B with AdamW needs more than 16 x 80 GB sharded; the user's 64 is the row to see
    DecisionScenario d;
    d.scenario = s;
    CHECK(full_report(d, estimate(s), embedded_catalog())["time"]["scaling"].size() == 6);
}

TEST_CASE("scaling: under tensor parallelism the rows count model copies of tensor_parallel cards each") {
    const Scenario s = parse(R"({"model": "llama-2-13b", "batch_size": 1, "grad_accum_steps": 8, "seq_len": 4096,
        "precision": "bf16-amp", "attention": "flash", "checkpointing": "full",
        "gpu": {"id": "h100-sxm", "count": 8, "tensor_parallel": 8}})");
    const std::vector<ScalingRow> rows = rows_of(s);
    REQUIRE(rows.size() == kScalingCopies.size());
    for (std::size_t i = 0; i < rows.size(); ++i) CHECK(rows[i].gpus == 8 * kScalingCopies[i]);
    CHECK(rows.front().speedup == doctest::Approx(1.0));
    CHECK(rows.back().speedup > rows[1].speedup);
}

TEST_CASE("scaling: no card, no rows; the report carries them under time.scaling with nulls where unknown") {
    CHECK(rows_of(parse(R"({"model": "bert-base", "batch_size": 8})")).empty());

    const Scenario s = parse(R"({"model": "resnet50", "batch_size": 64, "precision": "fp16-amp",
        "gpu": {"id": "rtx-4090"}})");  // no dataset: no time to train, only per-step figures
    DecisionScenario d;
    d.scenario = s;
    const nlohmann::json report = full_report(d, estimate(s), embedded_catalog());
    const nlohmann::json& scaling = report["time"]["scaling"];
    REQUIRE(scaling.is_array());
    REQUIRE(scaling.size() == kScalingCopies.size());
    for (const nlohmann::json& row : scaling) {
        CAPTURE(row.dump());
        for (const char* key : {"gpus", "fits", "step_s", "samples_per_s", "total_s", "scaling_efficiency", "speedup"})
            CHECK(row.contains(key));
        CHECK(row["step_s"].get<double>() > 0);
        CHECK(row["total_s"].is_null());
    }

    // An untimed row (a card without a published rate) gives nulls, not zeros.
    ScalingRow untimed;
    untimed.gpus = 2;
    untimed.fits = true;
    const nlohmann::json j = scaling_to_json({untimed});
    CHECK(j[0]["gpus"] == 2);
    CHECK(j[0]["fits"] == true);
    for (const char* key : {"step_s", "samples_per_s", "total_s", "scaling_efficiency", "speedup"}) CHECK(j[0][key].is_null());
}

TEST_CASE("scaling: a count the job does not fit on shows no time (issue 40), the counts it fits on do") {
    const Scenario s = parse(R"({"model": "llama-2-7b", "batch_size": 1, "seq_len": 2048, "precision": "bf16-amp",
        "checkpointing": "full", "attention": "flash", "gpu": {"id": "a100-sxm4-80gb", "count": 8, "strategy": "zero3"},
        "dataset": {"tokens": 1000000000}})");
    const std::vector<ScalingRow> rows = rows_of(s);
    const nlohmann::json j = scaling_to_json(rows);
    REQUIRE(j.size() == rows.size());
    bool some_not = false;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CAPTURE(rows[i].gpus);
        REQUIRE(rows[i].timed);  // the engine still times every count (the speed-ups of the rows that fit need it)
        for (const char* key : {"step_s", "samples_per_s", "total_s", "scaling_efficiency", "speedup"})
            CHECK(j[i][key].is_null() == !rows[i].fits);
        some_not |= !rows[i].fits;
    }
    CHECK(some_not);
}
