// Users' JSON text: a depth limit before parsing, duplicate keys refused, syntax errors located (catalog/json_text.h).
#include <doctest/doctest.h>

#include <string>

#include "catalog/catalog.h"
#include "catalog/decision_json.h"
#include "catalog/json_text.h"

using gg::catalog::parse_json_text;

TEST_CASE("json text: nesting deeper than the limit is refused before parsing, at any depth") {
    // Found by an input review: depth 100,000 crashed the CLI (stack overflow copying the document), 5,000 hung the
    // page. Brackets inside strings do not count.
    std::string ok = R"({"a":"[[[[{{{{\"]]]]","b":)";
    for (int i = 1; i < gg::catalog::kMaxJsonDepth; ++i) ok += "[";
    ok += std::string(gg::catalog::kMaxJsonDepth - 1, ']') + "}";
    CHECK(parse_json_text(ok).error.empty());
    for (int depth : {gg::catalog::kMaxJsonDepth + 1, 5000, 200000}) {
        CAPTURE(depth);
        const std::string deep = std::string(std::size_t(depth), '[') + std::string(std::size_t(depth), ']');
        const auto r = parse_json_text(deep);
        CHECK(r.value.is_discarded());
        CHECK(r.error.find("nested more than") != std::string::npos);
    }
}

TEST_CASE("json text: text over the size limit is refused before it is scanned, naming the limit") {
    // Issue 30: a 50 MB document aborted the page; a 200 MB one took the CLI 39 s and 5.6 GB.
    const std::string at_limit = "[" + std::string(gg::catalog::kMaxJsonTextBytes - 2, ' ') + "]";
    CHECK(parse_json_text(at_limit).error.empty());
    const gg::catalog::JsonText over = parse_json_text(at_limit + " ");
    CHECK(over.value.is_discarded());
    CHECK(over.error.find("larger than 4 MiB (4194304 bytes)") != std::string::npos);
    const auto parsed = gg::catalog::parse_scenario(at_limit + " ");
    REQUIRE(parsed.problems.size() == 1);
    CHECK(parsed.problems[0].message.find("4 MiB") != std::string::npos);
}

TEST_CASE("json text: more values than the limit are refused before parsing; commas in strings do not count") {
    // Issue 30: 200,000 keys (2.8 MB, under the size limit) took the page 12 s.
    std::string many = "{";
    for (std::size_t i = 0; i <= gg::catalog::kMaxJsonValues; ++i) many += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
    many += "}";
    const gg::catalog::JsonText over = parse_json_text(many);
    CHECK(over.error.find("more than 100000 values") != std::string::npos);
    const std::string commas_in_a_string = "[\"" + std::string(gg::catalog::kMaxJsonValues + 10, ',') + "\"]";
    CHECK(parse_json_text(commas_in_a_string).error.empty());
}

TEST_CASE("json text: a key twice in one object is refused (nlohmann would keep the last silently)") {
    const auto r = parse_json_text(R"({"model":"gpt2","model":"resnet50"})");
    CHECK(r.value.is_discarded());
    CHECK(r.error == "the key 'model' appears twice in one object; keep one");
    CHECK(parse_json_text(R"({"a":{"x":1},"b":{"x":2}})").error.empty());  // the same key in two objects is fine
}

TEST_CASE("json text: syntax errors and overflowing numbers say where, and in which key's value") {
    auto r = parse_json_text("{\"model\":\"gpt2\",\n \"batch_size\": 1e400}");
    CHECK(r.error == "not valid JSON at line 2, column 16 (in the value of 'batch_size'): the number 1e400 is too large");
    r = parse_json_text(R"({"model":"gpt2", "batch_size": tru})");
    CHECK(r.error.rfind("not valid JSON at line 1, column ", 0) == 0);
    CHECK(r.error.find("(in the value of 'batch_size')") != std::string::npos);
    r = parse_json_text(R"({"model":"gpt2" "batch_size": 1})");  // a missing comma: the column ends the token read
    CHECK(r.error == "not valid JSON at line 1, column 28: syntax error while parsing object - unexpected string literal; "
                     "expected '}'");
    CHECK(parse_json_text("").error.rfind("not valid JSON at line 1, column 1", 0) == 0);
}

TEST_CASE("json text: the scenario readers use it (CLI and page)") {
    const auto d = gg::catalog::parse_decision_scenario(R"({"model":"gpt2","model":"gpt2-medium"})",
                                                        gg::catalog::embedded_catalog(), "-");
    REQUIRE(d.problems.size() == 1);
    CHECK(d.problems[0].message.find("appears twice") != std::string::npos);
}

TEST_CASE("printable: control characters escaped, long text cut on a character boundary") {
    using gg::catalog::printable;
    CHECK(printable(std::string("gpt2\0zz\n", 8)) == "gpt2\\u0000zz\\n");
    CHECK(printable(std::string(5000000, 'x'), 10) == "xxxxxxxxxx...");
    const std::string zh = "中文中文";  // 3 bytes each
    CHECK(printable(zh, 4) == "中...");
    CHECK(printable("short") == "short");
    // Invalid UTF-8 is escaped, so a message quoting it can be written as JSON (fuzz_catalog, fuzz_user_data and
    // fuzz_scenario found parse errors quoting raw bytes: nlohmann::json::dump threw type_error.316).
    CHECK(printable("a\xFF\xC3(b") == "a\\xFF\\xC3(b");
    CHECK(printable("\xED\xA0\x80") == "\\xED\\xA0\\x80");  // a UTF-16 surrogate, not UTF-8
    CHECK(printable("\xF0\x9F\x98\x80") == "\xF0\x9F\x98\x80");  // U+1F600 stays
    const auto r = parse_json_text("{\"model\": \"gpt2\", \"x\": \xFF\xFE}");
    REQUIRE_FALSE(r.error.empty());
    CHECK_NOTHROW((void)nlohmann::json(r.error).dump());
}
