// Fuzz target: what runs after a scenario is accepted (`gpuguide estimate/rank/advise`, the page's results):
// parse_decision_scenario on the bundled catalog, then catalog::estimate and full_report, and rank_json and
// advise_json on a few GPUs of the catalog (the scenario's own and two more, with their offers; fuzz_common.h).
// Input: the scenario JSON text (the same seeds and dictionary as fuzz_scenario). Checks: no crash, sanitizer
// report or failed engine assert (built without NDEBUG); finite numbers in every output.
#include <cstdint>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const gg::catalog::Catalog& cat = gg::catalog::embedded_catalog();
    const gg::catalog::ParsedDecision parsed =
        gg::catalog::parse_decision_scenario(std::string_view(reinterpret_cast<const char*>(data), size), cat, "fuzz");
    if (parsed.problems.empty()) gg::fuzz::evaluate_scenario(parsed.value, cat);
    return 0;
}
