// The texts of the string table (src/ui/strings_table.h), looked up by id and language.
#include "ui/strings.h"

#include <cassert>

namespace gg::ui {
namespace {
struct Entry {
    const char* en;
    const char* zh;
};
const Entry kEntries[] = {
#define GG_UI_STRING_ENTRY(id, en, zh) {en, zh},
    GG_UI_STRINGS(GG_UI_STRING_ENTRY)
#undef GG_UI_STRING_ENTRY
};
static_assert(sizeof(kEntries) / sizeof(kEntries[0]) == static_cast<int>(Str::Count), "one entry per Str id");
}  // namespace

const char* tr(Str id, Lang lang) {
    const int index = static_cast<int>(id);
    assert(index >= 0 && index < static_cast<int>(Str::Count) && "tr(): id out of range; add it to strings_table.h");
    return lang == Lang::Zh ? kEntries[index].zh : kEntries[index].en;
}

int string_count() { return static_cast<int>(Str::Count); }

const char* string_at(int index, Lang lang) { return tr(static_cast<Str>(index), lang); }

}  // namespace gg::ui
