#include "strata/cli/value_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace strata::cli {
namespace {

TEST(ValueFormatTest, Float64LikeJavaScript) {
  EXPECT_EQ(FormatFloat64(0.1), "0.1");
  EXPECT_EQ(FormatFloat64(1e21), "1e+21");
  EXPECT_EQ(FormatFloat64(1e20), "100000000000000000000");
  EXPECT_EQ(FormatFloat64(5e-324), "5e-324");
  EXPECT_EQ(FormatFloat64(1e-7), "1e-7");
  EXPECT_EQ(FormatFloat64(1.5e-6), "0.0000015");
  EXPECT_EQ(FormatFloat64(123456.0), "123456");
  EXPECT_EQ(FormatFloat64(-2.5), "-2.5");
  EXPECT_EQ(FormatFloat64(-0.0), "0");
  EXPECT_EQ(FormatFloat64(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(FormatFloat64(std::numeric_limits<double>::infinity()), "Infinity");
  EXPECT_EQ(FormatFloat64(-std::numeric_limits<double>::infinity()), "-Infinity");
  EXPECT_EQ(FormatFloat64(std::nan("")), "NaN");
}

TEST(ValueFormatTest, Float32ShortestForFloat) {
  EXPECT_EQ(FormatFloat32(3.4028235e+38f), "3.4028235e+38");
  EXPECT_EQ(FormatFloat32(0.1f), "0.1");
  EXPECT_EQ(FormatFloat32(1.1f), "1.1");
  EXPECT_EQ(FormatFloat32(Float16ToFloat32(0x2e66)), "0.099975586");
}

TEST(ValueFormatTest, Float16Exact) {
  EXPECT_EQ(Float16ToFloat32(0x3c00), 1.0f);
  EXPECT_EQ(Float16ToFloat32(0xc000), -2.0f);
  EXPECT_EQ(Float16ToFloat32(0x7bff), 65504.0f);
  EXPECT_EQ(Float16ToFloat32(0x0001), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isinf(Float16ToFloat32(0x7c00)));
  EXPECT_TRUE(std::isnan(Float16ToFloat32(0x7e00)));
  EXPECT_TRUE(std::signbit(Float16ToFloat32(0x8000)));
}

TEST(ValueFormatTest, Dates) {
  EXPECT_EQ(FormatDate(0), "1970-01-01");
  EXPECT_EQ(FormatDate(-719162), "0001-01-01");
  EXPECT_EQ(FormatDate(11016), "2000-02-29");
  EXPECT_EQ(FormatDate(-1), "1969-12-31");
  // Astronomical year numbering, as the contract says: year 0 = 1 BC.
  EXPECT_EQ(FormatDate(-735525), "-0044-03-15");
  EXPECT_EQ(FormatDate(-719528), "0000-01-01");
  EXPECT_EQ(FormatDate(-719529), "-0001-12-31");
}

TEST(ValueFormatTest, Timestamps) {
  EXPECT_EQ(FormatTimestamp(1235865600, FormatTimeUnit::kSecond), "2009-03-01T00:00:00");
  EXPECT_EQ(FormatTimestamp(-1, FormatTimeUnit::kMilli), "1969-12-31T23:59:59.999");
  EXPECT_EQ(FormatTimestamp(1500, FormatTimeUnit::kMicro), "1970-01-01T00:00:00.0015");
  EXPECT_EQ(FormatTimestamp(1, FormatTimeUnit::kNano), "1970-01-01T00:00:00.000000001");
  EXPECT_EQ(FormatTime(3723004, FormatTimeUnit::kMilli), "01:02:03.004");
  EXPECT_EQ(FormatTime(0, FormatTimeUnit::kNano), "00:00:00");
}

TEST(ValueFormatTest, NegativeTimesCarryOneSign) {
  // Some writers store times before midnight as negative values: the sign once, then the
  // magnitude as a time of day would be written.
  EXPECT_EQ(FormatTime(-(14 * 3600 + 59 * 60), FormatTimeUnit::kSecond), "-14:59:00");
  EXPECT_EQ(FormatTime(-(14 * 3600 + 59 * 60) * 1000 - 5, FormatTimeUnit::kMilli), "-14:59:00.005");
  EXPECT_EQ(FormatTime(-1, FormatTimeUnit::kSecond), "-00:00:01");
  EXPECT_EQ(FormatTime(-1500000, FormatTimeUnit::kMicro), "-00:00:01.5");
  EXPECT_EQ(FormatTime(-1, FormatTimeUnit::kNano), "-00:00:00.000000001");
  EXPECT_EQ(FormatTime(-int64_t{100} * 3600 * 1000000, FormatTimeUnit::kMicro), "-100:00:00");
  // The magnitude of INT64_MIN does not fit in int64.
  EXPECT_EQ(FormatTime(INT64_MIN, FormatTimeUnit::kNano), "-2562047:47:16.854775808");
  EXPECT_EQ(FormatTime(INT64_MIN, FormatTimeUnit::kSecond), "-2562047788015215:30:08");
}

TEST(ValueFormatTest, Int96) {
  uint8_t bytes[12] = {};
  const int32_t julian = 2440589;  // 1970-01-02
  const uint64_t nanos = 1000;
  std::memcpy(bytes, &nanos, 8);
  std::memcpy(bytes + 8, &julian, 4);
  EXPECT_EQ(Int96ToNanoseconds(bytes), 86400LL * 1000000000LL + 1000);
}

TEST(ValueFormatTest, Decimals) {
  EXPECT_EQ(FormatDecimal128(-1250, 2), "-12.50");
  EXPECT_EQ(FormatDecimal128(5, 3), "0.005");
  EXPECT_EQ(FormatDecimal128(-5, 3), "-0.005");
  EXPECT_EQ(FormatDecimal128(42, 0), "42");
  EXPECT_EQ(FormatDecimal128(0, 2), "0.00");
  const uint8_t minus_one[] = {0xff, 0xff};
  EXPECT_EQ(FormatDecimalBigEndian(minus_one, 2, 1), "-0.1");
  const uint8_t big[] = {0x01, 0x00};
  EXPECT_EQ(FormatDecimalBigEndian(big, 2, 0), "256");
  // 32-byte value: 10^40 - 1 takes the wide path.
  uint8_t wide[32] = {};
  wide[31] = 0x7b;  // 123
  EXPECT_EQ(FormatDecimalBigEndian(wide, 32, 2), "1.23");
  uint8_t wide_negative[32];
  std::memset(wide_negative, 0xff, 32);
  wide_negative[31] = 0x85;  // -123
  EXPECT_EQ(FormatDecimalBigEndian(wide_negative, 32, 2), "-1.23");
}

TEST(ValueFormatTest, BinaryDigest) {
  EXPECT_EQ(FormatBinaryDigest(""), "len=0;sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(FormatBinaryDigest("abc"), "len=3;sha256=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace strata::cli
