// The CLI's subcommands: each lives in its own src/cli/cmd_*.cpp and registers itself here.
// Uses engine + catalog only (never ui or platform).
#pragma once

#include <string>
#include <vector>

namespace gg::cli {

// Exit codes shared by every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // the command ran but could not do its job (I/O error)
constexpr int kExitUsage = 2;    // bad arguments or bad input: a message on stderr, nothing on stdout

struct Command {
    const char* name;     // "estimate"
    const char* usage;    // "gpuguide estimate SCENARIO.json|-"
    const char* summary;  // one line for `gpuguide --help`
    const char* help;     // full text for `gpuguide help NAME` / `gpuguide NAME --help`
    int (*run)(const std::vector<std::string>& args);  // args after the command name
};

// Called from a namespace-scope initializer in each cmd_*.cpp: `const bool kRegistered = register_command({...});`
bool register_command(const Command& command);
const std::vector<Command>& commands();  // sorted by name

// The whole command line after the program name: dispatches to a command, returns its exit code (main.cpp; the
// fuzz target tests/fuzz/fuzz_cli_args.cpp calls it in-process).
int run_main(const std::vector<std::string>& args);

}  // namespace gg::cli
