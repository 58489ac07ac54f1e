// The catalog's records as JSON in base units (bytes, bytes/s, FLOP/s, W, s): what `gpuguide gpus --json`,
// `offers --json` and `settings --json` print. Unknown values and unsupported rates are null, never 0.
#include <cmath>
#include <cstdint>
#include <utility>

#include "catalog/catalog.h"

namespace gg::catalog {
namespace {

using nlohmann::json;

// Whole numbers as JSON integers (25769803776, not 25769803776.0); 0 (= unknown / unsupported) as null.
json number_or_null(double value) {
    if (value == 0 || !std::isfinite(value)) return nullptr;
    if (value == std::floor(value) && std::fabs(value) < 9007199254740992.0)  // 2^53: exact in a double
        return static_cast<std::int64_t>(value);
    return value;
}

json text_or_null(const std::string& text) { return text.empty() ? json(nullptr) : json(text); }

// The same in both formats (CNY amounts, dates): null when neither a new nor a used price is known.
json street_price_json(const engine::StreetPrice& s) {
    if (s.new_cny == 0 && s.used_cny == 0) return nullptr;
    return {{"new", number_or_null(s.new_cny)}, {"used", number_or_null(s.used_cny)}, {"as_of", s.as_of},
            {"source", s.source}};
}

}  // namespace

const char* billing_name(engine::Billing billing) {
    switch (billing) {
        case engine::Billing::OnDemand: return "on-demand";
        case engine::Billing::Spot: return "spot";
        case engine::Billing::Monthly: return "monthly";
        case engine::Billing::Free: return "free";
    }
    return "on-demand";
}

json gpu_to_json(const engine::GpuSpec& g) {
    json j;
    j["id"] = g.id;
    j["name"] = g.name;
    j["vendor"] = text_or_null(g.vendor);
    j["segment"] = text_or_null(g.segment);
    j["architecture"] = text_or_null(g.architecture);
    j["compute_capability"] = g.compute_capability_major > 0 ? json(std::to_string(g.compute_capability_major) + "." +
                                                                    std::to_string(g.compute_capability_minor))
                                                              : json(nullptr);
    j["launch_year"] = number_or_null(g.launch_year);
    j["memory_bytes"] = number_or_null(g.memory_bytes);
    j["memory_type"] = text_or_null(g.memory_type);
    j["memory_bandwidth_bytes_per_s"] = number_or_null(g.memory_bandwidth_bytes_per_s);
    const engine::DenseFlopPerS& f = g.dense_flop_per_s;
    j["dense_flop_per_s"] = {{"fp32", number_or_null(f.fp32)},     {"tf32", number_or_null(f.tf32)},
                             {"fp16", number_or_null(f.fp16)},     {"fp16_fp16acc", number_or_null(f.fp16_fp16acc)},
                             {"bf16", number_or_null(f.bf16)},     {"fp8", number_or_null(f.fp8)},
                             {"int8", number_or_null(f.int8)}};
    j["tdp_w"] = number_or_null(g.tdp_w);
    j["form_factor"] = text_or_null(g.form_factor);
    j["pcie_gen"] = number_or_null(g.pcie_gen);
    j["pcie_lanes"] = number_or_null(g.pcie_lanes);
    j["nvlink_bytes_per_s"] = number_or_null(g.nvlink_bytes_per_s);
    j["ecc"] = g.ecc;
    j["ecc_on_by_default"] = g.ecc_on_by_default;
    j["laptop"] = g.laptop;
    j["visible_memory"] = g.visible_memory_bytes > 0
                              ? json{{"total_bytes", g.visible_memory_bytes}, {"ecc_on", g.visible_memory_ecc_on},
                                     {"source", g.visible_memory_source}, {"as_of", g.visible_memory_as_of}}
                              : json(nullptr);
    j["launch_price_usd"] = number_or_null(g.launch_price_usd);
    j["street_price_cny"] = street_price_json(g.street_price);
    j["notes"] = g.notes;
    j["source"] = g.source;
    j["as_of"] = g.as_of;
    return j;
}

json gpu_to_data_json(const engine::GpuSpec& g) {
    // data/gpus.json's units (docs/catalog.md): GiB, decimal GB/s, TFLOPS. Text keys only when known.
    auto scaled = [](double value, double unit) { return value > 0 ? json(value / unit) : json(nullptr); };
    json j;
    j["id"] = g.id;
    j["name"] = g.name;
    for (const auto& [key, text] : {std::pair<const char*, const std::string*>{"vendor", &g.vendor},
                                    {"segment", &g.segment}, {"architecture", &g.architecture}})
        if (!text->empty()) j[key] = *text;
    j["compute_capability"] = g.compute_capability_major > 0 ? json(std::to_string(g.compute_capability_major) + "." +
                                                                    std::to_string(g.compute_capability_minor))
                                                              : json(nullptr);
    if (g.launch_year > 0) j["launch_year"] = g.launch_year;
    j["memory_gib"] = g.memory_bytes / 1073741824.0;
    if (!g.memory_type.empty()) j["memory_type"] = g.memory_type;
    j["memory_bandwidth_gb_per_s"] = g.memory_bandwidth_bytes_per_s / 1e9;
    const engine::DenseFlopPerS& f = g.dense_flop_per_s;
    j["dense_tflops"] = {{"fp32", scaled(f.fp32, 1e12)}, {"tf32", scaled(f.tf32, 1e12)},
                         {"fp16", scaled(f.fp16, 1e12)}, {"fp16_fp16acc", scaled(f.fp16_fp16acc, 1e12)},
                         {"bf16", scaled(f.bf16, 1e12)}, {"fp8", scaled(f.fp8, 1e12)},
                         {"int8", scaled(f.int8, 1e12)}};
    j["tdp_w"] = number_or_null(g.tdp_w);
    if (!g.form_factor.empty()) j["form_factor"] = g.form_factor;
    j["pcie_gen"] = number_or_null(g.pcie_gen);
    j["pcie_lanes"] = number_or_null(g.pcie_lanes);
    j["nvlink_gb_per_s"] = scaled(g.nvlink_bytes_per_s, 1e9);
    j["ecc"] = g.ecc;
    j["ecc_on_by_default"] = g.ecc_on_by_default;
    if (g.laptop) j["laptop"] = true;
    j["visible_memory"] = g.visible_memory_bytes > 0
                              ? json{{"total_mib", g.visible_memory_bytes / double(1 << 20)},
                                     {"ecc_on", g.visible_memory_ecc_on}, {"source", g.visible_memory_source},
                                     {"as_of", g.visible_memory_as_of}}
                              : json(nullptr);
    j["launch_price_usd"] = number_or_null(g.launch_price_usd);
    j["street_price_cny"] = street_price_json(g.street_price);
    if (!g.notes.empty()) j["notes"] = g.notes;
    if (!g.source.empty()) j["source"] = g.source;
    if (!g.as_of.empty()) j["as_of"] = g.as_of;
    return j;
}

json offer_to_json(const engine::CloudOffer& o) {
    json j;
    j["id"] = o.id;
    j["provider"] = o.provider;
    j["region"] = text_or_null(o.region);
    j["instance"] = text_or_null(o.instance);
    j["gpu"] = o.gpu_id;
    j["gpu_count"] = o.gpu_count;
    j["price_per_hour"] = o.price_per_hour;
    j["currency"] = o.currency;
    j["billing"] = billing_name(o.billing);
    j["billing_granularity_s"] = number_or_null(o.billing_granularity_s);
    j["price_per_month"] = o.billing == engine::Billing::Monthly ? number_or_null(o.price_per_month) : json(nullptr);
    if (o.host_ram_bytes > 0) {
        j["host_ram_gib"] = o.host_ram_bytes / engine::kBytesPerGiB;
        j["host_ram_source"] = o.host_ram_source;
    }
    j["vcpu_count"] = o.vcpu_count > 0 ? json(o.vcpu_count) : json(nullptr);
    if (!o.vcpu_source.empty()) j["vcpu_source"] = o.vcpu_source;
    if (o.has_limits) {
        const engine::SessionLimits& l = o.limits;
        j["session_limits"] = {{"max_session_h", l.max_session_s > 0 ? json(l.max_session_s / 3600) : json(nullptr)},
                               {"idle_timeout_min", l.idle_timeout_s > 0 ? json(l.idle_timeout_s / 60) : json(nullptr)},
                               {"gpu_hours_per_week", l.gpu_s_per_week > 0 ? json(l.gpu_s_per_week / 3600) : json(nullptr)},
                               {"gpu_guaranteed", l.gpu_guaranteed},
                               {"disk_gb", l.disk_bytes > 0 ? json(l.disk_bytes / 1e9) : json(nullptr)},
                               {"source", l.source},
                               {"as_of", l.as_of}};
        // null means "not given": drop those keys so the record reads back as written
        for (const char* k : {"max_session_h", "idle_timeout_min", "gpu_hours_per_week", "disk_gb"})
            if (j["session_limits"][k].is_null()) j["session_limits"].erase(k);
    }
    j["as_of"] = o.as_of;
    j["source"] = o.source;
    j["notes"] = o.notes;
    return j;
}

json settings_to_json(const engine::CostSettings& s) {
    json j;
    j["schema_version"] = 1;
    j["exchange_rate"] = {{"cny_per_usd", number_or_null(s.exchange_rate.cny_per_usd)},
                          {"as_of", s.exchange_rate.as_of},
                          {"source", s.exchange_rate.source}};
    json electricity = json::array();
    for (const engine::ElectricityPrice& e : s.electricity)
        electricity.push_back({{"id", e.id},
                               {"region", e.region},
                               {"label_en", e.label_en},
                               {"label_zh", e.label_zh},
                               {"price_per_kwh", e.price_per_kwh},
                               {"currency", e.currency},
                               {"as_of", e.as_of},
                               {"source", e.source}});
    j["electricity"] = electricity;
    j["default_electricity"] = text_or_null(s.default_electricity_id);
    j["host_system"] = {{"cost_cny", number_or_null(s.host_system.cost_cny)},
                        {"power_w", s.host_system.power_w},
                        {"psu_w", number_or_null(s.host_system.psu_w)},
                        {"ram_gib", s.host_system.ram_bytes > 0 ? json(s.host_system.ram_bytes / engine::kBytesPerGiB) : json(nullptr)},
                        {"as_of", s.host_system.as_of},
                        {"source", s.host_system.source},
                        {"note", s.host_system.note}};
    json points = json::array();
    for (const engine::ResalePoint& p : s.resale_value.points)
        points.push_back({{"months", p.age_months}, {"fraction", p.value_fraction}});
    j["resale_value"] = {{"points", points}, {"as_of", s.resale_value.as_of}, {"source", s.resale_value.source}};
    j["utilization_fraction"] = {{"value", s.utilization.value_fraction}, {"source", s.utilization.source}};
    j["reserve_fraction"] = {{"value", s.reserve.value_fraction}, {"source", s.reserve.source}};
    auto quantity = [](const engine::SourcedQuantity& q, double scale) {
        return json{{"value", q.value / scale}, {"source", q.source}};
    };
    const engine::SessionOverheads& so = s.overheads;
    // Written only when it was read (every value carries its source), so the settings read back as they came.
    const bool overheads_given = !so.instance_start_s.source.empty() && !so.environment_setup_s.source.empty() &&
                                 !so.download_bytes_per_s.source.empty() &&
                                 !so.checkpoint_write_bytes_per_s.source.empty() &&
                                 !so.spot_interruptions_per_hour.source.empty();
    if (overheads_given)
        j["session_overheads"] = {{"instance_start_min", quantity(so.instance_start_s, 60)},
                                  {"environment_setup_min", quantity(so.environment_setup_s, 60)},
                                  {"download_mb_per_s", quantity(so.download_bytes_per_s, 1e6)},
                                  {"checkpoint_write_mb_per_s", quantity(so.checkpoint_write_bytes_per_s, 1e6)},
                                  {"spot_interruptions_per_hour", quantity(so.spot_interruptions_per_hour, 1)}};
    if (s.storage.price_per_gb_month_cny > 0)
        j["storage"] = {{"price_per_gb_month_cny", s.storage.price_per_gb_month_cny}, {"source", s.storage.source}};
    else
        j["storage"] = nullptr;
    return j;
}

}  // namespace gg::catalog
