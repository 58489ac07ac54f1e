// `gpuguide advise SCENARIO.json|- [--json]`: per GPU of the catalog, the smallest set of changes that makes the
// job fit (and meet its deadline), with its time and accuracy cost, as JSON on standard output.
// Bad input: every problem on standard error (file, JSON pointer, message), exit 2, nothing on standard output.
#include <cstdio>

#include "catalog/catalog.h"
#include "catalog/gan_scenario.h"
#include "catalog/decision_json.h"
#include "cli/command.h"
#include "cli/scenario_input.h"

namespace gg::cli {
namespace {

int run(const std::vector<std::string>& args) {
    ScenarioInput in;
    if (const int rc = read_scenario_argument("advise", args, in); rc != kExitOk) return rc;
    if (in.is_gan) {  // a GAN preset or {"gan": {...}} (catalog/gan_scenario.h, docs/gan.md)
        std::printf("%s\n", catalog::gan_advise_json(in.gan, in.catalog()).dump(2).c_str());
        return kExitOk;
    }
    const catalog::ParsedDecision& parsed = in.parsed;
    const std::string out = catalog::advise_json(parsed.value, in.catalog()).dump(2);
    std::printf("%s\n", out.c_str());
    return kExitOk;
}

const char* kHelp =
    "For every GPU in the catalog: does the job fit (and meet deadline_h) as given, and if not, the smallest set of\n"
    "changes that makes it work. First the stack's own switches, which do not change results (fused_loss: the Liger\n"
    "kernel; offload_activations: checkpointed activations in host RAM), each with the line to set in the\n"
    "scenario's stack (stack_line); then mixed precision, activation checkpointing, gradient accumulation (same global\n"
    "batch), 8-bit AdamW, LoRA, QLoRA, ZeRO-3 over 2/4/8 cards, dropping a weight EMA, encoding an SD dataset once\n"
    "before training (precompute_latents), keeping frozen weights in 16 bits (frozen_weights_16bit), a shorter\n"
    "sequence or a smaller image. Fewest changes first, then least GPU time (per run, or per step without a\n"
    "dataset), then least accuracy risk. Prints {\"time_basis\", \"cards\":\n"
    "[{gpu, status (works_as_is | fixed | no_fix), fits_as_is, original {peak_bytes_per_card, usable_bytes_per_card,\n"
    "time_s}, fix {changes [{change, value, accuracy_risk (none | small | task_dependent), reason, stack_line?}],\n"
    "micro_batch, fused_loss, offload_activations,\n"
    "grad_accum_steps, gpu_count, global_batch, precision, optimizer, method, checkpointing, ema, precomputed_latents,\n"
    "frozen_weights_16bit, strategy, seq_len, image_size, peak_bytes_per_card, verdict (fits | tight: the planner's\n"
    "layout into the reserve when no change keeps it, as the ranking runs the card), time_s, time_ratio} | null,\n"
    "fix_same_count (when fix changes the card count: the best fix on the scenario's own count, same keys) | null,\n"
    "warnings}]}.\n"
    "\n"
    "The scenario is the `gpuguide rank` format (deadline_h is used; the cost keys are accepted and ignored).\n"
    "docs/decisions.md explains every change, risk and reason code." GG_SCENARIO_OPTIONS_HELP;

const bool kRegistered = register_command(
    {"advise", "gpuguide advise SCENARIO.json|- [--user-data FILE] [--json]", "what to change so a job fits each GPU", kHelp, run});

}  // namespace
}  // namespace gg::cli
