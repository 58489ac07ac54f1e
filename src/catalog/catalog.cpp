// Loading and validating the catalog (data/gpus.json, data/cloud_offers.json, data/settings.json) into engine
// structs in base units. The one place where data units become base units. Never throws, never aborts:
// JSON is parsed with exceptions off and every value's type is checked before it is read.
//
// Sections: pointers and messages - the record reader - GPUs - offers - settings - catalog assembly - embedded data
// The format of each file and the meaning of each check: docs/catalog.md.
#include "catalog/catalog.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "catalog/decision_json.h"
#include "catalog/embedded_data.h"
#include "catalog/json_text.h"
#include "engine/workload.h"

namespace gg::catalog {
namespace {

using nlohmann::json;

// --- Pointers and messages -----------------------------------------------------------------------------------

// RFC 6901 section 3: '~' is written "~0" and '/' is written "~1" inside a reference token.
std::string pointer_token(std::string_view key) {
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

std::string child(const std::string& pointer, std::string_view key) { return pointer + "/" + pointer_token(key); }
std::string child(const std::string& pointer, std::size_t index) { return pointer + "/" + std::to_string(index); }

// A number as people write it: 24, 1008, 82.6, 1.5e+13.
std::string fmt(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

const char* type_name(const json& value) {
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
bool is_iso_date(std::string_view text) {
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
bool is_id(std::string_view text) {
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
double to_base(double value, double scale) { return std::round(value * scale); }

// Parses the document and checks the top level: an object with "schema_version": 1.
// Returns false (with a problem) when the text is not usable.
bool parse_document(const Context& context, std::string_view text, json& out) {
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

// --- GPUs ----------------------------------------------------------------------------------------------------

struct Ids {
    std::map<std::string, std::string> first_pointer;  // id -> pointer of the record that first used it
    std::set<std::string> dropped;                     // ids of records dropped for problems
};

// "8.9" -> {8, 9}
bool parse_compute_capability(const std::string& text, int& major, int& minor) {
    const auto dot = text.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 >= text.size() || dot > 2 || text.size() - dot - 1 > 2)
        return false;
    for (std::size_t i = 0; i < text.size(); ++i)
        if (i != dot && (text[i] < '0' || text[i] > '9')) return false;
    major = std::stoi(text.substr(0, dot));
    minor = std::stoi(text.substr(dot + 1));
    return major >= 1;
}

// AMD CDNA generation from the architecture name ("CDNA 3", "CDNA3"); 0 when not CDNA.
int cdna_generation(const std::string& architecture) {
    std::string lower;
    for (char c : architecture) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto at = lower.find("cdna");
    if (at == std::string::npos) return 0;
    std::size_t i = at + 4;
    while (i < lower.size() && (lower[i] == ' ' || lower[i] == '-')) ++i;
    return i < lower.size() && lower[i] >= '1' && lower[i] <= '9' ? lower[i] - '0' : 0;
}

std::optional<engine::GpuSpec> parse_gpu(const Context& context, const json& record, const std::string& pointer) {
    if (!record.is_object()) {
        context.report(pointer, std::string("each GPU must be an object, not ") + type_name(record));
        return std::nullopt;
    }
    Reader r(context, record, pointer);
    engine::GpuSpec g;
    // Key order follows the documented format (docs/catalog.md).
    if (auto v = r.id("id", Need::Always)) g.id = *v;
    if (auto v = r.text("name", Need::Always)) g.name = *v;
    if (auto v = r.choice("vendor", Need::Bundled, {"nvidia", "amd"})) g.vendor = *v;
    if (auto v = r.choice("segment", Need::Bundled, {"consumer", "workstation", "datacenter"})) g.segment = *v;
    if (auto v = r.text("architecture", Need::Bundled)) g.architecture = *v;
    if (auto v = r.text("compute_capability", Need::BundledOrNull)) {
        if (!parse_compute_capability(*v, g.compute_capability_major, g.compute_capability_minor))
            r.report_key("compute_capability", "\"" + *v + "\" is not a CUDA compute capability: write e.g. \"8.9\"");
        else if (g.vendor == "amd")
            r.report_key("compute_capability", "must be null for AMD GPUs (CUDA compute capability is NVIDIA's)");
    } else if (g.vendor == "nvidia" && context.mode == Mode::Bundled && record.contains("compute_capability") &&
               record["compute_capability"].is_null()) {
        r.report_key("compute_capability", "is required for NVIDIA GPUs: write e.g. \"8.9\" (see "
                                           "https://developer.nvidia.com/cuda-gpus)");
    }
    if (auto v = r.whole("launch_year", Need::Bundled, {2010, 2030, "", ""})) g.launch_year = *v;
    if (auto v = r.number("memory_gib", Need::Always,
                          {1, 512, "GiB", "give the capacity in GiB as the vendor states it (24 for a 24 GB card)"}))
        g.memory_bytes = to_base(*v, engine::kBytesPerGiB);
    if (auto v = r.text("memory_type", Need::Bundled)) g.memory_type = *v;
    if (auto v = r.number("memory_bandwidth_gb_per_s", Need::Always,
                          {50, 20000, "GB/s", "give the memory bandwidth in decimal GB/s (NVLink is a separate key)"}))
        g.memory_bandwidth_bytes_per_s = to_base(*v, kBytesPerGb);

    // Dense peak rates. Order rules: NVIDIA whitepapers (Ampere GA100 Table 3, Ada AD102 Appendix A, Hopper H100
    // Table 2) list tensor FP16 >= FP32, FP16-accumulate >= FP32-accumulate, TF32/BF16 from Ampere (CC 8.0),
    // FP8 from Ada (CC 8.9) and Hopper (9.0); AMD lists FP8 from CDNA 3 (MI300 ISA guide).
    if (const json* dense = r.object("dense_tflops", Need::Always)) {
        Reader d(context, *dense, child(pointer, "dense_tflops"));
        const Range rate{0.01, 20000, "TFLOPS", "give dense (no-sparsity) TFLOPS; null when unsupported"};
        auto& f = g.dense_flop_per_s;
        // fp32 may be null only when no source publishes it (e.g. AWS's A10G): the GPU then serves memory checks
        // and offers, and gets a time estimate only from measured GEMMs (engine::rates_for_time).
        if (auto v = d.number("fp32", Need::BundledOrNull, {0.5, 200, "TFLOPS", "give FP32 TFLOPS, not GFLOPS"}))
            f.fp32 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("tf32", Need::BundledOrNull, rate)) f.tf32 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("fp16", Need::BundledOrNull, rate)) f.fp16 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("fp16_fp16acc", Need::BundledOrNull, rate)) f.fp16_fp16acc = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("bf16", Need::BundledOrNull, rate)) f.bf16 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("fp8", Need::BundledOrNull, rate)) f.fp8 = to_base(*v, kFlopPerTflop);
        if (auto v = d.number("int8", Need::BundledOrNull, rate)) f.int8 = to_base(*v, kFlopPerTflop);
        d.finish();
        if (d.ok()) {
            const std::string& p = d.pointer();
            const int cc = g.compute_capability_major * 100 + g.compute_capability_minor;  // 8.9 -> 809
            const bool nvidia_known_cc = g.vendor == "nvidia" && cc > 0;
            const bool tensor_cores = f.tf32 > 0 || (nvidia_known_cc && cc >= 700);
            if (tensor_cores && f.fp16 > 0 && f.fp16 < f.fp32)
                d.report(child(p, "fp16"), "tensor FP16 (" + fmt(f.fp16 / kFlopPerTflop) + ") is below FP32 (" +
                                               fmt(f.fp32 / kFlopPerTflop) +
                                               ") on a card with tensor cores: check for a GFLOPS/TFLOPS or "
                                               "sparse/dense mix-up");
            if (f.fp16_fp16acc > 0 && f.fp16 > 0 && f.fp16_fp16acc < f.fp16)
                d.report(child(p, "fp16_fp16acc"),
                         "FP16-accumulate (" + fmt(f.fp16_fp16acc / kFlopPerTflop) +
                             ") is below FP32-accumulate fp16 (" + fmt(f.fp16 / kFlopPerTflop) +
                             "): the two may be swapped (GeForce: fp16 is half of fp16_fp16acc)");
            // GeForce (Turing and later) runs FP16 tensor math with FP32 accumulate at half the FP16-accumulate
            // rate; workstation and datacenter cards run both at full rate. Sources: NVIDIA Ada GPU Architecture
            // whitepaper v2.02, Appendix A (RTX 4090: 165.2 vs 330.3 TFLOPS; RTX 6000 Ada: equal); Quadro RTX 6000
            // datasheet footnote "FP16 matrix multiply with FP16 or FP32 accumulate" (one rate). Catches the most
            // copied error: the FP16-accumulate (or sparse) figure written as the training rate.
            if (nvidia_known_cc && cc >= 705 && f.fp16 > 0 && f.fp16_fp16acc > 0) {
                const bool geforce = g.segment == "consumer";
                const double expected_ratio = geforce ? 2.0 : 1.0;
                const double ratio = f.fp16_fp16acc / f.fp16;
                if (std::fabs(ratio - expected_ratio) > 0.01 * expected_ratio)
                    d.report(child(p, "fp16"),
                             "fp16_fp16acc / fp16 is " + fmt(ratio) + "; expected " + fmt(expected_ratio) +
                                 (geforce ? " on a GeForce card (FP32-accumulate runs at half rate)"
                                          : " on a workstation/datacenter card (both accumulates run at full rate)") +
                                 ": fp16 is the FP32-accumulate dense rate");
            }
            if (nvidia_known_cc && cc < 800 && f.bf16 > 0)
                d.report(child(p, "bf16"), "must be null: BF16 tensor cores start with Ampere (compute capability 8.0)");
            if (nvidia_known_cc && cc < 800 && f.tf32 > 0)
                d.report(child(p, "tf32"), "must be null: TF32 tensor cores start with Ampere (compute capability 8.0)");
            if (f.fp8 > 0) {
                const bool nvidia_fp8 = nvidia_known_cc && cc >= 809;
                const bool amd_fp8 = g.vendor == "amd" && cdna_generation(g.architecture) >= 3;
                const bool unknown = g.vendor.empty() || (g.vendor == "nvidia" && cc == 0);
                if (!nvidia_fp8 && !amd_fp8 && !unknown)
                    d.report(child(p, "fp8"), "must be null: FP8 tensor rates exist only from compute capability 8.9 "
                                              "(Ada, Hopper, Blackwell) and AMD CDNA 3 (MI300)");
            }
        }
        r.absorb(d);
    }
    if (auto v = r.number("tdp_w", Need::BundledOrNull, {20, 2000, "W", "give board power in watts; null if unpublished"}))
        g.tdp_w = *v;
    if (auto v = r.choice("form_factor", Need::Bundled, {"pcie", "sxm", "oam"})) g.form_factor = *v;
    if (auto v = r.whole("pcie_gen", Need::BundledOrNull, {1, 6, "", ""})) g.pcie_gen = *v;
    if (auto v = r.whole("pcie_lanes", Need::BundledOrNull, {1, 16, "lanes", ""})) g.pcie_lanes = *v;
    if (auto v = r.number("nvlink_gb_per_s", Need::BundledOrNull,
                          {1, 20000, "GB/s", "total bidirectional GB/s per GPU; null when there is none"}))
        g.nvlink_bytes_per_s = to_base(*v, kBytesPerGb);
    if (auto v = r.boolean("ecc", Need::Bundled)) g.ecc = *v;
    if (auto v = r.boolean("ecc_on_by_default", Need::Bundled)) {
        g.ecc_on_by_default = *v;
        if (g.ecc_on_by_default && !g.ecc) r.report_key("ecc_on_by_default", "must be false on a card without ECC");
    }
    // What nvidia-smi shows as the total (MiB, as it prints it), in the ECC state of that reading (engine/card_memory.h).
    if (const json* visible = r.object("visible_memory", Need::BundledOrNull)) {
        Reader s(context, *visible, child(pointer, "visible_memory"));
        // At most the datasheet size; at least 15/16 of it less 1%: ECC's share and the driver's few MiB. Without a
        // valid memory_gib (reported there) only memory_gib's own range applies.
        const double datasheet_mib = g.memory_bytes > 0 ? g.memory_bytes / double(1 << 20) : 512.0 * 1024;
        const Range mib{g.memory_bytes > 0 ? datasheet_mib * 15 / 16 * 0.99 : 1024.0 * 15 / 16 * 0.99, datasheet_mib,
                        "MiB", "give nvidia-smi's total as printed (\"15360MiB\" is 15360)"};
        double total_mib = 0;
        if (auto v = s.number("total_mib", Need::Always, mib)) total_mib = *v;
        if (auto v = s.boolean("ecc_on", Need::Always)) {
            g.visible_memory_ecc_on = *v;
            if (*v && !g.ecc) s.report_key("ecc_on", "must be false on a card without ECC");
        }
        if (auto v = s.text("source", Need::Always)) g.visible_memory_source = *v;
        if (auto v = s.date("as_of", Need::Always)) g.visible_memory_as_of = *v;
        s.finish();
        if (s.ok()) g.visible_memory_bytes = total_mib * double(1 << 20);  // MiB -> bytes, where the data enters
        r.absorb(s);
    }
    if (auto v = r.boolean("laptop", Need::Optional)) g.laptop = *v;
    if (g.laptop && g.form_factor != "pcie")
        r.report_key("laptop", "a laptop GPU sits on the laptop's PCIe bus: its form_factor must be \"pcie\"");
    if (auto v = r.number("launch_price_usd", Need::BundledOrNull,
                          {50, 500000, "USD", "null when there is no public list price"}))
        g.launch_price_usd = *v;
    if (const json* street = r.object("street_price_cny", Need::BundledOrNull)) {
        Reader s(context, *street, child(pointer, "street_price_cny"));
        const Range cny{100, 5000000, "CNY", "give the price of one card in CNY"};
        if (auto v = s.number("new", Need::BundledOrNull, cny)) g.street_price.new_cny = *v;
        if (auto v = s.number("used", Need::BundledOrNull, cny)) g.street_price.used_cny = *v;
        if (auto v = s.date("as_of", Need::Always)) g.street_price.as_of = *v;
        if (auto v = s.text("source", Need::Always)) g.street_price.source = *v;
        s.finish();
        if (s.ok() && g.street_price.new_cny == 0 && g.street_price.used_cny == 0)
            s.report(s.pointer(), "gives neither a new nor a used price: set street_price_cny to null instead");
        r.absorb(s);
    }
    g.notes = r.strings("notes", Need::BundledOrNull);
    if (auto v = r.text("source", Need::Bundled)) g.source = *v;
    if (auto v = r.date("as_of", Need::Bundled)) g.as_of = *v;
    r.finish();
    if (!r.ok()) return std::nullopt;
    return g;
}

// The id a record was written with, even when the record has other problems ("" when there is none).
std::string written_id(const json& record) {
    if (record.is_object() && record.contains("id") && record["id"].is_string()) return record["id"].get<std::string>();
    return {};
}

// Records the id at `at`; false (and a problem naming the first use) when this file already used it.
bool claim_id(const Context& context, Ids& ids, const std::string& id, const std::string& at) {
    if (id.empty()) return true;
    auto [it, fresh] = ids.first_pointer.emplace(id, at);
    if (fresh) return true;
    context.report(child(at, "id"), "id \"" + id + "\" is already used by " + it->second +
                                         ": ids must be unique (rename one, or delete the duplicate)");
    return false;
}

// Reads the "gpus" array of a document. Ids already in `ids` (from this file) are duplicates.
void read_gpus(const Context& context, const json& list, const std::string& pointer, Ids& ids,
               std::vector<engine::GpuSpec>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        const json& record = list[i];
        std::optional<engine::GpuSpec> gpu = parse_gpu(context, record, at);
        const std::string id = gpu ? gpu->id : written_id(record);
        if (!claim_id(context, ids, id, at)) continue;
        if (!gpu && !id.empty()) ids.dropped.insert(id);
        if (gpu) out.push_back(std::move(*gpu));
    }
}

// --- Offers --------------------------------------------------------------------------------------------------

// Monthly prices: price_per_hour = price_per_month / 720 (30 days x 24 h), the convention of data/cloud_offers.json.
constexpr double kHoursPerBillingMonth = 720;
constexpr double kMonthlyTolerance_fraction = 0.01;

// The instance's vCPUs (the DataLoader's workers share them, engine/loader.h): a count with its source, or null /
// absent (unknown); never fewer than one per GPU.
void read_offer_vcpus(Reader& r, engine::CloudOffer& o) {
    if (auto v = r.whole("vcpu_count", Need::Optional,
                         {1, 4096, "vCPUs", "the instance's vCPUs, shared by its GPUs; null = unknown"})) {
        if (*v < o.gpu_count) r.report_key("vcpu_count", "vcpu_count " + std::to_string(*v) + " is fewer than gpu_count " +
                                                             std::to_string(o.gpu_count) + ": give the instance's vCPUs");
        else o.vcpu_count = *v;
    }
    // A count needs its source; the bundled offers also say why an unknown one is unknown (tests/catalog/test_loader).
    if (auto src = r.text("vcpu_source", o.vcpu_count > 0 ? Need::Always : Need::Optional)) o.vcpu_source = *src;
}

std::optional<engine::CloudOffer> parse_offer(const Context& context, const json& record, const std::string& pointer) {
    if (!record.is_object()) {
        context.report(pointer, std::string("each offer must be an object, not ") + type_name(record));
        return std::nullopt;
    }
    Reader r(context, record, pointer);
    engine::CloudOffer o;
    if (auto v = r.id("id", Need::Always)) o.id = *v;
    if (auto v = r.text("provider", Need::Always)) o.provider = *v;
    if (auto v = r.text("region", Need::Bundled)) o.region = *v;
    if (auto v = r.text("instance", Need::Bundled)) o.instance = *v;
    if (auto v = r.id("gpu", Need::Always)) o.gpu_id = *v;
    if (auto v = r.whole("gpu_count", Need::Always, {1, 16, "GPUs", ""})) o.gpu_count = *v;
    const bool free = record.is_object() && record.contains("billing") && record["billing"] == "free";
    if (auto v = r.number("price_per_hour", Need::Always,
                          free ? Range{0, 0, "", "a free offer's price_per_hour is 0"}
                               : Range{1e-6, 1e9, "", "give the price of the whole instance per hour; must be above 0"}))
        o.price_per_hour = *v;
    if (auto v = r.choice("currency", Need::Always, {"USD", "CNY"})) o.currency = *v;
    std::optional<std::string> billing = r.choice("billing", Need::Always, {"on-demand", "spot", "monthly", "free"});
    if (billing) o.billing = *billing == "spot"      ? engine::Billing::Spot
                             : *billing == "monthly" ? engine::Billing::Monthly
                             : *billing == "free"    ? engine::Billing::Free
                                                     : engine::Billing::OnDemand;
    if (auto v = r.number("billing_granularity_s", Need::Bundled,
                          {1, 31622400, "s", "per-second 1, per-minute 60, hourly 3600, monthly 2592000"}))
        o.billing_granularity_s = *v;
    std::optional<double> per_month = r.number("price_per_month", Need::BundledOrNull,
                                               {1e-6, 1e12, "", "null unless billing is \"monthly\""});
    if (billing && *billing != "monthly" && per_month) {
        r.report_key("price_per_month", "must be null when billing is \"" + *billing + "\"");
    } else if (billing && *billing == "monthly") {
        if (!per_month && !record.contains("price_per_month")) {
            // already reported as missing in bundled mode; user data must say it too
            if (context.mode == Mode::User) r.report(pointer, "missing key \"price_per_month\" (billing is monthly)");
        } else if (!per_month && record["price_per_month"].is_null()) {
            r.report_key("price_per_month", "must be the monthly price when billing is \"monthly\"");
        } else if (per_month && o.price_per_hour > 0) {
            const double implied = o.price_per_hour * kHoursPerBillingMonth;
            const double off_fraction = std::fabs(implied - *per_month) / *per_month;
            if (off_fraction > kMonthlyTolerance_fraction)
                r.report_key("price_per_hour", "price_per_hour " + fmt(o.price_per_hour) + " x 720 h = " +
                                                   fmt(implied) + " differs from price_per_month " + fmt(*per_month) +
                                                   " by " + fmt(off_fraction * 100) +
                                                   "% (1% allowed): price_per_hour should be price_per_month / 720 = " +
                                                   fmt(*per_month / kHoursPerBillingMonth));
            o.price_per_month = *per_month;
        }
    }
    if (auto v = r.date("as_of", Need::Bundled)) o.as_of = *v;
    if (auto v = r.text("source", Need::Bundled)) o.source = *v;
    if (auto v = r.number("host_ram_gib", Need::Optional, {1, 65536, "GiB", "the instance's RAM (optimizer offload keeps its states there)"})) {
        o.host_ram_bytes = *v * engine::kBytesPerGiB;
        if (auto src = r.text("host_ram_source", Need::Always)) o.host_ram_source = *src;  // a RAM figure needs its source
    } else {
        r.text("host_ram_source", Need::Optional);
    }
    read_offer_vcpus(r, o);  // catalog/loader_json.cpp's neighbour: the CPUs the DataLoader's workers get
    // Free and notebook tiers: what a session allows, with its own source and date (a free offer must give them).
    if (const json* v = r.object("session_limits", free ? Need::Always : Need::Optional)) {
        Reader l(context, *v, child(pointer, "session_limits"));
        engine::SessionLimits lim;
        if (auto n = l.number("max_session_h", Need::Optional, {0.1, 720, "h", "a session's longest wall-clock time"}))
            lim.max_session_s = *n * 3600;
        if (auto n = l.number("idle_timeout_min", Need::Optional, {1, 1440, "min", "disconnect after this long idle"}))
            lim.idle_timeout_s = *n * 60;
        if (auto n = l.number("gpu_hours_per_week", Need::Optional, {0.1, 168, "h", "the weekly accelerator quota"}))
            lim.gpu_s_per_week = *n * 3600;
        if (auto b = l.boolean("gpu_guaranteed", Need::Always)) lim.gpu_guaranteed = *b;
        if (auto n = l.number("disk_gb", Need::Optional, {0.1, 1e6, "GB", "the session's writable disk, 10^9 bytes"}))
            lim.disk_bytes = *n * 1e9;
        if (auto t = l.text("source", Need::Always)) lim.source = *t;
        if (auto t = l.date("as_of", Need::Always)) lim.as_of = *t;
        l.finish();
        r.absorb(l);
        if (l.ok()) {
            o.limits = lim;
            o.has_limits = true;
        }
    }
    o.notes = r.strings("notes", Need::BundledOrNull);
    r.finish();
    if (!r.ok()) return std::nullopt;
    return o;
}

// Reads the "offers" array. `gpu_known` says whether a GPU id is in the catalog being built; `gpu_dropped` whether it
// was in a file but dropped for problems (so the message can say so).
template <class Known, class Dropped>
void read_offers(const Context& context, const json& list, const std::string& pointer, Ids& ids, Known gpu_known,
                 Dropped gpu_dropped, std::vector<engine::CloudOffer>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        const json& record = list[i];
        std::optional<engine::CloudOffer> offer = parse_offer(context, record, at);
        if (!claim_id(context, ids, offer ? offer->id : written_id(record), at)) continue;
        if (!offer) continue;
        if (!gpu_known(offer->gpu_id)) {
            if (gpu_dropped(offer->gpu_id))
                context.report(child(at, "gpu"), "GPU \"" + offer->gpu_id +
                                                     "\" was dropped because of its own problems (above); this offer "
                                                     "is dropped with it");
            else
                context.report(child(at, "gpu"), "unknown GPU \"" + offer->gpu_id +
                                                     "\": use an id from data/gpus.json (`gpuguide gpus`), or add "
                                                     "the GPU there first");
            continue;
        }
        out.push_back(std::move(*offer));
    }
}

// --- The user's calibrations (issue 33) -----------------------------------------------------------------------
// "calibrations": [{"id", "gpu", "as_of", "cuda_context_bytes"?, "fragmentation_fraction"?, "speed"?: [{"family",
// "efficiency_factor"}], "measured"?: {"model", "nvidia_smi_bytes", "peak_allocated_bytes", "peak_reserved_bytes",
// "samples_per_s"}}]: each term within the bounds engine/calibration.h gives (a value outside them is refused, not
// clamped: it came from a file, not from the attribution). One record per card; the card must be in the catalog.
bool known_family_name(const std::string& name) {
    using engine::Family;
    for (Family f : {Family::kResNet, Family::kVgg, Family::kMobileNetV2, Family::kEfficientNetB0, Family::kVit,
                     Family::kEncoder, Family::kDecoder, Family::kUnet, Family::kYolo, Family::kSdUnet,
                     Family::kBiLstmCrf})
        if (name == engine::family_name(f)) return true;
    return false;
}

void read_calibrations(const Context& context, const json& list, const std::string& pointer, Catalog& merged) {
    Ids ids;
    std::set<std::string> cards;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        const json& record = list[i];
        if (!record.is_object()) {
            context.report(at, std::string("each calibration must be an object, not ") + type_name(record));
            continue;
        }
        Reader r(context, record, at);
        const std::optional<std::string> id = r.id("id", Need::Always);
        const std::optional<std::string> gpu = r.id("gpu", Need::Always);
        r.date("as_of", Need::Always);
        engine::CardCalibration c;
        if (auto v = r.number("cuda_context_bytes", Need::Optional,
                              {engine::kCalibrationContextMinBytes, engine::kCalibrationContextMaxBytes, "bytes",
                               "the CUDA context nvidia-smi adds (256 MiB to 3 GiB)"}))
            c.cuda_context_bytes = *v;
        if (auto v = r.number("fragmentation_fraction", Need::Optional,
                              {0, engine::kCalibrationFragmentationMax, "",
                               "the caching allocator's reserved / allocated - 1"}))
            c.fragmentation_fraction = *v;
        if (const json* speed = r.array("speed", Need::Optional)) {
            for (std::size_t k = 0; k < speed->size(); ++k) {
                const std::string sat = child(child(at, "speed"), k);
                if (!(*speed)[k].is_object()) {
                    r.report(sat, std::string("must be an object, not ") + type_name((*speed)[k]));
                    continue;
                }
                Reader sr(context, (*speed)[k], sat);
                const std::optional<std::string> family = sr.text("family", Need::Always);
                const std::optional<double> factor =
                    sr.number("efficiency_factor", Need::Always,
                              {engine::kCalibrationFactorMin, engine::kCalibrationFactorMax, "",
                               "measured / estimated speed of the card's own work"});
                if (family && !known_family_name(*family)) {
                    sr.report_key("family", "\"" + printable(*family, 40) + "\" is not a model family gpuguide knows");
                }
                if (family && std::any_of(c.speed.begin(), c.speed.end(),
                                          [&](const engine::CardCalibration::Speed& x) { return x.family == *family; }))
                    sr.report_key("family", "\"" + *family + "\" is calibrated twice for this card");
                sr.finish();
                r.absorb(sr);
                if (sr.ok() && family && factor) c.speed.push_back({*family, *factor});
            }
        }
        if (const json* m = r.object("measured", Need::Optional)) {
            Reader mr(context, *m, child(at, "measured"));
            mr.text("model", Need::Optional);
            for (const char* key : {"nvidia_smi_bytes", "peak_allocated_bytes", "peak_reserved_bytes"})
                mr.number(key, Need::Optional, {1, 1e13, "bytes", ""});
            mr.number("samples_per_s", Need::Optional, {1e-6, 1e9, "samples/s", ""});
            mr.finish();
            r.absorb(mr);
        }
        r.finish();
        if (!id || !gpu) continue;
        if (!claim_id(context, ids, *id, at)) continue;
        if (!r.ok()) continue;
        if (!c.any()) {
            context.report(at, "calibrates nothing: give cuda_context_bytes, fragmentation_fraction or speed");
            continue;
        }
        if (!cards.insert(*gpu).second) {
            context.report(child(at, "gpu"), "GPU \"" + *gpu + "\" has a calibration already (one per card)");
            continue;
        }
        auto it = std::find_if(merged.gpus.begin(), merged.gpus.end(),
                               [&](const engine::GpuSpec& g) { return g.id == *gpu; });
        if (it == merged.gpus.end()) {
            context.report(child(at, "gpu"), "unknown GPU \"" + *gpu +
                                                 "\": a calibration is for a card in the catalog or in your own data");
            continue;
        }
        it->calibration = std::move(c);
    }
}

// --- Settings ------------------------------------------------------------------------------------------------

engine::CostSettings parse_settings(const Context& context, const json& doc) {
    engine::CostSettings out;
    Reader top(context, doc, "");
    top.value("schema_version", Need::Always);  // checked by the caller
    top.text("about", Need::Optional);

    if (const json* v = top.object("exchange_rate", Need::Always)) {
        Reader r(context, *v, "/exchange_rate");
        engine::ExchangeRate x;
        if (auto n = r.number("cny_per_usd", Need::Always, {1, 20, "CNY per USD", "CNY for one USD, e.g. 7.1"}))
            x.cny_per_usd = *n;
        if (auto s = r.date("as_of", Need::Always)) x.as_of = *s;
        if (auto s = r.text("source", Need::Always)) x.source = *s;
        r.finish();
        if (r.ok()) out.exchange_rate = x;
    }

    std::set<std::string> electricity_ids;
    if (const json* list = top.array("electricity", Need::Always)) {
        std::map<std::string, std::string> first;
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string at = child("/electricity", i);
            const json& item = (*list)[i];
            if (!item.is_object()) {
                context.report(at, std::string("each electricity price must be an object, not ") + type_name(item));
                continue;
            }
            Reader r(context, item, at);
            engine::ElectricityPrice e;
            if (auto s = r.id("id", Need::Always)) e.id = *s;
            if (auto s = r.text("region", Need::Always)) e.region = *s;
            if (auto s = r.text("label_en", Need::Always)) e.label_en = *s;
            if (auto s = r.text("label_zh", Need::Always)) e.label_zh = *s;
            if (auto n = r.number("price_per_kwh", Need::Always,
                                  {0.001, 10, "per kWh", "give the price of one kWh in `currency`"}))
                e.price_per_kwh = *n;
            if (auto s = r.choice("currency", Need::Always, {"CNY", "USD"})) e.currency = *s;
            if (auto s = r.date("as_of", Need::Always)) e.as_of = *s;
            if (auto s = r.text("source", Need::Always)) e.source = *s;
            r.finish();
            if (!e.id.empty()) {
                auto [it, fresh] = first.emplace(e.id, at);
                if (!fresh) {
                    context.report(child(at, "id"), "id \"" + e.id + "\" is already used by " + it->second +
                                                        ": ids must be unique");
                    continue;
                }
            }
            if (r.ok()) {
                electricity_ids.insert(e.id);
                out.electricity.push_back(std::move(e));
            }
        }
    }
    if (auto s = top.id("default_electricity", Need::Always)) {
        if (electricity_ids.count(*s) != 0)
            out.default_electricity_id = *s;
        else
            top.report_key("default_electricity", "\"" + *s + "\" is not the id of a (valid) entry of \"electricity\"");
    }

    if (const json* v = top.object("host_system", Need::Always)) {
        Reader r(context, *v, "/host_system");
        engine::HostSystem h;
        if (auto n = r.number("cost_cny", Need::Always, {500, 200000, "CNY", "the host without its GPU(s)"}))
            h.cost_cny = *n;
        if (auto n = r.number("power_w", Need::Always, {0, 2000, "W", "average draw of the host without GPUs"}))
            h.power_w = *n;
        if (auto n = r.number("psu_w", Need::Optional, {200, 5000, "W", "rating of the host's power supply"}))
            h.psu_w = *n;
        if (auto n = r.number("ram_gib", Need::Optional, {1, 65536, "GiB", "the host's RAM (optimizer offload keeps its states there)"}))
            h.ram_bytes = *n * engine::kBytesPerGiB;
        if (auto s = r.date("as_of", Need::Always)) h.as_of = *s;
        if (auto s = r.text("source", Need::Always)) h.source = *s;
        if (auto s = r.text("note", Need::Optional)) h.note = *s;
        r.finish();
        if (r.ok()) out.host_system = h;
    }

    if (const json* v = top.object("resale_value", Need::Always)) {
        Reader r(context, *v, "/resale_value");
        engine::ResaleValue rv;
        if (const json* points = r.array("points", Need::Always)) {
            if (points->empty()) r.report_key("points", "must hold at least one {\"months\", \"fraction\"} point");
            for (std::size_t i = 0; i < points->size(); ++i) {
                const std::string at = child("/resale_value/points", i);
                const json& item = (*points)[i];
                if (!item.is_object()) {
                    r.report(at, std::string("each point must be an object, not ") + type_name(item));
                    continue;
                }
                Reader p(context, item, at);
                engine::ResalePoint point;
                if (auto n = p.number("months", Need::Always, {0, 240, "months", ""})) point.age_months = *n;
                if (auto n = p.number("fraction", Need::Always, {0, 1, "", "resale price / new price"}))
                    point.value_fraction = *n;
                p.finish();
                if (p.ok() && !rv.points.empty()) {
                    if (point.age_months <= rv.points.back().age_months)
                        p.report(child(at, "months"), "points must be in ascending order of months");
                    else if (point.value_fraction > rv.points.back().value_fraction)
                        p.report(child(at, "fraction"), "a card must not gain value with age: fraction must not "
                                                        "rise from one point to the next");
                }
                r.absorb(p);
                if (p.ok()) rv.points.push_back(point);
            }
        }
        if (auto s = r.date("as_of", Need::Always)) rv.as_of = *s;
        if (auto s = r.text("source", Need::Always)) rv.source = *s;
        r.finish();
        if (r.ok()) out.resale_value = rv;
    }

    auto fraction = [&](const char* key, double min, double max, const char* hint, engine::SourcedFraction& into) {
        if (const json* v = top.object(key, Need::Always)) {
            Reader r(context, *v, child("", key));
            engine::SourcedFraction f;
            if (auto n = r.number("value", Need::Always, {min, max, "", hint})) f.value_fraction = *n;
            if (auto s = r.text("source", Need::Always)) f.source = *s;
            r.finish();
            if (r.ok()) into = f;
        }
    };
    fraction("utilization_fraction", 0.01, 1, "the fraction of the year a bought card trains", out.utilization);
    fraction("reserve_fraction", 0, 0.9, "the fraction of GPU memory kept free", out.reserve);

    // What a session spends beside training: each value with its source; 0 = unknown (the term is not counted).
    if (const json* v = top.object("session_overheads", Need::Optional)) {
        Reader r(context, *v, "/session_overheads");
        auto quantity = [&](const char* key, double min, double max, const char* unit, double scale,
                            engine::SourcedQuantity& into) {
            if (const json* q = r.object(key, Need::Always)) {
                Reader qr(context, *q, child("/session_overheads", key));
                engine::SourcedQuantity sq;
                if (auto n = qr.number("value", Need::Always, {min, max, unit, "0 = unknown (not counted)"}))
                    sq.value = *n * scale;
                if (auto t = qr.text("source", Need::Always)) sq.source = *t;
                qr.finish();
                r.absorb(qr);
                if (qr.ok()) into = sq;
            }
        };
        engine::SessionOverheads so;
        quantity("instance_start_min", 0, 120, "min", 60, so.instance_start_s);
        quantity("environment_setup_min", 0, 600, "min", 60, so.environment_setup_s);
        quantity("download_mb_per_s", 0, 100000, "MB/s", 1e6, so.download_bytes_per_s);
        quantity("checkpoint_write_mb_per_s", 0, 100000, "MB/s", 1e6, so.checkpoint_write_bytes_per_s);
        quantity("spot_interruptions_per_hour", 0, 10, "per hour", 1, so.spot_interruptions_per_hour);
        r.finish();
        if (r.ok()) out.overheads = so;
    }

    if (const json* v = top.object("storage", Need::Optional)) {
        Reader r(context, *v, "/storage");
        engine::StoragePrice s;
        if (auto n = r.number("price_per_gb_month_cny", Need::Always, {0.001, 100, "CNY per GB-month", ""}))
            s.price_per_gb_month_cny = *n;
        if (auto t = r.text("source", Need::Always)) s.source = *t;
        r.finish();
        if (r.ok()) out.storage = s;
    }
    top.finish();
    return out;
}

// --- Access and payment facts ----------------------------------------------------------------------------------
// "access": [{"provider": "RunPod", "facts": {"international_payment_only": {"value": true, "source", "as_of"}}}]:
// one record per provider, given to every offer of that provider. A fact not written stays unknown.
void read_access(const Context& context, const json& list, const std::string& pointer,
                 std::vector<engine::CloudOffer>& offers) {
    std::set<std::string> seen;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        if (!list[i].is_object()) {
            context.report(at, std::string("each access record must be an object, not ") + type_name(list[i]));
            continue;
        }
        Reader r(context, list[i], at);
        const std::optional<std::string> provider = r.text("provider", Need::Always);
        engine::AccessFacts facts;
        if (const json* f = r.object("facts", Need::Always)) {
            Reader fr(context, *f, child(at, "facts"));
            auto fact = [&](const char* key, engine::AccessFact& into) {
                const json* v = fr.object(key, Need::Optional);
                if (v == nullptr) return;
                Reader vr(context, *v, child(fr.pointer(), key));
                engine::AccessFact a;
                if (auto b = vr.boolean("value", Need::Always)) a.value = *b ? engine::Fact::kYes : engine::Fact::kNo;
                if (auto t = vr.text("source", Need::Always)) a.source = *t;  // a fact without its page is not kept
                if (auto t = vr.date("as_of", Need::Always)) a.as_of = *t;
                vr.text("note", Need::Optional);
                vr.finish();
                fr.absorb(vr);
                if (vr.ok()) into = a;
            };
            fact("blocked_in_mainland_china", facts.blocked_in_mainland_china);
            fact("international_payment_only", facts.international_payment_only);
            fact("phone_verification", facts.phone_verification);
            fact("real_name_verification", facts.real_name_verification);
            fr.finish();
            r.absorb(fr);
        }
        r.finish();
        if (!provider) continue;
        if (!seen.insert(*provider).second) {
            r.report_key("provider", "provider \"" + *provider + "\" has an access record already (one per provider)");
            continue;
        }
        bool matched = false;
        for (engine::CloudOffer& o : offers)
            if (o.provider == *provider) {
                o.access = facts;
                matched = true;
            }
        if (!matched)
            r.report_key("provider", "no offer has provider \"" + *provider +
                                         "\": write the provider exactly as its offers do");
    }
}

// --- Catalog assembly ----------------------------------------------------------------------------------------

// Checks "schema_version": 1 and the top-level keys of a gpus/offers document; returns the records array or nullptr.
// `extra_key`: a second, optional array the document may hold (the offers' "access"), returned in `extra`.
const json* records_array(const Context& context, const json& doc, const char* key, const char* extra_key = nullptr,
                          const json** extra = nullptr) {
    Reader top(context, doc, "");
    std::optional<int> version = top.whole("schema_version", Need::Always, {1, 1000, "", ""});
    top.text("about", Need::Optional);
    const json* list = top.array(key, Need::Always);
    if (extra_key != nullptr) *extra = top.array(extra_key, Need::Optional);
    top.finish();
    if (version && *version != kSchemaVersion) {
        context.report("/schema_version", "is " + std::to_string(*version) + "; this build of gpuguide reads " +
                                              std::to_string(kSchemaVersion) + " (update gpuguide or the file)");
        return nullptr;
    }
    if (!version) return nullptr;
    return list;
}

bool settings_version_ok(const Context& context, const json& doc) {
    auto it = doc.find("schema_version");
    if (it == doc.end()) {
        context.report("", "missing key \"schema_version\" (write \"schema_version\": 1)");
        return false;
    }
    if (!it->is_number() || it->get<double>() != kSchemaVersion) {
        context.report("/schema_version", std::string("must be ") + std::to_string(kSchemaVersion) + ", is " +
                                              it->dump());
        return false;
    }
    return true;
}

template <class T>
const T* find_by_id(const std::vector<T>& items, std::string_view id) {
    for (const T& item : items)
        if (item.id == id) return &item;
    return nullptr;
}

}  // namespace

const engine::GpuSpec* Catalog::find_gpu(std::string_view id) const { return find_by_id(gpus, id); }
const engine::CloudOffer* Catalog::find_offer(std::string_view id) const { return find_by_id(offers, id); }
bool Catalog::rents(std::string_view gpu_id) const { return most_rented_at_once(gpu_id) > 0; }
int Catalog::most_rented_at_once(std::string_view gpu_id) const {
    int most = 0;
    for (const engine::CloudOffer& o : offers)
        if (o.gpu_id == gpu_id) most = std::max(most, o.gpu_count);
    return most;
}
const engine::ElectricityPrice* Catalog::default_electricity() const {
    return find_by_id(settings.electricity, settings.default_electricity_id);
}

std::string newest_allowed_date() {
    // __DATE__ is "Mmm dd yyyy" (C++17 [cpp.predefined]); the day is space-padded.
    static const std::string date = [] {
        const char* d = __DATE__;
        const char* months = "JanFebMarAprMayJunJulAugSepOctNovDec";
        int month = 1;
        for (int m = 0; m < 12; ++m)
            if (std::strncmp(d, months + 3 * m, 3) == 0) month = m + 1;
        const int day = (d[4] == ' ' ? 0 : d[4] - '0') * 10 + (d[5] - '0');
        char out[32];
        std::snprintf(out, sizeof out, "%.4s-%02d-%02d", d + 7, month, day);
        return std::string(out);
    }();
    return date;
}

Catalog parse_catalog(std::string_view gpus_json, std::string_view offers_json, std::string_view settings_json,
                      std::vector<Problem>& problems) {
    Catalog catalog;
    Ids gpu_ids;
    {
        const Context context{kGpusFile, Mode::Bundled, &problems};
        json doc;
        if (parse_document(context, gpus_json, doc))
            if (const json* list = records_array(context, doc, "gpus"))
                read_gpus(context, *list, "/gpus", gpu_ids, catalog.gpus);
    }
    {
        const Context context{kOffersFile, Mode::Bundled, &problems};
        json doc;
        Ids offer_ids;
        const json* access = nullptr;
        if (parse_document(context, offers_json, doc))
            if (const json* list = records_array(context, doc, "offers", "access", &access)) {
                read_offers(
                    context, *list, "/offers", offer_ids,
                    [&](const std::string& id) { return catalog.find_gpu(id) != nullptr; },
                    [&](const std::string& id) { return gpu_ids.dropped.count(id) != 0; }, catalog.offers);
                if (access != nullptr) read_access(context, *access, "/access", catalog.offers);
            }
    }
    {
        const Context context{kSettingsFile, Mode::Bundled, &problems};
        json doc;
        if (parse_document(context, settings_json, doc) && settings_version_ok(context, doc))
            catalog.settings = parse_settings(context, doc);
    }
    return catalog;
}

namespace {
// --- The user's pinned scenarios (issue 33) -----------------------------------------------------------------------
// "pins": [SCENARIO...]: the page's comparison, exported with the user's data. The catalog does not use them; each
// must be a scenario the page and the CLI accept (parse_decision_scenario_json) against the merged catalog, so a
// pin on the user's own card is valid in the same file. At most kMaxPins.
void check_pins(const Context& context, const json& list, const std::string& pointer, const Catalog& merged) {
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = child(pointer, i);
        if (static_cast<int>(i) >= kMaxPins) {
            context.report(at, "more than " + std::to_string(kMaxPins) + " pinned scenarios (the page compares at most " +
                                   std::to_string(kMaxPins) + ")");
            break;
        }
        if (!list[i].is_object()) {
            context.report(at, std::string("each pin must be a scenario (an object with \"model\" and \"gpu\"), not ") +
                                   type_name(list[i]));
            continue;
        }
        const ParsedDecision parsed = parse_decision_scenario_json(list[i], merged, context.file);
        for (const Problem& p : parsed.problems) context.report(at + p.pointer, p.message);
    }
}
}  // namespace

Catalog merge_user_data(const Catalog& base, std::string_view user_json, std::vector<Problem>& problems) {
    Catalog merged = base;
    const Context context{kUserDataFile, Mode::User, &problems};
    json doc;
    if (!parse_document(context, user_json, doc)) return merged;
    Reader top(context, doc, "");
    std::optional<int> version = top.whole("schema_version", Need::Always, {1, 1000, "", ""});
    top.text("about", Need::Optional);
    const json* gpus = top.array("gpus", Need::Optional);
    const json* offers = top.array("offers", Need::Optional);
    const json* calibrations = top.array("calibrations", Need::Optional);
    const json* pins = top.array("pins", Need::Optional);
    top.finish();
    if (!version) return merged;
    if (*version != kSchemaVersion) {
        context.report("/schema_version", "is " + std::to_string(*version) + "; this build of gpuguide reads " +
                                              std::to_string(kSchemaVersion));
        return merged;
    }

    // Past the caps (catalog.h) only the first records are read, with a problem that says so: a file of 10,000
    // cards froze the page for seconds at every start and change, and no one compares that many of their own.
    json kept_gpus, kept_offers, kept_calibrations;
    auto capped = [&](const json*& records, std::size_t cap, const char* key, const char* what, json& kept) {
        if (records == nullptr || records->size() <= cap) return;
        context.report(std::string("/") + key, "holds " + std::to_string(records->size()) + " " + what +
                                                   "; gpuguide reads at most " + std::to_string(cap) +
                                                   " of your own, and read the first " + std::to_string(cap));
        kept = json(records->begin(), records->begin() + std::ptrdiff_t(cap));
        records = &kept;
    };
    capped(gpus, kMaxUserGpus, "gpus", "GPUs", kept_gpus);
    capped(offers, kMaxUserOffers, "offers", "offers", kept_offers);
    capped(calibrations, kMaxUserCalibrations, "calibrations", "calibrations", kept_calibrations);

    Ids gpu_ids;
    if (gpus != nullptr) {
        std::vector<engine::GpuSpec> user_gpus;
        read_gpus(context, *gpus, "/gpus", gpu_ids, user_gpus);
        for (engine::GpuSpec& g : user_gpus) {
            auto it = std::find_if(merged.gpus.begin(), merged.gpus.end(),
                                   [&](const engine::GpuSpec& b) { return b.id == g.id; });
            if (it != merged.gpus.end()) {
                // A record saved before visible_memory and ecc_on_by_default existed (a price copied from the
                // bundled card) keeps the bundled card's nvidia-smi reading and ECC state while its memory is the same.
                if (g.visible_memory_bytes == 0 && g.memory_bytes == it->memory_bytes && g.ecc == it->ecc) {
                    g.visible_memory_bytes = it->visible_memory_bytes;
                    g.visible_memory_ecc_on = it->visible_memory_ecc_on;
                    g.visible_memory_source = it->visible_memory_source;
                    g.visible_memory_as_of = it->visible_memory_as_of;
                    g.ecc_on_by_default = it->ecc_on_by_default;
                }
                *it = std::move(g);  // the user's record replaces the bundled one of the same id
            } else
                merged.gpus.push_back(std::move(g));
        }
    }
    if (offers != nullptr) {
        Ids offer_ids;
        std::vector<engine::CloudOffer> user_offers;
        read_offers(
            context, *offers, "/offers", offer_ids,
            [&](const std::string& id) { return merged.find_gpu(id) != nullptr; },
            [&](const std::string& id) { return gpu_ids.dropped.count(id) != 0; }, user_offers);
        for (engine::CloudOffer& o : user_offers) {
            auto it = std::find_if(merged.offers.begin(), merged.offers.end(),
                                   [&](const engine::CloudOffer& b) { return b.id == o.id; });
            if (it != merged.offers.end())
                *it = std::move(o);
            else
                merged.offers.push_back(std::move(o));
        }
    }
    if (calibrations != nullptr) read_calibrations(context, *calibrations, "/calibrations", merged);
    if (pins != nullptr) check_pins(context, *pins, "/pins", merged);
    return merged;
}

// --- Embedded data -------------------------------------------------------------------------------------------

namespace {
struct Embedded {
    std::vector<Problem> problems;
    Catalog catalog;
    Embedded()
        : catalog(parse_catalog(embedded_file(kGpusFile), embedded_file(kOffersFile), embedded_file(kSettingsFile),
                                problems)) {}
};
const Embedded& embedded() {
    static const Embedded instance;  // parsed on first use; thread-safe (C++11 [stmt.dcl]/4)
    return instance;
}
}  // namespace

const Catalog& embedded_catalog() { return embedded().catalog; }
const std::vector<Problem>& embedded_catalog_problems() { return embedded().problems; }

}  // namespace gg::catalog
