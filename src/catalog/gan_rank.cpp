// `gpuguide rank` and `gpuguide advise` for a GAN scenario (gan_scenario.h). Each GPU holds both networks whole, so
// the one memory fix is a smaller per-GPU batch (StyleGAN's --batch-gpu); more GPUs keep the global batch. No LoRA,
// ZeRO or checkpointing advice: the reference GAN code has none of them. Never throws. No UI code.
#include <algorithm>
#include <cmath>
#include <limits>

#include "catalog/decision_json.h"
#include "catalog/gan_scenario.h"
#include "engine/cost.h"

namespace gg::catalog {

using nlohmann::json;

namespace {

// The fix for a card the job does not fit: the largest per-GPU batch that fits, and the GPU count that keeps the
// scenario's global batch (batch_size x count) at that per-GPU batch; null when it fits.
json fix_json(const GanScenario& s, const engine::GpuSpec& gpu, int count, bool owned, const GanFit& fit) {
    if (fit.verdict.verdict == engine::Verdict::kFits) return nullptr;
    const int best = gan_max_batch(s, gpu, count, owned, s.batch_size);
    if (best <= 0)
        return {{"change", "none"},
                {"reason", "does_not_fit_at_batch_1"},
                {"message", "both networks and their Adam states do not fit this card even at one image per GPU; "
                            "more GPUs do not help (each holds both networks whole)"}};
    const GanFit at = evaluate_gan_fit(s, gpu, count, best, owned);
    const double global = double(s.batch_size) * count;
    return {{"change", "batch_size"},
            {"batch_size", best},
            {"gpu_count_for_same_global_batch", int(std::ceil(global / best))},
            {"peak_bytes_per_card", at.report.nvidia_smi_bytes},
            {"sec_per_kimg", at.report.time_ok ? json(at.report.sec_per_kimg) : json(nullptr)},
            {"message", "a smaller batch per GPU (StyleGAN: --batch-gpu); keep the global batch with more GPUs"}};
}

json option_json(const GanScenario& s, const Catalog& c, const char* kind, const engine::GpuSpec& gpu, int count,
                 const engine::CloudOffer* offer) {
    const bool owned = offer == nullptr && engine::segment_has_display(gpu.segment);
    const GanFit f = evaluate_gan_fit(s, gpu, count, s.batch_size, owned);
    double cost_cny = std::nan("");
    if (offer != nullptr && std::isfinite(f.run_s)) {
        engine::RentInputs in;
        in.run_time_s = f.run_s;
        in.cny_per_usd = s.exchange_rate(c);
        cost_cny = engine::rent_cost(*offer, in).total_cny;
    } else if (offer == nullptr) {
        engine::BuyInputs in;
        in.card_count = count;
        in.run_time_s = std::isfinite(f.run_s) ? f.run_s : 0;
        in.cny_per_usd = s.exchange_rate(c);
        if (const engine::ElectricityPrice* e = c.default_electricity())
            in.electricity_price_per_kwh_cny = engine::to_cny(e->price_per_kwh, e->currency, in.cny_per_usd);
        if (c.settings.utilization.value_fraction > 0)
            in.gpu_hours_per_month = c.settings.utilization.value_fraction * engine::kHoursPerMonth;
        in.host = c.settings.host_system;
        in.resale = c.settings.resale_value;
        const engine::BuyCost b = engine::buy_cost(gpu, in);
        cost_cny = b.basis == engine::PriceBasis::kUnknown ? std::nan("") : b.total_cny;
    }
    return {{"kind", kind},
            {"gpu", gpu.id},
            {"count", count},
            {"offer", offer != nullptr ? json(offer->id) : json(nullptr)},
            {"verdict", engine::verdict_name(f.verdict.verdict)},
            {"fits", f.verdict.verdict != engine::Verdict::kDoesNotFit},
            {"tight", f.verdict.verdict == engine::Verdict::kTight},
            {"peak_bytes_per_card", f.report.nvidia_smi_bytes},
            {"usable_bytes_per_card", f.verdict.usable_bytes()},
            {"peak_phase", f.report.peak_phase},
            {"samples_per_s", f.report.time_ok ? json(f.report.samples_per_s) : json(nullptr)},
            {"sec_per_kimg", f.report.time_ok ? json(f.report.sec_per_kimg) : json(nullptr)},
            {"time_s", num_or_null(f.run_s)},
            {"cost", {{"amount", num_or_null(s.shown(c, cost_cny))}, {"currency", s.currency}}},
            {"session_limits_not_planned", offer != nullptr && offer->has_limits},
            {"fix", fix_json(s, gpu, count, owned, f)}};
}

double metric(const json& o, const char* key) {
    const json& v = key[0] == 'c' ? o["cost"]["amount"] : o[key];
    return v.is_number() ? v.get<double>() : std::numeric_limits<double>::infinity();
}

int verdict_rank(const json& o) {
    const std::string v = o["verdict"].get<std::string>();
    return v == "fits" ? 0 : v == "tight" ? 1 : 2;
}

}  // namespace

json gan_rank_json(const GanScenario& s, const Catalog& c) {
    json options = json::array();
    if (s.ownership != "buy")
        for (const engine::CloudOffer& o : c.offers)
            if (const engine::GpuSpec* g = c.find_gpu(o.gpu_id)) options.push_back(option_json(s, c, "rent", *g, o.gpu_count, &o));
    if (s.ownership != "rent")
        for (const engine::GpuSpec& g : c.gpus)
            for (int n : {1, 2, 4, 8}) options.push_back(option_json(s, c, "buy", g, n, nullptr));
    const char* first = s.objective == "time" ? "time_s" : "cost";
    const char* second = s.objective == "time" ? "cost" : "time_s";
    std::stable_sort(options.begin(), options.end(), [&](const json& a, const json& b) {
        if (verdict_rank(a) != verdict_rank(b)) return verdict_rank(a) < verdict_rank(b);
        // Free and notebook tiers end sessions the GAN run is not planned into: after the plain options.
        if (a["session_limits_not_planned"] != b["session_limits_not_planned"]) return b["session_limits_not_planned"].get<bool>();
        if (metric(a, first) != metric(b, first)) return metric(a, first) < metric(b, first);
        return metric(a, second) < metric(b, second);
    });
    json out = {{"kind", "gan"},
                {"model", s.model_id},
                {"objective", s.objective},
                {"currency", s.currency},
                {"images_per_run", s.images_per_run() > 0 ? json(s.images_per_run()) : json(nullptr)},
                {"options_total", options.size()},
                {"options", std::move(options)},
                {"scenario", gan_scenario_to_json(s)}};
    return out;
}

json gan_advise_json(const GanScenario& s, const Catalog& c) {
    json cards = json::array();
    for (const engine::GpuSpec& g : c.gpus) {
        const bool owned = engine::segment_has_display(g.segment);
        const GanFit f = evaluate_gan_fit(s, g, s.gpu_count, s.batch_size, owned);
        cards.push_back({{"gpu", g.id},
                         {"count", s.gpu_count},
                         {"verdict", engine::verdict_name(f.verdict.verdict)},
                         {"peak_bytes_per_card", f.report.nvidia_smi_bytes},
                         {"usable_bytes_per_card", f.verdict.usable_bytes()},
                         {"max_batch_size", gan_max_batch(s, g, s.gpu_count, owned)},
                         {"fix", fix_json(s, g, s.gpu_count, owned, f)}});
    }
    return {{"kind", "gan"}, {"model", s.model_id}, {"cards", std::move(cards)}, {"scenario", gan_scenario_to_json(s)}};
}

}  // namespace gg::catalog
