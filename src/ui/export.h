// The ranking as text to paste elsewhere: Markdown table, CSV, or the CLI's JSON. Pure functions of the
// results (no ImGui), tested in tests/ui/test_export.cpp.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

#include "ui/strings.h"

namespace gg::ui {

enum class ExportFormat { kMarkdown, kCsv, kJson };

// How an offer bills, in the reader's language ("on-demand" / 按量, "spot" / 竞价, "monthly" / 包月).
Str billing_label(engine::Billing billing);

// An option of the ranking as the reader sees it: "Rent 2 x NVIDIA GeForce RTX 4090 · RunPod, Community Cloud",
// with the billing when it is not on-demand and the instance when the provider has another like it.
std::string option_label(const catalog::Catalog& cat, const nlohmann::json& option, Lang lang);

// `ranking` is the `gpuguide rank --json` object; every option is exported, fitting or not.
// GPU names come from `catalog` (the page's, with the user's own cards; default: the bundled one).
std::string export_ranking(const nlohmann::json& ranking, ExportFormat format, Lang lang,
                           const catalog::Catalog& catalog = catalog::embedded_catalog());

}  // namespace gg::ui
