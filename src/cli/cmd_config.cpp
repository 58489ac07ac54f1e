// `gpuguide config SCENARIO.json|-`: the configuration to paste into the scenario's fine-tuning stack (LLaMA-Factory
// YAML, Hugging Face TrainingArguments + LoraConfig, a torchtune command, Unsloth's FastLanguageModel calls, an axolotl
// YAML) with every memory-relevant setting the
// estimate assumed, on standard output. A scenario its stack cannot be written for: a message, exit 2.
#include <cstdio>

#include "catalog/stack_config.h"
#include "cli/command.h"
#include "cli/scenario_input.h"

namespace gg::cli {
namespace {

int run(const std::vector<std::string>& args) {
    ScenarioInput in;
    if (const int rc = read_scenario_argument("config", args, in); rc != kExitOk) return rc;
    const catalog::Scenario& s = in.parsed.value.scenario;
    const catalog::StackConfig c = catalog::stack_config(s);
    if (c.text.empty()) {
        const char* why = c.reason == "stack"         ? "no configuration is written for this stack"
                          : c.reason == "parallelism" ? "this stack's config is not written here for this parallelism "
                                                        "(tensor or pipeline parallelism; optimizer offload without "
                                                        "ZeRO; LLaMA-Factory: ZeRO-1 or FSDP; axolotl: offload or FSDP; "
                                                        "Unsloth and torchtune: one card)"
                          : c.reason == "method"      ? "this stack's config is written here for LoRA and QLoRA (axolotl: "
                                                        "and full fine-tuning)"
                          : c.reason == "precision"   ? "the stack cannot load the weights in the dtype the estimate "
                                                        "assumes (see 'precision' and 'frozen_weights_16bit'; torchtune "
                                                        "runs fp32 or pure bf16 with no 8-bit LoRA, Unsloth and "
                                                        "LLaMA-Factory load 16-bit or quantized weights, LLaMA-Factory "
                                                        "quantizes for LoRA only)"
                          : c.reason == "targets"     ? "the stack cannot adapt exactly these LoRA targets (torchtune "
                                                        "adapts the MLP's three projections together, and at least one "
                                                        "attention projection)"
                                                      : "the model is not a Llama-style decoder with a Hugging Face "
                                                        "repository (or torchtune ships no config for it)";
        std::fprintf(stderr, "gpuguide config: stack '%s': %s\n", s.stack.c_str(), why);
        return kExitUsage;
    }
    std::fputs(c.text.c_str(), stdout);
    return kExitOk;
}

const bool kRegistered = register_command(
    {"config", "gpuguide config SCENARIO.json|- [--user-data FILE]",
     "the config to paste into the scenario's stack (LLaMA-Factory, HF Trainer, torchtune, Unsloth, axolotl)",
     "Prints the configuration that runs the scenario in its `stack` with every memory-relevant setting the\n"
     "estimate assumed: llama-factory -> YAML for llamafactory-cli train; hf-trainer -> Python with PEFT's\n"
     "LoraConfig and transformers' TrainingArguments (BitsAndBytesConfig for QLoRA); torchtune -> a `tune run`\n"
     "command with key=value overrides; unsloth -> Python with FastLanguageModel.from_pretrained and\n"
     "get_peft_model; axolotl -> YAML for axolotl train. Llama-style decoder presets only; dataset, template and\n"
     "output paths are left for you to add. Exit 2 (a message on standard error) when the scenario cannot be\n"
     "written for its stack."
     GG_SCENARIO_OPTIONS_HELP,
     run});

}  // namespace
}  // namespace gg::cli
