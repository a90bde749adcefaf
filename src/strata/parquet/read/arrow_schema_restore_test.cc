// ARROW:schema restoration (arrow_schema_restore.h) on files strata's writer makes: the writer
// stores the Arrow schema, the reader's Parquet schema lacks zones, durations and dictionaries,
// and the plan puts them back.
#include "strata/parquet/read/arrow_schema_restore.h"

#include <gtest/gtest.h>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

ArrayDataPtr Int64s(const TypePtr& type, const std::vector<int64_t>& values, MemoryPool* pool) {
  Int64Builder builder(type, pool);
  for (int64_t v : values) EXPECT_TRUE(builder.Append(v).ok());
  return *builder.Finish();
}

// A dictionary array: `indices` into `dictionary`.
ArrayDataPtr Dictionary(const TypePtr& type, const std::vector<int32_t>& indices, ArrayDataPtr dictionary,
                        MemoryPool* pool) {
  Int32Builder builder(int32(), pool);
  for (int32_t i : indices) EXPECT_TRUE(builder.Append(i).ok());
  ArrayDataPtr data = *builder.Finish();
  data->type = type;
  data->dictionary = std::move(dictionary);
  return data;
}

class ArrowSchemaRestoreTest : public ::testing::Test {
 protected:
  // One file of a zoned timestamp, a duration, a string dictionary and an int64 dictionary;
  // `store` says whether the writer keeps the ARROW:schema.
  std::unique_ptr<FileReader> Write(bool store) {
    StringBuilder words(utf8(), pool_);
    EXPECT_TRUE(words.Append("x").ok() && words.Append("y").ok());
    const TypePtr zoned = timestamp(strata::TimeUnit::kMicro, "Europe/Paris");
    const TypePtr elapsed = duration(strata::TimeUnit::kMilli);
    const TypePtr text = dictionary(int32(), utf8());
    const TypePtr numbers = dictionary(int32(), int64());
    auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
        field("at", zoned), field("took", elapsed), field("word", text), field("code", numbers)});
    std::vector<Array> columns = {Array(Int64s(zoned, {1, 2, 3}, pool_)), Array(Int64s(elapsed, {10, 20, 30}, pool_)),
                                  Array(Dictionary(text, {1, 0, 1}, *words.Finish(), pool_)),
                                  Array(Dictionary(numbers, {0, 1, 0}, Int64s(int64(), {70, 7}, pool_), pool_))};
    auto batch = std::make_shared<RecordBatch>(schema, 3, columns);
    WriterOptions options;
    options.file.store_arrow_schema = store;
    auto file = testing::WriteToBuffer(schema, {batch}, options, pool_);
    EXPECT_TRUE(file.ok()) << file.status().ToString();
    auto reader = testing::OpenBuffer(*file, pool_);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    return std::move(*reader);
  }

  MemoryPool* pool_ = SystemMemoryPool();
};

TEST_F(ArrowSchemaRestoreTest, RestoresZonesDurationsAndDictionaries) {
  std::unique_ptr<FileReader> file = Write(true);
  const std::vector<FieldRestore> plan = file->arrow_schema_restore();
  ASSERT_EQ(plan.size(), 4u);
  ASSERT_NE(plan[0].retype, nullptr);
  EXPECT_EQ(plan[0].retype->ToString(), "timestamp[us, tz=Europe/Paris]");
  ASSERT_NE(plan[1].retype, nullptr);
  EXPECT_EQ(plan[1].retype->id(), TypeId::kDuration);
  EXPECT_TRUE(plan[2].read_dictionary);
  EXPECT_TRUE(plan[3].encode);

  BatchReadOptions read;
  read.read_dictionary = true;
  read.dictionary_fields = {"word"};
  auto table = file->ReadTable(read);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  for (int i = 0; i < 4; ++i) {
    auto restored = RestoreColumn((*table)->column(i), plan[static_cast<size_t>(i)], pool_);
    ASSERT_TRUE(restored.ok()) << restored.status().ToString();
    EXPECT_TRUE((*restored)->type()->Equals(*plan[static_cast<size_t>(i)].retype)) << (*restored)->type()->ToString();
  }
  // The numbers' dictionary holds the distinct values in ascending order.
  auto code = RestoreColumn((*table)->column(3), plan[3], pool_);
  ASSERT_TRUE(code.ok());
  const Array& chunk = (*code)->chunks()[0];
  Int64Array dictionary(chunk.data()->dictionary);
  ASSERT_EQ(dictionary.length(), 2);
  EXPECT_EQ(dictionary.Value(0), 7);
  EXPECT_EQ(dictionary.Value(1), 70);
  Int32Array indices(chunk.data());
  EXPECT_EQ(indices.Value(0), 1);
  EXPECT_EQ(indices.Value(1), 0);
}

TEST_F(ArrowSchemaRestoreTest, WithoutArrowSchemaTheStorageTypesStand) {
  std::unique_ptr<FileReader> file = Write(false);
  const std::vector<FieldRestore> plan = file->arrow_schema_restore();
  ASSERT_EQ(plan.size(), 4u);
  for (const FieldRestore& r : plan) {
    EXPECT_EQ(r.retype, nullptr);
    EXPECT_FALSE(r.read_dictionary || r.encode);
  }
  EXPECT_EQ(file->schema()->field(1)->type()->ToString(), "int64");
}

}  // namespace
}  // namespace strata::parquet
