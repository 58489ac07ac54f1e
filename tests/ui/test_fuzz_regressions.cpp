// Regression tests for what the fuzz targets (tests/fuzz, docs/hardening.md) found in the page's readers of outside
// input: saved state (app_apply_store) and links (app_apply_fragment). One test per finding, with the input the
// fuzzer saved (minimised) and the behaviour the fix gives.
#include <doctest/doctest.h>

#include <string>

#include "ui/app.h"

using gg::ui::AppState;
using gg::ui::StoreStatus;

TEST_CASE("fuzz_store: a saved state whose version is not a number is unreadable, not an uncaught exception") {
    // Found by fuzz_store: json::value("version", 0) threw type_error 302 on a non-number version, and an
    // exception escaping app_apply_store aborts the page at start (its saved state is read before anything else).
    const char* inputs[] = {
        R"({"version":{"model":"resnet101","method":"1","method":"ufll"}})",  // the fuzzer's input
        R"({"version":"1","scenario":{"model":"gpt2"}})",
        R"({"version":[1],"scenario":{"model":"gpt2"}})",
        R"({"version":null,"scenario":{"model":"gpt2"}})",
        R"({"version":true,"scenario":{"model":"gpt2"}})",
    };
    for (const char* text : inputs) {
        CAPTURE(text);
        AppState app;
        StoreStatus status = StoreStatus::kLoaded;
        CHECK_NOTHROW(status = gg::ui::app_apply_store(app, text));
        CHECK(status == StoreStatus::kUnreadable);
    }
    // The good forms still load (a version written as 1.0 is the number 1).
    for (const char* text :
         {R"({"version":1,"scenario":{"model":"gpt2"}})", R"({"version":1.0,"scenario":{"model":"gpt2"}})"}) {
        CAPTURE(text);
        AppState app;
        CHECK(gg::ui::app_apply_store(app, text) == StoreStatus::kLoaded);
        CHECK(app.scenario.model_id == "gpt2");
    }
}
