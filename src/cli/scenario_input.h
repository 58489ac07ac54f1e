// The scenario argument shared by `estimate`, `rank` and `advise`: SCENARIO.json or - (standard input), an
// optional --json (JSON is the only output), and an optional --user-data FILE: the user's own GPUs, offers and
// prices in the page's export format ({"schema_version": 1, "gpus": [...], "offers": [...]}, catalog::merge_user_data)
// merged over the bundled catalog. Read and parsed with every problem printed to standard error.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/gan_scenario.h"

namespace gg::cli {

// Reads PATH (or standard input for "-") into `text`, at most catalog::kMaxJsonTextBytes: a bigger input, or one
// without end (/dev/zero), stops there. A directory, a missing file or one without read permission is kCannotRead.
enum class ReadStatus { kOk, kCannotRead, kTooLarge };
ReadStatus read_input_text(const std::string& path, std::string& text);
// The message for a status other than kOk ("cannot read 'x': it is a directory"), without a program name.
std::string read_status_message(ReadStatus status, const std::string& path, const std::string& what);

struct ScenarioInput {
    catalog::ParsedDecision parsed;
    // A GAN scenario (catalog/gan_scenario.h): `parsed` is then empty and the command dispatches on is_gan; commands
    // other than estimate, rank and advise refuse it by name.
    bool is_gan = false;
    catalog::GanScenario gan;
    bool has_user_data = false;
    catalog::Catalog user_catalog;  // the bundled catalog with --user-data merged over it
    const catalog::Catalog& catalog() const { return has_user_data ? user_catalog : catalog::embedded_catalog(); }
};

// Returns kExitOk with `out` filled, or the exit code after printing why (usage, unreadable file, problems in the
// user data or in the scenario).
int read_scenario_argument(const char* command, const std::vector<std::string>& args, ScenarioInput& out);

// The options every scenario command's help ends with (a macro: it is concatenated with each command's literal).
#define GG_SCENARIO_OPTIONS_HELP                                                                                      \
    "\n\nOptions:\n"                                                                                                  \
    "  --user-data FILE   your own GPUs, cloud offers and prices, in the format the page's \"Save as a file\" writes\n" \
    "                     ({\"schema_version\": 1, \"gpus\": [...], \"offers\": [...]}; docs/catalog.md). A record with\n"  \
    "                     the id of a bundled one replaces it. \"calibrations\": [{\"id\", \"gpu\", \"as_of\",\n"      \
    "                     \"cuda_context_bytes\", \"fragmentation_fraction\", \"speed\": [{\"family\",\n"              \
    "                     \"efficiency_factor\"}]}]: your own measurement of a card (the page's \"Calibrate with my\n"  \
    "                     measurement\"); the report then says \"calibration\": {\"by\": \"calibrated by you\", ...}.\n" \
    "                     Any problem in the file: exit 2.\n"                                                            \
    "  --json             accepted and ignored: the output is always JSON"

}  // namespace gg::cli
