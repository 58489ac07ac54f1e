// Loading data/compatibility.json (see compat_data.h). Versions "12.8" become engine::Version, compute
// capabilities "8.9" become 89, memory in GiB becomes bytes: the one place these units convert.
#include "catalog/compat_data.h"

#include <cmath>
#include <string>

#include "catalog/embedded_data.h"

namespace gg::catalog {
namespace {

using nlohmann::json;

struct Reader {
    std::vector<Problem>& problems;
    void problem(const std::string& pointer, const std::string& message) const {
        problems.push_back({kCompatibilityFile, pointer, message});
    }
    bool string(const json& o, const std::string& ptr, const char* key, std::string& out, bool required = true) const {
        auto it = o.find(key);
        if (it == o.end() || it->is_null()) {
            if (required) problem(ptr + "/" + key, std::string("missing: expected a string for ") + key);
            return !required;
        }
        if (!it->is_string()) {
            problem(ptr + "/" + key, std::string("expected a string for ") + key);
            return false;
        }
        out = it->get<std::string>();
        return true;
    }
    // "major.minor" or null (-> 0.0 = unknown).
    bool version(const json& o, const std::string& ptr, const char* key, engine::Version& out) const {
        auto it = o.find(key);
        if (it == o.end() || it->is_null()) return true;
        if (it->is_string()) {
            const std::string s = it->get<std::string>();
            const auto dot = s.find('.');
            if (dot != std::string::npos && dot > 0 && dot + 1 < s.size() &&
                s.find_first_not_of("0123456789.") == std::string::npos) {
                out.major = std::stoi(s.substr(0, dot));
                out.minor = std::stoi(s.substr(dot + 1));
                if (out.major > 0) return true;
            }
        }
        problem(ptr + "/" + key, std::string("expected a version string \"major.minor\" (e.g. \"12.8\") or null for ") + key);
        return false;
    }
    bool boolean(const json& o, const std::string& ptr, const char* key, bool& out) const {
        auto it = o.find(key);
        if (it == o.end() || !it->is_boolean()) {
            problem(ptr + "/" + key, std::string("expected true or false for ") + key);
            return false;
        }
        out = it->get<bool>();
        return true;
    }
    // A positive number, or null when null_ok (-> 0).
    bool number(const json& o, const std::string& ptr, const char* key, double& out, bool null_ok) const {
        auto it = o.find(key);
        if ((it == o.end() || it->is_null()) && null_ok) {
            out = 0;
            return true;
        }
        if (it == o.end() || !it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
            problem(ptr + "/" + key, std::string("expected a positive number for ") + key);
            return false;
        }
        out = it->get<double>();
        return true;
    }
    const json* array(const json& doc, const char* key) const {
        auto it = doc.find(key);
        if (it == doc.end() || !it->is_array()) {
            problem(std::string("/") + key, std::string("expected an array '") + key + "'");
            return nullptr;
        }
        return &*it;
    }
};

int cc_of(const engine::Version& v) { return v.major * 10 + v.minor; }

}  // namespace

engine::CompatData parse_compat_data(std::string_view text, std::vector<Problem>& problems) {
    engine::CompatData out;
    const Reader r{problems};
    const json doc = json::parse(text.begin(), text.end(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object()) {
        r.problem("", "not a JSON object (check the syntax of data/compatibility.json)");
        return out;
    }
    if (const json* a = r.array(doc, "features")) {
        for (std::size_t i = 0; i < a->size(); ++i) {
            const json& e = (*a)[i];
            const std::string p = "/features/" + std::to_string(i);
            engine::FeatureThreshold f;
            engine::Version cc;
            if (!e.is_object()) { r.problem(p, "expected an object"); continue; }
            bool ok = r.string(e, p, "id", f.id) && r.version(e, p, "min_compute_capability", cc) &&
                      r.string(e, p, "source", f.source);
            if (ok && !cc.known()) { r.problem(p + "/min_compute_capability", "required"); ok = false; }
            f.min_cc = cc_of(cc);
            if (ok) out.features.push_back(f);
        }
    }
    if (const json* a = r.array(doc, "architectures")) {
        for (std::size_t i = 0; i < a->size(); ++i) {
            const json& e = (*a)[i];
            const std::string p = "/architectures/" + std::to_string(i);
            if (!e.is_object()) { r.problem(p, "expected an object"); continue; }
            engine::ArchSupport s;
            engine::Version cc;
            bool ok = r.string(e, p, "architecture", s.architecture) && r.version(e, p, "compute_capability", cc) &&
                      r.version(e, p, "min_cuda", s.min_cuda) && r.version(e, p, "min_pytorch", s.min_pytorch) &&
                      r.string(e, p, "pytorch_wheels_dropped", s.pytorch_wheels_dropped, false) &&
                      r.version(e, p, "cuda_dropped", s.cuda_dropped) && r.string(e, p, "source", s.source);
            if (ok && !cc.known()) { r.problem(p + "/compute_capability", "required"); ok = false; }
            s.cc = cc_of(cc);
            if (ok) out.architectures.push_back(s);
        }
    }
    if (const json* a = r.array(doc, "rocm")) {
        for (std::size_t i = 0; i < a->size(); ++i) {
            const json& e = (*a)[i];
            const std::string p = "/rocm/" + std::to_string(i);
            if (!e.is_object()) { r.problem(p, "expected an object"); continue; }
            engine::RocmSupport s;
            if (r.string(e, p, "gpu", s.gpu_id) && r.string(e, p, "gfx", s.gfx) && r.boolean(e, p, "linux", s.on_linux) &&
                r.boolean(e, p, "windows", s.on_windows) && r.string(e, p, "source", s.source))
                out.rocm.push_back(s);
        }
    }
    if (const json* a = r.array(doc, "export_variants")) {
        for (std::size_t i = 0; i < a->size(); ++i) {
            const json& e = (*a)[i];
            const std::string p = "/export_variants/" + std::to_string(i);
            if (!e.is_object()) { r.problem(p, "expected an object"); continue; }
            engine::ExportVariant v;
            if (r.string(e, p, "gpu", v.gpu_id) && r.string(e, p, "base", v.base_gpu_id) && r.string(e, p, "source", v.source))
                out.export_variants.push_back(v);
        }
    }
    auto bt = doc.find("budget_tiers");
    if (bt == doc.end() || !bt->is_object()) {
        r.problem("/budget_tiers", "expected an object {source, tiers: [...]}");
    } else {
        r.string(*bt, "/budget_tiers", "source", out.budget_tiers_source);
        auto tiers = bt->find("tiers");
        if (tiers == bt->end() || !tiers->is_array()) {
            r.problem("/budget_tiers/tiers", "expected an array of {id, max_price_cny, suggested_memory_gib}");
        } else {
            double previous = 0;
            for (std::size_t i = 0; i < tiers->size(); ++i) {
                const json& e = (*tiers)[i];
                const std::string p = "/budget_tiers/tiers/" + std::to_string(i);
                if (!e.is_object()) { r.problem(p, "expected an object"); continue; }
                engine::BudgetTier t;
                double gib = 0;
                if (!(r.string(e, p, "id", t.id) && r.number(e, p, "max_price_cny", t.max_price_cny, true) &&
                      r.number(e, p, "suggested_memory_gib", gib, true)))
                    continue;
                if (previous == 0 && i > 0) {
                    r.problem(p, "a tier after the open-ended one (max_price_cny null) is never reached: make it the last");
                    continue;
                }
                if (t.max_price_cny > 0 && t.max_price_cny <= previous) {
                    r.problem(p + "/max_price_cny", "tiers must be in ascending max_price_cny");
                    continue;
                }
                previous = t.max_price_cny;
                t.suggested_memory_bytes = gib * double(1ull << 30);  // GiB = 2^30 bytes
                out.budget_tiers.push_back(t);
            }
        }
    }
    return out;
}

namespace {
struct Embedded {
    std::vector<Problem> problems;
    engine::CompatData data;
};
const Embedded& embedded() {
    static const Embedded e = [] {
        Embedded out;
        out.data = parse_compat_data(embedded_file(kCompatibilityFile), out.problems);
        return out;
    }();
    return e;
}
}  // namespace

const engine::CompatData& embedded_compat_data() { return embedded().data; }
const std::vector<Problem>& embedded_compat_data_problems() { return embedded().problems; }

}  // namespace gg::catalog
