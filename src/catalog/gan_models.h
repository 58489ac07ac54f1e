// The GAN presets as data: data/gan_models.json -> engine::GanSpec, and the same reader for a GAN described in a
// scenario's "model" object ({"gan": {...}}). Never throws; no UI code here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/catalog.h"
#include "engine/gan.h"

namespace gg::catalog {

inline constexpr const char* kGanModelsFile = "data/gan_models.json";

// One "gan" object ({"kind": "stylegan2" | "stylegan3" | "dcgan" | "pix2pix", "resolution": ..., ...}) at JSON
// pointer `ptr`.
// Keys left out take the kind's reference defaults (train.py's for StyleGAN2; the tutorial's / repository's
// defaults for DCGAN / pix2pix). Every problem names its key's pointer; false when any was found.
bool parse_gan_spec(const nlohmann::json& obj, const std::string& ptr, const std::string& file, engine::GanSpec& out,
                    std::vector<Problem>& problems);

// {"schema_version": 1, "models": [{id, name, source, as_of, gan, reference_g_params, reference_d_params,
// reference_source}...]}: a record with problems is dropped, the others kept; ids unique.
std::vector<engine::GanSpec> parse_gan_models(std::string_view text, const std::string& file,
                                              std::vector<Problem>& problems);

// The embedded data/gan_models.json, parsed once; nullptr when the id is not a GAN preset.
const std::vector<engine::GanSpec>& gan_presets();
const engine::GanSpec* find_gan_preset(const std::string& id);
const std::vector<Problem>& embedded_gan_problems();

}  // namespace gg::catalog
