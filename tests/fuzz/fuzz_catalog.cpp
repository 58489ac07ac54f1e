// Fuzz target: the catalog reader (parse_catalog) on data/gpus.json, data/cloud_offers.json and data/settings.json
// as a contributor might edit them (`gpuguide check-data --dir REPO` reads them from disk).
// Input: GPUS_JSON \0 OFFERS_JSON \0 SETTINGS_JSON (a missing part is empty). Checks: no crash or sanitizer report;
// every record kept writes back as JSON with finite numbers; every kept offer names a kept GPU;
// the problems write out as JSON (`check-data --json`).
#include <cstdint>
#include <cstdio>

#include "catalog/catalog.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto parts = gg::fuzz::split_parts(data, size, 3);
    const std::string_view gpus = parts[0];
    const std::string_view offers = parts.size() > 1 ? parts[1] : std::string_view();
    const std::string_view settings = parts.size() > 2 ? parts[2] : std::string_view();
    std::vector<gg::catalog::Problem> problems;
    const gg::catalog::Catalog cat = gg::catalog::parse_catalog(gpus, offers, settings, problems);
    for (const auto& g : cat.gpus) gg::fuzz::require_output(gg::catalog::gpu_to_json(g), "gpu_to_json");
    for (const auto& o : cat.offers) {
        gg::fuzz::require_output(gg::catalog::offer_to_json(o), "offer_to_json");
        if (cat.find_gpu(o.gpu_id) == nullptr) {
            std::fprintf(stderr, "fuzz: offer '%s' kept with unknown GPU '%s'\n", o.id.c_str(), o.gpu_id.c_str());
            __builtin_trap();
        }
    }
    gg::fuzz::require_output(gg::catalog::settings_to_json(cat.settings), "settings_to_json");
    gg::fuzz::require_dumpable(gg::fuzz::problems_to_json(problems), "problems");  // check-data --json prints them
    return 0;
}
