// The calculator's data-loader inputs (pipeline, workers, CPU threads) and its loader line in the time section
// (issue 42). The mechanism is engine/loader.h; the report's time.loader comes from catalog/loader_json.cpp.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/scenario.h"
#include "ui/app.h"
#include "ui/strings.h"

namespace gg::ui {

// The pipeline combo and the workers and CPU fields, under "Data loading speed"; true when one changed.
bool loader_inputs(AppState& app, catalog::Scenario& s, Lang lang);
// One line from the report's time.loader: who sets the pace, with the numbers (nothing for a measured rate, which
// the loader-wait line already reports).
void draw_loader_line(AppState& app, const nlohmann::json& time, Lang lang);

}  // namespace gg::ui
