#include "strata/cli/value_format.h"

#include <openssl/evp.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace strata::cli {
namespace {

// Formats the shortest round-trip digits of a finite non-zero value the way ECMAScript's
// Number::toString lays them out. `scientific` is std::to_chars' scientific shortest form,
// e.g. "-1.2345e-07".
std::string JavaScriptLayout(std::string_view scientific) {
  bool negative = false;
  if (!scientific.empty() && scientific[0] == '-') {
    negative = true;
    scientific.remove_prefix(1);
  }
  const size_t e_pos = scientific.find('e');
  std::string_view mantissa = scientific.substr(0, e_pos);
  int exponent = 0;
  std::from_chars(scientific.data() + e_pos + 1 + (scientific[e_pos + 1] == '+'),
                  scientific.data() + scientific.size(), exponent);
  std::string digits;
  for (char c : mantissa) {
    if (c != '.') digits.push_back(c);
  }
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;  // position of the decimal point relative to the digits
  std::string out = negative ? "-" : "";
  if (k <= n && n <= 21) {
    out += digits;
    out.append(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n));
    out += '.';
    out += digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0.";
    out.append(static_cast<size_t>(-n), '0');
    out += digits;
  } else {
    out += digits[0];
    if (k > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += (n - 1 >= 0) ? '+' : '-';
    out += std::to_string(std::abs(n - 1));
  }
  return out;
}

template <typename F>
std::string FormatFloating(F value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  return JavaScriptLayout(std::string_view(buffer, static_cast<size_t>(result.ptr - buffer)));
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

struct CivilDate {
  int64_t year;
  unsigned month;
  unsigned day;
};

// Days since 1970-01-01 to a proleptic Gregorian date (era-based: 400-year cycles of 146097
// days, March-based years so the leap day is last).
CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = FloorDiv(days, 146097);
  const int64_t day_of_era = days - era * 146097;
  const int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t mp = (5 * day_of_year + 2) / 153;
  const unsigned day = static_cast<unsigned>(day_of_year - (153 * mp + 2) / 5 + 1);
  const unsigned month = static_cast<unsigned>(mp < 10 ? mp + 3 : mp - 9);
  const int64_t year = year_of_era + era * 400 + (month <= 2);
  return {year, month, day};
}

int64_t UnitsPerSecond(FormatTimeUnit unit) {
  switch (unit) {
    case FormatTimeUnit::kSecond: return 1;
    case FormatTimeUnit::kMilli: return 1000;
    case FormatTimeUnit::kMicro: return 1000000;
    case FormatTimeUnit::kNano: return 1000000000;
  }
  return 1;
}

int FractionDigits(FormatTimeUnit unit) {
  switch (unit) {
    case FormatTimeUnit::kSecond: return 0;
    case FormatTimeUnit::kMilli: return 3;
    case FormatTimeUnit::kMicro: return 6;
    case FormatTimeUnit::kNano: return 9;
  }
  return 0;
}

void AppendFraction(int64_t fraction, FormatTimeUnit unit, std::string* out) {
  if (fraction == 0) return;
  std::string digits = fmt::format("{:0{}}", fraction, FractionDigits(unit));
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  *out += '.';
  *out += digits;
}

std::string FormatYear(int64_t year) {
  return year < 0 ? fmt::format("-{:04}", -year) : fmt::format("{:04}", year);
}

}  // namespace

std::string FormatFloat64(double value) { return FormatFloating(value); }
std::string FormatFloat32(float value) { return FormatFloating(value); }

float Float16ToFloat32(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  const uint32_t mantissa = bits & 0x3ffu;
  float magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // subnormal (or zero)
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
  }
  uint32_t out;
  std::memcpy(&out, &magnitude, 4);
  out |= sign;
  float result;
  std::memcpy(&result, &out, 4);
  return result;
}

std::string FormatDate(int64_t days_since_epoch) {
  const CivilDate d = CivilFromDays(days_since_epoch);
  return fmt::format("{}-{:02}-{:02}", FormatYear(d.year), d.month, d.day);
}

std::string FormatTimestamp(int64_t value, FormatTimeUnit unit) {
  const int64_t per_second = UnitsPerSecond(unit);
  const int64_t seconds = FloorDiv(value, per_second);
  const int64_t fraction = value - seconds * per_second;
  const int64_t days = FloorDiv(seconds, 86400);
  const int64_t second_of_day = seconds - days * 86400;
  const CivilDate d = CivilFromDays(days);
  std::string out = fmt::format("{}-{:02}-{:02}T{:02}:{:02}:{:02}", FormatYear(d.year), d.month, d.day,
                                second_of_day / 3600, second_of_day / 60 % 60, second_of_day % 60);
  AppendFraction(fraction, unit, &out);
  return out;
}

std::string FormatTime(int64_t value, FormatTimeUnit unit) {
  const int64_t per_second = UnitsPerSecond(unit);
  const int64_t seconds = FloorDiv(value, per_second);
  const int64_t fraction = value - seconds * per_second;
  std::string out = fmt::format("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  AppendFraction(fraction, unit, &out);
  return out;
}

int64_t Int96ToNanoseconds(const uint8_t bytes[12]) {
  uint64_t nanos_of_day;
  int32_t julian_day;
  std::memcpy(&nanos_of_day, bytes, 8);
  std::memcpy(&julian_day, bytes + 8, 4);
  constexpr int64_t kJulianEpochDay = 2440588;
  constexpr uint64_t kNanosPerDay = 86400ULL * 1000000000ULL;
  const uint64_t days = static_cast<uint64_t>(static_cast<int64_t>(julian_day) - kJulianEpochDay);
  return static_cast<int64_t>(days * kNanosPerDay + nanos_of_day);
}

std::string FormatDecimal128(__int128 unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(unscaled)
                                         : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  while (static_cast<int32_t>(digits.size()) <= scale) digits.push_back('0');
  std::string out = negative ? "-" : "";
  for (size_t i = digits.size(); i-- > 0;) {
    out += digits[i];
    if (scale > 0 && i == static_cast<size_t>(scale)) out += '.';
  }
  return out;
}

std::string FormatDecimalBigEndian(const uint8_t* bytes, int64_t length, int32_t scale) {
  if (length == 0) return FormatDecimal128(0, scale);
  if (length <= 16) {
    // Sign-extend into 128 bits.
    __int128 value = (bytes[0] & 0x80) ? -1 : 0;
    for (int64_t i = 0; i < length; ++i) value = static_cast<__int128>((static_cast<unsigned __int128>(value) << 8) | bytes[i]);
    return FormatDecimal128(value, scale);
  }
  // Wider: take the magnitude as big-endian bytes and divide by 10 repeatedly.
  const bool negative = (bytes[0] & 0x80) != 0;
  std::vector<uint8_t> magnitude(bytes, bytes + length);
  if (negative) {  // two's complement negate
    for (auto& b : magnitude) b = static_cast<uint8_t>(~b);
    for (int64_t i = length; i-- > 0;) {
      if (++magnitude[static_cast<size_t>(i)] != 0) break;
    }
  }
  std::string digits;
  bool nonzero = true;
  while (nonzero) {
    unsigned remainder = 0;
    nonzero = false;
    for (auto& b : magnitude) {
      const unsigned current = (remainder << 8) | b;
      b = static_cast<uint8_t>(current / 10);
      remainder = current % 10;
      nonzero |= b != 0;
    }
    digits.push_back(static_cast<char>('0' + remainder));
  }
  while (static_cast<int32_t>(digits.size()) <= scale) digits.push_back('0');
  std::string out = negative ? "-" : "";
  for (size_t i = digits.size(); i-- > 0;) {
    out += digits[i];
    if (scale > 0 && i == static_cast<size_t>(scale)) out += '.';
  }
  return out;
}

std::string FormatBinaryDigest(std::string_view bytes) {
  unsigned char digest[32];
  unsigned int digest_length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &digest_length, EVP_sha256(), nullptr);
  std::string out = fmt::format("len={};sha256=", bytes.size());
  static constexpr char kHex[] = "0123456789abcdef";
  for (unsigned i = 0; i < digest_length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

void AppendJsonString(std::string_view text, std::string* out) {
  out->push_back('"');
  for (unsigned char c : text) {
    switch (c) {
      case '"': *out += "\\\""; break;
      case '\\': *out += "\\\\"; break;
      case '\n': *out += "\\n"; break;
      case '\r': *out += "\\r"; break;
      case '\t': *out += "\\t"; break;
      case '\b': *out += "\\b"; break;
      case '\f': *out += "\\f"; break;
      default:
        if (c < 0x20) {
          *out += fmt::format("\\u{:04x}", c);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

}  // namespace strata::cli
