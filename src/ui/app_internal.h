// What the app_*.cpp files (the page's state: frame, scenario, results, user data, saved settings, links, notices)
// share with each other; not for the panels, which use app.h. ImGui-free helpers over AppState and JSON.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "ui/app.h"

namespace gg::ui {

// What a newcomer sees first: fine-tuning BERT-base on an 8 GB card, the seed guides' most common question.
constexpr const char* kDefaultScenario =
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw",)"
    R"("gpu":{"id":"rtx-4060","count":1},"dataset":{"samples":100000,"epochs":3}})";

// The lists of records a data file holds (app.user_data, a link's "u=", an imported file).
inline const char* const kRecordKeys[] = {"gpus", "offers", "calibrations"};

// ---- scenario (app_scenario.cpp) ---------------------------------------------------------------------------------
// Whether the inputs are the default example's (what a failed link or store leaves when nothing else was loaded).
bool showing_default(const AppState& app);
// A scenario (from a link or the saved state) with problems: the settings the problems name are removed and the
// rest parsed again. Returns the scenario JSON that parses, or "" when none does; `dropped` collects every problem.
std::string salvage_scenario(const AppState& app, std::string_view text, std::vector<catalog::Problem>& dropped);

// ---- results (app_results.cpp) -----------------------------------------------------------------------------------
// The ranking of every option and the advice, when app.decisions_pending (the costliest part of a recomputation).
void update_decisions(AppState& app);

// ---- the user's own data (app_user_data.cpp) ---------------------------------------------------------------------
// Whether `record` is an object whose `key` is the string `value`.
bool has_text(const nlohmann::json& record, const char* key, const std::string& value);
// The record of `data[key]` (an array of records) with this id, or nullptr.
const nlohmann::json* record_with_id(const nlohmann::json& data, const char* key, const std::string& id);
// The catalog the page uses: the bundled one, the user's own records over it, then a link's records (this view).
void rebuild_catalog(AppState& app);

// ---- notices (app_notice.cpp) ------------------------------------------------------------------------------------
// Appends each problem to the notice's list as "pointer: message", at most 20 and then a count.
void add_notice_details(AppState& app, const std::vector<catalog::Problem>& problems);
// What a JSON value is, in words for a notice ("a JSON array", "an object with the keys name, version, ...").
std::string what_it_holds(const nlohmann::json& doc);
// "Lab card (my-lab-card)" / "Lab cluster · my-lab-card (my-offer-lab)": how a record is named in notices.
std::string record_label(const nlohmann::json& r, const std::string& key);
// At most 12 labels of a list, then "... +N".
std::string label_list(const std::vector<std::string>& labels);
// `format` (a string table entry with one %s) filled with `value`.
std::string formatted(const char* format, const std::string& value);

}  // namespace gg::ui
