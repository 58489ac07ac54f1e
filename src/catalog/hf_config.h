// A Hugging Face config.json (what every model on the Hub ships) -> engine::ModelSpec, and LoRA targets named the
// way PEFT takes them (the model's own module names, "all-linear"). Never throws; an unknown model_type or a
// missing field is a problem naming it, never a guess. No UI code here.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "engine/workload.h"

namespace gg::catalog {

// The config.json model types read (transformers' `model_type`), for messages and --help.
extern const std::vector<std::string> kHfModelTypes;

// Reads `config` (a config.json object) into `out`. Problems carry `file` and JSON pointers below `pointer`
// ("/model/hf_config/num_attention_heads"). Returns true when the model was read without problems.
bool parse_hf_config(const nlohmann::json& config, const std::string& file, const std::string& pointer,
                     engine::ModelSpec& out, std::vector<Problem>& problems);

// LoRA targets as PEFT's `target_modules` takes them, resolved on the model: the short role names of the scenario
// format (q, k, v, o, qkv, gate, up, down, fc1, fc2), a module's own name matched as PEFT matches it (the last parts
// of the module path: "q_proj", "c_attn", "query_key_value", "dense"), or "all-linear" (every Linear but the
// output layer). `unknown` lists the targets the model does not have; `available` what it has, for the message.
struct LoraTargets {
    std::vector<engine::ParamRole> roles;
    std::vector<std::string> unknown;
    std::vector<std::string> available;
};
LoraTargets resolve_lora_targets(const engine::ModelSpec& model, const std::vector<std::string>& targets);

// The model's own module names (the last part of the module path, as PEFT's target_modules takes them: "q_proj",
// "gate_proj", "lm_head") of every Linear whose role the estimate adapts with LoRA, in forward order, each once.
// `roles` empty = PEFT's default for the model (q and v, or a fused qkv: memory_terms.cpp is_lora_target).
std::vector<std::string> lora_module_names(const engine::ModelSpec& model, const std::vector<engine::ParamRole>& roles);

}  // namespace gg::catalog
