// Scenario JSON: problems with JSON pointers for bad input (never a throw), exact round trip, the report keys
// scripts rely on, and the CLI contract (exit 2 and nothing on stdout for bad input).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/report.h"
#include "catalog/scenario.h"
#include "catalog/time_data.h"
#include "catalog/time_json.h"

using namespace gg::catalog;

namespace {

bool has_problem_at(const ParsedScenario& p, const std::string& pointer) {
    for (const Problem& q : p.problems)
        if (q.pointer == pointer) return true;
    return false;
}

}  // namespace

TEST_CASE("bad scenarios give problems with the key's JSON pointer") {
    struct Bad { const char* json; const char* pointer; };
    const Bad bad[] = {
        {R"({"model": "gpt2", "batch_size": 0})", "/batch_size"},
        {R"({"model": "gpt2", "image_size": 224})", "/image_size"},
        {R"({"model": "resnet50", "seq_len": 128})", "/seq_len"},
        {R"({"model": "llama-2-7b", "method": "qlora", "precision": "bf16"})", "/precision"},
        {R"({"model": "llama-2-7b", "precision": "nf4"})", "/method"},
        {R"({"model": "gpt2", "colour": "blue"})", "/colour"},
        {R"({"model": "no-such-model"})", "/model"},
        {R"({"model": "gpt2", "precision": "fp64"})", "/precision"},
        {R"({"model": "gpt2", "seq_len": 4096})", "/seq_len"},
        {R"({"model": "gpt2", "gpu": {"count": 0}})", "/gpu/count"},
        {R"({"model": "gpt2", "method": "lora", "lora": {"targets": ["gate"]}})", "/lora/targets"},
        {R"({"model": {"family": "decoder", "layers": 2}})", "/model/hidden"},
        {R"({"model": "gpt2", "attention": "flash"})", "/attention"},
        {R"({"batch_size": 2})", "/model"},
        // Tensor / pipeline parallelism (Megatron-LM's layout)
        {R"({"model": "gpt2", "gpu": {"count": 6, "tensor_parallel": 4}})", "/gpu/count"},
        {R"({"model": "gpt2", "gpu": {"count": 4, "tensor_parallel": 5}})", "/gpu/count"},
        {R"({"model": "gpt2", "gpu": {"count": 8, "tensor_parallel": 8}})", "/gpu/tensor_parallel"},  // 12 heads
        {R"({"model": "resnet50", "gpu": {"count": 2, "pipeline_parallel": 2}})", "/gpu/pipeline_parallel"},
        {R"({"model": "gpt2", "grad_accum_steps": 8, "gpu": {"count": 8, "pipeline_parallel": 8,
            "pipeline_interleave": 2}})", "/gpu/pipeline_parallel"},  // 12 layers in 16 chunks
        {R"({"model": "gpt2", "gpu": {"count": 5, "pipeline_parallel": 5}})", "/gpu/pipeline_parallel"},  // 12 % 5
        {R"({"model": "albert-base", "gpu": {"count": 2, "pipeline_parallel": 2}})", "/gpu/pipeline_parallel"},
        {R"({"model": "vit-b-16", "gpu": {"count": 4, "tensor_parallel": 4, "sequence_parallel": true}})",
         "/gpu/sequence_parallel"},  // 197 tokens
        {R"({"model": "gpt2", "gpu": {"count": 2, "sequence_parallel": true}})", "/gpu/sequence_parallel"},
        {R"({"model": "gpt2", "gpu": {"count": 2, "pipeline_interleave": 2}})", "/gpu/pipeline_interleave"},
        {R"({"model": "gpt2", "grad_accum_steps": 3, "gpu": {"count": 2, "pipeline_parallel": 2,
            "pipeline_interleave": 2}})", "/grad_accum_steps"},
        {R"({"model": "gpt2", "gpu": {"count": 4, "tensor_parallel": 2, "strategy": "fsdp"}})", "/gpu/strategy"},
        {R"({"model": "gpt2", "method": "lora", "gpu": {"count": 2, "tensor_parallel": 2}})", "/method"},
        {R"({"model": "gpt2", "gpu": {"count": 2, "tensor_parallel": 0}})", "/gpu/tensor_parallel"},
        {R"({"model": "gpt2", "gpu": {"count": 2, "sequence_parallel": "yes"}})", "/gpu/sequence_parallel"},
        // Found by an input review (session 13): accepted before, answered with nonsense or silently ignored.
        {R"({"model": "gpt2", "dataset": {"samples": 1000, "loader_samples_per_s": 1e-300}})",
         "/dataset/loader_samples_per_s"},
        {R"({"model": "gpt2", "dataset": {"samples": 0.5}})", "/dataset/samples"},
        {R"({"model": "gpt2", "dataset": {"samples": 1000.5}})", "/dataset/samples"},
        {R"({"model": "gpt2", "dataset": {"samples": 1000, "epochs": 1e-300}})", "/dataset/epochs"},
        {R"({"model": "gpt2", "dataset": {"tokens": 1e-300}})", "/dataset/tokens"},
        {R"({"model": "resnet50", "dataset": {"tokens": 1000000}})", "/dataset/tokens"},
        {R"({"model": {"family": "decoder", "layers": 12, "hidden": 768, "heads": 12, "ffn": 3072, "vocab": 50257,
            "position": "learned", "max_positions": 128, "seq_len": 256}})", "/model/seq_len"},
        {R"({"model": "gpt2", "method": "lora", "lora": {"rank": 65536}})", "/lora/rank"},
        {R"({"model": "llama-3.2-1b", "method": "lora", "lora": {"rank": 1024}})", "/lora/rank"},  // v_proj: 512 out
        {R"({"model": "gpt2", "gpu": {"id": "rtx-4090", "count": 8, "interconnect": "nvlink"}})", "/gpu/interconnect"},
        {R"({"model": "gpt2", "gpu": {"id": "rtx-4090", "count": 2, "interconnect": "nvlink-bridge"}})",
         "/gpu/interconnect"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.json);
        const ParsedScenario p = parse_scenario(b.json, "test");
        CHECK(has_problem_at(p, b.pointer));
    }
    // Their sensible neighbours still pass.
    for (const char* good : {R"({"model": "gpt2", "dataset": {"samples": 1000, "epochs": 0.5, "loader_samples_per_s": 0.5}})",
                             R"({"model": "gpt2", "method": "lora", "lora": {"rank": 768}})",
                             R"({"model": "gpt2", "gpu": {"id": "rtx-3090", "count": 2, "interconnect": "nvlink-bridge"}})",
                             R"({"model": "gpt2", "gpu": {"id": "a100-sxm4-80gb", "count": 8, "interconnect": "nvlink"}})",
                             R"({"model": {"family": "decoder", "layers": 2, "hidden": 64, "heads": 4, "ffn": 256,
                                 "vocab": 100, "position": "learned", "max_positions": 128, "seq_len": 128}})"}) {
        CAPTURE(good);
        CHECK(parse_scenario(good, "test").problems.empty());
    }
}

TEST_CASE("parse_scenario never throws on garbage") {
    const char* garbage[] = {"", "{", "[]", "null", "42", R"({"model": 42})", R"({"model": "gpt2", "lora": 5})",
                             R"({"model": {"family": "resnet", "depths": "x"}})", R"({"model": "gpt2", "batch_size": 1e400})"};
    for (const char* g : garbage) {
        CAPTURE(g);
        ParsedScenario p;
        CHECK_NOTHROW(p = parse_scenario(g, "test"));
        CHECK_FALSE(p.problems.empty());
    }
}

TEST_CASE("gpu.network takes the inter-node rows of data/interconnects.json and must agree with the interconnect") {
    const std::vector<std::string> ids = network_ids();
    CHECK(ids.front() == "ib-hdr");
    for (const char* id : {"ib-ndr", "roce-200g", "efa-400g", "efa-3200g", "ethernet-100g", "ethernet-10g"})
        CHECK(std::find(ids.begin(), ids.end(), id) != ids.end());
    CHECK(std::find(ids.begin(), ids.end(), "nvlink") == ids.end());  // intra-node rows are not networks
    auto problems = [](const char* json) { return parse_scenario(json, "test").problems; };
    const ParsedScenario ok = parse_scenario(R"({"model": "gpt2", "gpu": {"count": 16, "network": "efa-400g"}})", "t");
    REQUIRE(ok.problems.empty());
    CHECK(ok.scenario.network == "efa-400g");
    CHECK(problems(R"({"model": "gpt2", "gpu": {"count": 16, "interconnect": "ethernet", "network": "efa-3200g"}})")
              .empty());
    for (const char* bad : {R"({"model": "gpt2", "gpu": {"count": 16, "network": "nvlink"}})",
                            R"({"model": "gpt2", "gpu": {"count": 16, "network": 400}})",
                            R"({"model": "gpt2", "gpu": {"count": 16, "interconnect": "ib", "network": "roce-200g"}})"}) {
        CAPTURE(bad);
        const std::vector<Problem> p = problems(bad);
        REQUIRE(p.size() == 1);
        CHECK(p[0].pointer == "/gpu/network");
    }
}

TEST_CASE("editing the interconnect or the network keeps the two in agreement") {
    Scenario s;
    s.interconnect = "ib";
    s.network = "efa-400g";  // an Ethernet row: the interconnect follows the new network
    align_network(s, NetworkEdit::kNetworkChanged);
    CHECK(s.interconnect == "ethernet");
    CHECK(s.network == "efa-400g");
    s.interconnect = "ib";  // the interconnect was changed: a network of the other kind goes
    align_network(s, NetworkEdit::kLinkChanged);
    CHECK(s.interconnect == "ib");
    CHECK(s.network.empty());
    s.network = "ib-ndr";  // agreeing, or an intra-node interconnect: nothing changes
    align_network(s, NetworkEdit::kNetworkChanged);
    CHECK(s.interconnect == "ib");
    CHECK(s.network == "ib-ndr");
    s.interconnect = "nvlink";
    s.network = "ethernet-100g";
    align_network(s, NetworkEdit::kLinkChanged);
    CHECK(s.interconnect == "nvlink");
    CHECK(s.network == "ethernet-100g");
}

TEST_CASE("scenario_to_json round-trips exactly") {
    const char* scenarios[] = {
        R"({"model": "llama-3.1-8b", "batch_size": 2, "grad_accum_steps": 8, "seq_len": 4096, "precision": "nf4",
            "optimizer": "adamw-8bit", "method": "qlora", "lora": {"rank": 64, "targets": ["q", "k", "v", "o"], "dropout": 0.05},
            "checkpointing": "full", "attention": "flash", "reserve_fraction": 0.1, "dataset": {"tokens": 1e9}})",
        R"({"model": {"family": "resnet", "depths": [3, 4, 6, 3], "block": "bottleneck", "width": 64, "classes": 10},
            "batch_size": 64, "image_size": 160, "precision": "fp16-amp", "optimizer": "sgd-momentum",
            "dataset": {"samples": 50000, "epochs": 3}})",
        R"({"model": "gpt2", "gpu": {"count": 8, "strategy": "zero3", "interconnect": "nvlink"},
            "tunables": {"cuda_context_bytes": 3e8, "fragmentation_fraction": 0.05}})",
        R"({"model": "gpt2", "gpu": {"id": "h100-sxm", "count": 64, "strategy": "fsdp", "network": "ib-ndr"}})",
        R"({"model": "llama-2-7b", "grad_accum_steps": 8, "seq_len": 4096, "precision": "bf16-amp",
            "gpu": {"count": 32, "strategy": "zero1", "tensor_parallel": 4, "pipeline_parallel": 2,
                    "pipeline_interleave": 2, "sequence_parallel": true}})",
    };
    for (const char* s : scenarios) {
        CAPTURE(s);
        const ParsedScenario a = parse_scenario(s, "test");
        for (const Problem& p : a.problems) MESSAGE(p.pointer << ": " << p.message);
        REQUIRE(a.problems.empty());
        const nlohmann::json j = scenario_to_json(a.scenario);
        const ParsedScenario b = parse_scenario(j.dump(), "test");
        REQUIRE(b.problems.empty());
        CHECK(scenario_to_json(b.scenario) == j);
    }
}

TEST_CASE("the report has the keys scripts rely on") {
    const ParsedScenario p = parse_scenario(R"({"model": "bert-base", "batch_size": 8, "seq_len": 128})", "test");
    REQUIRE(p.problems.empty());
    const nlohmann::json r = report_to_json(p.scenario, estimate(p.scenario));
    for (const char* k : {"weights", "gradients", "optimizer", "activations", "temporary", "framework",
                          "peak_allocated", "nvidia_smi"}) {
        CAPTURE(k);
        CHECK(r["memory_bytes"][k].is_number());
        CHECK(r["memory_bytes"][k].get<double>() >= 0);
    }
    CHECK(r["params"]["total"].get<double>() == doctest::Approx(109483778));
    CHECK(r["params"]["trainable"].is_number());
    CHECK(r["fits"].is_null());  // no GPU: no verdict
    CHECK(r["fits_without_reserve"].is_null());
    CHECK(r.contains("max_batch_size"));
    CHECK(r["explain"]["peak_allocated"]["formula"] == "peak_allocated");
    CHECK(r["memory_bytes"]["nvidia_smi"].get<double>() > r["memory_bytes"]["peak_allocated"].get<double>());
}

#if defined(GG_CLI_PATH) && !defined(_WIN32)
TEST_CASE("gpuguide estimate: bad input exits 2 with nothing on stdout; good input prints JSON") {
    const std::string cli = GG_CLI_PATH;
    auto run = [&](const std::string& json, std::string& out) {
        const std::string cmd = "printf '%s' '" + json + "' | " + cli + " estimate - 2>/dev/null";
        FILE* f = popen(cmd.c_str(), "r");
        REQUIRE(f != nullptr);
        char buf[4096];
        out.clear();
        while (std::size_t n = fread(buf, 1, sizeof buf, f)) out.append(buf, n);
        const int status = pclose(f);
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    };
    std::string out;
    CHECK(run(R"({"model": "gpt2", "batch_size": 0})", out) == 2);
    CHECK(out.empty());
    CHECK(run(R"({"model": "gpt2", "batch_size": 2, "seq_len": 256})", out) == 0);
    const auto j = nlohmann::json::parse(out, nullptr, false);
    CHECK_FALSE(j.is_discarded());
    CHECK(j["memory_bytes"]["peak_allocated"].is_number());
}

TEST_CASE("gpuguide help estimate names every network a scenario can give") {
    const std::string cmd = std::string(GG_CLI_PATH) + " help estimate 2>&1";
    FILE* f = popen(cmd.c_str(), "r");
    REQUIRE(f != nullptr);
    std::string help;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, f)) help.append(buf, n);
    pclose(f);
    REQUIRE(help.find("\"network\"") != std::string::npos);
    for (const std::string& id : network_ids()) {
        CAPTURE(id);
        CHECK(help.find(id) != std::string::npos);
    }
}
#endif

TEST_CASE("precomputed_latents: SD pipelines drop the frozen encoders from memory and time; checked, round-tripped") {
    const ParsedScenario online = parse_scenario(R"({"model": "sd-1.5", "precision": "fp16-amp", "method": "lora"})");
    const ParsedScenario cached =
        parse_scenario(R"({"model": "sd-1.5", "precision": "fp16-amp", "method": "lora", "precomputed_latents": true})");
    REQUIRE(online.problems.empty());
    REQUIRE(cached.problems.empty());
    CHECK_FALSE(online.scenario.training_config().precomputed_latents);
    CHECK(cached.scenario.training_config().precomputed_latents);
    CHECK_FALSE(scenario_to_json(online.scenario).contains("precomputed_latents"));
    CHECK(scenario_to_json(cached.scenario)["precomputed_latents"] == true);
    // The VAE (83,653,863) and CLIP-L (123,060,480) in fp16 sit on the GPU only while the script encodes per step.
    const Estimate a = estimate(online.scenario), b = estimate(cached.scenario);
    CHECK(a.prepared.input_encoder_bytes == doctest::Approx((83653863.0 + 123060480.0) * 2));
    CHECK(b.prepared.input_encoder_bytes == 0);
    CHECK(a.report.weights.bytes - b.report.weights.bytes == doctest::Approx(a.prepared.input_encoder_bytes));
    CHECK(has_problem_at(parse_scenario(R"({"model": "sd-1.5", "precomputed_latents": 1})"), "/precomputed_latents"));
    // Models without frozen input encoders: the key means nothing, and says so.
    CHECK(has_problem_at(parse_scenario(R"({"model": "resnet50", "precomputed_latents": true})"),
                         "/precomputed_latents"));
    CHECK_FALSE(scenario_to_json(parse_scenario(R"({"model": "resnet50"})").scenario).contains("precomputed_latents"));
    // SDXL: diffusers' full fine-tune script encodes the dataset before training (the default then), its LoRA
    // script every batch, with the VAE in fp32 (83,653,863 x 4 B) and the two text encoders in fp16.
    const Scenario xl_full = parse_scenario(R"({"model": "sdxl-unet", "precision": "fp16-amp"})").scenario;
    CHECK(xl_full.precomputed_latents);
    CHECK(scenario_to_json(xl_full)["precomputed_latents"] == true);
    const Scenario xl_lora =
        parse_scenario(R"({"model": "sdxl-unet", "precision": "fp16-amp", "method": "lora"})").scenario;
    CHECK_FALSE(xl_lora.precomputed_latents);
    CHECK_FALSE(scenario_to_json(xl_lora).contains("precomputed_latents"));
    const Scenario xl_full_online =
        parse_scenario(R"({"model": "sdxl-unet", "precision": "fp16-amp", "precomputed_latents": false})").scenario;
    CHECK_FALSE(xl_full_online.precomputed_latents);
    CHECK(scenario_to_json(xl_full_online)["precomputed_latents"] == false);
    CHECK(estimate(xl_lora).prepared.input_encoder_bytes ==
          doctest::Approx(83653863.0 * 4 + (123060480.0 + 694659840.0) * 2));
}

TEST_CASE("frozen_weights_16bit: diffusers' SD LoRA default, checked against the precision and method, round-tripped") {
    const Scenario sd = parse_scenario(R"({"model": "sd-1.5", "precision": "fp16-amp", "method": "lora"})").scenario;
    CHECK(sd.frozen_weights_16bit);
    CHECK(sd.training_config().frozen_weights_16bit);
    CHECK(scenario_to_json(sd)["frozen_weights_16bit"] == true);
    const Scenario sd_fp32 = parse_scenario(
        R"({"model": "sd-1.5", "precision": "fp16-amp", "method": "lora", "frozen_weights_16bit": false})").scenario;
    CHECK_FALSE(sd_fp32.training_config().frozen_weights_16bit);
    CHECK(scenario_to_json(sd_fp32)["frozen_weights_16bit"] == false);
    // An LLM loaded by transformers (fp32 unless torch_dtype says otherwise): off unless asked.
    const Scenario llm = parse_scenario(R"({"model": "llama-2-7b", "precision": "bf16-amp", "method": "lora"})").scenario;
    CHECK_FALSE(llm.frozen_weights_16bit);
    CHECK_FALSE(scenario_to_json(llm).contains("frozen_weights_16bit"));
    const Scenario llm16 = parse_scenario(
        R"({"model": "llama-2-7b", "precision": "bf16-amp", "method": "lora", "frozen_weights_16bit": true})").scenario;
    CHECK(llm16.training_config().frozen_weights_16bit);
    CHECK(scenario_to_json(llm16)["frozen_weights_16bit"] == true);
    // Where it cannot apply, it says so.
    for (const char* text : {R"({"model": "llama-2-7b", "precision": "bf16", "method": "lora", "frozen_weights_16bit": true})",
                             R"({"model": "resnet50", "precision": "fp16-amp", "frozen_weights_16bit": true})"})
        CHECK(has_problem_at(parse_scenario(text), "/frozen_weights_16bit"));
}

TEST_CASE("whole-number lists are checked before they are narrowed to int") {
    // Issue 30: a ResNet depth of 4294967297 (2^32 + 1) wrapped to 1 and was accepted.
    for (const char* depth : {"4294967297", "4294967296", "18446744073709551615", "-4294967295", "101"}) {
        CAPTURE(depth);
        const ParsedScenario p = parse_scenario(
            std::string(R"({"model": {"family": "resnet", "depths": [)") + depth + R"(, 2, 2, 2]}, "batch_size": 8})", "test");
        REQUIRE(p.problems.size() == 1);
        CHECK(p.problems[0].pointer == "/model/depths");
    }
    CHECK(parse_scenario(R"({"model": {"family": "resnet", "depths": [100, 2, 2, 2]}, "batch_size": 8})", "test")
              .problems.empty());
}

TEST_CASE("TF32 on a card without it runs in FP32 (PyTorch ignores allow_tf32 before Ampere); BF16 there is refused") {
    // The same verdict the ranking gives (compat: TF32 needs no feature), so a ranked T4 opens in the calculator.
    const ParsedScenario tf32 = parse_scenario(R"({"model": "resnet50", "precision": "tf32", "gpu": {"id": "t4"},
        "dataset": {"samples": 50000, "epochs": 1}})");
    REQUIRE(tf32.problems.empty());
    gg::engine::TimeReport t, t32;
    REQUIRE(estimate_time(tf32.scenario, embedded_catalog(), embedded_time_data(), t));
    CHECK(t.precision_fallback);
    CHECK(t.rate == gg::engine::MatmulRate::kFp32);
    const ParsedScenario fp32 = parse_scenario(R"({"model": "resnet50", "precision": "fp32", "gpu": {"id": "t4"},
        "dataset": {"samples": 50000, "epochs": 1}})");
    REQUIRE(fp32.problems.empty());
    REQUIRE(estimate_time(fp32.scenario, embedded_catalog(), embedded_time_data(), t32));
    CHECK_FALSE(t32.precision_fallback);
    CHECK(t.step_s == doctest::Approx(t32.step_s));
    CHECK(has_problem_at(parse_scenario(R"({"model": "resnet50", "precision": "bf16-amp", "gpu": {"id": "t4"}})"),
                         "/precision"));
    CHECK(has_problem_at(parse_scenario(R"({"model": "resnet50", "precision": "bf16", "gpu": {"id": "rtx-2080-ti"}})"),
                         "/precision"));
}
