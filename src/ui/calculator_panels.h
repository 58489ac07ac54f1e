// The Calculator tab's panels, one file each (calculator.cpp lays them out): what each draws and the helpers they
// share. ImGui only; every panel reads AppState (its inputs and results) and holds no state of its own.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/app.h"

namespace gg::ui {

// ---- inputs (calculator_inputs.cpp) -----------------------------------------------------------------------------
void draw_inputs(AppState& app);
// A different card: its own interconnect and peer-to-peer defaults apply again.
void select_gpu(catalog::Scenario& s, const std::string& gpu_id);
// "Paste your training config" (training_config_paste.cpp), under the config.json box.
void draw_training_config_paste(AppState& app);

// ---- the model inputs (model_inputs.cpp) ------------------------------------------------------------------------
// The model box: presets by family, the GANs, the custom-model starting points; true when the model changed.
bool model_combo(AppState& app);
// The sizes of a custom model, each a whole-number field with the parser's limits (nothing for a preset).
bool draw_custom_model(AppState& app);
// "Paste a Hugging Face config.json": the box, "Use this model" and Paste.
void draw_hf_config_paste(AppState& app);

// ---- verdict (verdict_panel.cpp) --------------------------------------------------------------------------------
void draw_verdict(AppState& app);
void draw_advice(AppState& app);
void draw_stack_config(AppState& app);

// ---- memory (memory_panel.cpp) ----------------------------------------------------------------------------------
void draw_breakdown(AppState& app);
// Memory through one training step: the report's memory_timeline as stacked bands, the peak marked.
void draw_memory_timeline(AppState& app);
void draw_per_card(AppState& app);
// strategy "dp": the report's data_parallel section (GPU 0, the other cards, what DDP would save); nothing otherwise
// (data_parallel_panel.cpp).
void draw_data_parallel(AppState& app);

// ---- time and cost (time_cost_panel.cpp) ------------------------------------------------------------------------
void draw_time(AppState& app);
// The cost of one ranked option (the ranking's JSON), as formulas with the numbers filled in.
void rent_formula(const AppState& app, const nlohmann::json& option);
// A rented or free option's calendar time and what to watch for (sessions, checkpoints, GPU availability).
void sessions_lines(const AppState& app, const nlohmann::json& option);
void buy_formula(const AppState& app, const nlohmann::json& option);

// ---- ranking (ranking_panel.cpp) --------------------------------------------------------------------------------
void draw_ranking(AppState& app);

// ---- charts (charts_panel.cpp) ----------------------------------------------------------------------------------
void draw_memory_curve(AppState& app);
void draw_rent_vs_buy(AppState& app);
void draw_cost_time_chart(AppState& app, const std::vector<const nlohmann::json*>& shown);

// ---- shared helpers (calculator.cpp) ----------------------------------------------------------------------------
// A number in a JSON object, or `fallback` when the key is missing or not a number.
double json_number(const nlohmann::json& j, const char* key, double fallback = -1);
// A string in a JSON object, or `fallback` when `j` is not an object (a report's "gpu" is null for a scenario without a
// card) or the key is missing or not a string: json::value() throws there, and a throw while drawing stops the page.
std::string json_text(const nlohmann::json& j, const char* key, const std::string& fallback = "");
// The cheapest fitting rent offer and the buy option for the scenario's card, from the ranking.
const nlohmann::json* ranking_option(const nlohmann::json& ranking, const char* kind, const std::string& gpu, int count);
// "1 card" / "3 cards" (English plural), "3 张卡" (Chinese has none).
std::string counted(int n, Str one, Str many, Lang lang);
// The ranking option's reason with this code ({"code", "values"}, catalog/decision_json.cpp rank_json), or nullptr.
const nlohmann::json* find_reason(const nlohmann::json& option, const char* code);
// A price in its own currency, followed by its value in the output currency when they differ: "$20.93 (¥146.18)".
std::string money_as(const AppState& app, double amount, const std::string& from, const std::string& to);

}  // namespace gg::ui
