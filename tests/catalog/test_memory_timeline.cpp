// Memory over one training step (issue 33): the timeline in `estimate` output comes from the engine's own phase
// model, so its largest training point is the estimate's peak, every point's bands add up to it, and the peak
// point is the phase the report names.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/memory.h"

namespace {
const char* const kScenarios[] = {
    // The default example, and the cases whose phases differ: accumulation (gradients before the forward),
    // checkpointing (a recomputed segment), LoRA, QLoRA (dequantised weights), a paged 8-bit optimizer (its states
    // only in the step), ZeRO-3 (a gathered unit), a pipeline (another stage may be fuller), an evaluation pass,
    // Stable Diffusion (the VAE encoder's forward), a CNN.
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw","gpu":{"id":"rtx-4060"}})",
    R"({"model":"gpt2","batch_size":4,"grad_accum_steps":8,"precision":"bf16-amp","gpu":{"id":"rtx-4090"}})",
    R"({"model":"qwen2.5-1.5b","batch_size":8,"seq_len":1024,"checkpointing":"full","precision":"bf16-amp","gpu":{"id":"rtx-4090"}})",
    R"({"model":"qwen2.5-0.5b","batch_size":4,"seq_len":512,"method":"lora","precision":"bf16-amp","gpu":{"id":"rtx-4090"}})",
    R"({"model":"llama-2-7b","batch_size":2,"seq_len":512,"method":"qlora","precision":"nf4","gpu":{"id":"rtx-4090"}})",
    R"({"model":"gpt2","batch_size":4,"optimizer":"adamw-8bit","stack_options":{"paged_optimizer":true},"gpu":{"id":"rtx-4060"}})",
    R"({"model":"llama-2-7b","batch_size":1,"seq_len":1024,"precision":"bf16-amp","gpu":{"id":"a100-sxm4-80gb","count":8,"strategy":"zero3"}})",
    R"({"model":"llama-2-13b","batch_size":1,"seq_len":1024,"precision":"bf16-amp","grad_accum_steps":8,)"
    R"("gpu":{"id":"a100-sxm4-80gb","count":4,"pipeline_parallel":4}})",
    R"({"model":"gpt2","batch_size":8,"eval_batch_size":32,"precision":"bf16-amp","gpu":{"id":"rtx-4090"}})",
    R"({"model":"resnet50","batch_size":64,"precision":"fp16-amp","gpu":{"id":"rtx-4090"}})",
};
}  // namespace

TEST_CASE("the memory timeline's peak is the estimate's peak, and each point's bands sum to its bytes") {
    int evaluated = 0;
    for (const char* text : kScenarios) {
        CAPTURE(text);
        const gg::catalog::ParsedScenario parsed = gg::catalog::parse_scenario(text, "test");
        if (!parsed.problems.empty()) CAPTURE(parsed.problems[0].message);
        REQUIRE(parsed.problems.empty());
        const gg::catalog::Estimate e = gg::catalog::estimate(parsed.scenario);
        const nlohmann::json report = gg::catalog::report_to_json(parsed.scenario, e);
        const nlohmann::json& tl = report["memory_timeline"];
        REQUIRE(tl["points"].size() >= 4);
        const nlohmann::json& peak = tl["points"][tl["peak_index"].get<int>()];
        CHECK(peak["peak"] == true);
        CHECK(peak["training"] == true);
        CHECK(peak["allocated_bytes"].get<double>() ==
              doctest::Approx(report["memory_bytes"]["peak_allocated"].get<double>()).epsilon(1e-12));
        // The report's peak phase is the peak point's (the backward's points are the loss's and each segment's).
        const std::string phase = report["peak_phase"];
        const std::string point = peak["point"];
        CHECK((phase == "backward" ? point == "backward" || point == "loss_backward" : point == phase));
        CHECK(tl["pipeline_stage"] == report["pipeline_stage"]);
        int peaks = 0;
        for (const nlohmann::json& p : tl["points"]) {
            double sum = 0;
            for (const auto& [band, bytes] : p["bands"].items()) {
                CAPTURE(band);
                CHECK(bytes.get<double>() >= 0);
                sum += bytes.get<double>();
            }
            CHECK(sum == doctest::Approx(p["allocated_bytes"].get<double>()).epsilon(1e-12));
            if (p["training"] == true)
                CHECK(p["allocated_bytes"].get<double>() <= peak["allocated_bytes"].get<double>());
            peaks += p["peak"] == true ? 1 : 0;
            if (p["point"] == "evaluation") {
                ++evaluated;
                // Its excess over the training peak is the verdict's evaluation headroom (memory_fit.cpp), so
                // a job with an evaluation pass is judged against the larger of the two.
                const double f = 1.0 + e.prepared.config.tunables.fragmentation_fraction;
                const double ctx = e.prepared.config.tunables.cuda_context_bytes;
                const double eval_required = p["allocated_bytes"].get<double>() * f + ctx;
                CHECK(std::max(0.0, eval_required - report["memory_bytes"]["nvidia_smi"].get<double>()) ==
                      doctest::Approx(report["headroom_bytes"]["evaluation"].get<double>()).epsilon(1e-9));
            }
        }
        CHECK(peaks == 1);
        // The step runs forward, then backward from the last segment, then the optimizer step.
        CHECK(tl["points"][0]["point"] == "start");
        CHECK(tl["points"][1]["point"] == "forward_end");
        CHECK(tl["points"][2]["point"] == "loss_backward");
    }
    CHECK(evaluated == 1);
}
