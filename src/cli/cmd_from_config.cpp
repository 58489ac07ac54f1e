// `gpuguide from-config FILE [--hf-config CONFIG.json] [key=value ...]`: the scenario a stack's training config
// describes (catalog/training_config.h), as JSON on standard output, with what was assumed and the keys not used.
// A base model that is not bundled: exit 2 naming it and asking for its config.json.
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/json_text.h"
#include "catalog/training_config.h"
#include "cli/command.h"
#include "cli/scenario_input.h"

namespace gg::cli {
namespace {

int run(const std::vector<std::string>& args) {
    std::string path, hf_path;
    bool scenario_only = false;
    catalog::TrainingConfigOptions options;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--hf-config") {
            if (i + 1 >= args.size()) {
                std::fprintf(stderr, "gpuguide from-config: --hf-config needs a file (a model's config.json)\n");
                return kExitUsage;
            }
            hf_path = args[++i];
        } else if (a == "--scenario-only") {
            scenario_only = true;
        } else if (path.empty() && (a == "-" || a.empty() || a[0] != '-')) {
            path = a;
        } else if (!path.empty() && a.find('=') != std::string::npos && a[0] != '-') {
            options.overrides.push_back(a);
        } else {
            std::fprintf(stderr, "gpuguide from-config: unexpected argument '%s' (see gpuguide help from-config)\n",
                         catalog::printable(a, 80).c_str());
            return kExitUsage;
        }
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: gpuguide from-config FILE|- [--hf-config CONFIG.json] [key=value ...]\n");
        return kExitUsage;
    }
    std::string text;
    if (const ReadStatus st = read_input_text(path, text); st != ReadStatus::kOk) {
        std::fprintf(stderr, "gpuguide from-config: %s\n", read_status_message(st, path, "training config").c_str());
        return st == ReadStatus::kTooLarge ? kExitUsage : kExitFailure;
    }
    nlohmann::json hf;
    if (!hf_path.empty()) {
        std::string hf_text;
        if (const ReadStatus st = read_input_text(hf_path, hf_text); st != ReadStatus::kOk) {
            std::fprintf(stderr, "gpuguide from-config: %s\n", read_status_message(st, hf_path, "config.json").c_str());
            return st == ReadStatus::kTooLarge ? kExitUsage : kExitFailure;
        }
        catalog::JsonText j = catalog::parse_json_text(hf_text);
        if (!j.error.empty() || !j.value.is_object()) {
            std::fprintf(stderr, "gpuguide from-config: %s: %s\n", catalog::printable(hf_path, 120).c_str(),
                         j.error.empty() ? "a config.json is a JSON object" : j.error.c_str());
            return kExitUsage;
        }
        hf = std::move(j.value);
        options.hf_config = &hf;
    }
    const catalog::TrainingConfigRead read = catalog::read_training_config(text, path == "-" ? "-" : path, options);
    if (!read.problems.empty()) {
        for (const catalog::Problem& p : read.problems)
            std::fprintf(stderr, "gpuguide from-config: %s: %s\n", catalog::printable(p.file, 120).c_str(),
                         catalog::printable(p.message, 400).c_str());
        if (!read.unknown_model.empty())
            std::fprintf(stderr, "gpuguide from-config: pass the config.json of '%s' with --hf-config CONFIG.json\n",
                         catalog::printable(read.unknown_model, 120).c_str());
        return kExitUsage;
    }
    const nlohmann::json out = scenario_only ? read.scenario : catalog::training_config_read_to_json(read);
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
}

const bool kRegistered = register_command(
    {"from-config", "gpuguide from-config FILE|- [--hf-config CONFIG.json] [--scenario-only] [key=value ...]",
     "the scenario a LLaMA-Factory, axolotl or torchtune config (or PEFT / TrainingArguments JSON) describes",
     "Reads a training config and prints the scenario it describes (the keys `estimate` takes) as\n"
     "{\"format\", \"scenario\", \"assumed\": [{key, note}], \"not_used\": [{key, reason}]}:\n"
     "  LLaMA-Factory YAML (llamafactory-cli train), axolotl YAML, torchtune YAML (key=value overrides after\n"
     "  the file, as `tune run` takes them), a PEFT adapter_config.json, Hugging Face TrainingArguments JSON.\n"
     "What the file leaves out gets the stack's documented default; a memory- or time-deciding setting that\n"
     "is missing is listed under \"assumed\" with what was assumed. Every key not used is listed with why.\n"
     "The base model is found offline by its Hub name (the presets, the bundled Hub configs); an unknown\n"
     "name is exit 2 asking for its config.json: --hf-config CONFIG.json. Nothing is fetched.\n"
     "Keys read per stack, with their sources: docs/training-configs.md.\n"
     "\n"
     "Options:\n"
     "  --hf-config FILE   the base model's config.json (instead of looking the name up)\n"
     "  --scenario-only    print only the scenario, to pipe into `gpuguide estimate -`",
     run});

}  // namespace
}  // namespace gg::cli
