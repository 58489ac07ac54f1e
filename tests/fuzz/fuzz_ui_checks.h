// The page's promises about the user's data (issue 30), checked by the page's fuzz targets (fuzz_import,
// fuzz_fragment, fuzz_store): a notice that announces a list has one; saved data is what it was. A failed check
// calls __builtin_trap(), which libFuzzer reports as a crash with the input saved.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/app.h"
#include "ui/strings.h"

namespace gg::fuzz {

// "Reset:" with nothing after it was a bug: a notice whose text ends with ':' lists at least one item.
inline void require_notice_listed(const ui::AppState& app) {
    if (app.notice == ui::Str::Dismiss) return;
    const std::string text = ui::tr(app.notice, ui::Lang::En);
    if (!text.empty() && text.back() == ':' && app.notice_details.empty()) {
        std::fprintf(stderr, "fuzz: the notice \"%s\" has an empty list\n", text.c_str());
        __builtin_trap();
    }
}

inline void require_same_user_data(const ui::AppState& app, const nlohmann::json& before, const char* after_what) {
    if (app.user_data != before || nlohmann::json::parse(ui::app_store_json(app)).value("user_data", nlohmann::json()) !=
                                       (before.is_object() ? before : nlohmann::json())) {
        std::fprintf(stderr, "fuzz: %s changed the saved user data\n", after_what);
        __builtin_trap();
    }
}

// The "id"s of the records of a user-data document.
inline std::vector<std::string> record_ids(const nlohmann::json& data) {
    std::vector<std::string> ids;
    if (!data.is_object()) return ids;
    for (const char* key : {"gpus", "offers"})
        if (data.contains(key) && data[key].is_array())
            for (const nlohmann::json& r : data[key])
                if (r.is_object() && r.contains("id") && r["id"].is_string()) ids.push_back(r["id"].get<std::string>());
    return ids;
}

}  // namespace gg::fuzz
