#include "strata/csv/value_parsing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace strata::csv {
namespace {

constexpr NumberSyntax kStrict = NumberSyntax::kStrict;

TEST(ParseInt64Test, SignsZerosAndLimits) {
  int64_t v = 0;
  EXPECT_TRUE(ParseInt64("0", &v) && v == 0);
  EXPECT_TRUE(ParseInt64("-0", &v, kStrict) && v == 0);
  EXPECT_TRUE(ParseInt64("+0", &v, kStrict) && v == 0);
  EXPECT_TRUE(ParseInt64("+42", &v, kStrict) && v == 42);
  EXPECT_TRUE(ParseInt64("-17", &v, kStrict) && v == -17);
  EXPECT_TRUE(ParseInt64("9223372036854775807", &v, kStrict) && v == std::numeric_limits<int64_t>::max());
  EXPECT_TRUE(ParseInt64("-9223372036854775808", &v, kStrict) && v == std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(ParseInt64("9223372036854775808", &v));
  EXPECT_FALSE(ParseInt64("-9223372036854775809", &v));
  EXPECT_FALSE(ParseInt64("99999999999999999999999", &v));
  EXPECT_FALSE(ParseInt64("18446744073709551616", &v));  // 2^64: the uint64 accumulator must not wrap
  EXPECT_FALSE(ParseInt64("", &v));
  EXPECT_FALSE(ParseInt64("-", &v));
  EXPECT_FALSE(ParseInt64("+", &v));
  EXPECT_FALSE(ParseInt64("--1", &v));
  EXPECT_FALSE(ParseInt64("1 ", &v));
  EXPECT_FALSE(ParseInt64(" 1", &v));
  EXPECT_FALSE(ParseInt64("1.0", &v));
  EXPECT_FALSE(ParseInt64("1e3", &v));
  EXPECT_FALSE(ParseInt64("0x10", &v));
}

TEST(ParseInt64Test, LeadingZerosAreNotIntegersWhenStrict) {
  int64_t v = 0;
  EXPECT_FALSE(ParseInt64("007", &v, kStrict));
  EXPECT_FALSE(ParseInt64("00", &v, kStrict));
  EXPECT_FALSE(ParseInt64("-01", &v, kStrict));
  EXPECT_FALSE(ParseInt64("+01", &v, kStrict));
  EXPECT_TRUE(ParseInt64("007", &v) && v == 7);  // a type the user gave reads them
  EXPECT_TRUE(ParseInt64("-0001", &v) && v == -1);
  EXPECT_TRUE(ParseInt64("000000000000000000000000001", &v) && v == 1);
  EXPECT_TRUE(LooksLikeInteger("007"));
  EXPECT_TRUE(LooksLikeInteger("-99999999999999999999999"));
  EXPECT_FALSE(LooksLikeInteger("-"));
  EXPECT_FALSE(LooksLikeInteger("1.5"));
}

TEST(ParseUInt64Test, Range) {
  uint64_t v = 0;
  EXPECT_TRUE(ParseUInt64("18446744073709551615", &v) && v == std::numeric_limits<uint64_t>::max());
  EXPECT_FALSE(ParseUInt64("18446744073709551616", &v));
  EXPECT_TRUE(ParseUInt64("+5", &v) && v == 5);
  EXPECT_FALSE(ParseUInt64("-5", &v));
  EXPECT_FALSE(ParseUInt64("-0", &v));
  EXPECT_FALSE(ParseUInt64("05", &v, kStrict));
}

TEST(ParseFloat64Test, ExactRounding) {
  double v = 0;
  EXPECT_TRUE(ParseFloat64("0.1", &v) && v == 0.1);
  EXPECT_TRUE(ParseFloat64("2.2250738585072014e-308", &v) && v == std::numeric_limits<double>::min());
  EXPECT_TRUE(ParseFloat64("4.9406564584124654e-324", &v) && v == std::numeric_limits<double>::denorm_min());
  EXPECT_TRUE(ParseFloat64("1.7976931348623157e308", &v) && v == std::numeric_limits<double>::max());
  // Halfway between two doubles: round to even (exactness strtod gets right, naive code not).
  EXPECT_TRUE(ParseFloat64("9007199254740993", &v) && v == 9007199254740992.0);
  EXPECT_TRUE(ParseFloat64("2.2250738585072011e-308", &v));
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  EXPECT_EQ(bits, 0x000FFFFFFFFFFFFFull);  // the largest denormal
  EXPECT_TRUE(ParseFloat64("123456789012345678901234567890", &v) && v == 123456789012345678901234567890.0);
}

TEST(ParseFloat64Test, Syntax) {
  double v = 0;
  EXPECT_TRUE(ParseFloat64("+1.5", &v) && v == 1.5);
  EXPECT_TRUE(ParseFloat64("-1.5e3", &v) && v == -1500);
  EXPECT_TRUE(ParseFloat64("1E-2", &v) && v == 0.01);
  EXPECT_TRUE(ParseFloat64("1.", &v) && v == 1);
  EXPECT_TRUE(ParseFloat64(".5", &v) && v == 0.5);
  EXPECT_TRUE(ParseFloat64("-.5", &v) && v == -0.5);
  EXPECT_TRUE(ParseFloat64("-0.0", &v) && v == 0 && std::signbit(v));
  EXPECT_FALSE(ParseFloat64("", &v));
  EXPECT_FALSE(ParseFloat64(".", &v));
  EXPECT_FALSE(ParseFloat64("+", &v));
  EXPECT_FALSE(ParseFloat64("+-1", &v));
  EXPECT_FALSE(ParseFloat64("1e", &v));
  EXPECT_FALSE(ParseFloat64("1e+", &v));
  EXPECT_FALSE(ParseFloat64("0x1p3", &v));
  EXPECT_FALSE(ParseFloat64("0x10", &v));
  EXPECT_FALSE(ParseFloat64("1.5abc", &v));
  EXPECT_FALSE(ParseFloat64("1,5", &v));
  EXPECT_FALSE(ParseFloat64(" 1.5", &v));
  EXPECT_FALSE(ParseFloat64("1.5 ", &v));
  EXPECT_FALSE(ParseFloat64("nan(123)", &v));
  EXPECT_FALSE(ParseFloat64("infinit", &v));
  EXPECT_FALSE(ParseFloat64("iNf", &v));
}

TEST(ParseFloat64Test, SpecialValues) {
  double v = 0;
  for (const char* text : {"inf", "Inf", "INF", "infinity", "Infinity", "INFINITY", "+inf"}) {
    EXPECT_TRUE(ParseFloat64(text, &v) && std::isinf(v) && v > 0) << text;
  }
  EXPECT_TRUE(ParseFloat64("-inf", &v) && std::isinf(v) && v < 0);
  EXPECT_TRUE(ParseFloat64("-Infinity", &v) && std::isinf(v) && v < 0);
  for (const char* text : {"nan", "NaN", "NAN", "-nan"}) EXPECT_TRUE(ParseFloat64(text, &v) && std::isnan(v)) << text;
}

TEST(ParseFloat64Test, OverflowIsRefusedUnderflowRoundsToZero) {
  double v = 1;
  EXPECT_FALSE(ParseFloat64("1e400", &v));
  EXPECT_FALSE(ParseFloat64("-1e400", &v));
  EXPECT_FALSE(ParseFloat64("1.8e308", &v));
  EXPECT_FALSE(ParseFloat64("100000000000000000000e300", &v));
  EXPECT_TRUE(ParseFloat64("1e-400", &v) && v == 0 && !std::signbit(v));
  EXPECT_TRUE(ParseFloat64("-1e-400", &v) && v == 0 && std::signbit(v));
  EXPECT_TRUE(ParseFloat64("0.0000001e-320", &v) && v == 0);
  EXPECT_TRUE(ParseFloat64("2e-324", &v) && v == 0);
}

TEST(ParseFloat64Test, LeadingZerosWhenStrict) {
  double v = 0;
  EXPECT_FALSE(ParseFloat64("007.5", &v, kStrict));
  EXPECT_FALSE(ParseFloat64("-00.5", &v, kStrict));
  EXPECT_TRUE(ParseFloat64("0.5", &v, kStrict) && v == 0.5);
  EXPECT_TRUE(ParseFloat64("-0.5", &v, kStrict) && v == -0.5);
  EXPECT_TRUE(ParseFloat64("0e5", &v, kStrict) && v == 0);
  EXPECT_TRUE(ParseFloat64("007.5", &v) && v == 7.5);
}

TEST(ParseFloat32Test, RoundsOnceToFloat) {
  float v = 0;
  EXPECT_TRUE(ParseFloat32("0.1", &v) && v == 0.1f);
  // Just above halfway between 1 and the next float; rounding to double first would tie and give 1.
  EXPECT_TRUE(ParseFloat32("1.00000005960464477550", &v) && v == 1.00000012f);
  EXPECT_TRUE(ParseFloat32("3.4028234e38", &v) && v == std::numeric_limits<float>::max());
  EXPECT_FALSE(ParseFloat32("3.5e38", &v));
  EXPECT_TRUE(ParseFloat32("1e-50", &v) && v == 0);
}

TEST(SpellingSetTest, Contains) {
  const std::vector<std::string> spellings = {"", "NA", "NULL", std::string(70, 'x')};
  SpellingSet set(spellings);
  EXPECT_TRUE(set.contains_empty());
  EXPECT_TRUE(set.Contains(""));
  EXPECT_TRUE(set.Contains("NA"));
  EXPECT_TRUE(set.Contains("NULL"));
  EXPECT_TRUE(set.Contains(std::string(70, 'x')));
  EXPECT_FALSE(set.Contains(std::string(71, 'x')));
  EXPECT_FALSE(set.Contains("na"));
  EXPECT_FALSE(set.Contains("NAN"));
  const std::vector<std::string> none;
  EXPECT_FALSE(SpellingSet(none).Contains(""));
}

TEST(ParseDateTest, Calendar) {
  int32_t d = 0;
  EXPECT_TRUE(ParseDate("1970-01-01", &d) && d == 0);
  EXPECT_TRUE(ParseDate("1969-12-31", &d) && d == -1);
  EXPECT_TRUE(ParseDate("2000-03-01", &d) && d == 11017);
  EXPECT_TRUE(ParseDate("2024-02-29", &d) && d == 19782);
  EXPECT_TRUE(ParseDate("2000-02-29", &d));  // divisible by 400
  EXPECT_FALSE(ParseDate("1900-02-29", &d));  // divisible by 100
  EXPECT_FALSE(ParseDate("2023-02-29", &d));
  EXPECT_FALSE(ParseDate("2023-04-31", &d));
  EXPECT_TRUE(ParseDate("2023-12-31", &d));
  EXPECT_FALSE(ParseDate("2023-13-01", &d));
  EXPECT_FALSE(ParseDate("2023-00-10", &d));
  EXPECT_FALSE(ParseDate("2023-01-00", &d));
  EXPECT_TRUE(ParseDate("0000-01-01", &d) && d == -719528);
  EXPECT_TRUE(ParseDate("9999-12-31", &d) && d == 2932896);
  EXPECT_FALSE(ParseDate("2023-1-01", &d));
  EXPECT_FALSE(ParseDate("2023/01/01", &d));
  EXPECT_FALSE(ParseDate("2023-01-01 ", &d));
  EXPECT_FALSE(ParseDate("20230101", &d));
}

TEST(ParseTimeTest, Fractions) {
  TimeOfDay t;
  EXPECT_TRUE(ParseTime("00:00:00", &t) && t.nanos == 0 && t.fraction_digits == 0);
  EXPECT_TRUE(ParseTime("23:59:59", &t) && t.nanos == 86399 * int64_t{1000000000});
  EXPECT_TRUE(ParseTime("12:34:56.7", &t) && t.nanos == 45296700000000 && t.fraction_digits == 1);
  EXPECT_TRUE(ParseTime("12:34:56.123456789", &t) && t.nanos == 45296123456789 && t.fraction_digits == 9);
  EXPECT_TRUE(ParseTime("12:34:56.000001", &t) && t.fraction_digits == 6 && !NeedsNanoseconds(t.nanos));
  EXPECT_TRUE(ParseTime("12:34:56.0000001", &t) && NeedsNanoseconds(t.nanos));
  EXPECT_TRUE(ParseTime("12:34:56.000000100", &t) && NeedsNanoseconds(t.nanos));
  EXPECT_TRUE(ParseTime("12:34:56.123456000", &t) && !NeedsNanoseconds(t.nanos));
  EXPECT_FALSE(ParseTime("12:34:56.1234567890", &t));
  EXPECT_FALSE(ParseTime("12:34:56.", &t));
  EXPECT_FALSE(ParseTime("24:00:00", &t));
  EXPECT_FALSE(ParseTime("12:60:00", &t));
  EXPECT_FALSE(ParseTime("12:00:60", &t));
  EXPECT_FALSE(ParseTime("12:00", &t));
  EXPECT_FALSE(ParseTime("1:00:00", &t));
  EXPECT_FALSE(ParseTime("12:00:00Z", &t));
  int64_t v;
  EXPECT_TRUE(TimeToUnit(1500000000, TimeUnit::kMilli, &v) && v == 1500);
  EXPECT_FALSE(TimeToUnit(1500000000, TimeUnit::kSecond, &v));
  EXPECT_TRUE(TimeToUnit(1000001000, TimeUnit::kMicro, &v) && v == 1000001);
}

TEST(ParseTimestampTest, Forms) {
  TimestampValue t;
  EXPECT_TRUE(ParseTimestamp("2024-01-02", &t) && !t.has_time && t.seconds == 19724 * int64_t{86400});
  EXPECT_TRUE(ParseTimestamp("1970-01-01T00:00", &t) && t.has_time && !t.has_zone && t.seconds == 0);
  EXPECT_TRUE(ParseTimestamp("1970-01-01 01:02:03", &t) && t.seconds == 3723 && t.nanos == 0);
  EXPECT_TRUE(ParseTimestamp("1969-12-31T23:59:59.5", &t) && t.seconds == -1 && t.nanos == 500000000);
  int64_t v;
  EXPECT_TRUE(TimestampToUnit(t, TimeUnit::kMilli, &v) && v == -500);
  EXPECT_FALSE(TimestampToUnit(t, TimeUnit::kSecond, &v));
  EXPECT_FALSE(ParseTimestamp("1970-01-01T", &t));
  EXPECT_FALSE(ParseTimestamp("1970-01-01T1:00", &t));
  EXPECT_FALSE(ParseTimestamp("1970-01-01x01:00", &t));
  EXPECT_FALSE(ParseTimestamp("1970-01-01T01:00:", &t));
  EXPECT_FALSE(ParseTimestamp("1970-01-01T01:00.5", &t));  // a fraction needs seconds
  EXPECT_FALSE(ParseTimestamp("1970-02-30T01:00", &t));
  EXPECT_FALSE(ParseTimestamp("1970-01-01T25:00", &t));
}

TEST(ParseTimestampTest, FractionDigitsOneToNine) {
  const char* texts[] = {"2020-05-05T10:00:00.1",        "2020-05-05T10:00:00.12",
                         "2020-05-05T10:00:00.123",      "2020-05-05T10:00:00.1234",
                         "2020-05-05T10:00:00.12345",    "2020-05-05T10:00:00.123456",
                         "2020-05-05T10:00:00.1234567",  "2020-05-05T10:00:00.12345678",
                         "2020-05-05T10:00:00.123456789"};
  const int32_t nanos[] = {100000000, 120000000, 123000000, 123400000, 123450000,
                           123456000, 123456700, 123456780, 123456789};
  for (int i = 0; i < 9; ++i) {
    TimestampValue t;
    ASSERT_TRUE(ParseTimestamp(texts[i], &t)) << texts[i];
    EXPECT_EQ(t.nanos, nanos[i]);
    EXPECT_EQ(t.fraction_digits, i + 1);
    EXPECT_EQ(NeedsNanoseconds(t.nanos), i >= 6);
  }
  TimestampValue t;
  EXPECT_FALSE(ParseTimestamp("2020-05-05T10:00:00.1234567891", &t));
}

TEST(ParseTimestampTest, ZonesConvertToUtc) {
  TimestampValue t;
  ASSERT_TRUE(ParseTimestamp("2020-01-01T00:00:00Z", &t));
  EXPECT_TRUE(t.has_zone);
  const int64_t midnight = 18262 * int64_t{86400};
  EXPECT_EQ(t.seconds, midnight);
  ASSERT_TRUE(ParseTimestamp("2020-01-01T01:30:00+01:30", &t));
  EXPECT_TRUE(t.has_zone && t.seconds == midnight);
  ASSERT_TRUE(ParseTimestamp("2019-12-31 19:00-05:00", &t));
  EXPECT_EQ(t.seconds, midnight);
  ASSERT_TRUE(ParseTimestamp("2020-01-01T05:45:00.25+0545", &t));
  EXPECT_TRUE(t.seconds == midnight && t.nanos == 250000000);
  ASSERT_TRUE(ParseTimestamp("2020-01-01T02:00:00+02", &t));
  EXPECT_EQ(t.seconds, midnight);
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00+", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00+01:", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00+1", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00+01:60", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00+24:00", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00Zx", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01T00:00:00 UTC", &t));
  EXPECT_FALSE(ParseTimestamp("2020-01-01Z", &t));
}

TEST(ParseTimestampTest, NanosecondRange) {
  TimestampValue t;
  int64_t v;
  ASSERT_TRUE(ParseTimestamp("2262-04-11T23:47:16.854775807", &t));
  EXPECT_TRUE(TimestampToUnit(t, TimeUnit::kNano, &v) && v == std::numeric_limits<int64_t>::max());
  ASSERT_TRUE(ParseTimestamp("2262-04-11T23:47:16.854775808", &t));
  EXPECT_FALSE(TimestampToUnit(t, TimeUnit::kNano, &v));
  ASSERT_TRUE(ParseTimestamp("9999-12-31T23:59:59", &t));
  EXPECT_FALSE(TimestampToUnit(t, TimeUnit::kNano, &v));
  EXPECT_TRUE(TimestampToUnit(t, TimeUnit::kMicro, &v) && v == 253402300799000000);
  ASSERT_TRUE(ParseTimestamp("1677-09-21T00:12:43.145224192", &t));
  EXPECT_TRUE(TimestampToUnit(t, TimeUnit::kNano, &v) && v == std::numeric_limits<int64_t>::min());
}

// The value of two little-endian words of two's complement.
__int128 Decimal128Value(const uint64_t* words) {
  return static_cast<__int128>((static_cast<unsigned __int128>(words[1]) << 64) | words[0]);
}

TEST(ParseDecimalTest, ExactScaling) {
  uint64_t w[2];
  EXPECT_EQ(ParseDecimal("123.45", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 12345);
  EXPECT_EQ(ParseDecimal("-123.45", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), -12345);
  EXPECT_EQ(ParseDecimal("+1.5", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 150);
  EXPECT_EQ(ParseDecimal("7", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 700);
  EXPECT_EQ(ParseDecimal(".5", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 50);
  EXPECT_EQ(ParseDecimal("1.2300", 5, 2, 2, w), DecimalStatus::kOk);  // zeros beyond the scale
  EXPECT_EQ(Decimal128Value(w), 123);
  EXPECT_EQ(ParseDecimal("-0.00", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 0);
  EXPECT_EQ(ParseDecimal("000123.4", 5, 2, 2, w), DecimalStatus::kOk);  // leading zeros are no digits
  EXPECT_EQ(Decimal128Value(w), 12340);
  EXPECT_EQ(ParseDecimal("1.5e2", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 15000);
  EXPECT_EQ(ParseDecimal("1234E-3", 5, 2, 2, w), DecimalStatus::kLosesDigits);
  EXPECT_EQ(ParseDecimal("1230E-3", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 123);
  EXPECT_EQ(ParseDecimal("12", 5, -1, 2, w), DecimalStatus::kLosesDigits);  // negative scale
  EXPECT_EQ(ParseDecimal("120", 5, -1, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), 12);
}

TEST(ParseDecimalTest, Errors) {
  uint64_t w[2];
  EXPECT_EQ(ParseDecimal("1.234", 5, 2, 2, w), DecimalStatus::kLosesDigits);
  EXPECT_EQ(ParseDecimal("0.001", 5, 2, 2, w), DecimalStatus::kLosesDigits);
  EXPECT_EQ(ParseDecimal("1234.5", 5, 2, 2, w), DecimalStatus::kTooManyDigits);
  EXPECT_EQ(ParseDecimal("999.99", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(ParseDecimal("1e3", 5, 2, 2, w), DecimalStatus::kTooManyDigits);
  EXPECT_EQ(ParseDecimal("1e999999999", 5, 2, 2, w), DecimalStatus::kTooManyDigits);
  EXPECT_EQ(ParseDecimal("0e999999999", 5, 2, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(ParseDecimal("1e-999999999", 5, 2, 2, w), DecimalStatus::kLosesDigits);
  for (const char* text : {"", ".", "-", "+.", "1.2.3", "1e", "1e+", "abc", "1 ", "0x10", "1,5", "inf", "NaN"}) {
    EXPECT_EQ(ParseDecimal(text, 5, 2, 2, w), DecimalStatus::kSyntax) << text;
  }
}

TEST(ParseDecimalTest, WideValues) {
  uint64_t w[2];
  // 38 nines: the largest decimal128(38, 0).
  const std::string nines(38, '9');
  ASSERT_EQ(ParseDecimal(nines, 38, 0, 2, w), DecimalStatus::kOk);
  __int128 expected = 0;
  for (int i = 0; i < 38; ++i) expected = expected * 10 + 9;
  EXPECT_EQ(Decimal128Value(w), expected);
  ASSERT_EQ(ParseDecimal("-" + nines, 38, 0, 2, w), DecimalStatus::kOk);
  EXPECT_EQ(Decimal128Value(w), -expected);
  EXPECT_EQ(ParseDecimal(nines + "9", 38, 0, 2, w), DecimalStatus::kTooManyDigits);
  ASSERT_EQ(ParseDecimal("1" + std::string(37, '0'), 38, 0, 2, w), DecimalStatus::kOk);
  // decimal256: 10^75 = (10^25)^3 checked word by word against 10^75 built by repeated * 10.
  uint64_t wide[4];
  ASSERT_EQ(ParseDecimal("-1" + std::string(75, '0'), 76, 0, 4, wide), DecimalStatus::kOk);
  uint64_t ref[4] = {1, 0, 0, 0};
  for (int i = 0; i < 75; ++i) {
    unsigned __int128 carry = 0;
    for (uint64_t& word : ref) {
      const unsigned __int128 p = static_cast<unsigned __int128>(word) * 10 + carry;
      word = static_cast<uint64_t>(p);
      carry = p >> 64;
    }
  }
  uint64_t carry = 1;  // negate
  for (uint64_t& word : ref) {
    word = ~word + carry;
    carry = carry != 0 && word == 0 ? 1 : 0;
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(wide[i], ref[i]) << i;
  EXPECT_EQ(ParseDecimal(std::string(77, '9'), 76, 0, 4, wide), DecimalStatus::kTooManyDigits);
}

}  // namespace
}  // namespace strata::csv
