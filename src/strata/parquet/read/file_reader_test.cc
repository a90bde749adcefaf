#include "strata/parquet/read/file_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "strata/memory/memory_scope.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

std::unique_ptr<FileReader> Open(const std::string& relative, MemoryPool* pool) {
  auto reader = FileReader::OpenFile(strata::testing::ParquetTestingFile(relative), pool);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(*reader) : nullptr;
}

TEST(FileReaderTest, AllTypesPlainValues) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto reader = Open("data/alltypes_plain.parquet", pool.get());
  ASSERT_NE(reader, nullptr);
  auto table = reader->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ((*table)->num_rows(), 8);
  const auto& ids = *(*table)->column(0)->chunk(0).data();
  const int32_t expected_ids[] = {4, 5, 6, 7, 2, 3, 0, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(ids.buffers[1]->data_as<int32_t>()[i], expected_ids[i]);
  const auto& strings = *(*table)->column(9)->chunk(0).data();  // string_col: "0", "1", ...
  const auto* offsets = strings.buffers[1]->data_as<int32_t>();
  EXPECT_EQ(std::string(strings.buffers[2]->view().substr(offsets[0], offsets[1] - offsets[0])), "0");
  EXPECT_EQ(std::string(strings.buffers[2]->view().substr(offsets[1], offsets[2] - offsets[1])), "1");
  table = decltype(table)(Status::Invalid("released"));
  reader.reset();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(FileReaderTest, NullsAndBatchesSplitPages) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto reader = Open("data/alltypes_tiny_pages.parquet", pool.get());
  ASSERT_NE(reader, nullptr);
  BatchReadOptions options;
  options.batch_rows = 333;  // never aligned with the file's tiny pages
  auto whole = reader->ReadTable();
  auto batched = reader->ReadTable(options);
  ASSERT_TRUE(whole.ok() && batched.ok());
  EXPECT_TRUE((*whole)->Equals(**batched));
}

// In steady state a batch allocates only its output buffers: page, level, index and
// decompression scratch are reused from batch to batch.
TEST(FileReaderTest, SteadyStateAllocatesOnlyOutputs) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto reader = Open("data/alltypes_tiny_pages.parquet", pool.get());
  ASSERT_NE(reader, nullptr);
  BatchReadOptions options;
  options.batch_rows = 500;
  auto batches = *reader->ReadBatches(options);
  ASSERT_TRUE(batches->Next().ok());  // warm-up: opens the row group, sizes scratch
  ASSERT_TRUE(batches->Next().ok());
  const int columns = batches->schema()->num_fields();
  for (int i = 0; i < 4; ++i) {
    MemoryScope scope(pool.get());
    auto batch = batches->Next();
    ASSERT_TRUE(batch.ok() && *batch);
    // At most validity + values + data per column, each allocated once, never grown.
    EXPECT_LE(scope.delta().num_allocations, 3 * columns) << "batch " << i;
    EXPECT_EQ(scope.delta().num_reallocations, 0) << "batch " << i;
  }
}

TEST(FileReaderTest, ChecksumsAreVerified) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto reader = Open("data/datapage_v1-corrupt-checksum.parquet", pool.get());
  ASSERT_NE(reader, nullptr);
  auto table = reader->ReadTable();
  ASSERT_FALSE(table.ok());
  EXPECT_TRUE(table.status().IsChecksumError()) << table.status().ToString();
  EXPECT_NE(table.status().message().find("datapage_v1-corrupt-checksum.parquet"), std::string::npos);

  FileReaderOptions no_verify;
  no_verify.pages.verify_checksums = false;
  auto lenient = *FileReader::OpenFile(strata::testing::ParquetTestingFile("data/datapage_v1-corrupt-checksum.parquet"),
                                       pool.get(), no_verify);
  EXPECT_TRUE(lenient->ReadTable().ok());
}

// Every file reads, or fails with a clear error; nothing crashes and nothing leaks.
TEST(FileReaderTest, EveryTestingFileReadsOrFailsClearly) {
  STRATA_REQUIRE_PARQUET_TESTING();
  int read = 0;
  for (const char* folder : {"data", "bad_data"}) {
    for (const auto& entry : std::filesystem::directory_iterator(strata::testing::ParquetTestingFile(folder))) {
      if (entry.path().extension() != ".parquet") continue;
      auto pool = MakeSystemMemoryPool();
      {
        auto reader = FileReader::OpenFile(entry.path().string(), pool.get());
        if (!reader.ok()) {
          EXPECT_FALSE(reader.status().message().empty()) << entry.path();
          continue;
        }
        auto table = (*reader)->ReadTable();
        if (table.ok()) {
          ++read;
        } else {
          EXPECT_NE(table.status().message().find(entry.path().filename().string()), std::string::npos)
              << table.status().ToString();
        }
      }
      EXPECT_EQ(pool->bytes_in_use(), 0) << entry.path();
    }
  }
  EXPECT_GE(read, 35);
}

// FileReaderOptions::columns: the footer keeps only the named columns' chunks, and what is read
// from them equals a full open's values.
TEST(FileReaderTest, OpenedForSomeColumnsDecodesOnlyTheirMetadata) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  const std::string path = strata::testing::ParquetTestingFile("data/alltypes_tiny_pages.parquet");
  auto full = FileReader::OpenFile(path, pool.get());
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  FileReaderOptions options;
  options.columns = {"string_col", "id", "no_such_column"};
  auto some = FileReader::OpenFile(path, pool.get(), options);
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  const FileReader& reader = **some;
  const int id = reader.descriptor().FieldIndex("id");
  const int strings = reader.descriptor().FieldIndex("string_col");
  const int bools = reader.descriptor().FieldIndex("bool_col");
  ASSERT_TRUE(id >= 0 && strings >= 0 && bools >= 0);
  ASSERT_TRUE(reader.metadata().selected_columns.has_value());
  EXPECT_EQ(*reader.metadata().selected_columns,
            (std::vector<int>{reader.descriptor().field_first_column(id), reader.descriptor().field_first_column(strings)}));
  EXPECT_EQ(reader.schema()->num_fields(), (*full)->schema()->num_fields());  // the schema stays whole
  EXPECT_LT(reader.footer().metadata_charge.bytes(), (*full)->footer().metadata_charge.bytes() / 2);  // 2 of 13 chunks
  EXPECT_TRUE(reader.has_field_metadata(id));
  EXPECT_FALSE(reader.has_field_metadata(bools));

  // Unnamed fields: the selected ones, as a full open reads them.
  auto selected = (*some)->ReadTable();
  ASSERT_TRUE(selected.ok()) << selected.status().ToString();
  ASSERT_EQ((*selected)->num_columns(), 2);
  BatchReadOptions both;
  both.columns = {id, strings};
  auto expected = (*full)->ReadTable(both);
  ASSERT_TRUE(expected.ok());
  EXPECT_TRUE((*selected)->Equals(**expected));
  // The page index of a selected column reads; a column left out fails naming itself.
  auto index = reader.ReadColumnIndex(0, reader.descriptor().field_first_column(id));
  ASSERT_TRUE(index.ok()) << index.status().ToString();
  EXPECT_TRUE(index->has_value());
  BatchReadOptions other;
  other.columns = {bools};
  auto refused = (*some)->ReadBatches(other);
  ASSERT_TRUE(refused.status().IsInvalid());
  EXPECT_NE(refused.status().message().find("'bool_col' was not among the columns"), std::string::npos)
      << refused.status().ToString();
  auto location = reader.ChunkLocation(0, reader.descriptor().field_first_column(bools));
  ASSERT_TRUE(location.status().IsInvalid());
  EXPECT_NE(location.status().message().find("bool_col"), std::string::npos) << location.status().ToString();
}

// Nested fields select all their leaves by the top-level name, or one leaf by its dotted path.
TEST(FileReaderTest, OpenedForNestedColumnsReadsThemWhole) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  const std::string path = strata::testing::ParquetTestingFile("data/nonnullable.impala.parquet");
  auto full = FileReader::OpenFile(path, pool.get());
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  const int nested = (*full)->descriptor().FieldIndex("nested_Struct");
  const int map = (*full)->descriptor().FieldIndex("Int_Map");
  ASSERT_TRUE(nested >= 0 && map >= 0);
  FileReaderOptions options;
  options.columns = {"Int_Map", "nested_Struct"};
  auto some = FileReader::OpenFile(path, pool.get(), options);
  ASSERT_TRUE(some.ok()) << some.status().ToString();
  EXPECT_EQ(static_cast<int>((*some)->metadata().selected_columns->size()),
            (*full)->descriptor().field_num_columns(nested) + (*full)->descriptor().field_num_columns(map));
  BatchReadOptions read;
  read.columns = {map, nested};
  auto got = (*some)->ReadTable(read);
  auto expected = (*full)->ReadTable(read);
  ASSERT_TRUE(got.ok() && expected.ok()) << got.status().ToString();
  EXPECT_TRUE((*got)->Equals(**expected));

  options.columns = {"nested_Struct.a"};  // one leaf of the struct: the struct is not whole
  auto leaf = FileReader::OpenFile(path, pool.get(), options);
  ASSERT_TRUE(leaf.ok()) << leaf.status().ToString();
  EXPECT_EQ((*leaf)->metadata().selected_columns->size(), 1u);
  EXPECT_FALSE((*leaf)->has_field_metadata(nested));
  EXPECT_TRUE((*leaf)->ReadBatches(read).status().IsInvalid());
}

TEST(FileReaderTest, BadOptionsAreInvalid) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto reader = Open("data/alltypes_plain.parquet", pool.get());
  BatchReadOptions options;
  options.batch_rows = 0;
  EXPECT_TRUE(reader->ReadBatches(options).status().IsInvalid());
  options.batch_rows = 10;
  options.columns = {99};
  EXPECT_TRUE(reader->ReadBatches(options).status().IsInvalid());
  options.columns = {};
  options.row_groups = {5};
  EXPECT_TRUE(reader->ReadBatches(options).status().IsInvalid());
}

}  // namespace
}  // namespace strata::parquet

namespace strata::parquet {
namespace {

// Pre-buffering reads the same values, and releases every row group's ranges as it goes.
TEST(FileReaderTest, PreBufferedReadsEqualDirectReads) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (const char* file : {"data/alltypes_tiny_pages.parquet", "data/nested_lists.snappy.parquet",
                           "data/alltypes_plain.snappy.parquet"}) {
    auto pool = MakeSystemMemoryPool();
    {
      FileReaderOptions buffered;
      buffered.pre_buffer = true;
      auto direct = *FileReader::OpenFile(strata::testing::ParquetTestingFile(file), pool.get());
      auto cached = *FileReader::OpenFile(strata::testing::ParquetTestingFile(file), pool.get(), buffered);
      auto a = direct->ReadTable();
      auto b = cached->ReadTable();
      ASSERT_TRUE(a.ok() && b.ok()) << file;
      EXPECT_TRUE((*a)->Equals(**b)) << file;
    }
    EXPECT_EQ(pool->bytes_in_use(), 0) << file;
  }
}

}  // namespace
}  // namespace strata::parquet

namespace strata::parquet {
namespace {

TEST(FileReaderTest, Utf8ValidationOnRequest) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  // Valid strings pass with validation on.
  auto reader = *FileReader::OpenFile(strata::testing::ParquetTestingFile("data/delta_length_byte_array.parquet"),
                                      pool.get());
  BatchReadOptions options;
  options.validate_utf8 = true;
  auto table = reader->ReadTable(options);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_GT((*table)->num_rows(), 0);
}

}  // namespace
}  // namespace strata::parquet
