// YAML text -> JSON values with limits (see yaml_text.h). yaml-cpp parses; this file types the scalars and counts.
#include "catalog/yaml_text.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <yaml-cpp/yaml.h>

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

struct Converter {
    std::size_t values = 0;
    std::string error;

    // `path` is the key path for messages ("model.lora_rank", "lora_target_modules[2]").
    json convert(const YAML::Node& node, const std::string& path, int depth) {
        if (!error.empty()) return nullptr;
        if (++values > kMaxYamlValues) {
            error = "the document stands for more than " + std::to_string(kMaxYamlValues) +
                    " values (anchors and aliases that expand, or a file that is not a training config); stopped at '" +
                    (path.empty() ? std::string("the top") : path) + "'";
            return nullptr;
        }
        if (depth > kMaxJsonDepth) {
            error = "'" + path + "' is nested more than " + std::to_string(kMaxJsonDepth) + " levels deep";
            return nullptr;
        }
        switch (node.Type()) {
            case YAML::NodeType::Null:
            case YAML::NodeType::Undefined:
                return nullptr;
            case YAML::NodeType::Scalar: {
                const std::string& tag = node.Tag();
                // "!" = a quoted scalar: always a string; "?" = plain: typed as YAML 1.1 types it.
                if (tag == "?") return yaml_plain_scalar(node.Scalar());
                if (tag == "tag:yaml.org,2002:str" || tag == "!") return node.Scalar();
                const json typed = yaml_plain_scalar(node.Scalar());
                return typed;
            }
            case YAML::NodeType::Sequence: {
                json out = json::array();
                std::size_t i = 0;
                for (const YAML::Node& item : node) {
                    out.push_back(convert(item, path + "[" + std::to_string(i) + "]", depth + 1));
                    ++i;
                }
                return out;
            }
            case YAML::NodeType::Map: {
                json out = json::object();
                for (const auto& kv : node) {
                    if (!kv.first.IsScalar()) {
                        error = "a key under '" + (path.empty() ? std::string("the top") : path) +
                                "' is not a plain name (a list or mapping used as a key)";
                        return nullptr;
                    }
                    const std::string key = kv.first.Scalar();
                    const std::string sub = path.empty() ? key : path + "." + key;
                    if (out.contains(key)) {
                        error = "'" + printable(sub, 80) + "' is given twice (line " +
                                std::to_string(kv.first.Mark().line + 1) + "); a YAML mapping has each key once";
                        return nullptr;
                    }
                    out[key] = convert(kv.second, sub, depth + 1);
                    if (!error.empty()) return nullptr;
                }
                return out;
            }
        }
        return nullptr;
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
    try {
        const YAML::Node root = YAML::Load(std::string(text));
        Converter c;
        json value = c.convert(root, "", 0);
        if (!c.error.empty()) {
            out.error = c.error;
            return out;
        }
        out.value = std::move(value);
    } catch (const YAML::Exception& e) {
        out.error = "not YAML: " + printable(e.msg, 160) + " (line " + std::to_string(e.mark.line + 1) + ", column " +
                    std::to_string(e.mark.column + 1) + ")";
    } catch (const std::exception& e) {
        out.error = std::string("could not read the YAML: ") + printable(e.what(), 160);
    }
    return out;
}

}  // namespace gg::catalog
