// Pins (issue 33): a pinned scenario keeps the answer the page showed for it, travels in the link and the saved
// settings, and costs at most one recompute per pin.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/full_report.h"
#include "imgui.h"
#include "imgui_scope.h"
#include "run_frame.h"
#include "ui/app.h"

using gg::ui::AppState;
using json = nlohmann::json;

namespace {
constexpr const char* kFull =
    R"({"model":"qwen2.5-0.5b","batch_size":4,"seq_len":512,"precision":"bf16-amp","optimizer":"adamw",)"
    R"("gpu":{"id":"rtx-4090","count":1},"dataset":{"samples":20000,"epochs":1}})";
constexpr const char* kLora =
    R"({"model":"qwen2.5-0.5b","batch_size":4,"seq_len":512,"precision":"bf16-amp","optimizer":"adamw","method":"lora",)"
    R"("gpu":{"id":"rtx-4090","count":1},"dataset":{"samples":20000,"epochs":1}})";

// What the CLI says for a scenario document: `gpuguide estimate` and the cheapest fitting rent offer of
// `gpuguide rank --json` for its card.
struct Cli {
    json report;
    double rent_cost = -1;
};
Cli cli(const json& doc) {
    const gg::catalog::Catalog& cat = gg::catalog::embedded_catalog();
    const gg::catalog::ParsedDecision parsed = gg::catalog::parse_decision_scenario_json(doc, cat);
    REQUIRE(parsed.problems.empty());
    Cli out;
    out.report = gg::catalog::full_report(parsed.value, gg::catalog::estimate(parsed.value.scenario, cat), cat);
    const json ranking = gg::catalog::rank_json(parsed.value, cat);  // not a range-for over a temporary's member
    for (const json& o : ranking["options"])
        if (o["kind"] == "rent" && o["gpu"] == parsed.value.scenario.gpu_id && o.value("fits", false) &&
            (out.rent_cost < 0 || o["cost"]["amount"].get<double>() < out.rent_cost))
            out.rent_cost = o["cost"]["amount"].get<double>();
    return out;
}
}  // namespace

TEST_CASE("a pinned scenario keeps its answer while the inputs change, and the differences are pin minus now") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_load_scenario(app, kFull).empty());
    gg::ui::app_update_results(app);
    CHECK(gg::ui::app_pin_current(app));
    CHECK(app.pin_computations == 0);  // the current results are copied, not recomputed
    CHECK_FALSE(gg::ui::app_pin_current(app));  // pinned already
    REQUIRE(gg::ui::app_load_scenario(app, kLora).empty());
    const json cmp = gg::ui::app_compare_json(app);
    REQUIRE(cmp["pins"].size() == 1);
    const Cli full = cli(json::parse(kFull)), lora = cli(json::parse(kLora));
    CHECK(cmp["pins"][0]["report"] == full.report);
    CHECK(cmp["current"]["report"] == lora.report);
    CHECK(cmp["pins"][0]["rent"]["cost"]["amount"].get<double>() == doctest::Approx(full.rent_cost));
    const double full_peak = full.report["memory_bytes"]["nvidia_smi"].get<double>();
    const double lora_peak = lora.report["memory_bytes"]["nvidia_smi"].get<double>();
    CHECK(full_peak > lora_peak);  // LoRA keeps no optimizer state for the frozen weights
    CHECK(cmp["pins"][0]["differences"]["peak_bytes"].get<double>() == doctest::Approx(full_peak - lora_peak));
    CHECK(cmp["pins"][0]["differences"]["total_s"].get<double>() ==
          doctest::Approx(full.report["time"]["total_s"].get<double>() - lora.report["time"]["total_s"].get<double>()));
    CHECK(app.pin_computations == 0);
}

TEST_CASE("at most three pins; unpinning frees a place") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    for (int batch : {1, 2, 4}) {
        REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"bert-base","gpu":{"id":"rtx-4060"},"batch_size":)" +
                                                   std::to_string(batch) + "}")
                    .empty());
        gg::ui::app_update_results(app);
        CHECK(gg::ui::app_pin_current(app));
    }
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"bert-base","gpu":{"id":"rtx-4060"},"batch_size":8})").empty());
    gg::ui::app_update_results(app);
    CHECK_FALSE(gg::ui::app_pin_current(app));
    CHECK(app.pins.size() == 3);
    gg::ui::app_unpin(app, 0);
    CHECK(app.pins[0].scenario["batch_size"] == 2);
    CHECK(gg::ui::app_pin_current(app));
}

TEST_CASE("pins travel in the link and the saved settings, each computed once on arrival") {
    ImGuiContextScope scope;
    AppState sender;
    gg::ui::app_init(sender);
    REQUIRE(gg::ui::app_load_scenario(sender, kFull).empty());
    gg::ui::app_update_results(sender);
    REQUIRE(gg::ui::app_pin_current(sender));
    REQUIRE(gg::ui::app_load_scenario(sender, kLora).empty());
    gg::ui::app_update_results(sender);
    REQUIRE(gg::ui::app_pin_current(sender));
    REQUIRE(gg::ui::app_load_scenario(sender, R"({"model":"bert-base","gpu":{"id":"rtx-4060"}})").empty());
    const json sent = gg::ui::app_compare_json(sender);

    SUBCASE("link") {
        AppState reader;
        gg::ui::app_init(reader);
        gg::ui::app_apply_fragment(reader, gg::ui::app_fragment(sender));
        CHECK(reader.pin_computations == 2);
        CHECK(gg::ui::app_compare_json(reader) == sent);
        CHECK(reader.pin_computations == 2);
        CHECK(gg::ui::app_fragment(reader) == gg::ui::app_fragment(sender));
    }
    SUBCASE("saved settings") {
        AppState reader;
        gg::ui::app_init(reader);
        CHECK(gg::ui::app_apply_store(reader, gg::ui::app_store_json(sender)) == gg::ui::StoreStatus::kLoaded);
        CHECK(reader.pin_computations == 2);
        CHECK(gg::ui::app_compare_json(reader) == sent);
        CHECK(reader.pin_computations == 2);
    }
}

TEST_CASE("a pin the data cannot compute is kept and listed, never dropped") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const json stored = {{"version", 1},
                         {"scenario", json::parse(kFull)},
                         {"pins", json::array({json::parse(kLora), {{"model", "bert-base"}, {"gpu", {{"id", "no-such-card"}}}}, 7})}};
    CHECK(gg::ui::app_apply_store(app, stored.dump()) == gg::ui::StoreStatus::kPartlyLoaded);
    REQUIRE(app.pins.size() == 3);
    CHECK(app.pins[0].problems.empty());
    CHECK_FALSE(app.pins[1].problems.empty());
    CHECK(app.pins[1].problems[0].pointer.rfind("/gpu", 0) == 0);
    CHECK_FALSE(app.pins[2].problems.empty());
    bool listed = false;
    for (const std::string& d : app.notice_details) listed |= d.rfind("/pins/1/gpu", 0) == 0;
    CHECK(listed);
    CHECK(gg::ui::app_pins_json(app)[2] == 7);  // kept as it was
}

TEST_CASE("a ranked option pins as the scenario a click on its row would set, and the inputs stay") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_load_scenario(app, kFull).empty());
    gg::ui::app_update_results(app);
    const json typed = gg::ui::app_scenario_json(app);
    json option;
    for (const json& o : app.results.ranking["options"])
        if (o["kind"] == "buy" && o["gpu"] != "rtx-4090" && o.value("fits", false)) {
            option = o;
            break;
        }
    REQUIRE(option.is_object());
    CHECK(gg::ui::app_pin_option(app, option));
    CHECK(gg::ui::app_scenario_json(app) == typed);
    CHECK(app.pins[0].scenario["gpu"]["id"] == option["gpu"]);
    gg::ui::compute_pins(app);
    CHECK(app.pin_computations == 1);
    CHECK(app.pins[0].report["gpu"]["id"] == option["gpu"]);
}

TEST_CASE("the comparison draws in both languages on a phone and a desktop, and adds no recompute per frame") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_load_scenario(app, kFull).empty());
    gg::ui::app_update_results(app);
    REQUIRE(gg::ui::app_pin_current(app));
    REQUIRE(gg::ui::app_load_scenario(app, kLora).empty());
    app.narrow_show_answer = true;
    for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh})
        for (float width : {390.0f, 1280.0f}) {
            CAPTURE(width);
            app.lang = lang;
            run_frame(app, width, 844);
            CHECK(app.anchors.count("compare-table") == 1);
        }
    CHECK(app.pin_computations == 0);
}
