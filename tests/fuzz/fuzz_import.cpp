// Fuzz target: "Load from a file" (app_import_user_data) over the user's own data, then "Import" and "Undo import".
// Input: `USER DATA \0 FILE` (user data: a JSON object as the page keeps it; anything else means none). No ImGui
// context is needed (see fuzz_fragment.cpp). Checks (issue 30): nothing changes before the user confirms; a
// confirmed import keeps every record id the user had; undo gives back exactly the data before; every notice that
// announces a list has one; no crash or sanitizer report.
#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "catalog/json_text.h"
#include "fuzz_common.h"
#include "fuzz_ui_checks.h"
#include "ui/app.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::vector<std::string_view> parts = gg::fuzz::split_parts(data, size, 2);
    gg::ui::AppState app;
    if (parts.size() == 2) {
        const nlohmann::json mine = gg::catalog::parse_json_text(parts[0]).value;
        if (mine.is_object()) gg::ui::app_set_user_data(app, mine);
    }
    const nlohmann::json before = app.user_data;
    const std::vector<std::string> ids = gg::fuzz::record_ids(before);
    const bool asks = gg::ui::app_import_user_data(app, parts.back());
    gg::fuzz::require_same_user_data(app, before, "a file before its confirmation");
    gg::fuzz::require_notice_listed(app);
    if (asks != app.import_plan.pending) {
        std::fprintf(stderr, "fuzz: app_import_user_data's answer and the pending plan disagree\n");
        __builtin_trap();
    }
    if (!asks) return 0;
    gg::ui::app_confirm_import(app);
    gg::fuzz::require_notice_listed(app);
    gg::fuzz::require_dumpable(nlohmann::json::parse(gg::ui::app_store_json(app)), "the saved settings");
    const std::vector<std::string> now = gg::fuzz::record_ids(app.user_data);
    for (const std::string& id : ids)
        if (std::find(now.begin(), now.end(), id) == now.end()) {
            std::fprintf(stderr, "fuzz: an import lost the user's record '%s'\n", id.c_str());
            __builtin_trap();
        }
    gg::ui::app_undo_import(app);
    gg::fuzz::require_same_user_data(app, before, "an import and its undo");
    return 0;
}
