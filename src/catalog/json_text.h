// Reading JSON text that users hand us: scenario files and standard input (CLI), links, imported files and the
// browser's stored state (page). Three things nlohmann::json::parse does not do for us:
//   - a depth limit: a document nested thousands of levels deep parses, but copying, dumping or reading it recurses
//     once per level and overflows the stack (in the browser the page stops with "Maximum call stack size
//     exceeded"); no scenario or data file needs more than a few levels;
//   - duplicate keys: nlohmann::json keeps the last one silently, so {"model": "a", "model": "b"} would mean "b";
//   - where a syntax error is: the line and column, and the key whose value could not be read.
// No UI code here.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gg::catalog {

// Larger than this is refused before anything else is done with it: the biggest file we read is data/gpus.json
// (~100 KB) and a user's own data of a few hundred records is a few hundred KB, while a 50 MB document took the page
// seconds to parse and then aborted it (issue 30). Readers that can take text from outside (the CLI's files and
// standard input, the page's file picker and window.gpuguide.load) stop reading at this size too.
constexpr std::size_t kMaxJsonTextBytes = 4u << 20;  // 4 MiB
// The same limit as words for messages ("4 MiB (4,194,304 bytes)").
std::string json_text_limit_words();

// More values than this (counted as the commas between them, before parsing) are refused too: within 4 MiB a
// document of 200,000 keys took the page 12 s to read and list (issue 30). The largest file we read,
// tests/validation/published_time.json, has about 21,000 values; data/gpus.json about 2,100.
constexpr std::size_t kMaxJsonValues = 100000;

// Deeper than this is refused before parsing. The deepest document we read is the browser's stored state
// ({"scenario": {"model": {"resnet": {"depths": [...]}}}}, 5 levels) or a user-data file (4).
constexpr int kMaxJsonDepth = 32;

struct JsonText {
    nlohmann::json value;  // discarded (value.is_discarded()) when `error` is set
    std::string error;     // empty when the text is a JSON document within the limits; else a sentence for the user
};

JsonText parse_json_text(std::string_view text);

// A message or a user's string, fit to be shown: control characters escaped (\n, \u0000...) and cut to at most
// `max_chars` bytes with "..." (never inside a UTF-8 sequence). Echoed input stays readable however long it was.
std::string printable(std::string_view s, std::size_t max_chars = 200);

// The bytes of the well-formed UTF-8 sequence at s[i] (RFC 3629: no overlong forms, no surrogates, at most U+10FFFF),
// 1 for ASCII, 0 where the byte starts no such sequence.
std::size_t utf8_sequence_bytes(std::string_view s, std::size_t i);
// The offset of the first byte that is not part of well-formed UTF-8, or npos when the text is all UTF-8.
std::size_t first_invalid_utf8(std::string_view s);

}  // namespace gg::catalog
