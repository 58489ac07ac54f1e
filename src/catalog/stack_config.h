// The configuration a user pastes into their fine-tuning stack to run a scenario with every memory-relevant setting
// the estimate assumed: LLaMA-Factory YAML, Hugging Face TrainingArguments + PEFT LoraConfig (Python), a torchtune
// command, Unsloth's FastLanguageModel calls (Python), an axolotl YAML. Text only; no UI.
#pragma once

#include <string>

#include "catalog/scenario.h"

namespace gg::catalog {

struct StackConfig {
    std::string format;  // "yaml" (LLaMA-Factory, axolotl), "python" (hf-trainer, Unsloth), "shell" (torchtune),
                         // "" = none
    std::string text;    // "" when the scenario cannot be written for its stack (see `reason`)
    std::string reason;  // why there is no text: "stack", "model", "parallelism", "method", "precision", "targets"
};

// Llama-style decoders (the presets with a Hugging Face repo in their source) on one GPU or data parallel.
StackConfig stack_config(const Scenario& scenario);

}  // namespace gg::catalog
