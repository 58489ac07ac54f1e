// The one string table of the page: every visible text goes through tr(). Pure data lookup, no ImGui.
#pragma once

#include "ui/strings_table.h"

namespace gg::ui {

enum class Lang { En, Zh };

const char* tr(Str id, Lang lang);

// Every string of one language, in table order (for the font's glyph ranges and for tests).
int string_count();
const char* string_at(int index, Lang lang);

}  // namespace gg::ui
