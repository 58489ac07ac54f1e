// The value readers of the scenario parser (scenario.cpp, scenario_keys.cpp, scenario_custom.cpp): each reads one
// key of a JSON object, checks its type and range, and records a problem naming the key. Catalog-internal: not for
// the UI or the CLI, which use scenario.h and scenario_keys.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"

namespace gg::catalog::scenario_detail {

inline std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

template <class T>
int index_of(const std::vector<T>& v, const T& x) {
    const auto it = std::find(v.begin(), v.end(), x);
    return it == v.end() ? -1 : int(it - v.begin());
}

struct Reader {
    using json = nlohmann::json;
    std::string file;
    std::vector<Problem>* problems;
    void problem(const std::string& pointer, const std::string& message) { problems->push_back({file, pointer, message}); }

    bool integer(const json& o, const char* key, const std::string& ptr, int& out, long long lo, long long hi) {
        if (!o.contains(key)) return false;
        const json& v = o.at(key);
        const std::string p = ptr + "/" + key;
        double d = 0;
        if (v.is_number_integer() || v.is_number_unsigned()) d = v.get<double>();
        else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>()) d = v.get<double>();
        else {
            problem(p, std::string("'") + key + "' must be a whole number from " + std::to_string(lo) + " to " +
                           std::to_string(hi));
            return false;
        }
        if (d < double(lo) || d > double(hi)) {
            problem(p, std::string("'") + key + "' must be from " + std::to_string(lo) + " to " + std::to_string(hi) +
                           " (got " + v.dump() + ")");
            return false;
        }
        out = int(d);
        return true;
    }
    bool number(const json& o, const char* key, const std::string& ptr, double& out, double lo, double hi,
                bool lo_open = false) {
        if (!o.contains(key)) return false;
        const json& v = o.at(key);
        const std::string p = ptr + "/" + key;
        if (!v.is_number()) {
            problem(p, std::string("'") + key + "' must be a number");
            return false;
        }
        const double d = v.get<double>();
        if (!std::isfinite(d) || d < lo || d > hi || (lo_open && d == lo)) {
            problem(p, std::string("'") + key + "' must be " + (lo_open ? "greater than " : "from ") + json(lo).dump() +
                           (lo_open ? " and at most " : " to ") + json(hi).dump() + " (got " + v.dump() + ")");
            return false;
        }
        out = d;
        return true;
    }
    bool boolean(const json& o, const char* key, const std::string& ptr, bool& out) {
        if (!o.contains(key)) return false;
        if (!o.at(key).is_boolean()) {
            problem(ptr + "/" + key, std::string("'") + key + "' must be true or false");
            return false;
        }
        out = o.at(key).get<bool>();
        return true;
    }
    bool choice(const json& o, const char* key, const std::string& ptr, const std::vector<std::string>& allowed,
                std::string& out) {
        if (!o.contains(key)) return false;
        const json& v = o.at(key);
        if (!v.is_string() || index_of(allowed, v.get<std::string>()) < 0) {
            problem(ptr + "/" + key, std::string("'") + key + "' must be one of: " + join(allowed) + " (got " +
                                         v.dump() + ")");
            return false;
        }
        out = v.get<std::string>();
        return true;
    }
    void unknown_keys(const json& o, const std::string& ptr, const std::vector<std::string>& allowed) {
        for (auto it = o.begin(); it != o.end(); ++it)
            if (index_of(allowed, it.key()) < 0)
                problem(ptr + "/" + it.key(), "unknown key '" + it.key() + "'; allowed keys: " + join(allowed));
    }
};

}  // namespace gg::catalog::scenario_detail
