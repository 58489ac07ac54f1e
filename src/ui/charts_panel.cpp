// The calculator's charts: memory against batch size, rent against buy over months of ownership, and the
// ranking's cost against time. Each is drawn from the results (ui/chart.h); nothing is computed here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "engine/cost.h"
#include "ui/app.h"
#include "ui/calculator_panels.h"
#include "ui/chart.h"
#include "ui/export.h"
#include "ui/format.h"
#include "ui/widgets.h"

namespace gg::ui {

void draw_memory_curve(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    if (r.curve_batch.size() < 2) return;
    section_heading(app, tr(Str::MemVsBatchTitle, L));
    Chart c;
    if (!begin_chart(c, "##memcurve", ImVec2(-1, 15.0f * ImGui::GetFontSize()))) return;
    // Plotted in GiB, so the linear axis's 1-2-5 steps are round GiB (in bytes they would be 4.66, 9.31, ...).
    std::vector<double> curve_gib(r.curve_bytes.size());
    for (size_t i = 0; i < curve_gib.size(); ++i) curve_gib[i] = r.curve_bytes[i] / engine::kBytesPerGiB;
    double hi = 0;
    for (double g : curve_gib) hi = std::max(hi, g);
    const engine::MemoryReport& m = r.estimate.report;
    if (m.card_memory_bytes > 0) hi = std::max(hi, m.card_memory_bytes / engine::kBytesPerGiB);
    Axis x = make_log_axis(r.curve_batch.front(), r.curve_batch.back());
    Axis y = make_linear_axis(0, hi * 1.05, 5);
    setup_axes(c, x, y, tr(Str::AxisBatch, L), tr(Str::AxisGiB, L));
    if (m.usable_bytes > 0) {
        const std::string label = std::string(tr(Str::Usable, L)) + " " + format_gib(m.usable_bytes, L);
        chart_hline(c, m.usable_bytes / engine::kBytesPerGiB, IM_COL32(180, 30, 30, 255), label.c_str());
    }
    chart_line(c, r.curve_batch, curve_gib, IM_COL32(37, 99, 185, 255));
    chart_scatter(c, 0, r.curve_batch, curve_gib, IM_COL32(37, 99, 185, 255));
    const std::vector<double> cx = {static_cast<double>(r.scenario.scenario.batch_size)};
    const std::vector<double> cy = {m.nvidia_smi.bytes / engine::kBytesPerGiB};
    chart_scatter(c, 1, cx, cy, IM_COL32(230, 140, 40, 255), 0.4f);
    if (c.hovered_series >= 0) {
        const double b = c.hovered_series == 0 ? r.curve_batch[c.hovered_index] : cx[0];
        const double bytes = c.hovered_series == 0 ? r.curve_bytes[c.hovered_index] : m.nvidia_smi.bytes;
        ImGui::SetTooltip("%s %s: %s", tr(Str::AxisBatch, L), format_significant(b, 6).c_str(),
                          format_gib(bytes, L).c_str());
    }
    end_chart(c);
}

namespace {

std::string months_tick(double v) { return format_significant(v, 3); }

}  // namespace

void draw_rent_vs_buy(AppState& app) {
    const Results& r = app.results;
    const Lang L = app.lang;
    const catalog::Scenario& s = r.scenario.scenario;
    const catalog::Catalog& cat = app.catalog();
    const engine::GpuSpec* gpu = cat.find_gpu(s.gpu_id);
    const nlohmann::json* rent = ranking_option(r.ranking, "rent", s.gpu_id, 1);
    if (gpu == nullptr || rent == nullptr) return;
    const engine::CloudOffer* offer = cat.find_offer(rent->value("offer", ""));
    if (offer == nullptr || offer->gpu_count != 1) return;
    const engine::DecisionInputs& d = r.scenario.decision;
    engine::BuyInputs buy;
    buy.card_count = 1;
    buy.cny_per_usd = d.cny_per_usd > 0 ? d.cny_per_usd : cat.settings.exchange_rate.cny_per_usd;
    buy.electricity_price_per_kwh_cny = d.electricity_price_per_kwh_cny;
    buy.gpu_hours_per_month = d.gpu_hours_per_month;
    buy.host = cat.settings.host_system;
    buy.resale = cat.settings.resale_value;
    engine::RentInputs rent_in;
    rent_in.cny_per_usd = buy.cny_per_usd;
    // Cumulative cost of training for m months at the user's GPU-hours per month, in CNY.
    std::vector<double> months, rent_cny, buy_cny;
    for (double m = 0; m <= 36.0 + 1e-9; m += 1.0) {
        const double hours = m * buy.gpu_hours_per_month;
        buy.run_time_s = rent_in.run_time_s = hours * 3600.0;
        buy.ownership_months = m > 0 ? m : 1e-6;
        const double b = engine::buy_cost(*gpu, buy).total_cny;
        const double rc = hours > 0 ? engine::rent_cost(*offer, rent_in).total_cny : 0.0;
        if (!std::isfinite(b) || !std::isfinite(rc)) return;  // price unknown: no chart rather than a wrong one
        months.push_back(m);
        buy_cny.push_back(b);
        rent_cny.push_back(rc);
    }
    section_heading(app, tr(Str::RentBuyTitle, L));
    // The hours a month the chart assumes: an input (issue 40), shown with its default, not a hidden constant.
    const double default_hours = (cat.settings.utilization.value_fraction > 0 ? cat.settings.utilization.value_fraction : 0.5) *
                                 engine::kHoursPerMonth;
    {
        char tip[1024];
        std::snprintf(tip, sizeof tip, tr(Str::GpuHoursTip, L), format_significant(default_hours, 3).c_str(),
                      format_percent(default_hours / engine::kHoursPerMonth).c_str());
        field_label(tr(Str::GpuHoursPerMonth, L), tip);
        double hours = d.gpu_hours_per_month;
        if (double_field(app, "##gpu-hours-per-month", hours, 1, engine::kHoursPerMonth, 10,
                         tr(Str::UnitHoursPerMonth, L), "%.0f")) {
            app.decision.erase("utilization");  // the same thing as a fraction: one of the two only
            app.decision["gpu_hours_per_month"] = hours;
            app.scenario_dirty = true;
        }
        test_anchor(app, "gpu-hours-per-month");
    }
    Chart c;
    c.format_x = months_tick;
    if (!begin_chart(c, "##rentbuy", ImVec2(-1, 13.0f * ImGui::GetFontSize()))) return;
    double hi = 0;
    for (size_t i = 0; i < months.size(); ++i) hi = std::max({hi, rent_cny[i], buy_cny[i]});
    Axis months_axis;
    months_axis.min = 0;
    months_axis.max = 36;
    setup_axes(c, months_axis, make_linear_axis(0, hi, 5), tr(Str::AxisMonths, L), currency_unit("CNY", L).c_str());
    const ImU32 rent_color = IM_COL32(230, 140, 40, 255), buy_color = IM_COL32(37, 99, 185, 255);
    chart_line(c, months, rent_cny, rent_color);
    chart_line(c, months, buy_cny, buy_color);
    // Where the two cumulative curves cross (linear between whole months).
    double crossing = -1;
    for (size_t i = 1; i < months.size() && crossing < 0; ++i) {
        const double d0 = buy_cny[i - 1] - rent_cny[i - 1], d1 = buy_cny[i] - rent_cny[i];
        if (d0 > 0 && d1 <= 0) crossing = months[i - 1] + d0 / (d0 - d1) * (months[i] - months[i - 1]);
    }
    if (crossing > 0) chart_vline(c, crossing, IM_COL32(90, 96, 106, 255), "");
    if (c.hovered) {
        const int i = std::clamp(static_cast<int>(std::lround(c.x.to_value(c.mouse.x))), 0, static_cast<int>(months.size()) - 1);
        ImGui::SetTooltip("%s %s\n%s: %s\n%s: %s", format_significant(months[i], 3).c_str(), tr(Str::AxisMonths, L),
                          tr(Str::LegendRent, L), format_money(rent_cny[i], "CNY", L).c_str(), tr(Str::LegendBuy, L),
                          format_money(buy_cny[i], "CNY", L).c_str());
    }
    end_chart(c);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(rent_color), "— %s: %s", tr(Str::LegendRent, L), offer->provider.c_str());
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(buy_color), "— %s", tr(Str::LegendBuy, L));
    if (crossing > 0) wrapped_textf(tr(Str::BreakEvenAt, L), format_significant(crossing, 2).c_str());
    else hint_text(tr(Str::NoBreakEven, L));
}

namespace {

// Ticks of the cost-time chart, with their units: money with its currency sign ("¥500", "¥2 k" / "¥2 万"), hours
// with the hour's sign ("20 h" / "20 小时").
std::string money_tick(double v, const std::string& currency, Lang L) {
    const std::string symbol = currency == "CNY" ? "¥" : currency == "USD" ? "$" : currency + " ";
    if (v < 1000 || (L == Lang::Zh && v < 1e4)) return symbol + format_significant(v, 3);
    return symbol + format_count(v, L);
}
std::string hours_tick(double h, Lang L) {
    char buf[48];
    std::snprintf(buf, sizeof buf, tr(Str::TickHours, L), format_significant(h, 3).c_str());
    return buf;
}

}  // namespace

void draw_cost_time_chart(AppState& app, const std::vector<const nlohmann::json*>& shown) {
    const Lang L = app.lang;
    // Three series: rent (0) and buy (2) options off the frontier, and the frontier (1).
    std::vector<double> xs, ys, bx, by, fx, fy;
    for (const nlohmann::json* o : shown) {
        const double t = json_number(*o, "time_s"), c = json_number((*o)["cost"], "amount");
        if (t <= 0 || c <= 0 || !std::isfinite(c)) continue;
        const bool frontier = o->value("pareto", false), buy = o->value("kind", "") == "buy";
        (frontier ? fx : buy ? bx : xs).push_back(t / 3600.0);  // plotted in hours: ticks at 1-2-5 x 10^k h
        (frontier ? fy : buy ? by : ys).push_back(c);
    }
    if (xs.size() + bx.size() + fx.size() < 2) return;
    section_heading(app, tr(Str::CostTimeTitle, L));
    Chart c;
    if (!begin_chart(c, "##costtime", ImVec2(-1, 15.0f * ImGui::GetFontSize()))) return;
    double tmin = 1e300, tmax = 0, cmin = 1e300, cmax = 0;
    for (auto* v : {&xs, &bx, &fx}) for (double t : *v) tmin = std::min(tmin, t), tmax = std::max(tmax, t);
    for (auto* v : {&ys, &by, &fy}) for (double x : *v) cmin = std::min(cmin, x), cmax = std::max(cmax, x);
    const std::string currency = app.results.ranking.value("currency", "CNY");
    c.format_x = [L](double h) { return hours_tick(h, L); };
    c.format_y = [currency, L](double v) { return money_tick(v, currency, L); };
    setup_axes(c, make_log_axis(tmin, tmax), make_log_axis(cmin, cmax), tr(Str::AxisHours, L),
               currency_unit(app.results.ranking.value("currency", "CNY"), L).c_str());
    const ImU32 rent_color = IM_COL32(230, 140, 40, 190), buy_color = IM_COL32(120, 126, 136, 190);
    chart_scatter(c, 0, xs, ys, rent_color, 0.22f);
    chart_scatter(c, 2, bx, by, buy_color, 0.22f);
    std::vector<size_t> order(fx.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return fx[a] < fx[b]; });
    std::vector<double> lx, ly;
    for (size_t i : order) lx.push_back(fx[i]), ly.push_back(fy[i]);
    chart_line(c, lx, ly, IM_COL32(37, 99, 185, 255));
    chart_scatter(c, 1, fx, fy, IM_COL32(37, 99, 185, 255), 0.3f);
    if (c.hovered_series >= 0) {
        const std::vector<double>& hx = c.hovered_series == 0 ? xs : c.hovered_series == 2 ? bx : fx;
        const std::vector<double>& hy = c.hovered_series == 0 ? ys : c.hovered_series == 2 ? by : fy;
        const double t_h = hx[c.hovered_index];
        const double cost = hy[c.hovered_index];
        for (const nlohmann::json* o : shown)
            if (json_number(*o, "time_s") / 3600.0 == t_h && json_number((*o)["cost"], "amount") == cost) {
                const double t = json_number(*o, "time_s");
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(tooltip_wrap(30.0f));
                ImGui::TextUnformatted(option_label(app.catalog(), *o, L).c_str());
                ImGui::Text("%s  ·  %s", format_duration(t, L).c_str(),
                            format_money(cost, (*o)["cost"].value("currency", "CNY"), L).c_str());
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
                break;
            }
    }
    end_chart(c);
    // Legend: which dots are rentals and which purchases.
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(rent_color), "● %s", tr(Str::LegendRent, L));
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(buy_color), "● %s", tr(Str::LegendBuy, L));
    // The frontier's sentence on the same line when it fits, else on its own, wrapped (a phone cut it).
    const std::string frontier = std::string("— ") + tr(Str::LegendFrontier, L);
    if (ImGui::CalcTextSize(frontier.c_str()).x + ImGui::GetStyle().ItemSpacing.x < ImGui::GetContentRegionAvail().x -
                                                                                     ImGui::GetItemRectMax().x +
                                                                                     ImGui::GetCursorScreenPos().x)
        ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(IM_COL32(37, 99, 185, 255)));
    wrapped_text(frontier.c_str());
    ImGui::PopStyleColor();
}

}  // namespace gg::ui
