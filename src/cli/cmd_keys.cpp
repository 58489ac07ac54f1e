// `gpuguide keys [--markdown]`: every scenario key with its type, range or values, default and help, from the key
// table the parser reads scenarios by (catalog/scenario_keys.h). --markdown prints docs/scenario-keys.md.
#include <cstdio>

#include "catalog/scenario_keys.h"
#include "cli/command.h"

namespace gg::cli {
namespace {

int run(const std::vector<std::string>& args) {
    bool markdown = false;
    for (const std::string& a : args) {
        if (a == "--markdown") markdown = true;
        else {
            std::fprintf(stderr, "gpuguide keys: unknown option '%s' (allowed: --markdown)\n", a.c_str());
            return kExitUsage;
        }
    }
    const std::string out = markdown ? catalog::scenario_keys_markdown() : catalog::scenario_keys_text();
    std::fputs(out.c_str(), stdout);
    return kExitOk;
}

const char* kHelp =
    "Lists every key of a scenario (the input of estimate, rank and advise): its path (a/b is key b inside object\n"
    "a), what it allows, its default and what it says. The parser reads scenarios by the same table, so this list\n"
    "and the validation messages agree. --markdown prints the table of docs/scenario-keys.md.";

const bool kRegistered = register_command(
    {"keys", "gpuguide keys [--markdown]", "the scenario keys: type, range, default, help", kHelp, run});

}  // namespace
}  // namespace gg::cli
