// YAML text -> JSON values with limits (see yaml_text.h). yaml-cpp parses (its event interface); this file builds
// the JSON, types the scalars and counts.
#include "catalog/yaml_text.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

namespace gg::catalog {

namespace {

using nlohmann::json;

bool all_digits(const std::string& s, std::size_t from) {
    if (from >= s.size()) return false;
    for (std::size_t i = from; i < s.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

// YAML 1.1's float: [-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)? as PyYAML reads it, and the exponent form
// without a dot (3e-4) that OmegaConf (torchtune) and YAML 1.2 read as a number too.
bool is_float(const std::string& s) {
    std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    bool digits = false, dot = false;
    for (; i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.'); ++i) {
        if (s[i] == '.') {
            if (dot) return false;
            dot = true;
        } else {
            digits = true;
        }
    }
    if (!digits) return false;
    if (i == s.size()) return dot;
    if (s[i] != 'e' && s[i] != 'E') return false;
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    return all_digits(s, i);
}

// Builds the JSON value from yaml-cpp's parse events (no yaml-cpp Node graph: less code in the page, and each use of
// an alias is counted with every value it stands for).
struct Stopped {};  // thrown by the handler to end parsing at the first problem; caught in parse_yaml_text

class JsonBuilder : public YAML::EventHandler {
public:
    std::string error;
    json root;

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { add(nullptr, 1, anchor, mark); }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        const auto it = anchors_.find(anchor);
        if (it == anchors_.end()) fail("an alias names an anchor that is not defined", mark);
        add(it->second.first, it->second.second, YAML::NullAnchor, mark);
    }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        // "?" = a plain scalar, typed as YAML 1.1 types it; "!" (quoted) and !!str stay text.
        const bool text = tag == "!" || tag == "tag:yaml.org,2002:str";
        if (expecting_key()) {
            Frame& f = stack_.back();
            if (value == "<<") fail("'" + where("<<") + "': YAML merge keys (<<) are not read; write the keys out", mark);
            if (f.value.contains(value))
                fail("'" + printable(where(value), 80) + "' is given twice (line " + std::to_string(mark.line + 1) +
                         "); a YAML mapping has each key once",
                     mark);
            f.key = value;
            f.has_key = true;
            if (anchor != YAML::NullAnchor) anchors_[anchor] = {json(value), 1};
            return;
        }
        add(text ? json(value) : yaml_plain_scalar(value), 1, anchor, mark);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(json::array(), anchor, mark);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(json::object(), anchor, mark);
    }
    void OnMapEnd() override { close(); }

private:
    struct Frame {
        json value;
        std::string path;  // for messages: "model", "lora_target_modules[2]"
        std::string key;   // a mapping's key waiting for its value
        bool has_key = false;
        YAML::anchor_t anchor = YAML::NullAnchor;
        std::size_t values_at_start = 0;
    };
    std::vector<Frame> stack_;
    std::map<YAML::anchor_t, std::pair<json, std::size_t>> anchors_;  // value and how many values it stands for
    std::size_t values_ = 0;

    [[noreturn]] void fail(const std::string& message, const YAML::Mark& mark) {
        error = message;
        if (message.find("(line") == std::string::npos)
            error += " (line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1) + ")";
        throw Stopped{};
    }
    bool expecting_key() const { return !stack_.empty() && stack_.back().value.is_object() && !stack_.back().has_key; }
    std::string where(const std::string& key) const {
        const std::string& path = stack_.empty() ? std::string() : stack_.back().path;
        return path.empty() ? key : path + "." + key;
    }
    std::string child_path() const {
        if (stack_.empty()) return "";
        const Frame& f = stack_.back();
        if (f.value.is_array()) return f.path + "[" + std::to_string(f.value.size()) + "]";
        return f.path.empty() ? f.key : f.path + "." + f.key;
    }
    void count(std::size_t n, const YAML::Mark& mark) {
        values_ += n;
        if (values_ > kMaxYamlValues) {
            const std::string at = child_path();
            fail("the document stands for more than " + std::to_string(kMaxYamlValues) +
                     " values (anchors and aliases that expand, or a file that is not a training config); stopped at '" +
                     (at.empty() ? std::string("the top") : printable(at, 80)) + "'",
                 mark);
        }
    }
    void add(json value, std::size_t n, YAML::anchor_t anchor, const YAML::Mark& mark) {
        if (expecting_key()) fail("a key under '" + stack_.back().path + "' is not a plain name", mark);
        count(n, mark);
        if (anchor != YAML::NullAnchor) anchors_[anchor] = {value, n};
        if (stack_.empty()) {
            root = std::move(value);
            return;
        }
        Frame& f = stack_.back();
        if (f.value.is_array()) f.value.push_back(std::move(value));
        else {
            f.value[f.key] = std::move(value);
            f.has_key = false;
        }
    }
    void open(json value, YAML::anchor_t anchor, const YAML::Mark& mark) {
        if (expecting_key())
            fail("a key under '" + (stack_.back().path.empty() ? std::string("the top") : stack_.back().path) +
                     "' is not a plain name (a list or mapping used as a key)",
                 mark);
        if (static_cast<int>(stack_.size()) >= kMaxJsonDepth)
            fail("'" + printable(child_path(), 80) + "' is nested more than " + std::to_string(kMaxJsonDepth) +
                     " levels deep",
                 mark);
        count(1, mark);
        Frame f;
        f.path = child_path();
        f.value = std::move(value);
        f.anchor = anchor;
        f.values_at_start = values_;
        stack_.push_back(std::move(f));
    }
    void close() {
        Frame f = std::move(stack_.back());
        stack_.pop_back();
        const std::size_t n = values_ - f.values_at_start + 1;
        values_ -= n;  // add() counts the finished value again, whole
        add(std::move(f.value), n, f.anchor, YAML::Mark());
    }
};

}  // namespace

json yaml_plain_scalar(const std::string& s) {
    if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
    // YAML 1.1 booleans (PyYAML: true/false, yes/no, on/off in three cases each).
    static const char* const kTrue[] = {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON"};
    static const char* const kFalse[] = {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF"};
    for (const char* t : kTrue)
        if (s == t) return true;
    for (const char* f : kFalse)
        if (s == f) return false;
    const std::size_t sign = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (all_digits(s, sign) && s.size() - sign <= 18) return std::strtoll(s.c_str(), nullptr, 10);
    if (is_float(s)) {
        errno = 0;
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        if (errno == 0 && end == s.c_str() + s.size()) return v;
    }
    return s;
}

JsonText parse_yaml_text(std::string_view text) {
    JsonText out;
    out.value = json(json::value_t::discarded);
    if (text.size() > kMaxYamlTextBytes) {
        out.error = "the text is " + std::to_string(text.size()) + " bytes; a training config is at most " +
                    std::to_string(kMaxYamlTextBytes >> 10) + " KiB (" + std::to_string(kMaxYamlTextBytes) + " bytes)";
        return out;
    }
    // YAML is Unicode text (YAML 1.2 sec. 5.2: UTF-8, UTF-16 or UTF-32; every config the stacks ship is UTF-8), and
    // yaml-cpp passes other bytes through into keys and values that JSON cannot hold.
    if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos) {
        const std::string_view before = text.substr(0, bad);
        const std::size_t line_start = before.rfind('\n');
        const std::size_t column = line_start == std::string_view::npos ? bad + 1 : bad - line_start;
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned char>(text[bad]));
        out.error = std::string("not UTF-8 text: byte ") + byte + " (line " +
                    std::to_string(std::count(before.begin(), before.end(), '\n') + 1) + ", column " +
                    std::to_string(column) + "); save the config as UTF-8";
        return out;
    }
    JsonBuilder builder;
    try {
        std::istringstream in{std::string(text)};
        YAML::Parser parser(in);
        if (!parser.HandleNextDocument(builder)) {
            out.value = nullptr;  // an empty document
            return out;
        }
        if (parser.HandleNextDocument(builder)) {
            out.error = "more than one YAML document (a line '---' between them): a training config is one";
            return out;
        }
        out.value = std::move(builder.root);
    } catch (const Stopped&) {
        out.error = builder.error;
    } catch (const YAML::Exception& e) {
        out.error = "not YAML: " + printable(e.msg, 160) + " (line " + std::to_string(e.mark.line + 1) + ", column " +
                    std::to_string(e.mark.column + 1) + ")";
    } catch (const std::exception& e) {
        out.error = std::string("could not read the YAML: ") + printable(e.what(), 160);
    }
    return out;
}

}  // namespace gg::catalog
