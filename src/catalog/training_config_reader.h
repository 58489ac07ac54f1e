// Internal to the training-config readers (training_config*.cpp): reading one config's keys with their types and
// ranges, remembering which were used, and the pieces several stacks share (transformers' optim names, DeepSpeed
// files). Not for other code: the public interface is training_config.h. No UI code here.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/training_config.h"

namespace gg::catalog::config_detail {

using nlohmann::json;

class ConfigReader {
public:
    ConfigReader(const json& doc, const std::string& file, TrainingConfigRead& out) : doc_(doc), file_(file), out_(out) {}

    // The value at a dotted key path ("model.lora_rank"), or nullptr when it is absent or null (YAML's empty value).
    // Marks the key as used.
    const json* find(const std::string& key);
    // Each returns true when the key is given and valid (then `value` is set); a wrong type or range is a problem
    // naming the key and `value` is left as it was (the stack's default).
    bool integer(const std::string& key, int& value, int lo, int hi);
    bool number(const std::string& key, double& value, double lo, double hi);
    bool boolean(const std::string& key, bool& value);
    bool text(const std::string& key, std::string& value);
    // A list of names, or one string of comma-separated names (LLaMA-Factory's lora_target: "q_proj,v_proj").
    bool names(const std::string& key, std::vector<std::string>& value);

    void not_used(const std::string& key, const std::string& reason);
    void assume(const std::string& key, const std::string& note) { out_.assumed.push_back({key, note}); }
    void problem(const std::string& key, const std::string& message);
    bool ok() const { return out_.problems.empty(); }
    // The scenario key a config key became, so that a problem the scenario's checks find names the config's key.
    void origin(const std::string& scenario_pointer, const std::string& key) { origins_[scenario_pointer] = key; }
    const std::map<std::string, std::string>& origins() const { return origins_; }

    // Every key not read is listed under not_used: `irrelevant` (keys known not to change memory or time, exact or
    // a prefix ending in '_' or '.') with that reason, the others as not read.
    void finish(const std::vector<std::string>& irrelevant, const std::string& stack_name);

private:
    void walk(const json& node, const std::string& path, const std::vector<std::string>& irrelevant,
              const std::string& stack_name);
    const json& doc_;
    std::string file_;
    TrainingConfigRead& out_;
    std::set<std::string> used_;
    std::map<std::string, std::string> origins_;
};

// A human word for a JSON value's type, for messages: "a list", "a mapping", "text", "true/false", "a number".
std::string kind_of(const json& value);

// transformers' TrainingArguments.optim (OptimizerNames) -> scenario optimizer, optimizer_impl, paged; false when the
// name is not one the estimate models.
struct OptimChoice {
    std::string optimizer;
    std::string impl;  // "" = the scenario's default (foreach)
    bool paged = false;
};
bool hf_optim_choice(const std::string& optim, OptimChoice& out);
void put_optim(json& scenario, const OptimChoice& choice);

// DeepSpeed: a config file's name (LLaMA-Factory's examples/deepspeed/ds_z3_offload_config.json, axolotl's
// deepspeed_configs/zero2.json) or an inline config ({"zero_optimization": {"stage": 2, "offload_optimizer": ...}})
// -> ZeRO stage 1-3 and optimizer offload; stage 0 = not recognised (a problem for the caller to name).
struct ZeroChoice {
    int stage = 0;
    bool offload_optimizer = false;
    bool offload_params = false;
};
ZeroChoice zero_from(const json& value);

// 'text' in single quotes, made printable and short, for messages.
std::string in_quotes(const std::string& s);

// What one stack's reader found. `scenario` holds every key but "model" when the file names the base model by its
// Hub name (`model_name`, read from `model_key`); torchtune's builders name a preset and set "model" themselves.
// Without a sequence length in the file, `seq_len_note` says what the stack does; the model's default is then
// filled in and named under `assumed`.
struct StackRead {
    json scenario = json::object();
    std::string model_name;
    std::string model_key;
    bool model_refused = false;  // the reader has already said why it has no model (a torchtune builder it lacks)
    std::string seq_len_key;
    std::string seq_len_note;
};

void read_llama_factory(ConfigReader& r, StackRead& out);           // training_config_hf.cpp
void read_hf_training_arguments(ConfigReader& r, StackRead& out);   // training_config_hf.cpp
void read_peft_adapter(ConfigReader& r, StackRead& out);            // training_config_hf.cpp
void read_axolotl(ConfigReader& r, StackRead& out);                 // training_config_axolotl.cpp
void read_torchtune(ConfigReader& r, StackRead& out);               // training_config_torchtune.cpp

}  // namespace gg::catalog::config_detail
