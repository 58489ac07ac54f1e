// `gpuguide validate [--markdown]`: runs every memory case of tests/validation/*.json (compiled in) through the
// engine and prints case, measured, predicted, error and pass/fail. Exit 0 even when cases miss (it reports).
#include <cmath>
#include <cstdio>

#include "catalog/report.h"
#include "cli/command.h"

namespace gg::cli {
namespace {

std::string short_file(const std::string& f) {
    const auto slash = f.rfind('/');
    return slash == std::string::npos ? f : f.substr(slash + 1);
}

int run(const std::vector<std::string>& args) {
    bool markdown = false;
    for (const std::string& a : args) {
        if (a == "--markdown") markdown = true;
        else {
            std::fprintf(stderr, "gpuguide validate: unknown option '%s' (allowed: --markdown)\n", a.c_str());
            return kExitUsage;
        }
    }
    const auto rows = catalog::run_memory_validation();
    int pass = 0, ran = 0;
    if (markdown) {
        std::printf("| file | case | quantity | measured | predicted | error | tolerance | result |\n");
        std::printf("| --- | --- | --- | ---: | ---: | ---: | ---: | --- |\n");
    } else {
        std::printf("%-28s %-52s %-24s %16s %16s %8s %8s %s\n", "file", "case", "quantity", "measured", "predicted",
                    "error", "tol", "result");
    }
    for (const auto& r : rows) {
        const bool informative = r.bound == "informative";
        const char* result = !r.ran ? "not run" : informative ? "info (not judged)" : r.pass ? "pass" : "MISS";
        ran += r.ran;
        pass += r.pass;
        const std::string tol =
            informative ? std::string("-")
                        : std::string(r.bound == "upper" ? "<= +" : r.bound == "lower" ? ">= -" : "+-") +
                              std::to_string(int(std::lround(r.tolerance_fraction * 1000)) / 10.0).substr(0, 4) + "%";
        if (markdown)
            std::printf("| %s | %s | %s | %.6g | %.6g | %+.1f%% | %s | %s%s%s |\n", short_file(r.file).c_str(),
                        r.id.c_str(), r.quantity.c_str(), r.measured, r.predicted, r.error_fraction * 100, tol.c_str(),
                        result, r.problem.empty() ? "" : ": ", r.problem.c_str());
        else
            std::printf("%-28s %-52s %-24s %16.6g %16.6g %+7.1f%% %8s %s%s%s\n", short_file(r.file).c_str(),
                        r.id.c_str(), r.quantity.c_str(), r.measured, r.predicted, r.error_fraction * 100, tol.c_str(),
                        result, r.problem.empty() ? "" : ": ", r.problem.c_str());
    }
    std::printf("%s%d of %zu memory cases run, %d within tolerance%s\n", markdown ? "\n" : "", ran, rows.size(), pass,
                markdown ? "." : "");
    return kExitOk;
}

const bool kRegistered = register_command(
    {"validate", "gpuguide validate [--markdown]", "check the memory engine against measured and published cases",
     "Runs every case of tests/validation/*.json whose measured.quantity is a memory quantity (params_total,\n"
     "params_trainable, param_tensors, param_matrices, saved_activations_bytes, peak_allocated_bytes,\n"
     "nvidia_smi_bytes, peak_reserved_bytes, weights_bytes, optimizer_bytes, model_states_bytes) through the\n"
     "engine and prints measured, predicted, the\n"
     "relative error and whether it is within the case's tolerance (bound 'upper': predicted <= measured).\n"
     "--markdown prints a Markdown table (docs/validation.md holds it).",
     run});

}  // namespace
}  // namespace gg::cli
