// Display formatting of base-unit values (bytes, seconds, money, counts) in English and Chinese.
#include "ui/format.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "engine/hardware.h"

namespace gg::ui {

namespace {
}

std::string format_significant(double value, int digits) {
    if (!std::isfinite(value)) return "-";
    if (value == 0) return "0";
    char buf[64];
    if (std::fabs(value) >= 1e15) {  // 1.23e+15, not sixteen digits or more (a time of 1e300 s from absurd inputs)
        std::snprintf(buf, sizeof buf, "%.*g", digits, value);
        return buf;
    }
    const double magnitude = std::floor(std::log10(std::fabs(value)));
    int decimals = digits - 1 - static_cast<int>(magnitude);
    if (decimals < 0) decimals = 0;
    if (decimals > 6) decimals = 6;
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (!s.empty() && s.back() == '0') s.pop_back();
        if (!s.empty() && s.back() == '.') s.pop_back();
    }
    if (s == "-0") s = "0";
    return s;
}

std::string format_grouped(double value) {
    if (!std::isfinite(value)) return "-";
    if (std::fabs(value) >= 1e15) return format_significant(value, 3);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(value));
    std::string digits = buf, out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (value < 0 && out != "0" ? "-" : "") + out;
}

std::string cards_label(int count, const std::string& name, Lang lang) {
    if (count <= 1) return name;
    char buf[256];
    std::snprintf(buf, sizeof buf, tr(Str::CardCount, lang), count, name.c_str());
    return buf;
}

std::string format_gib(double bytes, Lang) {
    if (!std::isfinite(bytes)) return "-";
    const double gib = bytes / engine::kBytesPerGiB;
    char buf[64];
    if (std::fabs(gib) >= 100) std::snprintf(buf, sizeof buf, "%.0f GiB", gib);
    else if (std::fabs(gib) >= 0.1 || gib == 0) std::snprintf(buf, sizeof buf, "%.1f GiB", gib);
    else std::snprintf(buf, sizeof buf, "%.0f MiB", bytes / (1024.0 * 1024.0));
    return buf;
}

std::string format_duration(double seconds, Lang lang) {
    if (!std::isfinite(seconds) || seconds < 0) return "-";
    const bool zh = lang == Lang::Zh;
    if (seconds > 0 && seconds < 1e-3) return format_significant(seconds * 1e6, 3) + (zh ? " 微秒" : " \u00b5s");
    if (seconds < 1) return format_significant(seconds * 1000, 3) + (zh ? " 毫秒" : " ms");
    if (seconds < 120) return format_significant(seconds, 3) + (zh ? " 秒" : " s");
    if (seconds < 2 * 3600) return format_significant(seconds / 60, 3) + (zh ? " 分钟" : " min");
    if (seconds < 72 * 3600) return format_significant(seconds / 3600, 3) + (zh ? " 小时" : " h");
    if (seconds < 365.25 * 86400) return format_significant(seconds / 86400, 3) + (zh ? " 天" : " days");
    return format_significant(seconds / (365.25 * 86400), 3) + (zh ? " 年" : " years");
}

std::string without_brand(std::string name) {
    for (const char* prefix : {"NVIDIA GeForce ", "NVIDIA "})
        if (const std::size_t at = name.find(prefix); at != std::string::npos) {
            name.erase(at, std::strlen(prefix));
            break;
        }
    return name;
}

std::string format_money(double amount, const std::string& currency, Lang lang) {
    if (!std::isfinite(amount)) return "-";
    const std::string symbol = currency == "CNY" ? "¥" : currency == "USD" ? "$" : currency + " ";
    const std::string sign = amount < 0 ? "-" : "";
    const double a = std::fabs(amount);
    if (lang == Lang::Zh && a >= 1e8) return sign + symbol + format_significant(a / 1e8, 3) + " 亿";
    if (lang == Lang::Zh && a >= 1e5) return sign + symbol + format_significant(a / 1e4, 3) + " 万";
    if (lang == Lang::En && a >= 1e6) return sign + symbol + format_significant(a / 1e6, 3) + " M";
    if (std::round(a * 100) >= 100 * 100) return sign + symbol + format_grouped(a);
    // Below 100: whole cents, so a column of prices lines up (¥0.76 over ¥0.83); below a cent, two significant
    // digits (electricity of a short run).
    if (a > 0 && a < 0.01) return sign + symbol + format_significant(a, 2);
    char cents[32];
    std::snprintf(cents, sizeof cents, "%.2f", a);
    return sign + symbol + cents;
}

std::string currency_unit(const std::string& code, Lang lang) {
    if (lang == Lang::Zh && code == "CNY") return "元";
    if (lang == Lang::Zh && code == "USD") return "美元";
    return code;
}

std::string format_count(double count, Lang lang) {
    if (!std::isfinite(count)) return "-";
    const double a = std::fabs(count);
    if (lang == Lang::Zh) {
        if (a >= 1e8) return format_significant(count / 1e8, 3) + " 亿";
        if (a >= 1e4) return format_significant(count / 1e4, 3) + " 万";
        return format_grouped(count);
    }
    if (a >= 1e12) return format_significant(count / 1e12, 3) + " T";
    if (a >= 1e9) return format_significant(count / 1e9, 3) + " B";
    if (a >= 1e6) return format_significant(count / 1e6, 3) + " M";
    if (a >= 1e4) return format_significant(count / 1e3, 3) + " k";
    return format_grouped(count);
}

std::string format_rate(double per_s, Lang lang) {
    if (!std::isfinite(per_s)) return "-";
    return (per_s >= 1000 ? format_grouped(per_s) : format_significant(per_s, 3)) + (lang == Lang::Zh ? " /秒" : " /s");
}

std::string format_percent(double fraction) {
    if (!std::isfinite(fraction)) return "-";
    return format_significant(fraction * 100, fraction < 0.1 ? 2 : 3) + "%";
}

namespace {
bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}
}  // namespace

std::string format_operand(const char* name, double value, Lang lang) {
    const std::string n = name;
    if (ends_with(n, "bytes_per_s")) return format_significant(value / 1e9, 3) + " GB/s";
    if (ends_with(n, "cycles_per_s")) return format_significant(value / 1e9, 3) + " G/s";
    if (ends_with(n, "flop_per_s")) return format_significant(value / 1e12, 3) + " TFLOPS";
    if (ends_with(n, "flop_per_sample")) return format_significant(value / 1e9, 4) + " GFLOP";
    if (ends_with(n, "_bytes") || ends_with(n, "bytes_per_micro")) return format_gib(value, lang);
    if (ends_with(n, "_s")) return format_duration(value, lang);
    if (n.find("fraction") != std::string::npos) return format_percent(value);
    if (n.rfind("params", 0) == 0) return format_count(value, lang);
    return format_significant(value, 4);
}

}  // namespace gg::ui
