// Shareable links: encode/decode round trips, and every kind of broken link is recognised, never thrown on.
#include <doctest/doctest.h>

#include "ui/link.h"

TEST_CASE("base64url round-trips any bytes") {
    for (const std::string& s : {std::string(""), std::string("a"), std::string("ab"), std::string("abc"),
                                std::string("{\"model\":\"bert-base\"}"), std::string("\xff\x00\x10中文", 8)}) {
        std::string back;
        REQUIRE(gg::ui::base64url_decode(gg::ui::base64url_encode(s), back));
        CHECK(back == s);
    }
    std::string out;
    CHECK_FALSE(gg::ui::base64url_decode("ab$c", out));
}

TEST_CASE("a scenario survives the link, and broken links say what is wrong") {
    const nlohmann::json scenario = {{"model", "gpt2"}, {"batch_size", 8}, {"gpu", {{"id", "rtx-4090"}}}};
    const std::string fragment = gg::ui::scenario_to_fragment(scenario);
    CHECK(fragment.rfind("s=1.", 0) == 0);
    auto back = gg::ui::scenario_from_fragment("#" + fragment);
    REQUIRE(back.status == gg::ui::LinkStatus::kOk);
    CHECK(nlohmann::json::parse(back.json_text) == scenario);
    CHECK(gg::ui::scenario_from_fragment("#embed=1&" + fragment).status == gg::ui::LinkStatus::kOk);

    using gg::ui::LinkStatus;
    CHECK(gg::ui::scenario_from_fragment("").status == LinkStatus::kNone);
    CHECK(gg::ui::scenario_from_fragment("#embed=1").status == LinkStatus::kNone);
    CHECK(gg::ui::scenario_from_fragment("#s=9.abc").status == LinkStatus::kNewerVersion);
    CHECK(gg::ui::scenario_from_fragment("#s=abc").status == LinkStatus::kUnknownFormat);
    CHECK(gg::ui::scenario_from_fragment("#s=1.@@@").status == LinkStatus::kBadEncoding);
    CHECK(gg::ui::scenario_from_fragment("#s=1." + gg::ui::base64url_encode("{not json")).status == LinkStatus::kBadJson);
    CHECK(gg::ui::scenario_from_fragment("#s=0.e30").status == LinkStatus::kUnknownFormat);
}
