#include "strata/array/value_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>


namespace strata::value_text {
namespace {

// "00" .. "99": two digits per store instead of one division per digit.
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

char* WriteTwoDigits(unsigned value, char* out) {
  std::memcpy(out, kDigitPairs + 2 * value, 2);
  return out + 2;
}

// Exactly `width` digits of `value` (< 10^width), zero-padded, written back to front two at a
// time: no temporary and no copy of unknown length (a memcpy call per field cost more than
// the digits in the timestamp loop).
char* WriteFixedDigits(uint64_t value, int width, char* out) {
  char* p = out + width;
  while (p - out >= 2) {
    p -= 2;
    std::memcpy(p, kDigitPairs + 2 * (value % 100), 2);
    value /= 100;
  }
  if (p > out) *--p = static_cast<char>('0' + value % 10);
  return out + width;
}

// At least `width` digits, zero-padded.
char* WritePadded(uint64_t value, int width, char* out) {
  int digits = 1;
  for (uint64_t rest = value / 10; rest != 0; rest /= 10) ++digits;
  return WriteFixedDigits(value, std::max(width, digits), out);
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

// ".fraction" without trailing zeros; nothing for 0. 0 <= fraction < 10^digits.
char* WriteFraction(int64_t fraction, int digits, char* out) {
  if (fraction == 0) return out;
  while (fraction % 10 == 0) {
    fraction /= 10;
    --digits;
  }
  *out++ = '.';
  return WriteFixedDigits(static_cast<uint64_t>(fraction), digits, out);
}

// Time of day from a non-negative count of seconds past midnight (or past the day's end).
char* WriteClock(int64_t seconds, char* out) {
  const int64_t hours = FloorDiv(seconds, 3600);
  const int64_t rest = seconds - hours * 3600;
  if (hours >= 0 && hours < 100) {
    out = WriteTwoDigits(static_cast<unsigned>(hours), out);
  } else {
    out = std::to_chars(out, out + 24, hours).ptr;
  }
  *out++ = ':';
  out = WriteTwoDigits(static_cast<unsigned>(rest / 60), out);
  *out++ = ':';
  return WriteTwoDigits(static_cast<unsigned>(rest % 60), out);
}

}  // namespace

int64_t UnitsPerSecond(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return 1;
    case TimeUnit::kMilli: return 1000;
    case TimeUnit::kMicro: return 1000000;
    case TimeUnit::kNano: return 1000000000;
  }
  return 1;
}

char* WriteDate(int64_t days_since_epoch, char* out) {
  const CivilDate date = CivilFromDays(days_since_epoch);
  if (date.year >= 0 && date.year <= 9999) {
    out = WriteFixedDigits(static_cast<uint64_t>(date.year), 4, out);
  } else {
    if (date.year < 0) *out++ = '-';
    out = WritePadded(static_cast<uint64_t>(date.year < 0 ? -date.year : date.year), 4, out);
  }
  *out++ = '-';
  out = WriteTwoDigits(date.month, out);
  *out++ = '-';
  return WriteTwoDigits(date.day, out);
}

char* WriteDate(int64_t days_since_epoch, DayMemo* memo, char* out) {
  if (memo->day != days_since_epoch) {
    memo->length = static_cast<int>(WriteDate(days_since_epoch, memo->text) - memo->text);
    memo->day = days_since_epoch;
  }
  // `out` has room for kMaxDateChars: a fixed 16-byte copy covers YYYY-MM-DD without a call.
  if (memo->length <= 16) {
    std::memcpy(out, memo->text, 16);
  } else {
    std::memcpy(out, memo->text, static_cast<size_t>(memo->length));
  }
  return out + memo->length;
}

namespace {

// The unit as a template argument: its divisions become multiplications (four 64-bit
// divisions per timestamp were a third of its time).
template <int64_t kPerSecond, int kFractionDigits>
char* TimeOfDayIn(int64_t value, char* out) {
  int64_t fraction = value % kPerSecond;
  if (fraction < 0) fraction += kPerSecond;
  out = WriteClock(FloorDiv(value, kPerSecond), out);
  return WriteFraction(fraction, kFractionDigits, out);
}

template <int64_t kPerSecond, int kFractionDigits>
char* TimestampIn(int64_t value, DayMemo* memo, char* out) {
  constexpr int64_t kPerDay = kPerSecond * 86400;
  int64_t of_day = value % kPerDay;  // remainders, not products: no overflow near INT64_MIN
  if (of_day < 0) of_day += kPerDay;
  const int64_t day = FloorDiv(value, kPerDay);
  out = memo != nullptr ? WriteDate(day, memo, out) : WriteDate(day, out);
  *out++ = 'T';
  return TimeOfDayIn<kPerSecond, kFractionDigits>(of_day, out);
}

}  // namespace

char* WriteTimeOfDay(int64_t value, TimeUnit unit, char* out) {
  switch (unit) {
    case TimeUnit::kSecond: return TimeOfDayIn<1, 0>(value, out);
    case TimeUnit::kMilli: return TimeOfDayIn<1000, 3>(value, out);
    case TimeUnit::kMicro: return TimeOfDayIn<1000000, 6>(value, out);
    case TimeUnit::kNano: return TimeOfDayIn<1000000000, 9>(value, out);
  }
  return out;
}

char* WriteTimestamp(int64_t value, TimeUnit unit, DayMemo* memo, char* out) {
  switch (unit) {
    case TimeUnit::kSecond: return TimestampIn<1, 0>(value, memo, out);
    case TimeUnit::kMilli: return TimestampIn<1000, 3>(value, memo, out);
    case TimeUnit::kMicro: return TimestampIn<1000000, 6>(value, memo, out);
    case TimeUnit::kNano: return TimestampIn<1000000000, 9>(value, memo, out);
  }
  return out;
}

char* WriteTimestamp(int64_t value, TimeUnit unit, char* out) { return WriteTimestamp(value, unit, nullptr, out); }

namespace {

// "<count> <unit>[s]" after a space when something precedes it.
char* WriteIntervalPart(int64_t count, std::string_view unit, char* begin, char* out) {
  if (out != begin) *out++ = ' ';
  out = std::to_chars(out, out + 24, count).ptr;
  *out++ = ' ';
  std::memcpy(out, unit.data(), unit.size());
  out += unit.size();
  if (count != 1 && count != -1) *out++ = 's';
  return out;
}

}  // namespace

char* WriteMonthDayNano(const MonthDayNano& value, char* out) {
  const int32_t months = value.months;
  const int32_t days = value.days;
  const int64_t nanoseconds = value.nanoseconds;
  char* const begin = out;
  const int32_t years = months / 12;  // truncates toward zero: both parts keep the sign
  if (years != 0) out = WriteIntervalPart(years, "year", begin, out);
  if (months % 12 != 0) out = WriteIntervalPart(months % 12, "month", begin, out);
  if (days != 0) out = WriteIntervalPart(days, "day", begin, out);
  if (nanoseconds == 0 && out != begin) return out;
  if (out != begin) *out++ = ' ';
  // The magnitude in unsigned arithmetic: INT64_MIN has no positive int64.
  uint64_t magnitude = static_cast<uint64_t>(nanoseconds);
  if (nanoseconds < 0) {
    *out++ = '-';
    magnitude = 0 - magnitude;
  }
  constexpr uint64_t kNanosPerSecond = 1000000000;
  const uint64_t seconds = magnitude / kNanosPerSecond;
  const uint64_t hours = seconds / 3600;
  if (hours < 10) *out++ = '0';
  out = std::to_chars(out, out + 24, hours).ptr;
  const auto two_digits = [&out](uint64_t v) {
    *out++ = ':';
    *out++ = static_cast<char>('0' + v / 10);
    *out++ = static_cast<char>('0' + v % 10);
  };
  two_digits(seconds / 60 % 60);
  two_digits(seconds % 60);
  uint64_t fraction = magnitude % kNanosPerSecond;
  if (fraction != 0) {
    int digits = 9;
    while (fraction % 10 == 0) {
      fraction /= 10;
      --digits;
    }
    *out++ = '.';
    for (int d = digits - 1; d >= 0; --d) {
      out[d] = static_cast<char>('0' + fraction % 10);
      fraction /= 10;
    }
    out += digits;
  }
  return out;
}

void ToDecimalDigits(const uint8_t* little_endian, int byte_width, DecimalDigits* out) {
  const bool negative = byte_width > 0 && (little_endian[byte_width - 1] & 0x80) != 0;
  uint8_t bytes[32];
  std::memset(bytes, negative ? 0xff : 0, sizeof(bytes));  // sign-extended to 256 bits
  std::memcpy(bytes, little_endian, static_cast<size_t>(byte_width));
  uint64_t limbs[4];
  std::memcpy(limbs, bytes, sizeof(limbs));
  if (negative) {  // two's complement negation
    uint64_t carry = 1;
    for (uint64_t& limb : limbs) {
      limb = ~limb + carry;
      carry = carry && limb == 0;
    }
  }
  // Divide by 10^19 (the largest power of ten in 64 bits): one 128-by-64 division per limb
  // yields 19 digits, where dividing by 10 would yield one.
  constexpr uint64_t kChunk = 10000000000000000000ULL;
  uint64_t chunks[5];
  int num_chunks = 0;
  int top = 3;
  while (top >= 0 && limbs[top] == 0) --top;
  while (top >= 0) {
    unsigned __int128 remainder = 0;
    for (int k = top; k >= 0; --k) {
      const unsigned __int128 current = (remainder << 64) | limbs[k];
      limbs[k] = static_cast<uint64_t>(current / kChunk);
      remainder = current % kChunk;
    }
    chunks[num_chunks++] = static_cast<uint64_t>(remainder);
    while (top >= 0 && limbs[top] == 0) --top;
  }
  char* p = out->digits;
  if (num_chunks == 0) {
    *p++ = '0';
  } else {
    p = std::to_chars(p, p + 20, chunks[num_chunks - 1]).ptr;
    for (int k = num_chunks - 2; k >= 0; --k) p = WritePadded(chunks[k], 19, p);
  }
  out->count = static_cast<int>(p - out->digits);
  out->negative = negative;
}

void ToDecimalDigits(__int128 value, DecimalDigits* out) {
  uint8_t bytes[16];
  std::memcpy(bytes, &value, 16);  // little-endian targets only, as the Arrow layout
  ToDecimalDigits(bytes, 16, out);
}

int64_t DecimalTextLength(const DecimalDigits& digits, int32_t scale) {
  const int64_t sign = digits.negative ? 1 : 0;
  const bool zero = digits.count == 1 && digits.digits[0] == '0';
  if (scale <= 0) return sign + digits.count + (zero ? 0 : -int64_t{scale});
  if (digits.count > scale) return sign + digits.count + 1;
  return sign + 2 + scale;  // "0." and zeros before the digits
}

char* WriteDecimal(const DecimalDigits& digits, int32_t scale, char* out) {
  if (digits.negative) *out++ = '-';
  const bool zero = digits.count == 1 && digits.digits[0] == '0';
  if (scale <= 0) {
    std::memcpy(out, digits.digits, static_cast<size_t>(digits.count));
    out += digits.count;
    if (!zero) {
      std::memset(out, '0', static_cast<size_t>(-int64_t{scale}));
      out += -int64_t{scale};
    }
    return out;
  }
  if (digits.count > scale) {
    const int whole = digits.count - scale;
    std::memcpy(out, digits.digits, static_cast<size_t>(whole));
    out += whole;
    *out++ = '.';
    std::memcpy(out, digits.digits + whole, static_cast<size_t>(scale));
    return out + scale;
  }
  *out++ = '0';
  *out++ = '.';
  std::memset(out, '0', static_cast<size_t>(scale - digits.count));
  out += scale - digits.count;
  std::memcpy(out, digits.digits, static_cast<size_t>(digits.count));
  return out + digits.count;
}

float HalfToFloat(uint16_t bits) {
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
  return (bits & 0x8000u) ? -magnitude : magnitude;
}

uint16_t DoubleToHalf(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(value);
  if (std::isnan(value)) return static_cast<uint16_t>(sign | 0x7e00);
  if (magnitude >= 65520.0) return static_cast<uint16_t>(sign | 0x7c00);  // past 65504's rounding range
  if (magnitude < 0x1p-14) {
    // Subnormal: a multiple of 2^-24. Scaling by 2^24 is exact; nearbyint rounds half to even,
    // and 1024 is the smallest normal, whose bits these are too.
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(magnitude * 0x1p24)));
  }
  int exponent;
  std::frexp(magnitude, &exponent);  // magnitude = f * 2^exponent, f in [0.5, 1)
  const auto significand = static_cast<uint32_t>(std::nearbyint(std::ldexp(magnitude, 11 - exponent)));
  // significand is in [1024, 2048]; 2048 carries into the exponent field as it should.
  const uint32_t biased = static_cast<uint32_t>(exponent - 1 + 15);
  return static_cast<uint16_t>(sign | ((biased << 10) + (significand - 1024)));
}

char* WriteHex(const uint8_t* bytes, int64_t size, char* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (int64_t i = 0; i < size; ++i) {
    *out++ = kHex[bytes[i] >> 4];
    *out++ = kHex[bytes[i] & 15];
  }
  return out;
}

}  // namespace strata::value_text
