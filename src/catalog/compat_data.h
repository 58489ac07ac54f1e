// Loads data/compatibility.json (software support per architecture, ROCm list, export variants, budget tiers) into
// engine::CompatData. Never throws or aborts: every problem is collected with its file and JSON pointer; bad
// records are dropped, the rest kept. No UI code here.
#pragma once

#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "engine/compat.h"

namespace gg::catalog {

inline constexpr const char* kCompatibilityFile = "data/compatibility.json";

// Layout: see the file's "about". Versions and compute capabilities are strings "major.minor" (or null).
engine::CompatData parse_compat_data(std::string_view json_text, std::vector<Problem>& problems);

// The bundled file, parsed once.
const engine::CompatData& embedded_compat_data();
const std::vector<Problem>& embedded_compat_data_problems();

}  // namespace gg::catalog
