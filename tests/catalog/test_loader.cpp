// The data loader (issue 42): the DataLoader worker model (engine/loader.h), each offer's vCPUs, the sourced per-CPU
// rates of data/loader_pipelines.json, the scenario key dataset.loader, the report's time.loader line and the ranking
// using each offer's own CPUs.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/loader_json.h"
#include "catalog/report.h"
#include "catalog/scenario.h"
#include "engine/loader.h"

using namespace gg::catalog;
using gg::engine::LoaderSetup;

namespace {

bool has_problem_at(const std::vector<Problem>& problems, const std::string& pointer) {
    for (const Problem& q : problems)
        if (q.pointer == pointer) return true;
    return false;
}

const gg::engine::CloudOffer& offer(const std::string& id) {
    for (const gg::engine::CloudOffer& o : embedded_catalog().offers)
        if (o.id == id) return o;
    FAIL("no offer " << id);
    static gg::engine::CloudOffer none;
    return none;
}

double per_cpu(const std::string& id) {
    const LoaderPipelineRecord* p = find_loader_pipeline(id);
    REQUIRE(p != nullptr);
    return p->samples_per_s_per_cpu;
}

}  // namespace

TEST_CASE("loader: rate = min(workers, CPUs per GPU) x the per-CPU rate; num_workers 0 adds to the step") {
    LoaderSetup s;
    s.per_cpu_samples_per_s = 1000;
    SUBCASE("workers not given: one per CPU") {
        s.cpus_per_gpu = 2;
        CHECK(gg::engine::loader_rate(s).samples_per_s == doctest::Approx(2000));
    }
    SUBCASE("more workers than CPUs share them") {
        s.cpus_per_gpu = 2;
        s.workers = 8;
        CHECK(gg::engine::loader_rate(s).samples_per_s == doctest::Approx(2000));
        CHECK(gg::engine::loader_rate(s).workers_used == doctest::Approx(2));
    }
    SUBCASE("fewer workers than CPUs leave CPUs idle") {
        s.cpus_per_gpu = 8;
        s.workers = 2;
        CHECK(gg::engine::loader_rate(s).samples_per_s == doctest::Approx(2000));
    }
    SUBCASE("CPUs unknown: each given worker is assumed to get a CPU; neither known: no limit") {
        s.workers = 3;
        CHECK(gg::engine::loader_rate(s).samples_per_s == doctest::Approx(3000));
        CHECK_FALSE(gg::engine::loader_rate(s).cpus_known);
        s.workers = -1;
        CHECK(gg::engine::loader_rate(s).samples_per_s == 0);
        CHECK(gg::engine::loader_paced_step_s(0.1, 1e6, 0, s) == doctest::Approx(0.1));
    }
    SUBCASE("overlapped workers: the slower of GPU and loader sets the pace") {
        s.cpus_per_gpu = 2;  // 2000 samples/s: 128 samples take 0.064 s
        CHECK(gg::engine::loader_paced_step_s(0.1, 128, 0, s) == doctest::Approx(0.1));
        CHECK(gg::engine::loader_paced_step_s(0.01, 128, 0, s) == doctest::Approx(0.064));
    }
    SUBCASE("num_workers 0: loading in the training process, no overlap") {
        s.cpus_per_gpu = 2;
        s.workers = 0;
        CHECK(gg::engine::loader_paced_step_s(0.1, 128, 0, s) == doctest::Approx(0.1 + 0.128));
    }
    SUBCASE("a measured rate overrides the pipeline's") {
        s.cpus_per_gpu = 2;
        CHECK(gg::engine::loader_paced_step_s(0.01, 128, 128, s) == doctest::Approx(1.0));
    }
}

TEST_CASE("loader: every bundled offer says how many vCPUs it has, or why that is unknown, with a source") {
    int known = 0;
    for (const gg::engine::CloudOffer& o : embedded_catalog().offers) {
        CAPTURE(o.id);
        CHECK_FALSE(o.vcpu_source.empty());
        if (o.vcpu_count > 0) {
            ++known;
            CHECK(o.vcpu_count >= o.gpu_count);
        } else {
            CHECK(o.vcpu_source.rfind("unknown", 0) == 0);  // the source text starts by saying it is unknown
        }
    }
    CHECK(known >= 20);
    // Read from each session's own record (wandb-metadata.json, cpu_count_logical): see the offers' vcpu_source.
    CHECK(offer("colab-free-t4").vcpu_count == 2);
    CHECK(offer("kaggle-p100").vcpu_count == 4);
    CHECK(offer("kaggle-t4x2").vcpu_count == 4);  // shared by its two T4s: 2 per GPU
    CHECK(offer("aws-g5-xlarge-us-east-1-ondemand").vcpu_count == 4);
}

TEST_CASE("loader: user offers with a bad vcpu_count are refused with the field named") {
    const char* base = R"({"schema_version": 1, "offers": [{"id": "my-box", "provider": "Me", "gpu": "rtx-4090", "gpu_count": 2,
        "price_per_hour": 1, "currency": "USD", "billing": "on-demand", %s}]})";
    struct Bad { const char* fields; const char* key; };
    const Bad bad[] = {{R"("vcpu_count": 1, "vcpu_source": "my invoice")", "vcpu_count"},
                       {R"("vcpu_count": 2.5, "vcpu_source": "my invoice")", "vcpu_count"},
                       {R"("vcpu_count": "eight", "vcpu_source": "my invoice")", "vcpu_count"},
                       {R"("vcpu_count": 8)", "vcpu_source"}};
    for (const Bad& b : bad) {
        char text[1024];
        std::snprintf(text, sizeof text, base, b.fields);
        CAPTURE(text);
        std::vector<Problem> problems;
        merge_user_data(embedded_catalog(), text, problems);
        bool named = false;
        for (const Problem& p : problems)
            named = named || (p.pointer + " " + p.message).find(b.key) != std::string::npos;
        CHECK(named);
    }
}

TEST_CASE("loader: the pipelines' per-CPU rates are read with their sources; a bad file names the field") {
    CHECK(per_cpu("cifar-augment") > 0);
    CHECK(per_cpu("imagenet-jpeg") > 0);
    CHECK(per_cpu("imagenet-jpeg") < per_cpu("cifar-augment"));  // decoding a JPEG costs more than cropping 32 px
    CHECK(per_cpu("pretokenized") == 0);                          // no CPU limit
    for (const LoaderPipelineRecord& p : loader_pipelines()) {
        CAPTURE(p.id);
        CHECK_FALSE(p.source.empty());
        CHECK_FALSE(p.as_of.empty());
    }
    std::vector<Problem> problems;
    parse_loader_pipelines(R"({"pipelines": [{"id": "x", "name": "x", "as_of": "2026-12-07", "source": "s",
                               "samples_per_s_per_cpu": -1}]})", "t.json", problems);
    CHECK(has_problem_at(problems, "/pipelines/0/samples_per_s_per_cpu"));
}

TEST_CASE("loader: the scenario key dataset.loader is checked, named by pointer, and round-trips") {
    struct Bad { const char* json; const char* pointer; };
    const Bad bad[] = {
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": {"pipeline": "dali"}}})",
         "/dataset/loader/pipeline"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": {"workers": -1}}})",
         "/dataset/loader/workers"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": {"cpus": 0}}})",
         "/dataset/loader/cpus"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": {"cpus": 2.5}}})",
         "/dataset/loader/cpus"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": {"threads": 2}}})",
         "/dataset/loader/threads"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": {"pipeline": "measured"}}})",
         "/dataset/loader/pipeline"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader_samples_per_s": 900,
             "loader": {"pipeline": "cifar-augment"}}})", "/dataset/loader/pipeline"},
        {R"({"model": "resnet18-cifar", "dataset": {"samples": 50000, "loader": 3}})", "/dataset/loader"},
    };
    for (const Bad& b : bad) {
        CAPTURE(b.json);
        const ParsedScenario p = parse_scenario(b.json);
        CHECK(has_problem_at(p.problems, b.pointer));
    }
    const ParsedScenario ok = parse_scenario(
        R"({"model": "resnet18", "image_size": 224, "dataset": {"samples": 1000,
            "loader": {"pipeline": "imagenet-jpeg", "workers": 4, "cpus": 8}}})");
    REQUIRE(ok.problems.empty());
    const nlohmann::json back = scenario_to_json(ok.scenario);
    CHECK(back["dataset"]["loader"] == nlohmann::json({{"pipeline", "imagenet-jpeg"}, {"workers", 4}, {"cpus", 8}}));
    CHECK(parse_scenario(back.dump()).problems.empty());
}

TEST_CASE("loader: the pipeline a job implies when the scenario names none") {
    auto implied = [](const char* text) {
        const ParsedScenario p = parse_scenario(text);
        REQUIRE(p.problems.empty());
        return implied_loader_pipeline(p.scenario);
    };
    CHECK(implied(R"({"model": "resnet18-cifar"})") == "cifar-augment");
    CHECK(implied(R"({"model": "resnet50", "image_size": 224})") == "imagenet-jpeg");
    CHECK(implied(R"({"model": "bert-base", "seq_len": 128})") == "pretokenized");
    CHECK(implied(R"({"model": "yolov8n"})").empty());  // Ultralytics' mosaic: no sourced per-CPU rate
}

TEST_CASE("loader: on 2 CPUs an ImageNet JPEG pipeline sets a ResNet-18's pace on a T4, and the report says so") {
    const char* text = R"({"model": "resnet18", "image_size": 224, "batch_size": 128, "precision": "fp16-amp",
        "gpu": {"id": "t4"}, "dataset": {"samples": 100000, "epochs": 1, "loader": {"cpus": 2}}})";
    const ParsedDecision d = parse_decision_scenario(text, embedded_catalog());
    REQUIRE(d.problems.empty());
    const Estimate e = estimate(d.value.scenario, embedded_catalog());
    const nlohmann::json report = full_report(d.value, e, embedded_catalog());
    const nlohmann::json& l = report["time"]["loader"];
    CAPTURE(l.dump());
    CHECK(l["pipeline"] == "imagenet-jpeg");
    CHECK(l["assumed"] == true);
    CHECK(l["cpus_per_gpu"] == 2);
    const double loader = 2 * per_cpu("imagenet-jpeg");
    CHECK(l["samples_per_s"].get<double>() == doctest::Approx(loader));
    CHECK(l["gpu_samples_per_s"].get<double>() > loader);  // the T4 alone would go faster
    CHECK(l["cpu_bound"] == true);
    CHECK(l["status"] == "cpu_bound");
    CHECK(report["time"]["samples_per_s"].get<double>() == doctest::Approx(loader).epsilon(0.01));
    SUBCASE("keeps-up as an explicit choice removes the limit") {
        nlohmann::json doc = nlohmann::json::parse(text);
        doc["dataset"]["loader"]["pipeline"] = "keeps-up";
        const ParsedDecision k = parse_decision_scenario(doc.dump(), embedded_catalog());
        REQUIRE(k.problems.empty());
        const nlohmann::json r2 = full_report(k.value, estimate(k.value.scenario, embedded_catalog()), embedded_catalog());
        CHECK(r2["time"]["loader"]["status"] == "keeps_up");
        CHECK(r2["time"]["loader"]["assumed"] == false);
        CHECK(r2["time"]["samples_per_s"].get<double>() > loader);
    }
    SUBCASE("no CPU count on a card of one's own: no limit, and the report says the count is unknown") {
        nlohmann::json doc = nlohmann::json::parse(text);
        doc["dataset"]["loader"].erase("cpus");
        const ParsedDecision k = parse_decision_scenario(doc.dump(), embedded_catalog());
        REQUIRE(k.problems.empty());
        const nlohmann::json r2 = full_report(k.value, estimate(k.value.scenario, embedded_catalog()), embedded_catalog());
        CHECK(r2["time"]["loader"]["status"] == "cpus_unknown");
        CHECK(r2["time"]["loader"]["samples_per_s"].is_null());
    }
}

TEST_CASE("loader: the ranking paces each rented option by its own vCPUs") {
    const char* text = R"({"model": "resnet18", "image_size": 224, "batch_size": 128, "precision": "fp16-amp",
        "dataset": {"samples": 100000, "epochs": 1}})";
    const ParsedDecision d = parse_decision_scenario(text, embedded_catalog());
    REQUIRE(d.problems.empty());
    const nlohmann::json rank = rank_json(d.value, embedded_catalog());
    bool seen_colab = false, seen_kaggle = false;
    for (const nlohmann::json& o : rank["options"]) {
        if (!o["time_s"].is_number()) continue;
        const std::string id = o["id"];
        if (id == "rent:colab-free-t4") {
            seen_colab = true;  // 2 vCPUs x the JPEG pipeline's per-CPU rate
            CHECK(o["time_s"].get<double>() >= 100000 / (2 * per_cpu("imagenet-jpeg")) * 0.999);
        }
        if (id == "rent:kaggle-p100") {
            seen_kaggle = true;  // 4 vCPUs for its one GPU
            CHECK(o["time_s"].get<double>() >= 100000 / (4 * per_cpu("imagenet-jpeg")) * 0.999);
        }
    }
    CHECK(seen_colab);
    CHECK(seen_kaggle);
}
