// Parsers of one CSV field's text into a typed value, shared by type inference and the column
// converters. Each takes the whole field (no trimming: " 1" is not a number), returns success
// as a bool or a small status, never allocates and never throws.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/types/data_type.h"

namespace strata::csv {

// How strictly numbers are read. Inference (and columns whose type was inferred) use kStrict:
// a leading zero before another digit ("007", "-01", "00.5") makes the text not a number, so
// ZIP codes and ids keep their digits as strings. A type the user gave reads kLenient.
enum class NumberSyntax : uint8_t { kLenient, kStrict };

// [+-]digits; false on anything else or on overflow (an integer too big for int64 is not an
// int64, and is not silently made a float either). "-0" reads as 0.
bool ParseInt64(std::string_view text, int64_t* out, NumberSyntax syntax = NumberSyntax::kLenient);
// [+]digits up to 2^64 - 1; a minus sign is refused (also "-0").
bool ParseUInt64(std::string_view text, uint64_t* out, NumberSyntax syntax = NumberSyntax::kLenient);
// True when the text has the shape of an integer, [+-]digits, whatever its size or zeros.
bool LooksLikeInteger(std::string_view text);

// Decimal floating point, correctly rounded (std::from_chars): [+-] digits [. digits]
// [e[+-]digits], "1." and ".5" included, or inf / Inf / INF / infinity / Infinity /
// INFINITY / nan / NaN / NAN with an optional sign. Hex floats and trailing bytes are refused.
// A magnitude above the largest finite value ("1e400") is refused rather than made infinite;
// one below the smallest denormal ("1e-400") rounds to a signed zero, as any rounding does.
bool ParseFloat64(std::string_view text, double* out, NumberSyntax syntax = NumberSyntax::kLenient);
bool ParseFloat32(std::string_view text, float* out, NumberSyntax syntax = NumberSyntax::kLenient);

// A set of exact spellings (null, true or false values). Keeps a pointer to `spellings`,
// which must outlive it; Contains() rejects most texts by their length alone.
class SpellingSet {
 public:
  explicit SpellingSet(const std::vector<std::string>& spellings);
  bool Contains(std::string_view text) const {
    const size_t bit = text.size() < 63 ? text.size() : 63;
    if (((length_mask_ >> bit) & 1) == 0) return false;
    return ContainsSlow(text);
  }
  bool contains_empty() const { return (length_mask_ & 1) != 0; }

 private:
  bool ContainsSlow(std::string_view text) const;
  const std::vector<std::string>* spellings_;
  uint64_t length_mask_ = 0;  // bit n: a spelling has n bytes (bit 63: 63 or more)
};

// Days since 1970-01-01 of the proleptic Gregorian date; month 1-12, day 1-31 (unchecked).
int64_t DaysFromCivil(int64_t year, int month, int day);

// "YYYY-MM-DD" exactly (years 0000-9999, day checked against the month, leap years).
bool ParseDate(std::string_view text, int32_t* days_since_epoch);

// "HH:MM:SS[.f{1,9}]", 00:00:00 to 23:59:59.999999999.
struct TimeOfDay {
  int64_t nanos = 0;        // since midnight
  int fraction_digits = 0;  // digits written after the '.', 0-9
};
bool ParseTime(std::string_view text, TimeOfDay* out);

// "YYYY-MM-DD" or "YYYY-MM-DD[T| ]HH:MM[:SS[.f{1,9}]][Z|(+|-)HH[[:]MM]]" (offsets up to 23:59).
struct TimestampValue {
  int64_t seconds = 0;      // since the epoch; with a zone, of the UTC instant
  int32_t nanos = 0;        // 0 .. 999999999, added to seconds
  int8_t fraction_digits = 0;
  bool has_time = false;    // false for a bare date
  bool has_zone = false;    // 'Z' or an offset was given
};
bool ParseTimestamp(std::string_view text, TimestampValue* out);

// Non-zero digits below the microsecond: a column of such values needs nanoseconds.
inline bool NeedsNanoseconds(int64_t nanos) { return nanos % 1000 != 0; }
// The value in `unit`; false when digits below the unit would be lost or int64 overflows
// (nanoseconds reach only 1677-09-21 .. 2262-04-11).
bool TimestampToUnit(const TimestampValue& value, TimeUnit unit, int64_t* out);
// Nanoseconds since midnight in `unit`; false when digits below the unit would be lost.
bool TimeToUnit(int64_t nanos, TimeUnit unit, int64_t* out);

enum class DecimalStatus : uint8_t {
  kOk,
  kSyntax,         // not [+-] digits [. digits] [e[+-]digits]
  kLosesDigits,    // non-zero digits below the scale (trailing zeros are fine)
  kTooManyDigits,  // more than `precision` significant digits at this scale
};
// Parses text as a decimal of `precision` and `scale` into `words` 64-bit little-endian
// words of two's complement (2: decimal128, 4: decimal256; precision <= 19 * words is
// assumed). Exact: no rounding ever happens.
DecimalStatus ParseDecimal(std::string_view text, int32_t precision, int32_t scale, int words, uint64_t* out);

}  // namespace strata::csv
