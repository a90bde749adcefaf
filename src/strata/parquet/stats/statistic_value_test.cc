#include "strata/parquet/stats/statistic_value.h"

#include <cstring>

#include <gtest/gtest.h>

namespace strata::parquet {
namespace {

template <typename T>
std::string Plain(T value) {
  std::string bytes(sizeof(T), '\0');
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

TEST(StatisticValueTest, NumbersByPhysicalType) {
  StatValue v = DecodeStat(Plain<int32_t>(-7), PhysicalType::kInt32, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kInt);
  EXPECT_EQ(v.i, -7);
  v = DecodeStat(Plain<int64_t>(int64_t{1} << 40), PhysicalType::kInt64, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kInt);
  EXPECT_EQ(v.i, int64_t{1} << 40);
  v = DecodeStat(Plain<float>(9.9f), PhysicalType::kFloat, nullptr);
  EXPECT_EQ(v.kind, StatValue::Kind::kDouble);
  EXPECT_TRUE(v.is_float);
  EXPECT_EQ(static_cast<float>(v.d), 9.9f);
  v = DecodeStat(Plain<double>(2.5), PhysicalType::kDouble, nullptr);
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
  StatValue v = DecodeStat(Plain<int32_t>(-1), PhysicalType::kInt32, &unsigned_leaf);
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
