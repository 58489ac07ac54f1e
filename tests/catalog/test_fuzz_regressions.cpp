// Regression tests for what the fuzz targets (tests/fuzz, docs/hardening.md) found in the catalog and CLI readers:
// one test per finding, with the input the fuzzer saved and the behaviour the fix gives.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/scenario.h"

namespace {
// What check-data --json and the fuzz targets do with problems: write them as JSON (must not throw).
void require_dumpable(const std::vector<gg::catalog::Problem>& problems) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : problems) list.push_back({{"file", p.file}, {"pointer", p.pointer}, {"message", p.message}});
    CHECK_NOTHROW((void)list.dump());
}
}  // namespace

TEST_CASE("fuzz_catalog / fuzz_user_data / fuzz_scenario: a parse error quoting invalid UTF-8 is still valid JSON") {
    // Found by all three on 2026-12-04, the day parse errors began to quote what nlohmann read ("last read: '...'"):
    // raw bytes such as 0xFF made nlohmann::json::dump throw type_error.316 when the problems were written as JSON.
    // parse_json_text now passes the detail through printable(), which escapes invalid UTF-8 as \xNN.
    std::vector<gg::catalog::Problem> problems;
    (void)gg::catalog::parse_catalog(std::string("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 8), "", "", problems);
    REQUIRE_FALSE(problems.empty());
    require_dumpable(problems);

    const auto scenario = gg::catalog::parse_scenario("{\"\xF3odel\":\"gpt2-large\",\"method\":\"full\"}", "fuzz");
    REQUIRE_FALSE(scenario.problems.empty());
    require_dumpable(scenario.problems);

    problems.clear();
    const std::string user_data = "{\"schema_version\":1,\"offers\":[{\"id\":\"cheaper\",\"provider\":\"RunPod\",\"region\":\"global\",\"instance\":\"RTX 4090 24 GB, Community Cloud\",\"gpu\":\"rtx-4090\",\"gpu_count\":1,\xA2""price_per_hour\":1.0,\"currency\":\"USD\",\"billing\":\"on-demand\",\"billing_granularity_s\":1,\"price_per_month\":null,\"as_of\":\"2026-09-25\",\"source\":\"https://www.runpod.io/pricing\",\"notes\":[\"Per-GPU price read from runpod.io/pricing on 2026-09-25 as recorded in https://raw.githubusercontent.com/tgarg01/silybench-data/main/derived/csv/gpu_prices.csv.\"memory_bandwidth_bytes_per_s\"ty hosts, no datacentre SLA; Secure Cloud = RunPod-operated datacentres.\",\"RunPod Pods are billed per second (runpod.io/pricing, as transcribed 2026-11-09); disk and network volumes cost extra.\"]}]}";
    (void)gg::catalog::merge_user_data(gg::catalog::embedded_catalog(), user_data, problems);
    REQUIRE_FALSE(problems.empty());
    require_dumpable(problems);
}
