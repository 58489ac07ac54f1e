// The string table: complete in both languages, with the same printf arguments in each.
#include <doctest/doctest.h>

#include <string>

#include "ui/strings.h"

namespace {
// The printf conversions of a format string, in order ("%d%s" for "... %d ... %s ..."); "%%" is not one.
std::string conversions(const char* text) {
    std::string out;
    for (const char* p = text; *p; ++p) {
        if (*p != '%') continue;
        ++p;
        if (*p == '%') continue;
        while (*p && std::string("-+#0123456789.").find(*p) != std::string::npos) ++p;
        // Only real conversions count: "20% of" in plain text (shown through "%s") is not one.
        if (*p && std::string("dioufFeEgGxXsc").find(*p) != std::string::npos) out += std::string("%") + *p;
        if (!*p) break;
    }
    return out;
}

bool has_cjk(const char* utf8) {
    // U+4E00..U+9FFF are three bytes starting 0xE4..0xE9.
    for (const unsigned char* p = reinterpret_cast<const unsigned char*>(utf8); *p; ++p)
        if (*p >= 0xE4 && *p <= 0xE9) return true;
    return false;
}
}  // namespace

TEST_CASE("every string exists in English and Chinese with the same printf conversions") {
    using namespace gg::ui;
    REQUIRE(string_count() > 10);
    for (int i = 0; i < string_count(); ++i) {
        const char* en = string_at(i, Lang::En);
        const char* zh = string_at(i, Lang::Zh);
        CAPTURE(i);
        CAPTURE(en);
        REQUIRE(en != nullptr);
        REQUIRE(zh != nullptr);
        CHECK(std::string(en).size() > 0);
        CHECK(std::string(zh).size() > 0);
        CHECK(conversions(en) == conversions(zh));
    }
}

TEST_CASE("the Chinese table is actually Chinese where the English is a sentence") {
    using namespace gg::ui;
    for (int i = 0; i < string_count(); ++i) {
        const std::string en = string_at(i, Lang::En);
        if (en.find(' ') == std::string::npos) continue;  // names and single words may stay as they are
        CAPTURE(en);
        CHECK(has_cjk(string_at(i, Lang::Zh)));
    }
}

TEST_CASE("conversions() reads printf formats the way the table uses them") {
    CHECK(conversions("%d GPUs, %.1f GiB, 100%%") == "%d%f");
    CHECK(conversions("keep 20% free") == "");
    CHECK(conversions("plain") == "");
}
