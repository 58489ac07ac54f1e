// Google Benchmark: what the page recomputes when an input changes, natively. `make bench` runs it and writes
// build/native/bench.json. (The wasm build of the same code is not benchmarked yet: see docs/performance.md.)
#include <benchmark/benchmark.h>

#include <vector>

#include "catalog/catalog.h"
#include "catalog/compat_data.h"
#include "catalog/decision_json.h"
#include "catalog/embedded_data.h"
#include "catalog/full_report.h"
#include "catalog/report.h"
#include "engine/memory.h"
#include "imgui.h"
#include "ui/app.h"
#include "ui/theme.h"

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

// The planned ranking (issue 28): every option of the catalog gets its fastest same-result plan. The guides' 13B
// full fine-tune (ZeRO/FSDP, tensor and pipeline layouts on 1-64 cards) and a 70B one (multi-node plans): the
// ranking alone, the job prepared once, as the page runs it after an input changes.
void rank_planned(benchmark::State& state, const char* scenario) {
    const auto& cat = gg::catalog::embedded_catalog();
    const auto s = gg::catalog::parse_decision_scenario(scenario, cat).value;
    std::vector<int> counts = s.decision.buy_counts;
    for (const auto& o : cat.offers) counts.push_back(o.gpu_count);
    const gg::engine::JobModel job = gg::catalog::decision_job(s.scenario, counts);
    const auto& compat = gg::catalog::embedded_compat_data();
    for (auto _ : state)
        benchmark::DoNotOptimize(gg::engine::rank_options(job, cat.gpus, cat.offers, cat.settings, s.decision, compat));
}
void BM_RankPlanned13BFull(benchmark::State& state) {
    rank_planned(state, R"({"model":"llama-2-13b","batch_size":8,"seq_len":2048,"precision":"bf16-amp",)"
                        R"("optimizer":"adamw","gpu":{"id":"a100-sxm4-80gb","count":1},"dataset":{"samples":10000}})");
}
BENCHMARK(BM_RankPlanned13BFull)->Unit(benchmark::kMillisecond);
void BM_RankPlanned70BFull(benchmark::State& state) {
    rank_planned(state, R"({"model":"llama-2-70b","batch_size":4,"seq_len":2048,"precision":"bf16-amp",)"
                        R"("optimizer":"adamw","gpu":{"id":"h100-sxm","count":8},"dataset":{"samples":10000}})");
}
BENCHMARK(BM_RankPlanned70BFull)->Unit(benchmark::kMillisecond);

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

// ---- comparison (issue 33): pins cost one page recompute each when they arrive, none afterwards ---------------
// The pinned scenarios: the default one on other cards and with LoRA (the comparisons the issue names).
const char* const kPinned[] = {
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","gpu":{"id":"rtx-4090"}})",
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","method":"lora","gpu":{"id":"rtx-4060"}})",
    R"({"model":"bert-base","batch_size":16,"seq_len":128,"precision":"fp16-amp","gpu":{"id":"rtx-4060","count":4}})",
};

nlohmann::json pinned(int count) {
    nlohmann::json out = nlohmann::json::array();
    for (int i = 0; i < count; ++i) out.push_back(nlohmann::json::parse(kPinned[i]));
    return out;
}

// An input changes with 0..3 pins on the page: the same time as BM_PageRecompute (pins are not recomputed).
void BM_PageRecomputeWithPins(benchmark::State& state) {
    ImGui::CreateContext();
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_set_pins(app, pinned(static_cast<int>(state.range(0))));
    const int before = app.pin_computations;
    for (auto _ : state) {
        app.scenario.batch_size = app.scenario.batch_size == 16 ? 17 : 16;
        app.scenario_dirty = true;
        gg::ui::app_update_results(app);
        gg::ui::compute_pins(app);
        benchmark::DoNotOptimize(gg::ui::app_compare_json(app));
    }
    state.counters["pin_recomputes_per_change"] =
        benchmark::Counter(app.pin_computations - before, benchmark::Counter::kAvgIterations);
    ImGui::DestroyContext();
}
BENCHMARK(BM_PageRecomputeWithPins)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

// Pins arriving from a link or the saved settings: one page recompute (estimate + ranking) per pin.
void BM_PinsArrive(benchmark::State& state) {
    ImGui::CreateContext();
    gg::ui::AppState app;
    gg::ui::app_init(app);
    const nlohmann::json pins = pinned(static_cast<int>(state.range(0)));
    int computed = 0;
    for (auto _ : state) {
        const int before = app.pin_computations;
        gg::ui::app_set_pins(app, pins);
        gg::ui::compute_pins(app);
        computed += app.pin_computations - before;
    }
    state.counters["pin_recomputes_per_arrival"] = benchmark::Counter(computed, benchmark::Counter::kAvgIterations);
    ImGui::DestroyContext();
}
BENCHMARK(BM_PinsArrive)->DenseRange(1, 3)->Unit(benchmark::kMillisecond);

// ---- start-up: what the page does before its first frame (docs/performance.md) ------------------------------
void BM_ParseCatalog(benchmark::State& state) {  // data/*.json text -> validated catalog
    using namespace gg::catalog;
    for (auto _ : state) {
        std::vector<Problem> problems;
        benchmark::DoNotOptimize(parse_catalog(embedded_file(kGpusFile), embedded_file(kOffersFile),
                                               embedded_file(kSettingsFile), problems));
    }
}
BENCHMARK(BM_ParseCatalog)->Unit(benchmark::kMillisecond);

void BM_FontAtlas(benchmark::State& state) {  // rasterising the UI font (body + heading) at 1x
    ImGui::CreateContext();
    gg::ui::FontSet fonts;
    for (auto _ : state) {
        gg::ui::build_fonts(fonts, 16.0f);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        ImGui::GetIO().Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);  // what the renderer uploads
        benchmark::DoNotOptimize(pixels);
    }
    ImGui::DestroyContext();
}
BENCHMARK(BM_FontAtlas)->Unit(benchmark::kMillisecond);

void BM_UiFrame(benchmark::State& state) {  // one ImGui frame of the calculator tab (results up to date)
    ImGui::CreateContext();
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_update_fonts(app);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    for (auto _ : state) {
        ImGui::NewFrame();
        gg::ui::app_frame(app);
        ImGui::Render();
        benchmark::DoNotOptimize(ImGui::GetDrawData()->TotalVtxCount);
    }
    ImGui::DestroyContext();
}
BENCHMARK(BM_UiFrame)->Unit(benchmark::kMicrosecond);

// ---- memory over one training step (issue 33): it comes with the estimate, drawing it recomputes nothing --------
// The engine's timeline alone, on the estimate's prepared job (what full_report adds to BM_Estimate's report).
void BM_MemoryTimeline(benchmark::State& state) {
    const auto s = parsed();
    const auto e = gg::catalog::estimate(s.scenario);
    for (auto _ : state) benchmark::DoNotOptimize(gg::engine::memory_timeline(e.prepared, s.scenario.batch_size));
}
BENCHMARK(BM_MemoryTimeline)->Unit(benchmark::kMicrosecond);

// Frames of the calculator on a display tall enough that every panel is drawn, the timeline chart included (the
// phone-sized BM_UiFrame scrolls it out of view); 0 = the default scenario, 1 = a 7B LoRA with evaluation (32 layer
// points). The counter is the page recomputes per frame (results_generation): 0, the chart reads the report.
void BM_UiFrameWithTimeline(benchmark::State& state) {
    ImGui::CreateContext();
    gg::ui::AppState app;
    gg::ui::app_init(app);
    if (state.range(0) == 1 &&
        !gg::ui::app_load_scenario(app, R"({"model":"llama-2-7b","batch_size":4,"seq_len":1024,"precision":"bf16-amp",)"
                                        R"("method":"lora","eval_batch_size":8,"gpu":{"id":"rtx-4090"}})")
             .empty()) {
        state.SkipWithError("the 7B scenario is not valid");
        ImGui::DestroyContext();
        return;
    }
    gg::ui::app_update_fonts(app);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 6000);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();  // the first frame computes the results (and the ranking); not counted
    gg::ui::app_frame(app);
    ImGui::Render();
    const int before = app.results_generation;
    for (auto _ : state) {
        ImGui::NewFrame();
        gg::ui::app_frame(app);
        ImGui::Render();
        benchmark::DoNotOptimize(ImGui::GetDrawData()->TotalVtxCount);
    }
    state.counters["timeline_drawn"] = app.anchors.count("memory-timeline") ? app.anchors["memory-timeline"].frame == app.frame_count - 1 : 0;
    state.counters["page_recomputes_per_frame"] =
        benchmark::Counter(app.results_generation - before, benchmark::Counter::kAvgIterations);
    ImGui::DestroyContext();
}
BENCHMARK(BM_UiFrameWithTimeline)->DenseRange(0, 1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
