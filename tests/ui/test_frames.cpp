// Headless Dear ImGui frames of the whole page: the UI runs without a renderer, in both languages and at
// several pixel densities and display sizes, and its report is valid JSON.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "imgui.h"
#include "imgui_scope.h"
#include "run_frame.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "ui/app.h"
#include "ui/widgets.h"

#include <cfloat>
#include <cstring>

TEST_CASE("the page draws in both languages from a phone to a 4K screen") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (float scale : {1.0f, 2.0f, 3.0f}) {
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            CAPTURE(scale);
            app.dpi_scale = scale;
            app.lang = lang;
            run_frame(app, 360 * scale, 640 * scale);
            run_frame(app, 3840, 2160);
        }
    }
    CHECK(app.frame_count == 12);
}

TEST_CASE("fonts are rebuilt only when the pixel density changes") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    CHECK(gg::ui::app_update_fonts(app));
    CHECK_FALSE(gg::ui::app_update_fonts(app));
    app.dpi_scale = 1.5f;
    CHECK(gg::ui::app_update_fonts(app));
    CHECK(app.fonts.body->FontSize == doctest::Approx(app.body_font_css_px * 1.5f));
    CHECK(app.fonts.heading->FontSize > app.fonts.body->FontSize);
}

TEST_CASE("every character of the string table is in the font") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_update_fonts(app);
    for (int i = 0; i < gg::ui::string_count(); ++i) {
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            const char* text = gg::ui::string_at(i, lang);
            for (const char* p = text; *p;) {
                unsigned int c = 0;
                p += ImTextCharFromUtf8(&c, p, nullptr);
                CAPTURE(text);
                CAPTURE(c);
                CHECK(app.fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
            }
        }
    }
}

TEST_CASE("named widgets record where they were drawn, in CSS pixels, for the browser tests") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (float scale : {1.0f, 2.0f}) {
        CAPTURE(scale);
        app.dpi_scale = scale;
        run_frame(app, 1280 * scale, 2400 * scale);
        run_frame(app, 1280 * scale, 2400 * scale);  // the ranking comes one frame after the first
        for (const char* name : {"lang", "link", "tab-calculator", "tab-guide", "batch", "copy-Markdown", "scaling-1"}) {
            CAPTURE(name);
            REQUIRE(app.anchors.count(name) == 1);
            const gg::ui::AppState::Anchor& a = app.anchors.at(name);
            CHECK(a.frame == app.frame_count - 1);  // drawn in the last frame
            CHECK(a.w > 0);
            CHECK(a.h > 0);
            CHECK(a.x >= 0);
            CHECK(a.x + a.w <= 1280.5f);  // CSS pixels whatever the density
        }
        // The language toggle sits at the top right, right of the link button.
        CHECK(app.anchors.at("lang").x > app.anchors.at("link").x);
        CHECK(app.anchors.at("lang").y < 40);
    }
}

TEST_CASE("the report is the CLI's report of the current scenario, with the scenario") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    const auto report = nlohmann::json::parse(gg::ui::app_report_json(app));
    CHECK(report.at("scenario").at("model").get<std::string>() == "bert-base");
    CHECK(report.at("params").at("total").get<double>() > 1e8);
    CHECK(report.at("memory_bytes").at("nvidia_smi").get<double>() > 0);
    CHECK(report.contains("fits"));
}

TEST_CASE("loading a bad scenario reports problems and changes nothing") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    const std::string before = gg::ui::app_report_json(app);
    CHECK_FALSE(gg::ui::app_load_scenario(app, R"({"model":"no-such-model"})").empty());
    CHECK_FALSE(gg::ui::app_load_scenario(app, "{not json").empty());
    CHECK(gg::ui::app_report_json(app) == before);
    CHECK(gg::ui::app_load_scenario(app, R"({"model":"resnet50","batch_size":32,"gpu":{"id":"rtx-4090"}})").empty());
    CHECK(nlohmann::json::parse(gg::ui::app_report_json(app)).at("scenario").at("model") == "resnet50");
}

TEST_CASE("every tab draws in both languages, wide and narrow") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (gg::ui::Tab t : {gg::ui::Tab::Calculator, gg::ui::Tab::Guide, gg::ui::Tab::Validation, gg::ui::Tab::Data}) {
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            CAPTURE(static_cast<int>(t));
            app.lang = lang;
            app.tab = t;
            app.tab_requested = true;
            run_frame(app, 1280, 800);
            run_frame(app, 1280, 800);  // the tab is selected on the first frame, drawn on the second
            CHECK(app.tab == t);
            run_frame(app, 360, 640);
        }
    }
    CHECK(app.validation_computed);
    CHECK(app.validation_rows.size() > 100);
}

TEST_CASE("switching the language keeps the open tab") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    for (gg::ui::Tab t : {gg::ui::Tab::Guide, gg::ui::Tab::Validation, gg::ui::Tab::Data}) {
        CAPTURE(static_cast<int>(t));
        app.lang = gg::ui::Lang::En;
        app.tab = t;
        app.tab_requested = true;
        run_frame(app, 1280, 800);
        run_frame(app, 1280, 800);
        REQUIRE(app.tab == t);
        for (gg::ui::Lang lang : {gg::ui::Lang::Zh, gg::ui::Lang::En}) {
            app.lang = lang;  // what the header's language button does
            run_frame(app, 1280, 800);
            run_frame(app, 1280, 800);
            CHECK(app.tab == t);
        }
    }
}

TEST_CASE("stateful widgets keep their ImGui ID across languages") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_update_fonts(app);
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(800, 600);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    ImGui::NewFrame();
    ImGui::Begin("ids");
    // What the tree nodes, headers and tabs rely on: only the key after "###" makes the ID.
    CHECK(ImGui::GetID(gg::ui::stable_label("Cost formula", "rent-formula").c_str()) ==
          ImGui::GetID(gg::ui::stable_label("费用公式", "rent-formula").c_str()));
    CHECK(ImGui::GetID(gg::ui::stable_label("Cost formula", "rent-formula").c_str()) !=
          ImGui::GetID(gg::ui::stable_label("Cost formula", "buy-formula").c_str()));
    // The guide's section headers: the same ID in English and Chinese, a different one per section.
    REQUIRE(gg::ui::guide_section_count() >= 10);
    for (int i = 0; i < gg::ui::guide_section_count(); ++i) {
        CAPTURE(i);
        const std::string en = gg::ui::guide_section_label(i, gg::ui::Lang::En);
        const std::string zh = gg::ui::guide_section_label(i, gg::ui::Lang::Zh);
        CHECK(en != zh);
        CHECK(ImGui::GetID(en.c_str()) == ImGui::GetID(zh.c_str()));
        if (i > 0)
            CHECK(ImGui::GetID(en.c_str()) !=
                  ImGui::GetID(gg::ui::guide_section_label(i - 1, gg::ui::Lang::En).c_str()));
    }
    ImGui::End();
    ImGui::EndFrame();
}

TEST_CASE("every 'try it' scenario of the guide loads into the calculator") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::guide_try_count() >= 20);
    for (int i = 0; i < gg::ui::guide_try_count(); ++i) {
        const char* scenario = gg::ui::guide_try_scenario(i);
        CAPTURE(scenario);
        const auto problems = gg::ui::app_load_scenario(app, scenario);
        for (const auto& p : problems) CAPTURE(p.message);
        CHECK(problems.empty());
        if (problems.empty()) {
            gg::ui::app_update_results(app);
            CHECK(app.results.valid);
        }
    }
}

TEST_CASE("wrapped text breaks between Chinese characters and at spaces, never before closing punctuation") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_update_fonts(app);
    const ImFont* font = app.fonts.body;
    const float em = font->FontSize;
    const char* zh = "显卡参数表上往往列着好几个 TFLOPS（每秒万亿次浮点运算）数字，彼此能差十倍以上。";
    const auto lines = gg::ui::wrap_lines(font, em, zh, 10 * em);
    REQUIRE(lines.size() >= 3);
    std::string joined;
    for (const auto& [b, e] : lines) {
        const std::string line(zh + b, zh + e);
        CAPTURE(line);
        CHECK(font->CalcTextSizeA(em, FLT_MAX, 0, line.c_str()).x <= 10 * em + 0.5f);
        CHECK(line.rfind("，", 0) != 0);  // no line starts with a comma
        CHECK(line.rfind("。", 0) != 0);
        joined += line;
    }
    CHECK(joined.size() + 1 >= std::string(zh).size());  // only the space at a break may be dropped
    const char* en = "Plain English words wrap at spaces only";
    for (const auto& [b, e] : gg::ui::wrap_lines(font, em, en, 8 * em)) {
        const std::string line(en + b, en + e);
        CAPTURE(line);
        CHECK(line.front() != ' ');
        CHECK(line.back() != ' ');
        CHECK((e == static_cast<int>(std::strlen(en)) || en[e] == ' '));
    }
    // A number keeps its unit on its line (a UX review saw "6.4 /" and "GiB usable" on two lines of a phone).
    for (const char* text : {"Needs 6.4 GiB of 9.6 GiB usable on this card", "需要 6.4 GiB，可用 9.6 GiB，共 3 张卡"}) {
        for (const float width_em : {6.0f, 7.0f, 8.0f, 9.0f, 10.0f}) {
            for (const auto& [b, e] : gg::ui::wrap_lines(font, em, text, width_em * em)) {
                const std::string line(text + b, text + e);
                CAPTURE(line);
                CHECK_FALSE((line.size() >= 2 && line.back() >= '0' && line.back() <= '9' && text[e] == ' '));
            }
        }
    }
}

TEST_CASE("the network list names every inter-node row of data/interconnects.json, once") {
    std::vector<std::string> want = {""};  // the link's default
    for (const std::string& id : gg::catalog::network_ids()) want.push_back(id);
    CHECK(gg::ui::network_choice_values() == want);
}

TEST_CASE("a job across servers draws in both languages and reports the network it was given") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"llama-2-7b","seq_len":4096,"batch_size":2,
        "precision":"bf16-amp","attention":"flash",
        "gpu":{"id":"h100-sxm","count":96,"strategy":"fsdp","network":"roce-800g"}})").empty());
    for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
        app.lang = lang;
        run_frame(app, 1400, 2400);
    }
    const auto report = nlohmann::json::parse(gg::ui::app_report_json(app));
    CHECK(report.at("scenario").at("gpu").at("network") == "roce-800g");
    CHECK(report.at("time").at("interconnect").get<std::string>().find("roce-800g") != std::string::npos);
    CHECK(gg::ui::app_scenario_json(app).at("gpu").at("network") == "roce-800g");
}

TEST_CASE("on a phone the guide's section titles and 'try it' buttons wrap inside the screen, never past it") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    app.tab = gg::ui::Tab::Guide;
    app.tab_requested = true;
    for (float scale : {1.0f, 2.0f}) {
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            CAPTURE(scale);
            CAPTURE(static_cast<int>(lang));
            app.dpi_scale = scale;
            app.lang = lang;
            run_frame(app, 360 * scale, 4000 * scale);
            run_frame(app, 360 * scale, 4000 * scale);
            REQUIRE(app.tab == gg::ui::Tab::Guide);
            int checked = 0;
            for (const auto& [name, a] : app.anchors) {
                const bool guide_item = name.rfind("guide-section-", 0) == 0 || name.rfind("try-", 0) == 0;
                if (!guide_item || a.frame != app.frame_count - 1) continue;  // drawn in the last frame (open sections)
                CAPTURE(name);
                CHECK(a.x >= 0);
                CHECK(a.x + a.w <= 360.5f);
                ++checked;
            }
            // Every section title, and the first section's (open by default) "try it" buttons.
            CHECK(checked >= gg::ui::guide_section_count() + 3);
        }
    }
}

// Whether the widget with this test anchor was drawn in the frame just run.
bool drawn_last_frame(const gg::ui::AppState& app, const char* name) {
    return app.anchors.count(name) == 1 && app.anchors.at(name).frame == app.frame_count - 1;
}

TEST_CASE("the rent line names only a rental the job fits, with the plan that keeps the global batch") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    app.defer_first_decisions = false;
    // 96 H100s: the job fits as set; an 8-card H100 offer runs the same job (global batch 192) with its own plan
    // (more accumulation), so the line names a rental. Before plans it could not: each card kept its micro-batch.
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"llama-2-7b","seq_len":4096,"batch_size":2,
        "precision":"bf16-amp","attention":"flash","dataset":{"tokens":1e11},
        "gpu":{"id":"h100-sxm","count":96,"strategy":"fsdp","network":"roce-800g"}})").empty());
    for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
        app.lang = lang;
        run_frame(app, 1400, 2400);
        CHECK(drawn_last_frame(app, "rent-line"));
        CHECK_FALSE(drawn_last_frame(app, "offer-too-small"));
    }
    bool planned_rental = false;
    for (const auto& o : app.results.ranking["options"])
        if (o.value("kind", "") == "rent" && o.value("gpu", "") == "h100-sxm" && o.value("fits", false)) {
            CHECK(o["plan"]["global_batch"].get<double>() == 192);
            planned_rental = true;
        }
    CHECK(planned_rental);
    // One RTX 4090: rented one card at a time, the job fits, the line shows it.
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"resnet50","batch_size":64,"precision":"fp16-amp",
        "optimizer":"sgd-momentum","dataset":{"samples":100000,"epochs":1},"gpu":{"id":"rtx-4090","count":1}})").empty());
    run_frame(app, 1400, 2400);
    CHECK(drawn_last_frame(app, "rent-line"));
    CHECK_FALSE(drawn_last_frame(app, "offer-too-small"));
}

TEST_CASE("SD pipelines: the calculator offers 'Latents precomputed' and shows the encoders' share of the step") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    app.defer_first_decisions = false;
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"sd-1.5","batch_size":1,"image_size":512,"precision":"fp16-amp",
        "method":"lora","lora":{"rank":4,"targets":["q","k","v","o"]},"dataset":{"samples":60000,"epochs":1},
        "gpu":{"id":"rtx-4090","count":1}})").empty());
    for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
        app.lang = lang;
        run_frame(app, 1400, 2400);
        CHECK(drawn_last_frame(app, "precomputed-latents"));
        CHECK(drawn_last_frame(app, "encoder-line"));
        CHECK(drawn_last_frame(app, "frozen-weights-16bit"));  // LoRA under fp16 autocast
    }
    // Precomputed: the checkbox stays, the encoders leave the step.
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"sd-1.5","batch_size":1,"image_size":512,"precision":"fp16-amp",
        "method":"lora","precomputed_latents":true,"gpu":{"id":"rtx-4090","count":1}})").empty());
    run_frame(app, 1400, 2400);
    CHECK(drawn_last_frame(app, "precomputed-latents"));
    CHECK_FALSE(drawn_last_frame(app, "encoder-line"));
    CHECK(gg::catalog::scenario_to_json(app.scenario)["precomputed_latents"] == true);
    // Another family: no checkbox, and the key is not written back.
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"resnet50","gpu":{"id":"rtx-4090","count":1}})").empty());
    run_frame(app, 1400, 2400);
    CHECK_FALSE(drawn_last_frame(app, "precomputed-latents"));
    CHECK_FALSE(drawn_last_frame(app, "frozen-weights-16bit"));  // full training: nothing is frozen
    CHECK_FALSE(gg::catalog::scenario_to_json(app.scenario).contains("precomputed_latents"));
}

TEST_CASE("the verdict says how much of the card is usable and why: ECC on, ECC off, the driver's share") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    app.defer_first_decisions = false;
    struct Row {
        const char* gpu;        // the scenario's "gpu" object
        const char* drawn;      // the card-memory line expected
        double card_mib;        // what the verdict compares with (nvidia-smi's total)
    };
    const Row rows[] = {
        {R"({"id":"t4"})", "card-memory-ecc-on", 15360},                  // 15.0 GiB usable of 16.0 GiB
        {R"({"id":"t4","ecc":false})", "card-memory-ecc-off", 16384},     // the user turned ECC off
        {R"({"id":"h100-sxm"})", "card-memory-driver", 81559},            // HBM: no ECC share, the driver's 361 MiB
    };
    for (const Row& r : rows) {
        CAPTURE(r.gpu);
        REQUIRE(gg::ui::app_load_scenario(app, std::string(R"({"model":"bert-base","batch_size":8,"gpu":)") + r.gpu +
                                                   "}").empty());
        for (gg::ui::Lang lang : {gg::ui::Lang::En, gg::ui::Lang::Zh}) {
            app.lang = lang;
            run_frame(app, 1400, 2400);
            CHECK(drawn_last_frame(app, r.drawn));
        }
        CHECK(app.results.estimate.report.card_memory_bytes == r.card_mib * 1048576.0);
    }
    // A card that shows its whole datasheet size (RTX 3090: 24576 MiB, no ECC) gets no such line.
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model":"bert-base","batch_size":8,"gpu":{"id":"rtx-3090"}})").empty());
    run_frame(app, 1400, 2400);
    for (const char* name : {"card-memory-ecc-on", "card-memory-ecc-off", "card-memory-driver"})
        CHECK_FALSE(drawn_last_frame(app, name));
}

TEST_CASE("Start over puts the example back and keeps the pins; Undo brings the inputs back") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    run_frame(app, 1280, 800);
    const nlohmann::json example = gg::ui::app_scenario_json(app);
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model": "llama-3.1-8b", "method": "lora", "gpu": {"id": "rtx-4090"},
                                               "budget": {"amount": 3000, "currency": "CNY"}})").empty());
    run_frame(app, 1280, 800);
    REQUIRE(gg::ui::app_pin_current(app));
    const nlohmann::json mine = gg::ui::app_scenario_json(app);
    REQUIRE(mine != example);
    gg::ui::app_start_over(app);
    run_frame(app, 1280, 800);
    CHECK(gg::ui::app_scenario_json(app) == example);  // the decision keys (the budget) too
    CHECK(app.pins.size() == 1);
    CHECK(app.notice == gg::ui::Str::StartedOver);
    gg::ui::app_undo_start_over(app);
    run_frame(app, 1280, 800);
    CHECK(gg::ui::app_scenario_json(app) == mine);
    CHECK(app.notice == gg::ui::Str::Dismiss);
    CHECK(app.start_over_undo.is_null());
    gg::ui::app_undo_start_over(app);  // a second Undo has nothing to bring back: nothing changes
    CHECK(gg::ui::app_scenario_json(app) == mine);
}

TEST_CASE("Start over's Undo survives a reload (the saved settings keep the inputs from before), until used or dismissed") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    run_frame(app, 1280, 800);
    REQUIRE(gg::ui::app_load_scenario(app, R"({"model": "llama-3.1-8b", "method": "lora", "gpu": {"id": "rtx-4090"}})")
                .empty());
    const nlohmann::json mine = gg::ui::app_scenario_json(app);
    gg::ui::app_start_over(app);
    const std::string saved = gg::ui::app_store_json(app);
    CHECK(nlohmann::json::parse(saved)["scenario_before_start_over"] == mine);

    gg::ui::AppState reloaded;  // the page opened again
    gg::ui::app_init(reloaded);
    REQUIRE(gg::ui::app_apply_store(reloaded, saved) == gg::ui::StoreStatus::kLoaded);
    CHECK(reloaded.notice == gg::ui::Str::StartedOver);  // with its Undo button
    CHECK(gg::ui::app_scenario_json(reloaded) != mine);
    gg::ui::app_undo_start_over(reloaded);
    CHECK(gg::ui::app_scenario_json(reloaded) == mine);
    CHECK_FALSE(nlohmann::json::parse(gg::ui::app_store_json(reloaded)).contains("scenario_before_start_over"));

    // Something else in that place is set aside with a notice, and the rest of the settings load.
    nlohmann::json odd = nlohmann::json::parse(saved);
    odd["scenario_before_start_over"] = 7;
    gg::ui::AppState third;
    gg::ui::app_init(third);
    CHECK(gg::ui::app_apply_store(third, odd.dump()) == gg::ui::StoreStatus::kPartlyLoaded);
    CHECK(third.start_over_undo.is_null());
}

TEST_CASE("Escape closes an open dropdown") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    run_frame(app, 1280, 800);
    // A frame of the page and a dropdown opened beside it (what a click on a combo does), drawn while it is open.
    const auto frame = [&](bool open_it) {
        ImGui::GetIO().DisplaySize = ImVec2(1280, 800);
        ImGui::NewFrame();
        gg::ui::app_frame(app);
        ImGui::Begin("##test window");
        if (open_it) ImGui::OpenPopup("##a dropdown");
        const bool open = ImGui::BeginPopup("##a dropdown");
        if (open) {
            ImGui::TextUnformatted("an item");
            ImGui::EndPopup();
        }
        ImGui::End();
        ImGui::Render();
        return open;
    };
    CHECK(frame(true));
    CHECK(frame(false));  // it stays open
    app.escape_pressed = true;  // the platform latches a press quicker than a frame
    CHECK_FALSE(frame(false));
    CHECK(GImGui->OpenPopupStack.Size == 0);
    CHECK_FALSE(app.escape_pressed);
}

TEST_CASE("a paragraph that names a term of art explains it in a tooltip when hovered") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    run_frame(app, 1280, 800);
    ImGuiIO& io = ImGui::GetIO();
    io.UserData = &app;
    ImVec2 at;
    const auto frame = [&](ImVec2 mouse, const char* text) {
        io.MousePos = mouse;
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(600, 400));
        ImGui::Begin("##glossary test");
        at = ImGui::GetCursorScreenPos();
        gg::ui::wrapped_text(text);
        ImGui::End();
        ImGui::Render();
        for (ImGuiWindow* w : GImGui->Windows)
            if ((w->Flags & ImGuiWindowFlags_Tooltip) && w->Active) return true;
        return false;
    };
    frame(ImVec2(-1, -1), "Train it with LoRA on one card.");
    const ImVec2 on_text(at.x + 5, at.y + 5);
    CHECK(frame(on_text, "Train it with LoRA on one card."));
    CHECK_FALSE(frame(on_text, "Train it on one card."));           // no term: no tooltip
    CHECK_FALSE(frame(ImVec2(at.x + 5, at.y + 300), "Train it with LoRA on one card."));  // not hovered
}
