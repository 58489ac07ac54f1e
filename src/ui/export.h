// The ranking as text to paste elsewhere: Markdown table, CSV, or the CLI's JSON. Pure functions of the
// results (no ImGui), tested in tests/ui/test_export.cpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

#include "ui/strings.h"

namespace gg::ui {

enum class ExportFormat { kMarkdown, kCsv, kJson };

// `ranking` is the `gpuguide rank --json` object; every option is exported, fitting or not.
// GPU names come from `catalog` (the page's, with the user's own cards; default: the bundled one).
std::string export_ranking(const nlohmann::json& ranking, ExportFormat format, Lang lang,
                           const catalog::Catalog& catalog = catalog::embedded_catalog());

}  // namespace gg::ui
