// Reading and parsing the scenario argument of the scenario commands (see scenario_input.h).
#include "cli/scenario_input.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
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
}  // namespace

namespace {
// At most kShown problems, each made printable (control characters escaped, an echoed value cut short): a file with
// 200,000 unknown keys or a 5 MB model name still gets a readable answer.
void print_problems(const std::vector<catalog::Problem>& problems, const std::string& file) {
    constexpr std::size_t kShown = 20;
    for (std::size_t i = 0; i < problems.size() && i < kShown; ++i) {
        const catalog::Problem& p = problems[i];
        std::fprintf(stderr, "%s: %s: %s\n", catalog::printable(file.empty() ? p.file : file, 200).c_str(),
                     p.pointer.empty() ? "(document)" : catalog::printable(p.pointer, 120).c_str(),
                     catalog::printable(p.message, 2000).c_str());
    }
    if (problems.size() > kShown)
        std::fprintf(stderr, "... and %zu more problem(s)\n", problems.size() - kShown);
}
}  // namespace

int read_scenario_argument(const char* command, const std::vector<std::string>& args, ScenarioInput& out) {
    std::string path, user_data_path;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--json") continue;  // JSON is the only output format; accepted for scripts that pass it
        if (a == "--user-data") {
            if (i + 1 >= args.size() || !user_data_path.empty()) {
                std::fprintf(stderr, "gpuguide %s: --user-data takes one FILE (see gpuguide %s --help)\n", command,
                             command);
                return kExitUsage;
            }
            user_data_path = args[++i];
            continue;
        }
        if (!path.empty() || (a.size() > 1 && a[0] == '-')) {
            std::fprintf(stderr, "gpuguide %s: unexpected argument '%s' (see gpuguide %s --help)\n", command, a.c_str(),
                         command);
            return kExitUsage;
        }
        path = a;
    }
    if (path.empty()) {
        std::fprintf(stderr, "gpuguide %s: expected SCENARIO.json or - (see gpuguide %s --help)\n", command, command);
        return kExitUsage;
    }
    if (!user_data_path.empty()) {
        std::string user_text;
        if (user_data_path == "-" || !read_input(user_data_path, user_text)) {
            std::fprintf(stderr, "gpuguide %s: cannot read the user data '%s'\n", command, user_data_path.c_str());
            return kExitFailure;
        }
        std::vector<catalog::Problem> problems;
        out.user_catalog = catalog::merge_user_data(catalog::embedded_catalog(), user_text, problems);
        if (!problems.empty()) {  // the page keeps going without a bad record; a script wants to know
            print_problems(problems, user_data_path);
            return kExitUsage;
        }
        out.has_user_data = true;
    }
    std::string text;
    if (!read_input(path, text)) {
        std::fprintf(stderr, "gpuguide %s: cannot read '%s'\n", command, path.c_str());
        return kExitFailure;
    }
    out.parsed = catalog::parse_decision_scenario(text, out.catalog(), path);
    if (!out.parsed.problems.empty()) {
        print_problems(out.parsed.problems, "");
        return kExitUsage;
    }
    return kExitOk;
}

}  // namespace gg::cli
