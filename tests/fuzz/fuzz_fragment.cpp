// Fuzz target: the page's URL fragment ("#s=1.<base64url JSON>", "embed=1&..."): scenario_from_fragment, then
// app_apply_fragment on a fresh AppState (as the page does at start and on hashchange), then the link the page
// writes for the loaded state, which must load back as the same scenario. Neither needs an ImGui context (only
// app_init and drawing do; neither is called here). Input: the fragment text.
// Checks: no crash or sanitizer report; an accepted link round-trips. The results of an accepted scenario
// (estimate, report, ranking) are fuzz_evaluate's.
#include <cstdint>
#include <cstdio>

#include "fuzz_common.h"
#include "ui/app.h"
#include "ui/link.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view fragment(reinterpret_cast<const char*>(data), size);
    const gg::ui::LinkScenario link = gg::ui::scenario_from_fragment(fragment);
    if (link.status == gg::ui::LinkStatus::kOk && link.json_text.empty()) {
        std::fprintf(stderr, "fuzz: a link read as kOk without its scenario\n");
        __builtin_trap();
    }
    gg::ui::AppState app;
    gg::ui::app_apply_fragment(app, fragment);
    if (app.scenario.model_id.empty()) return 0;  // nothing loaded (the state's defaults name no model)
    const std::string written = gg::ui::app_fragment(app);
    gg::ui::AppState again;
    gg::ui::app_apply_fragment(again, written);
    if (gg::ui::app_scenario_json(again) != gg::ui::app_scenario_json(app)) {
        std::fprintf(stderr, "fuzz: the page's own link does not load back as the same scenario\n");
        __builtin_trap();
    }
    return 0;
}
