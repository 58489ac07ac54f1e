// Ranking export: Markdown and CSV have one row per option with the right columns; JSON is the CLI's object.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "ui/export.h"

namespace {
nlohmann::json sample_ranking() {
    const auto parsed = gg::catalog::parse_decision_scenario(
        R"({"model":"resnet18","batch_size":32,"gpu":{"id":"rtx-4060"},"dataset":{"samples":50000,"epochs":10}})",
        gg::catalog::embedded_catalog());
    REQUIRE(parsed.problems.empty());
    return gg::catalog::rank_json(parsed.value, gg::catalog::embedded_catalog());
}
int lines(const std::string& s) {
    int n = 0;
    for (char c : s) n += c == '\n';
    return n;
}
}  // namespace

TEST_CASE("the ranking exports as Markdown, CSV and JSON with one row per option") {
    const nlohmann::json ranking = sample_ranking();
    const int options = static_cast<int>(ranking["options"].size());
    REQUIRE(options > 50);
    const std::string md = gg::ui::export_ranking(ranking, gg::ui::ExportFormat::kMarkdown, gg::ui::Lang::En);
    CHECK(lines(md) == options + 2);
    CHECK(md.rfind("| # | Option |", 0) == 0);
    const std::string csv = gg::ui::export_ranking(ranking, gg::ui::ExportFormat::kCsv, gg::ui::Lang::Zh);
    CHECK(lines(csv) == options + 1);
    std::istringstream rows(csv);
    std::string header, first;
    std::getline(rows, header);
    std::getline(rows, first);
    CHECK(header.rfind("rank,kind,gpu,count,offer,provider,fits,", 0) == 0);
    CHECK(std::count(first.begin(), first.end(), ',') == std::count(header.begin(), header.end(), ','));
    CHECK(nlohmann::json::parse(gg::ui::export_ranking(ranking, gg::ui::ExportFormat::kJson, gg::ui::Lang::En)) == ranking);
    const std::string zh = gg::ui::export_ranking(ranking, gg::ui::ExportFormat::kMarkdown, gg::ui::Lang::Zh);
    CHECK(zh.find("方案") != std::string::npos);
}
