// The derived results, recomputed when the inputs change: the CLI's report of the scenario, every card's verdict
// and largest batch, the memory-vs-batch curve, then (a frame later at start-up) the ranking and the advice.
#include <algorithm>
#include <string>
#include <utility>

#include "catalog/catalog.h"
#include "catalog/full_report.h"
#include "catalog/stack_config.h"
#include "engine/memory.h"
#include "ui/app.h"
#include "ui/app_internal.h"
#include "ui/gan_panel.h"

namespace gg::ui {

// The ranking of every option and the advice: the costliest part of a recomputation (docs/performance.md).
void update_decisions(AppState& app) {
    if (!app.decisions_pending || !app.results.valid) return;
    app.decisions_pending = false;
    Results& r = app.results;
    catalog::DecisionJson decided = catalog::rank_and_advise_json(r.scenario, app.catalog());  // the advisor runs once
    r.ranking = std::move(decided.ranking);
    r.advice = nullptr;
    // The cheapest option the job fits, against any budget (in the ranking's currency).
    r.over_budget_cost = 0;
    r.over_budget_currency.clear();
    if (r.ranking.is_object() && r.ranking.contains("options") && r.ranking["options"].is_array()) {
        const std::string currency = r.ranking.value("currency", "CNY");
        const double rate = app.catalog().settings.exchange_rate.cny_per_usd;
        double cheapest = -1;
        for (const nlohmann::json& o : r.ranking["options"]) {
            // A free tier costs nothing whatever the job; what limits it is calendar time, not a budget.
            if (!o.value("fits", false) || o.value("free", false) || !o.contains("cost") || !o["cost"].is_object() ||
                !o["cost"].contains("amount") || !o["cost"]["amount"].is_number())
                continue;
            const double amount = o["cost"]["amount"].get<double>();
            if (cheapest < 0 || amount < cheapest) cheapest = amount;
        }
        const double cheapest_cny = currency == "USD" ? cheapest * rate : cheapest;
        if (cheapest > 0 && cheapest_cny > kAnyBudgetCny) {
            r.over_budget_cost = cheapest;
            r.over_budget_currency = currency;
        }
    }
    const std::string& gpu_id = r.scenario.scenario.gpu_id;
    if (!gpu_id.empty() && decided.advice.contains("cards"))
        for (auto& card : decided.advice["cards"])
            if (card.value("gpu", "") == gpu_id) r.advice = std::move(card);
    ++app.results_generation;
}

void app_update_results(AppState& app) {
    if (!app.scenario_dirty) return;
    app.scenario_dirty = false;
    app.fix_confirm_cards = 0;  // a question about the last results' fix
    if (gan_active(app)) {
        gan_update_results(app);
        return;
    }
    const catalog::Catalog& cat = app.catalog();
    // One validation path for everything: the scenario as the CLI would read it.
    const catalog::ParsedDecision check = catalog::parse_decision_scenario_json(app_decided_scenario_json(app), cat);
    app.scenario_problems = check.problems;
    if (!check.problems.empty()) return;  // keep showing the last valid results

    Results& r = app.results;
    r.scenario = check.value;
    const catalog::Scenario& s = r.scenario.scenario;
    r.estimate = catalog::estimate(s, cat);
    r.report = catalog::full_report(r.scenario, r.estimate, cat);
    r.stack_config = catalog::stack_config(s).text;
    r.ranking = nullptr;
    r.advice = nullptr;

    // Every card as the user's own (a consumer or workstation card may draw the desktop: engine::Display::kAuto),
    // the same verdict as the estimate's for the chosen card.
    const double needed = engine::required_bytes(r.estimate.prepared, s.batch_size);
    r.cards.clear();
    for (size_t i = 0; i < cat.gpus.size(); ++i) {
        const engine::GpuSpec& g = cat.gpus[i];
        const bool owned_display = engine::segment_has_display(g.segment);
        // nvidia-smi's total; the scenario's gpu.ecc is the user's setting on the chosen card only.
        const double card_bytes =
            engine::usable_memory_bytes(g, g.id == s.gpu_id ? s.ecc : engine::EccSetting::kDefault);
        CardFit c;
        c.gpu_index = static_cast<int>(i);
        c.max_batch_size = engine::max_batch_sizes(r.estimate.prepared, {card_bytes}, s.batch_limit(), owned_display)[0];
        c.verdict = engine::judge_job(r.estimate.prepared, s.batch_size, card_bytes, owned_display).verdict;
        r.cards.push_back(c);
    }
    // Memory vs batch: powers of two up to past the largest batch any card takes (capped), plus the chosen one.
    r.curve_batch.clear();
    r.curve_bytes.clear();
    int top = std::max(s.batch_size * 4, 8);
    for (const CardFit& c : r.cards) top = std::max(top, std::min(c.max_batch_size * 2, 4096));
    top = std::min(top, 4096);
    // Stop once the curve is far above the chosen card (or the need at the chosen batch): the interesting part
    // is where it crosses the card's usable memory.
    const engine::GpuSpec* chosen = cat.find_gpu(s.gpu_id);
    const double ceiling = 3.0 * std::max(chosen ? chosen->memory_bytes : 0.0, needed);
    for (int b = 1; b <= top; b *= 2) {
        const double bytes = engine::required_bytes(r.estimate.prepared, b);
        r.curve_batch.push_back(b);
        r.curve_bytes.push_back(bytes);
        if (bytes > ceiling && b > s.batch_size) break;
    }
    r.valid = true;
    ++app.results_generation;
    app.decisions_pending = true;
    if (!(app.defer_first_decisions && app.frame_count == 0)) update_decisions(app);
}

std::string app_report_json(AppState& app) {
    app_update_results(app);
    if (gan_active(app)) return app.gan_report.dump();
    if (!app.results.valid) return "null";
    return app.results.report.dump();
}

}  // namespace gg::ui
