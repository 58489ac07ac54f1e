// Shareable links: the scenario travels in the URL fragment, base64url-encoded JSON (RFC 4648 sec. 5, no padding).
#include "ui/link.h"

#include <cstdint>

#include "catalog/json_text.h"

namespace gg::ui {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int decode_char(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '-' || c == '+') return 62;  // '+' and '/' too: links pasted from other tools
    if (c == '_' || c == '/') return 63;
    return -1;
}
}  // namespace

std::string base64url_encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (unsigned char c : bytes) {
        acc = (acc << 8) | c;
        bits += 8;
        while (bits >= 6) {
            bits -= 6;
            out += kAlphabet[(acc >> bits) & 63];
        }
    }
    if (bits > 0) out += kAlphabet[(acc << (6 - bits)) & 63];
    return out;
}

bool base64url_decode(std::string_view text, std::string& out) {
    out.clear();
    std::uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        if (c == '=') break;
        const int v = decode_char(c);
        if (v < 0) return false;
        acc = (acc << 6) | static_cast<std::uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out += static_cast<char>((acc >> bits) & 0xFF);
        }
    }
    return true;
}

std::string scenario_to_fragment(const nlohmann::json& scenario) {
    return "s=" + std::to_string(kLinkVersion) + "." + base64url_encode(scenario.dump());
}

std::string pins_to_fragment(const nlohmann::json& scenarios) {
    return "p=" + std::to_string(kLinkVersion) + "." + base64url_encode(scenarios.dump());
}

std::string user_data_to_fragment(const nlohmann::json& user_data) {
    return "u=" + std::to_string(kLinkVersion) + "." + base64url_encode(user_data.dump());
}

namespace {
// The part "KEY=VERSION.BASE64URL" of a fragment of '&'-separated parts, decoded to its JSON text.
LinkScenario read_part(std::string_view fragment, std::string_view key) {
    LinkScenario result;
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    if (fragment.size() > kMaxFragmentChars) {  // before anything is decoded or parsed
        const bool has_part = fragment.substr(0, key.size() + 1) == std::string(key) + "=" ||
                              fragment.find("&" + std::string(key) + "=") != std::string_view::npos;
        if (has_part) result.status = LinkStatus::kTooLarge;
        return result;
    }
    std::string_view value;
    bool found = false;
    while (!fragment.empty()) {
        const size_t amp = fragment.find('&');
        const std::string_view part = fragment.substr(0, amp);
        if (part.size() > key.size() && part.substr(0, key.size()) == key && part[key.size()] == '=') {
            value = part.substr(key.size() + 1);
            found = true;
        }
        if (amp == std::string_view::npos) break;
        fragment.remove_prefix(amp + 1);
    }
    if (!found) return result;
    const size_t dot = value.find('.');
    if (dot == std::string_view::npos || dot == 0) {
        result.status = LinkStatus::kUnknownFormat;
        return result;
    }
    int version = 0;
    for (char c : value.substr(0, dot)) {
        if (c < '0' || c > '9' || version > 1000) {
            result.status = LinkStatus::kUnknownFormat;
            return result;
        }
        version = version * 10 + (c - '0');
    }
    if (version > kLinkVersion) {
        result.status = LinkStatus::kNewerVersion;
        return result;
    }
    if (version < 1) {
        result.status = LinkStatus::kUnknownFormat;
        return result;
    }
    std::string json;
    if (!base64url_decode(value.substr(dot + 1), json)) {
        result.status = LinkStatus::kBadEncoding;
        return result;
    }
    if (!catalog::parse_json_text(json).error.empty()) {  // also too deep, or a key twice
        result.status = LinkStatus::kBadJson;
        return result;
    }
    result.status = LinkStatus::kOk;
    result.json_text = std::move(json);
    return result;
}
}  // namespace

LinkScenario scenario_from_fragment(std::string_view fragment) { return read_part(fragment, "s"); }
LinkScenario user_data_from_fragment(std::string_view fragment) { return read_part(fragment, "u"); }
LinkScenario pins_from_fragment(std::string_view fragment) { return read_part(fragment, "p"); }

}  // namespace gg::ui
