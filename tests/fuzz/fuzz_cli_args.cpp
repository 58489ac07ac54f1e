// Fuzz target: the command line of `gpuguide` (src/cli), run in-process through gg::cli::run_main, the function
// main() calls. Input: ARG \n ARG \n ... \0 STDIN: the arguments one per line (at most 16), then what standard
// input holds when an argument is "-" (std::cin reads the fuzz data, so "-" never blocks).
// Files: the target runs in an empty directory of its own, and an argument holding '/' is replaced by a name that
// does not exist there, so no file outside that directory is read. No command writes files (src/cli: none opens
// a file for writing); standard output goes to /dev/null. Checks: no crash, sanitizer report or failed assert;
// the exit code is one of 0, 1, 2 (command.h). Ranking a valid scenario (`rank -`) costs about a second here;
// fuzz_evaluate covers that part at a larger scale.
#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "fuzz_common.h"

namespace {
std::string g_dir;
void remove_dir() { rmdir(g_dir.c_str()); }
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    char dir[] = "/tmp/gg_fuzz_cli.XXXXXX";
    if (mkdtemp(dir) == nullptr || chdir(dir) != 0) {
        std::perror("fuzz_cli_args: cannot make its empty working directory in /tmp");
        std::abort();
    }
    g_dir = dir;
    std::atexit(remove_dir);
    const int null_fd = open("/dev/null", O_WRONLY);
    if (null_fd >= 0) dup2(null_fd, STDOUT_FILENO);  // the commands' JSON; libFuzzer reports on stderr
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto parts = gg::fuzz::split_parts(data, size, 2);
    std::vector<std::string> args;
    std::string_view line_text = parts[0];
    while (args.size() < 16) {
        const size_t nl = line_text.find('\n');
        std::string arg(line_text.substr(0, nl));
        if (arg.find('/') != std::string::npos) arg = "no-such-file";  // stay inside the empty directory
        args.push_back(std::move(arg));
        if (nl == std::string_view::npos) break;
        line_text.remove_prefix(nl + 1);
    }
    if (args.size() == 1 && args[0].empty()) args.clear();
    // `validate` with good flags runs the bundled validation suite (seconds under the sanitizers; no outside
    // input: `make test` runs it); its flag parsing is still fuzzed through every other argument list.
    if (!args.empty() && args[0] == "validate") {
        bool only_markdown = true;
        for (size_t i = 1; i < args.size(); ++i) only_markdown = only_markdown && args[i] == "--markdown";
        if (only_markdown) return 0;
    }
    std::istringstream stdin_text(std::string(parts.size() > 1 ? parts[1] : std::string_view()));
    std::streambuf* saved = std::cin.rdbuf(stdin_text.rdbuf());
    std::cin.clear();
    const int rc = gg::cli::run_main(args);
    std::cin.rdbuf(saved);
    std::fflush(stdout);
    if (rc < 0 || rc > 2) {
        std::fprintf(stderr, "fuzz: exit code %d is not one of 0, 1, 2 (src/cli/command.h)\n", rc);
        __builtin_trap();
    }
    return 0;
}
