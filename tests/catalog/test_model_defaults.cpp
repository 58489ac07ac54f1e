// Issue 40: the defaults a beginner gets are what people run: an LLM without a precision trains under bf16 autocast
// (fp16 without bf16) with checkpointing and its weights as saved; switching model on the page resets the batch,
// precision and checkpointing to the new model's; the largest batch offered never passes the dataset.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/model_defaults.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/stack_config.h"

using namespace gg::catalog;

namespace {

Scenario parsed(const std::string& text) {
    const ParsedScenario p = parse_scenario(text);
    for (const auto& x : p.problems) {
        CAPTURE(x.pointer);
        CAPTURE(x.message);
        CHECK(false);
    }
    return p.scenario;
}

}  // namespace

TEST_CASE("an 8B LoRA with no precision is estimated as people run it, and fits a 24 GB card") {
    const Scenario s = parsed(R"({"model": "llama-3.1-8b", "method": "lora", "gpu": {"id": "rtx-4090"}})");
    CHECK(s.precision == "bf16-amp");
    CHECK(s.checkpointing == "full");
    CHECK(s.frozen_weights_16bit);  // loaded as saved: bf16 (transformers v5 dtype="auto")
    const Estimate e = estimate(s);
    CHECK(e.report.verdict.verdict != gg::engine::Verdict::kDoesNotFit);
    // The config written for it says the same: bf16 weights, bf16 autocast, checkpointing.
    const StackConfig c = stack_config(s);
    CHECK(c.text.find("torch_dtype=torch.bfloat16") != std::string::npos);
    CHECK(c.text.find("\"gradient_checkpointing\":true") != std::string::npos);
    CHECK(c.text.find("\"bf16\":true") != std::string::npos);
    // Written out and read back, the scenario says what it got and estimates the same bytes.
    const Scenario again = parsed(scenario_to_json(s).dump());
    CHECK(estimate(again).report.nvidia_smi.bytes == doctest::Approx(e.report.nvidia_smi.bytes));
}

TEST_CASE("the default precision follows the card and the checkpoint; a precision given is kept") {
    CHECK(parsed(R"({"model": "llama-3.2-1b", "method": "lora", "gpu": {"id": "t4"}})").precision == "fp16-amp");
    CHECK(parsed(R"({"model": "llama-3.2-1b", "method": "qlora"})").precision == "nf4");
    CHECK(parsed(R"({"model": "gpt2"})").precision == "fp32");       // saved in fp32: PyTorch's default stays
    CHECK(parsed(R"({"model": "resnet50"})").precision == "fp32");
    const Scenario given = parsed(R"({"model": "llama-3.2-1b", "method": "lora", "precision": "bf16-amp"})");
    CHECK(given.checkpointing == "none");  // the Trainer's default when the scenario spells its precision
    CHECK_FALSE(given.frozen_weights_16bit);
}

TEST_CASE("switching model resets the batch, precision and checkpointing to the new model's, keeping the rest") {
    Scenario s = parsed(R"({"model": "resnet50", "batch_size": 128, "gpu": {"id": "rtx-4090"},
        "dataset": {"samples": 50000, "epochs": 10}})");
    std::vector<Problem> problems;
    REQUIRE(switch_model(s, "llama-3.1-8b", embedded_catalog(), problems));
    CHECK(s.model_id == "llama-3.1-8b");
    CHECK(s.batch_size == 1);
    CHECK(s.precision == "bf16-amp");
    CHECK(s.checkpointing == "full");
    CHECK(s.gpu_id == "rtx-4090");
    CHECK(s.dataset_samples == 50000);
    REQUIRE(switch_model(s, "resnet50", embedded_catalog(), problems));
    CHECK(s.batch_size == 32);
    CHECK(s.precision == "fp32");
    CHECK(s.checkpointing == "none");
    CHECK(s.image_size == 0);  // the model's own
}

TEST_CASE("the largest batch offered never passes the dataset") {
    const Scenario s = parsed(R"({"model": "resnet18", "image_size": 32, "precision": "fp16-amp",
        "gpu": {"id": "h100-sxm"}, "dataset": {"samples": 500, "epochs": 1}})");
    const Estimate e = estimate(s);
    CHECK(e.max_batch_size > 0);
    CHECK(e.max_batch_size <= 500);
}
