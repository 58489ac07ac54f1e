// A fine-tuning stack's own config -> the scenario it describes (the keys `gpuguide estimate` takes): LLaMA-Factory
// YAML, axolotl YAML, torchtune YAML (+ key=value overrides), a PEFT adapter_config.json, Hugging Face
// TrainingArguments as JSON. What the file leaves out gets the stack's documented default; a setting that decides
// memory or time and has no default is named with what was assumed, or is a problem. Every key the reader did not
// use is listed with the reason. Never throws; nothing is fetched: the base model is found among the presets, the
// bundled Hub configs and data/hub_names.json, or given as a config.json. No UI code here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace gg::catalog {

inline constexpr const char* kHubNamesFile = "data/hub_names.json";

// The formats read, as `TrainingConfigRead::format` names them.
extern const std::vector<std::string> kTrainingConfigFormats;  // llama-factory, axolotl, torchtune, peft-adapter,
                                                               // hf-training-arguments

// Why a key was not used, where the reason is one of the common ones (the page says them in its own language).
enum class ConfigNoteKind : std::uint8_t {
    kOther,        // a sentence of its own (`note`)
    kIrrelevant,   // "does not change memory or time"
    kEmpty,        // "empty: <stack>'s default applies"
    kNotModelled,  // "not read: gpuguide does not model this key; ..."
};

struct ConfigKeyNote {
    std::string key;   // the config's own key path: "lora_target", "model.lora_rank", "tokenizer.max_seq_len"
    std::string note;  // not_used: why; assumed: what was assumed and why
    ConfigNoteKind kind = ConfigNoteKind::kOther;
};

struct TrainingConfigRead {
    std::string format;                  // one of kTrainingConfigFormats ("" = not recognised)
    nlohmann::json scenario;             // the scenario (null when `problems` is not empty)
    std::vector<ConfigKeyNote> not_used;  // keys read from the file but not used, with the reason
    std::vector<ConfigKeyNote> assumed;   // settings the file does not give that decide memory or time
    std::vector<Problem> problems;       // pointer: the config key as a JSON pointer ("/model/lora_rank")
    std::string unknown_model;           // the base model's Hub name when it is not bundled ("" = found or not named)
};

struct TrainingConfigOptions {
    std::vector<std::string> overrides;  // torchtune's key=value overrides ("tokenizer.max_seq_len=2048")
    const nlohmann::json* hf_config = nullptr;  // the base model's config.json (--hf-config), else looked up by name
};

// `file` names the source in problems and decides nothing else: the format is read from the keys.
TrainingConfigRead read_training_config(std::string_view text, const std::string& file,
                                        const TrainingConfigOptions& options = {});

// The result as the CLI prints it: {"format", "scenario", "assumed": [{key, note}], "not_used": [{key, reason}]}.
nlohmann::json training_config_read_to_json(const TrainingConfigRead& read);

// The model a Hub name loads, offline: a preset id ("llama-3.1-8b") or {"hf_config": {...}}; null when not bundled.
// Matching ignores case, as the Hub's own URLs do.
nlohmann::json model_for_hub_name(const std::string& hub_name);

}  // namespace gg::catalog
