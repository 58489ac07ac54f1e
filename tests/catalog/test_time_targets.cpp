// catalog::time_targets, the three targets for the time engine as the Accuracy tab and the validation tests
// count them, on made-up rows: each rule and its edge.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "catalog/time_json.h"

using namespace gg::catalog;

TEST_CASE("time targets: 25% on throughput, the published GPU order beyond 15%, 10 scaling points") {
    auto row = [](const std::string& id, const std::string& quantity, double measured, double predicted) {
        ValidationRow r;
        r.id = id;
        r.quantity = quantity;
        r.measured = measured;
        r.predicted = predicted;
        r.error_fraction = predicted / measured - 1;  // as the validation runner sets it
        r.ran = true;
        return r;
    };
    std::vector<ValidationRow> rows = {
        row("lambda-bert-fp16-1x-a", "samples_per_s", 100, 124),              // +24%: within 25%
        row("lambda-bert-fp16-1x-b", "samples_per_s", 110, 90),               // -18%: within
        row("lambda-bert-fp16-1x-c", "samples_per_s", 200, 110),              // -45%
        row("lambda-bert-fp16-1x-d", "samples_per_s", 50, 130),               // +160%
        row("lambda-scaling-x", "scaling_efficiency_fraction", 0.80, 0.899),  // 9.9 points: within
        row("lambda-scaling-y", "scaling_efficiency_fraction", 0.80, 0.95),   // 15 points
        row("paper-gpu-hours", "gpu_hours", 1000, 700),                       // -30%
        row("lambda-bert-fp16-1x-e", "samples_per_s", 1, 1),                  // informative: not judged
    };
    rows.back().bound = "informative";
    const TimeTargets t = time_targets(rows);
    CHECK(t.throughput == 5);
    CHECK(t.throughput_within == 2);
    CHECK(t.scaling == 2);
    CHECK(t.scaling_within == 1);
    // a-b are 10% apart: a tie, no pair. Of a-c, a-d, b-c, b-d, c-d only b-c keeps its order (110 < 200 measured,
    // 90 < 110 predicted).
    CHECK(t.order_pairs == 5);
    CHECK(t.order_kept == 1);
    REQUIRE(t.order_flipped.size() == 4);
    CHECK(t.order_flipped[0].first->id == "lambda-bert-fp16-1x-a");
    CHECK(t.order_flipped[0].second->id == "lambda-bert-fp16-1x-c");
}
