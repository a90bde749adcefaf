// The scan summary of a Parquet file with INTERVAL columns (flat, with nulls, and an all-null
// one): SCAN-SUMMARY.md writes FIXED_LEN_BYTE_ARRAY, INTERVAL included, as binary, so the line
// shows count, nulls and the bytewise min and max of the 12 stored bytes as len=12;sha256=...,
// and it equals DuckDB's summary of the same file (testing/peers/duckdb_summary.mjs).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/record_batch.h"
#include "strata/cli/scan_summary.h"
#include "strata/cli/value_format.h"
#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/testing/test_data.h"

namespace strata::cli {
namespace {

namespace pq = strata::parquet;

constexpr int64_t kRows = 3000;

// Row i's interval, or none (a null) every 7th row; row 1 holds the largest parts INTERVAL
// stores (months and days up to int32 in month_day_nano, milliseconds up to 2^32 - 1), row 5
// only zeros.
std::optional<MonthDayNano> IntervalAt(int64_t i) {
  if (i % 7 == 3) return std::nullopt;
  if (i == 1) return MonthDayNano{INT32_MAX, INT32_MAX, int64_t{UINT32_MAX} * 1000000};
  if (i == 5) return MonthDayNano{0, 0, 0};
  return MonthDayNano{static_cast<int32_t>(i * 5 % 37 + 1), static_cast<int32_t>(i % 31),
                      (i * 1234567 % 90000000 + 1) * 1000000};
}

// The 12 bytes a Parquet INTERVAL stores for `v`: little-endian months, days, milliseconds.
std::string ParquetBytes(const MonthDayNano& v) {
  const uint32_t parts[3] = {static_cast<uint32_t>(v.months), static_cast<uint32_t>(v.days),
                             static_cast<uint32_t>(v.nanoseconds / 1000000)};
  return std::string(reinterpret_cast<const char*>(parts), sizeof(parts));
}

// Runs DuckDB's summary (the peers' script) on `path`; the line, or "error: ..." when it fails.
std::string DuckDBSummaryLine(const std::string& path) {
  const std::filesystem::path root = pq::testing::SourceRoot();
  const std::string stem =
      (std::filesystem::temp_directory_path() / ("strata_duckdb_summary_" + std::to_string(::getpid()))).string();
  {
    std::ofstream script(stem + ".mjs");
    script << "import { DuckDBSummary } from '" << (root / "testing/peers/duckdb_summary.mjs").string() << "';\n"
           << "import fs from 'fs';\n"
           << "const summary = await DuckDBSummary.create({ threads: 1 });\n"
           << "fs.writeFileSync('" << stem << ".txt', await summary.summarize('" << path << "'));\n"
           << "summary.close();\n";
  }
  const std::string command = "cd '" + root.string() + "' && node '" + stem + ".mjs' 2>&1";
  const int rc = std::system(command.c_str());
  std::filesystem::remove(stem + ".mjs");
  if (rc != 0) return "error: node exited with " + std::to_string(rc) + " running " + command;
  std::ifstream in(stem + ".txt");
  std::string line;
  std::getline(in, line);
  std::filesystem::remove(stem + ".txt");
  return line;
}

TEST(ScanSummaryIntervalTest, IntervalColumnsOfAFileSummariseAsTheirStoredBytes) {
  pq::testing::ScopedTempDir dir("strata_interval_summary_");
  auto pool = MakeSystemMemoryPool();
  Int64Builder ids(int64(), pool.get());
  MonthDayNanoBuilder intervals(pool.get());
  MonthDayNanoBuilder no_intervals(pool.get());
  std::optional<std::string> min, max;
  int64_t count = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    ASSERT_TRUE(ids.Append(i).ok());
    ASSERT_TRUE(no_intervals.AppendNull().ok());
    const std::optional<MonthDayNano> value = IntervalAt(i);
    if (!value) {
      ASSERT_TRUE(intervals.AppendNull().ok());
      continue;
    }
    ASSERT_TRUE(intervals.Append(*value).ok());
    const std::string bytes = ParquetBytes(*value);
    if (!min || bytes < *min) min = bytes;
    if (!max || bytes > *max) max = bytes;
    ++count;
  }
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{field("i", int64(), false),
                                                               field("iv", month_day_nano_interval()),
                                                               field("none", month_day_nano_interval())});
  RecordBatch batch(schema, kRows, {Array(*ids.Finish()), Array(*intervals.Finish()), Array(*no_intervals.Finish())});
  const std::string path = (dir / "intervals.parquet").string();
  pq::WriterOptions options;
  options.file.max_row_group_rows = 1000;  // the summary folds three row groups
  auto writer = pq::FileWriter::Open(path, schema, pool.get(), options);
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->WriteBatch(batch).ok());
  ASSERT_TRUE((*writer)->Close().ok());

  auto reader = pq::FileReader::OpenFile(path, pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ScanSummary summary(*(*table)->schema());
  for (int chunk = 0; chunk < (*table)->column(0)->num_chunks(); ++chunk) {
    std::vector<Array> columns;
    for (int c = 0; c < 3; ++c) columns.push_back((*table)->column(c)->chunk(chunk));
    const int64_t rows = columns[0].length();
    summary.Add(RecordBatch((*table)->schema(), rows, std::move(columns)));
  }
  const std::string nulls = std::to_string(kRows - count);
  const std::string expected =
      "{\"rows\":" + std::to_string(kRows) +
      ",\"columns\":[{\"name\":\"i\",\"type\":\"int64\",\"count\":" + std::to_string(kRows) +
      ",\"nulls\":0,\"min\":\"0\",\"max\":\"" + std::to_string(kRows - 1) + "\"}," +
      "{\"name\":\"iv\",\"type\":\"binary\",\"count\":" + std::to_string(count) + ",\"nulls\":" + nulls +
      ",\"min\":\"" + FormatBinaryDigest(*min) + "\",\"max\":\"" + FormatBinaryDigest(*max) + "\"}," +
      "{\"name\":\"none\",\"type\":\"binary\",\"count\":0,\"nulls\":" + std::to_string(kRows) +
      ",\"min\":null,\"max\":null}]}";
  EXPECT_EQ(summary.ToJson(), expected);
  // Rows 1 and 5 are the extremes: all 0xff bytes but the sign bits, and all zeros.
  EXPECT_EQ(*min, std::string(12, '\0'));
  EXPECT_EQ(*max, ParquetBytes(*IntervalAt(1)));

  // DuckDB reads the same file to the same line.
  STRATA_REQUIRE_OR_SKIP(pq::testing::DuckDBAvailable(), "node with node_modules/@duckdb/node-api");
  EXPECT_EQ(DuckDBSummaryLine(path), expected);
}

}  // namespace
}  // namespace strata::cli
