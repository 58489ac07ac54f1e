// rank_and_advise_json (the page's one-pass path) gives exactly what the CLI's `rank --json` and `advise --json`
// give separately, for scenarios that fit, that do not fit, and with decision keys.
#include <doctest/doctest.h>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"

TEST_CASE("rank_and_advise_json equals rank_json and advise_json") {
    using namespace gg::catalog;
    const Catalog& cat = embedded_catalog();
    const char* scenarios[] = {
        R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","gpu":{"id":"rtx-4060"},)"
        R"("dataset":{"samples":100000,"epochs":3}})",
        R"({"model":"llama-2-7b","batch_size":4,"seq_len":2048,"precision":"bf16-amp","gpu":{"id":"rtx-3090"},)"
        R"("dataset":{"tokens":1000000000},"budget":{"amount":20000,"currency":"CNY"},"objective":"time"})",
        R"({"model":"resnet50","batch_size":64,"image_size":224,"gpu":{"id":"a100-sxm4-80gb","count":2},)"
        R"("dataset":{"samples":1281167,"epochs":1},"ownership":"rent","region":"cn"})",
    };
    for (const char* text : scenarios) {
        CAPTURE(text);
        const ParsedDecision parsed = parse_decision_scenario(text, cat);
        REQUIRE(parsed.problems.empty());
        const DecisionJson both = rank_and_advise_json(parsed.value, cat);
        CHECK(both.ranking == rank_json(parsed.value, cat));
        CHECK(both.advice == advise_json(parsed.value, cat));
        CHECK(both.ranking["options"].size() > 0);
    }
}

TEST_CASE("every bundled GPU written in the data-file format reads back unchanged as user data") {
    using namespace gg::catalog;
    const Catalog& cat = embedded_catalog();
    nlohmann::json gpus = nlohmann::json::array();
    for (const auto& g : cat.gpus) gpus.push_back(gpu_to_data_json(g));
    std::vector<Problem> problems;
    const Catalog merged = merge_user_data(cat, nlohmann::json{{"schema_version", 1}, {"gpus", gpus}}.dump(), problems);
    std::string listed;
    for (const auto& p : problems) listed += p.pointer + ": " + p.message + "\n";
    CAPTURE(listed);
    CHECK(problems.empty());
    REQUIRE(merged.gpus.size() == cat.gpus.size());
    for (std::size_t i = 0; i < cat.gpus.size(); ++i) {
        CAPTURE(cat.gpus[i].id);
        CHECK(gpu_to_json(merged.gpus[i]) == gpu_to_json(cat.gpus[i]));
    }
}
