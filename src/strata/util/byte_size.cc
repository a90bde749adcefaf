#include "strata/util/byte_size.h"

#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace strata {
namespace {

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

// The multiplier of `unit` (lower case), or 0 when it is not one.
double UnitBytes(const std::string& unit) {
  constexpr double kKi = 1024.0;
  if (unit.empty() || unit == "b") return 1;
  if (unit == "k" || unit == "kib") return kKi;
  if (unit == "m" || unit == "mib") return kKi * kKi;
  if (unit == "g" || unit == "gib") return kKi * kKi * kKi;
  if (unit == "t" || unit == "tib") return kKi * kKi * kKi * kKi;
  if (unit == "kb") return 1e3;
  if (unit == "mb") return 1e6;
  if (unit == "gb") return 1e9;
  if (unit == "tb") return 1e12;
  return 0;
}

}  // namespace

Result<int64_t> ParseByteSize(std::string_view text, std::string_view what) {
  const auto invalid = [&]() {
    return Status::Invalid("{} '{}' is not a byte size (a number and an optional unit: 512MiB, 1.5G, 4096)", what,
                           text);
  };
  size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  if (end == 0) return invalid();
  double number = 0;
  const auto parsed = std::from_chars(text.data(), text.data() + end, number);
  if (parsed.ec != std::errc() || parsed.ptr != text.data() + end) return invalid();
  size_t unit_start = end;
  while (unit_start < text.size() && text[unit_start] == ' ') ++unit_start;
  const double unit = UnitBytes(Lower(text.substr(unit_start)));
  if (unit == 0) return invalid();
  const double bytes = std::round(number * unit);
  if (!(bytes < 9.2e18)) return Status::Invalid("{} '{}' is past 2^63 bytes", what, text);
  return static_cast<int64_t>(bytes);
}

std::string FormatByteSize(int64_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} bytes", bytes);
  double value = static_cast<double>(bytes);
  int unit = -1;
  while (unit < 3 && value >= 1024) {
    value /= 1024;
    ++unit;
  }
  if (value == std::floor(value)) return fmt::format("{} {}", static_cast<int64_t>(value), kUnits[unit]);
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

}  // namespace strata
