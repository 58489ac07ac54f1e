// The configs gpuguide writes for a stack parse back (LLaMA-Factory's flat YAML, the JSON inside the Hugging Face
// Python, torchtune's key=value overrides) and every memory-relevant field equals the scenario's.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/scenario.h"
#include "catalog/stack_config.h"

using namespace gg::catalog;

namespace {

Scenario scenario_of(const std::string& text) {
    const ParsedScenario p = parse_scenario(text);
    for (const auto& x : p.problems) {
        CAPTURE(x.pointer);
        CAPTURE(x.message);
        CHECK(false);
    }
    return p.scenario;
}

// LLaMA-Factory's configs are flat "key: value" YAML mappings; '#' starts a comment. A line that is neither fails.
std::map<std::string, std::string> parse_flat_yaml(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const std::size_t colon = line.find(": ");
        CAPTURE(line);
        REQUIRE(colon != std::string::npos);
        const std::string key = line.substr(0, colon);
        CHECK(out.count(key) == 0);  // a YAML mapping has each key once
        out[key] = line.substr(colon + 2);
    }
    return out;
}

// axolotl's configs: "key: value" lines and block lists ("key:" then "  - item" lines), returned as
// "item1,item2". A line that is neither fails.
std::map<std::string, std::string> parse_yaml_with_lists(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text);
    std::string line, list_key;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        CAPTURE(line);
        if (line.rfind("  - ", 0) == 0) {
            REQUIRE_FALSE(list_key.empty());
            std::string& v = out[list_key];
            v += (v.empty() ? "" : ",") + line.substr(4);
            continue;
        }
        list_key.clear();
        if (line.back() == ':') {
            list_key = line.substr(0, line.size() - 1);
            CHECK(out.count(list_key) == 0);
            out[list_key] = "";
            continue;
        }
        const std::size_t colon = line.find(": ");
        REQUIRE(colon != std::string::npos);
        const std::string key = line.substr(0, colon);
        CHECK(out.count(key) == 0);
        out[key] = line.substr(colon + 2);
    }
    return out;
}

// The JSON object a Python line passes as **json.loads("""...""") to `call` (after its positional arguments).
nlohmann::json python_kwargs(const std::string& text, const std::string& call) {
    const std::size_t call_at = text.find(call + "(");
    REQUIRE(call_at != std::string::npos);
    const std::size_t at = text.find("**json.loads(\"\"\"", call_at);
    REQUIRE(at != std::string::npos);
    REQUIRE(text.find('\n', call_at) > at);  // on the call's own line
    const std::size_t start = at + 16;
    const std::size_t end = text.find("\"\"\"", start);
    REQUIRE(end != std::string::npos);
    const nlohmann::json j = nlohmann::json::parse(text.substr(start, end - start), nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
}

// torchtune: `tune run RECIPE --config NAME key=value ...`.
std::map<std::string, std::string> parse_overrides(const std::string& text) {
    std::map<std::string, std::string> out;
    std::istringstream in(text.substr(text.find("tune run")));
    std::string word;
    while (in >> word) {
        const std::size_t eq = word.find('=');
        if (eq != std::string::npos) out[word.substr(0, eq)] = word.substr(eq + 1);
        else if (word == "--config") in >> out["--config"];
    }
    return out;
}

}  // namespace

TEST_CASE("LLaMA-Factory YAML: every memory-relevant setting of the scenario, parsed back") {
    const Scenario s = scenario_of(R"({"model": "llama-3.1-8b", "seq_len": 2048, "batch_size": 2, "grad_accum_steps": 8,
        "precision": "nf4", "optimizer": "adamw", "method": "qlora", "lora": {"rank": 16, "targets": ["q", "k", "v", "o"]},
        "stack": "llama-factory", "stack_options": {"liger_kernel": true, "packing": true, "paged_optimizer": true},
        "attention": "flash", "eval_batch_size": 4})");
    const StackConfig c = stack_config(s);
    REQUIRE(c.format == "yaml");
    const auto y = parse_flat_yaml(c.text);
    CHECK(y.at("model_name_or_path") == "meta-llama/Llama-3.1-8B");
    CHECK(y.at("finetuning_type") == "lora");
    CHECK(y.at("lora_rank") == "16");
    CHECK(y.at("lora_target") == "q_proj,k_proj,v_proj,o_proj");
    CHECK(y.at("quantization_bit") == "4");
    CHECK(y.at("cutoff_len") == "2048");
    CHECK(y.at("per_device_train_batch_size") == "2");
    CHECK(y.at("gradient_accumulation_steps") == "8");
    CHECK(y.at("bf16") == "true");
    CHECK(y.at("optim") == "paged_adamw_32bit");
    CHECK(y.at("disable_gradient_checkpointing") == "false");  // LLaMA-Factory's default: checkpointing on
    CHECK(s.checkpointing == "full");
    CHECK(y.at("flash_attn") == "fa2");
    CHECK(y.at("enable_liger_kernel") == "true");
    CHECK(y.at("use_unsloth") == "false");
    CHECK(y.at("packing") == "true");
    CHECK(y.at("per_device_eval_batch_size") == "4");
}

TEST_CASE("Hugging Face Trainer + PEFT: the LoraConfig and TrainingArguments JSON parse back to the scenario") {
    const Scenario s = scenario_of(R"({"model": "llama-3.1-8b", "seq_len": 4096, "batch_size": 1, "grad_accum_steps": 4,
        "precision": "bf16", "optimizer": "adamw", "optimizer_impl": "fused", "method": "lora", "lora": {"rank": 8},
        "checkpointing": "full", "stack_options": {"liger_kernel": true}})");
    const StackConfig c = stack_config(s);
    REQUIRE(c.format == "python");
    CHECK(c.text.find("from_pretrained(\"meta-llama/Llama-3.1-8B\", attn_implementation=\"sdpa\", "
                      "torch_dtype=torch.bfloat16)") != std::string::npos);
    CHECK(c.text.find("max_length=4096") != std::string::npos);
    const nlohmann::json lora = python_kwargs(c.text, "LoraConfig");
    CHECK(lora["r"] == 8);
    CHECK(lora["target_modules"] == nlohmann::json({"q_proj", "v_proj"}));
    CHECK(lora["lora_dropout"] == 0.0);
    const nlohmann::json args = python_kwargs(c.text, "TrainingArguments");
    CHECK(args["per_device_train_batch_size"] == 1);
    CHECK(args["gradient_accumulation_steps"] == 4);
    CHECK(args["gradient_checkpointing"] == true);
    CHECK(args["optim"] == "adamw_torch_fused");
    CHECK(args["use_liger_kernel"] == true);
    CHECK(args["bf16"] == false);  // pure bf16: the weights are loaded in bf16, no autocast
    // QLoRA: the 4-bit NF4 base with double quantization the engine counts.
    const StackConfig q = stack_config(scenario_of(R"({"model": "llama-3.1-8b", "precision": "nf4", "method": "qlora"})"));
    CHECK(q.text.find("bnb_4bit_quant_type=\"nf4\", bnb_4bit_use_double_quant=True") != std::string::npos);
    CHECK(python_kwargs(q.text, "TrainingArguments")["gradient_checkpointing"] == false);  // HF's default: off
}

TEST_CASE("torchtune: the command's overrides parse back to the scenario") {
    const Scenario s = scenario_of(R"({"model": "llama-3.1-8b", "seq_len": 2048, "batch_size": 2, "precision": "bf16",
        "optimizer": "adamw", "optimizer_impl": "fused", "method": "lora",
        "lora": {"rank": 8, "targets": ["q", "v", "o", "gate", "up", "down"]}, "stack": "torchtune",
        "stack_options": {"packing": true, "compile": true, "offload_activations": true}})");
    const StackConfig c = stack_config(s);
    REQUIRE(c.format == "shell");
    const auto o = parse_overrides(c.text);
    CHECK(o.at("--config") == "llama3_1/8B_lora_single_device");
    CHECK(o.at("batch_size") == "2");
    CHECK(o.at("tokenizer.max_seq_len") == "2048");
    CHECK(o.at("model.lora_rank") == "8");
    CHECK(o.at("model.lora_attn_modules") == "[q_proj,v_proj,output_proj]");
    CHECK(o.at("model.apply_lora_to_mlp") == "True");
    CHECK(o.at("enable_activation_checkpointing") == "True");  // torchtune's default, kept
    CHECK(o.at("enable_activation_offloading") == "True");
    CHECK(o.at("dataset.packed") == "True");
    CHECK(o.at("compile") == "True");
    CHECK(o.at("optimizer.fused") == "True");
}

TEST_CASE("Unsloth: from_pretrained, get_peft_model and TrainingArguments parse back to the scenario") {
    const Scenario s = scenario_of(R"({"model": "llama-3.1-8b", "seq_len": 2048, "batch_size": 2, "grad_accum_steps": 4,
        "precision": "nf4", "optimizer": "adamw-8bit", "method": "qlora", "lora": {"rank": 16,
        "targets": ["q", "k", "v", "o", "gate", "up", "down"]}, "stack": "unsloth", "stack_options": {"packing": true}})");
    const StackConfig c = stack_config(s);
    REQUIRE(c.format == "python");
    const nlohmann::json load = python_kwargs(c.text, "FastLanguageModel.from_pretrained");
    CHECK(load["model_name"] == "meta-llama/Llama-3.1-8B");
    CHECK(load["max_seq_length"] == 2048);
    CHECK(load["load_in_4bit"] == true);
    const nlohmann::json peft = python_kwargs(c.text, "FastLanguageModel.get_peft_model");
    CHECK(peft["r"] == 16);
    CHECK(peft["target_modules"] ==
          nlohmann::json({"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}));
    CHECK(peft["use_gradient_checkpointing"] == "unsloth");  // Unsloth's default: offloaded checkpointing
    CHECK(s.checkpointing == "full");
    CHECK(s.offload_activations_effective());
    const nlohmann::json args = python_kwargs(c.text, "TrainingArguments");
    CHECK(args["per_device_train_batch_size"] == 2);
    CHECK(args["gradient_accumulation_steps"] == 4);
    CHECK(args["optim"] == "adamw_8bit");
    CHECK(args["bf16"] == true);
    CHECK(c.text.find("max_seq_length=2048, packing=True") != std::string::npos);
    // Offloading off, and checkpointing off: torch's checkpointing, then none.
    const StackConfig plain = stack_config(scenario_of(R"({"model": "llama-3.1-8b", "precision": "bf16",
        "method": "lora", "stack": "unsloth", "stack_options": {"offload_activations": false}})"));
    CHECK(python_kwargs(plain.text, "FastLanguageModel.get_peft_model")["use_gradient_checkpointing"] == true);
    CHECK(python_kwargs(plain.text, "FastLanguageModel.from_pretrained")["load_in_4bit"] == false);
    const StackConfig none = stack_config(scenario_of(R"({"model": "llama-3.1-8b", "precision": "bf16",
        "method": "lora", "stack": "unsloth", "checkpointing": "none"})"));
    CHECK(python_kwargs(none.text, "FastLanguageModel.get_peft_model")["use_gradient_checkpointing"] == false);
}

TEST_CASE("axolotl: the YAML, lists included, parses back to the scenario") {
    const Scenario s = scenario_of(R"({"model": "mistral-7b", "seq_len": 4096, "batch_size": 1, "grad_accum_steps": 8,
        "precision": "bf16-amp", "optimizer": "adamw", "method": "lora", "lora": {"rank": 32, "targets": ["q", "v"]},
        "checkpointing": "full", "attention": "flash", "stack": "axolotl", "eval_batch_size": 2,
        "stack_options": {"liger_kernel": true, "packing": true, "offload_activations": true,
                          "paged_optimizer": true}})");
    const StackConfig c = stack_config(s);
    REQUIRE(c.format == "yaml");
    const auto y = parse_yaml_with_lists(c.text);
    CHECK(y.at("base_model") == "mistralai/Mistral-7B-v0.1");
    CHECK(y.at("load_in_4bit") == "false");
    CHECK(y.at("adapter") == "lora");
    CHECK(y.at("lora_r") == "32");
    CHECK(y.at("lora_target_modules") == "q_proj,v_proj");
    CHECK(y.at("sequence_len") == "4096");
    CHECK(y.at("sample_packing") == "true");
    CHECK(y.at("micro_batch_size") == "1");
    CHECK(y.at("gradient_accumulation_steps") == "8");
    CHECK(y.at("eval_batch_size") == "2");
    CHECK(y.at("bf16") == "true");
    CHECK(y.at("fp16") == "false");
    CHECK(y.count("bfloat16") == 0);
    CHECK(y.at("optimizer") == "paged_adamw_32bit");
    CHECK(y.at("gradient_checkpointing") == "offload");
    CHECK(y.at("flash_attention") == "true");
    CHECK(y.at("plugins") == "axolotl.integrations.liger.LigerPlugin");
    CHECK(y.at("liger_fused_linear_cross_entropy") == "true");
    // QLoRA computes in bf16 (autocast); pure bf16 LoRA loads the model in bf16 without autocast.
    const auto q = parse_yaml_with_lists(stack_config(scenario_of(R"({"model": "llama-3.1-8b", "precision": "nf4",
        "method": "qlora", "stack": "axolotl"})")).text);
    CHECK(q.at("load_in_4bit") == "true");
    CHECK(q.at("adapter") == "qlora");
    CHECK(q.at("bf16") == "true");
    CHECK(q.at("gradient_checkpointing") == "false");  // axolotl's default (transformers'): off
    const auto pure = parse_yaml_with_lists(stack_config(scenario_of(R"({"model": "llama-3.1-8b", "precision": "bf16",
        "method": "lora", "stack": "axolotl"})")).text);
    CHECK(pure.at("bfloat16") == "true");
    CHECK(pure.at("bf16") == "false");
}

TEST_CASE("no config where the stack or the model cannot take one") {
    CHECK(stack_config(scenario_of(R"({"model": "llama-3.1-8b", "stack": "unsloth"})")).reason == "method");
    CHECK(stack_config(scenario_of(R"({"model": "bert-base"})")).reason == "model");
    CHECK(stack_config(scenario_of(R"({"model": "qwen2.5-14b", "method": "lora", "stack": "torchtune"})")).reason ==
          "model");
    CHECK(stack_config(scenario_of(R"({"model": "llama-3.1-8b", "stack": "torchtune"})")).reason == "method");
}

TEST_CASE("every stack x method x precision x target spelling: the config loads what the estimate counts, or says why not") {
    // Issue 39: int8 estimated but 16/32-bit configured; q_proj written as q_proj_proj; torchtune's MLP switch on
    // for attention-only targets. Each spelling of the targets and the modules it means for a Llama decoder.
    const std::vector<std::pair<std::string, std::vector<std::string>>> spellings = {
        {"", {"q_proj", "v_proj"}},  // PEFT's default
        {R"(["q", "v"])", {"q_proj", "v_proj"}},
        {R"(["q_proj", "v_proj"])", {"q_proj", "v_proj"}},
        {R"(["all-linear"])", {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}},
        {R"(["q", "k", "v", "o", "gate", "up", "down"])",
         {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}},
        {R"(["up_proj"])", {"up_proj"}},
    };
    const std::vector<std::string> known_reasons = {"stack", "model", "parallelism", "method", "precision", "targets"};
    int written = 0, refused = 0;
    for (const std::string& stack : kStacks)
        for (const std::string method : {"lora", "qlora", "full", "frozen-backbone"})
            for (const std::string precision : {"fp32", "bf16-amp", "fp16-amp", "bf16", "int8", "nf4"})
                for (const auto& [spelling, modules] : spellings) {
                    const bool lora = method == "lora" || method == "qlora";
                    if (!lora && !spelling.empty()) continue;
                    std::string text = R"({"model": "llama-3.1-8b", "stack": ")" + stack + R"(", "method": ")" + method +
                                       R"(", "precision": ")" + precision + "\"";
                    if (!spelling.empty()) text += R"(, "lora": {"targets": )" + spelling + "}";
                    text += "}";
                    const ParsedScenario p = parse_scenario(text);
                    if (!p.problems.empty()) continue;  // a combination the scenario refuses (qlora + bf16, ...)
                    CAPTURE(text);
                    const Scenario& s = p.scenario;
                    const StackConfig c = stack_config(s);
                    if (c.text.empty()) {
                        CHECK(std::find(known_reasons.begin(), known_reasons.end(), c.reason) != known_reasons.end());
                        ++refused;
                        continue;
                    }
                    ++written;
                    const std::string& t = c.text;
                    CHECK(t.find("_proj_proj") == std::string::npos);
                    CHECK(t.find("all-linear_proj") == std::string::npos);
                    const bool four = precision == "nf4", eight = precision == "int8";
                    // The weights' storage: quantized loads name their bits, in every stack's own words.
                    if (stack == "hf-trainer") {
                        CHECK((t.find("load_in_4bit=True") != std::string::npos) == four);
                        CHECK((t.find("load_in_8bit=True") != std::string::npos) == eight);
                        // 16-bit weights where the estimate counts them (pure bf16, quantized models' other modules,
                        // frozen weights in the autocast dtype); none where it counts fp32.
                        const bool sixteen = precision == "bf16" || four || eight || s.training_config().frozen_weights_16bit;
                        CHECK((t.find("torch_dtype=") != std::string::npos) == sixteen);
                        if (method == "frozen-backbone") CHECK(t.find("requires_grad = False") != std::string::npos);
                    } else if (stack == "llama-factory") {
                        const auto y = parse_flat_yaml(t);
                        CHECK(y.count("quantization_bit") == (four || eight ? 1u : 0u));
                        if (four || eight) CHECK(y.at("quantization_bit") == (four ? "4" : "8"));
                        if (method == "frozen-backbone") CHECK(y.at("freeze_trainable_layers") == "0");
                        if (lora) {
                            std::string joined;
                            for (const std::string& m : modules) joined += (joined.empty() ? "" : ",") + m;
                            CHECK(y.at("lora_target") == joined);
                        }
                    } else if (stack == "axolotl") {
                        const auto y = parse_yaml_with_lists(t);
                        CHECK(y.at("load_in_4bit") == (four ? "true" : "false"));
                        CHECK(y.at("load_in_8bit") == (eight ? "true" : "false"));
                        if (lora) {
                            std::string joined;
                            for (const std::string& m : modules) joined += (joined.empty() ? "" : ",") + m;
                            CHECK(y.at("lora_target_modules") == joined);
                        }
                    } else if (stack == "unsloth") {
                        const nlohmann::json load = python_kwargs(t, "FastLanguageModel.from_pretrained");
                        CHECK(load["load_in_4bit"] == four);
                        CHECK(load["load_in_8bit"] == eight);
                        CHECK(python_kwargs(t, "FastLanguageModel.get_peft_model")["target_modules"] ==
                              nlohmann::json(modules));
                    } else if (stack == "torchtune") {
                        CHECK_FALSE(eight);  // torchtune has no 8-bit LoRA: refused above
                        const auto o = parse_overrides(t);
                        CHECK((o.at("--config").find("qlora") != std::string::npos) == four);
                        CHECK(o.at("dtype") == (precision == "fp32" ? "fp32" : "bf16"));
                        const bool mlp = std::find(modules.begin(), modules.end(), "gate_proj") != modules.end();
                        CHECK(o.at("model.apply_lora_to_mlp") == (mlp ? "True" : "False"));
                    }
                    if (lora && (stack == "hf-trainer"))
                        CHECK(python_kwargs(t, "LoraConfig")["target_modules"] == nlohmann::json(modules));
                }
    CHECK(written > 50);
    CHECK(refused > 10);
    // The issue's own cases: Llama-3.1-8B LoRA in int8 loads 8-bit weights (or the stack refuses), and a single MLP
    // projection cannot be written for torchtune, whose switch adapts all three.
    const Scenario int8 = scenario_of(R"({"model": "llama-3.1-8b", "method": "lora", "precision": "int8"})");
    CHECK(stack_config(int8).text.find("BitsAndBytesConfig(load_in_8bit=True)") != std::string::npos);
    Scenario tt = int8;
    tt.stack = "torchtune";
    CHECK(stack_config(tt).reason == "precision");
    CHECK(stack_config(scenario_of(R"({"model": "llama-3.1-8b", "method": "lora", "precision": "bf16",
        "stack": "torchtune", "lora": {"targets": ["up"]}})")).reason == "targets");
}

TEST_CASE("a strategy the estimate counts reaches the config: DeepSpeed for ZeRO, with offload; refused where a stack has none") {
    const auto on = [](const std::string& stack, const std::string& strategy, bool offload) {
        return scenario_of(R"({"model": "llama-3.1-8b", "method": "lora", "precision": "bf16-amp", "stack": ")" + stack +
                           R"(", "gpu": {"id": "a100-sxm4-80gb", "count": 4, "strategy": ")" + strategy +
                           R"("}, "offload_optimizer": )" + (offload ? "true" : "false") + "}");
    };
    const nlohmann::json args = python_kwargs(stack_config(on("hf-trainer", "zero3", true)).text, "TrainingArguments");
    CHECK(args["deepspeed"]["zero_optimization"]["stage"] == 3);
    CHECK(args["deepspeed"]["zero_optimization"]["offload_optimizer"]["device"] == "cpu");
    CHECK(python_kwargs(stack_config(on("hf-trainer", "fsdp", false)).text, "TrainingArguments")["fsdp"] ==
          "full_shard auto_wrap");
    CHECK(parse_flat_yaml(stack_config(on("llama-factory", "zero3", true)).text).at("deepspeed") ==
          "examples/deepspeed/ds_z3_offload_config.json");
    CHECK(parse_flat_yaml(stack_config(on("llama-factory", "zero2", false)).text).at("deepspeed") ==
          "examples/deepspeed/ds_z2_config.json");
    CHECK(stack_config(on("llama-factory", "zero1", false)).reason == "parallelism");  // LLaMA-Factory ships no ZeRO-1 file
    CHECK(stack_config(on("axolotl", "zero3", true)).reason == "parallelism");  // its offload files move parameters too
    CHECK(parse_yaml_with_lists(stack_config(on("axolotl", "zero3", false)).text).at("deepspeed") ==
          "deepspeed_configs/zero3.json");
    CHECK(stack_config(on("torchtune", "ddp", false)).reason == "parallelism");  // a single-device recipe
    // Offload without ZeRO is no stack's: refused for every stack.
    for (const std::string& stack : kStacks) CHECK(stack_config(on(stack, "ddp", true)).reason != "");
}
