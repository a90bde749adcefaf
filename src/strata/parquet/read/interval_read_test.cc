// Parquet INTERVAL (FIXED_LEN_BYTE_ARRAY(12), converted type INTERVAL: unsigned 32-bit months,
// days, milliseconds) reads as month_day_nano_interval, whether the logical type is absent, the
// empty union, or UNKNOWN (parquet-mr); months or days beyond int32 fail naming column and row.
// Files are built with the project's own test file builder.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/validate.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/stats/statistics.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/types/month_day_nano.h"

namespace strata::parquet {
namespace {

// A logical type of `kind` with its other fields unset (a designated initializer would have
// to name every optional field to build warning-free).
LogicalType LogicalTypeOf(LogicalType::Kind kind) {
  LogicalType type;
  type.kind = kind;
  return type;
}

namespace pt = strata::parquet::testing;

// The 12 bytes of one Parquet INTERVAL value.
std::string ParquetInterval(uint32_t months, uint32_t days, uint32_t millis) {
  std::string bytes(12, '\0');
  std::memcpy(bytes.data(), &months, 4);
  std::memcpy(bytes.data() + 4, &days, 4);
  std::memcpy(bytes.data() + 8, &millis, 4);
  return bytes;
}

// Row r's value: small formulas, and the largest representable parts in the last row.
constexpr int64_t kRows = 1000;
uint32_t MonthsOf(int64_t r) { return r == kRows - 1 ? INT32_MAX : static_cast<uint32_t>(r); }
uint32_t DaysOf(int64_t r) { return r == kRows - 1 ? INT32_MAX : static_cast<uint32_t>(2 * r + 1); }
uint32_t MillisOf(int64_t r) { return r == kRows - 1 ? UINT32_MAX : static_cast<uint32_t>(r * 3 + r * 86400000LL % 7); }
bool ValidAt(int64_t r) { return r % 7 != 3; }

pt::ColumnValues IntervalColumn(bool with_nulls) {
  std::vector<std::string> values;
  std::vector<bool> validity;
  for (int64_t r = 0; r < kRows; ++r) {
    values.push_back(ParquetInterval(MonthsOf(r), DaysOf(r), MillisOf(r)));
    validity.push_back(!with_nulls || ValidAt(r));
  }
  return pt::ColumnValues::FixedLenByteArrays(12, values, with_nulls ? validity : std::vector<bool>{});
}

pt::ColumnOptions IntervalOptions(std::string name, bool optional, std::optional<LogicalType> logical) {
  pt::ColumnOptions column;
  column.name = std::move(name);
  column.physical_type = PhysicalType::kFixedLenByteArray;
  column.type_length = 12;
  column.converted_type = ConvertedType::kInterval;
  column.logical_type = logical;
  column.optional = optional;
  column.rows_per_page = 128;  // several pages per row group
  return column;
}

MonthDayNano ValueAt(const Array& array, int64_t i) {
  return LoadMonthDayNano(array.data()->buffers[1]->data() + (array.offset() + i) * kMonthDayNanoBytes);
}

struct LogicalForm {
  const char* name;
  std::optional<LogicalType> logical;
};

const LogicalForm kLogicalForms[] = {
    {"absent", std::nullopt},
    {"empty union", LogicalType{}},
    {"UNKNOWN (parquet-mr)", LogicalTypeOf(LogicalType::Kind::kNull)},
};

TEST(IntervalReadTest, RequiredAndOptionalColumnsReadAsMonthDayNano) {
  for (const LogicalForm& form : kLogicalForms) {
    for (Encoding encoding : {Encoding::kPlain, Encoding::kRleDictionary}) {
      SCOPED_TRACE(std::string(form.name) + ", " + std::string(EncodingName(encoding)));
      std::vector<pt::ColumnOptions> columns = {IntervalOptions("required_iv", false, form.logical),
                                                IntervalOptions("optional_iv", true, form.logical)};
      for (auto& column : columns) column.encoding = encoding;
      auto file = pt::BuildFile(columns, {IntervalColumn(false), IntervalColumn(true)}, 400);  // 3 row groups
      ASSERT_TRUE(file.ok()) << file.status().ToString();
      auto reader = FileReader::Open(MakeBufferSource(*file, "interval.parquet"), SystemMemoryPool());
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      const Schema& schema = *(*reader)->schema();
      ASSERT_EQ(schema.num_fields(), 2);
      EXPECT_TRUE(schema.field(0)->type()->Equals(month_day_nano_interval())) << schema.field(0)->ToString();
      EXPECT_FALSE(schema.field(0)->nullable());
      EXPECT_TRUE(schema.field(1)->type()->Equals(month_day_nano_interval())) << schema.field(1)->ToString();
      EXPECT_TRUE(schema.field(1)->nullable());
      auto table = (*reader)->ReadTable();
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      ASSERT_EQ((*table)->num_rows(), kRows);
      for (int c = 0; c < 2; ++c) {
        int64_t row = 0;
        int64_t nulls = 0;
        for (const Array& chunk : (*table)->column(c)->chunks()) {
          ASSERT_TRUE(ValidateFull(*chunk.data()).ok());
          for (int64_t i = 0; i < chunk.length(); ++i, ++row) {
            const bool valid = c == 0 || ValidAt(row);
            ASSERT_EQ(chunk.IsValid(i), valid) << "column " << c << " row " << row;
            if (!valid) {
              ++nulls;
              continue;
            }
            const MonthDayNano v = ValueAt(chunk, i);
            ASSERT_EQ(v.months, static_cast<int32_t>(MonthsOf(row))) << "column " << c << " row " << row;
            ASSERT_EQ(v.days, static_cast<int32_t>(DaysOf(row))) << "column " << c << " row " << row;
            ASSERT_EQ(v.nanoseconds, int64_t{MillisOf(row)} * 1000000) << "column " << c << " row " << row;
          }
        }
        EXPECT_EQ(row, kRows);
        EXPECT_EQ(nulls, c == 0 ? 0 : kRows / 7 + (kRows % 7 > 3 ? 1 : 0));
      }
    }
  }
}

// INTERVAL's sort order is undefined (LogicalTypes.md): no statistics bound is used or written
// for it, also when parquet-mr's UNKNOWN sits beside it (UNKNOWN alone orders as the physical
// type, FIXED_LEN_BYTE_ARRAY unsigned).
TEST(IntervalReadTest, SortOrderIsUnknownWhateverTheLogicalType) {
  for (const LogicalForm& form : kLogicalForms) {
    SCOPED_TRACE(form.name);
    EXPECT_EQ(ColumnSortOrder(PhysicalType::kFixedLenByteArray, form.logical, ConvertedType::kInterval),
              SortOrder::kUnknown);
  }
  EXPECT_EQ(ColumnSortOrder(PhysicalType::kFixedLenByteArray, LogicalTypeOf(LogicalType::Kind::kNull),
                            std::nullopt),
            SortOrder::kUnsigned);
}

// A logical type of another kind decides (here FLOAT16 would need width 2: not an interval).
TEST(IntervalReadTest, OnlyWithoutAnotherLogicalType) {
  pt::ColumnOptions column = IntervalOptions("iv", false, LogicalTypeOf(LogicalType::Kind::kUuid));
  column.type_length = 16;
  auto file = pt::BuildFile({column}, {pt::ColumnValues::FixedLenByteArrays(16, {std::string(16, 'a')})}, 10);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto reader = FileReader::Open(MakeBufferSource(*file, "uuid.parquet"), SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->schema()->field(0)->type()->id(), TypeId::kFixedSizeBinary);
}

TEST(IntervalReadTest, AnIntervalThatIsNotTwelveBytesIsCorrupt) {
  pt::ColumnOptions column = IntervalOptions("iv", false, std::nullopt);
  column.type_length = 8;
  auto file = pt::BuildFile({column}, {pt::ColumnValues::FixedLenByteArrays(8, {std::string(8, 'a')})}, 10);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto reader = FileReader::Open(MakeBufferSource(*file, "narrow.parquet"), SystemMemoryPool());
  ASSERT_FALSE(reader.ok());
  EXPECT_TRUE(reader.status().IsCorrupt()) << reader.status().ToString();
  EXPECT_NE(reader.status().message().find("INTERVAL column 'iv' has type_length 8"), std::string::npos)
      << reader.status().ToString();
}

// Months or days above INT32_MAX have no int32: the read fails naming the column and the row
// (in the third page; the optional column's nulls before it do not shift the row).
TEST(IntervalReadTest, MonthsOrDaysBeyondInt32FailNamingColumnAndRow) {
  for (const bool days : {false, true}) {
    for (const bool optional : {false, true}) {
      SCOPED_TRACE(std::string(days ? "days" : "months") + (optional ? ", optional" : ", required"));
      std::vector<std::string> values;
      std::vector<bool> validity;
      for (int64_t r = 0; r < 300; ++r) {
        const uint32_t big = r == 250 ? uint32_t{INT32_MAX} + 1 : 1;
        values.push_back(days ? ParquetInterval(1, big, 0) : ParquetInterval(big, 1, 0));
        validity.push_back(!optional || r % 3 != 0);
      }
      pt::ColumnOptions column = IntervalOptions("too_big", optional, LogicalTypeOf(LogicalType::Kind::kNull));
      column.rows_per_page = 100;
      auto file = pt::BuildFile({column},
                                {pt::ColumnValues::FixedLenByteArrays(12, values, optional ? validity : std::vector<bool>{})},
                                300);
      ASSERT_TRUE(file.ok()) << file.status().ToString();
      auto reader = FileReader::Open(MakeBufferSource(*file, "big.parquet"), SystemMemoryPool());
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      auto table = (*reader)->ReadTable();
      ASSERT_FALSE(table.ok());
      const std::string message = table.status().ToString();
      EXPECT_TRUE(table.status().IsInvalid()) << message;
      EXPECT_NE(message.find("'too_big'"), std::string::npos) << message;
      EXPECT_NE(message.find("row 250 "), std::string::npos) << message;
      EXPECT_NE(message.find(days ? "days 2147483648" : "months 2147483648"), std::string::npos) << message;
    }
  }
}

// The leaf of a list (parquet-mr's shape: UNKNOWN beside INTERVAL) reads through the nested
// reader, with null and empty lists and null elements, over several pages; a value out of
// range there fails as well.
TEST(IntervalReadTest, InsideAListThroughTheNestedReader) {
  for (const bool out_of_range : {false, true}) {
    SCOPED_TRACE(out_of_range ? "out of range" : "in range");
    pt::ColumnValues values(PhysicalType::kFixedLenByteArray, 12);
    std::vector<int16_t> repetition, definition;
    // Row r: null list when r % 10 == 1, empty when r % 10 == 2, else r % 4 + 1 elements,
    // element k null when (r + k) % 5 == 0, else (months r, days k, millis r * 10 + k).
    int64_t bad_rows = 0;
    int64_t entries_of_40_rows = 0;  // the pattern repeats every 20 rows
    for (int64_t r = 0; r < 400; ++r) {
      if (r == 40) entries_of_40_rows = static_cast<int64_t>(repetition.size());
      if (r % 10 == 1 || r % 10 == 2) {
        repetition.push_back(0);
        definition.push_back(r % 10 == 1 ? 0 : 1);
        values.AppendNull();
        continue;
      }
      for (int64_t k = 0; k <= r % 4; ++k) {
        repetition.push_back(k == 0 ? 0 : 1);
        if ((r + k) % 5 == 0) {
          definition.push_back(2);
          values.AppendNull();
          continue;
        }
        definition.push_back(3);
        const bool bad = out_of_range && r == 333 && k == 1;
        bad_rows += bad;
        values.AppendBytes(ParquetInterval(bad ? UINT32_MAX : static_cast<uint32_t>(r), static_cast<uint32_t>(k),
                                           static_cast<uint32_t>(r * 10 + k)));
      }
    }
    values.SetListLevels(std::move(repetition), std::move(definition));
    pt::ColumnOptions column = IntervalOptions("intervals", true, LogicalTypeOf(LogicalType::Kind::kNull));
    column.list = true;
    column.rows_per_page = entries_of_40_rows;  // counts level entries: 10 pages of 40 rows
    auto file = pt::BuildFile({column}, {values}, values.num_rows());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto reader = FileReader::Open(MakeBufferSource(*file, "list.parquet"), SystemMemoryPool());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    ASSERT_TRUE((*reader)->schema()->field(0)->type()->Equals(list(month_day_nano_interval())))
        << (*reader)->schema()->field(0)->ToString();
    auto table = (*reader)->ReadTable();
    if (out_of_range) {
      ASSERT_EQ(bad_rows, 1);
      ASSERT_FALSE(table.ok());
      EXPECT_TRUE(table.status().IsInvalid()) << table.status().ToString();
      EXPECT_NE(table.status().ToString().find("'intervals"), std::string::npos) << table.status().ToString();
      EXPECT_NE(table.status().ToString().find("months 4294967295"), std::string::npos) << table.status().ToString();
      continue;
    }
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    ASSERT_EQ((*table)->num_rows(), 400);
    int64_t row = 0;
    int64_t elements_checked = 0;
    for (const Array& chunk : (*table)->column(0)->chunks()) {
      ASSERT_TRUE(ValidateFull(*chunk.data()).ok());
      const ListArray<int32_t> lists(chunk.data());
      for (int64_t i = 0; i < chunk.length(); ++i, ++row) {
        ASSERT_EQ(lists.IsNull(i), row % 10 == 1) << "row " << row;
        if (row % 10 == 1) continue;
        const int64_t expected_length = row % 10 == 2 ? 0 : row % 4 + 1;
        ASSERT_EQ(lists.value_length(i), expected_length) << "row " << row;
        const Array& elements = lists.values();
        for (int64_t k = 0; k < expected_length; ++k) {
          const int64_t e = lists.value_offset(i) + k;
          const bool valid = (row + k) % 5 != 0;
          ASSERT_EQ(elements.IsValid(e), valid) << "row " << row << " element " << k;
          if (!valid) continue;
          const MonthDayNano v = ValueAt(elements, e);
          ASSERT_EQ(v, (MonthDayNano{static_cast<int32_t>(row), static_cast<int32_t>(k), (row * 10 + k) * 1000000}))
              << "row " << row << " element " << k;
          ++elements_checked;
        }
      }
    }
    EXPECT_EQ(row, 400);
    EXPECT_GT(elements_checked, 500);
  }
}

}  // namespace
}  // namespace strata::parquet
