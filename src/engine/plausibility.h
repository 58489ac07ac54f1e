// Answers past what any real training job reaches. They come from inputs that are wrong, not from a job: a
// calibration factor that puts a card past its own peak, a download rate of a few bytes a second, a dataset of
// petabytes. Every report flags them (it never hides the number), so the user sees which figure not to trust.
// Pure: no JSON, no UI.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace gg::engine {

// A hundred years of 365.25 days: no training run, rented or owned, is planned past it.
inline constexpr double kCenturyS = 100.0 * 365.25 * 86400.0;
// 10^12 CNY (about 1.4 x 10^11 USD): more than the largest AI data-centre projects announced to date cost, so past
// the budget of anyone this guide is for by many orders of magnitude.
inline constexpr double kPastAnyBudgetCny = 1e12;

enum class Implausible : std::uint8_t {
    kMfuAbovePeak,     // model FLOPs per second above the card's dense peak (MFU > 1): no kernel runs past its peak
    kTimePastCentury,  // a run, or its calendar, of more than a hundred years
    kCostPastBudget,   // a cost of more than kPastAnyBudgetCny
};

inline const char* implausible_name(Implausible flag) {
    switch (flag) {
        case Implausible::kMfuAbovePeak: return "mfu_above_peak";
        case Implausible::kTimePastCentury: return "time_past_century";
        case Implausible::kCostPastBudget: return "cost_past_budget";
    }
    return "";
}

// The flags of one answer; NaN or 0 = not known, never flagged.
inline std::vector<Implausible> implausible_flags(double mfu, double time_s, double cost_cny) {
    std::vector<Implausible> out;
    if (std::isfinite(mfu) && mfu > 1.0) out.push_back(Implausible::kMfuAbovePeak);
    if (!std::isfinite(time_s) ? time_s > 0 : time_s > kCenturyS) out.push_back(Implausible::kTimePastCentury);
    if (!std::isfinite(cost_cny) ? cost_cny > 0 : cost_cny > kPastAnyBudgetCny) out.push_back(Implausible::kCostPastBudget);
    return out;
}

}  // namespace gg::engine
