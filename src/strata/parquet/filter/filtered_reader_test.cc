// FilteredBatchReader: filtered reads equal an unfiltered read filtered afterwards (on
// generated files with several row groups, pages, dictionaries and Bloom filters, and on every
// parquet-testing file that reads), and the pruning statistics show what each mechanism
// skipped.
#include "strata/parquet/filter/filtered_reader.h"

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

#include "strata/array/bitmap.h"
#include "strata/array/value_text.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/binary_builder.h"
#include "strata/exec/process_pool.h"
#include "strata/expr/bind.h"
#include "strata/expr/evaluate.h"
#include "strata/expr/parser.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

using RowList = std::vector<std::string>;

std::string RowText(const RecordBatch& batch, int64_t row, const std::vector<int>& columns) {
  std::string text;
  for (const int c : columns) {
    text += batch.column(c).Slice(row, 1).ToString();
    text += '|';
  }
  return text;
}

// The reference: every row group read unfiltered, the predicate evaluated on each batch.
RowList ReferenceRows(FileReader* file, const expr::Predicate& predicate, const std::vector<int>& output) {
  RowList rows;
  auto reader = file->ReadBatches();
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return rows;
  while (true) {
    auto batch = (*reader)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    std::vector<const Array*> columns;
    for (const Array& column : (*batch)->columns()) columns.push_back(&column);
    auto selection = expr::Evaluate(predicate, columns, (*batch)->num_rows(), file->pool());
    EXPECT_TRUE(selection.ok()) << selection.status().ToString();
    if (!selection.ok()) break;
    for (int64_t r = 0; r < (*batch)->num_rows(); ++r) {
      if (bitmap::GetBit(selection->bits->data(), r)) rows.push_back(RowText(**batch, r, output));
    }
  }
  return rows;
}

struct FilteredResult {
  RowList rows;
  PruningStats stats;
  Status status;
};

FilteredResult FilteredRows(FileReader* file, const expr::PredicatePtr& predicate, BatchReadOptions options,
                            FilterOptions filter = {}) {
  FilteredResult out;
  filter.predicate = predicate;
  auto reader = FilteredBatchReader::Make(file, options, filter);
  if (!reader.ok()) {
    out.status = reader.status();
    return out;
  }
  std::vector<int> all;
  for (int i = 0; i < (*reader)->schema()->num_fields(); ++i) all.push_back(i);
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) {
      out.status = batch.status();
      return out;
    }
    if (*batch == nullptr) break;
    EXPECT_GT((*batch)->num_rows(), 0) << "empty batches are never returned";
    EXPECT_LE((*batch)->num_rows(), options.batch_rows);
    for (int64_t r = 0; r < (*batch)->num_rows(); ++r) out.rows.push_back(RowText(**batch, r, all));
  }
  out.stats = (*reader)->stats();
  return out;
}

Result<expr::PredicatePtr> BindText(const std::string& text, const Schema& schema) {
  STRATA_ASSIGN_OR_RETURN(auto expression, expr::ParseFilter(text));
  return expr::Bind(*expression, schema);
}

// 200,000 rows in 10 row groups of 10 pages: id sorted, k cycling, s from 5,000 values, f
// with nulls, d a date rising every 1,000 rows, name unique (a Bloom filter on it and on k).
class GeneratedFileTest : public ::testing::Test {
 protected:
  static constexpr int64_t kRows = 200000;

  void SetUp() override {
    pool_ = SystemMemoryPool();
    Int64Builder id(int64(), pool_);
    Int32Builder k(int32(), pool_);
    StringBuilder s(utf8(), pool_);
    DoubleBuilder f(float64(), pool_);
    Int32Builder d(date32(), pool_);
    StringBuilder name(utf8(), pool_);
    for (int64_t i = 0; i < kRows; ++i) {
      ASSERT_TRUE(id.Append(i).ok());
      ASSERT_TRUE(k.Append(static_cast<int32_t>((i * 7919) % 1000)).ok());
      ASSERT_TRUE(s.Append("v" + std::to_string((i * 31) % 5000)).ok());
      if (i % 7 == 0) ASSERT_TRUE(f.AppendNulls(1).ok());
      else ASSERT_TRUE(f.Append(static_cast<double>(i % 100) / 4).ok());
      ASSERT_TRUE(d.Append(static_cast<int32_t>(18000 + i / 1000)).ok());
      ASSERT_TRUE(name.Append("name-" + std::to_string(i)).ok());
    }
    std::vector<Array> columns;
    for (ArrayBuilder* b : std::initializer_list<ArrayBuilder*>{&id, &k, &s, &f, &d, &name}) {
      auto data = b->Finish();
      ASSERT_TRUE(data.ok());
      columns.emplace_back(*data);
    }
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
        ::strata::field("id", int64(), false), ::strata::field("k", int32(), false), ::strata::field("s", utf8(), false),
        ::strata::field("f", float64()), ::strata::field("d", date32(), false), ::strata::field("name", utf8(), false)});
    auto batch = RecordBatch::Make(schema, kRows, columns);
    ASSERT_TRUE(batch.ok());
    WriterOptions options;
    options.file.max_row_group_rows = 20000;
    options.file.data_page_rows = 2000;
    ColumnWriteOptions bloom = options.columns;
    bloom.bloom_filter = true;
    // Distinct names: a dictionary saves nothing, but the tests prune with it.
    bloom.dictionary_min_saving = 0;
    options.column_overrides["name"] = bloom;
    options.column_overrides["k"] = bloom;
    auto file = testing::WriteToBuffer(schema, {*batch}, options, pool_);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    file_ = *file;
  }

  std::unique_ptr<FileReader> Open() {
    auto reader = testing::OpenBuffer(file_, pool_);
    EXPECT_TRUE(reader.ok());
    return std::move(*reader);
  }

  // Filtered rows equal the reference, for the output `columns` (empty: all).
  FilteredResult Check(const std::string& text, std::vector<int> columns = {}, FilterOptions filter = {},
                       int threads = 1) {
    auto file = Open();
    auto predicate = BindText(text, *file->schema());
    EXPECT_TRUE(predicate.ok()) << text << ": " << predicate.status().ToString();
    if (!predicate.ok()) return {};
    BatchReadOptions options;
    options.columns = columns;
    options.batch_rows = 5000;
    options.executor = exec::ProcessExecutor(threads);
    FilteredResult result = FilteredRows(file.get(), *predicate, options, filter);
    EXPECT_TRUE(result.status.ok()) << text << ": " << result.status.ToString();
    if (columns.empty()) {
      for (int i = 0; i < file->schema()->num_fields(); ++i) columns.push_back(i);
    }
    const RowList expected = ReferenceRows(file.get(), **predicate, columns);
    EXPECT_EQ(result.rows.size(), expected.size()) << text;
    EXPECT_TRUE(result.rows == expected) << text;
    EXPECT_EQ(result.stats.rows_selected, static_cast<int64_t>(expected.size())) << text;
    return result;
  }

  MemoryPool* pool_ = nullptr;
  std::shared_ptr<Buffer> file_;
};

TEST_F(GeneratedFileTest, RangeOnSortedColumnSkipsRowGroupsAndPages) {
  const FilteredResult r = Check("id >= 150000 AND id < 150100");
  EXPECT_EQ(r.rows.size(), 100u);
  EXPECT_EQ(r.stats.row_groups, 10);
  EXPECT_EQ(r.stats.row_groups_by_statistics, 9);
  // Row group 7 holds 140,000-159,999 in pages of 2,000: the page index leaves one page.
  EXPECT_EQ(r.stats.rows_skipped_by_page_index, 18000);
  EXPECT_EQ(r.stats.rows_decoded, 2000);
  EXPECT_GT(r.stats.pages_skipped, 0);
  EXPECT_GT(r.stats.bytes_skipped, r.stats.bytes / 2);
}

TEST_F(GeneratedFileTest, PruningOffGivesTheSameRowsAndSkipsNothing) {
  FilterOptions off;
  off.use_statistics = off.use_dictionaries = off.use_bloom_filters = off.use_page_index = false;
  const FilteredResult r = Check("id >= 150000 AND id < 150100", {}, off);
  EXPECT_EQ(r.rows.size(), 100u);
  EXPECT_EQ(r.stats.row_groups_by_statistics, 0);
  EXPECT_EQ(r.stats.rows_skipped_by_page_index, 0);
  EXPECT_EQ(r.stats.rows_decoded, kRows);
}

TEST_F(GeneratedFileTest, AbsentValueSkippedByDictionaryThenByBloomFilter) {
  // Bytewise, 'name-05' lies within row group 0's min/max ("name-0" .. "name-9999") and below
  // the others' ("name-20000" ...): statistics rule those out, the dictionary row group 0.
  FilteredResult r = Check("name = 'name-05'");
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.stats.row_groups_by_statistics, 9);
  EXPECT_EQ(r.stats.row_groups_by_dictionary, 1);
  // Without dictionaries, the Bloom filter answers for row group 0.
  FilterOptions no_dictionaries;
  no_dictionaries.use_dictionaries = false;
  r = Check("name IN ('name-05', 'name-007')", {}, no_dictionaries);
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.stats.row_groups_by_statistics, 9);
  EXPECT_EQ(r.stats.row_groups_by_bloom_filter, 1);
  // A present value: only its row group is read.
  r = Check("name = 'name-123456'");
  EXPECT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.stats.row_groups_by_statistics + r.stats.row_groups_by_dictionary +
                r.stats.row_groups_by_bloom_filter,
            9);
}

TEST_F(GeneratedFileTest, BloomFilterNeverRulesOutAPresentValue) {
  FilterOptions bloom_only;
  bloom_only.use_statistics = bloom_only.use_dictionaries = bloom_only.use_page_index = false;
  const FilteredResult present = Check("k IN (5, 999)", {}, bloom_only);
  EXPECT_EQ(present.stats.row_groups_by_bloom_filter, 0);
  EXPECT_EQ(present.rows.size(), 400u);
  // Absent values: the filters rule out the row groups where they give no false positive
  // (deterministic for this data; at 5% per value most of the ten).
  const FilteredResult absent = Check("k = 1000 OR k = -1", {}, bloom_only);
  EXPECT_TRUE(absent.rows.empty());
  EXPECT_GE(absent.stats.row_groups_by_bloom_filter, 5);
  for (int64_t i : {0, 77777, 199999}) {
    const FilteredResult one = Check("name = 'name-" + std::to_string(i) + "'", {}, bloom_only);
    EXPECT_EQ(one.rows.size(), 1u);
    EXPECT_LE(one.stats.row_groups_by_bloom_filter, 9);
  }
}

TEST_F(GeneratedFileTest, PredicatesOfEveryShapeEqualTheReference) {
  for (const char* text : {
           "k IN (5, 7) AND f IS NULL",
           "s = 'v17' OR id < 10",
           "d >= '2019-08-01' AND d < '2019-08-03'",
           "NOT (k > 10) AND id > 100000",
           "f > 20.5 OR f IS NULL AND k = 3",
           "s NOT IN ('v1', 'v2', 'v3') AND k <= 2",
           "f IS NOT NULL AND NOT (f < 24)",
           "name >= 'name-199990'",
           "id != 5 AND id < 7",
           "k = 3.5 OR id = 1",
           "id = 1 OR id > -5",
       }) {
    Check(text);
  }
}

TEST_F(GeneratedFileTest, NothingMatches) {
  const FilteredResult r = Check("id < 0");
  EXPECT_TRUE(r.rows.empty());
  EXPECT_EQ(r.stats.row_groups_by_statistics, 10);
  EXPECT_EQ(r.stats.bytes_skipped, r.stats.bytes);
}

TEST_F(GeneratedFileTest, ProjectionLeavesOutTheFilterColumns) {
  const FilteredResult r = Check("id >= 1000 AND id < 1010 AND k > 100", {2, 5});
  ASSERT_FALSE(r.rows.empty());
  // Two output columns: "[value]|[value]|".
  for (const auto& row : r.rows) EXPECT_EQ(std::count(row.begin(), row.end(), '|'), 2) << row;
}

TEST_F(GeneratedFileTest, LateMaterialisationDecodesOnlyFilterColumnsOfEmptyBatches) {
  // Statistics leave row group 0; its page index leaves pages [0, 6000). The batch [0, 5000)
  // keeps every row; the batch [5000, 6000) keeps none, so only its filter column decodes.
  const FilteredResult r = Check("id < 5000 OR id > 1000000");
  EXPECT_EQ(r.rows.size(), 5000u);
  EXPECT_EQ(r.stats.rows_decoded, 6000);
  EXPECT_EQ(r.stats.rows_skipped_by_page_index, 14000);
}

TEST_F(GeneratedFileTest, SameRowsAtEveryThreadCount) {
  for (const char* text : {"k IN (5, 7) AND f IS NULL", "s = 'v17' OR id < 10", "id >= 150000 AND id < 150100"}) {
    const FilteredResult one = Check(text, {}, {}, 1);
    const FilteredResult two = Check(text, {}, {}, 2);
    EXPECT_TRUE(one.rows == two.rows) << text;
  }
}

// FileReaderOptions::row_number_column: in this file id is the row's position, so every
// batch's row numbers must equal its ids, whatever statistics, Bloom filters and the page
// index skipped, with late materialisation, at 1 and 2 threads, projected or not.
TEST_F(GeneratedFileTest, RowNumbersAreFilePositionsThroughEveryPruning) {
  FileReaderOptions with_numbers;
  with_numbers.row_number_column = "row";
  for (const int threads : {1, 2}) {
    for (const char* text : {"", "id >= 150000 AND id < 150100", "k IN (5, 7) AND f IS NULL", "name = 'name-123456'",
                             "id < 5000 OR id > 1000000", "s = 'v17' OR id < 10", "id < 0"}) {
      for (const bool projected : {false, true}) {
        auto file = FileReader::Open(MakeBufferSource(file_, "written.parquet"), pool_, with_numbers);
        ASSERT_TRUE(file.ok()) << file.status().ToString();
        FilterOptions filter;
        if (*text != '\0') {
          auto predicate = BindText(text, *(*file)->schema());
          ASSERT_TRUE(predicate.ok()) << text;
          filter.predicate = *predicate;
        }
        BatchReadOptions options;
        options.batch_rows = 3000;
        options.executor = exec::ProcessExecutor(threads);
        if (projected) options.columns = {5, 0};  // name, id: the row number comes after them
        auto reader = FilteredBatchReader::Make(file->get(), options, filter);
        ASSERT_TRUE(reader.ok()) << reader.status().ToString();
        const Schema& schema = *(*reader)->schema();
        ASSERT_EQ(schema.field(schema.num_fields() - 1)->name(), "row") << text;
        const int id = schema.GetFieldIndex("id");
        int64_t rows = 0;
        int64_t previous = -1;
        while (true) {
          auto batch = (*reader)->Next();
          ASSERT_TRUE(batch.ok()) << text << ": " << batch.status().ToString();
          if (*batch == nullptr) break;
          const PrimitiveArray<int64_t> ids((*batch)->column(id));
          const PrimitiveArray<int64_t> numbers((*batch)->column(schema.num_fields() - 1));
          for (int64_t r = 0; r < (*batch)->num_rows(); ++r) {
            ASSERT_EQ(numbers.Value(r), ids.Value(r)) << text << " threads " << threads;
            ASSERT_GT(numbers.Value(r), previous) << text;
            previous = numbers.Value(r);
          }
          rows += (*batch)->num_rows();
        }
        if (*text == '\0') {
          EXPECT_EQ(rows, kRows);
        }
      }
    }
  }
  // Unfiltered, decoded a row group per task (ForEachBatch): each batch's numbers are its ids.
  auto file = FileReader::Open(MakeBufferSource(file_, "written.parquet"), pool_, with_numbers);
  ASSERT_TRUE(file.ok());
  BatchReadOptions parallel;
  parallel.batch_rows = 7000;
  parallel.executor = exec::ProcessExecutor(2);
  auto batches = (*file)->ReadBatches(parallel);
  ASSERT_TRUE(batches.ok());
  std::atomic<int64_t> rows{0};
  ASSERT_TRUE((*batches)
                  ->ForEachBatch([&](size_t, std::shared_ptr<RecordBatch> batch) -> Status {
                    const PrimitiveArray<int64_t> ids(batch->column(0));
                    const PrimitiveArray<int64_t> numbers(batch->column(batch->num_columns() - 1));
                    for (int64_t r = 0; r < batch->num_rows(); ++r) {
                      if (numbers.Value(r) != ids.Value(r)) return Status::Invalid("row {}", ids.Value(r));
                    }
                    rows += batch->num_rows();
                    return Status::OK();
                  })
                  .ok());
  EXPECT_EQ(rows.load(), kRows);
  // A file column of the same name would be hidden: refused.
  FileReaderOptions clash;
  clash.row_number_column = "k";
  auto clashing = FileReader::Open(MakeBufferSource(file_, "written.parquet"), pool_, clash);
  ASSERT_TRUE(clashing.ok());
  auto refused = (*clashing)->ReadBatches();
  ASSERT_TRUE(refused.status().IsInvalid());
  EXPECT_NE(refused.status().message().find("'k'"), std::string::npos) << refused.status().ToString();
}

TEST_F(GeneratedFileTest, APredicateOfAnotherDomainIsRefused) {
  auto file = Open();
  // Bound to a schema where "id" is a timestamp: the file's int64 values are not in its terms.
  Schema other({::strata::field("id", timestamp(::strata::TimeUnit::kMilli))});
  auto predicate = BindText("id > 5", other);
  ASSERT_TRUE(predicate.ok());
  FilterOptions filter;
  filter.predicate = *predicate;
  auto reader = FilteredBatchReader::Make(file.get(), {}, filter);
  ASSERT_FALSE(reader.ok());
  EXPECT_NE(reader.status().message().find("'id'"), std::string::npos) << reader.status().ToString();
}

// ---- parquet-testing ----------------------------------------------------------------------

// A literal equal to row `row` of a flat column, or nullopt for types not compared here.
std::optional<expr::Literal> LiteralAt(const Array& array, int64_t row) {
  if (array.IsNull(row)) return std::nullopt;
  const ArrayData& data = *array.data();
  const int64_t i = data.offset + row;
  auto fixed = [&](auto tag) {
    using T = decltype(tag);
    return data.buffers[1]->data_as<T>()[i];
  };
  switch (array.type_id()) {
    case TypeId::kBoolean: return expr::Literal::Bool(bitmap::GetBit(data.buffers[1]->data(), i));
    case TypeId::kInt8: return expr::Literal::Integer(fixed(int8_t{}));
    case TypeId::kInt16: return expr::Literal::Integer(fixed(int16_t{}));
    case TypeId::kInt32: case TypeId::kDate32: case TypeId::kTime32: return expr::Literal::Integer(fixed(int32_t{}));
    case TypeId::kInt64: case TypeId::kTimestamp: case TypeId::kTime64: case TypeId::kDate64:
      return expr::Literal::Integer(fixed(int64_t{}));
    case TypeId::kUInt8: return expr::Literal::Integer(fixed(uint8_t{}));
    case TypeId::kUInt16: return expr::Literal::Integer(fixed(uint16_t{}));
    case TypeId::kUInt32: return expr::Literal::Integer(fixed(uint32_t{}));
    case TypeId::kFloat32: {
      const float v = fixed(float{});
      if (std::isnan(v)) return std::nullopt;
      return expr::Literal::Float(v);
    }
    case TypeId::kFloat64: {
      const double v = fixed(double{});
      if (std::isnan(v)) return std::nullopt;
      return expr::Literal::Float(v);
    }
    case TypeId::kString: case TypeId::kBinary: {
      const auto* offsets = data.buffers[1]->data_as<int32_t>();
      const char* bytes = data.buffers[2] ? reinterpret_cast<const char*>(data.buffers[2]->data()) : "";
      return expr::Literal::String(std::string(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])));
    }
    case TypeId::kLargeString: case TypeId::kLargeBinary: {
      const auto* offsets = data.buffers[1]->data_as<int64_t>();
      const char* bytes = data.buffers[2] ? reinterpret_cast<const char*>(data.buffers[2]->data()) : "";
      return expr::Literal::String(std::string(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])));
    }
    case TypeId::kFixedSizeBinary: {
      const int width = array.type()->byte_width();
      return expr::Literal::String(std::string(data.buffers[1]->data_as<char>() + i * width, static_cast<size_t>(width)));
    }
    case TypeId::kDecimal128: {
      value_text::DecimalDigits digits;
      value_text::ToDecimalDigits(data.buffers[1]->data() + i * 16, 16, &digits);
      std::string text(static_cast<size_t>(value_text::DecimalTextLength(digits, array.type()->scale())), '\0');
      value_text::WriteDecimal(digits, array.type()->scale(), text.data());
      return expr::Literal::Decimal(text);
    }
    default: return std::nullopt;
  }
}

TEST(FilteredCorpusTest, EveryReadableFileFiltersLikeTheReference) {
  STRATA_REQUIRE_PARQUET_TESTING();
  MemoryPool* pool = SystemMemoryPool();
  int files_checked = 0;
  int predicates_checked = 0;
  const std::string data = ::strata::testing::ParquetTestingFile("data");
  for (const std::filesystem::path path : ::strata::testing::ParquetFilesIn(data)) {
    auto file = FileReader::OpenFile(path.string(), pool);
    if (!file.ok()) continue;  // encrypted, corrupt or unsupported: other tests cover them
    auto table = (*file)->ReadTable();
    if (!table.ok() || (*table)->num_rows() == 0) continue;
    const Schema& schema = *(*file)->schema();
    int columns_checked = 0;
    for (int c = 0; c < schema.num_fields() && columns_checked < 3; ++c) {
      const Array& column = (*table)->column(c)->chunk(0);
      std::optional<expr::Literal> low, high;
      for (int64_t r = 0; r < column.length() && !high; ++r) {
        auto literal = LiteralAt(column, r);
        if (!literal) continue;
        if (!low) low = literal;
        else if (literal->text != low->text) high = literal;
      }
      if (!low) continue;
      if (!high) high = low;
      bool checked = false;
      const auto ref = expr::Column(schema.field(c)->name());
      std::vector<expr::ExpressionPtr> cases = {
          expr::Equal(ref, *low),
          expr::Less(ref, *high),
          expr::GreaterEqual(ref, *high),
          expr::IsNull(ref),
          expr::In(ref, {*low, *high}),
          expr::Not(expr::Equal(ref, *low)),
          expr::Or({expr::Equal(ref, *high), expr::IsNull(ref)}),
      };
      for (const auto& expression : cases) {
        auto predicate = expr::Bind(*expression, schema);
        if (!predicate.ok()) continue;  // e.g. a type the binder does not compare
        std::vector<int> all;
        for (int i = 0; i < schema.num_fields(); ++i) all.push_back(i);
        const RowList expected = ReferenceRows(file->get(), **predicate, all);
        for (const int batch_rows : {7, 65536}) {
          BatchReadOptions options;
          options.batch_rows = batch_rows;
          const FilteredResult got = FilteredRows(file->get(), *predicate, options);
          ASSERT_TRUE(got.status.ok()) << path << ": " << expression->ToString() << ": " << got.status.ToString();
          EXPECT_TRUE(got.rows == expected) << path << ": " << expression->ToString() << " (" << got.rows.size()
                                            << " rows, expected " << expected.size() << ")";
        }
        ++predicates_checked;
        checked = true;
      }
      if (checked) ++columns_checked;
    }
    if (columns_checked > 0) ++files_checked;
  }
  EXPECT_GE(files_checked, 35);
  std::printf("%d files, %d predicates\n", files_checked, predicates_checked);
  EXPECT_GE(predicates_checked, 450);
}

}  // namespace
}  // namespace strata::parquet
