// Fuzz target: the page's saved state (localStorage "gpuguide.v1": {"version": 1, "scenario": {...}}):
// app_apply_store on a fresh AppState (as the page does at start), then the state the page saves
// (app_store_json), which must load back. No ImGui context is needed (see fuzz_fragment.cpp).
// Input: the stored text. Checks: no crash, uncaught exception or sanitizer report; saved state round-trips; a
// store that is not loaded whole (damaged, partly unusable, newer) is kept whole for the platform to copy aside or
// offer as a file, with a notice that lists why (issue 30). The results of an accepted scenario (estimate, report,
// ranking) are fuzz_evaluate's.
#include <cstdint>
#include <cstdio>

#include "fuzz_common.h"
#include "fuzz_ui_checks.h"
#include "ui/app.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    gg::ui::AppState app;
    const std::string_view stored(reinterpret_cast<const char*>(data), size);
    const gg::ui::StoreStatus status = gg::ui::app_apply_store(app, stored);
    gg::fuzz::require_notice_listed(app);
    if ((status == gg::ui::StoreStatus::kUnreadable || status == gg::ui::StoreStatus::kPartlyLoaded ||
         status == gg::ui::StoreStatus::kNewer) &&
        (app.kept_store_text != stored || app.notice == gg::ui::Str::Dismiss)) {
        std::fprintf(stderr, "fuzz: a store that was not loaded whole is not kept whole, or not told\n");
        __builtin_trap();
    }
    if (status != gg::ui::StoreStatus::kLoaded && status != gg::ui::StoreStatus::kPartlyLoaded) return 0;
    gg::ui::AppState again;
    if (gg::ui::app_apply_store(again, gg::ui::app_store_json(app)) != gg::ui::StoreStatus::kLoaded ||
        gg::ui::app_scenario_json(again) != gg::ui::app_scenario_json(app)) {
        std::fprintf(stderr, "fuzz: the state the page saves does not load back as the same scenario\n");
        __builtin_trap();
    }
    return 0;
}
