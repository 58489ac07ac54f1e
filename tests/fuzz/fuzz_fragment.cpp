// Fuzz target: the page's URL fragment ("#s=1.<base64url JSON>", "embed=1&..."): scenario_from_fragment, then
// app_apply_fragment on a fresh AppState (as the page does at start and on hashchange), then the link the page
// writes for the loaded state, which must load back as the same scenario. Neither needs an ImGui context (only
// app_init and drawing do; neither is called here). Input: the fragment text.
// Checks: no crash or sanitizer report; an accepted link round-trips; the reader's own saved data (a card and an
// offer) is what it was, whatever the link carries (issue 30: a link saved an RTX 4090 of 96 GiB for good); a notice
// that announces a list has one. The results of an accepted scenario (estimate, report, ranking) are fuzz_evaluate's.
#include <cstdint>
#include <cstdio>

#include "fuzz_common.h"
#include "fuzz_ui_checks.h"
#include "ui/app.h"
#include "ui/link.h"

namespace {
const char* kReadersOwn = R"({"schema_version": 1,
  "gpus": [{"id": "my-card", "name": "My card", "memory_gib": 16, "memory_bandwidth_gb_per_s": 500,
            "dense_tflops": {"fp32": 20, "fp16": 80}}],
  "offers": [{"id": "my-offer", "provider": "a friend", "gpu": "my-card", "gpu_count": 1, "price_per_hour": 2,
              "currency": "CNY", "billing": "on-demand"}]})";
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view fragment(reinterpret_cast<const char*>(data), size);
    const gg::ui::LinkScenario link = gg::ui::scenario_from_fragment(fragment);
    if (link.status == gg::ui::LinkStatus::kOk && link.json_text.empty()) {
        std::fprintf(stderr, "fuzz: a link read as kOk without its scenario\n");
        __builtin_trap();
    }
    {  // A reader with data of their own: the link changes none of it.
        static const nlohmann::json own = nlohmann::json::parse(kReadersOwn);
        gg::ui::AppState reader;
        gg::ui::app_set_user_data(reader, own);
        gg::ui::app_apply_fragment(reader, fragment);
        gg::fuzz::require_same_user_data(reader, own, "a link");
        gg::fuzz::require_notice_listed(reader);
    }
    gg::ui::AppState app;
    gg::ui::app_apply_fragment(app, fragment);
    gg::fuzz::require_notice_listed(app);
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
