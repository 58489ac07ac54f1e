// Shared by the libFuzzer targets (tests/fuzz/fuzz_*.cpp; docs/hardening.md): splitting one input into parts,
// the check that report JSON holds only finite numbers, and the evaluation every accepted scenario goes through
// (the same calls as `gpuguide estimate/rank/advise` and the page's app_update_results).
// A failed check calls __builtin_trap(), which libFuzzer reports as a crash with the input saved.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/report.h"

namespace gg::fuzz {

// The input as text, cut at each NUL byte (the seeds use NUL between parts; a part may be empty).
inline std::vector<std::string_view> split_parts(const uint8_t* data, size_t size, size_t max_parts) {
    std::vector<std::string_view> parts;
    const std::string_view all(reinterpret_cast<const char*>(data), size);
    size_t start = 0;
    while (parts.size() + 1 < max_parts) {
        const size_t nul = all.find('\0', start);
        if (nul == std::string_view::npos) break;
        parts.push_back(all.substr(start, nul - start));
        start = nul + 1;
    }
    parts.push_back(all.substr(start));
    return parts;
}

// Every number in `j` is finite (nlohmann/json would print NaN and infinity as null, hiding the bug).
inline void require_finite(const nlohmann::json& j, const char* what) {
    if (j.is_number_float() && !std::isfinite(j.get<double>())) {
        std::fprintf(stderr, "fuzz: %s holds a non-finite number\n", what);
        __builtin_trap();
    }
    if (j.is_structured())
        for (const auto& v : j) require_finite(v, what);
}

// The output must also survive being written out (invalid UTF-8 in a string would throw here).
inline void require_dumpable(const nlohmann::json& j, const char* what) {
    try {
        (void)j.dump();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: %s cannot be written as JSON: %s\n", what, e.what());
        __builtin_trap();
    }
}

inline void require_output(const nlohmann::json& j, const char* what) {
    require_finite(j, what);
    require_dumpable(j, what);
}

// Problems as `gpuguide check-data --json` prints them.
inline nlohmann::json problems_to_json(const std::vector<catalog::Problem>& problems) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : problems) list.push_back({{"file", p.file}, {"pointer", p.pointer}, {"message", p.message}});
    return list;
}

// An accepted scenario written back (decision_scenario_to_json) must be accepted again: links and saved state
// depend on it.
inline void require_round_trip(const catalog::DecisionScenario& s, const catalog::Catalog& cat) {
    const nlohmann::json doc = catalog::decision_scenario_to_json(s);
    require_output(doc, "decision_scenario_to_json");
    const catalog::ParsedDecision again = catalog::parse_decision_scenario(doc.dump(), cat, "round trip");
    if (!again.problems.empty()) {
        std::fprintf(stderr, "fuzz: an accepted scenario, written back, is refused: %s: %s\n",
                     again.problems[0].pointer.c_str(), again.problems[0].message.c_str());
        __builtin_trap();
    }
}

// A few GPUs of `cat` (the scenario's own first, then `others`) with at most two offers each and the same settings:
// ranking the whole bundled catalog costs about a second per input under the sanitizers, this a small fraction.
inline catalog::Catalog small_catalog(const catalog::Catalog& cat, const std::string& gpu_id,
                                      const std::vector<std::string>& others) {
    catalog::Catalog small;
    small.settings = cat.settings;
    std::vector<std::string> ids;
    if (!gpu_id.empty()) ids.push_back(gpu_id);
    for (const std::string& id : others)
        if (id != gpu_id) ids.push_back(id);
    for (const std::string& id : ids) {
        const engine::GpuSpec* g = cat.find_gpu(id);
        if (g == nullptr) continue;
        small.gpus.push_back(*g);
        int offers = 0;
        for (const engine::CloudOffer& o : cat.offers)
            if (o.gpu_id == id && offers++ < 2) small.offers.push_back(o);
    }
    return small;
}

// Everything that runs after a scenario is accepted, as `gpuguide estimate/rank/advise` run it: estimate and the
// full report on `cat`; ranking and advice on a few of its GPUs (small_catalog).
inline void evaluate_scenario(const catalog::DecisionScenario& s, const catalog::Catalog& cat) {
    const catalog::Estimate e = catalog::estimate(s.scenario);
    require_output(catalog::full_report(s, e, cat), "full_report");
    const catalog::Catalog few = small_catalog(cat, s.scenario.gpu_id, {"rtx-3060-12gb", "a100-sxm4-80gb"});
    require_output(catalog::rank_json(s, few), "rank_json");
    require_output(catalog::advise_json(s, few), "advise_json");
}

}  // namespace gg::fuzz
