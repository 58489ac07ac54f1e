// `gpuguide advise SCENARIO.json|- [--json]`: per GPU of the catalog, the smallest set of changes that makes the
// job fit (and meet its deadline), with its time and accuracy cost, as JSON on standard output.
// Bad input: every problem on standard error (file, JSON pointer, message), exit 2, nothing on standard output.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "cli/command.h"

namespace gg::cli {
namespace {

bool read_input(const std::string& path, std::string& text) {
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    text = ss.str();
    return true;
}

int run(const std::vector<std::string>& args) {
    std::string path;
    for (const std::string& a : args) {
        if (a == "--json") continue;  // JSON is the only output format; accepted for scripts that pass it
        if (!path.empty() || (a.size() > 1 && a[0] == '-')) {
            std::fprintf(stderr, "gpuguide advise: unexpected argument '%s' (see gpuguide advise --help)\n", a.c_str());
            return kExitUsage;
        }
        path = a;
    }
    if (path.empty()) {
        std::fprintf(stderr, "gpuguide advise: expected SCENARIO.json or - (see gpuguide advise --help)\n");
        return kExitUsage;
    }
    std::string text;
    if (!read_input(path, text)) {
        std::fprintf(stderr, "gpuguide advise: cannot read '%s'\n", path.c_str());
        return kExitFailure;
    }
    const catalog::Catalog& cat = catalog::embedded_catalog();
    const catalog::ParsedDecision parsed = catalog::parse_decision_scenario(text, cat, path);
    if (!parsed.problems.empty()) {
        for (const catalog::Problem& p : parsed.problems)
            std::fprintf(stderr, "%s: %s: %s\n", p.file.c_str(), p.pointer.empty() ? "(document)" : p.pointer.c_str(),
                         p.message.c_str());
        return kExitUsage;
    }
    const std::string out = catalog::advise_json(parsed.value, cat).dump(2);
    std::printf("%s\n", out.c_str());
    return kExitOk;
}

const char* kHelp =
    "For every GPU in the catalog: does the job fit (and meet deadline_h) as given, and if not, the smallest set of\n"
    "changes that makes it work: mixed precision, activation checkpointing, gradient accumulation (same global\n"
    "batch), 8-bit AdamW, LoRA, QLoRA, ZeRO-3 over 2/4/8 cards, a shorter sequence or a smaller image. Fewest\n"
    "changes first, then least training time, then least accuracy risk. Prints {\"time_basis\", \"cards\": [{gpu,\n"
    "status (works_as_is | fixed | no_fix), fits_as_is, original {peak_bytes_per_card, usable_bytes_per_card,\n"
    "time_s}, fix {changes [{change, value, accuracy_risk (none | small | task_dependent), reason}], micro_batch,\n"
    "grad_accum_steps, gpu_count, global_batch, precision, optimizer, method, checkpointing, strategy, seq_len,\n"
    "image_size, peak_bytes_per_card, time_s, time_ratio} | null, warnings}]}.\n"
    "\n"
    "The scenario is the `gpuguide rank` format (deadline_h is used; the cost keys are accepted and ignored).\n"
    "docs/decisions.md explains every change, risk and reason code.";

const bool kRegistered = register_command(
    {"advise", "gpuguide advise SCENARIO.json|- [--json]", "what to change so a job fits each GPU", kHelp, run});

}  // namespace
}  // namespace gg::cli
