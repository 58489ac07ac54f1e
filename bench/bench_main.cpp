// Google Benchmark: what the page recomputes when an input changes, natively. `make bench` runs it and writes
// build/native/bench.json. (The wasm build of the same code is not benchmarked yet: see docs/performance.md.)
#include <benchmark/benchmark.h>

#include <vector>

#include "catalog/catalog.h"
#include "catalog/compat_data.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "catalog/report.h"
#include "engine/memory.h"
#include "imgui.h"
#include "ui/app.h"

namespace {

const char* kScenario =
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","optimizer":"adamw",)"
    R"("gpu":{"id":"rtx-4060","count":1},"dataset":{"samples":100000,"epochs":3}})";

gg::catalog::DecisionScenario parsed() {
    return gg::catalog::parse_decision_scenario(kScenario, gg::catalog::embedded_catalog()).value;
}

void BM_Estimate(benchmark::State& state) {  // graph + memory report + time for one scenario
    const auto s = parsed();
    for (auto _ : state) {
        const auto e = gg::catalog::estimate(s.scenario);
        benchmark::DoNotOptimize(gg::catalog::full_report(s, e, gg::catalog::embedded_catalog()));
    }
}
BENCHMARK(BM_Estimate)->Unit(benchmark::kMicrosecond);

void BM_MaxBatchEveryCard(benchmark::State& state) {  // the solver for every card of the catalog
    const auto s = parsed();
    const auto e = gg::catalog::estimate(s.scenario);
    std::vector<double> capacities;
    for (const auto& g : gg::catalog::embedded_catalog().gpus) capacities.push_back(g.memory_bytes);
    for (auto _ : state) benchmark::DoNotOptimize(gg::engine::max_batch_sizes(e.prepared, capacities));
}
BENCHMARK(BM_MaxBatchEveryCard)->Unit(benchmark::kMicrosecond);

void BM_RankWholeCatalog(benchmark::State& state) {
    const auto s = parsed();
    for (auto _ : state) benchmark::DoNotOptimize(gg::catalog::rank_json(s, gg::catalog::embedded_catalog()));
}
BENCHMARK(BM_RankWholeCatalog)->Unit(benchmark::kMicrosecond);

void BM_RankOptionsPreparedJob(benchmark::State& state) {  // ranking alone, the job prepared once
    const auto s = parsed();
    const auto& cat = gg::catalog::embedded_catalog();
    const gg::engine::JobModel job = gg::catalog::decision_job(s.scenario, {1, 2, 4, 8});
    const auto& compat = gg::catalog::embedded_compat_data();
    for (auto _ : state)
        benchmark::DoNotOptimize(gg::engine::rank_options(job, cat.gpus, cat.offers, cat.settings, s.decision, compat));
}
BENCHMARK(BM_RankOptionsPreparedJob)->Unit(benchmark::kMicrosecond);

void BM_AdviseWholeCatalog(benchmark::State& state) {
    const auto s = parsed();
    for (auto _ : state) benchmark::DoNotOptimize(gg::catalog::advise_json(s, gg::catalog::embedded_catalog()));
}
BENCHMARK(BM_AdviseWholeCatalog)->Unit(benchmark::kMicrosecond);

void BM_PageRecompute(benchmark::State& state) {  // everything the page recomputes after one input changes
    ImGui::CreateContext();
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (auto _ : state) {
        app.scenario.batch_size = app.scenario.batch_size == 16 ? 17 : 16;
        app.scenario_dirty = true;
        gg::ui::app_update_results(app);
    }
    ImGui::DestroyContext();
}
BENCHMARK(BM_PageRecompute)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
