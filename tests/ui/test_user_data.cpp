// The user's own cards, offers and prices: used by every result, kept (even when invalid), saved with the settings,
// exported as a file the catalog reads back, and imported without losing anything on a bad file.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "imgui.h"
#include "imgui_scope.h"
#include "run_frame.h"
#include "ui/app.h"

namespace {

const char* kUserData = R"({"schema_version": 1,
  "gpus": [{"id": "my-lab-card", "name": "Lab card", "memory_gib": 20, "memory_bandwidth_gb_per_s": 800,
            "dense_tflops": {"fp32": 40, "fp16": 80}, "tdp_w": 300,
            "street_price_cny": {"new": 9000, "used": null, "as_of": "2026-11-30", "source": "entered by the user"}}],
  "offers": [{"id": "my-offer-lab", "provider": "Lab cluster", "gpu": "my-lab-card", "gpu_count": 1,
              "price_per_hour": 1.5, "currency": "CNY", "billing": "on-demand"}]})";

const nlohmann::json* option(const nlohmann::json& ranking, const std::string& id) {
    for (const auto& o : ranking["options"])
        if (o.value("id", "") == id) return &o;
    return nullptr;
}
}  // namespace

TEST_CASE("the user's own card and offer are used by the scenario, the ranking and the report") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_set_user_data(app, nlohmann::json::parse(kUserData));
    REQUIRE(app.user_data_problems.empty());
    REQUIRE(app.catalog().find_gpu("my-lab-card") != nullptr);
    const auto problems = gg::ui::app_load_scenario(
        app, R"({"model":"bert-base","batch_size":8,"seq_len":128,"gpu":{"id":"my-lab-card"},"dataset":{"samples":1000}})");
    REQUIRE(problems.empty());
    gg::ui::app_update_results(app);
    REQUIRE(app.results.valid);
    CHECK(app.results.report["scenario"]["gpu"]["id"] == "my-lab-card");
    const nlohmann::json* rent = option(app.results.ranking, "rent:my-offer-lab");
    REQUIRE(rent != nullptr);
    CHECK((*rent)["rent"]["provider"] == "Lab cluster");
    const nlohmann::json* buy = option(app.results.ranking, "buy:my-lab-card:1");
    REQUIRE(buy != nullptr);
    CHECK((*buy)["buy"]["card_price"]["amount"].get<double>() == doctest::Approx(9000));
}

TEST_CASE("an own price replaces the catalog's price of that card only") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    const gg::catalog::Catalog& bundled = gg::catalog::embedded_catalog();
    const gg::engine::GpuSpec* base = bundled.find_gpu("rtx-4060");
    REQUIRE(base != nullptr);
    nlohmann::json record = gg::catalog::gpu_to_data_json(*base);
    record["street_price_cny"] = {{"new", 1999}, {"used", nullptr}, {"as_of", "2026-11-30"}, {"source", "me"}};
    gg::ui::app_set_user_data(app, {{"schema_version", 1}, {"gpus", {record}}});
    std::string listed;
    for (const auto& p : app.user_data_problems) listed += p.pointer + ": " + p.message + "\n";
    CAPTURE(listed);
    REQUIRE(app.user_data_problems.empty());
    CHECK(app.catalog().gpus.size() == bundled.gpus.size());
    CHECK(app.catalog().find_gpu("rtx-4060")->street_price.new_cny == 1999);
    CHECK(app.catalog().find_gpu("rtx-4090")->street_price.new_cny == bundled.find_gpu("rtx-4090")->street_price.new_cny);
    gg::ui::app_update_results(app);
    const nlohmann::json* buy = option(app.results.ranking, "buy:rtx-4060:1");
    REQUIRE(buy != nullptr);
    CHECK((*buy)["buy"]["card_price"]["amount"].get<double>() == doctest::Approx(1999));
}

TEST_CASE("a record with problems is kept and listed, and left out of the catalog") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    nlohmann::json data = nlohmann::json::parse(kUserData);
    data["gpus"][0]["memory_gib"] = 4096;  // past the 512 GiB limit
    gg::ui::app_set_user_data(app, data);
    CHECK(!app.user_data_problems.empty());
    CHECK(app.catalog().find_gpu("my-lab-card") == nullptr);
    CHECK(app.user_data == data);  // nothing the user entered is lost
    CHECK(nlohmann::json::parse(gg::ui::app_store_json(app))["user_data"] == data);
}

TEST_CASE("the saved settings bring the user's data back before the scenario that uses it") {
    ImGuiContextScope scope;
    std::string stored;
    {
        gg::ui::AppState app;
        gg::ui::app_init(app);
        gg::ui::app_set_user_data(app, nlohmann::json::parse(kUserData));
        REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"gpt2","batch_size":2,"seq_len":256,"gpu":{"id":"my-lab-card"}})").empty());
        stored = gg::ui::app_store_json(app);
    }
    gg::ui::AppState again;
    gg::ui::app_init(again);
    CHECK(gg::ui::app_apply_store(again, stored) == gg::ui::StoreStatus::kLoaded);
    CHECK(again.scenario.gpu_id == "my-lab-card");
    CHECK(again.user_data == nlohmann::json::parse(kUserData));
}

TEST_CASE("the export file reads back through the catalog, and a bad import changes nothing") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_set_user_data(app, nlohmann::json::parse(kUserData));
    const std::string file = gg::ui::app_user_data_file(app);
    std::vector<gg::catalog::Problem> problems;
    const gg::catalog::Catalog merged = gg::catalog::merge_user_data(gg::catalog::embedded_catalog(), file, problems);
    CHECK(problems.empty());
    CHECK(merged.find_gpu("my-lab-card") != nullptr);

    gg::ui::AppState other;
    gg::ui::app_init(other);
    CHECK(!gg::ui::app_import_user_data(other, "not json {"));
    CHECK(other.notice == gg::ui::Str::ImportNotJson);
    CHECK(other.user_data.is_null());
    CHECK(gg::ui::app_import_user_data(other, file));  // asks first (tests/ui/test_data_safety.cpp)
    CHECK(other.catalog().find_gpu("my-lab-card") == nullptr);
    gg::ui::app_confirm_import(other);
    CHECK(other.notice == gg::ui::Str::ImportLoaded);
    CHECK(other.catalog().find_gpu("my-lab-card") != nullptr);
}

TEST_CASE("each custom-model starting point is a valid model, and the page draws it in both languages") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (int i = 0; i < gg::ui::custom_model_template_count(); ++i) {
        const nlohmann::json model = nlohmann::json::parse(gg::ui::custom_model_template(i));
        CAPTURE(model.dump());
        REQUIRE(gg::ui::app_load_scenario(app, nlohmann::json{{"model", model}, {"batch_size", 4}, {"gpu", {{"id", "rtx-4090"}}}}.dump()).empty());
        gg::ui::app_update_results(app);
        CHECK(app.results.valid);
        CHECK(app.results.report["params"]["total"].get<double>() > 1e6);
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            app.lang = lang;
            run_frame(app, 1280, 800);
        }
    }
}

TEST_CASE("the GPT-2 starting point has GPT-2 small's parameter count") {
    // Hugging Face gpt2: 124,439,808 parameters (tied embeddings), the same as the gpt2 preset.
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_load_scenario(app, nlohmann::json{{"model", nlohmann::json::parse(gg::ui::custom_model_template(0))},
                                                          {"batch_size", 1}}.dump()).empty());
    gg::ui::app_update_results(app);
    CHECK(app.results.report["params"]["total"].get<double>() == doctest::Approx(124439808).epsilon(0.001));
}

TEST_CASE("the ResNet and U-Net starting points have their published parameter counts") {
    // torchvision resnet50: 25,557,032; milesial/Pytorch-UNet (bilinear=False, 3 -> 2 classes): 31,037,698
    // (tests/validation/measured_saved_activations.json, counted with PyTorch).
    const std::pair<const char*, double> expected[] = {{"resnet", 25557032}, {"unet", 31037698}};
    for (const auto& [family, params] : expected) {
        CAPTURE(family);
        ImGuiContextScope scope;
        gg::ui::AppState app;
        gg::ui::app_init(app);
        int index = -1;
        for (int i = 0; i < gg::ui::custom_model_template_count(); ++i)
            if (nlohmann::json::parse(gg::ui::custom_model_template(i))["family"] == family) index = i;
        REQUIRE(index >= 0);
        const nlohmann::json model = nlohmann::json::parse(gg::ui::custom_model_template(index));
        REQUIRE(gg::ui::app_load_scenario(app, nlohmann::json{{"model", model}, {"batch_size", 1}}.dump()).empty());
        gg::ui::app_update_results(app);
        CHECK(app.results.report["params"]["total"].get<double>() == params);
    }
}

TEST_CASE("a link to a scenario on the user's own card carries that card, and opens elsewhere with the same report") {
    ImGuiContextScope scope;
    gg::ui::AppState sender;
    gg::ui::app_init(sender);
    gg::ui::app_set_user_data(sender, nlohmann::json::parse(kUserData));
    REQUIRE(gg::ui::app_load_scenario(
                sender, R"({"model":"bert-base","batch_size":8,"gpu":{"id":"my-lab-card"},"dataset":{"samples":1000}})")
                .empty());
    const std::string link = gg::ui::app_fragment(sender);
    CHECK(link.find("&u=1.") != std::string::npos);

    SUBCASE("someone without the card gets it for this view, not in their own data until they save it") {
        gg::ui::AppState receiver;
        gg::ui::app_init(receiver);
        gg::ui::app_apply_fragment(receiver, link);
        CHECK(receiver.notice == gg::ui::Str::Dismiss);
        CHECK(receiver.user_data.is_null());
        CHECK(receiver.link_records.size() == 2);
        REQUIRE(receiver.catalog().find_gpu("my-lab-card") != nullptr);
        CHECK(receiver.catalog().find_offer("my-offer-lab") != nullptr);
        CHECK(gg::ui::app_report_json(receiver) == gg::ui::app_report_json(sender));
    }
    SUBCASE("someone with a different card of the same id keeps their own, and is told") {
        gg::ui::AppState receiver;
        gg::ui::app_init(receiver);
        nlohmann::json theirs = nlohmann::json::parse(kUserData);
        theirs["gpus"][0]["memory_gib"] = 24;
        theirs["offers"] = nlohmann::json::array();
        gg::ui::app_set_user_data(receiver, theirs);
        gg::ui::app_apply_fragment(receiver, link);
        CHECK(receiver.notice == gg::ui::Str::LinkOwnRecordKept);
        CHECK(receiver.notice_details == std::vector<std::string>{"my-lab-card"});
        CHECK(receiver.catalog().find_gpu("my-lab-card")->memory_bytes == 24.0 * 1073741824.0);
        CHECK(receiver.catalog().find_offer("my-offer-lab") != nullptr);  // new to them: used for this view
        CHECK(receiver.user_data == theirs);                               // and not saved
        CHECK(receiver.scenario.gpu_id == "my-lab-card");
    }
    SUBCASE("a bundled card at its bundled price needs no user data in the link") {
        REQUIRE(gg::ui::app_load_scenario(sender, R"({"model":"bert-base","gpu":{"id":"rtx-4090"}})").empty());
        CHECK(gg::ui::app_fragment(sender).find("&u=") == std::string::npos);
    }
}

TEST_CASE("pins travel in the data file: an import asks before it replaces the user's pins, and undo brings them back") {
    ImGuiContextScope scope;
    const char* kLora = R"({"model":"bert-base","batch_size":8,"seq_len":128,"method":"lora","gpu":{"id":"rtx-4090"}})";
    const char* kOwnCard = R"({"model":"bert-base","batch_size":8,"seq_len":128,"gpu":{"id":"my-lab-card"}})";
    gg::ui::AppState from;
    gg::ui::app_init(from);
    gg::ui::app_set_user_data(from, nlohmann::json::parse(kUserData));
    REQUIRE(gg::ui::app_set_pins(from, nlohmann::json::array({nlohmann::json::parse(kOwnCard)})).empty());
    const std::string file = gg::ui::app_user_data_file(from);
    const nlohmann::json doc = nlohmann::json::parse(file);
    REQUIRE(doc.contains("pins"));
    CHECK(doc["pins"] == gg::ui::app_pins_json(from));
    std::vector<gg::catalog::Problem> problems;  // what `gpuguide --user-data` reads: the pins are accepted
    gg::catalog::merge_user_data(gg::catalog::embedded_catalog(), file, problems);
    CHECK(problems.empty());

    gg::ui::AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_set_pins(app, nlohmann::json::array({nlohmann::json::parse(kLora)})).empty());
    gg::ui::app_update_results(app);
    REQUIRE(gg::ui::app_pin_current(app));
    const nlohmann::json mine = gg::ui::app_pins_json(app);
    REQUIRE(mine.size() == 2);
    REQUIRE(gg::ui::app_import_user_data(app, file));
    CHECK(app.import_plan.pins.size() == 1);
    CHECK(app.import_plan.current_pin_count == 2);
    CHECK(app.import_plan.problems.empty());  // the pin names the file's own card: valid with the file's records
    CHECK(gg::ui::app_notice_json(app)["import"]["pins"] == nlohmann::json{{"file", 1}, {"yours", 2}});
    CHECK(gg::ui::app_pins_json(app) == mine);  // nothing changes before "Import"
    gg::ui::app_confirm_import(app);
    CHECK(gg::ui::app_pins_json(app) == doc["pins"]);
    REQUIRE(app.pins.size() == 1);
    gg::ui::compute_pins(app);
    CHECK(app.pins[0].problems.empty());
    CHECK(app.pins[0].report["gpu"]["id"] == "my-lab-card");

    // The undo survives a reload: the replaced pins are saved with the settings.
    gg::ui::AppState reloaded;
    gg::ui::app_init(reloaded);
    CHECK(gg::ui::app_apply_store(reloaded, gg::ui::app_store_json(app)) == gg::ui::StoreStatus::kLoaded);
    CHECK(gg::ui::app_pins_json(reloaded) == doc["pins"]);
    REQUIRE(reloaded.undo_import_available);
    gg::ui::app_undo_import(reloaded);
    CHECK(gg::ui::app_pins_json(reloaded) == mine);
    CHECK(reloaded.catalog().find_gpu("my-lab-card") == nullptr);
    gg::ui::app_undo_import(app);
    CHECK(gg::ui::app_pins_json(app) == mine);

    SUBCASE("a file without pins leaves the user's pins alone") {
        REQUIRE(gg::ui::app_import_user_data(app, kUserData));
        CHECK(app.import_plan.pins.is_null());
        gg::ui::app_confirm_import(app);
        CHECK(gg::ui::app_pins_json(app) == mine);
    }
    SUBCASE("a bad pin is listed with its field before the import, and kept with its problem after it") {
        nlohmann::json bad = doc;
        bad["pins"][0]["batch_size"] = -3;
        REQUIRE(gg::ui::app_import_user_data(app, bad.dump()));
        REQUIRE(app.import_plan.problems.size() == 1);
        CHECK(app.import_plan.problems[0].pointer == "/pins/0/batch_size");
        gg::ui::app_confirm_import(app);
        REQUIRE(app.pins.size() == 1);
        CHECK(app.pins[0].scenario == bad["pins"][0]);
        CHECK(!app.pins[0].problems.empty());
    }
    SUBCASE("pins that are not a list refuse the whole file") {
        nlohmann::json bad = doc;
        bad["pins"] = "rtx-4090";
        CHECK(!gg::ui::app_import_user_data(app, bad.dump()));
        CHECK(app.notice == gg::ui::Str::ImportNotData);
        CHECK(gg::ui::app_pins_json(app) == mine);
    }
}
