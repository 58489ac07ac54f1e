// The JSON of a GAN scenario (gan_scenario.h): estimate (both networks, phases, peak, verdict, time, cost), rank (buy
// 1/2/4/8 of each card, rent each offer) and advise (the largest per-GPU batch that fits). Memory and time come from
// engine::evaluate_gan; the verdict from engine::judge_fit against engine::usable_memory_bytes (ECC included), as
// every other scenario; money from engine::rent_cost / buy_cost. Never throws. No UI code.
#include <algorithm>
#include <cmath>
#include <limits>

#include "catalog/decision_json.h"
#include "catalog/gan_scenario.h"
#include "catalog/time_data.h"
#include "engine/cost.h"

namespace gg::catalog {

using nlohmann::json;

namespace {

// One network's persistent state. Gradients (4 bytes) and Adam's m and v (8 bytes) are per fp32 parameter for each
// network (gan.h); the report gives their sums, split here by parameter count.
json network_json(double params, double all_params, double weight_bytes, double ema_bytes, const engine::GanReport& r) {
    const double share = all_params > 0 ? params / all_params : 0;
    return {{"params", params},
            {"weight_bytes", weight_bytes},
            {"gradient_bytes", r.gradient_bytes * share},
            {"optimizer_bytes", r.optimizer_bytes * share},
            {"ema_bytes", ema_bytes}};
}

json phases_json(const engine::GanReport& r) {
    json a = json::array();
    for (const engine::GanPhase& p : r.phases)
        a.push_back({{"name", p.name},
                     {"every", p.every},
                     {"batch", p.batch},
                     {"activation_bytes", p.activation_bytes},
                     {"seconds", r.time_ok ? json(p.seconds) : json(nullptr)},
                     {"seconds_per_iteration", r.time_ok ? json(p.seconds / p.every) : json(nullptr)},
                     {"flop", p.flop},
                     {"peak", std::string(p.name) == r.peak_phase}});
    return a;
}

json verdict_json(const GanFit& f, const GanScenario& s, const engine::GpuSpec& gpu, int count) {
    const engine::Headroom& h = f.verdict.headroom;
    return {{"gpu", {{"id", gpu.id},
                     {"count", count},
                     {"memory_bytes", f.usable_memory_bytes},
                     {"datasheet_memory_bytes", gpu.memory_bytes},
                     {"ecc_on", engine::ecc_on(gpu, s.ecc)},
                     {"ecc_reserved_bytes", engine::ecc_on(gpu, s.ecc) ? engine::ecc_reserved_bytes(gpu) : 0.0},
                     {"usable_bytes", f.verdict.usable_bytes()},
                     {"reserve_fraction", s.reserve_fraction}}},
            {"verdict", engine::verdict_name(f.verdict.verdict)},
            {"fits", f.verdict.verdict == engine::Verdict::kFits},
            {"fits_without_reserve", f.verdict.verdict != engine::Verdict::kDoesNotFit},
            {"headroom_bytes", {{"display", h.display_bytes},
                                {"reserve", h.reserve_bytes},
                                {"total", h.total_bytes()},
                                {"allocated", h.allocated_bytes()}}}};
}

// Every rent offer of this card at this count, cheapest first: the run's bill (engine::rent_cost, one session).
json rent_costs_json(const GanScenario& s, const Catalog& c, double run_s) {
    json a = json::array();
    if (!(run_s > 0)) return a;
    for (const engine::CloudOffer& o : c.offers) {
        if (o.gpu_id != s.gpu_id || o.gpu_count != s.gpu_count) continue;
        engine::RentInputs in;
        in.run_time_s = run_s;
        in.cny_per_usd = s.exchange_rate(c);
        const engine::RentCost rc = engine::rent_cost(o, in);
        a.push_back({{"offer", o.id}, {"provider", o.provider}, {"cost", num_or_null(s.shown(c, rc.total_cny))},
                     {"billed_s", rc.billed_s_per_run}, {"session_limits", o.has_limits}});
    }
    std::stable_sort(a.begin(), a.end(), [](const json& x, const json& y) {
        const double cx = x["cost"].is_number() ? x["cost"].get<double>() : std::numeric_limits<double>::infinity();
        const double cy = y["cost"].is_number() ? y["cost"].get<double>() : std::numeric_limits<double>::infinity();
        return cx < cy;
    });
    return a;
}

double electricity_cny_per_kwh(const Catalog& c, double rate) {
    const engine::ElectricityPrice* e = c.default_electricity();
    return e == nullptr ? 0 : engine::to_cny(e->price_per_kwh, e->currency, rate);
}

engine::BuyCost buy(const GanScenario& s, const Catalog& c, const engine::GpuSpec& gpu, int count, double run_s) {
    engine::BuyInputs in;
    in.card_count = count;
    in.run_time_s = std::isfinite(run_s) ? run_s : 0;
    in.cny_per_usd = s.exchange_rate(c);
    in.electricity_price_per_kwh_cny = electricity_cny_per_kwh(c, in.cny_per_usd);
    if (c.settings.utilization.value_fraction > 0)
        in.gpu_hours_per_month = c.settings.utilization.value_fraction * engine::kHoursPerMonth;
    in.host = c.settings.host_system;
    in.resale = c.settings.resale_value;
    return engine::buy_cost(gpu, in);
}

}  // namespace

GanFit evaluate_gan_fit(const GanScenario& s, const engine::GpuSpec& gpu, int gpu_count, int batch,
                        bool owned_display_card) {
    GanFit f;
    engine::GanTraining t;
    t.batch = batch;
    t.gpu_count = gpu_count;
    t.tunables = s.tunables;
    f.report = engine::evaluate_gan(s.spec, t, gpu, embedded_time_data());
    f.usable_memory_bytes = engine::usable_memory_bytes(gpu, s.ecc);
    engine::Headroom h;
    h.display_bytes = engine::display_bytes(s.display_setting(), owned_display_card);
    h.display_assumed = s.display == "auto";
    h.reserve_bytes = f.usable_memory_bytes * s.reserve_fraction;
    f.verdict = engine::judge_fit(f.report.nvidia_smi_bytes, f.usable_memory_bytes, h);
    const double images = s.images_per_run();
    f.run_s = f.report.time_ok && images > 0 ? images / f.report.samples_per_s : std::nan("");
    return f;
}

int gan_max_batch(const GanScenario& s, const engine::GpuSpec& gpu, int gpu_count, bool owned, int limit) {
    auto fits = [&](int b) {
        return evaluate_gan_fit(s, gpu, gpu_count, b, owned).verdict.verdict == engine::Verdict::kFits;
    };
    if (!fits(1)) return 0;
    int lo = 1, hi = 2;  // memory grows with the batch: double until it does not fit, then bisect
    while (hi <= limit && fits(hi)) lo = hi, hi *= 2;
    if (hi > limit) return lo;
    while (hi - lo > 1) {
        const int mid = lo + (hi - lo) / 2;
        (fits(mid) ? lo : hi) = mid;
    }
    return lo;
}

json gan_report_json(const GanScenario& s, const Catalog& c) {
    engine::GpuSpec none;
    const engine::GpuSpec* gpu = s.gpu_id.empty() ? nullptr : c.find_gpu(s.gpu_id);
    const bool owned = gpu != nullptr && engine::segment_has_display(gpu->segment);
    const GanFit f = evaluate_gan_fit(s, gpu != nullptr ? *gpu : none, s.gpu_count, s.batch_size, owned);
    const engine::GanReport& r = f.report;
    const double all = r.g_params + r.d_params;
    json j;
    j["kind"] = "gan";
    j["model"] = {{"id", s.model_id}, {"name", s.spec.name}, {"gan_kind", engine::gan_kind_name(s.spec.kind)},
                  {"resolution", s.spec.resolution}, {"source", s.spec.source}};
    j["params"] = {{"generator", r.g_params}, {"discriminator", r.d_params}, {"total", all}};
    j["networks"] = {{"generator", network_json(r.g_params, all, r.g_weight_bytes, r.g_ema_bytes, r)},
                     {"discriminator", network_json(r.d_params, all, r.d_weight_bytes, 0, r)}};
    j["memory_bytes"] = {{"weights", r.g_weight_bytes + r.d_weight_bytes},
                         {"gradients", r.gradient_bytes},
                         {"optimizer", r.optimizer_bytes},
                         {"ema", r.g_ema_bytes},
                         {"buffers", r.buffer_bytes},
                         {"workspace", r.workspace_bytes},
                         {"activations", r.peak_activation_bytes},
                         {"peak_allocated", r.peak_allocated_bytes},
                         {"nvidia_smi", r.nvidia_smi_bytes}};
    j["peak_phase"] = r.peak_phase;
    j["phases"] = phases_json(r);
    if (gpu != nullptr) {
        j.update(verdict_json(f, s, *gpu, s.gpu_count));
        j["max_batch_size"] = gan_max_batch(s, *gpu, s.gpu_count, owned);
    } else {
        for (const char* k : {"gpu", "verdict", "fits", "fits_without_reserve", "headroom_bytes", "max_batch_size"})
            j[k] = nullptr;
    }
    const double images = s.images_per_run();
    if (gpu != nullptr && r.time_ok) {
        j["time"] = {{"iteration_s", r.iteration_s},
                     {"samples_per_s", r.samples_per_s},
                     {"sec_per_kimg", r.sec_per_kimg},
                     {"images", images > 0 ? json(images) : json(nullptr)},
                     {"kimg", images > 0 ? json(images / 1000) : json(nullptr)},
                     {"iterations", images > 0 ? json(images / (double(s.batch_size) * s.gpu_count)) : json(nullptr)},
                     {"total_s", num_or_null(f.run_s)}};
    } else {
        j["time"] = nullptr;
    }
    if (gpu != nullptr && std::isfinite(f.run_s)) {
        const engine::BuyCost b = buy(s, c, *gpu, s.gpu_count, f.run_s);
        j["cost"] = {{"currency", s.currency},
                     {"rent", rent_costs_json(s, c, f.run_s)},
                     {"buy", {{"purchase", num_or_null(s.shown(c, b.basis == engine::PriceBasis::kUnknown
                                                                        ? std::nan("") : b.purchase_cny))},
                              {"electricity", num_or_null(s.shown(c, b.electricity_cny))},
                              {"total", num_or_null(s.shown(c, b.total_cny))},
                              {"price_basis", engine::price_basis_name(b.basis)}}}};
    } else {
        j["cost"] = nullptr;
    }
    j["scenario"] = gan_scenario_to_json(s);
    return j;
}

}  // namespace gg::catalog
