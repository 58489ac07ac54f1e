// The glossary (data/text/glossary.json): its entries, which of them a text names, and the tooltip that explains them.
// ImGui only for the tooltip; the lookup is pure and tested (tests/ui/test_strings.cpp).
#pragma once

#include <string_view>
#include <vector>

#include "ui/strings.h"

namespace gg::ui {

struct GlossaryEntry {
    const char* term;    // as the glossary lists it ("ZeRO")
    const char* match;   // the spellings that name it in the page's texts, '|'-separated
    const char* en;
    const char* zh;
    const char* source;  // where the definition comes from
};

int glossary_count();
const GlossaryEntry& glossary_entry(int index);
const char* glossary_text(const GlossaryEntry& entry, Lang lang);

// The entries `text` names (a spelling from `match` as a whole word: no letter or digit right before or after it),
// in the table's order, each once.
std::vector<int> glossary_terms_in(std::string_view text);

// One line per glossary term `text` names ("ZeRO: ... (source)"): glossary_lines inside a tooltip being drawn,
// glossary_tooltip as a tooltip of its own (nothing when `text` names none).
void glossary_lines(std::string_view text, Lang lang);
void glossary_tooltip(std::string_view text, Lang lang);

// The page's language for widgets that are not given it (wrapped_text): the AppState app_frame points ImGui's
// io.UserData at; English without one (tests that draw a widget alone).
Lang glossary_lang();

}  // namespace gg::ui
