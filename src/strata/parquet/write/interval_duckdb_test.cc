// INTERVAL against DuckDB: DuckDB writes INTERVAL columns as FIXED_LEN_BYTE_ARRAY(12) INTERVAL,
// and strata reads them by formula; strata writes intervals and DuckDB reads back the same
// values, compared through DuckDB's interval text, which strata's text form follows.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/record_batch.h"
#include "strata/array/validate.h"
#include "strata/array/value_text.h"
#include "strata/io/output_sink.h"
#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

class IntervalDuckDBTest : public ::testing::Test {
 protected:
  void SetUp() override {
    STRATA_REQUIRE_OR_SKIP(testing::DuckDBAvailable(), "node with node_modules/@duckdb/node-api");
  }
  testing::ScopedTempDir dir_{"strata_interval_"};
};

MonthDayNano ValueAt(const Array& array, int64_t i) {
  return LoadMonthDayNano(array.data()->buffers[1]->data() + (array.offset() + i) * kMonthDayNanoBytes);
}

std::string Text(const MonthDayNano& value) {
  char text[value_text::kMaxIntervalChars];
  return std::string(text, value_text::WriteMonthDayNano(value, text));
}

constexpr int kRows = 3000;

TEST_F(IntervalDuckDBTest, StrataReadsDuckDBIntervalsByFormula) {
  const std::string path = (dir_ / "duckdb_intervals.parquet").string();
  // iv: i months, 2i days, 3i ms; maybe_iv: null every 5th row; ivs: a list of i % 4 intervals.
  const std::string error = testing::WriteParquetWithDuckDB(
      "SELECT i, INTERVAL (i) MONTH + INTERVAL (i * 2) DAY + INTERVAL (i * 3) MILLISECOND AS iv, "
      "CASE WHEN i % 5 = 0 THEN NULL ELSE INTERVAL (i * 7) DAY + INTERVAL (i) SECOND END AS maybe_iv, "
      "list_transform(range(i % 4), k -> INTERVAL (k) MONTH + INTERVAL (i) MILLISECOND) AS ivs "
      "FROM range(" + std::to_string(kRows) + ") t(i)",
      path, "ROW_GROUP_SIZE 1000");
  ASSERT_EQ(error, "");
  auto reader = FileReader::OpenFile(path, SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const Schema& schema = *(*reader)->schema();
  ASSERT_EQ(schema.num_fields(), 4);
  EXPECT_TRUE(schema.field(1)->type()->Equals(month_day_nano_interval())) << schema.field(1)->ToString();
  EXPECT_TRUE(schema.field(2)->type()->Equals(month_day_nano_interval())) << schema.field(2)->ToString();
  EXPECT_TRUE(schema.field(3)->type()->Equals(list(month_day_nano_interval()))) << schema.field(3)->ToString();
  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ((*table)->num_rows(), kRows);
  int64_t checked = 0;
  int64_t row = 0;
  for (int chunk = 0; chunk < (*table)->column(0)->num_chunks(); ++chunk) {
    const Array& ids = (*table)->column(0)->chunk(chunk);
    const Array& iv = (*table)->column(1)->chunk(chunk);
    const Array& maybe = (*table)->column(2)->chunk(chunk);
    const ListArray<int32_t> lists((*table)->column(3)->chunk(chunk).data());
    ASSERT_TRUE(ValidateFull(*lists.data()).ok());
    for (int64_t j = 0; j < ids.length(); ++j, ++row) {
      const int64_t i = PrimitiveArray<int64_t>(ids.data()).Value(j);
      ASSERT_EQ(i, row);
      ASSERT_EQ(ValueAt(iv, j), (MonthDayNano{static_cast<int32_t>(i), static_cast<int32_t>(2 * i), 3 * i * 1000000}))
          << "row " << i;
      ASSERT_EQ(maybe.IsNull(j), i % 5 == 0) << "row " << i;
      if (i % 5 != 0) {
        ASSERT_EQ(ValueAt(maybe, j), (MonthDayNano{0, static_cast<int32_t>(7 * i), i * 1000000000}))
            << "row " << i;
      }
      ASSERT_EQ(lists.value_length(j), i % 4) << "row " << i;
      for (int64_t k = 0; k < i % 4; ++k) {
        ASSERT_EQ(ValueAt(lists.values(), lists.value_offset(j) + k), (MonthDayNano{static_cast<int32_t>(k), 0, i * 1000000}))
            << "row " << i << " element " << k;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, kRows);
}

TEST_F(IntervalDuckDBTest, DuckDBReadsStrataIntervals) {
  auto pool = MakeSystemMemoryPool();
  MonthDayNanoBuilder values(pool.get());
  auto lists = ListBuilder<int32_t>::Make(list(month_day_nano_interval()), pool.get());
  ASSERT_TRUE(lists.ok());
  auto* elements = static_cast<MonthDayNanoBuilder*>((*lists)->value_builder());
  std::vector<std::string> expected;
  for (int64_t i = 0; i < kRows; ++i) {
    // Up to 2^31 - 1 months and days (DuckDB's int32 too), milliseconds up to 2^32 - 1.
    const MonthDayNano value =
        i == 1 ? MonthDayNano{INT32_MAX, INT32_MAX, int64_t{UINT32_MAX} * 1000000}
               : MonthDayNano{static_cast<int32_t>(i * 5 % 37), static_cast<int32_t>(i % 31), (i * 1234567 % 90000000) * 1000000};
    std::string line = std::to_string(i) + "|";
    if (i % 6 == 2) {
      ASSERT_TRUE(values.AppendNull().ok());
      line += "NULL";
    } else {
      ASSERT_TRUE(values.Append(value).ok());
      line += Text(value);
    }
    ASSERT_TRUE((*lists)->Append().ok());
    for (int64_t k = 0; k < i % 3; ++k) ASSERT_TRUE(elements->Append(MonthDayNano{static_cast<int32_t>(k), 1, i * 1000000}).ok());
    line += "|" + std::to_string(i % 3);
    expected.push_back(line);
  }
  Int64Builder ids(int64(), pool.get());
  for (int64_t i = 0; i < kRows; ++i) ASSERT_TRUE(ids.Append(i).ok());
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      field("i", int64(), false), field("iv", month_day_nano_interval()), field("ivs", list(month_day_nano_interval()))});
  RecordBatch batch(schema, kRows, {Array(*ids.Finish()), Array(*values.Finish()), Array(*(*lists)->Finish())});
  const std::string path = (dir_ / "strata_intervals.parquet").string();
  WriterOptions options;
  options.file.data_page_rows = 500;
  auto writer = FileWriter::Open(path, schema, pool.get(), options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());

  std::vector<std::string> rows;
  const std::string error = testing::QueryWithDuckDB(
      "SELECT i, CAST(iv AS VARCHAR), CAST(len(ivs) AS VARCHAR) FROM read_parquet('" + path + "') ORDER BY i", &rows);
  ASSERT_EQ(error, "");
  ASSERT_EQ(rows.size(), expected.size());
  for (size_t r = 0; r < rows.size(); ++r) ASSERT_EQ(rows[r], expected[r]) << "row " << r;
  // The list elements, summed by DuckDB: months 0 + 1 per row of two elements, days 1 each.
  rows.clear();
  ASSERT_EQ(testing::QueryWithDuckDB("SELECT CAST(sum(datepart('month', e)) AS VARCHAR), CAST(sum(datepart('day', e)) AS "
                                     "VARCHAR), CAST(count(*) AS VARCHAR) FROM (SELECT unnest(ivs) AS e FROM read_parquet('" +
                                         path + "'))",
                                     &rows),
            "");
  ASSERT_EQ(rows.size(), 1u);
  const int64_t two_element_rows = kRows / 3;  // i % 3 == 2
  const int64_t elements_count = kRows / 3 + 2 * (kRows / 3);
  EXPECT_EQ(rows[0], std::to_string(two_element_rows) + "|" + std::to_string(elements_count) + "|" +
                         std::to_string(elements_count));
}

}  // namespace
}  // namespace strata::parquet
