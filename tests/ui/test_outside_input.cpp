// What an input-validation review (session 13) found in the page's readers of outside input (links, the saved state):
// one test per finding, with the input and the behaviour the fix gives. The CLI's side is in
// tests/catalog/test_json_text.cpp.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "imgui_scope.h"
#include "ui/app.h"
#include "ui/link.h"

using gg::ui::AppState;
using gg::ui::Str;

namespace {
std::string link_of(const std::string& scenario_json) {
    return "#" + gg::ui::scenario_to_fragment(nlohmann::json::parse(scenario_json));
}
}  // namespace

TEST_CASE("a link nested thousands of levels deep is a damaged link, not a stack overflow") {
    // Found: the page stayed on "Loading" with "Maximum call stack size exceeded" at depth 5000.
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    std::string deep = R"({"model":"gpt2","x":)";
    for (int i = 0; i < 5000; ++i) deep += R"({"a":)";  // 47 KB as a link: under ui::kMaxFragmentChars
    deep += "1";
    deep += std::string(5000, '}');
    deep += "}";
    const std::string link = "#s=1." + gg::ui::base64url_encode(deep);
    CHECK(gg::ui::scenario_from_fragment(link).status == gg::ui::LinkStatus::kBadJson);
    CHECK_NOTHROW(gg::ui::app_apply_fragment(app, link));
    CHECK(app.notice == Str::LinkBroken);
    CHECK(app.scenario.model_id == "bert-base");  // the default example, unchanged
    // The saved state is read the same way.
    CHECK(gg::ui::app_apply_store(app, R"({"version":1,"scenario":)" + deep + "}") == gg::ui::StoreStatus::kUnreadable);
}

TEST_CASE("a link with one bad setting keeps the others; the notice says which were left out") {
    // Found: batch_size 0 made the page drop the model, GPU, precision and dataset and show the default example.
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    gg::ui::app_apply_fragment(app, link_of(R"({"model":"llama-2-7b","batch_size":0,"seq_len":1024,
        "precision":"bf16-amp","gpu":{"id":"h100-sxm","count":2},"dataset":{"tokens":1e9}})"));
    CHECK(app.notice == Str::LinkPartlyApplied);
    REQUIRE(app.notice_details.size() == 1);
    CHECK(app.notice_details[0].rfind("/batch_size: ", 0) == 0);
    CHECK(app.scenario.model_id == "llama-2-7b");
    CHECK(app.scenario.batch_size == 1);  // the default
    CHECK(app.scenario.seq_len == 1024);
    CHECK(app.scenario.precision == "bf16-amp");
    CHECK(app.scenario.gpu_id == "h100-sxm");
    CHECK(app.scenario.gpu_count == 2);
    CHECK(app.scenario.dataset_tokens == 1e9);

    // A setting that only fails with another one goes too, round after round (LoRA settings need method lora).
    gg::ui::app_apply_fragment(app, link_of(R"({"model":"gpt2","method":"dora","lora":{"rank":8},
        "gpu":{"id":"rtx-4090"}})"));
    CHECK(app.notice == Str::LinkPartlyApplied);
    CHECK(app.scenario.model_id == "gpt2");
    CHECK(app.scenario.gpu_id == "rtx-4090");
    CHECK(app.scenario.method == "full");
    CHECK(app.notice_details.size() == 2);  // /method, then /lora
}

TEST_CASE("a link that cannot be used says whether the default example or the previous settings are shown") {
    // Found: the notice always said "the default example is shown", also when the user's own inputs stayed.
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const std::string no_model = link_of(R"({"model":"no-such-model","batch_size":-3})");
    gg::ui::app_apply_fragment(app, no_model);
    CHECK(app.notice == Str::LinkInvalid);
    gg::ui::app_apply_fragment(app, "#s=1.@@@");
    CHECK(app.notice == Str::LinkBroken);
    gg::ui::app_apply_fragment(app, "#s=9.e30");
    CHECK(app.notice == Str::LinkNewer);

    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"resnet50","gpu":{"id":"rtx-4090"}})").empty());
    gg::ui::app_apply_fragment(app, no_model);
    CHECK(app.notice == Str::LinkInvalidKept);
    gg::ui::app_apply_fragment(app, "#s=1.@@@");
    CHECK(app.notice == Str::LinkBrokenKept);
    gg::ui::app_apply_fragment(app, "#s=9.e30");
    CHECK(app.notice == Str::LinkNewerKept);
    CHECK(app.scenario.model_id == "resnet50");
}

TEST_CASE("a notice quotes outside input short and printable") {
    // Found (CLI, same messages): a 5 MB model name came back whole; a NUL cut the message.
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    gg::ui::app_apply_fragment(app, link_of(R"({"model":")" + std::string(40000, 'x') + R"("})"));
    REQUIRE_FALSE(app.notice_details.empty());
    for (const std::string& d : app.notice_details) CHECK(d.size() < 1000);
    nlohmann::json nul = {{"model", std::string("gpt2\0zz", 7)}};
    gg::ui::app_apply_fragment(app, "#" + gg::ui::scenario_to_fragment(nul));
    REQUIRE_FALSE(app.notice_details.empty());
    CHECK(app.notice_details[0].find("gpt2\\u0000zz") != std::string::npos);
}

TEST_CASE("saved settings that this version refuses keep the rest; the notice lists what was reset") {
    // An older page could save NVLink on an RTX 4090, which is refused now: the rest of the saved job comes back.
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    const std::string stored = R"({"version":1,"scenario":{"model":"gpt2","batch_size":12,"seq_len":512,
        "gpu":{"id":"rtx-4090","count":2,"interconnect":"nvlink"}}})";
    CHECK(gg::ui::app_apply_store(app, stored) == gg::ui::StoreStatus::kPartlyLoaded);  // kept aside too
    CHECK(app.notice == Str::StorePartlyApplied);
    REQUIRE(app.notice_details.size() == 1);
    CHECK(app.notice_details[0].rfind("/gpu/interconnect: ", 0) == 0);
    CHECK(app.scenario.model_id == "gpt2");
    CHECK(app.scenario.batch_size == 12);
    CHECK(app.scenario.gpu_count == 2);
    CHECK(app.scenario.interconnect.empty());  // the card's default
}
