// Numbers as the page shows them, per language: memory in GiB, durations, money, counts. Pure functions
// (no ImGui), the one place where base units become display units (STYLE.md: convert in exactly two places).
#pragma once

#include <string>

#include "ui/strings.h"

namespace gg::ui {

// 2^30 bytes; memory is never shown in decimal "GB".
std::string format_gib(double bytes, Lang lang);
// A card's name without the vendor's brand, for a phone's narrow columns: "RTX 4090", not "NVIDIA GeForce RTX 4090".
std::string without_brand(std::string name);                 // "18.2 GiB"
// The cards a headline is about: the name alone for one card, "4 × NVIDIA GeForce RTX 4090" for several.
std::string cards_label(int count, const std::string& name, Lang lang);
std::string format_duration(double seconds, Lang lang);          // "45 s", "12 min", "9.5 h", "3.2 days" / "3.2 天"
std::string format_money(double amount, const std::string& currency, Lang lang);  // "¥310", "$1,234", "¥1.2 万"
// A currency as a unit after a number or on an axis: the code in English ("CNY", "USD"), the word in Chinese (元, 美元).
std::string currency_unit(const std::string& code, Lang lang);
std::string format_count(double count, Lang lang);               // "124.4 M" / "1.24 亿", "7.6 B" / "76.2 亿"
std::string format_rate(double per_s, Lang lang);                // "1,234 /s"
std::string format_percent(double fraction);                     // "82%"

// Significant-digit rounding shared by the formatters: 3 significant digits, no trailing zeros.
std::string format_significant(double value, int digits = 3);
// Thousands separators for whole numbers ("1,234,567").
std::string format_grouped(double value);
// An operand of an engine formula in its unit, read from the unit in its name (the engine's convention): *_bytes,
// *_bytes_per_s, *_cycles_per_s, *_flop_per_s, *_flop_per_sample, *_s, *fraction*, params*; else a plain number.
std::string format_operand(const char* name, double value, Lang lang);

}  // namespace gg::ui
