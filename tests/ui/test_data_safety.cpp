// The user's data is never lost (issue 30): "Load from a file" refuses what is not a data file and asks before it
// changes anything, "Undo import" restores; a link's records are used for its view only; a damaged or partly unusable
// saved store is kept aside (or blocked from being overwritten) and the notice lists why. Property tests at the end
// mutate a data file and a store at random and check the same promises.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/json_text.h"
#include "imgui_scope.h"
#include "ui/app.h"
#include "ui/link.h"
#include "ui/strings.h"

using gg::ui::AppState;
using gg::ui::Str;
using nlohmann::json;

namespace {

const char* kMine = R"({"schema_version": 1,
  "gpus": [{"id": "my-lab-card", "name": "Lab card", "memory_gib": 20, "memory_bandwidth_gb_per_s": 800,
            "dense_tflops": {"fp32": 40, "fp16": 80}, "tdp_w": 300,
            "street_price_cny": {"new": 9000, "used": null, "as_of": "2026-11-30", "source": "entered by the user"}}],
  "offers": [{"id": "my-offer-lab", "provider": "Lab cluster", "gpu": "my-lab-card", "gpu_count": 1,
              "price_per_hour": 1.5, "currency": "CNY", "billing": "on-demand"}]})";

// A notice whose text ends with ':' announces a list: it must have one (issue 30: "Reset:" and nothing after it).
void check_notice_lists(const AppState& app) {
    if (app.notice == Str::Dismiss) return;
    const std::string text = gg::ui::tr(app.notice, gg::ui::Lang::En);
    CAPTURE(text);
    if (!text.empty() && text.back() == ':') CHECK_FALSE(app.notice_details.empty());
    for (const std::string& d : app.notice_details) CHECK_FALSE(d.empty());
}

struct Fixture {
    ImGuiContextScope scope;
    AppState app;
    Fixture() {
        gg::ui::app_init(app);
        gg::ui::app_set_user_data(app, json::parse(kMine));
    }
};

json rtx_4090_96g() {
    json record = gg::catalog::gpu_to_data_json(*gg::catalog::embedded_catalog().find_gpu("rtx-4090"));
    record["memory_gib"] = 96;
    record["visible_memory"] = nullptr;  // the bundled card's nvidia-smi reading (24564 MiB) is not this card's
    record["street_price_cny"] = {{"new", 100}, {"used", nullptr}, {"as_of", "2026-11-30"}, {"source", "entered by the user"}};
    return record;
}

std::string link_with(const std::string& scenario, const json& records) {
    return "#" + gg::ui::scenario_to_fragment(json::parse(scenario)) + "&" + gg::ui::user_data_to_fragment(records);
}

}  // namespace

TEST_CASE("a file that is not a data file is refused with what it is, and nothing changes") {
    const std::pair<const char*, Str> cases[] = {
        {"{}", Str::ImportNotData},
        {R"({"name": "my-app", "version": "1.0.0", "dependencies": {"left-pad": "1"}})", Str::ImportNotData},
        {R"({"model": "gpt2", "batch_size": 8, "gpu": {"id": "rtx-4090"}})", Str::ImportIsScenario},
        {R"({"version": 1, "scenario": {"model": "gpt2"}, "user_data": {"gpus": []}})", Str::ImportIsSettings},
        {R"({"schema_version": 2, "gpus": [{"id": "x"}]})", Str::ImportNewer},
        {R"({"schema_version": 1, "gpus": [], "offers": []})", Str::ImportEmpty},
        {R"({"gpus": [1, "two", null]})", Str::ImportEmpty},
        {R"({"gpus": {"id": "x"}})", Str::ImportNotData},
        {R"([{"id": "x"}])", Str::ImportNotData},
        {"not json {", Str::ImportNotJson},
        {R"({"gpus": [], "gpus": []})", Str::ImportNotJson},
    };
    for (const auto& [text, expected] : cases) {
        CAPTURE(text);
        Fixture f;
        const json before = f.app.user_data;
        const std::string store_before = gg::ui::app_store_json(f.app);
        CHECK_FALSE(gg::ui::app_import_user_data(f.app, text));
        CHECK(f.app.notice == expected);
        CHECK_FALSE(f.app.import_plan.pending);
        CHECK(f.app.user_data == before);
        CHECK(gg::ui::app_store_json(f.app) == store_before);
        check_notice_lists(f.app);
    }
}

TEST_CASE("a file over the input limit is refused before it is parsed, with its size and the limit") {
    Fixture f;
    const json before = f.app.user_data;
    const std::string big = R"({"gpus": [)" + std::string(gg::catalog::kMaxJsonTextBytes, ' ') + "]}";
    CHECK_FALSE(gg::ui::app_import_user_data(f.app, big));
    CHECK(f.app.notice == Str::ImportTooLarge);
    REQUIRE(f.app.notice_details.size() == 1);
    CHECK(f.app.notice_details[0].find("4 MiB") != std::string::npos);
    CHECK(f.app.user_data == before);
}

TEST_CASE("an import shows what it adds, replaces and keeps, changes nothing until confirmed, and can be undone") {
    Fixture f;
    const json before = f.app.user_data;
    json file = json::parse(kMine);
    file["gpus"][0]["memory_gib"] = 24;  // replaces my card
    file["offers"] = json::array();      // the file has no offers: mine is kept
    file["gpus"].push_back(rtx_4090_96g());  // a bundled id: said so
    json other = json::parse(kMine)["gpus"][0];
    other["id"] = "friend-card";
    other["name"] = "Friend's card";
    file["gpus"].push_back(other);
    REQUIRE(gg::ui::app_import_user_data(f.app, file.dump()));
    const gg::ui::ImportPlan& plan = f.app.import_plan;
    REQUIRE(plan.pending);
    CHECK(plan.added == std::vector<std::string>{"NVIDIA GeForce RTX 4090 (rtx-4090)", "Friend's card (friend-card)"});
    CHECK(plan.replaced == std::vector<std::string>{"Lab card (my-lab-card)"});
    CHECK(plan.kept == std::vector<std::string>{"Lab cluster · my-lab-card (my-offer-lab)"});
    CHECK(plan.over_bundled == std::vector<std::string>{"NVIDIA GeForce RTX 4090 (rtx-4090)"});
    CHECK(f.app.user_data == before);  // asked, not done

    SUBCASE("cancel") {
        gg::ui::app_cancel_import(f.app);
        CHECK_FALSE(f.app.import_plan.pending);
        CHECK(f.app.user_data == before);
    }
    SUBCASE("confirm, then undo (also after a reload)") {
        gg::ui::app_confirm_import(f.app);
        CHECK(f.app.notice == Str::ImportLoaded);
        check_notice_lists(f.app);
        CHECK(f.app.user_data["gpus"].size() == 3);
        CHECK(f.app.user_data["offers"].size() == 1);  // kept
        CHECK(f.app.catalog().find_gpu("my-lab-card")->memory_bytes == 24.0 * 1073741824.0);
        CHECK(f.app.undo_import_available);
        const std::string stored = gg::ui::app_store_json(f.app);
        AppState reloaded;
        gg::ui::app_init(reloaded);
        CHECK(gg::ui::app_apply_store(reloaded, stored) == gg::ui::StoreStatus::kLoaded);
        REQUIRE(reloaded.undo_import_available);
        for (AppState* app : {&f.app, &reloaded}) {
            gg::ui::app_undo_import(*app);
            CHECK(app->user_data == before);
            CHECK_FALSE(app->undo_import_available);
            CHECK(app->notice == Str::ImportUndone);
        }
    }
}

TEST_CASE("an import into a browser without data of its own adds the file's records, and undo leaves none") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_import_user_data(app, kMine));
    CHECK(app.import_plan.added.size() == 2);
    CHECK(app.import_plan.kept.empty());
    gg::ui::app_confirm_import(app);
    CHECK(app.catalog().find_gpu("my-lab-card") != nullptr);
    gg::ui::app_undo_import(app);
    CHECK(app.user_data.is_null());
    CHECK(app.catalog().find_gpu("my-lab-card") == nullptr);
}

TEST_CASE("a link's records that its scenario does not use are not read, and nothing of a link is saved unasked") {
    // Issue 30, case 3: a link carrying an rtx-4090 with 96 GiB for 100 CNY, on a scenario that does not use it, was
    // saved into the reader's data for good.
    Fixture f;
    const json before = f.app.user_data;
    const json poison{{"schema_version", 1}, {"gpus", {rtx_4090_96g()}}, {"offers", json::array()}};
    gg::ui::app_apply_fragment(f.app, link_with(R"({"model":"bert-base","gpu":{"id":"rtx-4060"}})", poison));
    CHECK(f.app.link_user_data.is_null());
    CHECK(f.app.link_ignored_count == 1);
    CHECK(f.app.catalog().find_gpu("rtx-4090")->memory_bytes == 24.0 * 1073741824.0);
    CHECK(f.app.user_data == before);
    CHECK(json::parse(gg::ui::app_store_json(f.app))["user_data"] == before);
}

TEST_CASE("a link's record over a bundled card is used for the view, shown as such, and saved only when confirmed") {
    Fixture f;
    const json before = f.app.user_data;
    const json poison{{"schema_version", 1}, {"gpus", {rtx_4090_96g()}}, {"offers", json::array()}};
    gg::ui::app_apply_fragment(f.app, link_with(R"({"model":"bert-base","gpu":{"id":"rtx-4090"}})", poison));
    CHECK(f.app.scenario.gpu_id == "rtx-4090");
    CHECK(f.app.catalog().find_gpu("rtx-4090")->memory_bytes == 96.0 * 1073741824.0);  // this view
    REQUIRE(f.app.link_over_bundled.size() == 1);
    CHECK(f.app.link_over_bundled[0].find("96.0 GiB") != std::string::npos);
    CHECK(f.app.link_over_bundled[0].find("catalog: 24.0 GiB") != std::string::npos);
    CHECK(f.app.user_data == before);
    CHECK(json::parse(gg::ui::app_store_json(f.app))["user_data"] == before);  // what the next visit reads
    const json notice = gg::ui::app_notice_json(f.app);
    CHECK(notice["link"]["over_bundled"].size() == 1);

    CHECK_FALSE(gg::ui::app_save_link_records(f.app, false));  // asks first
    CHECK(f.app.link_save_confirming);
    CHECK(f.app.user_data == before);
    CHECK(gg::ui::app_save_link_records(f.app, true));
    CHECK(f.app.user_data["gpus"].size() == 2);
    CHECK(f.app.link_user_data.is_null());
    CHECK(f.app.catalog().find_gpu("rtx-4090")->memory_bytes == 96.0 * 1073741824.0);
    check_notice_lists(f.app);
}

TEST_CASE("a link's own card is used for its view and offered for saving, without a question when it is new") {
    ImGuiContextScope scope;
    AppState sender;
    gg::ui::app_init(sender);
    gg::ui::app_set_user_data(sender, json::parse(kMine));
    REQUIRE(gg::ui::app_load_scenario(sender, R"({"model":"bert-base","batch_size":8,"gpu":{"id":"my-lab-card"}})").empty());
    const std::string link = gg::ui::app_fragment(sender);
    AppState reader;
    gg::ui::app_init(reader);
    gg::ui::app_apply_fragment(reader, link);
    CHECK(reader.user_data.is_null());
    CHECK(reader.link_records.size() == 2);  // the card and its offer
    CHECK(reader.link_over_bundled.empty());
    CHECK(gg::ui::app_report_json(reader) == gg::ui::app_report_json(sender));
    CHECK(gg::ui::app_fragment(reader) == link);  // passing the link on keeps the card
    CHECK(gg::ui::app_save_link_records(reader, false));
    CHECK(reader.user_data == json::parse(kMine));
}

TEST_CASE("a link longer than the limit is not read") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const std::string link = "#s=1." + std::string(gg::ui::kMaxFragmentChars, 'A');
    CHECK(gg::ui::scenario_from_fragment(link).status == gg::ui::LinkStatus::kTooLarge);
    gg::ui::app_apply_fragment(app, link);
    CHECK(app.notice == Str::LinkTooLarge);
    CHECK(app.scenario.model_id == "bert-base");
}

TEST_CASE("a saved user_data that cannot be used is set aside and listed, never dropped silently") {
    const char* cases[] = {
        R"({"version":1,"scenario":{"model":"gpt2"},"user_data":[1,2]})",
        R"({"version":1,"scenario":{"model":"gpt2"},"user_data":"gpus"})",
        R"({"version":1,"scenario":{"model":"gpt2"},"user_data":{"gpu":[{"id":"x"}]}})",
        R"({"version":1,"scenario":{"model":"gpt2"},"extra":true})",
    };
    for (const char* stored : cases) {
        CAPTURE(stored);
        ImGuiContextScope scope;
        AppState app;
        gg::ui::app_init(app);
        CHECK(gg::ui::app_apply_store(app, stored) == gg::ui::StoreStatus::kPartlyLoaded);
        CHECK(app.notice == Str::StoreSetAside);
        CHECK(app.kept_store_text == stored);
        CHECK(app.scenario.model_id == "gpt2");  // the rest is restored
        check_notice_lists(app);
        gg::ui::app_store_copy_result(app, "gpuguide.v1.unreadable.2026-12-05T02:00:00.000Z", true);
        CHECK(app.notice_details.back().find("gpuguide.v1.unreadable.2026-12-05T02:00:00.000Z") != std::string::npos);
        CHECK_FALSE(app.store_blocked);
    }
}

TEST_CASE("a damaged store says why; when it cannot be copied aside, nothing is overwritten until it is saved") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const std::string stored = R"({"version":1,"scenario":{broken)" + std::string(3000000, 'x');
    CHECK(gg::ui::app_apply_store(app, stored) == gg::ui::StoreStatus::kUnreadable);
    CHECK(app.notice == Str::StoreBroken);
    REQUIRE_FALSE(app.notice_details.empty());
    CHECK(app.notice_details[0].find("not valid JSON") != std::string::npos);
    gg::ui::app_store_copy_result(app, "", false);  // storage full
    CHECK(app.store_blocked);
    CHECK(app.notice_details.back() == gg::ui::tr(Str::StoreNotCopied, app.lang));
    CHECK(app.kept_store_text == stored);
    check_notice_lists(app);
    // Issue 30, case 5: the link handler cleared the list on every start, even without a link.
    gg::ui::app_apply_fragment(app, "");
    CHECK(app.notice_details.size() == 2);
}

TEST_CASE("a saved scenario with a refused setting is restored without it, listed, and kept aside") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const std::string stored = R"({"version":1,"scenario":{"model":"gpt2","batch_size":0}})";
    CHECK(gg::ui::app_apply_store(app, stored) == gg::ui::StoreStatus::kPartlyLoaded);
    CHECK(app.notice == Str::StorePartlyApplied);
    CHECK(app.kept_store_text == stored);
    check_notice_lists(app);
}

// ---- properties --------------------------------------------------------------------------------------------------

namespace {
// One random edit of a JSON text: a byte changed, removed or duplicated, or a span cut out.
std::string mutate(std::string text, std::mt19937& rng) {
    if (text.empty()) return text;
    std::uniform_int_distribution<std::size_t> at(0, text.size() - 1);
    const char pool[] = "{}[]\",:0123456789-eE.ntfalsrugpidoxyz \\";
    switch (rng() % 5) {
        case 0: text[at(rng)] = pool[rng() % (sizeof pool - 1)]; break;
        case 1: text.erase(at(rng), 1); break;
        case 2: { const std::size_t i = at(rng); text.insert(i, text.substr(i, 1 + rng() % 8)); break; }
        case 3: { const std::size_t i = at(rng); text.erase(i, rng() % 40); break; }
        default: text.insert(at(rng), std::string(1, pool[rng() % (sizeof pool - 1)])); break;
    }
    return text;
}

std::vector<std::string> ids_of(const json& data) {
    std::vector<std::string> ids;
    if (!data.is_object()) return ids;
    for (const char* key : {"gpus", "offers"})
        if (data.contains(key) && data[key].is_array())
            for (const json& r : data[key])
                if (r.is_object() && r.contains("id") && r["id"].is_string()) ids.push_back(r["id"]);
    return ids;
}
}  // namespace

TEST_CASE("property: any file either is refused or asks; a confirmed import keeps every record id; undo restores") {
    std::mt19937 rng(30);
    const std::string base = json::parse(kMine).dump();
    Fixture f;
    const json before = f.app.user_data;
    const std::vector<std::string> ids = ids_of(before);
    int asked = 0, refused = 0;
    for (int i = 0; i < 600; ++i) {
        std::string text = base;
        for (int k = 0, edits = 1 + static_cast<int>(rng() % 4); k < edits; ++k) text = mutate(text, rng);
        CAPTURE(text);
        const bool asks = gg::ui::app_import_user_data(f.app, text);
        REQUIRE(f.app.user_data == before);  // nothing before the user's "Import"
        check_notice_lists(f.app);
        if (!asks) {
            ++refused;
            continue;
        }
        ++asked;
        gg::ui::app_confirm_import(f.app);
        const std::vector<std::string> now = ids_of(f.app.user_data);
        for (const std::string& id : ids) CHECK(std::find(now.begin(), now.end(), id) != now.end());
        check_notice_lists(f.app);
        gg::ui::app_undo_import(f.app);
        REQUIRE(f.app.user_data == before);
    }
    CHECK(asked > 50);  // the mutations reach both branches
    CHECK(refused > 50);
}

TEST_CASE("property: any link leaves the saved user data as it was") {
    std::mt19937 rng(31);
    Fixture f;
    const json before = f.app.user_data;
    const json records{{"schema_version", 1}, {"gpus", {rtx_4090_96g()}}, {"offers", json::parse(kMine)["offers"]}};
    const std::string scenario = R"({"model":"bert-base","batch_size":8,"gpu":{"id":"rtx-4090"}})";
    for (int i = 0; i < 300; ++i) {
        std::string r = records.dump(), s = scenario;
        for (int k = 0, edits = static_cast<int>(rng() % 3); k < edits; ++k) r = mutate(r, rng);
        if (rng() % 2) s = mutate(s, rng);
        const std::string link = "#s=1." + gg::ui::base64url_encode(s) + "&u=1." + gg::ui::base64url_encode(r);
        CAPTURE(link);
        gg::ui::app_apply_fragment(f.app, link);
        REQUIRE(f.app.user_data == before);
        REQUIRE(json::parse(gg::ui::app_store_json(f.app))["user_data"] == before);
        check_notice_lists(f.app);
    }
}

TEST_CASE("property: a mutated store is loaded, or kept aside whole with a listed reason") {
    std::mt19937 rng(32);
    ImGuiContextScope scope;
    AppState source;
    gg::ui::app_init(source);
    gg::ui::app_set_user_data(source, json::parse(kMine));
    const std::string stored = gg::ui::app_store_json(source);
    for (int i = 0; i < 300; ++i) {
        std::string text = stored;
        for (int k = 0, edits = 1 + static_cast<int>(rng() % 3); k < edits; ++k) text = mutate(text, rng);
        CAPTURE(text);
        AppState app;
        gg::ui::app_init(app);
        const gg::ui::StoreStatus status = gg::ui::app_apply_store(app, text);
        if (status == gg::ui::StoreStatus::kUnreadable || status == gg::ui::StoreStatus::kPartlyLoaded ||
            status == gg::ui::StoreStatus::kNewer) {
            CHECK(app.kept_store_text == text);  // offered as a file; the platform copies it aside
            CHECK(app.notice != Str::Dismiss);
        }
        check_notice_lists(app);
    }
}

TEST_CASE("a run longer than a century and a cost past any budget are flagged with the reason") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"gpt2","batch_size":8,"seq_len":1024,"gpu":{"id":"rtx-4090"},
        "dataset":{"samples":1e15,"epochs":1000}})").empty());
    gg::ui::app_update_results(app);
    REQUIRE(app.results.valid);
    const json& checks = app.results.report["checks"];
    REQUIRE(checks.size() == 1);
    CHECK(checks[0]["code"] == "run_over_a_century");
    CHECK(checks[0]["total_s"].get<double>() > 100 * 365.25 * 86400);
    CHECK(app.results.over_budget_cost > gg::ui::kAnyBudgetCny);  // CNY: the default currency

    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"gpt2","batch_size":8,"seq_len":1024,"gpu":{"id":"rtx-4090"},
        "dataset":{"samples":100000,"epochs":3}})").empty());
    gg::ui::app_update_results(app);
    CHECK(app.results.report["checks"].empty());
    CHECK(app.results.over_budget_cost == 0);
}

TEST_CASE("a second link without records of its own drops the first link's records from the view") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const json poison{{"schema_version", 1}, {"gpus", {rtx_4090_96g()}}, {"offers", json::array()}};
    gg::ui::app_apply_fragment(app, link_with(R"({"model":"bert-base","gpu":{"id":"rtx-4090"}})", poison));
    REQUIRE(app.catalog().find_gpu("rtx-4090")->memory_bytes == 96.0 * 1073741824.0);
    gg::ui::app_apply_fragment(app, "#" + gg::ui::scenario_to_fragment(json::parse(R"({"model":"gpt2","gpu":{"id":"rtx-4090"}})")));
    CHECK(app.link_user_data.is_null());
    CHECK(app.catalog().find_gpu("rtx-4090")->memory_bytes == 24.0 * 1073741824.0);
    CHECK(app.scenario.model_id == "gpt2");
}
