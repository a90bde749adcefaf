#include "strata/dataset/dataset_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "strata/dataset/dataset_test_util.h"
#include "strata/expr/parser.h"
#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/testing/test_data.h"
#include "strata/testing/test_executor.h"

namespace strata::dataset {
namespace {

using testing::Int32s;
using testing::Int64s;
using testing::Strings;
using testing::TempDir;
using testing::WriteParquet;

MemoryPool* Pool() { return SystemMemoryPool(); }

// One cell as text, for comparing rows.
std::string Cell(const Array& array, int64_t i) {
  if (array.IsNull(i)) return "null";
  switch (array.type_id()) {
    case TypeId::kInt64:
    case TypeId::kTimestamp:
      return std::to_string(PrimitiveArray<int64_t>(array).Value(i));
    case TypeId::kInt32:
    case TypeId::kDate32:
      return std::to_string(PrimitiveArray<int32_t>(array).Value(i));
    case TypeId::kString:
      return BinaryArray<int32_t>(array).GetString(i);
    case TypeId::kLargeString:
      return BinaryArray<int64_t>(array).GetString(i);
    case TypeId::kDictionary:  // int32 indices
      return Cell(Array(array.data()->dictionary), PrimitiveArray<int32_t>(array).Value(i));
    default:
      return std::string("?").append(array.type()->ToString());
  }
}

struct Scanned {
  std::shared_ptr<Schema> schema;
  std::vector<std::vector<std::string>> rows;
  std::vector<int64_t> batch_rows;
  DatasetScanStats stats;
};

Scanned Scan(const Dataset& dataset, const ScanOptions& options) {
  Scanned out;
  auto reader = dataset.Scan(options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return out;
  out.schema = (*reader)->schema();
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    EXPECT_GT((*batch)->num_rows(), 0);
    EXPECT_TRUE((*batch)->schema()->Equals(*out.schema));
    out.batch_rows.push_back((*batch)->num_rows());
    for (int64_t r = 0; r < (*batch)->num_rows(); ++r) {
      std::vector<std::string> row;
      for (const Array& column : (*batch)->columns()) row.push_back(Cell(column, r));
      out.rows.push_back(std::move(row));
    }
  }
  out.stats = (*reader)->stats();
  EXPECT_EQ((*reader)->memory_size(), 0);  // everything released at the end
  EXPECT_EQ(out.stats.pruning.rows_selected, static_cast<int64_t>(out.rows.size()));
  return out;
}

ScanOptions Filtered(const std::string& text, int threads = 0) {
  ScanOptions options;
  auto parsed = expr::ParseFilter(text);
  EXPECT_TRUE(parsed.ok()) << parsed.status().ToString();
  if (parsed.ok()) options.filter = *parsed;
  options.executor = strata::testing::TestExecutor(threads);
  return options;
}

// year=2023..2024 / month=1..3, 4 rows each: id = 100*year_index + 10*month + row, name a..d,
// one null name per file.
class HiveDatasetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int y = 0; y < 2; ++y) {
      for (int m = 1; m <= 3; ++m) {
        std::vector<std::optional<int64_t>> ids;
        std::vector<std::optional<std::string>> names;
        for (int r = 0; r < 4; ++r) {
          ids.push_back(100 * y + 10 * m + r);
          names.push_back(r == 3 ? std::nullopt
                                 : std::optional<std::string>(std::string(1, static_cast<char>('a' + r))));
          expected_.push_back({std::to_string(100 * y + 10 * m + r),
                               r == 3 ? "null" : std::string(1, static_cast<char>('a' + r)), std::to_string(2023 + y),
                               std::to_string(m)});
        }
        WriteParquet(dir_ / ("year=" + std::to_string(2023 + y) + "/month=" + std::to_string(m) + "/part-0.parquet"),
                     {"id", "name"}, {Int64s(ids, Pool()), Strings(names, Pool())}, Pool());
      }
    }
    dir_.Touch("_SUCCESS");
    auto dataset = Dataset::Open({dir_.path().string()}, {}, Pool());
    ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
    dataset_ = *dataset;
  }

  TempDir dir_;
  std::shared_ptr<Dataset> dataset_;
  std::vector<std::vector<std::string>> expected_;  // every row, in file order
};

TEST_F(HiveDatasetTest, ReadsEveryFileWithTypedPartitionColumns) {
  ASSERT_EQ(dataset_->files().size(), 6u);
  const Schema& schema = *dataset_->schema();
  ASSERT_EQ(schema.num_fields(), 4);
  EXPECT_EQ(schema.field(0)->name(), "id");
  EXPECT_EQ(schema.field(2)->name(), "year");
  EXPECT_EQ(schema.field(2)->type()->id(), TypeId::kInt64);
  EXPECT_EQ(schema.field(3)->name(), "month");
  EXPECT_EQ(schema.field(3)->type()->id(), TypeId::kInt64);
  for (int threads : {1, 2, 0}) {
    ScanOptions options;
    options.executor = strata::testing::TestExecutor(threads);
    Scanned scanned = Scan(*dataset_, options);
    EXPECT_EQ(scanned.rows, expected_) << "threads " << threads;
    EXPECT_EQ(scanned.batch_rows.size(), 6u);  // one batch per file: files never merge
    EXPECT_EQ(scanned.stats.files_total, 6);
    EXPECT_EQ(scanned.stats.files_read, 6);
    EXPECT_EQ(scanned.stats.files_skipped_by_partition, 0);
  }
}

TEST_F(HiveDatasetTest, SelectsColumnsByNameIncludingOnlyPartitionColumns) {
  ScanOptions options;
  options.columns = {"month", "id"};
  Scanned scanned = Scan(*dataset_, options);
  ASSERT_EQ(scanned.rows.size(), expected_.size());
  EXPECT_EQ(scanned.rows[5], (std::vector<std::string>{"2", "21"}));

  options.columns = {"year"};
  Scanned years = Scan(*dataset_, options);
  ASSERT_EQ(years.rows.size(), expected_.size());
  EXPECT_EQ(years.rows.back(), (std::vector<std::string>{"2024"}));

  options.columns = {"nope"};
  auto refused = dataset_->Scan(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("nope"), std::string::npos);
}

TEST_F(HiveDatasetTest, PartitionFiltersSkipFilesUnopened) {
  Scanned scanned = Scan(*dataset_, Filtered("year = 2024 AND month >= 2"));
  EXPECT_EQ(scanned.stats.files_skipped_by_partition, 4);
  EXPECT_EQ(scanned.stats.files_read, 2);
  std::vector<std::vector<std::string>> expected(expected_.begin() + 16, expected_.end());
  EXPECT_EQ(scanned.rows, expected);

  Scanned none = Scan(*dataset_, Filtered("year IS NULL"));
  EXPECT_EQ(none.stats.files_skipped_by_partition, 6);
  EXPECT_TRUE(none.rows.empty());
}

TEST_F(HiveDatasetTest, ResidualFiltersMatchFilteringAfterTheRead) {
  // Mixes partition and file columns under OR, so no file is skipped by its partition alone.
  struct Case {
    std::string filter;
    std::function<bool(const std::vector<std::string>&)> keep;
  };
  const std::vector<Case> cases = {
      {"id >= 112 AND (month = 2 OR name = 'b')",
       [](const auto& r) { return std::stoll(r[0]) >= 112 && (r[3] == "2" || r[1] == "b"); }},
      {"name IS NULL OR year = 2023", [](const auto& r) { return r[1] == "null" || r[2] == "2023"; }},
      {"NOT (month IN (1, 3)) AND name != 'a'",
       [](const auto& r) { return r[3] == "2" && r[1] != "null" && r[1] != "a"; }},
      {"id < 0", [](const auto&) { return false; }},
  };
  for (const Case& c : cases) {
    std::vector<std::vector<std::string>> expected;
    for (const auto& row : expected_) {
      if (c.keep(row)) expected.push_back(row);
    }
    for (int threads : {1, 2}) {
      Scanned scanned = Scan(*dataset_, Filtered(c.filter, threads));
      EXPECT_EQ(scanned.rows, expected) << c.filter << " threads " << threads;
    }
  }
}

// ScanOptions::row_number_column and file_path_column: each kept row's position in its file
// and the file's path, after partition pruning, the pushed filter and the projection.
TEST_F(HiveDatasetTest, RowNumbersAndFilePathsFollowTheFilter) {
  for (int threads : {1, 2}) {
    ScanOptions options = Filtered("name != 'b' AND month >= 2", threads);
    options.columns = {"id"};
    options.row_number_column = "file_row_number";
    options.file_path_column = "filename";
    Scanned scanned = Scan(*dataset_, options);
    ASSERT_EQ(scanned.schema->num_fields(), 3);
    EXPECT_EQ(scanned.schema->field(1)->name(), "file_row_number");
    EXPECT_EQ(scanned.schema->field(2)->name(), "filename");
    std::vector<std::vector<std::string>> expected;
    for (int y = 0; y < 2; ++y) {
      for (int m = 2; m <= 3; ++m) {
        for (int r : {0, 2}) {  // row 1 is 'b', row 3 a null name
          expected.push_back({std::to_string(100 * y + 10 * m + r), std::to_string(r),
                              dir_ / ("year=" + std::to_string(2023 + y) + "/month=" + std::to_string(m) + "/part-0.parquet")});
        }
      }
    }
    EXPECT_EQ(scanned.rows, expected) << "threads " << threads;
  }
  ScanOptions clash;
  clash.row_number_column = "id";
  EXPECT_TRUE(dataset_->Scan(clash).status().IsInvalid());
}

TEST(DatasetReaderTest, UnifiesSchemasAcrossFiles) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "a.parquet", {"id", "v"}, {Int32s({1, 2}, pool), Strings({"x", "y"}, pool)}, pool);
  WriteParquet(dir / "b.parquet", {"w", "id"}, {Int64s({7}, pool), Int64s({int64_t{1} << 40}, pool)}, pool);
  auto dataset = Dataset::Open({dir.path().string()}, {}, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  EXPECT_EQ((*dataset)->schema()->field(0)->type()->id(), TypeId::kInt64);
  Scanned scanned = Scan(**dataset, {});
  EXPECT_EQ(scanned.rows,
            (std::vector<std::vector<std::string>>{
                {"1", "x", "null"}, {"2", "y", "null"}, {std::to_string(int64_t{1} << 40), "null", "7"}}));

  // A filter on a column one file lacks: it sees nulls there.
  Scanned no_w = Scan(**dataset, Filtered("w IS NULL"));
  EXPECT_EQ(no_w.rows.size(), 2u);
  Scanned w7 = Scan(**dataset, Filtered("w = 7 OR v = 'y'"));
  EXPECT_EQ(w7.rows, (std::vector<std::vector<std::string>>{{"2", "y", "null"},
                                                            {std::to_string(int64_t{1} << 40), "null", "7"}}));
  // The int32 file is filtered by an int64-bound predicate.
  Scanned id = Scan(**dataset, Filtered("id = 2"));
  EXPECT_EQ(id.rows, (std::vector<std::vector<std::string>>{{"2", "y", "null"}}));
}

TEST(DatasetReaderTest, ATypeConflictNamesBothFiles) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "a.parquet", {"x"}, {Int64s({1}, pool)}, pool);
  WriteParquet(dir / "b.parquet", {"x"}, {Strings({"1"}, pool)}, pool);
  auto dataset = Dataset::Open({dir.path().string()}, {}, pool);
  ASSERT_FALSE(dataset.ok());
  const std::string& message = dataset.status().message();
  EXPECT_NE(message.find(dir / "a.parquet"), std::string::npos) << message;
  EXPECT_NE(message.find(dir / "b.parquet"), std::string::npos) << message;
  EXPECT_NE(message.find("'x'"), std::string::npos) << message;
}

TEST(DatasetReaderTest, APartitionKeyThatIsAlsoAFileColumnTakesThePathsValue) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "k=5/a.parquet", {"k", "v"}, {Strings({"file"}, pool), Int64s({1}, pool)}, pool);
  // The files' own k columns disagree on the type: irrelevant, they are not read.
  WriteParquet(dir / "k=6/b.parquet", {"v", "k"}, {Int64s({2}, pool), Int64s({99}, pool)}, pool);
  auto dataset = Dataset::Open({dir.path().string()}, {}, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  ASSERT_EQ((*dataset)->schema()->num_fields(), 2);
  EXPECT_EQ((*dataset)->schema()->field(0)->name(), "v");
  EXPECT_EQ((*dataset)->schema()->field(1)->name(), "k");
  EXPECT_EQ((*dataset)->schema()->field(1)->type()->id(), TypeId::kInt64);
  Scanned scanned = Scan(**dataset, {});
  EXPECT_EQ(scanned.rows, (std::vector<std::vector<std::string>>{{"1", "5"}, {"2", "6"}}));
  Scanned filtered = Scan(**dataset, Filtered("k = 6"));
  EXPECT_EQ(filtered.rows, (std::vector<std::vector<std::string>>{{"2", "6"}}));
  EXPECT_EQ(filtered.stats.files_skipped_by_partition, 1);
}

TEST(DatasetReaderTest, NullPartitionValuesReadAsNullsAndPrune) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "k=1/a.parquet", {"v"}, {Int64s({1}, pool)}, pool);
  WriteParquet(dir / "k=__HIVE_DEFAULT_PARTITION__/a.parquet", {"v"}, {Int64s({2}, pool)}, pool);
  auto dataset = Dataset::Open({dir.path().string()}, {}, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  EXPECT_EQ((*dataset)->schema()->field(1)->type()->id(), TypeId::kInt64);
  EXPECT_EQ(Scan(**dataset, {}).rows, (std::vector<std::vector<std::string>>{{"1", "1"}, {"2", "null"}}));
  Scanned nulls = Scan(**dataset, Filtered("k IS NULL"));
  EXPECT_EQ(nulls.rows, (std::vector<std::vector<std::string>>{{"2", "null"}}));
  EXPECT_EQ(nulls.stats.files_skipped_by_partition, 1);
  Scanned not_one = Scan(**dataset, Filtered("k != 1"));  // null != 1 is not true
  EXPECT_TRUE(not_one.rows.empty());
  EXPECT_EQ(not_one.stats.files_skipped_by_partition, 2);
}

TEST(DatasetReaderTest, FirstFileOnlySchemaReadsLaterFilesConformed) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "a.parquet", {"id"}, {Int64s({1}, pool)}, pool);
  WriteParquet(dir / "b.parquet", {"extra", "id"}, {Int64s({9}, pool), Int32s({2}, pool)}, pool);
  DatasetOptions options;
  options.schema.first_file_only = true;
  auto dataset = Dataset::Open({dir.path().string()}, options, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  EXPECT_EQ((*dataset)->schema()->num_fields(), 1);
  for (int threads : {1, 2}) {
    ScanOptions scan;
    scan.executor = strata::testing::TestExecutor(threads);
    EXPECT_EQ(Scan(**dataset, scan).rows, (std::vector<std::vector<std::string>>{{"1"}, {"2"}}));
  }
}

// Rows of `rows_per_file` in `files` files under `dir`: id int64 and a 40-byte string.
void WriteManyFiles(const TempDir& dir, const std::string& sub, int files, int64_t rows_per_file) {
  auto* pool = Pool();
  int64_t next = 0;
  for (int f = 0; f < files; ++f) {
    std::vector<std::optional<int64_t>> ids;
    std::vector<std::optional<std::string>> text;
    for (int64_t r = 0; r < rows_per_file; ++r, ++next) {
      ids.push_back(next * 7919 % 1000003);
      text.push_back(std::to_string(next * 2654435761u) + std::string(30, static_cast<char>('a' + next % 26)));
    }
    char name[32];
    std::snprintf(name, sizeof(name), "part-%04d.parquet", f);
    WriteParquet(dir / (sub + "/" + name), {"id", "text"}, {Int64s(ids, pool), Strings(text, pool)}, pool);
  }
}

int64_t ScanPeak(const std::string& dir, int threads, int64_t* rows) {
  auto pool = MakeSystemMemoryPool();
  auto dataset = Dataset::Open({dir}, {}, pool.get());
  EXPECT_TRUE(dataset.ok()) << dataset.status().ToString();
  if (!dataset.ok()) return -1;
  ScanOptions options;
  options.executor = strata::testing::TestExecutor(threads);
  options.read_ahead_bytes = 1 << 20;
  pool->ResetPeak();
  auto reader = (*dataset)->Scan(options);
  EXPECT_TRUE(reader.ok());
  *rows = 0;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    *rows += (*batch)->num_rows();
  }
  return pool->peak_bytes();
}

TEST(DatasetReaderTest, MemoryDoesNotGrowWithTheFileCount) {
  TempDir dir;
  constexpr int64_t kRows = 200000;
  WriteManyFiles(dir, "one", 1, kRows);
  WriteManyFiles(dir, "many", 50, kRows / 50);
  WriteManyFiles(dir, "more", 200, kRows / 200);
  for (int threads : {1, 4}) {
    int64_t one_rows = 0;
    int64_t many_rows = 0;
    const int64_t one_peak = ScanPeak(dir / "one", threads, &one_rows);
    const int64_t many_peak = ScanPeak(dir / "many", threads, &many_rows);
    EXPECT_EQ(one_rows, kRows);
    EXPECT_EQ(many_rows, kRows);
    std::printf("threads %d: peak one file %lld bytes, 50 files %lld bytes\n", threads,
                static_cast<long long>(one_peak), static_cast<long long>(many_peak));
    EXPECT_LE(static_cast<double>(many_peak), 1.25 * static_cast<double>(one_peak)) << "threads " << threads;
    // Four times the files: no more memory (the budget and the open-file cap bound it).
    int64_t more_rows = 0;
    const int64_t more_peak = ScanPeak(dir / "more", threads, &more_rows);
    EXPECT_EQ(more_rows, kRows);
    std::printf("threads %d: peak 200 files %lld bytes\n", threads, static_cast<long long>(more_peak));
    EXPECT_LE(static_cast<double>(more_peak), 1.25 * static_cast<double>(many_peak)) << "threads " << threads;
  }
}

TEST(DatasetReaderTest, OutputIdenticalAtOneAndTwoThreads) {
  TempDir dir;
  WriteManyFiles(dir, "d", 12, 3000);
  auto dataset = Dataset::Open({dir / "d"}, {}, Pool());
  ASSERT_TRUE(dataset.ok());
  ScanOptions one;
  one.executor = strata::testing::TestExecutor(1);
  one.batch_rows = 1000;
  ScanOptions two = one;
  two.executor = strata::testing::TestExecutor(2);
  Scanned a = Scan(**dataset, one);
  Scanned b = Scan(**dataset, two);
  EXPECT_EQ(a.rows.size(), 36000u);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.batch_rows, b.batch_rows);
  ScanOptions four = one;
  four.executor = strata::testing::TestExecutor(4);
  four.read_ahead_bytes = 0;  // one file at a time still works
  EXPECT_EQ(Scan(**dataset, four).rows, a.rows);
  four.read_ahead_bytes = 64 << 20;
  EXPECT_EQ(Scan(**dataset, four).rows, a.rows);
  ScanOptions filtered = one;
  filtered.filter = *expr::ParseFilter("id < 500000");
  Scanned c = Scan(**dataset, filtered);
  filtered.executor = strata::testing::TestExecutor(2);
  Scanned d = Scan(**dataset, filtered);
  EXPECT_EQ(c.rows, d.rows);
  EXPECT_LT(c.rows.size(), a.rows.size());
}

TEST(DatasetReaderTest, PushesTheFilterIntoEachFilesReader) {
  TempDir dir;
  auto* pool = Pool();
  // Disjoint id ranges per file: statistics rule out whole row groups.
  for (int f = 0; f < 4; ++f) {
    std::vector<std::optional<int64_t>> ids;
    for (int64_t r = 0; r < 100; ++r) ids.push_back(f * 1000 + r);
    WriteParquet(dir / (std::string("f").append(std::to_string(f)).append(".parquet")), {"id"}, {Int64s(ids, pool)},
                 pool);
  }
  auto dataset = Dataset::Open({dir.path().string()}, {}, pool);
  ASSERT_TRUE(dataset.ok());
  Scanned scanned = Scan(**dataset, Filtered("id >= 2050 AND id < 2060"));
  EXPECT_EQ(scanned.rows.size(), 10u);
  EXPECT_EQ(scanned.stats.files_read, 4);
  EXPECT_EQ(scanned.stats.pruning.row_groups, 4);
  EXPECT_EQ(scanned.stats.pruning.row_groups_by_statistics, 3);
  EXPECT_EQ(scanned.stats.pruning.rows_selected, 10);
}

TEST(DatasetReaderTest, FiltersOnAWidenedTimestampAreExact) {
  TempDir dir;
  auto* pool = Pool();
  const int64_t midnight_s = 1704067200;  // 2024-01-01 00:00:00
  PrimitiveBuilder<int64_t> ms(timestamp(TimeUnit::kMilli), pool);
  for (int64_t v : {midnight_s * 1000, midnight_s * 1000 + 500, midnight_s * 1000 + 1500})
    ASSERT_TRUE(ms.Append(v).ok());
  PrimitiveBuilder<int64_t> us(timestamp(TimeUnit::kMicro), pool);
  for (int64_t v : {midnight_s * 1000000 + 499999, midnight_s * 1000000 + 500001}) ASSERT_TRUE(us.Append(v).ok());
  WriteParquet(dir / "a.parquet", {"ts"}, {Array(*ms.Finish())}, pool);
  WriteParquet(dir / "b.parquet", {"ts"}, {Array(*us.Finish())}, pool);
  auto dataset = Dataset::Open({dir.path().string()}, {}, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  ASSERT_EQ((*dataset)->schema()->field(0)->type()->unit(), TimeUnit::kMicro);
  for (int threads : {1, 2}) {
    Scanned scanned = Scan(**dataset, Filtered("ts >= '2024-01-01 00:00:00.5'", threads));
    EXPECT_EQ(scanned.rows, (std::vector<std::vector<std::string>>{{std::to_string(midnight_s * 1000000 + 500000)},
                                                                   {std::to_string(midnight_s * 1000000 + 1500000)},
                                                                   {std::to_string(midnight_s * 1000000 + 500001)}}));
  }
}

TEST(DatasetReaderTest, GlobInputsCarryTheirPartitions) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "d=2024-05-01/x.parquet", {"v"}, {Int64s({1}, pool)}, pool);
  WriteParquet(dir / "d=2024-05-02/x.parquet", {"v"}, {Int64s({2}, pool)}, pool);
  WriteParquet(dir / "d=2024-05-02/y.other", {"v"}, {Int64s({3}, pool)}, pool);
  auto dataset = Dataset::Open({dir / "d=*/*.parquet"}, {}, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  ASSERT_EQ((*dataset)->schema()->num_fields(), 2);
  EXPECT_EQ((*dataset)->schema()->field(1)->type()->id(), TypeId::kDate32);
  Scanned scanned = Scan(**dataset, Filtered("d > '2024-05-01'"));
  EXPECT_EQ(scanned.rows, (std::vector<std::vector<std::string>>{{"2", "19845"}}));
  EXPECT_EQ(scanned.stats.files_skipped_by_partition, 1);
}

TEST(DatasetReaderTest, AnUnreadableFileFailsTheScanNamingIt) {
  TempDir dir;
  auto* pool = Pool();
  WriteParquet(dir / "a.parquet", {"v"}, {Int64s({1}, pool)}, pool);
  const std::string bad = dir.Touch("b.parquet", "garbage, not parquet");
  DatasetOptions options;
  options.schema.first_file_only = true;  // so the bad footer is met by the scan
  auto dataset = Dataset::Open({dir.path().string()}, options, pool);
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  for (int threads : {1, 2}) {
    ScanOptions scan;
    scan.executor = strata::testing::TestExecutor(threads);
    auto reader = (*dataset)->Scan(scan);
    ASSERT_TRUE(reader.ok());
    auto first = (*reader)->Next();
    ASSERT_TRUE(first.ok()) << first.status().ToString();
    ASSERT_NE(*first, nullptr);
    auto second = (*reader)->Next();
    ASSERT_FALSE(second.ok());
    EXPECT_NE(second.status().message().find(bad), std::string::npos) << second.status().ToString();
    EXPECT_FALSE((*reader)->Next().ok());  // the error sticks
  }
}

TEST(DatasetReaderTest, ReadsAHiveDatasetWrittenByDuckDB) {
  STRATA_REQUIRE_OR_SKIP(parquet::testing::DuckDBAvailable(), "node and @duckdb/node-api (npm ci) are needed");
  TempDir dir;
  const std::string out = dir / "duck";
  const std::string error = parquet::testing::WriteParquetWithDuckDB(
      "SELECT i AS id, 'n' || i::VARCHAR AS name, i % 3 AS a, CASE WHEN i % 2 = 0 THEN 'x/y' ELSE 'z' END AS b "
      "FROM range(30) t(i)",
      out, "PARTITION_BY (a, b)");
  ASSERT_EQ(error, "");
  auto dataset = Dataset::Open({out}, {}, Pool());
  ASSERT_TRUE(dataset.ok()) << dataset.status().ToString();
  const Schema& schema = *(*dataset)->schema();
  ASSERT_EQ(schema.num_fields(), 4) << schema.ToString();
  EXPECT_EQ(schema.field(2)->name(), "a");
  EXPECT_EQ(schema.field(2)->type()->id(), TypeId::kInt64);
  EXPECT_EQ(schema.field(3)->name(), "b");
  EXPECT_EQ(schema.field(3)->type()->id(), TypeId::kString);
  Scanned all = Scan(**dataset, {});
  ASSERT_EQ(all.rows.size(), 30u);
  for (const auto& row : all.rows) {
    const int64_t i = std::stoll(row[0]);
    EXPECT_EQ(row[1], std::string("n").append(std::to_string(i)));
    EXPECT_EQ(row[2], std::to_string(i % 3));
    EXPECT_EQ(row[3], i % 2 == 0 ? "x/y" : "z");  // DuckDB escapes '/' in the folder name
  }
  Scanned pruned = Scan(**dataset, Filtered("a = 1 AND b = 'x/y' AND id > 10"));
  EXPECT_EQ(pruned.stats.files_skipped_by_partition, static_cast<int64_t>((*dataset)->files().size()) - 1);
  std::vector<std::string> ids;
  for (const auto& row : pruned.rows) ids.push_back(row[0]);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"16", "22", "28"}));
}

}  // namespace
}  // namespace strata::dataset
