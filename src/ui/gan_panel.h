// The page's GAN view (issue 42): a GAN preset chosen in the model box turns the calculator into a GAN calculator.
// The scenario's batch, card, count, dataset, display and reserve then describe the GAN job (catalog/gan_scenario.h);
// the inputs that do not apply are not drawn and no one-network result is shown. ImGui only, no platform code.
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "ui/app.h"

namespace gg::ui {

inline bool gan_active(const AppState& app) { return !app.gan_model_id.empty(); }

// The GAN scenario the inputs stand for, in the CLI's format (what links, saved settings and the report carry).
nlohmann::json gan_scenario_doc(const AppState& app);
// Recomputes app.gan_report from gan_scenario_doc (problems into app.scenario_problems).
void gan_update_results(AppState& app);
// A GAN scenario from a link, the saved settings or window.gpuguide.load: false when `text` is not one (the caller
// reads it as a one-network scenario); true when it is, with `problems` empty when the inputs took it.
bool gan_load_scenario(AppState& app, std::string_view text, std::vector<catalog::Problem>& problems);

// Inside the model box: the "GANs" group; true when a GAN was chosen.
bool draw_gan_choices(AppState& app);
// The inputs that apply to a GAN (length, batch per GPU, card, count, ECC, display, reserve); true when one changed.
bool draw_gan_inputs(AppState& app);
// The answer: verdict, the two networks, the phases with their time, sec/kimg, the run's time and cost.
void draw_gan_results(AppState& app);
// The one-line verdict above the narrow layout's two views.
void draw_gan_summary(AppState& app);

// The GPU box of the inputs (calculator_inputs.cpp), shared with the GAN inputs.
bool draw_gpu_choice(AppState& app);

}  // namespace gg::ui
