// Issue 39's medium and low findings, replayed: answers past any real run are flagged, rates and hardware links
// the card cannot have are refused by key, large user data is capped with a message, and the switches of language
// model stacks are refused on image models, each problem naming its field.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/plausibility.h"

using gg::catalog::parse_decision_scenario;
using gg::catalog::parse_scenario;

namespace {

// The JSON pointers of a scenario's problems.
std::vector<std::string> pointers_of(const std::string& text) {
    std::vector<std::string> out;
    for (const auto& p : parse_scenario(text).problems) out.push_back(p.pointer);
    return out;
}

bool has(const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); }

}  // namespace

TEST_CASE("a calibration that puts a card past its own peak is flagged in the time report") {
    const auto& base = gg::catalog::embedded_catalog();
    const std::string job = R"({"model": "llama-3.2-1b", "method": "lora", "precision": "bf16-amp", "seq_len": 1024,
        "batch_size": 8, "gpu": {"id": "rtx-4090"}, "dataset": {"samples": 10000, "epochs": 1}})";
    const auto parsed = parse_decision_scenario(job, base);
    REQUIRE(parsed.problems.empty());
    const nlohmann::json plain = gg::catalog::full_report(parsed.value, gg::catalog::estimate(parsed.value.scenario, base), base);
    REQUIRE(plain["time"]["mfu"].is_number());
    CHECK(plain["time"]["mfu"].get<double>() < 1.0);
    CHECK(plain["time"]["implausible"].empty());
    std::vector<gg::catalog::Problem> problems;
    // 4 is inside the factors the calibration accepts (0.25-4), yet 4x the priors' speed passes the card's peak.
    const auto cal = gg::catalog::merge_user_data(base, R"({"schema_version": 1, "calibrations": [
        {"id": "c", "gpu": "rtx-4090", "as_of": "2026-12-01", "speed": [{"family": "decoder", "efficiency_factor": 4}]}]})",
                                                  problems);
    REQUIRE(problems.empty());
    const auto reparsed = parse_decision_scenario(job, cal);
    const nlohmann::json fast = gg::catalog::full_report(reparsed.value, gg::catalog::estimate(reparsed.value.scenario, cal), cal);
    CHECK(fast["time"]["mfu"].get<double>() > 1.0);
    CHECK(fast["time"]["implausible"] == nlohmann::json::array({"mfu_above_peak"}));
}

TEST_CASE("a run past a century and a cost past any budget are flagged, not hidden") {
    using gg::engine::Implausible;
    CHECK(gg::engine::implausible_flags(0.4, 3600, 100).empty());
    CHECK(gg::engine::implausible_flags(std::nan(""), std::nan(""), std::nan("")).empty());  // unknown: not flagged
    CHECK(gg::engine::implausible_flags(0.4, 1e18, 100) == std::vector<Implausible>{Implausible::kTimePastCentury});
    CHECK(gg::engine::implausible_flags(0.4, 3600, 2e14) == std::vector<Implausible>{Implausible::kCostPastBudget});
    // A petabyte downloaded at the slowest rate a scenario may give: the rentals' calendars pass a century, flagged.
    const auto& cat = gg::catalog::embedded_catalog();
    const auto parsed = parse_decision_scenario(R"({"model": "resnet50", "batch_size": 64, "precision": "fp16-amp",
        "dataset": {"samples": 1281167, "epochs": 1}, "dataset_gb": 1000000, "download_mb_per_s": 0.01})", cat);
    REQUIRE(parsed.problems.empty());
    const nlohmann::json ranked = gg::catalog::rank_json(parsed.value, cat);
    int flagged = 0;
    for (const auto& o : ranked["options"])
        if (o["kind"] == "rent" && o["calendar_s"].is_number() && o["calendar_s"].get<double>() > gg::engine::kCenturyS) {
            CHECK(o["implausible"].size() >= 1);
            ++flagged;
        }
    CHECK(flagged > 0);
}

TEST_CASE("download and checkpoint rates below any real link are refused by key") {
    const auto& cat = gg::catalog::embedded_catalog();
    for (const std::string key : {"download_mb_per_s", "checkpoint_write_mb_per_s"}) {
        CAPTURE(key);
        for (const std::string value : {"1e-308", "1e-9", "0.001", "-1"}) {
            const auto p = parse_decision_scenario(R"({"model": "gpt2", ")" + key + "\": " + value + "}", cat);
            REQUIRE(p.problems.size() == 1);
            CHECK(p.problems[0].pointer == "/" + key);
            CHECK(p.problems[0].message.find("0 (not counted)") != std::string::npos);
        }
        CHECK(parse_decision_scenario(R"({"model": "gpt2", ")" + key + "\": 0}", cat).problems.empty());
        CHECK(parse_decision_scenario(R"({"model": "gpt2", ")" + key + "\": 0.02}", cat).problems.empty());
    }
}

TEST_CASE("peer-to-peer the card does not have is refused; where the link allows it, it is kept") {
    CHECK(has(pointers_of(R"({"model": "gpt2", "gpu": {"id": "rtx-4090", "count": 2, "peer_to_peer": true}})"),
              "/gpu/peer_to_peer"));
    CHECK(pointers_of(R"({"model": "gpt2", "gpu": {"id": "rtx-4090", "count": 2, "peer_to_peer": false}})").empty());
    CHECK(pointers_of(R"({"model": "gpt2", "gpu": {"id": "a100-pcie-80gb", "count": 2, "peer_to_peer": true}})").empty());
    CHECK(pointers_of(R"({"model": "gpt2", "gpu": {"id": "rtx-3090", "count": 2, "interconnect": "nvlink-bridge",
        "peer_to_peer": true}})").empty());
}

TEST_CASE("a ranking applies peer_to_peer true to no card whose driver lacks it") {
    // The same scenario on an A100 (which has it) ranked across the catalog: the 4090s run as they would without it.
    const auto& cat = gg::catalog::embedded_catalog();
    const std::string base = R"({"model": "gpt2", "batch_size": 8, "precision": "fp16-amp",
        "dataset": {"samples": 100000, "epochs": 1}, "gpu": {"id": "a100-pcie-80gb", "count": 2)";
    const auto with = gg::catalog::rank_json(parse_decision_scenario(base + R"(, "peer_to_peer": true}})", cat).value, cat);
    const auto without = gg::catalog::rank_json(parse_decision_scenario(base + "}}", cat).value, cat);
    auto time_of = [](const nlohmann::json& r, const std::string& id) {
        for (const auto& o : r["options"])
            if (o["id"] == id) return o["time_s"];
        return nlohmann::json();
    };
    const nlohmann::json t_with = time_of(with, "buy:rtx-4090:2"), t_without = time_of(without, "buy:rtx-4090:2");
    REQUIRE(t_with.is_number());
    CHECK(t_with == t_without);
}

TEST_CASE("user data past its caps reads the first records and says so at the array") {
    nlohmann::json gpus = nlohmann::json::array();
    for (std::size_t i = 0; i < gg::catalog::kMaxUserGpus + 5; ++i) {
        nlohmann::json g = gg::catalog::gpu_to_data_json(*gg::catalog::embedded_catalog().find_gpu("rtx-4090"));
        g["id"] = "my-card-" + std::to_string(i);
        gpus.push_back(g);
    }
    std::vector<gg::catalog::Problem> problems;
    const auto merged = gg::catalog::merge_user_data(gg::catalog::embedded_catalog(),
                                                     nlohmann::json{{"schema_version", 1}, {"gpus", gpus}}.dump(), problems);
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].pointer == "/gpus");
    CHECK(problems[0].message.find("at most 200") != std::string::npos);
    CHECK(merged.find_gpu("my-card-0") != nullptr);
    CHECK(merged.find_gpu("my-card-199") != nullptr);
    CHECK(merged.find_gpu("my-card-200") == nullptr);
}

TEST_CASE("language-model switches and stacks on an image model are refused by key") {
    CHECK(has(pointers_of(R"({"model": "resnet50", "stack_options": {"liger_kernel": true}})"),
              "/stack_options/liger_kernel"));
    CHECK(has(pointers_of(R"({"model": "resnet50", "stack": "llama-factory", "stack_options": {"use_unsloth": true}})"),
              "/stack_options/use_unsloth"));
    CHECK(has(pointers_of(R"({"model": "resnet50", "stack_options": {"packing": true}})"), "/stack_options/packing"));
    CHECK(has(pointers_of(R"({"model": "resnet50", "stack": "unsloth"})"), "/stack"));
    CHECK(pointers_of(R"({"model": "llama-3.2-1b", "method": "lora", "stack": "unsloth", "precision": "bf16-amp"})").empty());
}

TEST_CASE("default LoRA targets a model lacks are named with what it has") {
    // DeepSeek-V3-style MLA with a q LoRA (q_a_proj, q_b_proj) has no q_proj or v_proj: PEFT's default targets are
    // not in it. The message names the model (not "custom") and lists its modules.
    const auto p = parse_scenario(R"({"method": "lora", "model": {"hf_config": {"architectures": ["DeepseekV2ForCausalLM"],
        "model_type": "deepseek_v2", "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 4, "intermediate_size": 512, "moe_intermediate_size": 128, "n_routed_experts": 4,
        "n_shared_experts": 1, "num_experts_per_tok": 2, "first_k_dense_replace": 1, "moe_layer_freq": 1,
        "topk_method": "greedy", "q_lora_rank": 64, "kv_lora_rank": 32, "qk_nope_head_dim": 32, "qk_rope_head_dim": 16,
        "v_head_dim": 32, "vocab_size": 1000, "tie_word_embeddings": false, "max_position_embeddings": 4096,
        "attention_bias": false, "hidden_act": "silu", "rms_norm_eps": 1e-06}}})");
    bool named = false;
    for (const auto& x : p.problems) {
        CAPTURE(x.pointer);
        CAPTURE(x.message);
        CHECK(x.pointer == "/lora/targets");
        CHECK(x.message.find("'custom'") == std::string::npos);
        CHECK(x.message.find("q_a_proj") != std::string::npos);
        named = true;
    }
    CHECK(named);
}
