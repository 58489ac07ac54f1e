// gpuguide's command-line tool: JSON in, JSON out. This file only dispatches; each subcommand is in
// src/cli/cmd_*.cpp. Exit codes are in command.h.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"

namespace gg::cli {

static std::vector<Command>& registry() {
    static std::vector<Command> commands;  // function-local: safe from static-initialisation order
    return commands;
}

bool register_command(const Command& command) {
    auto& all = registry();
    all.push_back(command);
    std::sort(all.begin(), all.end(), [](const Command& a, const Command& b) { return std::string(a.name) < b.name; });
    return true;
}

const std::vector<Command>& commands() { return registry(); }

// To standard output when asked for (--help, help), to standard error when the arguments are missing (exit 2).
static void print_help(std::FILE* out = stdout) {
    std::fprintf(out,
        "gpuguide %s: will a training job fit on a GPU, how long will it take, what will it cost.\n"
        "\n"
        "Usage:\n"
        "  gpuguide COMMAND [ARGS...]\n"
        "  gpuguide help COMMAND     full help of one command (also: gpuguide COMMAND --help)\n"
        "  gpuguide --version        print the version and exit\n"
        "  gpuguide --help           print this help and exit\n"
        "\n"
        "Commands:\n",
        GG_VERSION);
    for (const Command& c : commands()) std::fprintf(out, "  %-12s %s\n", c.name, c.summary);
    std::fprintf(out,
        "\n"
        "Input is JSON (a file, or - for standard input); output is JSON on standard output.\n"
        "Exit codes: 0 success; 1 the command failed (e.g. a file could not be read); 2 bad arguments or\n"
        "bad input, with a message naming the key on standard error and nothing on standard output.\n");
}

static const Command* find(const std::string& name) {
    for (const Command& c : commands())
        if (name == c.name) return &c;
    return nullptr;
}

static void print_command_help(const Command& c) { std::printf("Usage: %s\n\n%s\n", c.usage, c.help); }

}  // namespace gg::cli

namespace gg::cli {

// The whole command line after the program name; main() and the CLI fuzz target (tests/fuzz) call it.
int run_main(const std::vector<std::string>& args) {
    if (args.empty()) {
        print_help(stderr);
        return kExitUsage;
    }
    const std::string& first = args[0];
    if (first == "--help" || first == "-h") {
        print_help();
        return kExitOk;
    }
    if (first == "--version" || first == "-V") {
        std::printf("gpuguide %s\n", GG_VERSION);
        return kExitOk;
    }
    if (first == "help") {
        if (args.size() == 1) {
            print_help();
            return kExitOk;
        }
        if (const Command* c = find(args[1])) {
            print_command_help(*c);
            return kExitOk;
        }
        std::fprintf(stderr, "gpuguide: unknown command '%s' (see gpuguide --help)\n", args[1].c_str());
        return kExitUsage;
    }
    const Command* command = find(first);
    if (command == nullptr) {
        std::fprintf(stderr, "gpuguide: unknown command or option '%s' (see gpuguide --help)\n", first.c_str());
        return kExitUsage;
    }
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end() ||
        std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        print_command_help(*command);
        return kExitOk;
    }
    return command->run(rest);
}

}  // namespace gg::cli

#ifndef GG_CLI_NO_MAIN  // defined by the fuzz target, which calls run_main itself
int main(int argc, char** argv) { return gg::cli::run_main(std::vector<std::string>(argv + 1, argv + argc)); }
#endif
