// month_day_nano_interval columns write as Parquet INTERVAL (FIXED_LEN_BYTE_ARRAY(12),
// converted type INTERVAL, no logical type, no min/max) and read back exactly; values INTERVAL
// cannot hold (negative parts, a fraction of a millisecond, more than UINT32_MAX ms) fail the
// write naming the column and the value.
#include <gtest/gtest.h>

#include <climits>
#include <memory>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/compare.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/pretty_print.h"
#include "strata/array/record_batch.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

constexpr int64_t kNanosPerMilli = 1000000;

// Row r: a whole number of milliseconds, the largest parts INTERVAL holds in row 7.
MonthDayNano ValueOf(int64_t r) {
  if (r == 7) return {INT32_MAX, INT32_MAX, int64_t{UINT32_MAX} * kNanosPerMilli};
  return {static_cast<int32_t>(r % 1000), static_cast<int32_t>(r * 7 % 40), (r * 13 + 1) * kNanosPerMilli};
}

struct IntervalTable {
  std::shared_ptr<Schema> schema;
  std::shared_ptr<RecordBatch> batch;
};

// required, optional (every 4th row null) and list<interval> (null lists, empty lists, null
// elements) columns of `rows` rows.
IntervalTable MakeIntervalTable(int64_t rows, MemoryPool* pool) {
  MonthDayNanoBuilder required(pool), optional(pool);
  auto lists = ListBuilder<int32_t>::Make(list(month_day_nano_interval()), pool);
  EXPECT_TRUE(lists.ok());
  auto* elements = static_cast<MonthDayNanoBuilder*>((*lists)->value_builder());
  for (int64_t r = 0; r < rows; ++r) {
    EXPECT_TRUE(required.Append(ValueOf(r)).ok());
    EXPECT_TRUE((r % 4 == 1 ? optional.AppendNull() : optional.Append(ValueOf(r + 1))).ok());
    if (r % 9 == 4) {
      EXPECT_TRUE((*lists)->AppendNull().ok());
      continue;
    }
    EXPECT_TRUE((*lists)->Append().ok());
    for (int64_t k = 0; k < r % 3; ++k) {  // r % 3 == 0: empty
      EXPECT_TRUE(((r + k) % 5 == 0 ? elements->AppendNull() : elements->Append(ValueOf(r * 3 + k))).ok());
    }
  }
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{field("required", month_day_nano_interval(), false),
                                                                field("optional", month_day_nano_interval()),
                                                                field("lists", list(month_day_nano_interval()))});
  std::vector<Array> columns = {Array(*required.Finish()), Array(*optional.Finish()), Array(*(*lists)->Finish())};
  return {schema, std::make_shared<RecordBatch>(schema, rows, std::move(columns))};
}

TEST(IntervalWriteTest, RoundTripIsExactWithoutMinMax) {
  auto pool = MakeSystemMemoryPool();
  const IntervalTable written = MakeIntervalTable(5000, pool.get());
  for (const bool arrow_schema : {true, false}) {
    for (const bool dictionary : {true, false}) {
      SCOPED_TRACE(std::string(arrow_schema ? "ARROW:schema" : "Parquet types only") +
                   (dictionary ? ", dictionary" : ", plain"));
      WriterOptions options;
      options.file.store_arrow_schema = arrow_schema;
      options.file.data_page_rows = 600;  // several pages
      options.file.max_row_group_rows = 2000;
      options.columns.dictionary = dictionary;
      auto file = testing::WriteToBuffer(written.schema, {written.batch}, options, pool.get());
      ASSERT_TRUE(file.ok()) << file.status().ToString();
      auto reader = testing::OpenBuffer(*file, pool.get());
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();

      // The Parquet schema: FLBA(12), converted type INTERVAL, no logical type.
      const FileMetaData& metadata = (*reader)->metadata();
      int interval_leaves = 0;
      for (const SchemaElement& e : metadata.schema) {
        if (!e.type) continue;
        ++interval_leaves;
        EXPECT_EQ(*e.type, PhysicalType::kFixedLenByteArray) << e.name;
        EXPECT_EQ(e.type_length.value_or(0), 12) << e.name;
        EXPECT_EQ(e.converted_type, std::optional(ConvertedType::kInterval)) << e.name;
        EXPECT_FALSE(e.logical_type.has_value()) << e.name;
      }
      EXPECT_EQ(interval_leaves, 3);
      // INTERVAL's order is undefined: no min/max in chunks or a column index.
      ASSERT_EQ(metadata.row_groups.size(), 3u);
      for (const RowGroup& group : metadata.row_groups) {
        for (const ColumnChunk& chunk : group.columns) {
          ASSERT_TRUE(chunk.meta_data.has_value());
          if (const auto& stats = chunk.meta_data->statistics) {
            EXPECT_FALSE(stats->min_value || stats->max_value || stats->min || stats->max);
          }
          EXPECT_FALSE(chunk.column_index_offset.has_value());
        }
      }

      auto table = (*reader)->ReadTable();
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      ASSERT_EQ((*table)->num_rows(), 5000);
      for (int c = 0; c < 3; ++c) {
        const FieldPtr& read_field = (*table)->schema()->field(c);
        EXPECT_TRUE(read_field->Equals(*written.schema->field(c))) << read_field->ToString();
        int64_t row = 0;
        for (const Array& chunk : (*table)->column(c)->chunks()) {
          const Array expected = written.batch->column(c).Slice(row, chunk.length());
          ASSERT_TRUE(ArrayEquals(chunk, expected))
              << "column " << c << " rows " << row << "..: " << PrettyPrint(chunk, {.max_rows = 6}) << " vs "
              << PrettyPrint(expected, {.max_rows = 6});
          row += chunk.length();
        }
        EXPECT_EQ(row, 5000);
      }
    }
  }
}

TEST(IntervalWriteTest, ValuesParquetCannotHoldFailTheWrite) {
  auto pool = MakeSystemMemoryPool();
  const MonthDayNano refused[] = {
      {-1, 0, 0},
      {0, -1, 0},
      {0, 0, -kNanosPerMilli},
      {0, 0, 1},                                         // not a whole millisecond
      {0, 0, 1500000},                                   // 1.5 ms: never rounded
      {0, 0, (int64_t{UINT32_MAX} + 1) * kNanosPerMilli},  // beyond 32-bit milliseconds
  };
  for (const MonthDayNano& bad : refused) {
    for (const bool nested : {false, true}) {
      SCOPED_TRACE(std::to_string(bad.months) + " months, " + std::to_string(bad.days) + " days, " +
                   std::to_string(bad.nanoseconds) + " ns" + (nested ? ", in a list" : ""));
      MonthDayNanoBuilder values(pool.get());
      ASSERT_TRUE(values.Append(MonthDayNano{1, 2, 3 * kNanosPerMilli}).ok());
      ASSERT_TRUE(values.AppendNull().ok());
      ASSERT_TRUE(values.Append(bad).ok());
      Array column(*values.Finish());
      TypePtr type = month_day_nano_interval();
      if (nested) {
        auto lists = ListBuilder<int32_t>::Make(list(month_day_nano_interval()), pool.get());
        ASSERT_TRUE(lists.ok());
        auto* elements = static_cast<MonthDayNanoBuilder*>((*lists)->value_builder());
        ASSERT_TRUE((*lists)->Append().ok());
        ASSERT_TRUE(elements->AppendNull().ok());
        ASSERT_TRUE(elements->Append(bad).ok());
        column = Array(*(*lists)->Finish());
        type = list(month_day_nano_interval());
      }
      auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{field("span", type)});
      auto batch = std::make_shared<RecordBatch>(schema, column.length(), std::vector<Array>{column});
      auto file = testing::WriteToBuffer(schema, {batch}, {}, pool.get());
      ASSERT_FALSE(file.ok());
      const std::string message = file.status().ToString();
      EXPECT_TRUE(file.status().IsInvalid()) << message;
      EXPECT_NE(message.find(nested ? "'span.list.element'" : "'span'"), std::string::npos) << message;
      EXPECT_NE(message.find("months " + std::to_string(bad.months) + ", days " + std::to_string(bad.days) +
                             ", nanoseconds " + std::to_string(bad.nanoseconds)),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("Parquet INTERVAL"), std::string::npos) << message;
    }
  }
}

}  // namespace
}  // namespace strata::parquet
