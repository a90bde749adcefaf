#include "strata/cli/value_format.h"

#include <openssl/evp.h>

#include <charconv>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "strata/array/value_text.h"

namespace strata::cli {

FormatTimeUnit ToFormatUnit(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return FormatTimeUnit::kSecond;
    case TimeUnit::kMilli: return FormatTimeUnit::kMilli;
    case TimeUnit::kMicro: return FormatTimeUnit::kMicro;
    case TimeUnit::kNano: return FormatTimeUnit::kNano;
  }
  return FormatTimeUnit::kSecond;
}
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

value_text::DecimalDigits DigitsOf(const uint8_t* little_endian, int byte_width) {
  value_text::DecimalDigits digits;
  value_text::ToDecimalDigits(little_endian, byte_width, &digits);
  return digits;
}

std::string DecimalText(const value_text::DecimalDigits& digits, int32_t scale) {
  std::string out(static_cast<size_t>(value_text::DecimalTextLength(digits, scale)), '\0');
  value_text::WriteDecimal(digits, scale, out.data());
  return out;
}

TimeUnit ToTimeUnit(FormatTimeUnit unit) {
  switch (unit) {
    case FormatTimeUnit::kSecond: return TimeUnit::kSecond;
    case FormatTimeUnit::kMilli: return TimeUnit::kMilli;
    case FormatTimeUnit::kMicro: return TimeUnit::kMicro;
    case FormatTimeUnit::kNano: return TimeUnit::kNano;
  }
  return TimeUnit::kSecond;
}

}  // namespace

std::string FormatFloat64(double value) { return FormatFloating(value); }
std::string FormatFloat32(float value) { return FormatFloating(value); }

float Float16ToFloat32(uint16_t bits) { return value_text::HalfToFloat(bits); }

std::string FormatDate(int64_t days_since_epoch) {
  char text[value_text::kMaxDateChars];
  return std::string(text, value_text::WriteDate(days_since_epoch, text));
}

std::string FormatTimestamp(int64_t value, FormatTimeUnit unit) {
  char text[value_text::kMaxTimestampChars];
  return std::string(text, value_text::WriteTimestamp(value, ToTimeUnit(unit), text));
}

std::string FormatTime(int64_t value, FormatTimeUnit unit) {
  char text[value_text::kMaxTimeChars];
  const TimeUnit time_unit = ToTimeUnit(unit);
  if (value >= 0) return std::string(text, value_text::WriteTimeOfDay(value, time_unit, text));
  // Some writers store times before midnight as negative values. The sign is written once,
  // then the magnitude (-14:59:00), where floor division would give -15:01:00 and truncating
  // division -14:-59:00. Unsigned, because -INT64_MIN does not fit in int64.
  const uint64_t magnitude = 0 - static_cast<uint64_t>(value);
  const auto per_second = static_cast<uint64_t>(value_text::UnitsPerSecond(time_unit));
  const uint64_t seconds = magnitude / per_second;
  std::string out = fmt::format("-{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
  // The fraction as WriteTimeOfDay writes it (no trailing zeros), after its "00:00:00".
  const auto fraction = static_cast<int64_t>(magnitude % per_second);
  const char* end = value_text::WriteTimeOfDay(fraction, time_unit, text);
  out.append(text + 8, static_cast<size_t>(end - (text + 8)));
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
  value_text::DecimalDigits digits;
  value_text::ToDecimalDigits(unscaled, &digits);
  return DecimalText(digits, scale);
}

std::string FormatDecimalBigEndian(const uint8_t* bytes, int64_t length, int32_t scale) {
  // Sign bytes that only extend the next one carry no digits; drop them so that up to 256
  // bits of value fit whatever the width.
  while (length > 1 && ((bytes[0] == 0x00 && bytes[1] < 0x80) || (bytes[0] == 0xff && bytes[1] >= 0x80))) {
    ++bytes;
    --length;
  }
  if (length > 32) return "<decimal wider than 256 bits>";
  uint8_t little_endian[32];
  for (int64_t i = 0; i < length; ++i) little_endian[i] = bytes[length - 1 - i];
  if (length == 0) little_endian[0] = 0;
  return DecimalText(DigitsOf(little_endian, length == 0 ? 1 : static_cast<int>(length)), scale);
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

}  // namespace strata::cli
