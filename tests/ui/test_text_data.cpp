// The Guide's text, as tools/gen_text.py compiles it from data/text/guide/*.json and data/text/glossary.json:
// every section and paragraph in both languages, every "try it" example a scenario the catalog accepts as it is,
// and every character of it in the page's font (the string table's own checks are in test_strings.cpp and
// test_frames.cpp).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/gan_scenario.h"
#include "imgui.h"
#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "imgui_scope.h"
#include "ui/app.h"
#include "ui/glossary.h"
#include "ui/guide_content.h"

namespace {

struct Text {
    std::string section, en, zh, scenario;
};

std::vector<Text> sections() {
    std::vector<Text> out;
#define GG_TEST_SECTION(id, title_en, title_zh) out.push_back({#id, title_en, title_zh, ""});
    GG_GUIDE_SECTIONS(GG_TEST_SECTION)
#undef GG_TEST_SECTION
    return out;
}

std::vector<Text> paragraphs() {
    std::vector<Text> out;
#define GG_TEST_PARAGRAPH(id, text_en, text_zh) out.push_back({#id, text_en, text_zh, ""});
    GG_GUIDE_PARAGRAPHS(GG_TEST_PARAGRAPH)
#undef GG_TEST_PARAGRAPH
    return out;
}

std::vector<Text> examples() {
    std::vector<Text> out;
#define GG_TEST_TRY(id, label_en, label_zh, json) out.push_back({#id, label_en, label_zh, json});
    GG_GUIDE_TRY(GG_TEST_TRY)
#undef GG_TEST_TRY
    return out;
}

bool has_cjk(const std::string& utf8) {
    for (unsigned char c : utf8)
        if (c >= 0xE4 && c <= 0xE9) return true;  // U+4E00..U+9FFF start with these bytes
    return false;
}

}  // namespace

TEST_CASE("every guide section, paragraph and example label has its English and Chinese text") {
    const std::vector<Text> titles = sections();
    REQUIRE(titles.size() >= 10);
    std::set<std::string> ids;
    for (const Text& s : titles) ids.insert(s.section);
    CHECK(ids.size() == titles.size());  // a section once
    std::vector<Text> all = titles;
    for (const std::vector<Text>& more : {paragraphs(), examples()}) all.insert(all.end(), more.begin(), more.end());
    for (const Text& t : all) {
        CAPTURE(t.section);
        CAPTURE(t.en);
        CHECK(ids.count(t.section) == 1);  // the section it belongs to is shown
        CHECK(t.en.size() > 3);
        CHECK_FALSE(has_cjk(t.en));
        CHECK(has_cjk(t.zh));
        CHECK((t.en.rfind("- ", 0) == 0) == (t.zh.rfind("- ", 0) == 0));  // a bullet in both languages or neither
    }
    std::set<std::string> with_text;
    for (const Text& p : paragraphs()) with_text.insert(p.section);
    CHECK(with_text == ids);  // no section without a paragraph
}

TEST_CASE("every guide example is a valid scenario the calculator takes as it is") {
    const std::vector<Text> tries = examples();
    REQUIRE(tries.size() >= 40);
    const gg::catalog::Catalog& catalog = gg::catalog::embedded_catalog();
    for (const Text& t : tries) {
        CAPTURE(t.en);
        CAPTURE(t.scenario);
        const nlohmann::json doc = nlohmann::json::parse(t.scenario, nullptr, false);
        REQUIRE(doc.is_object());
        if (gg::catalog::is_gan_scenario(doc)) {
            const gg::catalog::ParsedGanScenario g = gg::catalog::parse_gan_scenario_json(doc, catalog);
            for (const auto& p : g.problems) CAPTURE(p.pointer + ": " + p.message);
            CHECK(g.problems.empty());
            continue;
        }
        const gg::catalog::ParsedDecision d = gg::catalog::parse_decision_scenario(t.scenario, catalog, "guide");
        for (const auto& p : d.problems) CAPTURE(p.pointer + ": " + p.message);
        CHECK(d.problems.empty());
        CHECK(doc.contains("gpu"));  // each example names the card it is about
    }
}

TEST_CASE("every character of the guide and the glossary is in the page's font") {
    ImGuiContextScope scope;
    gg::ui::AppState app;
    gg::ui::app_init(app);
    gg::ui::app_update_fonts(app);
    std::vector<std::string> texts;
    for (const std::vector<Text>& part : {sections(), paragraphs(), examples()})
        for (const Text& t : part) texts.insert(texts.end(), {t.en, t.zh});
    for (int i = 0; i < gg::ui::glossary_count(); ++i) {
        const gg::ui::GlossaryEntry& e = gg::ui::glossary_entry(i);
        texts.insert(texts.end(), {e.term, e.en, e.zh, e.source});
    }
    int checked = 0;
    for (const std::string& text : texts) {
        for (const char* p = text.c_str(); *p;) {
            unsigned int c = 0;
            p += ImTextCharFromUtf8(&c, p, nullptr);
            if (c == '\n') continue;
            CAPTURE(text);
            CAPTURE(c);
            CHECK(app.fonts.body->FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr);
            ++checked;
        }
    }
    CHECK(checked > 50000);
}
