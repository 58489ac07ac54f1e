// Fuzz target: the scenario parsers (`gpuguide estimate/rank/advise SCENARIO.json`, the page's import and links):
// parse_scenario (base keys) and parse_decision_scenario (base + decision keys, bundled catalog). Input: the
// scenario JSON text. Checks: no crash, sanitizer report or failed assert (built without NDEBUG); problems and
// written scenarios are valid JSON with finite numbers; an accepted scenario, written back, is accepted again.
// What runs after a successful parse (estimate, reports, ranking, advice) is fuzz_evaluate's: it costs ~100x more.
#include <cstdint>
#include <cstdio>

#include "catalog/scenario.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const gg::catalog::ParsedScenario base = gg::catalog::parse_scenario(text, "fuzz");
    gg::fuzz::require_dumpable(gg::fuzz::problems_to_json(base.problems), "problems");
    if (base.problems.empty()) {
        const nlohmann::json written = gg::catalog::scenario_to_json(base.scenario);
        gg::fuzz::require_output(written, "scenario_to_json");
        const gg::catalog::ParsedScenario again = gg::catalog::parse_scenario(written.dump(), "round trip");
        if (!again.problems.empty()) {
            std::fprintf(stderr, "fuzz: an accepted scenario, written back, is refused: %s: %s\n",
                         again.problems[0].pointer.c_str(), again.problems[0].message.c_str());
            __builtin_trap();
        }
    }
    const gg::catalog::Catalog& cat = gg::catalog::embedded_catalog();
    const gg::catalog::ParsedDecision parsed = gg::catalog::parse_decision_scenario(text, cat, "fuzz");
    gg::fuzz::require_dumpable(gg::fuzz::problems_to_json(parsed.problems), "problems");
    if (parsed.problems.empty()) gg::fuzz::require_round_trip(parsed.value, cat);
    return 0;
}
