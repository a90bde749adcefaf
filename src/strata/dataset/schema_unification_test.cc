#include "strata/dataset/schema_unification.h"

#include <gtest/gtest.h>

#include "strata/dataset/dataset_test_util.h"
#include "strata/testing/test_executor.h"

namespace strata::dataset {
namespace {

using testing::TempDir;

MemoryPool* Pool() { return SystemMemoryPool(); }

std::shared_ptr<Schema> S(std::vector<FieldPtr> fields) { return std::make_shared<Schema>(std::move(fields)); }

TEST(SchemaUnificationTest, FieldsByNameInFirstSeenOrderWidened) {
  auto unified = UnifySchemas({S({field("a", int32(), false), field("b", utf8())}),
                               S({field("c", float32(), false), field("a", int64(), false)}),
                               S({field("b", large_utf8()), field("a", int16(), false), field("c", float64(), false)})},
                              {"f0", "f1", "f2"});
  ASSERT_TRUE(unified.ok()) << unified.status().ToString();
  ASSERT_EQ((*unified)->num_fields(), 3);
  EXPECT_EQ((*unified)->field(0)->ToString(), "a: int64 not null");  // in every file, never null
  EXPECT_EQ((*unified)->field(1)->ToString(), "b: large_string");    // missing from f1: nullable
  EXPECT_TRUE((*unified)->field(1)->nullable());
  EXPECT_EQ((*unified)->field(2)->type()->id(), TypeId::kFloat64);
  EXPECT_TRUE((*unified)->field(2)->nullable());  // missing from f0
}

TEST(SchemaUnificationTest, AConflictNamesColumnTypesAndFiles) {
  auto unified =
      UnifySchemas({S({field("x", int64())}), S({field("x", utf8())})}, {"/d/one.parquet", "/d/two.parquet"});
  ASSERT_FALSE(unified.ok());
  const std::string& message = unified.status().message();
  for (const char* part : {"'x'", "int64", "string", "/d/one.parquet", "/d/two.parquet"}) {
    EXPECT_NE(message.find(part), std::string::npos) << part << " missing from: " << message;
  }
}

TEST(SchemaUnificationTest, CommonTypeEitherDirection) {
  EXPECT_EQ(CommonType(int32(), int64())->id(), TypeId::kInt64);
  EXPECT_EQ(CommonType(int64(), int32())->id(), TypeId::kInt64);
  EXPECT_EQ(CommonType(date32(), date64())->id(), TypeId::kDate64);
  EXPECT_EQ(CommonType(int64(), utf8()), nullptr);
}

TEST(SchemaUnificationTest, ReadsEveryFooterOrOnlyTheFirst) {
  TempDir dir;
  auto* pool = Pool();
  testing::WriteParquet(dir / "a.parquet", {"id", "v"},
                        {testing::Int32s({1, 2}, pool), testing::Strings({"x", "y"}, pool)}, pool);
  testing::WriteParquet(dir / "b.parquet", {"id", "w"}, {testing::Int64s({3}, pool), testing::Int64s({7}, pool)}, pool);
  auto files = DiscoverFiles({dir.path().string()});
  ASSERT_TRUE(files.ok());
  for (int threads : {1, 2}) {
    UnifyOptions options;
    options.executor = strata::testing::TestExecutor(threads);
    auto unified = ReadAndUnify(*files, options, pool);
    ASSERT_TRUE(unified.ok()) << unified.status().ToString();
    ASSERT_EQ(unified->schema->num_fields(), 3);
    EXPECT_EQ(unified->schema->field(0)->type()->id(), TypeId::kInt64);
    EXPECT_EQ(unified->schema->field(2)->name(), "w");
    EXPECT_EQ(unified->files[0].num_rows, 2);
    EXPECT_EQ(unified->files[1].num_rows, 1);
    EXPECT_GT(unified->files[0].max_chunk_bytes[0], 0);
  }
  UnifyOptions first;
  first.first_file_only = true;
  auto fast = ReadAndUnify(*files, first, pool);
  ASSERT_TRUE(fast.ok()) << fast.status().ToString();
  ASSERT_EQ(fast->schema->num_fields(), 2);
  EXPECT_EQ(fast->schema->field(0)->type()->id(), TypeId::kInt32);
  EXPECT_EQ(fast->files[1].schema, nullptr);
}

TEST(SchemaUnificationTest, AFooterErrorNamesTheFile) {
  TempDir dir;
  const std::string bad = dir.Touch("bad.parquet", "not a parquet file at all");
  auto files = DiscoverFiles({bad});
  ASSERT_TRUE(files.ok());
  auto unified = ReadAndUnify(*files, {}, Pool());
  ASSERT_FALSE(unified.ok());
  EXPECT_NE(unified.status().message().find(bad), std::string::npos) << unified.status().ToString();
}

}  // namespace
}  // namespace strata::dataset
