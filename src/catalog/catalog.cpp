// Loading and validating the catalog (data/gpus.json, data/cloud_offers.json, data/settings.json) into engine
// structs in base units: the files assembled into one Catalog, the user's data merged in, the embedded data. Never
// throws, never aborts: JSON is parsed with exceptions off and every value's type is checked before it is read.
// The record reader and the readers of each kind of record: catalog_records.h.
//
// Sections: catalog assembly - the user's pinned scenarios - the user's data - embedded data
// The format of each file and the meaning of each check: docs/catalog.md.
#include "catalog/catalog.h"
#include "catalog/catalog_records.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <set>
#include <utility>

#include "catalog/decision_json.h"
#include "catalog/embedded_data.h"
#include "catalog/json_text.h"
#include "engine/workload.h"

namespace gg::catalog {

using namespace records;  // catalog_records.h

namespace {

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