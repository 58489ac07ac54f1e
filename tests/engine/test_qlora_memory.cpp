// What stays fp32 in a bitsandbytes (QLoRA) model per stack (TrainingConfig::fp32_modules), and what Unsloth's fused
// block kernels keep instead of transformers' eager set (TrainingConfig::fused_block_kernels). Issue 41 items 5 and 6.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/memory.h"

using namespace gg::engine;
using gg::catalog::parse_scenario;

namespace {

// Mistral-7B QLoRA as McCormick's notebook runs it (published_memory.json mccormick-*), with `extra` keys.
gg::catalog::Estimate mistral(const std::string& extra) {
    const auto p = parse_scenario(R"({"model": "mistral-7b", "seq_len": 1024, "batch_size": 1, "precision": "nf4",
        "method": "qlora", "lora": {"rank": 8, "targets": ["q", "v"]}, "optimizer": "adamw", "checkpointing": "none",
        "attention": "sdpa", "display": "none", "gpu": {"id": "l4"})" + extra + "}");
    for (const auto& x : p.problems) {
        CAPTURE(x.pointer);
        CAPTURE(x.message);
        CHECK(false);
    }
    return gg::catalog::estimate(p.scenario);
}

}  // namespace

TEST_CASE("each stack's default for the fp32 modules of a bitsandbytes model, and the key is refused elsewhere") {
    const auto of = [](const std::string& extra) {
        return parse_scenario(R"({"model": "llama-3.1-8b", "precision": "nf4", "method": "qlora")" + extra + "}");
    };
    // peft's prepare_model_for_kbit_training (the Hugging Face QLoRA recipe) upcasts every unquantized parameter.
    CHECK(of("").scenario.training_config().fp32_modules == Fp32Modules::kAll);
    CHECK(of(R"(, "stack": "llama-factory")").scenario.training_config().fp32_modules == Fp32Modules::kNone);
    CHECK(of(R"(, "stack": "axolotl")").scenario.training_config().fp32_modules == Fp32Modules::kNone);
    CHECK(of(R"(, "stack": "unsloth")").scenario.training_config().fp32_modules == Fp32Modules::kNone);
    CHECK(of(R"(, "stack": "torchtune", "precision": "nf4")").scenario.training_config().fp32_modules ==
          Fp32Modules::kNone);
    CHECK(of(R"(, "fp32_modules": "norms")").scenario.training_config().fp32_modules == Fp32Modules::kNorms);
    CHECK(of(R"(, "fp32_modules": "norms")").problems.empty());
    // A model that is not quantized has no such choice; a value outside the three is a problem.
    const auto bf16 = parse_scenario(R"({"model": "llama-3.1-8b", "precision": "bf16", "method": "lora",
        "fp32_modules": "all"})");
    REQUIRE(bf16.problems.size() == 1);
    CHECK(bf16.problems[0].pointer == "/fp32_modules");
    CHECK(!of(R"(, "fp32_modules": "head")").problems.empty());
    // Round trip.
    const auto s = of(R"(, "fp32_modules": "none")").scenario;
    CHECK(gg::catalog::scenario_to_json(s).at("fp32_modules") == "none");
}

TEST_CASE("fp32 norms make a bitsandbytes model's hidden states fp32; fp32 embeddings and head add 2 bytes each") {
    const auto none = mistral(R"(, "fp32_modules": "none")");
    const auto norms = mistral(R"(, "fp32_modules": "norms")");
    const auto all = mistral(R"(, "fp32_modules": "all")");
    // Weights: 65 RMSNorm weights of 4096 (2 per block and the final one) in fp32; "all" adds the embedding and the
    // head (32000 x 4096 each) in fp32 instead of bf16.
    CHECK(norms.report.weights.bytes - none.report.weights.bytes == doctest::Approx(65.0 * 4096 * 2));
    CHECK(all.report.weights.bytes - norms.report.weights.bytes == doctest::Approx(2.0 * 32000 * 4096 * 2));
    // Activations: the same tensors kept, the hidden ones twice as large, plus the 16-bit copy each quantized Linear
    // and lora_A keep of their fp32 input: per token well over the 16-bit model's.
    const double none_act = none.prepared.saved_per_sample_bytes, norms_act = norms.prepared.saved_per_sample_bytes;
    CAPTURE(none_act / 1024 / 1024);
    CAPTURE(norms_act / 1024 / 1024);
    CHECK(norms_act > 1.5 * none_act);
    CHECK(all.prepared.saved_per_sample_bytes == doctest::Approx(norms_act));
    CHECK(norms.report.nvidia_smi.bytes > none.report.nvidia_smi.bytes);
}

TEST_CASE("Unsloth's fused kernels keep the norm's input, and X, e and g in the MLP, not transformers' eager set") {
    // Per block the eager walk keeps two fp32 copies of the norms' inputs (4 B x h), SiLU's output and the product
    // (2 B x ffn each) and RoPE's cos and sin (2 B x head_dim each); Unsloth keeps the norms' inputs themselves
    // (2 B x h): 4 x (h + ffn + head_dim) bytes less per token and block, and 2 x h less at the final norm; the first
    // block's first norm sits below the first adapter (q_proj), so neither keeps anything there (2 x h fewer saved).
    const auto base = R"({"model": "mistral-7b", "seq_len": 1024, "batch_size": 1, "precision": "nf4", "method": "qlora",
        "lora": {"rank": 8, "targets": ["q", "v"]}, "optimizer": "adamw", "checkpointing": "none", "attention": "sdpa",
        "display": "none", "fp32_modules": "none", "gpu": {"id": "l4"})";
    // The same fused loss on both sides (Liger's on the Hugging Face stack): only the block kernels differ.
    const auto eager =
        gg::catalog::estimate(parse_scenario(std::string(base) + R"(, "stack_options": {"liger_kernel": true}})").scenario);
    auto fused_s = parse_scenario(std::string(base) + R"(, "stack": "unsloth"})").scenario;
    fused_s.offload_activations = false, fused_s.offload_activations_set = true;
    const auto fused = gg::catalog::estimate(fused_s);
    CHECK(fused.prepared.config.fused_block_kernels);
    CHECK_FALSE(eager.prepared.config.fused_block_kernels);
    const double T = 1024, h = 4096, ffn = 14336, d = 128, blocks = 32;
    CHECK(eager.prepared.saved_per_sample_bytes - fused.prepared.saved_per_sample_bytes ==
          doctest::Approx(blocks * 4 * T * (h + ffn + d) + 2 * T * h - 2 * T * h));
}
