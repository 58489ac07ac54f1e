// Reading users' JSON text with a depth limit, duplicate keys refused and errors located (see json_text.h).
#include "catalog/json_text.h"

#include <cstdio>
#include <set>
#include <vector>

namespace gg::catalog {

using json = nlohmann::json;

namespace {

// 1-based line and column of byte `pos` (0-based) of `text`.
std::string where(std::string_view text, std::size_t pos) {
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

// The key whose value starts before byte `pos` and is still being read there ("batch_size" for
// {"batch_size": 1e400}); empty when the error is not inside a plain value (e.g. a missing comma between keys).
std::string key_before(std::string_view text, std::size_t pos) {
    if (pos > text.size()) pos = text.size();
    std::size_t i = pos;
    while (i > 0) {  // back over the value's own characters: a number, a literal, an unquoted word
        const char c = text[i - 1];
        if (c == ':') break;
        if (c == '{' || c == '[' || c == ',' || c == '}' || c == ']' || c == '"') return "";
        --i;
    }
    if (i == 0) return "";
    --i;  // the ':'
    while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r')) --i;
    if (i == 0 || text[i - 1] != '"') return "";
    const std::size_t end = --i;
    while (i > 0 && !(text[i - 1] == '"' && (i < 2 || text[i - 2] != '\\'))) --i;
    if (i == 0) return "";
    return std::string(text.substr(i, end - i));
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing value -
// invalid literal; last read: 'tru}'" -> "syntax error while parsing value - invalid literal; last read: 'tru}'".
std::string detail_of(const char* what) {
    std::string s = what;
    const std::size_t bracket = s.find("] ");
    if (bracket != std::string::npos) s = s.substr(bracket + 2);
    const std::size_t colon = s.find(": ");
    if (s.rfind("parse error", 0) == 0 && colon != std::string::npos) s = s.substr(colon + 2);
    return s;
}

}  // namespace

std::string json_text_limit_words() {
    return std::to_string(kMaxJsonTextBytes >> 20) + " MiB (" + std::to_string(kMaxJsonTextBytes) + " bytes)";
}

JsonText parse_json_text(std::string_view text) {
    JsonText out;
    out.value = json(json::value_t::discarded);
    if (text.size() > kMaxJsonTextBytes) {
        out.error = "larger than " + json_text_limit_words() + ", the most gpuguide reads (it is " +
                    std::to_string(text.size()) + " bytes); no scenario or data file needs that much";
        return out;
    }
    // Depth first, without recursion (strings may hold brackets and escaped quotes).
    int depth = 0;
    std::size_t commas = 0;
    bool in_string = false, escaped = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == ',' && ++commas >= kMaxJsonValues) {
            out.error = "more than " + std::to_string(kMaxJsonValues) + " values (at " + where(text, i) +
                        "); no scenario or data file has that many";
            return out;
        }
        else if (c == '{' || c == '[') {
            if (++depth > kMaxJsonDepth) {
                out.error = "nested more than " + std::to_string(kMaxJsonDepth) + " levels deep (at " + where(text, i) +
                            "); no scenario or data file needs that many";
                return out;
            }
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }

    // Duplicate keys, seen while parsing: one set of keys per open object.
    std::vector<std::set<std::string>> open_objects;
    std::string duplicate;
    const json::parser_callback_t on_event = [&](int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start: open_objects.emplace_back(); break;
            case json::parse_event_t::object_end:
                if (!open_objects.empty()) open_objects.pop_back();
                break;
            case json::parse_event_t::key:
                if (!open_objects.empty() && parsed.is_string() &&
                    !open_objects.back().insert(parsed.get<std::string>()).second && duplicate.empty())
                    duplicate = parsed.get<std::string>();
                break;
            default: break;
        }
        return true;
    };
    try {
        out.value = json::parse(text.begin(), text.end(), on_event, /*allow_exceptions=*/true);
    } catch (const json::parse_error& e) {
        const std::size_t pos = e.byte > 0 ? e.byte - 1 : 0;
        const std::string key = key_before(text, pos);
        out.error = "not valid JSON at " + where(text, pos) + (key.empty() ? "" : " (in the value of '" + printable(key, 60) + "')") +
                    ": " + printable(detail_of(e.what()), 160);
        out.value = json(json::value_t::discarded);
        return out;
    } catch (const json::exception& e) {
        // out_of_range.406 "number overflow parsing '1e400'": no position; find the literal in the text.
        std::string detail = detail_of(e.what());
        std::string located;
        const std::size_t q1 = detail.find('\''), q2 = detail.rfind('\'');
        if (q1 != std::string::npos && q2 > q1) {
            const std::string literal = detail.substr(q1 + 1, q2 - q1 - 1);
            const std::size_t at = literal.empty() ? std::string_view::npos : text.find(literal);
            if (at != std::string_view::npos) {
                const std::string key = key_before(text, at + literal.size());
                located = " at " + where(text, at) + (key.empty() ? "" : " (in the value of '" + printable(key, 60) + "')");
                detail = "the number " + printable(literal, 40) + " is too large";
            }
        }
        out.error = "not valid JSON" + located + ": " + printable(detail, 160);
        out.value = json(json::value_t::discarded);
        return out;
    }
    if (!duplicate.empty()) {
        out.error = "the key '" + printable(duplicate, 60) + "' appears twice in one object; keep one";
        out.value = json(json::value_t::discarded);
    }
    return out;
}

std::size_t utf8_sequence_bytes(std::string_view s, std::size_t i) {
    // RFC 3629 sec. 4: no overlong forms, no surrogates, at most U+10FFFF.
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    if (n == 0 || i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const unsigned char b = static_cast<unsigned char>(s[i + k]);
        if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
    }
    return n;
}

std::size_t first_invalid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence_bytes(s, i);
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

std::string printable(std::string_view s, std::size_t max_chars) {
    std::string out;
    out.reserve(std::min(s.size(), max_chars) + 8);
    std::size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        char buf[8];
        std::string piece;  // what byte i (and its sequence) becomes
        std::size_t used = 1;
        if (c < 0x80) {
            if (c == '\n') piece = "\\n";
            else if (c == '\t') piece = "\\t";
            else if (c == '\r') piece = "\\r";
            else if (c < 0x20 || c == 0x7F) {
                std::snprintf(buf, sizeof buf, "\\u%04x", c);
                piece = buf;
            } else {
                piece = std::string(1, static_cast<char>(c));
            }
        } else {
            // A whole well-formed UTF-8 sequence is copied; any other byte is written as \xNN, so the text stays
            // valid UTF-8 (nlohmann::json::dump throws on invalid UTF-8, and a parse error quotes the raw bytes).
            const std::size_t n = utf8_sequence_bytes(s, i);
            if (n > 0) {
                piece = std::string(s.substr(i, n));
                used = n;
            } else {
                std::snprintf(buf, sizeof buf, "\\x%02X", c);
                piece = buf;
            }
        }
        if (out.size() + piece.size() > max_chars) return out + "...";  // never inside a character or an escape
        out += piece;
        i += used;
    }
    return out;
}

}  // namespace gg::catalog
