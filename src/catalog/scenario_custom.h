// The custom model object of a scenario ({"family": ..., "layers": ...}) read into an engine::ModelSpec
// (scenario_custom.cpp). Catalog-internal: the parser's, not the UI's or the CLI's.
#pragma once

#include <nlohmann/json.hpp>

#include "catalog/scenario_reader.h"
#include "engine/workload.h"

namespace gg::catalog::scenario_detail {

// Reads the object at /model; `normalised` gets what was read (scenario_to_json writes it back).
engine::ModelSpec parse_custom(const nlohmann::json& o, Reader& r, nlohmann::json& normalised);

}  // namespace gg::catalog::scenario_detail
