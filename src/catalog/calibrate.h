// "Calibrate with my measurement" (issue 33), the catalog's part: the engine's uncalibrated estimate of a scenario
// as engine::attribute_measurement needs it, and the user-data record ("calibrations" of merge_user_data) that a
// calibration the user accepted becomes. JSON in/out; no UI.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/scenario.h"
#include "engine/calibration.h"

namespace gg::catalog {

// The estimate of a valid scenario on its card without any calibration of that card (the scenario's own tunables, or
// the defaults). false when the scenario names no card in `catalog`.
bool calibration_inputs(const Scenario& scenario, const Catalog& catalog, engine::CalibrationInputs& out);

// The card's calibration after the user accepts `result` for a run of a `family` model: the derived terms replace
// the card's, the others stay (a throughput measured with another family keeps that family's factor).
engine::CardCalibration accept_calibration(const engine::CardCalibration& current, const engine::CalibrationResult& result,
                                           const std::string& family);

// The "calibrations" record of a card (merge_user_data's format): id "calibration-" + gpu id, the terms, and what
// was measured (with the model it was measured on) for the record's reader.
nlohmann::json calibration_record(const std::string& gpu_id, const engine::CardCalibration& calibration,
                                  const engine::Measurement& measured, const std::string& model_id,
                                  const std::string& as_of);
std::string calibration_record_id(const std::string& gpu_id);

// The attribution as JSON: {"errors": {...}, "predicted": {...}, "terms": {...}, "issues": [codes], "applicable"}.
nlohmann::json calibration_result_json(const engine::CalibrationResult& result);

}  // namespace gg::catalog
