#include "strata/dataset/batch_source.h"

#include <gtest/gtest.h>

#include "strata/dataset/dataset_test_util.h"

namespace strata::dataset {
namespace {

using testing::TempDir;

// Every batch of `source`, as the total row count and the first column's int64 values.
struct Drained {
  int64_t rows = 0;
  std::vector<int64_t> first;
};

Drained Drain(BatchSource* source) {
  Drained out;
  while (true) {
    auto batch = source->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) return out;
    out.rows += (*batch)->num_rows();
    if ((*batch)->num_columns() > 0 && (*batch)->column(0).type()->id() == TypeId::kInt64) {
      Int64Array values((*batch)->column(0).data());
      for (int64_t i = 0; i < values.length(); ++i) out.first.push_back(values.Value(i));
    }
  }
}

TEST(BatchSourceTest, FormatByExtensionOrRequest) {
  EXPECT_EQ(ResolveInputFormat("a.csv"), InputFormat::kCsv);
  EXPECT_EQ(ResolveInputFormat("A.CSV.GZ"), InputFormat::kCsv);
  EXPECT_EQ(ResolveInputFormat("a.tsv.gzip"), InputFormat::kTsv);
  EXPECT_EQ(ResolveInputFormat("A.TSV.ZST"), InputFormat::kTsv);
  EXPECT_EQ(ResolveInputFormat("a.gz"), InputFormat::kParquet);
  EXPECT_EQ(ResolveInputFormat("a.arrows"), InputFormat::kIpcStream);
  EXPECT_EQ(ResolveInputFormat("a.feather"), InputFormat::kIpcFile);
  EXPECT_EQ(ResolveInputFormat("-"), InputFormat::kCsv);
  EXPECT_EQ(ResolveInputFormat("a.bin"), InputFormat::kParquet);
  EXPECT_EQ(ResolveInputFormat("a.csv", InputFormat::kParquet), InputFormat::kParquet);
  EXPECT_EQ(ResolveInputFormat("-", InputFormat::kIpcFile), InputFormat::kIpcStream);
}

TEST(BatchSourceTest, ParquetWithColumnsAndFilter) {
  TempDir dir;
  MemoryPool* pool = SystemMemoryPool();
  const std::string path = dir / "a.parquet";
  testing::WriteParquet(path, {"id", "name"}, {testing::Int64s({1, 2, 3, 4}, pool),
                                               testing::Strings({"a", "b", "c", "d"}, pool)}, pool);
  BatchSourceOptions options;
  options.columns = {"id"};
  options.filter = "id >= 3";
  auto source = OpenBatchSource(path, options, pool);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ((*source)->format_name(), "parquet");
  EXPECT_EQ((*source)->schema()->num_fields(), 1);
  EXPECT_EQ(Drain(source->get()).first, (std::vector<int64_t>{3, 4}));
  ASSERT_TRUE((*source)->pruning_stats().has_value());

  options.columns = {"nope"};
  options.filter.clear();
  source = OpenBatchSource(path, options, pool);
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.status().message().find("no top-level column 'nope'"), std::string::npos);
}

TEST(BatchSourceTest, CsvTsvAndSchemaSpec) {
  TempDir dir;
  MemoryPool* pool = SystemMemoryPool();
  const std::string tsv = dir.Touch("a.tsv", "id\tx\n1\t2.5\n2\t3.5\n");
  auto source = OpenBatchSource(tsv, {}, pool);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ((*source)->format_name(), "csv");
  EXPECT_EQ((*source)->schema()->num_fields(), 2);  // the tab delimiter, not detection's guess
  EXPECT_NE((*source)->DialectLine().find("CSV: "), std::string::npos);
  EXPECT_EQ(Drain(source->get()).first, (std::vector<int64_t>{1, 2}));

  BatchSourceOptions options;
  options.csv_schema = *ParseSchemaSpec("x:string");
  source = OpenBatchSource(tsv, options, pool);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ((*source)->schema()->field(1)->type()->ToString(), "string");

  // Filtering decoded rows, and a spec naming a column the file lacks (named by the label).
  options = {};
  options.filter = "id = 2";
  options.columns = {"id"};
  source = OpenBatchSource(tsv, options, pool);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  EXPECT_EQ(Drain(source->get()).first, std::vector<int64_t>{2});
  options = {};
  options.csv_schema = *ParseSchemaSpec("y:int8");
  options.csv_schema_label = "--schema";
  source = OpenBatchSource(tsv, options, pool);
  ASSERT_FALSE(source.ok());
  EXPECT_EQ(source.status().message(), "--schema: '" + tsv + "' has no column 'y' (its columns: id, x)");
}

TEST(BatchSourceTest, ArrowStreamOwnsTheSource) {
  TempDir dir;
  MemoryPool* pool = SystemMemoryPool();
  const std::string csv = dir.Touch("a.csv", "id\n7\n8\n");
  auto source = OpenBatchSource(csv, {}, pool);
  ASSERT_TRUE(source.ok()) << source.status().ToString();
  std::unique_ptr<arrow_c::RecordBatchStream> stream = MakeArrowStream(std::move(*source));
  EXPECT_EQ(stream->schema()->field(0)->name(), "id");
  auto batch = stream->Next();
  ASSERT_TRUE(batch.ok() && *batch != nullptr);
  EXPECT_EQ((*batch)->num_rows(), 2);
  batch = stream->Next();
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ(*batch, nullptr);
}

}  // namespace
}  // namespace strata::dataset
