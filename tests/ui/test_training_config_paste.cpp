// The page's "Paste your training config" box (src/ui/training_config_paste.cpp): the Paste button's clipboard text
// goes into that box, not the config.json box; the browser test tests/browser/training_config.test.mjs pastes the
// upstream example files and checks the calculator.
#include <doctest/doctest.h>

#include <string>

#include "imgui_scope.h"
#include "ui/app.h"

using gg::ui::AppState;

TEST_CASE("the training-config box's Paste fills that box only; the config.json box's Paste fills its own") {
    ImGuiContextScope scope;
    AppState app;
    gg::ui::app_init(app);
    app.paste_into_training_config = true;
    gg::ui::app_paste_result(app, true, "base_model: NousResearch/Meta-Llama-3-8B\r\nadapter: qlora\n");
    CHECK(std::string(app.training_config_text.data()) == "base_model: NousResearch/Meta-Llama-3-8B\nadapter: qlora\n");
    CHECK_FALSE(app.paste_into_training_config);  // the next Paste is the config.json box's unless asked again
    CHECK((app.hf_config_text.empty() || app.hf_config_text[0] == '\0'));
    gg::ui::app_paste_result(app, true, "{\"model_type\": \"llama\"}");
    CHECK(std::string(app.hf_config_text.data()) == "{\"model_type\": \"llama\"}");
    CHECK(std::string(app.training_config_text.data()) == "base_model: NousResearch/Meta-Llama-3-8B\nadapter: qlora\n");
    // A refused read leaves the box as it was and clears the target too.
    app.paste_into_training_config = true;
    gg::ui::app_paste_result(app, false, "");
    CHECK(app.paste_refused);
    CHECK_FALSE(app.paste_into_training_config);
    CHECK(std::string(app.training_config_text.data()) == "base_model: NousResearch/Meta-Llama-3-8B\nadapter: qlora\n");
}
