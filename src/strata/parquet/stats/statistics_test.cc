#include "strata/parquet/stats/statistics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "strata/parquet/stats/statistic_value.h"

namespace strata::parquet {
namespace {

template <typename T>
std::string Bytes(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

std::string Half(uint16_t bits) { return std::string{static_cast<char>(bits & 0xFF), static_cast<char>(bits >> 8)}; }

std::vector<ByteArrayView> Views(const std::vector<std::string>& values) {
  std::vector<ByteArrayView> views;
  for (const auto& v : values) {
    views.push_back({reinterpret_cast<const uint8_t*>(v.data()), static_cast<uint32_t>(v.size())});
  }
  return views;
}

Statistics RoundTrip(const Statistics& stats) {
  std::string wire;
  CompactWriter writer(&wire);
  Encode(writer, stats);
  CompactReader reader(reinterpret_cast<const uint8_t*>(wire.data()), wire.size());
  Statistics decoded;
  EXPECT_TRUE(Decode(reader, &decoded).ok());
  EXPECT_EQ(reader.remaining(), 0u);
  return decoded;
}

class StatisticsTest : public ::testing::Test {
 protected:
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
};

// ---- sort orders --------------------------------------------------------------------------------

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}
LogicalType Integer(int8_t bits, bool is_signed) {
  LogicalType t = Logical(LogicalType::Kind::kInteger);
  t.bit_width = bits;
  t.is_signed = is_signed;
  return t;
}

TEST(ColumnSortOrderTest, FollowsTypeDefinedOrder) {
  using K = LogicalType::Kind;
  using P = PhysicalType;
  const auto none = std::nullopt;
  // Physical types alone.
  EXPECT_EQ(ColumnSortOrder(P::kBoolean, none, none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt32, none, none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt64, none, none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kFloat, none, none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kDouble, none, none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, none, none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kFixedLenByteArray, none, none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt96, none, none), SortOrder::kUnknown);
  // Logical types.
  EXPECT_EQ(ColumnSortOrder(P::kInt32, Integer(8, false), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt64, Integer(64, false), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt32, Integer(16, true), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kString), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kEnum), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kJson), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kBson), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kFixedLenByteArray, Logical(K::kUuid), none), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kFixedLenByteArray, Logical(K::kDecimal), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kDecimal), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kFixedLenByteArray, Logical(K::kFloat16), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt32, Logical(K::kDate), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt64, Logical(K::kTime), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt64, Logical(K::kTimestamp), none), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kVariant), none), SortOrder::kUnknown);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kGeometry), none), SortOrder::kUnknown);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kGeography), none), SortOrder::kUnknown);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, Logical(K::kUnrecognized), none), SortOrder::kUnknown);
  EXPECT_EQ(ColumnSortOrder(P::kInt32, Logical(K::kNull), none), SortOrder::kSigned);
  // INT96 is unknown whatever annotates it.
  EXPECT_EQ(ColumnSortOrder(P::kInt96, Logical(K::kTimestamp), none), SortOrder::kUnknown);
  // Converted types (no logical type).
  EXPECT_EQ(ColumnSortOrder(P::kInt32, none, ConvertedType::kUint8), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt64, none, ConvertedType::kUint64), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kInt32, none, ConvertedType::kInt16), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, none, ConvertedType::kUtf8), SortOrder::kUnsigned);
  EXPECT_EQ(ColumnSortOrder(P::kByteArray, none, ConvertedType::kDecimal), SortOrder::kSigned);
  EXPECT_EQ(ColumnSortOrder(P::kFixedLenByteArray, none, ConvertedType::kInterval), SortOrder::kUnknown);
  EXPECT_EQ(ColumnSortOrder(P::kInt64, none, ConvertedType::kTimestampMicros), SortOrder::kSigned);
  // The logical type wins over the converted type.
  EXPECT_EQ(ColumnSortOrder(P::kInt32, Integer(32, false), ConvertedType::kInt32), SortOrder::kUnsigned);
  EXPECT_TRUE(IsFloat16Column(P::kFixedLenByteArray, Logical(K::kFloat16)));
  EXPECT_FALSE(IsFloat16Column(P::kFixedLenByteArray, Logical(K::kUuid)));
}

TEST(StatisticsOptionsTest, Validate) {
  EXPECT_TRUE(StatisticsOptions{}.Validate().ok());
  EXPECT_TRUE(StatisticsOptions{.max_value_bytes = 0}.Validate().ok());
  Status st = StatisticsOptions{.max_value_bytes = -1}.Validate();
  EXPECT_TRUE(st.IsInvalid());
  EXPECT_NE(st.message().find("-1"), std::string::npos);
}

// ---- integers ---------------------------------------------------------------------------------

TEST_F(StatisticsTest, SignedInt32) {
  StatisticsCollector c(pool_.get(), PhysicalType::kInt32, 0, SortOrder::kSigned);
  EXPECT_FALSE(c.has_min_max());
  const int32_t values[] = {5, -3, 7, 0, 2147483647, -2147483647 - 1, 4};
  ASSERT_TRUE(c.UpdateFixed(values, 7).ok());
  c.AddNulls(3);
  ASSERT_TRUE(c.has_min_max());
  EXPECT_EQ(c.min_bytes(), Bytes<int32_t>(-2147483647 - 1));
  EXPECT_EQ(c.max_bytes(), Bytes<int32_t>(2147483647));
  EXPECT_EQ(c.num_values(), 7);
  EXPECT_EQ(c.null_count(), 3);
  Statistics s = c.ToThrift({});
  EXPECT_EQ(s.min_value, std::string("\x00\x00\x00\x80", 4));
  EXPECT_EQ(s.max_value, std::string("\xff\xff\xff\x7f", 4));
  EXPECT_EQ(s.is_min_value_exact, true);
  EXPECT_EQ(s.is_max_value_exact, true);
  EXPECT_EQ(s.min, s.min_value);  // legacy signed fields mean the same here
  EXPECT_EQ(s.max, s.max_value);
  EXPECT_EQ(s.null_count, 3);
  EXPECT_FALSE(s.nan_count.has_value());  // not a floating type
  EXPECT_FALSE(s.distinct_count.has_value());
  EXPECT_EQ(RoundTrip(s), s);
}

TEST_F(StatisticsTest, UnsignedInt32ComparesAsUint32) {
  StatisticsCollector c(pool_.get(), PhysicalType::kInt32, 0, SortOrder::kUnsigned);
  const int32_t values[] = {1, -1 /* 0xFFFFFFFF */, 5, -2147483647 - 1 /* 0x80000000 */};
  ASSERT_TRUE(c.UpdateFixed(values, 4).ok());
  EXPECT_EQ(c.min_bytes(), Bytes<int32_t>(1));
  EXPECT_EQ(c.max_bytes(), std::string("\xff\xff\xff\xff", 4));
  Statistics s = c.ToThrift({});
  EXPECT_EQ(s.min_value, std::string("\x01\x00\x00\x00", 4));
  EXPECT_EQ(s.max_value, std::string("\xff\xff\xff\xff", 4));
  EXPECT_FALSE(s.min.has_value());  // legacy min/max are signed: not written for unsigned order
  EXPECT_FALSE(s.max.has_value());
  EXPECT_GT(c.Compare(Bytes<int32_t>(-1), Bytes<int32_t>(1)), 0);
  EXPECT_EQ(RoundTrip(s), s);
}

TEST_F(StatisticsTest, UnsignedAndSignedInt64) {
  StatisticsCollector u(pool_.get(), PhysicalType::kInt64, 0, SortOrder::kUnsigned);
  StatisticsCollector s(pool_.get(), PhysicalType::kInt64, 0, SortOrder::kSigned);
  const int64_t values[] = {3, std::numeric_limits<int64_t>::min(), -1, 0, 42};
  ASSERT_TRUE(u.UpdateFixed(values, 5).ok());
  ASSERT_TRUE(s.UpdateFixed(values, 5).ok());
  EXPECT_EQ(u.min_bytes(), Bytes<int64_t>(0));
  EXPECT_EQ(u.max_bytes(), Bytes<int64_t>(-1));  // 0xFFFF...FF
  EXPECT_EQ(s.min_bytes(), std::string("\x00\x00\x00\x00\x00\x00\x00\x80", 8));
  EXPECT_EQ(s.max_bytes(), Bytes<int64_t>(42));
}

// The lane loop against std::minmax_element, across batch sizes that leave every tail length.
TEST_F(StatisticsTest, VectorisedLoopsMatchScalar) {
  std::mt19937_64 rng(7);
  for (int64_t n : {1, 2, 7, 8, 9, 15, 16, 17, 100, 1003}) {
    std::vector<int32_t> i32(n);
    std::vector<uint64_t> u64(n);
    std::vector<double> f64(n);
    for (int64_t i = 0; i < n; ++i) {
      i32[i] = static_cast<int32_t>(rng());
      u64[i] = rng();
      f64[i] = static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000) / 7.0;
    }
    // Split into two batches so the stored min/max seed the second one.
    const int64_t half = n / 2;
    StatisticsCollector c32(pool_.get(), PhysicalType::kInt32, 0, SortOrder::kSigned);
    StatisticsCollector c64(pool_.get(), PhysicalType::kInt64, 0, SortOrder::kUnsigned);
    StatisticsCollector cf(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
    ASSERT_TRUE(c32.UpdateFixed(i32.data(), half).ok());
    ASSERT_TRUE(c32.UpdateFixed(i32.data() + half, n - half).ok());
    ASSERT_TRUE(c64.UpdateFixed(u64.data(), half).ok());
    ASSERT_TRUE(c64.UpdateFixed(u64.data() + half, n - half).ok());
    ASSERT_TRUE(cf.UpdateFixed(f64.data(), half).ok());
    ASSERT_TRUE(cf.UpdateFixed(f64.data() + half, n - half).ok());
    auto [mn32, mx32] = std::minmax_element(i32.begin(), i32.end());
    auto [mn64, mx64] = std::minmax_element(u64.begin(), u64.end());
    auto [mnf, mxf] = std::minmax_element(f64.begin(), f64.end());
    EXPECT_EQ(c32.min_bytes(), Bytes(*mn32)) << n;
    EXPECT_EQ(c32.max_bytes(), Bytes(*mx32)) << n;
    EXPECT_EQ(c64.min_bytes(), Bytes(*mn64)) << n;
    EXPECT_EQ(c64.max_bytes(), Bytes(*mx64)) << n;
    EXPECT_EQ(cf.min_bytes(), Bytes(*mnf == 0 ? -0.0 : *mnf)) << n;
    EXPECT_EQ(cf.max_bytes(), Bytes(*mxf == 0 ? 0.0 : *mxf)) << n;
    EXPECT_EQ(c32.num_values(), n);
    // Floats with a NaN in every fifth slot, so NaNs land in every lane and in the tail.
    std::vector<float> f32(n);
    float lo = std::numeric_limits<float>::infinity(), hi = -lo;
    int64_t nans = 0;
    for (int64_t i = 0; i < n; ++i) {
      f32[i] = i % 5 == 0 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(rng() % 1000) - 500.5f;
      if (i % 5 == 0) {
        ++nans;
      } else {
        lo = std::min(lo, f32[i]), hi = std::max(hi, f32[i]);
      }
    }
    StatisticsCollector c32f(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
    ASSERT_TRUE(c32f.UpdateFixed(f32.data(), n).ok());
    EXPECT_EQ(c32f.nan_count(), nans) << n;
    EXPECT_EQ(c32f.has_min_max(), n > 1) << n;
    if (n > 1) {
      EXPECT_EQ(c32f.min_bytes(), Bytes(lo)) << n;
      EXPECT_EQ(c32f.max_bytes(), Bytes(hi)) << n;
    }
  }
}

// ---- floating point -----------------------------------------------------------------------------

TEST_F(StatisticsTest, NaNIsNeverMinOrMax) {
  StatisticsCollector c(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // NaN first, so a naive "start from the first value" would keep it.
  const double values[] = {nan, 2.5, -1.0, nan, -nan, 0.5, nan, 1.0, nan, 3.0};
  ASSERT_TRUE(c.UpdateFixed(values, 10).ok());
  EXPECT_EQ(c.nan_count(), 5);
  EXPECT_EQ(c.num_values(), 10);
  EXPECT_EQ(c.min_bytes(), Bytes(-1.0));
  EXPECT_EQ(c.max_bytes(), Bytes(3.0));
  Statistics s = c.ToThrift({});
  EXPECT_EQ(s.nan_count, 5);
  EXPECT_EQ(s.min_value, std::string("\x00\x00\x00\x00\x00\x00\xf0\xbf", 8));  // -1.0
  EXPECT_EQ(s.max_value, std::string("\x00\x00\x00\x00\x00\x00\x08\x40", 8));  // 3.0
  EXPECT_EQ(s.min, s.min_value);
  EXPECT_EQ(RoundTrip(s), s);
}

TEST_F(StatisticsTest, AllNaNHasNoMinMax) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float values[] = {nan, nan, -nan};
  ASSERT_TRUE(c.UpdateFixed(values, 3).ok());
  c.AddNulls(2);
  EXPECT_FALSE(c.has_min_max());
  EXPECT_EQ(c.nan_count(), 3);
  Statistics s = c.ToThrift({});
  EXPECT_EQ(s.nan_count, 3);
  EXPECT_EQ(s.null_count, 2);
  EXPECT_FALSE(s.min_value || s.max_value || s.min || s.max || s.is_min_value_exact || s.is_max_value_exact);
  EXPECT_EQ(RoundTrip(s), s);
  // A later batch with a number gives min/max from it alone.
  const float more[] = {nan, 4.0f};
  ASSERT_TRUE(c.UpdateFixed(more, 2).ok());
  ASSERT_TRUE(c.has_min_max());
  EXPECT_EQ(c.min_bytes(), Bytes(4.0f));
  EXPECT_EQ(c.max_bytes(), Bytes(4.0f));
  EXPECT_EQ(c.nan_count(), 4);
}

TEST_F(StatisticsTest, NaNCountWrittenEvenWhenZero) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
  Statistics empty = c.ToThrift({});
  EXPECT_EQ(empty.nan_count, 0);
  EXPECT_EQ(empty.null_count, 0);
  const float values[] = {1.5f};
  ASSERT_TRUE(c.UpdateFixed(values, 1).ok());
  EXPECT_EQ(c.ToThrift({}).nan_count, 0);
}

TEST_F(StatisticsTest, ZeroMinIsNegativeZeroAndZeroMaxIsPositiveZero) {
  const std::string float_neg_zero("\x00\x00\x00\x80", 4);
  const std::string float_pos_zero("\x00\x00\x00\x00", 4);
  {  // only +0 seen: min still written as -0
    StatisticsCollector c(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
    const float values[] = {0.0f, 1.0f};
    ASSERT_TRUE(c.UpdateFixed(values, 2).ok());
    EXPECT_EQ(c.min_bytes(), float_neg_zero);
    EXPECT_EQ(c.max_bytes(), Bytes(1.0f));
  }
  {  // only -0 seen as max: written as +0
    StatisticsCollector c(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
    const float values[] = {-0.0f, -1.0f};
    ASSERT_TRUE(c.UpdateFixed(values, 2).ok());
    EXPECT_EQ(c.min_bytes(), Bytes(-1.0f));
    EXPECT_EQ(c.max_bytes(), float_pos_zero);
  }
  {  // a single zero of either sign: [-0, +0]
    for (float zero : {0.0f, -0.0f}) {
      StatisticsCollector c(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
      ASSERT_TRUE(c.UpdateFixed(&zero, 1).ok());
      Statistics s = c.ToThrift({});
      EXPECT_EQ(s.min_value, float_neg_zero);
      EXPECT_EQ(s.max_value, float_pos_zero);
      EXPECT_EQ(s.min, float_neg_zero);
      EXPECT_EQ(s.max, float_pos_zero);
    }
  }
  {  // doubles, zeros arriving in separate batches
    StatisticsCollector c(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
    const double a = -0.0, b = 0.0;
    ASSERT_TRUE(c.UpdateFixed(&b, 1).ok());
    ASSERT_TRUE(c.UpdateFixed(&a, 1).ok());
    EXPECT_EQ(c.min_bytes(), std::string("\x00\x00\x00\x00\x00\x00\x00\x80", 8));
    EXPECT_EQ(c.max_bytes(), std::string(8, '\0'));
  }
}

TEST_F(StatisticsTest, Float16ComparesAsHalfFloats) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFixedLenByteArray, 2, SortOrder::kSigned, /*is_float16=*/true);
  EXPECT_TRUE(c.is_floating());
  // 1.0, -2.0, NaN (0x7E00), +inf, 0x7C01 (a signalling NaN), -0.5 (0xB800), 65504 (0x7BFF).
  const std::string values = Half(0x3C00) + Half(0xC000) + Half(0x7E00) + Half(0x7C00) + Half(0x7C01) +
                             Half(0xB800) + Half(0x7BFF);
  ASSERT_TRUE(c.UpdateFixed(values.data(), 7).ok());
  EXPECT_EQ(c.nan_count(), 2);
  EXPECT_EQ(c.min_bytes(), Half(0xC000));
  EXPECT_EQ(c.max_bytes(), Half(0x7C00));  // +inf is a number, not a NaN
  Statistics s = c.ToThrift({.max_value_bytes = 1});  // FLOAT16 is never truncated
  EXPECT_EQ(s.min_value, std::string("\x00\xc0", 2));
  EXPECT_EQ(s.max_value, std::string("\x00\x7c", 2));
  EXPECT_EQ(s.is_min_value_exact, true);
  EXPECT_EQ(s.nan_count, 2);
  EXPECT_FALSE(s.min.has_value());  // legacy signed bytes would not order half floats
  EXPECT_EQ(RoundTrip(s), s);
  // A bytewise order would put -0.5 (0xB800) above 1.0 (0x3C00); half order does not.
  EXPECT_LT(c.Compare(Half(0xB800), Half(0x3C00)), 0);
  EXPECT_EQ(c.Compare(Half(0x8000), Half(0x0000)), 0);
}

TEST_F(StatisticsTest, Float16AsViews) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFixedLenByteArray, 2, SortOrder::kSigned, true);
  const std::vector<std::string> values = {Half(0x3C00), Half(0x7E00), Half(0xC000)};
  auto views = Views(values);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 3).ok());
  EXPECT_EQ(c.min_bytes(), Half(0xC000));
  EXPECT_EQ(c.max_bytes(), Half(0x3C00));
  EXPECT_EQ(c.nan_count(), 1);
  EXPECT_EQ(c.num_values(), 3);
  const std::vector<std::string> wrong = {"abc"};
  views = Views(wrong);
  EXPECT_TRUE(c.UpdateByteArrays(views.data(), 1).IsInvalid());
  EXPECT_EQ(c.num_values(), 3);
}

TEST_F(StatisticsTest, Float16ZerosAndAllNaN) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFixedLenByteArray, 2, SortOrder::kSigned, true);
  const std::string nans = Half(0x7E00) + Half(0xFE00);
  ASSERT_TRUE(c.UpdateFixed(nans.data(), 2).ok());
  EXPECT_FALSE(c.has_min_max());
  EXPECT_EQ(c.nan_count(), 2);
  const std::string zeros = Half(0x0000) + Half(0x3C00);  // +0 and 1.0
  ASSERT_TRUE(c.UpdateFixed(zeros.data(), 2).ok());
  EXPECT_EQ(c.min_bytes(), Half(0x8000));  // zero min written as -0
  EXPECT_EQ(c.max_bytes(), Half(0x3C00));
  StatisticsCollector d(pool_.get(), PhysicalType::kFixedLenByteArray, 2, SortOrder::kSigned, true);
  const std::string negative = Half(0x8000) + Half(0xBC00);  // -0 and -1.0
  ASSERT_TRUE(d.UpdateFixed(negative.data(), 2).ok());
  EXPECT_EQ(d.min_bytes(), Half(0xBC00));
  EXPECT_EQ(d.max_bytes(), Half(0x0000));  // zero max written as +0
}

// ---- byte arrays --------------------------------------------------------------------------------

TEST_F(StatisticsTest, StringsCompareUnsignedBytewiseShorterFirst) {
  StatisticsCollector c(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  const std::vector<std::string> values = {"b", "a\xff", "abc", "ab", "\x80", ""};
  auto views = Views(values);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 5).ok());  // without the empty string
  EXPECT_EQ(c.min_bytes(), "ab");      // prefix before its extension
  EXPECT_EQ(c.max_bytes(), "\x80");    // 0x80 above 'b' unsigned (below it signed)
  ASSERT_TRUE(c.UpdateByteArrays(views.data() + 5, 1).ok());
  EXPECT_EQ(c.min_bytes(), "");
  Statistics s = c.ToThrift({});
  EXPECT_EQ(s.min_value, "");
  EXPECT_EQ(s.max_value, "\x80");
  EXPECT_FALSE(s.min.has_value());
  EXPECT_FALSE(s.max.has_value());
  EXPECT_FALSE(s.nan_count.has_value());
  EXPECT_EQ(RoundTrip(s), s);
}

TEST_F(StatisticsTest, ByteArrayMinMaxAreCopiedNotViewed) {
  StatisticsCollector c(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  std::string page = "mmmaaazzz";
  ByteArrayView views[3] = {{reinterpret_cast<const uint8_t*>(page.data()), 3},
                            {reinterpret_cast<const uint8_t*>(page.data()) + 3, 3},
                            {reinterpret_cast<const uint8_t*>(page.data()) + 6, 3}};
  ASSERT_TRUE(c.UpdateByteArrays(views, 3).ok());
  page.assign(page.size(), '#');  // the caller reuses its page buffer
  EXPECT_EQ(c.min_bytes(), "aaa");
  EXPECT_EQ(c.max_bytes(), "zzz");
  EXPECT_NE(c.min_bytes().data(), page.data() + 3);
}

TEST_F(StatisticsTest, ByteArrayCopiesOnlyNewMinMaxAndReusesCapacity) {
  StatisticsCollector c(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  const std::vector<std::string> first = {"kkkkkkkkkk", "cccccccccc", "tttttttttt"};
  auto views = Views(first);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 3).ok());
  const int64_t allocations = pool_->num_allocations();
  const int64_t held = c.memory_size();
  EXPECT_GE(held, 20);
  // Values inside [min, max] copy nothing; shorter new extremes fit the capacity.
  const std::vector<std::string> inside = {"dddd", "ssssssssss", "kkk"};
  views = Views(inside);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 3).ok());
  const std::vector<std::string> shorter = {"bb", "uu"};
  views = Views(shorter);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 2).ok());
  EXPECT_EQ(c.min_bytes(), "bb");
  EXPECT_EQ(c.max_bytes(), "uu");
  EXPECT_EQ(pool_->num_allocations() + pool_->num_reallocations(), allocations);
  c.Reset();  // keeps capacity
  EXPECT_FALSE(c.has_min_max());
  EXPECT_EQ(c.num_values(), 0);
  EXPECT_EQ(c.memory_size(), held);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 2).ok());
  EXPECT_EQ(pool_->num_allocations() + pool_->num_reallocations(), allocations);
  EXPECT_EQ(c.min_bytes(), "bb");
}

TEST_F(StatisticsTest, PoolRefusalLeavesMinMaxAsBefore) {
  StatisticsCollector c(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  const std::vector<std::string> small = {"m", "n"};
  auto views = Views(small);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 2).ok());
  pool_->set_limit(pool_->bytes_in_use() + 64);
  const std::vector<std::string> big = {std::string(1000, 'a'), std::string(1000, 'z')};
  views = Views(big);
  Status st = c.UpdateByteArrays(views.data(), 2);
  EXPECT_TRUE(st.IsOutOfMemory()) << st.ToString();
  EXPECT_EQ(c.min_bytes(), "m");
  EXPECT_EQ(c.max_bytes(), "n");
  pool_->set_limit(0);
}

TEST_F(StatisticsTest, DecimalByteArraysCompareAsSignedBigEndian) {
  StatisticsCollector c(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kSigned);
  // 1, -1, 128, -129, -128, 0 (two bytes), 300 (0x012C): different lengths, sign-extended.
  const std::vector<std::string> values = {std::string("\x01", 1), std::string("\xff", 1),
                                           std::string("\x00\x80", 2), std::string("\xff\x7f", 2),
                                           std::string("\x80", 1), std::string("\x00\x00", 2),
                                           std::string("\x01\x2c", 2)};
  auto views = Views(values);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), static_cast<int64_t>(views.size())).ok());
  EXPECT_EQ(c.min_bytes(), std::string("\xff\x7f", 2));  // -129
  EXPECT_EQ(c.max_bytes(), std::string("\x01\x2c", 2));  // 300
  // Signed decimals are never truncated: a prefix would be another number.
  Statistics s = c.ToThrift({.max_value_bytes = 1});
  EXPECT_EQ(s.min_value, std::string("\xff\x7f", 2));
  EXPECT_EQ(s.max_value, std::string("\x01\x2c", 2));
  EXPECT_EQ(s.is_min_value_exact, true);
  EXPECT_EQ(s.is_max_value_exact, true);
  EXPECT_FALSE(s.min.has_value());
  // Sign extension: -1 as one byte equals -1 as three bytes; 0x7F < 0x0080.
  EXPECT_EQ(c.Compare(std::string("\xff", 1), std::string("\xff\xff\xff", 3)), 0);
  EXPECT_LT(c.Compare(std::string("\x7f", 1), std::string("\x00\x80", 2)), 0);
  EXPECT_GT(c.Compare(std::string("\x80", 1), std::string("\xff\x7f", 2)), 0);  // -128 > -129
}

TEST_F(StatisticsTest, FixedLenDecimalAndUuid) {
  StatisticsCollector dec(pool_.get(), PhysicalType::kFixedLenByteArray, 2, SortOrder::kSigned);
  const std::string values = std::string("\x00\x05", 2) + std::string("\xff\xfe", 2) + std::string("\x7f\xff", 2) +
                             std::string("\x80\x00", 2);  // 5, -2, 32767, -32768
  ASSERT_TRUE(dec.UpdateFixed(values.data(), 4).ok());
  EXPECT_EQ(dec.min_bytes(), std::string("\x80\x00", 2));
  EXPECT_EQ(dec.max_bytes(), std::string("\x7f\xff", 2));
  StatisticsCollector uuid(pool_.get(), PhysicalType::kFixedLenByteArray, 2, SortOrder::kUnsigned);
  ASSERT_TRUE(uuid.UpdateFixed(values.data(), 4).ok());
  EXPECT_EQ(uuid.min_bytes(), std::string("\x00\x05", 2));
  EXPECT_EQ(uuid.max_bytes(), std::string("\xff\xfe", 2));
  // UpdateFixed refuses BYTE_ARRAY columns; UpdateByteArrays refuses fixed-width numerics.
  StatisticsCollector strings(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  EXPECT_TRUE(strings.UpdateFixed(values.data(), 1).IsInvalid());
  StatisticsCollector ints(pool_.get(), PhysicalType::kInt32, 0, SortOrder::kSigned);
  ByteArrayView view{reinterpret_cast<const uint8_t*>(values.data()), 4};
  EXPECT_TRUE(ints.UpdateByteArrays(&view, 1).IsInvalid());
}

// ---- truncation ----------------------------------------------------------------------------------

TEST(TruncateBoundTest, Rules) {
  TruncatedBound min = TruncateBound("abcdefgh", 4, false);
  EXPECT_EQ(min.value, "abcd");
  EXPECT_FALSE(min.exact);
  EXPECT_TRUE(min.present);
  TruncatedBound max = TruncateBound("abcdefgh", 4, true);
  EXPECT_EQ(max.value, "abce");
  EXPECT_FALSE(max.exact);
  // The last non-0xFF byte of the prefix is incremented; the 0xFF bytes after it are dropped.
  TruncatedBound ff = TruncateBound(std::string("ab\xff\xff\xffx", 6), 4, true);
  EXPECT_EQ(ff.value, "ac");
  TruncatedBound carry = TruncateBound(std::string("a\xfe\xff\xffzz", 6), 4, true);
  EXPECT_EQ(carry.value, std::string("a\xff", 2));
  // All 0xFF: no shorter upper bound exists.
  TruncatedBound none = TruncateBound(std::string(5, '\xff'), 4, true);
  EXPECT_FALSE(none.present);
  EXPECT_TRUE(TruncateBound(std::string(5, '\xff'), 4, false).present);
  // At or under the limit, or limit 0: unchanged and exact.
  TruncatedBound at = TruncateBound("abcd", 4, true);
  EXPECT_EQ(at.value, "abcd");
  EXPECT_TRUE(at.exact);
  TruncatedBound never = TruncateBound(std::string(100, 'q'), 0, true);
  EXPECT_EQ(never.value.size(), 100u);
  EXPECT_TRUE(never.exact);
}

TEST_F(StatisticsTest, ToThriftTruncatesAndFlagsExactness) {
  StatisticsCollector c(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  const std::vector<std::string> values = {"Blart Versenwald III", "Zaphod", "Arthur Dent"};
  auto views = Views(values);
  ASSERT_TRUE(c.UpdateByteArrays(views.data(), 3).ok());
  Statistics s = c.ToThrift({.max_value_bytes = 4});
  EXPECT_EQ(s.min_value, "Arth");
  EXPECT_EQ(s.is_min_value_exact, false);
  EXPECT_EQ(s.max_value, "Zapi");
  EXPECT_EQ(s.is_max_value_exact, false);
  EXPECT_EQ(c.min_bytes(), "Arthur Dent");  // the collector keeps the whole values
  EXPECT_EQ(RoundTrip(s), s);
  Statistics whole = c.ToThrift({.max_value_bytes = 0});
  EXPECT_EQ(whole.min_value, "Arthur Dent");
  EXPECT_EQ(whole.max_value, "Zaphod");
  EXPECT_EQ(whole.is_min_value_exact, true);
  EXPECT_EQ(whole.is_max_value_exact, true);
  // Exactly at the limit: not truncated.
  Statistics six = c.ToThrift({.max_value_bytes = 6});
  EXPECT_EQ(six.max_value, "Zaphod");
  EXPECT_EQ(six.is_max_value_exact, true);
  EXPECT_EQ(six.min_value, "Arthur");
  EXPECT_EQ(six.is_min_value_exact, false);
}

TEST_F(StatisticsTest, AllFFMaxIsLeftOut) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFixedLenByteArray, 6, SortOrder::kUnsigned);
  const std::string values = std::string("\x01\x02\x03\x04\x05\x06", 6) + std::string(6, '\xff');
  ASSERT_TRUE(c.UpdateFixed(values.data(), 2).ok());
  Statistics s = c.ToThrift({.max_value_bytes = 3});
  EXPECT_EQ(s.min_value, std::string("\x01\x02\x03", 3));
  EXPECT_EQ(s.is_min_value_exact, false);
  EXPECT_FALSE(s.max_value.has_value());
  EXPECT_FALSE(s.is_max_value_exact.has_value());
  EXPECT_EQ(RoundTrip(s), s);
}

// ---- booleans, INT96 ------------------------------------------------------------------------------

TEST_F(StatisticsTest, Booleans) {
  const uint8_t bits[] = {0b0000'0110, 0b1111'1111};
  {
    StatisticsCollector c(pool_.get(), PhysicalType::kBoolean, 0, SortOrder::kSigned);
    c.UpdateBooleans(bits, 1, 2);  // true, true
    EXPECT_EQ(c.min_bytes(), std::string("\x01", 1));
    EXPECT_EQ(c.max_bytes(), std::string("\x01", 1));
    c.UpdateBooleans(bits, 3, 2);  // false, false
    EXPECT_EQ(c.min_bytes(), std::string("\x00", 1));
    EXPECT_EQ(c.max_bytes(), std::string("\x01", 1));
    EXPECT_EQ(c.num_values(), 4);
    Statistics s = c.ToThrift({});
    EXPECT_EQ(s.min_value, std::string("\x00", 1));
    EXPECT_EQ(s.max_value, std::string("\x01", 1));
    EXPECT_EQ(s.min, s.min_value);
    EXPECT_EQ(RoundTrip(s), s);
  }
  {
    StatisticsCollector c(pool_.get(), PhysicalType::kBoolean, 0, SortOrder::kSigned);
    c.UpdateBooleans(bits, 3, 5);  // all false (bits 3..7 of the first byte)
    EXPECT_EQ(c.max_bytes(), std::string("\x00", 1));
    c.UpdateBooleans(bits, 8, 8);  // spans into the second byte, all true
    EXPECT_EQ(c.min_bytes(), std::string("\x00", 1));
    EXPECT_EQ(c.max_bytes(), std::string("\x01", 1));
  }
}

TEST_F(StatisticsTest, Int96AndUnknownOrderWriteOnlyNullCount) {
  StatisticsCollector c(pool_.get(), PhysicalType::kInt96, 0, SortOrder::kSigned);
  EXPECT_EQ(c.sort_order(), SortOrder::kUnknown);
  const std::string values(24, '\x07');
  ASSERT_TRUE(c.UpdateFixed(values.data(), 2).ok());
  c.AddNulls(1);
  EXPECT_FALSE(c.has_min_max());
  EXPECT_EQ(c.num_values(), 2);
  Statistics s = c.ToThrift({});
  Statistics expected;
  expected.null_count = 1;
  EXPECT_EQ(s, expected);
  StatisticsCollector interval(pool_.get(), PhysicalType::kFixedLenByteArray, 12, SortOrder::kUnknown);
  ASSERT_TRUE(interval.UpdateFixed(values.data(), 2).ok());
  Statistics only_nulls;
  only_nulls.null_count = 0;
  EXPECT_EQ(interval.ToThrift({}), only_nulls);
}

// ---- merge --------------------------------------------------------------------------------------

TEST_F(StatisticsTest, MergeHandlesEmptyAndMinMaxLessCollectors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  StatisticsCollector chunk(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  StatisticsCollector empty(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  StatisticsCollector all_nan(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  StatisticsCollector page(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  ASSERT_TRUE(chunk.Merge(empty).ok());  // empty into empty
  EXPECT_FALSE(chunk.has_min_max());
  const double nans[] = {nan, nan};
  ASSERT_TRUE(all_nan.UpdateFixed(nans, 2).ok());
  all_nan.AddNulls(4);
  ASSERT_TRUE(chunk.Merge(all_nan).ok());
  EXPECT_FALSE(chunk.has_min_max());
  EXPECT_EQ(chunk.nan_count(), 2);
  const double values[] = {2.0, -0.0, 3.0};
  ASSERT_TRUE(page.UpdateFixed(values, 3).ok());
  ASSERT_TRUE(chunk.Merge(page).ok());
  ASSERT_TRUE(chunk.Merge(empty).ok());
  EXPECT_EQ(chunk.min_bytes(), Bytes(-0.0));
  EXPECT_EQ(chunk.max_bytes(), Bytes(3.0));
  EXPECT_EQ(chunk.null_count(), 4);
  EXPECT_EQ(chunk.nan_count(), 2);
  EXPECT_EQ(chunk.num_values(), 5);
  // A page with +0 max merged into a chunk whose max is below zero.
  StatisticsCollector negative(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  StatisticsCollector zero(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  const double minus_one = -1.0, minus_zero = -0.0;
  ASSERT_TRUE(negative.UpdateFixed(&minus_one, 1).ok());
  ASSERT_TRUE(zero.UpdateFixed(&minus_zero, 1).ok());
  ASSERT_TRUE(negative.Merge(zero).ok());
  EXPECT_EQ(negative.min_bytes(), Bytes(-1.0));
  EXPECT_EQ(negative.max_bytes(), Bytes(0.0));
  // Merging into an empty collector copies min/max.
  StatisticsCollector fresh(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  ASSERT_TRUE(fresh.Merge(chunk).ok());
  EXPECT_EQ(fresh.ToThrift({}), chunk.ToThrift({}));
}

TEST_F(StatisticsTest, MergeByteArraysAndRefuseOtherColumns) {
  StatisticsCollector chunk(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  StatisticsCollector page(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
  const std::vector<std::string> a = {"pear", "fig"};
  const std::vector<std::string> b = {"apple", "plum"};
  auto views = Views(a);
  ASSERT_TRUE(page.UpdateByteArrays(views.data(), 2).ok());
  ASSERT_TRUE(chunk.Merge(page).ok());
  page.Reset();
  views = Views(b);
  ASSERT_TRUE(page.UpdateByteArrays(views.data(), 2).ok());
  page.AddNulls(1);
  ASSERT_TRUE(chunk.Merge(page).ok());
  EXPECT_EQ(chunk.min_bytes(), "apple");
  EXPECT_EQ(chunk.max_bytes(), "plum");
  EXPECT_EQ(chunk.num_values(), 4);
  EXPECT_EQ(chunk.null_count(), 1);
  StatisticsCollector decimal(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kSigned);
  Status st = chunk.Merge(decimal);
  EXPECT_TRUE(st.IsInvalid()) << st.ToString();
  StatisticsCollector ints(pool_.get(), PhysicalType::kInt32, 0, SortOrder::kSigned);
  EXPECT_TRUE(chunk.Merge(ints).IsInvalid());
}

TEST_F(StatisticsTest, RoundTripKeepsEveryField) {
  StatisticsCollector c(pool_.get(), PhysicalType::kFloat, 0, SortOrder::kSigned);
  const float values[] = {std::numeric_limits<float>::quiet_NaN(), -7.25f, 8.5f};
  ASSERT_TRUE(c.UpdateFixed(values, 3).ok());
  c.AddNulls(9);
  Statistics s = c.ToThrift({});
  EXPECT_EQ(s.null_count, 9);
  EXPECT_EQ(s.nan_count, 1);
  EXPECT_EQ(s.min_value, Bytes(-7.25f));
  EXPECT_EQ(s.max_value, Bytes(8.5f));
  std::string wire;
  CompactWriter writer(&wire);
  Encode(writer, s);
  Statistics decoded = RoundTrip(s);
  EXPECT_EQ(decoded, s);
  EXPECT_EQ(decoded.min_value, Bytes(-7.25f));
  EXPECT_EQ(decoded.nan_count, 1);
}

// Statistics values decoded for people and bindings (statistic_value.h).
TEST(StatisticValueTest, NumbersByPhysicalType) {
  StatValue v = DecodeStat(Bytes<int32_t>(-7), PhysicalType::kInt32, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kInt);
  EXPECT_EQ(v.i, -7);
  v = DecodeStat(Bytes<int64_t>(int64_t{1} << 40), PhysicalType::kInt64, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kInt);
  EXPECT_EQ(v.i, int64_t{1} << 40);
  v = DecodeStat(Bytes<float>(9.9f), PhysicalType::kFloat, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kDouble);
  EXPECT_TRUE(v.is_float);
  EXPECT_EQ(static_cast<float>(v.d), 9.9f);
  v = DecodeStat(Bytes<double>(2.5), PhysicalType::kDouble, nullptr);
  EXPECT_EQ(v.d, 2.5);
  EXPECT_FALSE(v.is_float);
  v = DecodeStat(std::string(1, '\1'), PhysicalType::kBoolean, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kBool);
  EXPECT_EQ(v.i, 1);
}

TEST(StatisticValueTest, SchemaFacts) {
  SchemaElement unsigned_leaf;
  unsigned_leaf.converted_type = ConvertedType::kUint32;
  EXPECT_TRUE(IsUnsigned(&unsigned_leaf));
  StatValue v = DecodeStat(Bytes<int32_t>(-1), PhysicalType::kInt32, &unsigned_leaf);
  EXPECT_EQ(v.kind, StatValue::Kind::kUint);
  EXPECT_EQ(v.u, 0xffffffffu);

  SchemaElement text_leaf;
  text_leaf.logical_type = LogicalType{};
  text_leaf.logical_type->kind = LogicalType::Kind::kString;
  EXPECT_TRUE(IsTextColumn(&text_leaf));
  v = DecodeStat("abc", PhysicalType::kByteArray, &text_leaf);
  EXPECT_EQ(v.kind, StatValue::Kind::kText);
  EXPECT_EQ(v.text, "abc");
  // Binary without a text type, and bytes that do not fit their type: hex.
  v = DecodeStat("ab", PhysicalType::kByteArray, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kHex);
  EXPECT_EQ(v.text, "0x6162");
  v = DecodeStat("abc", PhysicalType::kInt32, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kHex);
  EXPECT_EQ(v.text, "0x616263");
}

TEST(StatisticValueTest, HexIsCut) {
  EXPECT_EQ(Hex("\x01\x02\x03", 2), "0x0102... (3 bytes)");
  EXPECT_EQ(Hex(""), "0x");
}

}  // namespace
}  // namespace strata::parquet
