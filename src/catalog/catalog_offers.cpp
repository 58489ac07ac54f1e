// Cloud offer records (data/cloud_offers.json and the user's own offers) read into engine::CloudOffer, and the
// providers' access and payment facts given to their offers. The format and each check: docs/catalog.md.
#include "catalog/catalog_records.h"

namespace gg::catalog::records {
namespace {

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

}  // namespace

// Reads the "offers" array. `gpu_known` says whether a GPU id is in the catalog being built; `gpu_dropped` whether it
// was in a file but dropped for problems (so the message can say so).
void read_offers(const Context& context, const json& list, const std::string& pointer, Ids& ids,
                 const std::function<bool(const std::string&)>& gpu_known,
                 const std::function<bool(const std::string&)>& gpu_dropped, std::vector<engine::CloudOffer>& out) {
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

}  // namespace gg::catalog::records
