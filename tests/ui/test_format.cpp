// Display formatting: GiB (2^30), durations, money and counts in both languages.
#include <doctest/doctest.h>

#include "ui/format.h"

using gg::ui::Lang;

TEST_CASE("memory is shown in GiB of 2^30 bytes") {
    CHECK(gg::ui::format_gib(24.0 * 1073741824.0, Lang::En) == "24.0 GiB");
    CHECK(gg::ui::format_gib(18.23 * 1073741824.0, Lang::Zh) == "18.2 GiB");
    CHECK(gg::ui::format_gib(141.0 * 1073741824.0, Lang::En) == "141 GiB");
    CHECK(gg::ui::format_gib(44.0 * 1048576.0, Lang::En) == "44 MiB");
}

TEST_CASE("durations pick a readable unit in each language") {
    CHECK(gg::ui::format_duration(0.25, Lang::En) == "250 ms");
    CHECK(gg::ui::format_duration(12.8e-6, Lang::En) == "12.8 \u00b5s");  // a kernel's host time
    CHECK(gg::ui::format_duration(12.8e-6, Lang::Zh) == "12.8 微秒");
    CHECK(gg::ui::format_duration(0, Lang::En) == "0 ms");
    CHECK(gg::ui::format_duration(45, Lang::En) == "45 s");
    CHECK(gg::ui::format_duration(720, Lang::En) == "12 min");
    CHECK(gg::ui::format_duration(9.5 * 3600, Lang::En) == "9.5 h");
    CHECK(gg::ui::format_duration(9.5 * 3600, Lang::Zh) == "9.5 小时");
    CHECK(gg::ui::format_duration(4 * 86400, Lang::Zh) == "4 天");
    CHECK(gg::ui::format_duration(-1, Lang::En) == "-");
    // Absurd inputs (a loader of 1e-300 samples/s) give absurd times: short, not three hundred digits.
    CHECK(gg::ui::format_duration(1e303, Lang::En) == "3.17e+295 years");
    CHECK(gg::ui::format_grouped(1e300) == "1e+300");
    CHECK(gg::ui::format_grouped(123456789) == "123,456,789");
}

TEST_CASE("money carries its currency and uses wan and yi in Chinese") {
    CHECK(gg::ui::format_money(310, "CNY", Lang::En) == "¥310");
    CHECK(gg::ui::format_money(12999, "CNY", Lang::En) == "¥12,999");
    CHECK(gg::ui::format_money(129990, "CNY", Lang::Zh) == "¥13 万");
    CHECK(gg::ui::format_money(55.04, "USD", Lang::En) == "$55.04");
    CHECK(gg::ui::format_money(2.5, "USD", Lang::En) == "$2.50");
    CHECK(gg::ui::format_money(0.828, "CNY", Lang::En) == "¥0.83");  // whole cents: a column lines up
    CHECK(gg::ui::format_money(0.76, "CNY", Lang::Zh) == "¥0.76");
    CHECK(gg::ui::format_money(0.0015, "CNY", Lang::En) == "¥0.0015");  // below a cent: not "¥0.00"
    CHECK(gg::ui::format_money(99.996, "CNY", Lang::En) == "¥100");  // rounds up to the next format
}

TEST_CASE("counts use M and B in English, wan and yi in Chinese") {
    CHECK(gg::ui::format_count(124439808, Lang::En) == "124 M");
    CHECK(gg::ui::format_count(124439808, Lang::Zh) == "1.24 亿");
    CHECK(gg::ui::format_count(7.6e9, Lang::En) == "7.6 B");
    CHECK(gg::ui::format_count(7.6e9, Lang::Zh) == "76 亿");
    CHECK(gg::ui::format_count(512, Lang::En) == "512");
}

TEST_CASE("an engine operand is shown in the unit its name carries") {
    CHECK(gg::ui::format_operand("sm_cycles_per_s", 152.28e9, Lang::En) == "152 G/s");  // not a duration
    CHECK(gg::ui::format_operand("elementwise_bytes_per_s", 1.066e12, Lang::En) == "1066 GB/s");
    CHECK(gg::ui::format_operand("peak_flop_per_s", 312e12, Lang::En) == "312 TFLOPS");
    CHECK(gg::ui::format_operand("compute_s", 0.5, Lang::En) == gg::ui::format_duration(0.5, Lang::En));
    CHECK(gg::ui::format_operand("bandwidth_fraction", 0.82, Lang::En) == "82%");
    CHECK(gg::ui::format_operand("stream_bytes_per_sm_cycle", 7, Lang::En) == "7");
}
