// Fuzz target: the page's saved state (localStorage "gpuguide.v1": {"version": 1, "scenario": {...}}):
// app_apply_store on a fresh AppState (as the page does at start), then the state the page saves
// (app_store_json), which must load back. No ImGui context is needed (see fuzz_fragment.cpp).
// Input: the stored text. Checks: no crash, uncaught exception or sanitizer report; saved state round-trips.
// The results of an accepted scenario (estimate, report, ranking) are fuzz_evaluate's.
#include <cstdint>
#include <cstdio>

#include "fuzz_common.h"
#include "ui/app.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    gg::ui::AppState app;
    const gg::ui::StoreStatus status =
        gg::ui::app_apply_store(app, std::string_view(reinterpret_cast<const char*>(data), size));
    if (status != gg::ui::StoreStatus::kLoaded) return 0;
    gg::ui::AppState again;
    if (gg::ui::app_apply_store(again, gg::ui::app_store_json(app)) != gg::ui::StoreStatus::kLoaded ||
        gg::ui::app_scenario_json(again) != gg::ui::app_scenario_json(app)) {
        std::fprintf(stderr, "fuzz: the state the page saves does not load back as the same scenario\n");
        __builtin_trap();
    }
    return 0;
}
