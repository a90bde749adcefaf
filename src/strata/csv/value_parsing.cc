#include "strata/csv/value_parsing.h"

#include <charconv>
#include <cstring>
#include <limits>
#include <system_error>

namespace strata::csv {

namespace {

inline bool IsDigit(char c) { return static_cast<unsigned>(c - '0') <= 9; }

// Two digits at p into *value.
inline bool TwoDigits(const char* p, int* value) {
  const unsigned hi = static_cast<unsigned>(p[0] - '0');
  const unsigned lo = static_cast<unsigned>(p[1] - '0');
  if (hi > 9 || lo > 9) return false;
  *value = static_cast<int>(hi * 10 + lo);
  return true;
}

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int64_t year, int month) {
  static constexpr int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// "YYYY-MM-DD" at the start of text (at least 10 bytes) into days since the epoch.
bool ParseDatePrefix(const char* p, int64_t* days) {
  int century, year_in_century, month, day;
  if (!TwoDigits(p, &century) || !TwoDigits(p + 2, &year_in_century) || p[4] != '-' || !TwoDigits(p + 5, &month) ||
      p[7] != '-' || !TwoDigits(p + 8, &day)) {
    return false;
  }
  const int year = century * 100 + year_in_century;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return false;
  *days = DaysFromCivil(year, month, day);
  return true;
}

// "HH:MM" at p (5 bytes readable) into seconds since midnight.
bool ParseHourMinute(const char* p, int64_t* seconds) {
  int hour, minute;
  if (!TwoDigits(p, &hour) || p[2] != ':' || !TwoDigits(p + 3, &minute) || hour > 23 || minute > 59) return false;
  *seconds = hour * 3600 + minute * 60;
  return true;
}

// ".f{1,9}" at *p: advances *p past it and yields nanoseconds and the digit count.
bool ParseFraction(const char** p, const char* end, int32_t* nanos, int* digits) {
  const char* q = *p + 1;  // past '.'
  int32_t value = 0;
  int n = 0;
  while (q < end && IsDigit(*q)) {
    if (++n > 9) return false;
    value = value * 10 + (*q - '0');
    ++q;
  }
  if (n == 0) return false;
  static constexpr int32_t kScale[10] = {1, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
  *nanos = value * kScale[n];
  *digits = n;
  *p = q;
  return true;
}

bool MatchesSpecialFloat(const char* p, const char* end) {
  static constexpr std::string_view kWords[] = {"inf", "Inf", "INF", "infinity", "Infinity", "INFINITY",
                                                "nan", "NaN", "NAN"};
  const std::string_view word(p, static_cast<size_t>(end - p));
  for (std::string_view w : kWords) {
    if (word == w) return true;
  }
  return false;
}

// from_chars reports both overflow and underflow as out of range; tell them apart by the
// decimal exponent of the first non-zero digit (only extreme texts get here).
bool IsBelowOne(const char* p, const char* end) {
  int64_t magnitude = 0;
  bool nonzero = false;
  int64_t leading_fraction_zeros = 0;
  while (p < end && IsDigit(*p)) {
    if (*p != '0') nonzero = true;
    if (nonzero) ++magnitude;
    ++p;
  }
  if (p < end && *p == '.') {
    ++p;
    while (p < end && IsDigit(*p)) {
      if (!nonzero && *p != '0') {
        nonzero = true;
        magnitude = -leading_fraction_zeros;
      } else if (!nonzero) {
        ++leading_fraction_zeros;
      }
      ++p;
    }
  }
  int64_t exponent = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool negative = false;
    if (p < end && (*p == '+' || *p == '-')) negative = *p++ == '-';
    for (; p < end && IsDigit(*p); ++p) {
      if (exponent < 1000000) exponent = exponent * 10 + (*p - '0');
    }
    if (negative) exponent = -exponent;
  }
  return magnitude + exponent <= 0;
}

template <typename T>
bool ParseFloat(std::string_view text, T* out, NumberSyntax syntax) {
  const char* p = text.data();
  const char* end = p + text.size();
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  if (p == end) return false;
  T value;
  if (!IsDigit(*p) && *p != '.') {
    if (!MatchesSpecialFloat(p, end)) return false;
    value = (*p == 'n' || *p == 'N') ? std::numeric_limits<T>::quiet_NaN() : std::numeric_limits<T>::infinity();
  } else {
    if (syntax == NumberSyntax::kStrict && p[0] == '0' && p + 1 < end && IsDigit(p[1])) return false;
    const auto result = std::from_chars(p, end, value, std::chars_format::general);
    if (result.ptr != end) return false;
    if (result.ec == std::errc::result_out_of_range) {
      if (!IsBelowOne(p, end)) return false;  // "1e400": refused, not made infinite
      value = 0;
    } else if (result.ec != std::errc()) {
      return false;
    }
  }
  *out = negative ? -value : value;
  return true;
}

// Unsigned magnitude of [+-]digits; false on overflow of uint64 or a non-digit.
inline bool ParseMagnitude(const char* p, const char* end, NumberSyntax syntax, uint64_t* out) {
  const size_t digits = static_cast<size_t>(end - p);
  if (digits == 0) return false;
  if (syntax == NumberSyntax::kStrict && *p == '0' && digits > 1) return false;
  uint64_t value = 0;
  if (digits <= 19) {  // 19 digits never overflow uint64
    for (; p != end; ++p) {
      const unsigned d = static_cast<unsigned>(*p - '0');
      if (d > 9) return false;
      value = value * 10 + d;
    }
  } else {
    for (; p != end; ++p) {
      const unsigned d = static_cast<unsigned>(*p - '0');
      if (d > 9 || __builtin_mul_overflow(value, 10u, &value) || __builtin_add_overflow(value, d, &value)) {
        return false;
      }
    }
  }
  *out = value;
  return true;
}

}  // namespace

bool ParseInt64(std::string_view text, int64_t* out, NumberSyntax syntax) {
  const char* p = text.data();
  const char* end = p + text.size();
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  uint64_t magnitude;
  if (!ParseMagnitude(p, end, syntax, &magnitude)) return false;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (magnitude > limit) return false;
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

bool ParseUInt64(std::string_view text, uint64_t* out, NumberSyntax syntax) {
  const char* p = text.data();
  const char* end = p + text.size();
  if (p != end && *p == '+') ++p;
  return ParseMagnitude(p, end, syntax, out);
}

bool LooksLikeInteger(std::string_view text) {
  size_t i = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (!IsDigit(text[i])) return false;
  }
  return true;
}

bool ParseFloat64(std::string_view text, double* out, NumberSyntax syntax) { return ParseFloat(text, out, syntax); }
bool ParseFloat32(std::string_view text, float* out, NumberSyntax syntax) { return ParseFloat(text, out, syntax); }

SpellingSet::SpellingSet(const std::vector<std::string>& spellings) : spellings_(&spellings) {
  for (const std::string& s : spellings) length_mask_ |= uint64_t{1} << (s.size() < 63 ? s.size() : 63);
}

bool SpellingSet::ContainsSlow(std::string_view text) const {
  for (const std::string& s : *spellings_) {
    if (s == text) return true;
  }
  return false;
}

int64_t DaysFromCivil(int64_t year, int month, int day) {
  // Howard Hinnant's days_from_civil: years start in March so the leap day ends them.
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const int64_t year_of_era = year - era * 400;
  const int64_t day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;
}

bool ParseDate(std::string_view text, int32_t* days_since_epoch) {
  int64_t days;
  if (text.size() != 10 || !ParseDatePrefix(text.data(), &days)) return false;
  *days_since_epoch = static_cast<int32_t>(days);
  return true;
}

bool ParseTime(std::string_view text, TimeOfDay* out) {
  if (text.size() < 8) return false;
  const char* p = text.data();
  const char* end = p + text.size();
  int64_t seconds;
  int second;
  if (!ParseHourMinute(p, &seconds) || p[5] != ':' || !TwoDigits(p + 6, &second) || second > 59) return false;
  p += 8;
  int32_t nanos = 0;
  int digits = 0;
  if (p < end && *p == '.' && !ParseFraction(&p, end, &nanos, &digits)) return false;
  if (p != end) return false;
  out->nanos = (seconds + second) * 1000000000 + nanos;
  out->fraction_digits = digits;
  return true;
}

bool ParseTimestamp(std::string_view text, TimestampValue* out) {
  const char* p = text.data();
  const char* end = p + text.size();
  int64_t days;
  if (text.size() < 10 || !ParseDatePrefix(p, &days)) return false;
  TimestampValue value;
  value.seconds = days * 86400;
  p += 10;
  if (p == end) {
    *out = value;
    return true;
  }
  if ((*p != 'T' && *p != ' ') || end - p < 6) return false;
  int64_t seconds;
  if (!ParseHourMinute(p + 1, &seconds)) return false;
  p += 6;
  value.has_time = true;
  if (p < end && *p == ':') {
    int second;
    if (end - p < 3 || !TwoDigits(p + 1, &second) || second > 59) return false;
    seconds += second;
    p += 3;
    int digits = 0;
    if (p < end && *p == '.' && !ParseFraction(&p, end, &value.nanos, &digits)) return false;
    value.fraction_digits = static_cast<int8_t>(digits);
  }
  if (p < end) {
    value.has_zone = true;
    if (*p == 'Z') {
      if (++p != end) return false;
    } else if (*p == '+' || *p == '-') {
      const bool behind = *p == '-';
      int hours, minutes = 0;
      if (end - p < 3 || !TwoDigits(p + 1, &hours) || hours > 23) return false;
      p += 3;
      if (p < end) {  // minutes, after an optional ':'
        if (*p == ':') ++p;
        if (end - p != 2 || !TwoDigits(p, &minutes) || minutes > 59) return false;
        p += 2;
      }
      const int64_t offset = hours * 3600 + minutes * 60;
      seconds += behind ? offset : -offset;  // local time minus the offset is UTC
    } else {
      return false;
    }
  }
  value.seconds += seconds;
  *out = value;
  return true;
}

namespace {
constexpr int64_t kNanosPerUnit[4] = {1000000000, 1000000, 1000, 1};  // s, ms, us, ns
}  // namespace

bool TimestampToUnit(const TimestampValue& value, TimeUnit unit, int64_t* out) {
  const int64_t nanos_per_unit = kNanosPerUnit[static_cast<int>(unit)];
  if (value.nanos % nanos_per_unit != 0) return false;
  const int64_t units_per_second = 1000000000 / nanos_per_unit;
  int64_t seconds = value.seconds;
  int64_t fraction = value.nanos / nanos_per_unit;
  if (seconds < 0 && fraction > 0) {  // borrow a second, so that the minimum (1677) is reached
    seconds += 1;
    fraction -= units_per_second;
  }
  int64_t result;
  if (__builtin_mul_overflow(seconds, units_per_second, &result) || __builtin_add_overflow(result, fraction, &result)) {
    return false;
  }
  *out = result;
  return true;
}

bool TimeToUnit(int64_t nanos, TimeUnit unit, int64_t* out) {
  const int64_t nanos_per_unit = kNanosPerUnit[static_cast<int>(unit)];
  if (nanos % nanos_per_unit != 0) return false;
  *out = nanos / nanos_per_unit;
  return true;
}

namespace {

// words[0..n) = words * multiplier + addend (little-endian 64-bit words; no overflow by the
// caller's precision check).
void MulAdd(uint64_t* words, int n, uint64_t multiplier, uint64_t addend) {
  unsigned __int128 carry = addend;
  for (int i = 0; i < n; ++i) {
    const unsigned __int128 product = static_cast<unsigned __int128>(words[i]) * multiplier + carry;
    words[i] = static_cast<uint64_t>(product);
    carry = product >> 64;
  }
}

constexpr uint64_t kPow10[20] = {1,
                                 10,
                                 100,
                                 1000,
                                 10000,
                                 100000,
                                 1000000,
                                 10000000,
                                 100000000,
                                 1000000000,
                                 10000000000,
                                 100000000000,
                                 1000000000000,
                                 10000000000000,
                                 100000000000000,
                                 1000000000000000,
                                 10000000000000000,
                                 100000000000000000,
                                 1000000000000000000,
                                 10000000000000000000u};

}  // namespace

DecimalStatus ParseDecimal(std::string_view text, int32_t precision, int32_t scale, int words, uint64_t* out) {
  const char* p = text.data();
  const char* end = p + text.size();
  bool negative = false;
  if (p != end && (*p == '+' || *p == '-')) negative = *p++ == '-';
  const char* int_begin = p;
  while (p < end && IsDigit(*p)) ++p;
  const int64_t int_digits = p - int_begin;
  const char* frac_begin = p;
  int64_t frac_digits = 0;
  if (p < end && *p == '.') {
    frac_begin = ++p;
    while (p < end && IsDigit(*p)) ++p;
    frac_digits = p - frac_begin;
  }
  if (int_digits + frac_digits == 0) return DecimalStatus::kSyntax;
  int64_t exponent = 0;
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    bool exp_negative = false;
    if (p < end && (*p == '+' || *p == '-')) exp_negative = *p++ == '-';
    if (p == end) return DecimalStatus::kSyntax;
    for (; p < end && IsDigit(*p); ++p) {
      if (exponent < 100000) exponent = exponent * 10 + (*p - '0');  // saturates: all zeros or too big
    }
    if (exp_negative) exponent = -exponent;
  }
  if (p != end) return DecimalStatus::kSyntax;

  // The digits D (integer then fraction) scaled to `scale` are D[0, keep) followed by
  // keep - total zeros; D[keep, total) must be zeros.
  const int64_t total = int_digits + frac_digits;
  const int64_t keep = int_digits + exponent + scale;
  auto digit = [&](int64_t i) { return i < int_digits ? int_begin[i] : frac_begin[i - int_digits]; };
  for (int64_t i = keep < 0 ? 0 : keep; i < total; ++i) {
    if (digit(i) != '0') return DecimalStatus::kLosesDigits;
  }
  const int64_t kept = keep < total ? keep : total;
  int64_t first = 0;  // first non-zero kept digit
  while (first < kept && digit(first) == '0') ++first;
  for (int i = 0; i < words; ++i) out[i] = 0;
  if (first >= kept) return DecimalStatus::kOk;  // zero (also "-0")
  const int64_t padding = keep - kept;
  if (kept - first + padding > precision) return DecimalStatus::kTooManyDigits;

  // Up to 19 digits at a time into one word, then into the wide value.
  uint64_t chunk = 0;
  int chunk_digits = 0;
  for (int64_t i = first; i < kept; ++i) {
    chunk = chunk * 10 + static_cast<uint64_t>(digit(i) - '0');
    if (++chunk_digits == 19) {
      MulAdd(out, words, kPow10[19], chunk);
      chunk = 0;
      chunk_digits = 0;
    }
  }
  MulAdd(out, words, kPow10[chunk_digits], chunk);
  for (int64_t left = padding; left > 0; left -= 19) MulAdd(out, words, kPow10[left < 19 ? left : 19], 0);
  if (negative) {  // two's complement: invert and add one
    uint64_t carry = 1;
    for (int i = 0; i < words; ++i) {
      out[i] = ~out[i] + carry;
      carry = carry != 0 && out[i] == 0 ? 1 : 0;
    }
  }
  return DecimalStatus::kOk;
}

}  // namespace strata::csv
