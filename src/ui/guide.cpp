// The Guide tab: the selection guide (data/text/guide/*.json) as readable sections, each with "try it"
// buttons that load a scenario into the calculator.
#include <string>

#include "ui/app.h"
#include "ui/glossary.h"
#include "ui/guide_content.h"
#include "ui/widgets.h"

namespace gg::ui {

namespace {
enum class Section {
#define GG_GUIDE_SECTION_ENUM(id, en, zh) id,
    GG_GUIDE_SECTIONS(GG_GUIDE_SECTION_ENUM)
#undef GG_GUIDE_SECTION_ENUM
};
struct SectionText { Section id; const char* en; const char* zh; };
struct Paragraph { Section section; const char* en; const char* zh; };
struct TryIt { Section section; const char* en; const char* zh; const char* scenario; };

const SectionText kSections[] = {
#define GG_GUIDE_SECTION_ROW(id, en, zh) {Section::id, en, zh},
    GG_GUIDE_SECTIONS(GG_GUIDE_SECTION_ROW)
#undef GG_GUIDE_SECTION_ROW
};
const Paragraph kParagraphs[] = {
#define GG_GUIDE_PARAGRAPH_ROW(id, en, zh) {Section::id, en, zh},
    GG_GUIDE_PARAGRAPHS(GG_GUIDE_PARAGRAPH_ROW)
#undef GG_GUIDE_PARAGRAPH_ROW
};
const TryIt kTries[] = {
#define GG_GUIDE_TRY_ROW(id, en, zh, json) {Section::id, en, zh, json},
    GG_GUIDE_TRY(GG_GUIDE_TRY_ROW)
#undef GG_GUIDE_TRY_ROW
};
}  // namespace

int guide_try_count() { return static_cast<int>(sizeof(kTries) / sizeof(kTries[0])); }
int guide_section_count() { return static_cast<int>(sizeof(kSections) / sizeof(kSections[0])); }
std::string guide_section_label(int index, Lang lang) {
    const SectionText& s = kSections[index];
    return stable_label(lang == Lang::Zh ? s.zh : s.en, ("guide-section-" + std::to_string(index)).c_str());
}
const char* guide_try_scenario(int index) { return kTries[index].scenario; }

void draw_guide(AppState& app) {
    const float em = ImGui::GetFontSize();
    const bool zh = app.lang == Lang::Zh;
    const float avail = ImGui::GetContentRegionAvail().x;
    const float width = avail < 46 * em ? avail : 46 * em;
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    hint_text(tr(Str::GuideIntro, app.lang));
    for (int q = 0; q < 5; ++q) {
        static const Str kQuestions[] = {Str::QuestionFit, Str::QuestionWhich, Str::QuestionTime, Str::QuestionCost,
                                         Str::QuestionChange};
        ImGui::Bullet();
        wrapped_text(tr(kQuestions[q], app.lang));
    }
    ImGui::Dummy(ImVec2(0, 0.4f * em));
    int try_index = 0;
    for (const SectionText& section : kSections) {
        const std::string title = guide_section_label(static_cast<int>(section.id), app.lang);
        const bool open = wrapped_collapsing_header(title.c_str(), section.id == Section::Architecture);
        test_anchor(app, "guide-section-" + std::to_string(static_cast<int>(section.id)));
        if (!open) continue;
        ImGui::Indent(0.5f * em);
        for (const Paragraph& p : kParagraphs) {
            if (p.section != section.id) continue;
            const char* text = zh ? p.zh : p.en;
            if (text[0] == '-' && text[1] == ' ') {
                ImGui::Bullet();
                wrapped_text(text + 2);
            } else {
                wrapped_text(text);
                ImGui::Dummy(ImVec2(0, 0.25f * em));
            }
        }
        bool first = true;
        for (const TryIt& t : kTries) {
            if (t.section != section.id) continue;
            if (first) ImGui::TextDisabled("%s", tr(Str::TryIt, app.lang));
            first = false;
            const std::string key = "try-" + std::to_string(try_index++);
            const std::string label = std::string(zh ? t.zh : t.en) + "##" + key;
            const bool pressed = wrapped_button(label.c_str());
            test_anchor(app, key);
            if (pressed) {
                if (app_load_scenario(app, t.scenario).empty()) {
                    app.tab = Tab::Calculator;
                    app.tab_requested = true;
                    app.narrow_show_answer = true;  // "try it" shows what the example answers
                }
            }
        }
        ImGui::Unindent(0.5f * em);
        ImGui::Dummy(ImVec2(0, 0.4f * em));
    }
    // The glossary (data/text/glossary.json): every term of art the page uses, with its source; the same lines show when a
    // text that names one is hovered.
    const bool glossary_open = wrapped_collapsing_header(stable_label(tr(Str::GlossaryTitle, app.lang), "glossary").c_str(), false);
    test_anchor(app, "guide-glossary");
    if (glossary_open) {
        ImGui::Indent(0.5f * em);
        for (int i = 0; i < glossary_count(); ++i) {
            const GlossaryEntry& e = glossary_entry(i);
            ImGui::Bullet();
            wrapped_textf("%s: %s", e.term, glossary_text(e, app.lang));
            ImGui::Indent();
            hint_text(e.source);
            ImGui::Unindent();
        }
        ImGui::Unindent(0.5f * em);
    }
    ImGui::PopTextWrapPos();
}

}  // namespace gg::ui
