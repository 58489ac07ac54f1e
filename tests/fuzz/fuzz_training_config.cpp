// Fuzz target: `gpuguide from-config` and the page's "Paste your training config" (catalog::read_training_config:
// the YAML reader, the JSON reader, the stack readers, the Hub-name lookup, torchtune's key=value overrides and a
// given config.json). Input: `CONFIG TEXT \0 OVERRIDES (one per line) \0 CONFIG.JSON` (the last two parts may be
// missing). Checks (issue 43): no crash, sanitizer report or failed assert; the result written as the CLI prints it
// is valid JSON with finite numbers; a result either has problems or a scenario, never both or neither; and a
// scenario it gives is one that `gpuguide estimate` accepts as printed (parse_scenario_json and the decision keys
// on the bundled catalog), and accepts again when written back.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/json_text.h"
#include "catalog/scenario.h"
#include "catalog/training_config.h"
#include "fuzz_common.h"

namespace {

std::vector<std::string> lines_of(std::string_view text) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= text.size() && lines.size() < 16) {
        const size_t end = text.find('\n', start);
        const std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos
                                                                                       : end - start);
        if (!line.empty()) lines.emplace_back(line);
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    return lines;
}

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz: %s\n", what);
    __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<std::string_view> parts = gg::fuzz::split_parts(data, size, 3);
    gg::catalog::TrainingConfigOptions options;
    if (parts.size() > 1) options.overrides = lines_of(parts[1]);
    nlohmann::json hf_config;
    if (parts.size() > 2) {
        hf_config = gg::catalog::parse_json_text(parts[2]).value;
        if (hf_config.is_object()) options.hf_config = &hf_config;
    }
    const gg::catalog::TrainingConfigRead read = gg::catalog::read_training_config(parts[0], "fuzz", options);
    gg::fuzz::require_output(gg::catalog::training_config_read_to_json(read), "training_config_read_to_json");
    gg::fuzz::require_dumpable(gg::fuzz::problems_to_json(read.problems), "problems");
    if (read.problems.empty() == read.scenario.is_null())
        fail("a training config read gives both a scenario and problems, or neither");
    if (read.scenario.is_null()) return 0;
    if (!read.scenario.is_object()) fail("a training config read gives a scenario that is not an object");
    const std::string printed = read.scenario.dump();
    const gg::catalog::ParsedScenario base = gg::catalog::parse_scenario(printed, "from-config");
    if (!base.problems.empty()) {
        std::fprintf(stderr, "fuzz: from-config's scenario is refused by estimate: %s: %s\n",
                     base.problems[0].pointer.c_str(), base.problems[0].message.c_str());
        __builtin_trap();
    }
    const gg::catalog::Catalog& cat = gg::catalog::embedded_catalog();
    const gg::catalog::ParsedDecision decision = gg::catalog::parse_decision_scenario(printed, cat, "from-config");
    if (!decision.problems.empty()) {
        std::fprintf(stderr, "fuzz: from-config's scenario is refused by rank/advise: %s: %s\n",
                     decision.problems[0].pointer.c_str(), decision.problems[0].message.c_str());
        __builtin_trap();
    }
    gg::fuzz::require_round_trip(decision.value, cat);
    return 0;
}
