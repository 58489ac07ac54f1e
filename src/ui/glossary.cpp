// The glossary's lookup and its tooltip (glossary.h); the entries are in data/text/glossary.json (ui/glossary_table.h).
#include "ui/glossary.h"

#include <cassert>

#include "imgui.h"
#include "ui/app.h"
#include "ui/glossary_table.h"
#include "ui/widgets.h"

namespace gg::ui {
namespace {

const GlossaryEntry kGlossary[] = {
#define GG_GLOSSARY_ENTRY(id, term, match, en, zh, source) {term, match, en, zh, source},
    GG_GLOSSARY(GG_GLOSSARY_ENTRY)
#undef GG_GLOSSARY_ENTRY
};
constexpr int kCount = static_cast<int>(sizeof(kGlossary) / sizeof(kGlossary[0]));

bool word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Whether `text` holds `word` with no letter or digit right before or after it (Chinese spellings have none: their
// bytes are all above 0x7f).
bool names(std::string_view text, std::string_view word) {
    if (word.empty()) return false;
    for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        const bool before = at > 0 && word_char(text[at - 1]) && word_char(word.front());
        const std::size_t end = at + word.size();
        const bool after = end < text.size() && word_char(text[end]) && word_char(word.back());
        if (!before && !after) return true;
    }
    return false;
}

}  // namespace

int glossary_count() { return kCount; }

const GlossaryEntry& glossary_entry(int index) {
    assert(index >= 0 && index < kCount && "glossary_entry: index out of range (glossary_count())");
    return kGlossary[index];
}

const char* glossary_text(const GlossaryEntry& entry, Lang lang) { return lang == Lang::Zh ? entry.zh : entry.en; }

std::vector<int> glossary_terms_in(std::string_view text) {
    std::vector<int> out;
    for (int i = 0; i < kCount; ++i) {
        std::string_view match = kGlossary[i].match;
        for (std::size_t start = 0; start <= match.size();) {
            const std::size_t bar = match.find('|', start);
            const std::string_view word = match.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
            if (names(text, word)) {
                out.push_back(i);
                break;
            }
            if (bar == std::string_view::npos) break;
            start = bar + 1;
        }
    }
    return out;
}

void glossary_lines(std::string_view text, Lang lang) {
    for (int i : glossary_terms_in(text)) {
        const GlossaryEntry& e = kGlossary[i];
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
        wrapped_textf("%s: %s (%s)", e.term, glossary_text(e, lang), e.source);
        ImGui::PopStyleColor();
    }
}

void glossary_tooltip(std::string_view text, Lang lang) {
    if (glossary_terms_in(text).empty()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap(26.0f));
    glossary_lines(text, lang);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

Lang glossary_lang() {
    // app_frame points ImGui's user data at the AppState it draws (the single source of truth: nothing mirrored).
    const void* app = ImGui::GetCurrentContext() ? ImGui::GetIO().UserData : nullptr;
    return app ? static_cast<const AppState*>(app)->lang : Lang::En;
}

}  // namespace gg::ui
