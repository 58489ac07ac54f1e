// The record reader of the catalog's files (data/gpus.json, data/cloud_offers.json, data/settings.json and the
// user's own data): JSON pointers and messages, typed reads that report every problem, unique ids, and the readers
// of each kind of record (catalog_gpus.cpp, catalog_offers.cpp, catalog_settings.cpp, catalog_calibrations.cpp).
// Catalog-internal: the UI and the CLI use catalog.h.
#pragma once

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "catalog/catalog.h"
#include "catalog/json_text.h"

namespace gg::catalog::records {

using nlohmann::json;

// --- Pointers and messages -----------------------------------------------------------------------------------

// RFC 6901 section 3: '~' is written "~0" and '/' is written "~1" inside a reference token.
inline std::string pointer_token(std::string_view key) {
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

inline std::string child(const std::string& pointer, std::string_view key) { return pointer + "/" + pointer_token(key); }
inline std::string child(const std::string& pointer, std::size_t index) { return pointer + "/" + std::to_string(index); }

// A number as people write it: 24, 1008, 82.6, 1.5e+13.
inline std::string fmt(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

inline const char* type_name(const json& value) {
    switch (value.type()) {
        case json::value_t::null: return "null";
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "true/false";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "a number";
        default: return "something else";
    }
}

// Dates are ISO 8601 calendar dates, YYYY-MM-DD, checked for a real day of a real month.
inline bool is_iso_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
        if (text[i] < '0' || text[i] > '9') return false;
    const int year = std::stoi(std::string(text.substr(0, 4)));  // digits only: cannot throw
    const int month = std::stoi(std::string(text.substr(5, 2)));
    const int day = std::stoi(std::string(text.substr(8, 2)));
    if (month < 1 || month > 12 || day < 1) return false;
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    const int days_in_month[] = {31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return day <= days_in_month[month - 1];
}

// Ids: lowercase letters, digits, '.' and '-', starting and ending with a letter or digit ("rtx-4090", "a100-sxm4-80gb").
inline bool is_id(std::string_view text) {
    if (text.empty()) return false;
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    for (char c : text)
        if (!alnum(c) && c != '-' && c != '.') return false;
    return alnum(text.front()) && alnum(text.back());
}

// --- The record reader ---------------------------------------------------------------------------------------

enum class Mode {
    Bundled,  // data/*.json: every documented key must be present (null where the format allows it)
    User,     // the user's own records: only the keys an estimate needs are required
};

// How much a key is required.
enum class Need {
    Always,         // present and not null in every mode
    Bundled,        // present and not null in bundled data; may be absent or null in user data
    BundledOrNull,  // present (null allowed) in bundled data; may be absent or null in user data
    Optional,       // may be absent or null
};

struct Context {
    std::string file;
    Mode mode;
    std::vector<Problem>* problems;
    void report(std::string pointer, std::string message) const {
        problems->push_back({file, std::move(pointer), std::move(message)});
    }
};

struct Range {
    double min;
    double max;
    const char* unit;  // printed after the numbers: "GiB", "GB/s"
    const char* hint;  // how to fix a value outside the range, or ""
};

// Reads the keys of one JSON object, reporting every problem; counts them so the caller can drop the record.
// Every key the format knows must be asked for (even when an earlier key failed), so that finish() can report the
// keys nobody asked for as unknown: that is how typos such as "memory_gb" are caught.
class Reader {
public:
    Reader(const Context& context, const json& object, std::string pointer)
        : context_(context), object_(object), pointer_(std::move(pointer)) {}

    bool ok() const { return problem_count_ == 0; }
    const std::string& pointer() const { return pointer_; }
    void report(const std::string& pointer, std::string message) {
        context_.report(pointer, std::move(message));
        ++problem_count_;
    }
    void report_key(const char* key, std::string message) { report(child(pointer_, key), std::move(message)); }
    void absorb(const Reader& nested) { problem_count_ += nested.problem_count_; }

    // The value at key, or nullptr when absent or null (a problem is reported when `need` forbids that).
    const json* value(const char* key, Need need) {
        known_.insert(key);
        auto it = object_.find(key);
        const bool present = it != object_.end();
        const bool bundled = context_.mode == Mode::Bundled;
        if (!present) {
            if (need == Need::Always || (bundled && (need == Need::Bundled || need == Need::BundledOrNull)))
                report(pointer_, std::string("missing key \"") + key + "\"" +
                                     (need == Need::BundledOrNull ? " (write null when it does not apply)" : ""));
            return nullptr;
        }
        if (it->is_null()) {
            if (need == Need::Always || (bundled && need == Need::Bundled))
                report_key(key, "must not be null");
            return nullptr;
        }
        return &*it;
    }

    std::optional<std::string> text(const char* key, Need need) {
        const json* v = value(key, need);
        if (v == nullptr) return std::nullopt;
        if (!v->is_string()) {
            report_key(key, std::string("must be a string, not ") + type_name(*v));
            return std::nullopt;
        }
        std::string s = v->get<std::string>();
        if (s.find_first_not_of(" \t\r\n") == std::string::npos) {
            if (need != Need::Optional) report_key(key, "must not be empty");
            return std::nullopt;
        }
        return s;
    }

    std::optional<std::string> choice(const char* key, Need need, std::initializer_list<const char*> allowed) {
        std::optional<std::string> s = text(key, need);
        if (!s) return std::nullopt;
        std::string list;
        for (const char* a : allowed) {
            if (*s == a) return s;
            list += list.empty() ? "" : ", ";
            list += std::string("\"") + a + "\"";
        }
        report_key(key, "is \"" + *s + "\"; allowed: " + list);
        return std::nullopt;
    }

    std::optional<std::string> id(const char* key, Need need) {
        std::optional<std::string> s = text(key, need);
        if (s && !is_id(*s)) {
            report_key(key, "\"" + *s +
                                "\" is not a valid id: use only lowercase letters, digits, '.' and '-', starting and "
                                "ending with a letter or digit (e.g. \"rtx-4090\")");
            return std::nullopt;
        }
        return s;
    }

    std::optional<std::string> date(const char* key, Need need) {
        std::optional<std::string> s = text(key, need);
        if (!s) return std::nullopt;
        if (!is_iso_date(*s)) {
            report_key(key, "\"" + *s + "\" is not a date: write YYYY-MM-DD (e.g. \"2025-06-05\")");
            return std::nullopt;
        }
        const std::string newest = newest_allowed_date();
        if (*s > newest) {
            report_key(key, "\"" + *s + "\" is in the future (this build is from " + newest +
                                "): give the date the source was published or seen");
            return std::nullopt;
        }
        return s;
    }

    std::optional<double> number(const char* key, Need need, const Range& range) {
        const json* v = value(key, need);
        if (v == nullptr) return std::nullopt;
        if (!v->is_number()) {
            report_key(key, std::string("must be a number, not ") + type_name(*v));
            return std::nullopt;
        }
        const double x = v->get<double>();
        if (!std::isfinite(x) || x < range.min || x > range.max) {
            std::string message = "is " + fmt(x) + ", outside the sane range " + fmt(range.min) + " to " +
                                  fmt(range.max) + " " + range.unit;
            if (*range.hint != '\0') message += std::string(": ") + range.hint;
            report_key(key, message);
            return std::nullopt;
        }
        return x;
    }

    std::optional<int> whole(const char* key, Need need, const Range& range) {
        std::optional<double> x = number(key, need, range);
        if (!x) return std::nullopt;
        if (*x != std::floor(*x)) {
            report_key(key, "is " + fmt(*x) + "; must be a whole number");
            return std::nullopt;
        }
        return static_cast<int>(*x);
    }

    std::optional<bool> boolean(const char* key, Need need) {
        const json* v = value(key, need);
        if (v == nullptr) return std::nullopt;
        if (!v->is_boolean()) {
            report_key(key, std::string("must be true or false, not ") + type_name(*v));
            return std::nullopt;
        }
        return v->get<bool>();
    }

    const json* object(const char* key, Need need) {
        const json* v = value(key, need);
        if (v != nullptr && !v->is_object()) {
            report_key(key, std::string("must be an object, not ") + type_name(*v));
            return nullptr;
        }
        return v;
    }

    const json* array(const char* key, Need need) {
        const json* v = value(key, need);
        if (v != nullptr && !v->is_array()) {
            report_key(key, std::string("must be an array, not ") + type_name(*v));
            return nullptr;
        }
        return v;
    }

    std::vector<std::string> strings(const char* key, Need need) {
        std::vector<std::string> out;
        const json* a = array(key, need);
        if (a == nullptr) return out;
        for (std::size_t i = 0; i < a->size(); ++i) {
            const json& item = (*a)[i];
            if (item.is_string())
                out.push_back(item.get<std::string>());
            else
                report(child(child(pointer_, key), i), std::string("must be a string, not ") + type_name(item));
        }
        return out;
    }

    // Reports every key that no one asked for. Call after reading all keys.
    void finish() {
        for (auto it = object_.begin(); it != object_.end(); ++it) {
            if (known_.count(it.key()) != 0) continue;
            std::string list;
            for (const std::string& k : known_) list += (list.empty() ? "" : ", ") + k;
            report(child(pointer_, it.key()), "unknown key \"" + it.key() + "\" (a typo? known keys: " + list + ")");
        }
    }

private:
    const Context& context_;
    const json& object_;
    std::string pointer_;
    std::set<std::string> known_;
    int problem_count_ = 0;
};

// Exact conversions from data units to base units. Rounding to a whole number of bytes, bytes/s or FLOP/s
// recovers the decimal value the data states (82.6 TFLOPS = 82 600 000 000 000 FLOP/s) despite binary doubles.
constexpr double kBytesPerGb = 1e9;            // bandwidth: vendors' GB/s are decimal
constexpr double kFlopPerTflop = 1e12;
inline double to_base(double value, double scale) { return std::round(value * scale); }

// Parses the document and checks the top level: an object with "schema_version": 1.
// Returns false (with a problem) when the text is not usable.
inline bool parse_document(const Context& context, std::string_view text, json& out) {
    if (text.empty()) {
        context.report("", "the file is missing or empty");
        return false;
    }
    JsonText parsed = parse_json_text(text);
    if (!parsed.error.empty()) {
        context.report("", "is " + parsed.error + " (check commas, quotes and that there are no comments)");
        return false;
    }
    out = std::move(parsed.value);
    if (!out.is_object()) {
        context.report("", std::string("must be a JSON object, not ") + type_name(out));
        return false;
    }
    return true;
}

constexpr int kSchemaVersion = 1;


// --- Ids -----------------------------------------------------------------------------------------------------

struct Ids {
    std::map<std::string, std::string> first_pointer;  // id -> pointer of the record that first used it
    std::set<std::string> dropped;                     // ids of records dropped for problems
};

// The id a record was written with, even when the record has other problems ("" when there is none).
inline std::string written_id(const json& record) {
    if (record.is_object() && record.contains("id") && record["id"].is_string()) return record["id"].get<std::string>();
    return {};
}

// Records the id at `at`; false (and a problem naming the first use) when this file already used it.
inline bool claim_id(const Context& context, Ids& ids, const std::string& id, const std::string& at) {
    if (id.empty()) return true;
    auto [it, fresh] = ids.first_pointer.emplace(id, at);
    if (fresh) return true;
    context.report(child(at, "id"), "id \"" + id + "\" is already used by " + it->second +
                                         ": ids must be unique (rename one, or delete the duplicate)");
    return false;
}

// --- The readers of each kind of record --------------------------------------------------------------------------

// Reads the "gpus" array of a document. Ids already in `ids` (from this file) are duplicates (catalog_gpus.cpp).
void read_gpus(const Context& context, const json& list, const std::string& pointer, Ids& ids,
               std::vector<engine::GpuSpec>& out);
// Reads the "offers" array. `gpu_known` says whether a GPU id is in the catalog being built; `gpu_dropped` whether it
// was in a file but dropped for problems (so the message can say so) (catalog_offers.cpp).
void read_offers(const Context& context, const json& list, const std::string& pointer, Ids& ids,
                 const std::function<bool(const std::string&)>& gpu_known,
                 const std::function<bool(const std::string&)>& gpu_dropped, std::vector<engine::CloudOffer>& out);
// "access": the providers' payment and access facts, given to each of their offers (catalog_offers.cpp).
void read_access(const Context& context, const json& list, const std::string& pointer,
                 std::vector<engine::CloudOffer>& offers);
// The user's calibrations of their cards, checked against the merged catalog (catalog_calibrations.cpp).
void read_calibrations(const Context& context, const json& list, const std::string& pointer, Catalog& merged);
// data/settings.json (catalog_settings.cpp).
engine::CostSettings parse_settings(const Context& context, const json& doc);

}  // namespace gg::catalog::records
