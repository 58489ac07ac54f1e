// The time and cost panel: how long the job takes (and how that scales with more cards), what it costs to rent
// or buy, each as a formula with the numbers filled in. Reads AppState::results.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "engine/cost.h"
#include "engine/workload.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/format.h"
#include "ui/loader_panel.h"
#include "ui/theme.h"
#include "ui/widgets.h"

namespace gg::ui {

// The cost of one ranked option (the ranking's JSON), as formulas with the numbers filled in. Used under the
// scenario's own card and in the ranking table's cost cells.
void rent_formula(const AppState& app, const nlohmann::json& option) {
    const Lang L = app.lang;
    const engine::CloudOffer* offer = app.catalog().find_offer(option.value("offer", ""));
    if (offer == nullptr || !option.contains("rent") || !option.contains("cost")) return;
    const nlohmann::json& d = option["rent"];
    const std::string cur = option["cost"].value("currency", "CNY");
    // The run as the sessions hold it: training + start, setup, downloads, checkpoints (engine::plan_sessions).
    const double held_s = option.contains("sessions") ? json_number(option["sessions"], "session_s", 0) : 0;
    wrapped_textf(tr(Str::RentFormula, L), format_duration(json_number(d, "billed_s_per_run", 0), L).c_str(),
                  format_duration(held_s > 0 ? held_s : json_number(option, "time_s", 0), L).c_str(),
                  format_duration(json_number(d, "billing_granularity_s", 0), L).c_str(),
                  counted(app.results.scenario.decision.runs, Str::CountRun, Str::CountRuns, L).c_str(),
                  money_as(app, offer->price_per_hour, offer->currency, cur).c_str(),
                  format_money(json_number(d["compute"], "amount", 0), cur, L).c_str(),
                  format_money(json_number(d["storage"], "amount", 0), cur, L).c_str(), offer->source.c_str(),
                  offer->as_of.c_str());
    auto term = [&](const char* key) { return format_money(d.contains(key) ? json_number(d[key], "amount", 0) : 0, cur, L); };
    if (d.contains("training"))
        wrapped_textf(tr(Str::RentTerms, L), term("training").c_str(), term("overheads").c_str(),
                      term("checkpoints").c_str(), term("lost_work").c_str(), term("rounding").c_str());
}

// A rented or free option's calendar time and what to watch for (session limits, checkpoints, GPU availability,
// what was not counted), from the ranking's JSON (catalog/decision_json.cpp: "sessions", reasons).
void sessions_lines(const AppState& app, const nlohmann::json& o) {
    const Lang L = app.lang;
    if (o.value("kind", "") != "rent" || !o.contains("sessions")) return;
    const nlohmann::json& s = o["sessions"];
    const double calendar = json_number(o, "calendar_s");
    if (calendar > 0)
        wrapped_textf(tr(Str::CellCalendar, L), format_duration(json_number(o, "time_s", 0), L).c_str(),
                      format_significant(json_number(s, "sessions", 1), 3).c_str(), format_duration(calendar, L).c_str());
    auto value = [](const nlohmann::json* x, const char* key) { return x ? json_number((*x)["values"], key, 0) : 0.0; };
    std::vector<std::string> watch;
    char line[512];
    if (const nlohmann::json* x = find_reason(o, "session_limits")) {
        if (value(x, "max_session_s") > 0) {
            std::snprintf(line, sizeof line, tr(Str::WatchSession, L), format_duration(value(x, "max_session_s"), L).c_str());
            watch.push_back(line);
        }
        if (value(x, "idle_timeout_s") > 0) {
            std::snprintf(line, sizeof line, tr(Str::WatchIdle, L), format_duration(value(x, "idle_timeout_s"), L).c_str());
            watch.push_back(line);
        }
        if (value(x, "gpu_s_per_week") > 0) {
            std::snprintf(line, sizeof line, tr(Str::WatchQuota, L), format_duration(value(x, "gpu_s_per_week"), L).c_str(),
                          format_significant(json_number(s, "weeks", 0), 2).c_str());
            watch.push_back(line);
        }
    }
    if (find_reason(o, "needs_checkpoints")) watch.push_back(tr(Str::WatchNeedsCheckpoints, L));
    if (find_reason(o, "no_guaranteed_gpu")) watch.push_back(tr(Str::WatchNoGpu, L));
    if (find_reason(o, "spot_rate_unknown") || find_reason(o, "spot_interruptions")) watch.push_back(tr(Str::WatchSpot, L));
    if (find_reason(o, "download_unknown")) watch.push_back(tr(Str::WatchDownload, L));
    if (watch.empty()) return;
    wrapped_text(tr(Str::WatchFor, L));
    for (const std::string& w : watch) {
        ImGui::Bullet();
        ImGui::SameLine();
        wrapped_text(w.c_str());
    }
}

void buy_formula(const AppState& app, const nlohmann::json& option) {
    const Lang L = app.lang;
    if (!option.contains("buy") || !option.contains("cost")) return;
    const nlohmann::json& b = option["buy"];
    const std::string currency = option["cost"].value("currency", "CNY");
    auto money = [&](const char* key) { return format_money(json_number(b[key], "amount", 0), currency, L); };
    const std::string basis = b.value("price_basis", "");
    const engine::GpuSpec* gpu = app.catalog().find_gpu(option.value("gpu", ""));
    auto reason = [&](const char* code) { return find_reason(option, code); };
    if (reason("server_only")) {
        wrapped_text(tr(Str::BuyServerOnly, L));
        return;
    }
    // No price (most data-centre cards): a formula of zeros would read as a price; say what is missing instead.
    if (basis == "unknown" || !std::isfinite(json_number(option["cost"], "amount"))) {
        wrapped_text(tr(Str::BuyPriceUnknown, L));
        return;
    }
    const bool users = gpu && gpu->street_price.source == AppState::kUserPriceSource;
    char basis_text[256];
    if (users) std::snprintf(basis_text, sizeof basis_text, "%s", tr(Str::PriceUser, L));
    else if (basis == "launch_usd") std::snprintf(basis_text, sizeof basis_text, tr(Str::PriceLaunch, L), gpu ? gpu->launch_year : 0);
    else std::snprintf(basis_text, sizeof basis_text, "%s", tr(Str::PriceStreet, L));
    wrapped_textf(tr(Str::BuyFormulaCards, L), counted(option.value("count", 1), Str::CountCard, Str::CountCards, L).c_str(),
                  money("card_price").c_str(), basis_text, money("host").c_str(), money("purchase").c_str());
    if (const nlohmann::json* x = reason("host_underpowered"))
        hint_textf(tr(Str::BuyHostUnderpowered, L), format_grouped(json_number((*x)["values"], "power_w", 0)).c_str(),
                   format_grouped(json_number((*x)["values"], "psu_w", 0)).c_str());
    const double time_s = json_number(option, "time_s", 0);
    if (time_s <= 0) return;  // the electricity and the resale need a time
    const double hours_s = time_s * app.results.scenario.decision.runs;
    const double kwh_price = app.results.scenario.decision.electricity_price_per_kwh_cny;
    wrapped_textf(tr(Str::BuyFormulaPower, L), format_significant(json_number(b, "power_w", 0), 4).c_str(),
                  format_duration(hours_s, L).c_str(), money_as(app, kwh_price, "CNY", currency).c_str(),
                  money("electricity").c_str());
    const double owned_s = json_number(b, "ownership_months", 0) * engine::kHoursPerMonth * 3600;
    wrapped_textf(tr(Str::BuyFormulaResale, L), format_duration(owned_s, L).c_str(),
                  format_percent(json_number(b, "resale_fraction", 0)).c_str(), money("resale").c_str(),
                  format_money(json_number(option["cost"], "amount"), currency, L).c_str());
}

namespace {

void draw_cost_lines(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    const catalog::Catalog& cat = app.catalog();
    if (const nlohmann::json* rent = ranking_option(r.ranking, "rent", s.gpu_id, s.gpu_count)) {
        const engine::CloudOffer* offer = cat.find_offer(rent->value("offer", ""));
        // The cheapest rental of this card may use another number of cards than the scenario (offers come in
        // fixed sizes), so the line says how many and for how long.
        const double rent_hours_s = json_number(*rent, "time_s", 0) * r.scenario.decision.runs;
        if (offer) wrapped_textf(tr(Str::RentLine, L), offer->instance.c_str(), offer->provider.c_str(),
                                 format_money(offer->price_per_hour, offer->currency, L).c_str(),
                                 counted(rent->value("count", 1), Str::CountCard, Str::CountCards, L).c_str(),
                                 format_duration(rent_hours_s, L).c_str(),
                                 format_money(json_number((*rent)["cost"], "amount"), (*rent)["cost"].value("currency", "CNY"), L).c_str());
        if (offer) test_anchor(app, "rent-line");
        if (offer && rent->contains("rent") &&
            ImGui::TreeNode(stable_label(tr(Str::CostFormula, L), "rent-formula").c_str())) {
            rent_formula(app, *rent);
            ImGui::TreePop();
        }
    } else {
        // No priced rental: say why. The card may have offers while the job does not fit it, or has no total time
        // yet (no dataset: the line above asks for one).
        if (!cat.rents(s.gpu_id)) hint_text(tr(Str::NoOfferForCard, L));
        else if (!r.estimate.report.fits) hint_text(tr(Str::OfferButDoesNotFit, L));
        else if (r.ranking.contains("options")) {
            // It fits as set, yet no offer of this card fits: its job needs more cards than one offer has.
            const int largest = cat.most_rented_at_once(s.gpu_id);
            if (largest > 0 && largest < s.gpu_count) {
                hint_textf(tr(Str::OfferTooSmall, L), largest);
                test_anchor(app, "offer-too-small");
            }
        }
    }
    if (const nlohmann::json* buy = ranking_option(r.ranking, "buy", s.gpu_id, s.gpu_count)) {
        const std::string currency = (*buy)["cost"].value("currency", "CNY");
        const double upfront = buy->contains("buy") ? json_number((*buy)["buy"]["purchase"], "amount") : -1;
        const double host = buy->contains("buy") ? json_number((*buy)["buy"]["host"], "amount", 0) : 0;
        wrapped_textf(tr(Str::BuyLine, L), format_money(upfront, currency, L).c_str(),
                      format_money(json_number((*buy)["cost"], "amount"), currency, L).c_str(),
                      format_money(host, currency, L).c_str());
        if (buy->contains("buy") && ImGui::TreeNode(stable_label(tr(Str::CostFormula, L), "buy-formula").c_str())) {
            buy_formula(app, *buy);
            ImGui::TreePop();
        }
    }
    draw_rent_vs_buy(app);
}

// The engine's rows at 1, 2, 4, 8, 16 copies (catalog/scaling.h): speed-up, efficiency, time, memory verdict. A click
// on a row sets the card count.
void draw_scaling(AppState& app, const nlohmann::json& t, bool with_dataset) {
    if (!t.contains("scaling") || !t["scaling"].is_array() || t["scaling"].size() < 2) return;
    const Lang L = app.lang;
    const nlohmann::json& rows = t["scaling"];
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (!ImGui::TreeNode(stable_label(tr(Str::ScalingTitle, L), "scaling").c_str())) return;
    hint_text(tr(Str::ScalingNote, L));
    const float em = ImGui::GetFontSize();
    // As wide as its columns need (not the whole results column, where "Fits?" would sit far from its row). On a
    // phone every column keeps the width of its name and numbers, and the table scrolls sideways.
    const float width = std::min(ImGui::GetContentRegionAvail().x, 32.0f * em);
    const bool narrow = width < 30.0f * em;
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  (narrow ? ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit
                                          : ImGuiTableFlags_SizingStretchProp);
    const ImGuiTableColumnFlags share = narrow ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch;
    if (ImGui::BeginTable("##scaling", 5, flags, ImVec2(width, 0))) {
        // Shares of the width on a desktop; on a phone (fixed, 0 = fit the content) no column is squeezed.
        ImGui::TableSetupColumn(tr(Str::ColCards, L), share, narrow ? 0.0f : 0.7f);
        ImGui::TableSetupColumn(tr(Str::ColSpeedup, L), share, narrow ? 0.0f : 1.0f);
        ImGui::TableSetupColumn(tr(Str::ColScalingEfficiency, L), share, narrow ? 0.0f : 1.0f);
        ImGui::TableSetupColumn(tr(with_dataset ? Str::ColTimeToTrain : Str::ColStepTime, L), share, narrow ? 0.0f : 1.4f);
        ImGui::TableSetupColumn(tr(Str::ColFits, L), share, narrow ? 0.0f : 0.8f);
        ImGui::TableHeadersRow();
        for (const nlohmann::json& row : rows) {
            const int gpus = row.value("gpus", 0);
            if (gpus <= 0) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            const std::string label = std::to_string(gpus) + "##scale" + std::to_string(gpus);
            if (ImGui::Selectable(label.c_str(), gpus == app.scenario.gpu_count, ImGuiSelectableFlags_SpanAllColumns) &&
                gpus != app.scenario.gpu_count) {
                app.scenario.gpu_count = gpus;
                app.scenario_dirty = true;
            }
            test_anchor(app, "scaling-" + std::to_string(gpus));
            const double speedup = json_number(row, "speedup"), eff = json_number(row, "scaling_efficiency");
            const double time = json_number(row, with_dataset ? "total_s" : "step_s");
            ImGui::TableNextColumn();
            if (speedup > 0) ImGui::Text("%sx", format_significant(speedup, 3).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (eff > 0) ImGui::TextUnformatted(format_percent(eff).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            if (time > 0) ImGui::TextUnformatted(format_duration(time, L).c_str());
            else ImGui::TextDisabled("-");
            ImGui::TableNextColumn();
            const bool fits = row.value("fits", false);
            ImGui::TextColored(verdict_color(fits), "%s", tr(fits ? Str::Yes : Str::No, L));
        }
        ImGui::EndTable();
        table_anchor(app, "scaling-table", "##scaling");
    }
    // Explain speed-ups above the number of cards (ZeRO/FSDP; the efficiency stays <= 100%, engine/time.h).
    bool above_linear = false;
    const double first_gpus = rows.empty() ? 1.0 : std::max(1.0, json_number(rows.front(), "gpus"));
    for (const nlohmann::json& row : rows)
        above_linear |= json_number(row, "speedup") > json_number(row, "gpus") / first_gpus * 1.005;
    if (above_linear) hint_text(tr(Str::ScalingAboveLinear, L));
    ImGui::TreePop();
}

}  // namespace

void draw_time(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    const engine::GpuSpec* gpu = app.catalog().find_gpu(s.gpu_id);
    if (gpu == nullptr) return;
    section_heading(app, tr(Str::TimeTitle, L));
    const nlohmann::json& t = r.report.contains("time") ? r.report["time"] : nlohmann::json();
    const double step = json_number(t, "step_s");
    if (step < 0) {
        hint_text(tr(Str::TimeUnknown, L));
        return;
    }
    const double total = json_number(t, "total_s"), low = json_number(t, "low_s"), high = json_number(t, "high_s");
    // A job that does not fit stops with an out-of-memory error before its first step (issue 40: its times read as
    // valid): said first, and the times below in grey.
    const bool no_fit = r.estimate.report.verdict.verdict == engine::Verdict::kDoesNotFit;
    if (no_fit) {
        ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
        wrapped_text(tr(Str::TimeNotFit, L));
        ImGui::PopStyleColor();
        test_anchor(app, "time-not-fit");
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    }
    if (t.contains("calibration") && t["calibration"].is_object()) {  // the card's measured speed is in these times
        ImGui::PushStyleColor(ImGuiCol_Text, kTightColor);
        wrapped_textf(tr(Str::CalBadgeSpeed, L), format_significant(json_number(t["calibration"], "efficiency_factor", 1), 3).c_str(),
                      tr(Str::CalibratedByYou, L));
        ImGui::PopStyleColor();
    }
    // A loader slower than the fast and the slow kernel estimates sets every end of the range: no range to show.
    const double loader_wait = json_number(t, "loader_wait_s", 0);
    const bool loader_bound = loader_wait > 0 && high <= low;
    if (total > 0 && loader_bound) {
        wrapped_textf(tr(Str::TimeLineLoaderBound, L), s.gpu_count, gpu->name.c_str(), format_duration(total, L).c_str(),
                      format_duration(step, L).c_str());
    } else if (total > 0) {
        wrapped_textf(tr(Str::TimeLine, L), s.gpu_count, gpu->name.c_str(), format_duration(total, L).c_str(),
                           format_duration(step, L).c_str(), format_duration(low, L).c_str(),
                           format_duration(high, L).c_str());
    } else {
        hint_text(tr(Str::TimeNoDataset, L));
    }
    if (no_fit) ImGui::PopStyleColor();
    // Per epoch, when the dataset is counted in samples over several epochs (with one, it is the total above).
    const double epoch = json_number(t, "epoch_s"), steps_per_epoch = json_number(t, "steps_per_epoch");
    if (epoch > 0 && steps_per_epoch > 0 && s.dataset_epochs > 1) {
        wrapped_textf(tr(Str::EpochLine, L), format_grouped(s.dataset_samples).c_str(),
                      format_grouped(steps_per_epoch).c_str(), format_duration(epoch, L).c_str());
    }
    const double sps = json_number(t, "samples_per_s"), mfu = json_number(t, "mfu");
    if (sps > 0 && mfu >= 0) hint_textf(tr(Str::ThroughputLine, L), format_significant(sps, 4).c_str(), format_percent(mfu).c_str());
    // Figures past any real run (engine/plausibility.h), in the verdict's red so no one plans with them.
    if (t.contains("implausible") && t["implausible"].is_array())
        for (const nlohmann::json& flag : t["implausible"]) {
            ImGui::PushStyleColor(ImGuiCol_Text, kBadColor);
            if (flag == "mfu_above_peak") wrapped_textf(tr(Str::ImplausibleMfu, L), format_percent(mfu).c_str());
            if (flag == "time_past_century") wrapped_text(tr(Str::ImplausibleTime, L));
            ImGui::PopStyleColor();
            test_anchor(app, "implausible-time");
        }
    if (t.value("peak_inferred", false)) hint_text(tr(Str::PeakInferredHint, L));
    if (t.value("precision_fallback", false) && t.contains("rate") && t["rate"].is_string())
        hint_textf(tr(Str::PrecisionFallbackHint, L), t["rate"].get<std::string>().c_str());
    if (loader_wait > 0) wrapped_textf(tr(Str::LoaderWaitLine, L), format_duration(loader_wait, L).c_str());
    draw_loader_line(app, t, L);  // ui/loader_panel.cpp: pipeline, workers, CPUs, rate; who sets the pace
    const double encoders = json_number(t, "input_encoder_s", 0);
    if (encoders > 0) {
        hint_textf(tr(Str::EncoderLine, L), format_duration(encoders, L).c_str());
        test_anchor(app, "encoder-line");
    }
    // Detection pipelines are the common loader-bound case (docs/validation-sources.md sec. 7k).
    if (s.model.family == engine::Family::kYolo && s.loader_samples_per_s <= 0) hint_text(tr(Str::YoloLoaderHint, L));
    draw_scaling(app, t, total > 0);
    if (t.contains("explain") && t["explain"].is_object() &&
        ImGui::TreeNode(stable_label(tr(Str::TimeFormula, L), "time-formula").c_str())) {
        // The step first, then its parts in the order they add up, then the FLOPs MFU is computed from.
        for (const char* key :
             {"step", "compute", "memory_bound", "optimizer", "comm", "exposed_comm", "model_parallel", "flop"}) {
            if (!t["explain"].contains(key) || !t["explain"][key].is_object()) continue;
            const nlohmann::json& f = t["explain"][key];
            const std::string id = f.value("formula", key);
            const double value = json_number(f, "value", -1);
            const std::string shown = value < 0 ? "-"
                                      : id == "time.model_flop" ? format_significant(value / 1e12, 3) + " TFLOP"
                                                                 : format_duration(value, L);
            wrapped_textf("%s  %s", shown.c_str(), formula_text(id, L));
            hint_text(id.c_str());
            if (f.contains("operands") && f["operands"].is_object())
                for (auto op = f["operands"].begin(); op != f["operands"].end(); ++op)
                    if (op.value().is_number())
                        ImGui::BulletText("%s = %s", op.key().c_str(),
                                          format_operand(op.key().c_str(), op.value().get<double>(), L).c_str());
        }
        ImGui::TreePop();
    }
    draw_cost_lines(app);
}

}  // namespace gg::ui
