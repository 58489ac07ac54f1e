// The preset models as data: data/models.json -> engine::ModelSpec. A transformer preset is its Hugging Face
// config.json, read by parse_hf_config (the same code that reads a pasted config); a network without a config.json
// is a typed `architecture` of one of the engine's families. Never throws; no UI code here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "engine/workload.h"

namespace gg::catalog {

inline constexpr const char* kModelsFile = "data/models.json";

// Parses a models file ({"schema_version": 1, "models": [RECORD...]}). A record with problems is dropped, the others
// kept; each problem names `file` and the record's JSON pointer ("/models/3/hf_config/hidden_size"). Ids must be
// unique. The engine's preset_models() is this file, embedded at build time, parsed once.
std::vector<engine::ModelSpec> parse_models(std::string_view models_json, const std::string& file,
                                            std::vector<Problem>& problems);

// The problems of the embedded data/models.json (empty when every preset loaded).
const std::vector<Problem>& embedded_model_problems();

}  // namespace gg::catalog
