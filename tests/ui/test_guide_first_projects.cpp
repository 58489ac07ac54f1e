// The Guide's "first projects" section (issue 42): every example is a valid scenario the calculator opens, the CIFAR
// one uses the CIFAR ResNet-18 and says, on Colab's 2 vCPUs, who sets the pace; the published runs quoted beside the
// BERT and SD LoRA examples are the validation cases' own figures.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/gan_scenario.h"
#include "catalog/report.h"
#include "catalog/time_json.h"
#include "ui/guide_content.h"

namespace {

struct Example {
    std::string label_en, scenario;
};

std::vector<Example> first_project_examples() {
    std::vector<Example> out;
#define GG_TEST_FIRST_PROJECT(section, en, zh, json) \
    if (std::string(#section) == "FirstProjects") out.push_back({en, json});
    GG_GUIDE_TRY(GG_TEST_FIRST_PROJECT)
#undef GG_TEST_FIRST_PROJECT
    return out;
}

std::string first_projects_text_en() {
    std::string all;
#define GG_TEST_FIRST_PROJECT_TEXT(section, en, zh) \
    if (std::string(#section) == "FirstProjects") all += en, all += "\n";
    GG_GUIDE_PARAGRAPHS(GG_TEST_FIRST_PROJECT_TEXT)
#undef GG_TEST_FIRST_PROJECT_TEXT
    return all;
}

double published_total_s(const std::string& case_id) {
    for (const gg::catalog::TimeCase& c : gg::catalog::load_time_cases())
        if (c.row.id == case_id) return c.row.measured;
    FAIL("no validation case " << case_id);
    return 0;
}

}  // namespace

TEST_CASE("first projects: every example is a valid scenario with an estimate and a loader line") {
    const std::vector<Example> examples = first_project_examples();
    CHECK(examples.size() == 8);  // the eight jobs, each with its "try it"
    int gans = 0;
    for (const Example& e : examples) {
        CAPTURE(e.label_en);
        const nlohmann::json doc = nlohmann::json::parse(e.scenario);
        if (gg::catalog::is_gan_scenario(doc)) {
            // DCGAN and pix2pix: the GAN path the page and the CLI take for them (gan_scenario.h).
            ++gans;
            const gg::catalog::ParsedGanScenario g =
                gg::catalog::parse_gan_scenario_json(doc, gg::catalog::embedded_catalog());
            for (const auto& p : g.problems) CAPTURE(p.pointer + ": " + p.message);
            REQUIRE(g.problems.empty());
            const nlohmann::json report = gg::catalog::gan_report_json(g.scenario, gg::catalog::embedded_catalog());
            CHECK(report["fits"] == true);
            REQUIRE(report["time"].is_object());
            CHECK(report["time"]["total_s"].is_number());
            continue;
        }
        const gg::catalog::ParsedDecision d =
            gg::catalog::parse_decision_scenario(e.scenario, gg::catalog::embedded_catalog(), "guide");
        for (const auto& p : d.problems) CAPTURE(p.pointer + ": " + p.message);
        REQUIRE(d.problems.empty());
        const gg::catalog::Estimate est = gg::catalog::estimate(d.value.scenario);
        const nlohmann::json report = gg::catalog::full_report(d.value, est, gg::catalog::embedded_catalog());
        CHECK(report["verdict"] != "does_not_fit");
        REQUIRE(report["time"].is_object());
        CHECK(report["time"]["total_s"].is_number());
        CHECK(report["time"]["loader"].is_object());
    }
    CHECK(gans == 2);
}

TEST_CASE("first projects: the CIFAR example trains the CIFAR ResNet-18 on Colab's 2 vCPUs with 2 workers") {
    const Example cifar = first_project_examples().front();
    const gg::catalog::ParsedDecision d =
        gg::catalog::parse_decision_scenario(cifar.scenario, gg::catalog::embedded_catalog(), "guide");
    REQUIRE(d.problems.empty());
    CHECK(d.value.scenario.model_id == "resnet18-cifar");
    CHECK(d.value.scenario.loader_cpus == 2);
    const nlohmann::json report = gg::catalog::full_report(d.value, gg::catalog::estimate(d.value.scenario),
                                                           gg::catalog::embedded_catalog());
    const nlohmann::json& l = report["time"]["loader"];
    CAPTURE(l.dump());
    CHECK(l["pipeline"] == "cifar-augment");
    CHECK(l["workers_used"] == 2);
    // Either side may set the pace; the line says which with both rates.
    CHECK((l["status"] == "cpu_bound" || l["status"] == "keeps_up"));
    CHECK(l["samples_per_s"].is_number());
    CHECK(l["gpu_samples_per_s"].is_number());
}

TEST_CASE("first projects: the measured runs quoted are the validation cases' figures") {
    const std::string text = first_projects_text_en();
    // transformers' text-classification README: SST-2 13:11 (FP16) and 26:06 (FP32) on a Titan RTX.
    CHECK(published_total_s("hf-run-glue-bert-base-cased-sst2-fp16-titan-rtx") == 791.0);
    CHECK(text.find("13 min 11 s") != std::string::npos);
    CHECK(published_total_s("hf-run-glue-bert-base-cased-sst2-fp32-titan-rtx") == 1566.0);
    CHECK(text.find("26 min 6 s") != std::string::npos);
    // juliensimon's SD 1.5 Pokemon LoRA: about 6 hours on a g4dn.xlarge T4.
    CHECK(published_total_s("community-sd15-lora-pokemon-15000-steps-t4-hours") == 21600.0);
    CHECK(text.find("about 6 hours") != std::string::npos);
}
