#include "strata/array/value_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

namespace strata::value_text {
namespace {

std::string Date(int64_t days) {
  char text[kMaxDateChars];
  return std::string(text, WriteDate(days, text));
}

std::string Timestamp(int64_t value, TimeUnit unit) {
  char text[kMaxTimestampChars];
  return std::string(text, WriteTimestamp(value, unit, text));
}

std::string Time(int64_t value, TimeUnit unit) {
  char text[kMaxTimeChars];
  return std::string(text, WriteTimeOfDay(value, unit, text));
}

std::string Decimal(const uint8_t* little_endian, int width, int32_t scale) {
  DecimalDigits digits;
  ToDecimalDigits(little_endian, width, &digits);
  std::string out(static_cast<size_t>(DecimalTextLength(digits, scale)), '?');
  char* end = WriteDecimal(digits, scale, out.data());
  EXPECT_EQ(end, out.data() + out.size());
  return out;
}

std::string Decimal128(__int128 value, int32_t scale) {
  uint8_t bytes[16];
  std::memcpy(bytes, &value, 16);
  return Decimal(bytes, 16, scale);
}

TEST(ValueTextTest, Dates) {
  EXPECT_EQ(Date(0), "1970-01-01");
  EXPECT_EQ(Date(11016), "2000-02-29");
  EXPECT_EQ(Date(-1), "1969-12-31");
  EXPECT_EQ(Date(-719162), "0001-01-01");
  EXPECT_EQ(Date(-719528), "0000-01-01");
  EXPECT_EQ(Date(-719529), "-0001-12-31");
  EXPECT_EQ(Date(2932896), "9999-12-31");
  EXPECT_EQ(Date(2932897), "10000-01-01");
  // The extremes of date32 stay within the buffer.
  EXPECT_EQ(Date(std::numeric_limits<int32_t>::max()), "5881580-07-11");
  EXPECT_EQ(Date(std::numeric_limits<int32_t>::min()), "-5877641-06-23");
}

TEST(ValueTextTest, DayMemoRemembersTheLastDay) {
  DayMemo memo;
  char text[kMaxDateChars];
  for (int64_t day : {0, 0, 1, -719529, -719529, 2932897, 0}) {
    EXPECT_EQ(std::string(text, WriteDate(day, &memo, text)), Date(day));
  }
  char stamp[kMaxTimestampChars];
  EXPECT_EQ(std::string(stamp, WriteTimestamp(86401, TimeUnit::kSecond, &memo, stamp)), "1970-01-02T00:00:01");
  EXPECT_EQ(std::string(stamp, WriteTimestamp(-1, TimeUnit::kSecond, &memo, stamp)), "1969-12-31T23:59:59");
}

TEST(ValueTextTest, TimestampsAndTimes) {
  EXPECT_EQ(Timestamp(1235865600, TimeUnit::kSecond), "2009-03-01T00:00:00");
  EXPECT_EQ(Timestamp(-1, TimeUnit::kMilli), "1969-12-31T23:59:59.999");
  EXPECT_EQ(Timestamp(1500, TimeUnit::kMicro), "1970-01-01T00:00:00.0015");
  EXPECT_EQ(Timestamp(1, TimeUnit::kNano), "1970-01-01T00:00:00.000000001");
  EXPECT_EQ(Timestamp(std::numeric_limits<int64_t>::max(), TimeUnit::kNano), "2262-04-11T23:47:16.854775807");
  EXPECT_EQ(Timestamp(std::numeric_limits<int64_t>::min(), TimeUnit::kNano), "1677-09-21T00:12:43.145224192");
  EXPECT_EQ(Timestamp(std::numeric_limits<int64_t>::min(), TimeUnit::kSecond).size() <= size_t{kMaxTimestampChars},
            true);
  EXPECT_EQ(Time(3723004, TimeUnit::kMilli), "01:02:03.004");
  EXPECT_EQ(Time(0, TimeUnit::kNano), "00:00:00");
  EXPECT_EQ(Time(86399999999, TimeUnit::kMicro), "23:59:59.999999");
  EXPECT_EQ(Time(-1, TimeUnit::kSecond), "-1:59:59");  // out of range, still deterministic
}

TEST(ValueTextTest, Decimals) {
  EXPECT_EQ(Decimal128(-1250, 2), "-12.50");
  EXPECT_EQ(Decimal128(5, 3), "0.005");
  EXPECT_EQ(Decimal128(-5, 3), "-0.005");
  EXPECT_EQ(Decimal128(42, 0), "42");
  EXPECT_EQ(Decimal128(0, 2), "0.00");
  EXPECT_EQ(Decimal128(0, 0), "0");
  EXPECT_EQ(Decimal128(12, -2), "1200");
  EXPECT_EQ(Decimal128(0, -2), "0");
  EXPECT_EQ(Decimal128(123, 3), "0.123");
  // 10^38 - 1 and the 128-bit extremes cross the 19-digit chunks.
  __int128 nines = 1;
  for (int i = 0; i < 38; ++i) nines *= 10;
  nines -= 1;
  EXPECT_EQ(Decimal128(nines, 0), std::string(38, '9'));
  EXPECT_EQ(Decimal128(-nines, 37), "-9." + std::string(37, '9'));
  const __int128 min128 = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  EXPECT_EQ(Decimal128(min128, 0), "-170141183460469231731687303715884105728");
  EXPECT_EQ(Decimal128(10000000000000000000ULL, 0), "10000000000000000000");
  // 256 bits: -2^255 and 2^255 - 1.
  uint8_t bytes[32] = {};
  bytes[31] = 0x80;
  EXPECT_EQ(Decimal(bytes, 32, 0), "-57896044618658097711785492504343953926634992332820282019728792003956564819968");
  std::memset(bytes, 0xff, 32);
  bytes[31] = 0x7f;
  EXPECT_EQ(Decimal(bytes, 32, 1), "5789604461865809771178549250434395392663499233282028201972879200395656481996.7");
  // Narrow widths sign-extend.
  const uint8_t minus_one[] = {0xff, 0xff};
  EXPECT_EQ(Decimal(minus_one, 2, 1), "-0.1");
}

TEST(ValueTextTest, HalfFloats) {
  EXPECT_EQ(HalfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(HalfToFloat(0xc000), -2.0f);
  EXPECT_EQ(HalfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(HalfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::signbit(HalfToFloat(0x8000)));
  // Every half survives the trip through float and back.
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    const float f = HalfToFloat(h);
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(HalfToFloat(DoubleToHalf(f))));
      continue;
    }
    ASSERT_EQ(DoubleToHalf(f), h) << bits;
  }
  // Rounding: ties to even, overflow to infinity, underflow to zero.
  EXPECT_EQ(DoubleToHalf(1.0 + std::ldexp(1.0, -11)), 0x3c00);      // tie, even below
  EXPECT_EQ(DoubleToHalf(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);  // tie, even above
  EXPECT_EQ(DoubleToHalf(0.1), 0x2e66);
  EXPECT_EQ(DoubleToHalf(65519.0), 0x7bff);
  EXPECT_EQ(DoubleToHalf(65520.0), 0x7c00);
  EXPECT_EQ(DoubleToHalf(-1e9), 0xfc00);
  EXPECT_EQ(DoubleToHalf(std::ldexp(1.0, -26)), 0x0000);
  EXPECT_EQ(DoubleToHalf(std::ldexp(1.0, -14) - std::ldexp(1.0, -26)), 0x0400);  // rounds up to normal
}

TEST(ValueTextTest, Hex) {
  char text[64];
  const uint8_t bytes[] = {0x00, 0xab, 0x10, 0xff};
  char* end = WriteHex(bytes, 4, text);
  EXPECT_EQ(std::string(text, end), "00ab10ff");
}

}  // namespace
}  // namespace strata::value_text
