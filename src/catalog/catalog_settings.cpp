// data/settings.json read into engine::CostSettings: electricity prices, exchange rates, the ranking's and the
// advisor's factors, each with its source. The format and each check: docs/catalog.md.
#include "catalog/catalog_records.h"

namespace gg::catalog::records {

// --- Settings ------------------------------------------------------------------------------------------------

namespace {

// "exchange_rate": {"cny_per_usd", "as_of", "source"}.
void read_exchange_rate(const Context& context, Reader& top, engine::CostSettings& out) {
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
}

// "electricity": the prices per kWh, unique ids; "default_electricity": one of them.
void read_electricity(const Context& context, Reader& top, engine::CostSettings& out) {
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
}

// "host_system": what a bought card needs around it.
void read_host_system(const Context& context, Reader& top, engine::CostSettings& out) {
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
}

// "resale_value": points {"months", "fraction"}, ascending in months, never gaining value.
void read_resale_value(const Context& context, Reader& top, engine::CostSettings& out) {
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
}

// "utilization_fraction" and "reserve_fraction": a value with its source each.
void read_fractions(const Context& context, Reader& top, engine::CostSettings& out) {
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
}

void read_session_overheads(const Context& context, Reader& top, engine::CostSettings& out) {
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
}

// "storage": the price of a GB-month of cloud storage.
void read_storage(const Context& context, Reader& top, engine::CostSettings& out) {
    if (const json* v = top.object("storage", Need::Optional)) {
        Reader r(context, *v, "/storage");
        engine::StoragePrice s;
        if (auto n = r.number("price_per_gb_month_cny", Need::Always, {0.001, 100, "CNY per GB-month", ""}))
            s.price_per_gb_month_cny = *n;
        if (auto t = r.text("source", Need::Always)) s.source = *t;
        r.finish();
        if (r.ok()) out.storage = s;
    }
}

}  // namespace

engine::CostSettings parse_settings(const Context& context, const json& doc) {
    engine::CostSettings out;
    Reader top(context, doc, "");
    top.value("schema_version", Need::Always);  // checked by the caller
    top.text("about", Need::Optional);
    read_exchange_rate(context, top, out);
    read_electricity(context, top, out);
    read_host_system(context, top, out);
    read_resale_value(context, top, out);
    read_fractions(context, top, out);
    read_session_overheads(context, top, out);
    read_storage(context, top, out);
    top.finish();
    return out;
}

}  // namespace gg::catalog::records
