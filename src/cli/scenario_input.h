// The scenario argument shared by `estimate`, `rank` and `advise`: SCENARIO.json or - (standard input), an
// optional --json (JSON is the only output), read and parsed with every problem printed to standard error.
#pragma once

#include <string>
#include <vector>

#include "catalog/decision_json.h"

namespace gg::cli {

// Returns kExitOk with `out` filled, or the exit code after printing why (usage, unreadable file, problems).
int read_scenario_argument(const char* command, const std::vector<std::string>& args, catalog::ParsedDecision& out);

}  // namespace gg::cli
