// Text forms of single values (dates, times, timestamps, decimals, half floats, JSON strings)
// written into caller-provided memory, with no allocation: the one implementation that the
// CSV writer and the command line's value formatting (cli/value_format) both call.
// Functions named Write* take `out` with room for the documented maximum (which they may use
// as scratch past the text) and return the end of what they wrote, as std::to_chars does.
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/types/data_type.h"
#include "strata/types/month_day_nano.h"

namespace strata::value_text {

// Floor division and modulo (rounding toward negative infinity); b > 0.
inline int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// 1, 1000, 1000000 or 1000000000.
int64_t UnitsPerSecond(TimeUnit unit);

// Days since 1970-01-01 -> YYYY-MM-DD in the proleptic Gregorian calendar with astronomical
// year numbering: at least 4 year digits, '-' before years below 0 (year 0 is 1 BC).
inline constexpr int kMaxDateChars = 32;
char* WriteDate(int64_t days_since_epoch, char* out);

// The last day written and its text: consecutive dates and timestamps mostly share the day,
// and the calendar arithmetic is most of their cost. One per column, not shared by threads.
struct DayMemo {
  int64_t day = INT64_MIN;
  int length = 0;
  char text[kMaxDateChars];
};
// WriteDate through `memo`.
char* WriteDate(int64_t days_since_epoch, DayMemo* memo, char* out);

// Time of day in `unit` -> HH:MM:SS, then the fraction of a second only when it is non-zero
// and without trailing zeros (.5, .0015). Values outside one day still print, with the hours
// counted past 23 or below 0.
inline constexpr int kMaxTimeChars = 40;
char* WriteTimeOfDay(int64_t value, TimeUnit unit, char* out);

// An instant in `unit` since the epoch -> YYYY-MM-DDTHH:MM:SS[.fraction], the fraction as
// WriteTimeOfDay writes it. No zone designator: the caller appends 'Z' where it applies.
inline constexpr int kMaxTimestampChars = 64;
char* WriteTimestamp(int64_t value, TimeUnit unit, char* out);
char* WriteTimestamp(int64_t value, TimeUnit unit, DayMemo* memo, char* out);

// A month_day_nano interval in DuckDB's interval text form (the form strata prints wherever
// it prints an interval: pretty-print, CSV, JSON strings, the command line):
//   "1 year 2 months 3 days 04:05:06.789", "-1 year -2 months", "-00:00:05", "27:00:00".
// Years and months come from `months` (months / 12 and months % 12, both with its sign); each
// part appears only when non-zero, with "s" unless it is 1 or -1. The nanoseconds print as
// [-]HH:MM:SS with the fraction as WriteTimeOfDay writes it; hours are not folded into days (a
// day is not always 24 hours), so they may pass 23. An all-zero interval is "00:00:00".
inline constexpr int kMaxIntervalChars = 96;
char* WriteMonthDayNano(const MonthDayNano& value, char* out);

// The decimal digits of a little-endian two's-complement integer of 1 to 32 bytes
// (decimal128's 16, decimal256's 32).
struct DecimalDigits {
  char digits[80];  // most significant first; 2^255 has 77 digits
  int count = 0;
  bool negative = false;
};
void ToDecimalDigits(const uint8_t* little_endian, int byte_width, DecimalDigits* out);
void ToDecimalDigits(__int128 value, DecimalDigits* out);

// The exact text of digits * 10^-scale: -12.50, 0.005, 1200 (negative scale); at least one
// digit before the point. DecimalTextLength() is the number of bytes WriteDecimal() writes.
int64_t DecimalTextLength(const DecimalDigits& digits, int32_t scale);
char* WriteDecimal(const DecimalDigits& digits, int32_t scale, char* out);

// IEEE half-precision bits -> the same value as float (exact).
float HalfToFloat(uint16_t bits);
// Rounds to the nearest half (ties to even), overflowing to infinity; NaN stays NaN.
uint16_t DoubleToHalf(double value);

// Lowercase hexadecimal, two characters per byte.
char* WriteHex(const uint8_t* bytes, int64_t size, char* out);

}  // namespace strata::value_text
