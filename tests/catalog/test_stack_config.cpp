// The configs gpuguide writes for a stack parse back (LLaMA-Factory's flat YAML, the JSON inside the Hugging Face
// Python, torchtune's key=value overrides) and every memory-relevant field equals the scenario's.
#include <doctest/doctest.h>

#include <map>
#include <sstream>
#include <string>

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
