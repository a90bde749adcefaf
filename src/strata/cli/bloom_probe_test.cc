// `--bloom-probe` values: text converted to the PLAIN bytes of each physical and logical type.
#include "strata/cli/bloom_probe.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>

#include "strata/parquet/stats/bloom_filter.h"

namespace strata::cli {
namespace {

using namespace std::string_literals;
using parquet::ConvertedType;
using parquet::LogicalType;
using parquet::PhysicalType;
using parquet::SchemaElement;

template <typename T>
std::string Bytes(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

SchemaElement Leaf(PhysicalType type, std::optional<LogicalType> logical = std::nullopt,
                   std::optional<int32_t> type_length = std::nullopt) {
  SchemaElement e;
  e.name = "c";
  e.type = type;
  e.logical_type = std::move(logical);
  e.type_length = type_length;
  return e;
}

LogicalType Logical(LogicalType::Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType Integer(int bits, bool is_signed) {
  LogicalType t = Logical(LogicalType::Kind::kInteger);
  t.bit_width = static_cast<int8_t>(bits);
  t.is_signed = is_signed;
  return t;
}

LogicalType Decimal(int32_t precision, int32_t scale) {
  LogicalType t = Logical(LogicalType::Kind::kDecimal);
  t.precision = precision;
  t.scale = scale;
  return t;
}

std::string Encoded(std::string_view value, const SchemaElement& leaf) {
  auto encoded = EncodeProbeValue(value, leaf);
  EXPECT_TRUE(encoded.ok()) << value << ": " << encoded.status().ToString();
  return encoded.ok() ? *encoded : std::string("<error>");
}

std::string Refused(std::string_view value, const SchemaElement& leaf) {
  auto encoded = EncodeProbeValue(value, leaf);
  EXPECT_FALSE(encoded.ok()) << value;
  return encoded.ok() ? std::string() : encoded.status().ToString();
}

TEST(BloomProbeValueTest, Integers) {
  const SchemaElement int32 = Leaf(PhysicalType::kInt32);
  EXPECT_EQ(Encoded("7", int32), Bytes<int32_t>(7));
  EXPECT_EQ(Encoded("+7", int32), Bytes<int32_t>(7));
  EXPECT_EQ(Encoded("-2147483648", int32), Bytes<int32_t>(std::numeric_limits<int32_t>::min()));
  EXPECT_EQ(Refused("2147483648", int32), "Invalid: '2147483648' is not a signed 32 integer (from -2147483648 to 2147483647)");
  EXPECT_EQ(Refused("7x", int32), "Invalid: '7x' is not a signed 32 integer (from -2147483648 to 2147483647)");
  EXPECT_EQ(Refused("", int32), "Invalid: '' is not a signed 32 integer (from -2147483648 to 2147483647)");
  // The writer hashes the same bytes.
  const std::string seven = Encoded("7", int32);
  EXPECT_EQ(parquet::BloomFilter::Hash(seven.data(), seven.size()), parquet::BloomFilter::HashInt32(7));

  EXPECT_EQ(Encoded("-128", Leaf(PhysicalType::kInt32, Integer(8, true))), Bytes<int32_t>(-128));
  EXPECT_FALSE(EncodeProbeValue("128", Leaf(PhysicalType::kInt32, Integer(8, true))).ok());
  // Unsigned values are stored as their bit pattern.
  EXPECT_EQ(Encoded("4294967295", Leaf(PhysicalType::kInt32, Integer(32, false))), Bytes<int32_t>(-1));
  EXPECT_EQ(Refused("-1", Leaf(PhysicalType::kInt32, Integer(32, false))),
            "Invalid: '-1' is not an unsigned 32 integer (0 to 4294967295)");
  EXPECT_EQ(Encoded("18446744073709551615", Leaf(PhysicalType::kInt64, Integer(64, false))), Bytes<int64_t>(-1));
  SchemaElement uint16 = Leaf(PhysicalType::kInt32);
  uint16.converted_type = ConvertedType::kUint16;
  EXPECT_EQ(Encoded("65535", uint16), Bytes<int32_t>(65535));
  EXPECT_FALSE(EncodeProbeValue("65536", uint16).ok());
  EXPECT_EQ(Encoded("-9223372036854775808", Leaf(PhysicalType::kInt64)),
            Bytes<int64_t>(std::numeric_limits<int64_t>::min()));
  // TIMESTAMP: the raw count of its unit.
  EXPECT_EQ(Encoded("1700000000000000", Leaf(PhysicalType::kInt64, Logical(LogicalType::Kind::kTimestamp))),
            Bytes<int64_t>(1700000000000000));
}

TEST(BloomProbeValueTest, Dates) {
  const SchemaElement date = Leaf(PhysicalType::kInt32, Logical(LogicalType::Kind::kDate));
  EXPECT_EQ(Encoded("1970-01-01", date), Bytes<int32_t>(0));
  EXPECT_EQ(Encoded("1969-12-31", date), Bytes<int32_t>(-1));
  EXPECT_EQ(Encoded("2000-03-01", date), Bytes<int32_t>(11017));
  EXPECT_EQ(Encoded("2024-02-29", date), Bytes<int32_t>(19782));
  EXPECT_EQ(Encoded("0001-01-01", date), Bytes<int32_t>(-719162));
  EXPECT_EQ(Refused("2023-02-29", date), "Invalid: '2023-02-29' is not a date (expected YYYY-MM-DD)");
  EXPECT_FALSE(EncodeProbeValue("2023-1-05", date).ok());
  EXPECT_FALSE(EncodeProbeValue("19700101", date).ok());
  EXPECT_FALSE(EncodeProbeValue("1970-13-01", date).ok());
  SchemaElement legacy = Leaf(PhysicalType::kInt32);
  legacy.converted_type = ConvertedType::kDate;
  EXPECT_EQ(Encoded("1970-01-02", legacy), Bytes<int32_t>(1));
}

TEST(BloomProbeValueTest, DecimalsByScale) {
  EXPECT_EQ(Encoded("12.34", Leaf(PhysicalType::kInt32, Decimal(9, 2))), Bytes<int32_t>(1234));
  EXPECT_EQ(Encoded("-0.5", Leaf(PhysicalType::kInt32, Decimal(9, 2))), Bytes<int32_t>(-50));
  EXPECT_EQ(Encoded("12", Leaf(PhysicalType::kInt64, Decimal(18, 3))), Bytes<int64_t>(12000));
  EXPECT_EQ(Refused("1.234", Leaf(PhysicalType::kInt32, Decimal(9, 2))),
            "Invalid: '1.234' is not a decimal with scale 2 (too many fraction digits)");
  EXPECT_EQ(Refused("30000000", Leaf(PhysicalType::kInt32, Decimal(9, 2))),
            "Invalid: decimal '30000000' does not fit the column's 4 bytes");
  EXPECT_FALSE(EncodeProbeValue("1.2.3", Leaf(PhysicalType::kInt32, Decimal(9, 2))).ok());
  EXPECT_FALSE(EncodeProbeValue(".", Leaf(PhysicalType::kInt32, Decimal(9, 2))).ok());
  // FIXED_LEN_BYTE_ARRAY: big-endian two's complement of the width.
  EXPECT_EQ(Encoded("-1", Leaf(PhysicalType::kFixedLenByteArray, Decimal(10, 0), 5)), std::string(5, '\xff'));
  EXPECT_EQ(Encoded("2.56", Leaf(PhysicalType::kFixedLenByteArray, Decimal(10, 2), 3)), std::string("\x00\x01\x00", 3));
  EXPECT_EQ(Encoded("-1", Leaf(PhysicalType::kFixedLenByteArray, Decimal(38, 0), 20)), std::string(20, '\xff'));
  // BYTE_ARRAY: the shortest form, as Java's BigInteger.toByteArray writes it.
  const SchemaElement binary_decimal = Leaf(PhysicalType::kByteArray, Decimal(10, 0));
  EXPECT_EQ(Encoded("0", binary_decimal), std::string("\x00", 1));
  EXPECT_EQ(Encoded("127", binary_decimal), "\x7f");
  EXPECT_EQ(Encoded("128", binary_decimal), std::string("\x00\x80", 2));
  EXPECT_EQ(Encoded("-128", binary_decimal), "\x80");
  EXPECT_EQ(Encoded("-129", binary_decimal), "\xff\x7f");
  // The converted type's scale lives in the schema element.
  SchemaElement legacy = Leaf(PhysicalType::kInt64);
  legacy.converted_type = ConvertedType::kDecimal;
  legacy.scale = 1;
  EXPECT_EQ(Encoded("-3.5", legacy), Bytes<int64_t>(-35));
}

TEST(BloomProbeValueTest, FloatsStringsAndBytes) {
  EXPECT_EQ(Encoded("1.5", Leaf(PhysicalType::kFloat)), Bytes(1.5f));
  EXPECT_EQ(Encoded("-0", Leaf(PhysicalType::kDouble)), Bytes(-0.0));
  EXPECT_EQ(Encoded("1e3", Leaf(PhysicalType::kDouble)), Bytes(1000.0));
  EXPECT_EQ(Encoded("0.1", Leaf(PhysicalType::kDouble)), Bytes(0.1));
  EXPECT_EQ(Refused("one", Leaf(PhysicalType::kDouble)), "Invalid: 'one' is not a DOUBLE number");

  const SchemaElement text = Leaf(PhysicalType::kByteArray, Logical(LogicalType::Kind::kString));
  EXPECT_EQ(Encoded("h\xc3\xa9llo", text), "h\xc3\xa9llo");
  EXPECT_EQ(Encoded("hex:41", text), "hex:41");  // text is text
  EXPECT_EQ(Encoded("", text), "");
  const SchemaElement binary = Leaf(PhysicalType::kByteArray);
  EXPECT_EQ(Encoded("hex:00ff41", binary), std::string("\x00\xff\x41", 3));
  EXPECT_EQ(Encoded("abc", binary), "abc");
  EXPECT_FALSE(EncodeProbeValue("hex:0", binary).ok());
  EXPECT_FALSE(EncodeProbeValue("hex:zz", binary).ok());

  const SchemaElement fixed = Leaf(PhysicalType::kFixedLenByteArray, std::nullopt, 2);
  EXPECT_EQ(Encoded("hex:ABcd", fixed), "\xab\xcd");
  EXPECT_EQ(Refused("hex:abcdef", fixed), "Invalid: 'hex:abcdef' has 3 bytes, the column's values 2");
  EXPECT_EQ(Refused("ab", fixed), "Invalid: 'ab' is not hex:... (expected 2 bytes as hex)");
  const SchemaElement uuid = Leaf(PhysicalType::kFixedLenByteArray, Logical(LogicalType::Kind::kUuid), 16);
  EXPECT_EQ(Encoded("00112233-4455-6677-8899-aabbccddeeff", uuid),
            "\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff"s);
  EXPECT_EQ(Encoded("hex:000102030405060708090a0b", Leaf(PhysicalType::kInt96)),
            std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b", 12));
  EXPECT_EQ(Refused("true", Leaf(PhysicalType::kBoolean)), "Invalid: BOOLEAN columns have no Bloom filter to probe");
}

}  // namespace
}  // namespace strata::cli
