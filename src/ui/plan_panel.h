// The planner's answer on the page (engine/planner.h, as the ranking's JSON "plan"): a plan in words, why lighter
// layouts were rejected, the click that applies a plan to the inputs, and the plan line under the verdict.
// ImGui only; the plans come from the ranking (catalog/decision_json.cpp), nothing is recomputed here.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ui/app.h"

namespace gg::ui {

// "ZeRO-3, full checkpointing, micro-batch 2 x 4 steps" (the card and count are in the option's name); "" without
// a plan. `typed` is the user's scenario: a layout key equal to it is left out, except the batch split.
std::string plan_summary(const nlohmann::json& plan, const catalog::Scenario& typed, Lang lang);

// The plan's rejected lighter layouts (or why none works), one bullet each, for a tooltip.
void plan_notes(const nlohmann::json& plan, Lang lang);

// Sets the inputs to a ranked option's plan (its card, count and layout); false when it has none.
bool apply_plan(AppState& app, const nlohmann::json& option);

// Under the verdict for the user's own card and count: "fits as typed", "fits with this plan" (and a button that
// applies it), or "needs a change that may alter results".
void draw_plan_verdict(AppState& app);

}  // namespace gg::ui
