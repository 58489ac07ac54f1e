// Issue 39: a link never bricks the page and never changes what is saved without asking. Each "visit" here does what
// src/platform/web_main.cpp does on start (saved settings, then the link, then frames) and returns what the page saves,
// so a second visit starts from exactly what the first one left in localStorage.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_scope.h"
#include "ui/app.h"
#include "ui/link.h"
#include "ui/strings.h"

using gg::ui::AppState;
using gg::ui::Str;
using nlohmann::json;

namespace {

const char* kOwnCard = R"({"id": "my-lab-card", "name": "Lab card", "memory_gib": 20, "memory_bandwidth_gb_per_s": 800,
    "dense_tflops": {"fp32": 40, "fp16": 80}, "tdp_w": 300,
    "street_price_cny": {"new": 9000, "used": null, "as_of": "2026-11-30", "source": "entered by the user"}})";

// A card only the sender of a link has (the link carries it in its u= part).
json sender_card() {
    json card = json::parse(kOwnCard);
    card["id"] = "friend-card";
    card["name"] = "Friend's card";
    return card;
}

const char* kPinA = R"({"model":"gpt2","batch_size":4,"seq_len":512,"gpu":{"id":"rtx-4090","count":1}})";
const char* kPinB = R"({"model":"bert-base","batch_size":32,"seq_len":128,"gpu":{"id":"rtx-3090","count":1}})";

std::string part(const char* key, const std::string& json_text) {
    return std::string(key) + "=1." + gg::ui::base64url_encode(json_text);
}

// What one visit to the page leaves behind: the saved settings and the URL fragment the page wrote.
struct Visit {
    std::string stored;    // localStorage["gpuguide.v1"] after the visit (unchanged when the page may not write it)
    std::string fragment;  // location.hash after the visit, without '#'
    json notice;           // window.gpuguide.notice()
    json compare;          // window.gpuguide.compare()
    bool started = false;  // the first frame was drawn (window.gpuguide.ready)
};

void frame(AppState& app) {
    gg::ui::app_update_fonts(app);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    gg::ui::app_frame(app);
    ImGui::Render();
}

// The start-up path of web_main.cpp: app_init, the saved settings, the link, two frames (the second computes the
// ranking and the pins), then the store write of sync_browser. `act` runs between the frames (a user's click).
template <typename Act>
Visit visit(const std::string& stored, const std::string& fragment, Act act) {
    ImGuiContextScope scope;
    AppState app;
    Visit out;
    out.stored = stored;
    gg::ui::app_init(app);
    if (!stored.empty()) {
        const gg::ui::StoreStatus status = gg::ui::app_apply_store(app, stored);
        if (status == gg::ui::StoreStatus::kUnreadable || status == gg::ui::StoreStatus::kPartlyLoaded)
            gg::ui::app_store_copy_result(app, "gpuguide.v1.unreadable.test", true);
    }
    gg::ui::app_apply_fragment(app, "#" + fragment);
    app.defer_first_decisions = true;
    frame(app);
    frame(app);
    act(app);
    frame(app);
    out.started = true;
    out.fragment = gg::ui::app_fragment(app);
    out.notice = gg::ui::app_notice_json(app);
    out.compare = gg::ui::app_compare_json(app);
    if (app.store_writable && !app.store_blocked) out.stored = gg::ui::app_store_json(app);
    return out;
}
Visit visit(const std::string& stored, const std::string& fragment = "") {
    return visit(stored, fragment, [](AppState&) {});
}

// The saved settings of a user with a scenario on their own card, that card and its offer, and the given pins.
std::string saved_state(const json& pins) {
    json user{{"schema_version", 1}, {"gpus", {json::parse(kOwnCard)}},
              {"offers", {{{"id", "my-offer-lab"}, {"provider", "Lab cluster"}, {"gpu", "my-lab-card"}, {"gpu_count", 1},
                           {"price_per_hour", 1.5}, {"currency", "CNY"}, {"billing", "on-demand"}}}}};
    json doc{{"version", 1},
             {"scenario", json::parse(R"({"model":"bert-base","batch_size":16,"seq_len":128,"gpu":{"id":"my-lab-card"}})")},
             {"user_data", user}};
    if (!pins.empty()) doc["pins"] = pins;
    return doc.dump();
}

json stored_key(const std::string& stored, const char* key) {
    const json doc = json::parse(stored, nullptr, false);
    return doc.is_object() && doc.contains(key) ? doc[key] : json(nullptr);
}

// The links of issue 39 item 1, each of which used to leave a store the page could not start from.
std::vector<std::pair<std::string, std::string>> issue_links() {
    const json own{{"schema_version", 1}, {"gpus", {sender_card()}}, {"offers", json::array()}};
    const std::string on_sender_card = R"({"model":"gpt2","batch_size":8,"seq_len":512,"gpu":{"id":"friend-card"}})";
    return {
        {"a scenario on the sender's own card", part("s", on_sender_card) + "&" + part("u", own.dump())},
        {"a setting the page resets", part("s", R"({"model":"gpt2","batch_size":0})")},
        {"an unknown GPU id", part("s", R"({"model":"gpt2","batch_size":8,"gpu":{"id":"no-such-gpu"}})")},
        {"two s= parts", part("s", R"({"model":"gpt2","batch_size":8})") + "&" +
                             part("s", R"({"model":"vit-b-16","batch_size":64})")},
        {"pins of null", part("s", R"({"model":"gpt2","batch_size":8})") + "&" + part("p", "null")},
        {"no pins", part("s", R"({"model":"gpt2","batch_size":8})") + "&" + part("p", "[]")},
        {"pins on unknown cards", part("s", R"({"model":"gpt2","batch_size":8})") + "&" +
                                      part("p", R"([{"model":"gpt2","gpu":{"id":"nope-1"}},{"model":"gpt2","gpu":{"id":"nope-2"}}])")},
    };
}

}  // namespace

TEST_CASE("every link of issue 39 opens, and the page starts again on every later visit with the user's data") {
    const json pins = json::array({json::parse(kPinA), json::parse(kPinB)});
    const std::string saved = saved_state(pins);
    for (const auto& [name, fragment] : issue_links()) {
        CAPTURE(name);
        const Visit first = visit(saved, fragment);
        REQUIRE(first.started);
        // A later visit without the link, and one that reopens the page's own URL (the fragment it wrote).
        for (const std::string& later : {std::string(), first.fragment}) {
            CAPTURE(later);
            const Visit second = visit(first.stored, later);
            REQUIRE(second.started);
            const Visit third = visit(second.stored);
            REQUIRE(third.started);
            CHECK(stored_key(third.stored, "user_data") == stored_key(saved, "user_data"));
        }
    }
}
