// Axis maths of the charts: nice steps, tick-aligned bounds, value <-> pixel round trips.
#include <doctest/doctest.h>

#include "ui/axis.h"

#include <cmath>
#include <vector>

using gg::ui::Axis;

TEST_CASE("nice steps are 1, 2 or 5 times a power of ten") {
    CHECK(gg::ui::nice_step(10, 5) == doctest::Approx(2));
    CHECK(gg::ui::nice_step(100, 4) == doctest::Approx(50));
    CHECK(gg::ui::nice_step(0.37, 5) == doctest::Approx(0.1));
    CHECK(gg::ui::nice_step(7.3e9, 5) == doctest::Approx(2e9));
    CHECK(gg::ui::nice_step(0, 5) == doctest::Approx(1));  // degenerate input never divides by zero
}

TEST_CASE("a linear axis covers the data with tick-aligned bounds") {
    const Axis a = gg::ui::make_linear_axis(3.2, 47.9, 5);
    CHECK(a.min == doctest::Approx(0));
    CHECK(a.max == doctest::Approx(50));
    const auto ticks = gg::ui::axis_ticks(a, 5);
    REQUIRE(ticks.size() == 6);
    CHECK(ticks.front() == doctest::Approx(0));
    CHECK(ticks.back() == doctest::Approx(50));
    SUBCASE("equal and reversed bounds") {
        const Axis same = gg::ui::make_linear_axis(5, 5, 5);
        CHECK(same.min < 5);
        CHECK(same.max > 5);
        const Axis rev = gg::ui::make_linear_axis(10, 0, 5);
        CHECK(rev.min == doctest::Approx(0));
        CHECK(rev.max == doctest::Approx(10));
    }
}

TEST_CASE("value and pixel convert both ways, also on a log axis and a flipped y axis") {
    Axis y = gg::ui::make_linear_axis(0, 100, 5);
    y.pixel_min = 400;  // y grows upwards on screen
    y.pixel_max = 0;
    CHECK(y.to_pixel(0) == doctest::Approx(400));
    CHECK(y.to_pixel(100) == doctest::Approx(0));
    CHECK(y.to_value(y.to_pixel(37.5)) == doctest::Approx(37.5));

    Axis x = gg::ui::make_log_axis(3, 4200);
    CHECK(x.min == doctest::Approx(1));
    CHECK(x.max == doctest::Approx(10000));
    x.pixel_min = 0;
    x.pixel_max = 400;
    CHECK(x.to_pixel(100) == doctest::Approx(200));
    CHECK(x.to_value(300) == doctest::Approx(1000));
    const auto ticks = gg::ui::axis_ticks(x, 5);
    CHECK(ticks.front() == doctest::Approx(1));
    CHECK(ticks.back() == doctest::Approx(10000));
}

TEST_CASE("a log axis ticks at 1, 2 and 5 times powers of ten when it has room, else at the powers of ten") {
    const Axis hours = gg::ui::make_log_axis(3, 4200);  // four decades: 1 h to 10,000 h
    const auto wide = gg::ui::axis_ticks(hours, 8);    // room for two intervals a decade: 1-2-5
    REQUIRE(wide.size() == 13);
    CHECK(wide[1] == doctest::Approx(2));
    CHECK(wide[2] == doctest::Approx(5));
    CHECK(wide[3] == doctest::Approx(10));
    const auto narrow = gg::ui::axis_ticks(hours, 4);  // a phone's chart: only the decades
    REQUIRE(narrow.size() == 5);
    for (std::size_t i = 0; i < narrow.size(); ++i) {
        CAPTURE(i);
        CHECK(narrow[i] == doctest::Approx(std::pow(10.0, double(i))));
    }
    const Axis gib = gg::ui::make_log_axis(1.5, 60);  // two decades (1 to 100 GiB): 1-2-5 from four intervals up
    CHECK(gg::ui::axis_ticks(gib, 3).size() == 3);     // a phone's chart: 1, 10, 100
    const auto two = gg::ui::axis_ticks(gib, 4);
    const std::vector<double> expected{1, 2, 5, 10, 20, 50, 100};
    REQUIRE(two.size() == expected.size());
    for (std::size_t i = 0; i < two.size(); ++i) {
        CAPTURE(i);
        CHECK(two[i] == doctest::Approx(expected[i]));
    }
}
