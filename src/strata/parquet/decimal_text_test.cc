// Decimals above 76 digits read as their exact text (decimal_text.h): the formatting of any
// width, and files with FIXED_LEN_BYTE_ARRAY(40) and BYTE_ARRAY columns, flat and in a list,
// as utf8 and (with 64-bit offsets) as large_utf8.
#include "strata/parquet/decimal_text.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "strata/array/validate.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;

// Big-endian two's complement of `width` bytes of a decimal integer ("-123", "0", "999...").
std::string TwosComplement(std::string_view number, int width) {
  const bool negative = !number.empty() && number[0] == '-';
  if (negative) number.remove_prefix(1);
  std::vector<uint8_t> bytes(static_cast<size_t>(width), 0);
  for (char digit : number) {
    int carry = digit - '0';
    for (int i = width - 1; i >= 0; --i) {
      const int v = bytes[static_cast<size_t>(i)] * 10 + carry;
      bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(v & 0xff);
      carry = v >> 8;
    }
  }
  if (negative) {
    int carry = 1;
    for (int i = width - 1; i >= 0; --i) {
      const int v = static_cast<uint8_t>(~bytes[static_cast<size_t>(i)]) + carry;
      bytes[static_cast<size_t>(i)] = static_cast<uint8_t>(v & 0xff);
      carry = v >> 8;
    }
  }
  return std::string(bytes.begin(), bytes.end());
}

// A file pt::BuildFile made, read with large_binary or not: the schema its batch reader
// announces, and the whole table.
struct TextRead {
  std::shared_ptr<Schema> schema;
  std::shared_ptr<Table> table;
};
Result<TextRead> ReadAsText(const Result<std::shared_ptr<Buffer>>& file, const char* name, bool large_binary) {
  STRATA_RETURN_NOT_OK(file.status());
  STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::Open(MakeBufferSource(*file, name), SystemMemoryPool()));
  BatchReadOptions options;
  options.large_binary = large_binary;
  STRATA_ASSIGN_OR_RETURN(auto batches, reader->ReadBatches(options));
  TextRead out;
  out.schema = batches->schema();
  STRATA_ASSIGN_OR_RETURN(out.table, reader->ReadTable(options));
  return out;
}

std::string Format(const std::string& bytes, int32_t scale) {
  std::vector<uint32_t> limbs((bytes.size() + 3) / 4 + 1);
  std::string out(static_cast<size_t>(DecimalTextBound(static_cast<int64_t>(bytes.size()), scale)), '\0');
  const int64_t n = FormatDecimalText(reinterpret_cast<const uint8_t*>(bytes.data()),
                                      static_cast<int64_t>(bytes.size()), scale, limbs.data(), out.data());
  out.resize(static_cast<size_t>(n));
  return out;
}

const std::string kNines90(90, '9');

TEST(DecimalTextTest, FormatsAnyWidth) {
  EXPECT_EQ(Format(TwosComplement("0", 40), 10), "0.0000000000");
  EXPECT_EQ(Format(TwosComplement("0", 40), 0), "0");
  EXPECT_EQ(Format("", 2), "0.00");
  EXPECT_EQ(Format(TwosComplement("123456789000000", 40), 10), "12345.6789000000");
  EXPECT_EQ(Format(TwosComplement("-123456789000000", 40), 10), "-12345.6789000000");
  EXPECT_EQ(Format(TwosComplement("1", 40), 3), "0.001");
  EXPECT_EQ(Format(TwosComplement("-1", 40), 3), "-0.001");
  EXPECT_EQ(Format(TwosComplement("-1", 1), 0), "-1");
  EXPECT_EQ(Format(TwosComplement("127", 1), 0), "127");
  EXPECT_EQ(Format(TwosComplement("-128", 1), 0), "-128");
  // 10^9 boundaries of the limb division.
  EXPECT_EQ(Format(TwosComplement("1000000000", 5), 0), "1000000000");
  EXPECT_EQ(Format(TwosComplement("1000000000000000000", 9), 9), "1000000000.000000000");
  EXPECT_EQ(Format(TwosComplement(kNines90, 40), 10), std::string(80, '9') + "." + std::string(10, '9'));
  EXPECT_EQ(Format(TwosComplement("-" + kNines90, 40), 90), "-0." + kNines90);
  EXPECT_EQ(Format(TwosComplement(kNines90, 40), 0), kNines90);
  // The most negative 40-byte value: -2^319, whose magnitude needs every bit.
  EXPECT_EQ(Format(std::string(1, '\x80') + std::string(39, '\0'), 0),
            "-1067993517960455041197510853084776057301352261178326384973520803911109862890320275011481043468288");
  // 3 bytes, not a multiple of 4: 0x7fffff.
  EXPECT_EQ(Format(std::string("\x7f\xff\xff", 3), 2), "83886.07");
}

struct DecimalCase {
  PhysicalType physical;
  int32_t type_length;
  int32_t precision;
  int32_t scale;
};

// Rows: a positive, a negative, zero, a null, the largest and smallest values of the precision.
// With `large_binary` the text is large_utf8 (64-bit offsets), the metadata the same.
void CheckWideDecimalColumn(const DecimalCase& c, bool large_binary) {
  SCOPED_TRACE(fmt::format("{} {} decimal({}, {}){}", PhysicalTypeName(c.physical), c.type_length, c.precision, c.scale,
                           large_binary ? " large_binary" : ""));
  const TypeId text_id = large_binary ? TypeId::kLargeString : TypeId::kString;
  const std::string nines(static_cast<size_t>(c.precision), '9');
  const std::vector<std::string> numbers = {"123456789000000", "-123456789000000", "0", "0", nines, "-" + nines};
  const std::vector<bool> valid = {true, true, true, false, true, true};
  std::vector<std::string> bytes;
  for (size_t i = 0; i < numbers.size(); ++i) {
    // BYTE_ARRAY values of varying length: as few bytes as the sign needs, and one value wide.
    const int width = c.type_length > 0 ? c.type_length : (i == 0 ? 7 : (i == 2 ? 1 : 40));
    bytes.push_back(TwosComplement(numbers[i], width));
  }
  pt::ColumnOptions column;
  column.name = "d";
  column.physical_type = c.physical;
  column.type_length = c.type_length;
  column.logical_type = pt::DecimalLogicalType(c.precision, c.scale);
  const pt::ColumnValues values = c.physical == PhysicalType::kByteArray
                                      ? pt::ColumnValues::ByteArrays(bytes, valid)
                                      : pt::ColumnValues::FixedLenByteArrays(c.type_length, bytes, valid);
  auto read = ReadAsText(pt::BuildFile({column}, {values}, 4), "wide.parquet", large_binary);  // two row groups
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const Field& field = *read->schema->field(0);
  EXPECT_EQ(field.type()->id(), text_id);
  EXPECT_EQ(field.metadata().Get(kDecimalTextMetadataKey), fmt::format("decimal({}, {})", c.precision, c.scale));
  std::vector<std::optional<std::string>> texts;
  for (const Array& chunk : read->table->column(0)->chunks()) {
    ASSERT_EQ(chunk.type()->id(), text_id);
    auto valid_chunk = ValidateFull(*chunk.data());
    ASSERT_TRUE(valid_chunk.ok()) << valid_chunk.ToString();
    for (int64_t i = 0; i < chunk.length(); ++i) {
      if (chunk.IsNull(i)) texts.emplace_back(std::nullopt);
      else if (large_binary) texts.emplace_back(std::string(LargeStringArray(chunk).GetView(i)));
      else texts.emplace_back(std::string(StringArray(chunk).GetView(i)));
    }
  }
  auto text = [&](std::string digits) -> std::string {
    const bool negative = digits[0] == '-';
    if (negative) digits.erase(0, 1);
    if (c.scale > 0) {
      if (static_cast<int32_t>(digits.size()) <= c.scale) {
        digits = std::string(static_cast<size_t>(c.scale) + 1 - digits.size(), '0') + digits;
      }
      digits.insert(digits.size() - static_cast<size_t>(c.scale), ".");
    }
    return (negative ? "-" : "") + digits;
  };
  const std::vector<std::optional<std::string>> expected = {
      text(numbers[0]), text(numbers[1]), text("0"), std::nullopt, text(numbers[4]), text(numbers[5])};
  EXPECT_EQ(texts, expected);
}

const DecimalCase kWideCases[] = {DecimalCase{PhysicalType::kFixedLenByteArray, 40, 90, 10},
                                  DecimalCase{PhysicalType::kByteArray, 0, 90, 10},
                                  DecimalCase{PhysicalType::kFixedLenByteArray, 40, 90, 0},
                                  DecimalCase{PhysicalType::kByteArray, 0, 90, 90},
                                  DecimalCase{PhysicalType::kFixedLenByteArray, 33, 77, 5}};

TEST(DecimalTextTest, WideDecimalColumnsReadAsText) {
  for (const DecimalCase& c : kWideCases) CheckWideDecimalColumn(c, /*large_binary=*/false);
}

// With 64-bit offsets asked for, the text is large_utf8 (the BYTE_ARRAY bytes decode as
// large_binary first).
TEST(DecimalTextTest, WideDecimalColumnsReadAsLargeText) {
  for (const DecimalCase& c : kWideCases) CheckWideDecimalColumn(c, /*large_binary=*/true);
}

// The same values as the element of a BYTE_ARRAY list column (the nested leaf reader), with
// 32-bit or 64-bit offsets (list<large_string> with large_binary, as
// AssemblyPlan::UseLargeOffsets makes it; the bytes then decode as large_binary).
void CheckWideDecimalsInAList(bool large_binary) {
  SCOPED_TRACE(large_binary ? "large_binary" : "");
  const TypeId text_id = large_binary ? TypeId::kLargeString : TypeId::kString;
  using Row = std::optional<std::vector<std::optional<std::string>>>;
  const std::vector<Row> rows = {Row({TwosComplement("-5", 40), std::nullopt, TwosComplement(kNines90, 40)}), Row(),
                                 Row(std::vector<std::optional<std::string>>{}), Row({TwosComplement("42", 3)})};
  pt::ColumnOptions column;
  column.name = "l";
  column.physical_type = PhysicalType::kByteArray;
  column.logical_type = pt::DecimalLogicalType(90, 2);
  column.list = true;
  auto read = ReadAsText(
      pt::BuildFile({column}, {pt::ColumnValues::ListOf<std::string>(PhysicalType::kByteArray, rows)}, 10),
      "wide_list.parquet", large_binary);
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  const Field& field = *read->schema->field(0);
  ASSERT_EQ(field.type()->id(), TypeId::kList);
  const Field& element = *field.type()->value_field();
  EXPECT_EQ(element.type()->id(), text_id);
  EXPECT_EQ(element.metadata().Get(kDecimalTextMetadataKey), "decimal(90, 2)");
  ASSERT_EQ(read->table->num_rows(), 4);
  const Array& list = read->table->column(0)->chunks()[0];
  auto valid_list = ValidateFull(*list.data());
  ASSERT_TRUE(valid_list.ok()) << valid_list.ToString();
  EXPECT_TRUE(list.type()->Equals(*field.type())) << list.type()->ToString();
  const Array values(list.data()->children[0]);
  ASSERT_EQ(values.length(), 4);
  ASSERT_EQ(values.type()->id(), text_id);
  auto view = [&](int64_t i) {
    return large_binary ? std::string(LargeStringArray(values).GetView(i)) : std::string(StringArray(values).GetView(i));
  };
  EXPECT_EQ(view(0), "-0.05");
  EXPECT_TRUE(values.IsNull(1));
  EXPECT_EQ(view(2), std::string(88, '9') + ".99");
  EXPECT_EQ(view(3), "0.42");
}

TEST(DecimalTextTest, WideDecimalsInAListReadAsText) { CheckWideDecimalsInAList(/*large_binary=*/false); }

TEST(DecimalTextTest, WideDecimalsInAListReadAsLargeText) { CheckWideDecimalsInAList(/*large_binary=*/true); }

// A file of one FIXED_LEN_BYTE_ARRAY decimal column "d" of `width` bytes holding `values`
// (decimal text, unscaled), named `name`.
Result<std::unique_ptr<FileReader>> OneDecimalColumn(int precision, int scale, int width,
                                                     const std::vector<std::string>& values, const char* name) {
  pt::ColumnOptions column;
  column.name = "d";
  column.physical_type = PhysicalType::kFixedLenByteArray;
  column.type_length = width;
  column.logical_type = pt::DecimalLogicalType(precision, scale);
  std::vector<std::string> stored;
  for (const std::string& value : values) stored.push_back(TwosComplement(value, width));
  STRATA_ASSIGN_OR_RETURN(auto file, pt::BuildFile({column}, {pt::ColumnValues::FixedLenByteArrays(width, stored)}, 10));
  return FileReader::Open(MakeBufferSource(file, name), SystemMemoryPool());
}

// Precision 76 is still decimal256; its statistics keep pruning numerically.
TEST(DecimalTextTest, Precision76StaysDecimal256) {
  auto reader = OneDecimalColumn(76, 4, 32, {"-12345", "1"}, "d76.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const Field& field = *(*reader)->schema()->field(0);
  EXPECT_EQ(field.type()->id(), TypeId::kDecimal256);
  EXPECT_FALSE(field.metadata().Get(kDecimalTextMetadataKey).has_value());
  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_EQ((*table)->num_rows(), 2);
}

// Text of a decimal column is not in the order of its statistics: a filter on it reads rows
// (no row group is skipped by comparing text with two's complement bytes).
TEST(DecimalTextTest, StatisticsDoNotPruneTheText) {
  auto reader = OneDecimalColumn(90, 0, 40, {"-7", "300"}, "d90.parquet");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const ColumnDescriptor& descriptor = (*reader)->descriptor().column(0);
  EXPECT_TRUE(IsDecimalTextColumn(descriptor));
  EXPECT_EQ(DecimalTextStorageType(descriptor, *utf8())->ToString(), fixed_size_binary(40)->ToString());
}

}  // namespace
}  // namespace strata::parquet
