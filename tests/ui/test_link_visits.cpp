// Issue 39: a link never bricks the page and never changes what is saved without asking. Each "visit" here does what
// src/platform/web_main.cpp does on start (saved settings, then the link, then frames) and returns what the page saves,
// so a second visit starts from exactly what the first one left in localStorage.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "imgui.h"
#include "imgui_scope.h"
#include "run_frame.h"
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
    std::string kept_aside;  // what the platform copied under gpuguide.v1.unreadable.* (the saved text it set aside)
};

// One Dear ImGui context and font atlas for all the visits of a test: building the atlas (the CJK font) is most of a
// fresh context's cost, and each visit's AppState borrows the fonts as the page's own (built for its scale).
struct Page {
    ImGuiContextScope scope;
    AppState warm;  // owns the glyph ranges the atlas points into
    Page() {
        gg::ui::app_init(warm);
        gg::ui::app_update_fonts(warm);
    }
};

// The start-up path of web_main.cpp: app_init, the saved settings, the link, two frames (the second computes the
// ranking and the pins), then the store write of sync_browser. `act` runs between the frames (a user's click).
template <typename Act>
Visit visit(Page& page, const std::string& stored, const std::string& fragment, Act act) {
    AppState app;
    Visit out;
    out.stored = stored;
    gg::ui::app_init(app);
    app.fonts.body = page.warm.fonts.body;
    app.fonts.heading = page.warm.fonts.heading;
    app.fonts.built_for_scale = page.warm.fonts.built_for_scale;
    if (!stored.empty()) {
        const gg::ui::StoreStatus status = gg::ui::app_apply_store(app, stored);
        if (status == gg::ui::StoreStatus::kUnreadable || status == gg::ui::StoreStatus::kPartlyLoaded)
        {
            gg::ui::app_store_copy_result(app, "gpuguide.v1.unreadable.test", true);
            out.kept_aside = stored;
        }
    }
    gg::ui::app_apply_fragment(app, "#" + fragment);
    app.defer_first_decisions = true;
    run_frame(app, 1280, 800);
    run_frame(app, 1280, 800);
    act(app);
    run_frame(app, 1280, 800);
    // The "GPUs and prices" tab too: a saved record that breaks its list breaks the page just the same once the user
    // opens it. (The guide and the accuracy tab draw the bundled data only, whatever the store and the link hold.)
    for (gg::ui::Tab tab : {gg::ui::Tab::Data, gg::ui::Tab::Calculator}) {
        app.tab = tab;
        app.tab_requested = true;
        run_frame(app, 1280, 800);
        run_frame(app, 1280, 800);
    }
    out.started = true;
    out.fragment = gg::ui::app_fragment(app);
    out.notice = gg::ui::app_notice_json(app);
    out.compare = gg::ui::app_compare_json(app);
    if (app.store_writable && !app.store_blocked) out.stored = gg::ui::app_store_json(app);
    return out;
}
Visit visit(Page& page, const std::string& stored, const std::string& fragment = "") {
    return visit(page, stored, fragment, [](AppState&) {});
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
    Page page;
    const json pins = json::array({json::parse(kPinA), json::parse(kPinB)});
    const std::string saved = saved_state(pins);
    for (const auto& [name, fragment] : issue_links()) {
        CAPTURE(name);
        const Visit first = visit(page, saved, fragment);
        REQUIRE(first.started);
        // A later visit without the link, and one that reopens the page's own URL (the fragment it wrote).
        for (const std::string& later : {std::string(), first.fragment}) {
            CAPTURE(later);
            const Visit second = visit(page, first.stored, later);
            REQUIRE(second.started);
            const Visit third = visit(page, second.stored);
            REQUIRE(third.started);
            CHECK(stored_key(third.stored, "user_data") == stored_key(saved, "user_data"));
            CHECK(stored_key(third.stored, "pins") == pins);  // the link's pins were never kept
        }
    }
}

TEST_CASE("a link's scenario and pins are shown and not saved; Keep saves them, Undo brings the saved ones back") {
    Page page;
    const json pins = json::array({json::parse(kPinA), json::parse(kPinB)});
    const std::string saved = saved_state(pins);
    const json saved_scenario = stored_key(visit(page, saved).stored, "scenario");  // as the page writes it back
    const std::string fragment = part("s", R"({"model":"vit-b-16","batch_size":64,"gpu":{"id":"rtx-4090"}})") + "&" +
                                 part("p", R"([{"model":"gpt2","batch_size":2,"gpu":{"id":"rtx-3090"}}])");
    SUBCASE("shown, and the saved settings keep the user's scenario and pins") {
        const Visit v = visit(page, saved, fragment);
        CHECK(v.notice["link_view"]["pending"] == true);
        CHECK(v.notice["link_view"]["shown_pins"] == 1);
        CHECK(v.notice["link_view"]["saved_pins"] == 2);
        CHECK(v.compare["pins"].size() == 1);  // the link's pin is what the comparison shows
        CHECK(v.compare["current"]["scenario"]["model"] == "vit-b-16");
        CHECK(stored_key(v.stored, "scenario") == saved_scenario);
        CHECK(stored_key(v.stored, "pins") == pins);
        CHECK(v.fragment.find("dml0LWItMTY") != std::string::npos);  // the URL still shows the link ("vit-b-16")
    }
    SUBCASE("Keep saves the link's, Undo saves the user's again") {
        const Visit kept = visit(page, saved, fragment, [](AppState& app) { gg::ui::app_keep_link(app); });
        CHECK(kept.notice["link_view"]["pending"] == false);
        CHECK(kept.notice["link_view"]["undo"] == true);
        CHECK(stored_key(kept.stored, "scenario")["model"] == "vit-b-16");
        CHECK(stored_key(kept.stored, "pins").size() == 1);
        const Visit later = visit(page, kept.stored);
        CHECK(stored_key(later.stored, "pins").size() == 1);
        const Visit undone = visit(page, saved, fragment, [](AppState& app) {
            gg::ui::app_keep_link(app);
            gg::ui::app_undo_keep_link(app);
        });
        CHECK(stored_key(undone.stored, "scenario") == saved_scenario);
        CHECK(stored_key(undone.stored, "pins") == pins);
        CHECK(undone.compare["pins"].size() == 2);
    }
    SUBCASE("Back to my settings shows the saved scenario and pins again") {
        const Visit back = visit(page, saved, fragment, [](AppState& app) { gg::ui::app_discard_link(app); });
        CHECK(back.notice["link_view"]["pending"] == false);
        CHECK(back.compare["pins"].size() == 2);
        CHECK(back.compare["current"]["scenario"]["gpu"]["id"] == "my-lab-card");
        CHECK(back.stored == visit(page, saved).stored);
    }
    SUBCASE("a first visit (nothing saved) shows and saves the link without a question") {
        const Visit first = visit(page, "", fragment);
        CHECK(first.notice["link_view"]["pending"] == false);
        CHECK(stored_key(first.stored, "scenario")["model"] == "vit-b-16");
        CHECK(stored_key(first.stored, "pins").size() == 1);
    }
    SUBCASE("a page reopened from its own URL asks nothing") {
        const Visit own = visit(page, saved);
        const Visit again = visit(page, own.stored, own.fragment);
        CHECK(again.notice["link_view"]["pending"] == false);
        CHECK(again.stored == own.stored);
    }
    SUBCASE("Keep of a scenario on the link's own card saves the card with it, so the next visit has the card") {
        const json own{{"schema_version", 1}, {"gpus", {sender_card()}}, {"offers", json::array()}};
        const std::string on_card = part("s", R"({"model":"gpt2","batch_size":8,"gpu":{"id":"friend-card"}})") + "&" +
                                    part("u", own.dump());
        const Visit kept = visit(page, saved, on_card, [](AppState& app) { gg::ui::app_keep_link(app); });
        const Visit later = visit(page, kept.stored);
        CHECK(later.compare["current"]["scenario"]["gpu"]["id"] == "friend-card");
        CHECK(later.notice["text"].is_null());
        const Visit undone = visit(page, saved, on_card, [](AppState& app) {
            gg::ui::app_keep_link(app);
            gg::ui::app_undo_keep_link(app);
        });
        CHECK(stored_key(undone.stored, "user_data") == stored_key(saved, "user_data"));
    }
}

namespace {
// One random edit of a JSON text: a character removed or doubled, or a token in place of another, so a stored state
// or a link part becomes damaged in the ways a hand, a truncated write or another version leave it.
std::string damage(std::string text, std::mt19937& rng) {
    static const char* kTokens[] = {"null", "0", "-1", "\"\"", "[]", "{}", "true", "\"nope\"", "1e309", "[1,2]"};
    if (text.empty()) return text;
    const std::size_t at = rng() % text.size();
    switch (rng() % 3) {
        case 0: text.erase(at, 1); break;
        case 1: text.insert(at, 1, text[at]); break;
        default: {  // a value after a ':' becomes a token (the JSON stays valid more often than not)
            const std::size_t colon = text.find(':', at);
            if (colon == std::string::npos) break;
            const std::size_t end = text.find_first_of(",}", colon + 1);
            if (end == std::string::npos) break;
            text.replace(colon + 1, end - colon - 1, kTokens[rng() % (sizeof kTokens / sizeof *kTokens)]);
        }
    }
    return text;
}

// The stored states of the property test: scenarios on the user's card, a bundled one, an unknown one, with a value
// this version refuses or without a card; 0 to 3 pins (one on an unknown card, one not a scenario); the user's data
// whole, with a damaged record, or not an object.
std::vector<std::string> stored_states() {
    const json scenarios[] = {
        json::parse(R"({"model":"bert-base","batch_size":16,"gpu":{"id":"my-lab-card"}})"),
        json::parse(R"({"model":"gpt2","batch_size":4,"seq_len":512,"gpu":{"id":"rtx-4090"}})"),
        json::parse(R"({"model":"gpt2","batch_size":4,"gpu":{"id":"gone-card"}})"),
        json::parse(R"({"model":"gpt2","batch_size":0,"gpu":{"id":"rtx-4090"}})"),
        json::parse(R"({"model":"gpt2","batch_size":8})"),
    };
    const json pin_lists[] = {
        json::array(),
        json::array({json::parse(kPinA)}),
        json::array({json::parse(kPinA), json::parse(R"({"model":"gpt2","gpu":{"id":"gone-card"}})")}),
        json::array({json::parse(kPinB), json::parse(R"({"model":"gpt2"})"), json::parse(kPinA)}),
        json::array({json::parse(kPinA), 7}),
    };
    json user = json::parse(saved_state(json::array()))["user_data"];
    json damaged_record = user;
    damaged_record["gpus"].push_back({{"id", "half-card"}, {"name", "Half"}, {"memory_gib", -4}});
    const json users[] = {user, damaged_record, json("not an object")};
    std::vector<std::string> out;
    for (const json& s : scenarios)
        for (const json& p : pin_lists)
            for (const json& u : users) {
                json doc{{"version", 1}, {"scenario", s}, {"user_data", u}};
                if (!p.empty()) doc["pins"] = p;
                out.push_back(doc.dump());
            }
    return out;
}

std::vector<std::string> links(std::mt19937& rng) {
    std::vector<std::string> out;
    for (const auto& named : issue_links()) out.push_back(named.second);
    // Each part of each issue link damaged once (a bad part is refused; the rest of the link still opens).
    for (const auto& named : issue_links()) {
        std::string rebuilt;
        std::string_view rest = named.second;
        while (!rest.empty()) {
            const std::size_t amp = rest.find('&');
            const std::string_view p = rest.substr(0, amp);
            std::string text;
            if (p.size() > 4 && gg::ui::base64url_decode(p.substr(4), text))
                rebuilt += (rebuilt.empty() ? "" : "&") + std::string(p.substr(0, 4)) + gg::ui::base64url_encode(damage(text, rng));
            if (amp == std::string_view::npos) break;
            rest.remove_prefix(amp + 1);
        }
        out.push_back(rebuilt);
    }
    return out;
}
}  // namespace

TEST_CASE("property: for any stored state and any link, every visit starts, and the link changes nothing saved") {
    Page page;
    std::mt19937 rng(39);
    const std::vector<std::string> states = stored_states();
    const std::vector<std::string> fragments = links(rng);
    int asked = 0, combos = 0;
    for (std::size_t i = 0; i < states.size(); ++i) {
        // Each state as stored, and every fourth once damaged: the promises hold for stores the page cannot fully read.
        std::vector<std::string> variants{states[i]};
        if (i % 4 == 0) variants.push_back(damage(states[i], rng));
        for (const std::string& stored : variants) {
            CAPTURE(stored);
            const Visit before = visit(page, stored);  // what the page saves from this state without a link
            REQUIRE(before.started);
            // What the page could not use is kept aside whole, so the user's data in it is never lost.
            if (stored_key(before.stored, "user_data") != stored_key(stored, "user_data") ||
                stored_key(before.stored, "pins") != stored_key(stored, "pins"))
                CHECK(before.kept_aside == stored);
            // One link per state, each link over several states: the visits are the test's cost.
            {
                const std::string& fragment = fragments[i % fragments.size()];
                CAPTURE(fragment);
                ++combos;
                Visit first;
                REQUIRE_NOTHROW(first = visit(page, stored, fragment));
                REQUIRE(first.started);
                Visit later, reopened;
                REQUIRE_NOTHROW(later = visit(page, first.stored));
                REQUIRE_NOTHROW(reopened = visit(page, first.stored, first.fragment));
                REQUIRE(later.started);
                REQUIRE(reopened.started);
                // The user's data is never changed by a link.
                CHECK(stored_key(first.stored, "user_data") == stored_key(before.stored, "user_data"));
                CHECK(stored_key(later.stored, "user_data") == stored_key(before.stored, "user_data"));
                // A link shown and not kept leaves exactly what the page would have saved without it.
                if (first.notice["link_view"]["pending"] == true) {
                    ++asked;
                    CHECK(first.stored == before.stored);
                    CHECK(stored_key(reopened.stored, "pins") == stored_key(before.stored, "pins"));
                } else if (stored_key(before.stored, "pins").is_array()) {
                    // Not asked: the link changed neither the scenario nor the pins (or nothing was saved but the default
                    // example, and then there were no pins).
                    CHECK(stored_key(first.stored, "pins") == stored_key(before.stored, "pins"));
                }
            }
        }
    }
    CHECK(asked > combos / 2);  // most links differ from what is saved: the question is reached
}

TEST_CASE("a throw in the middle of a frame is recovered: the next frame draws, with a notice, and what was held is kept") {
    Page page;
    AppState app;
    gg::ui::app_init(app);
    app.fonts.body = page.warm.fonts.body;
    app.fonts.heading = page.warm.fonts.heading;
    app.fonts.built_for_scale = page.warm.fonts.built_for_scale;
    const json pins = json::array({json::parse(kPinA), json::parse(kPinB)});
    REQUIRE(gg::ui::app_apply_store(app, saved_state(pins)) == gg::ui::StoreStatus::kLoaded);
    run_frame(app, 1280, 800);
    const json user_data = app.user_data;
    // A frame cut short with a window and a table open, as a throw from a panel leaves it.
    auto failing_frame = [&] {
        ImGui::NewFrame();
        ImGui::Begin("##gpuguide");
        REQUIRE(ImGui::BeginTable("##t", 2));
        try {
            throw std::runtime_error("type_error.306: cannot use value() with null");
        } catch (const std::exception& e) {
            gg::ui::app_end_failed_frame();
            return gg::ui::app_recover(app, e.what());
        }
    };
    REQUIRE(failing_frame());
    CHECK(app.notice == Str::PageRecovered);
    CHECK(app.notice_details == std::vector<std::string>{"type_error.306: cannot use value() with null"});
    CHECK(json::parse(app.kept_store_text)["pins"] == pins);  // offered as a file, copied aside by the platform
    CHECK(json::parse(app.kept_store_text)["user_data"] == user_data);
    CHECK(app.user_data == user_data);  // first step: the user's own records stay in use
    CHECK(app.pins.empty());
    const int frames = app.frame_count;
    run_frame(app, 1280, 800);
    CHECK(app.frame_count == frames + 1);
    CHECK(app.results.valid);
    REQUIRE(failing_frame());  // second step: the user's records go aside too
    CHECK(app.user_data.is_null());
    CHECK(json::parse(app.kept_store_text)["pins"] == pins);  // the first copy, the fullest, is still what is offered
    run_frame(app, 1280, 800);
    CHECK_FALSE(failing_frame());  // third: the platform shows its error rather than loop
}
