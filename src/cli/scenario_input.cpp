// Reading and parsing the scenario argument of the scenario commands (see scenario_input.h).
#include "cli/scenario_input.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "catalog/catalog.h"
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

int read_scenario_argument(const char* command, const std::vector<std::string>& args, catalog::ParsedDecision& out) {
    std::string path;
    for (const std::string& a : args) {
        if (a == "--json") continue;  // JSON is the only output format; accepted for scripts that pass it
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
    std::string text;
    if (!read_input(path, text)) {
        std::fprintf(stderr, "gpuguide %s: cannot read '%s'\n", command, path.c_str());
        return kExitFailure;
    }
    out = catalog::parse_decision_scenario(text, catalog::embedded_catalog(), path);
    if (!out.problems.empty()) {
        for (const catalog::Problem& p : out.problems)
            std::fprintf(stderr, "%s: %s: %s\n", p.file.c_str(), p.pointer.empty() ? "(document)" : p.pointer.c_str(),
                         p.message.c_str());
        return kExitUsage;
    }
    return kExitOk;
}

}  // namespace gg::cli
