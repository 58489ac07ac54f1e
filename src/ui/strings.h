// The one string table of the page: every visible text goes through tr(). Pure data lookup, no ImGui.
#pragma once

#include <string_view>

#include "ui/strings_table.h"  // generated from data/text/strings/*.json by tools/gen_text.py

namespace gg::ui {

enum class Lang { En, Zh };

const char* tr(Str id, Lang lang);

// What an engine formula id computes (memory: "weights", "nvidia_smi", ...; time: "time.step", ...), in one sentence
// of the reader's language; "" for an id with no sentence (tests/ui/test_strings.cpp checks the engines emit none).
const char* formula_text(std::string_view formula_id, Lang lang);

// Every string of one language, in table order (for the font's glyph ranges and for tests).
int string_count();
const char* string_at(int index, Lang lang);

}  // namespace gg::ui
