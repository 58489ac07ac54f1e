// Nice ticks after Heckbert, "Nice numbers for graph labels" (Graphics Gems, 1990): steps of 1, 2, 5 x 10^k.
#include "ui/axis.h"

#include <algorithm>
#include <cmath>

namespace gg::ui {

double nice_step(double range, int target_ticks) {
    if (!(range > 0) || !std::isfinite(range)) return 1.0;
    if (target_ticks < 1) target_ticks = 1;
    const double raw = range / target_ticks;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double fraction = raw / magnitude;
    const double nice = fraction <= 1.0 ? 1.0 : fraction <= 2.0 ? 2.0 : fraction <= 5.0 ? 5.0 : 10.0;
    return nice * magnitude;
}

double Axis::to_pixel(double value) const {
    double t;
    if (log) {
        const double v = value > 0 ? value : min;
        t = (std::log10(v) - std::log10(min)) / (std::log10(max) - std::log10(min));
    } else {
        t = (value - min) / (max - min);
    }
    return pixel_min + t * (pixel_max - pixel_min);
}

double Axis::to_value(double pixel) const {
    const double t = (pixel - pixel_min) / (pixel_max - pixel_min);
    if (log) return std::pow(10.0, std::log10(min) + t * (std::log10(max) - std::log10(min)));
    return min + t * (max - min);
}

Axis make_linear_axis(double lo, double hi, int target_ticks) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
    if (lo > hi) std::swap(lo, hi);
    if (lo == hi) {
        const double pad = lo == 0 ? 1.0 : std::fabs(lo) * 0.5;
        lo -= pad;
        hi += pad;
    }
    const double step = nice_step(hi - lo, target_ticks);
    Axis axis;
    axis.min = std::floor(lo / step) * step;
    axis.max = std::ceil(hi / step) * step;
    return axis;
}

Axis make_log_axis(double lo, double hi) {
    if (!(hi > 0) || !std::isfinite(hi)) hi = 1;
    if (!(lo > 0) || !std::isfinite(lo)) lo = hi / 1e3;
    if (lo > hi) std::swap(lo, hi);
    Axis axis;
    axis.log = true;
    axis.min = std::pow(10.0, std::floor(std::log10(lo)));
    axis.max = std::pow(10.0, std::ceil(std::log10(hi)));
    if (axis.max <= axis.min) axis.max = axis.min * 10;
    return axis;
}

std::vector<double> axis_ticks(const Axis& axis, int target_ticks) {
    std::vector<double> ticks;
    if (axis.log) {
        const int decades = static_cast<int>(std::lround(std::log10(axis.max / axis.min)));
        const double* mults;
        static const double kAll[] = {1, 2, 5};
        static const double kOne[] = {1};
        int count;
        // 1, 2 and 5 in every decade when there is room for three labels a decade (the axis asks for about
        // `target_ticks` intervals), else only the powers of ten.
        if (decades <= 1 || 2 * decades <= target_ticks) { mults = kAll; count = 3; } else { mults = kOne; count = 1; }
        const int every = decades > 2 * target_ticks ? (decades + target_ticks - 1) / target_ticks : 1;
        for (int d = 0; d <= decades; d += every) {
            const double base = axis.min * std::pow(10.0, d);
            for (int i = 0; i < count; ++i) {
                const double v = base * mults[i];
                if (v <= axis.max * (1 + 1e-9)) ticks.push_back(v);
            }
        }
        return ticks;
    }
    const double step = nice_step(axis.max - axis.min, target_ticks);
    const double first = std::ceil(axis.min / step - 1e-9) * step;
    for (double v = first; v <= axis.max + step * 1e-9; v += step) {
        ticks.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
        if (ticks.size() > 1000) break;
    }
    return ticks;
}

}  // namespace gg::ui
