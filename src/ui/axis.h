// Axis maths for the page's charts: "nice" tick steps, linear and log scales, value <-> pixel. Pure
// functions (no ImGui), tested in tests/ui/test_axis.cpp.
#pragma once

#include <vector>

namespace gg::ui {

// A step of 1, 2 or 5 x 10^k giving about `target_ticks` intervals over `range` (> 0).
double nice_step(double range, int target_ticks);

struct Axis {
    double min = 0, max = 1;  // data range shown (after nice rounding)
    bool log = false;         // log10 scale (min > 0)
    double pixel_min = 0, pixel_max = 1;  // screen position of min and max (max < min for a y axis)

    double to_pixel(double value) const;
    double to_value(double pixel) const;
};

// Expands [lo, hi] to tick-aligned bounds; handles lo == hi and reversed input.
Axis make_linear_axis(double lo, double hi, int target_ticks);
// Decades around [lo, hi] (both > 0; non-positive values are clamped to hi / 1e3).
Axis make_log_axis(double lo, double hi);

// Tick values inside the axis: multiples of the nice step (linear) or 1-2-5 x 10^k (log: 1, 2 and 5 in each decade
// when the axis spans one decade or has room for them, about two intervals a decade, else the powers of ten).
std::vector<double> axis_ticks(const Axis& axis, int target_ticks);

}  // namespace gg::ui
