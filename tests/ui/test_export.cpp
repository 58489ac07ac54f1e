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

TEST_CASE("two offers of one provider for the same cards get different labels (billing, instance)") {
    // A UX review found "Rent 8 x NVIDIA H200 ... · Google Cloud" twice at two prices (on-demand and spot), and
    // "RTX 4090 · RunPod" twice (Community and Secure Cloud).
    const nlohmann::json ranking = sample_ranking();
    std::vector<std::string> labels;
    for (const auto& o : ranking["options"])
        if (o.value("kind", "") == "rent") labels.push_back(gg::ui::option_label(gg::catalog::embedded_catalog(), o,
                                                                                 gg::ui::Lang::En));
    std::vector<std::string> sorted = labels;
    std::sort(sorted.begin(), sorted.end());
    CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    auto has = [&](const std::string& s) {
        return std::any_of(labels.begin(), labels.end(), [&](const std::string& l) { return l == s; });
    };
    CHECK(has("Rent NVIDIA GeForce RTX 4090 · RunPod, Community Cloud"));
    CHECK(has("Rent NVIDIA GeForce RTX 4090 · RunPod, Secure Cloud"));
    CHECK(has("Rent 8 x NVIDIA H200 SXM 141 GB · Google Cloud (spot)"));
    nlohmann::json o = {{"kind", "rent"}, {"gpu", "h200"}, {"count", 8}, {"offer", "no-such-offer"},
                        {"rent", {{"provider", "X"}}}};
    CHECK(gg::ui::option_label(gg::catalog::embedded_catalog(), o, gg::ui::Lang::Zh).find("X") != std::string::npos);
}
