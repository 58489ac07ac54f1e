// Ranking export. Markdown and CSV carry the same columns as the page's table, in base units for CSV (bytes,
// seconds, the cost's currency) so a spreadsheet can compute with them.
#include "ui/export.h"

#include <cstdio>

#include "catalog/catalog.h"
#include "ui/format.h"

namespace gg::ui {

Str billing_label(engine::Billing billing) {
    switch (billing) {
        case engine::Billing::Spot: return Str::BillingSpot;
        case engine::Billing::Monthly: return Str::BillingMonthly;
        case engine::Billing::Free: return Str::BillingFree;
        case engine::Billing::OnDemand: break;
    }
    return Str::BillingOnDemand;
}

std::string option_label(const catalog::Catalog& cat, const nlohmann::json& o, Lang lang) {
    const engine::GpuSpec* g = cat.find_gpu(o.value("gpu", ""));
    const std::string name = g ? g->name : o.value("gpu", "");
    const int count = o.value("count", 1);
    std::string label = std::string(tr(o.value("kind", "") == "buy" ? Str::KindBuy : Str::KindRent, lang)) + " " +
                        (count > 1 ? std::to_string(count) + " x " : "") + name;
    if (o.value("kind", "") != "rent" || !o.contains("rent")) return label;
    label += " · " + o["rent"].value("provider", "");
    // Two offers of one provider for the same cards differ by billing (spot, monthly) or by instance (RunPod's
    // Community and Secure Cloud, AWS g5.xlarge and g5.2xlarge): say which, or the rows look the same.
    const engine::CloudOffer* offer = o.contains("offer") && o["offer"].is_string() ? cat.find_offer(o["offer"].get<std::string>())
                                                                                    : nullptr;
    if (offer == nullptr) return label;
    if (offer->billing != engine::Billing::OnDemand) label += std::string(" (") + tr(billing_label(offer->billing), lang) + ")";
    for (const engine::CloudOffer& other : cat.offers)
        if (&other != offer && other.provider == offer->provider && other.gpu_id == offer->gpu_id &&
            other.gpu_count == offer->gpu_count && other.billing == offer->billing && other.instance != offer->instance) {
            const std::size_t comma = offer->instance.rfind(", ");  // "RTX 4090 24 GB, Community Cloud"
            label += ", " + (comma == std::string::npos ? offer->instance : offer->instance.substr(comma + 2));
            break;
        }
    return label;
}

namespace {
std::string csv_field(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}
std::string md_cell(std::string s) {
    for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    return s;
}
double number(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1;
}
std::string num(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}
}  // namespace

std::string export_ranking(const nlohmann::json& ranking, ExportFormat format, Lang lang, const catalog::Catalog& catalog) {
    if (format == ExportFormat::kJson) return ranking.dump(2);
    const nlohmann::json options = ranking.contains("options") ? ranking["options"] : nlohmann::json::array();
    std::string out;
    if (format == ExportFormat::kCsv)
        out = "rank,kind,gpu,count,offer,provider,fits,peak_bytes_per_card,usable_bytes_per_card,time_s,cost,currency,pareto\n";
    else
        out = std::string("| # | ") + tr(Str::ColOption, lang) + " | " + tr(Str::ColMemory, lang) + " | " +
              tr(Str::ColTime, lang) + " | " + tr(Str::ColCost, lang) + " | " + tr(Str::ColFits, lang) +
              " |\n| ---: | --- | --- | ---: | ---: | --- |\n";
    for (const auto& o : options) {
        const std::string gpu_id = o.value("gpu", "");
        const std::string provider = o.contains("rent") ? o["rent"].value("provider", "") : "";
        const double cost = o.contains("cost") ? number(o["cost"], "amount") : -1;
        const std::string currency = o.contains("cost") ? o["cost"].value("currency", "") : "";
        const bool fits = o.value("fits", false);
        const double time_s = number(o, "time_s");
        if (format == ExportFormat::kCsv) {
            out += num(o.value("rank", 0)) + "," + o.value("kind", "") + "," + csv_field(gpu_id) + "," +
                   num(o.value("count", 1)) + "," + csv_field(o["offer"].is_string() ? o["offer"].get<std::string>() : "") +
                   "," + csv_field(provider) + "," + (fits ? "true" : "false") + "," +
                   num(number(o, "peak_bytes_per_card")) + "," + num(number(o, "usable_bytes_per_card")) + "," +
                   (time_s >= 0 ? num(time_s) : "") + "," + (cost >= 0 ? num(cost) : "") + "," + currency + "," +
                   (o.value("pareto", false) ? "true" : "false") + "\n";
        } else {
            const std::string label = option_label(catalog, o, lang);
            out += "| " + std::to_string(o.value("rank", 0)) + " | " + md_cell(label) + " | " +
                   format_gib(number(o, "peak_bytes_per_card"), lang) + " / " +
                   format_gib(number(o, "usable_bytes_per_card"), lang) + " | " +
                   (time_s >= 0 ? format_duration(time_s, lang) : "-") + " | " +
                   (cost >= 0 ? format_money(cost, currency, lang) : "-") + " | " + tr(fits ? Str::Yes : Str::No, lang) +
                   " |\n";
        }
    }
    return out;
}

}  // namespace gg::ui
