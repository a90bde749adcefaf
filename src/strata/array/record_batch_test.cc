#include "strata/array/record_batch.h"

#include <gtest/gtest.h>

#include "strata/array/binary_builder.h"
#include "strata/array/pretty_print.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/table.h"

namespace strata {
namespace {

Array Int64s(std::vector<std::optional<int64_t>> values, MemoryPool* pool) {
  Int64Builder b(int64(), pool);
  for (auto v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return Array(*b.Finish());
}

Array Strings(std::vector<std::optional<std::string>> values, MemoryPool* pool) {
  StringBuilder b(utf8(), pool);
  for (const auto& v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return Array(*b.Finish());
}

TEST(RecordBatchTest, MakeChecksShape) {
  auto pool = MakeSystemMemoryPool();
  auto s = schema({field("id", int64(), false), field("name", utf8())});
  auto ids = Int64s({1, 2, 3}, pool.get());
  auto names = Strings({"a", std::nullopt, "c"}, pool.get());
  auto batch = RecordBatch::Make(s, 3, {ids, names});
  ASSERT_TRUE(batch.ok());
  EXPECT_EQ((*batch)->num_rows(), 3);
  EXPECT_EQ((*batch)->GetColumnByName("name")->ToString(), R"(["a", null, "c"])");
  EXPECT_EQ((*batch)->GetColumnByName("missing"), nullptr);
  EXPECT_TRUE(RecordBatch::Make(s, 3, {ids}).status().IsInvalid());
  EXPECT_TRUE(RecordBatch::Make(s, 4, {ids, names}).status().IsInvalid());
  EXPECT_TRUE(RecordBatch::Make(s, 3, {names, ids}).status().IsInvalid());
  EXPECT_EQ((*batch)->ToString(),
            "id: int64 not null\n"
            "name: string\n"
            "----\n"
            "id: [1, 2, 3]\n"
            "name: [\"a\", null, \"c\"]");
  auto sliced = (*batch)->Slice(1, 2);
  EXPECT_EQ(sliced->num_rows(), 2);
  auto expected = *RecordBatch::Make(s, 2, {Int64s({2, 3}, pool.get()), Strings({std::nullopt, "c"}, pool.get())});
  EXPECT_TRUE(sliced->Equals(*expected));
  EXPECT_FALSE((*batch)->Equals(*expected));
}

TEST(TableTest, FromRecordBatchesAndChunkInsensitiveEquality) {
  auto pool = MakeSystemMemoryPool();
  auto s = schema({field("x", int64())});
  auto b1 = *RecordBatch::Make(s, 2, {Int64s({1, 2}, pool.get())});
  auto b2 = *RecordBatch::Make(s, 3, {Int64s({3, std::nullopt, 5}, pool.get())});
  auto t1 = Table::FromRecordBatches(s, {b1, b2});
  ASSERT_TRUE(t1.ok());
  EXPECT_EQ((*t1)->num_rows(), 5);
  EXPECT_EQ((*t1)->column(0)->num_chunks(), 2);
  EXPECT_EQ((*t1)->column(0)->null_count(), 1);
  auto single = *RecordBatch::Make(s, 5, {Int64s({1, 2, 3, std::nullopt, 5}, pool.get())});
  auto t2 = *Table::FromRecordBatches(s, {single});
  EXPECT_TRUE((*t1)->Equals(*t2));
  auto other = *RecordBatch::Make(s, 5, {Int64s({1, 2, 3, 4, 5}, pool.get())});
  EXPECT_FALSE((*t1)->Equals(**Table::FromRecordBatches(s, {other})));
  EXPECT_EQ((*t1)->ToString(), "x: int64\n----\nx: [[1, 2], [3, null, 5]]");
  EXPECT_EQ((*t1)->GetColumnByName("x")->length(), 5);

  auto wrong = schema({field("y", int64())});
  EXPECT_TRUE(Table::FromRecordBatches(wrong, {b1}).status().IsInvalid());
  auto made = Table::Make(s, {std::make_shared<ChunkedArray>(int64(), std::vector<Array>{Int64s({1}, pool.get())})});
  ASSERT_TRUE(made.ok());
  EXPECT_EQ((*made)->num_rows(), 1);
  EXPECT_TRUE(Table::Make(s, {std::make_shared<ChunkedArray>(utf8(), std::vector<Array>{})}).status().IsInvalid());
  EXPECT_TRUE(ChunkedArray::Make(int64(), {Strings({"a"}, pool.get())}).status().IsInvalid());
}

}  // namespace
}  // namespace strata
