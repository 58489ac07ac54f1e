// Scenario <-> shareable link fragment: "#s=1.<base64url of the compact scenario JSON>" (and "&u=1...." when it
// needs the user's own card, see user_data_to_fragment). Versioned so old links
// keep working (or are refused with a notice); pure functions, no platform code (the platform reads and writes
// location.hash).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gg::ui {

constexpr int kLinkVersion = 1;

std::string base64url_encode(std::string_view bytes);
bool base64url_decode(std::string_view text, std::string& out);  // false on a character outside the alphabet

// "s=1.eyJtb2RlbCI6..." (without the leading '#').
std::string scenario_to_fragment(const nlohmann::json& scenario);

// A fragment longer than this is not read (kTooLarge): a link carries a scenario and at most a few of the user's own
// records, a few KB; browsers accept URLs of megabytes.
constexpr std::size_t kMaxFragmentChars = 64 * 1024;

enum class LinkStatus { kNone, kOk, kBadEncoding, kBadJson, kNewerVersion, kUnknownFormat, kTooLarge };
struct LinkScenario {
    LinkStatus status = LinkStatus::kNone;
    std::string json_text;  // the scenario JSON when status is kOk
};
// Reads a fragment ("#s=..." or "s=..."; other fragments and "embed=1" parts are ignored: kNone).
LinkScenario scenario_from_fragment(std::string_view fragment);

// The user's own records a scenario needs (its card when it is the user's, and the user's offers for that card),
// as a second part "u=1.<base64url of {"schema_version": 1, "gpus": [...], "offers": [...]}>", so a link to a
// scenario on one's own card works for someone else. Read like the scenario part (json_text = the user data).
std::string user_data_to_fragment(const nlohmann::json& user_data);
LinkScenario user_data_from_fragment(std::string_view fragment);

// The pinned scenarios (issue 33) as a third part "p=1.<base64url of [scenario, ...]>"; read like the others
// (json_text = the array).
std::string pins_to_fragment(const nlohmann::json& scenarios);
LinkScenario pins_from_fragment(std::string_view fragment);

}  // namespace gg::ui
