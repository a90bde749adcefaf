// A string batch never passes 2 GiB with 32-bit offsets: it is cut short, the value that did
// not fit opens the next batch, and the other columns carry their extra rows over, so every
// batch stays consistent. Needs ~5 GB of memory and disk for a moment: labelled slow.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"

namespace strata::parquet {
namespace {

// A file of this test in the temporary folder, by name and process.
std::string TempFilePath(const std::string& stem) {
  return (std::filesystem::temp_directory_path() / (stem + "_" + std::to_string(::getpid()) + ".parquet")).string();
}

// Value `i` of `blob` (binary with `OffsetT` offsets) is `bytes` bytes of `fill`: its length,
// its first and its last byte.
template <typename OffsetT>
void ExpectBlob(const ArrayData& blob, int64_t i, int64_t bytes, int fill) {
  const auto* offsets = blob.buffers[1]->data_as<OffsetT>() + blob.offset;
  ASSERT_EQ(offsets[i + 1] - offsets[i], bytes);
  EXPECT_EQ(blob.buffers[2]->data()[offsets[i]], fill);
  EXPECT_EQ(blob.buffers[2]->data()[offsets[i + 1] - 1], fill);
}

testing::ColumnOptions IdColumn() {
  testing::ColumnOptions ids;
  ids.name = "id";
  ids.physical_type = PhysicalType::kInt64;
  return ids;
}

TEST(LargeValuesTest, BatchesAreCutBeforeTwoGiB) {
  constexpr int64_t kValueBytes = 750LL << 20;  // three of these pass 2 GiB
  constexpr int kValues = 3;
  const std::string path = TempFilePath("strata_large_values");
  {
    const testing::ColumnOptions ids = IdColumn();
    testing::ColumnOptions blobs;
    blobs.name = "blob";
    blobs.physical_type = PhysicalType::kByteArray;
    blobs.optional = false;
    blobs.rows_per_page = 1;
    testing::ColumnValues id_values = testing::ColumnValues::Int64s({10, 11, 12});
    testing::ColumnValues blob_values(PhysicalType::kByteArray);
    blob_values.Reserve(kValues, kValues * kValueBytes);
    for (int i = 0; i < kValues; ++i) blob_values.AppendBytes(std::string(static_cast<size_t>(kValueBytes), static_cast<char>('a' + i)));
    auto builder = testing::TestFileBuilder::MakeForFile({ids, blobs}, path);
    ASSERT_TRUE(builder.ok()) << builder.status().ToString();
    ASSERT_TRUE((*builder)->AddRowGroup({id_values, blob_values}).ok());
    ASSERT_TRUE((*builder)->Finish().ok());
  }
  auto pool = MakeSystemMemoryPool();
  {
    auto reader = FileReader::OpenFile(path, pool.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    BatchReadOptions options;
    options.batch_rows = kValues;
    auto batches = *(*reader)->ReadBatches(options);
    std::vector<int64_t> lengths;
    int64_t row = 0;
    while (true) {
      auto batch = batches->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!*batch) break;
      lengths.push_back((*batch)->num_rows());
      const auto& id = *(*batch)->column(0).data();
      const auto& blob = *(*batch)->column(1).data();
      for (int64_t i = 0; i < (*batch)->num_rows(); ++i, ++row) {
        EXPECT_EQ(id.buffers[1]->data_as<int64_t>()[id.offset + i], 10 + row);
        ExpectBlob<int32_t>(blob, i, kValueBytes, static_cast<int>('a' + row));
      }
    }
    EXPECT_EQ(row, kValues);
    EXPECT_EQ(lengths, (std::vector<int64_t>{2, 1}));

    // With 64-bit offsets nothing needs cutting.
    options.large_binary = true;
    auto table = (*reader)->ReadTable(options);
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    EXPECT_EQ((*table)->column(1)->num_chunks(), 1);
  }
  std::remove(path.c_str());
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// A nested batch's leaves must end at one row, so it cannot be cut inside one: a list whose
// values pass 2 GiB in one row group reads with 64-bit offsets, chosen from the chunk's metadata
// (here its uncompressed size: the file has no SizeStatistics), without large_binary. Its
// pages of 1.1 GB read too: no fixed page limit below the format's 2 GiB refuses them.
TEST(LargeValuesTest, NestedValuesPastTwoGiBTakeLargeOffsets) {
  constexpr int64_t kValueBytes = 1100LL << 20;  // two of these pass 2 GiB
  const std::string path = TempFilePath("strata_large_lists");
  {
    testing::ColumnOptions blobs;
    blobs.name = "blobs";
    blobs.physical_type = PhysicalType::kByteArray;
    blobs.list = true;
    blobs.rows_per_page = 1;  // entries: the row's second value opens the second page
    testing::ColumnValues values(PhysicalType::kByteArray);
    values.Reserve(2, 2 * kValueBytes);
    for (int i = 0; i < 2; ++i) values.AppendBytes(std::string(static_cast<size_t>(kValueBytes), static_cast<char>('a' + i)));
    values.SetListLevels({0, 1}, {3, 3});
    auto builder = testing::TestFileBuilder::MakeForFile({blobs}, path);
    ASSERT_TRUE(builder.ok()) << builder.status().ToString();
    auto added = (*builder)->AddRowGroup({values});
    ASSERT_TRUE(added.ok()) << added.ToString();
    ASSERT_TRUE((*builder)->Finish().ok());
  }
  auto pool = MakeSystemMemoryPool();
  {
    auto reader = FileReader::OpenFile(path, pool.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    ASSERT_EQ((*table)->schema()->field(0)->type()->ToString(), "list<element: large_binary>");
    ASSERT_EQ((*table)->num_rows(), 1);
    const auto& blob = *(*table)->column(0)->chunk(0).data()->children[0];
    ASSERT_EQ(blob.length, 2);
    for (int i = 0; i < 2; ++i) ExpectBlob<int64_t>(blob, i, kValueBytes, 'a' + i);
  }
  std::remove(path.c_str());
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// A dictionary-encoded list chunk without SizeStatistics is small on disk (its metadata says
// nothing of 2 GiB) but expands past 2 GiB: it keeps 32-bit offsets, and its batch ends at the
// last row that fits; the flat column beside it carries its extra row over.
TEST(LargeValuesTest, NestedDictionaryValuesPastTwoGiBEndTheBatchEarly) {
  constexpr int64_t kValueBytes = 430LL << 20;  // four fit under 2 GiB, five do not
  constexpr int kRows = 5;
  const std::string path = TempFilePath("strata_large_dictionary");
  {
    const testing::ColumnOptions ids = IdColumn();
    testing::ColumnOptions blobs;
    blobs.name = "blobs";
    blobs.physical_type = PhysicalType::kByteArray;
    blobs.list = true;
    blobs.encoding = Encoding::kRleDictionary;  // two distinct values: an 860 MB dictionary page
    testing::ColumnValues values(PhysicalType::kByteArray);
    values.Reserve(kRows, kRows * kValueBytes);
    for (int i = 0; i < kRows; ++i) values.AppendBytes(std::string(static_cast<size_t>(kValueBytes), static_cast<char>('a' + i % 2)));
    values.SetListLevels(std::vector<int16_t>(kRows, 0), std::vector<int16_t>(kRows, 3));
    auto builder = testing::TestFileBuilder::MakeForFile({ids, blobs}, path);
    ASSERT_TRUE(builder.ok()) << builder.status().ToString();
    auto added = (*builder)->AddRowGroup({testing::ColumnValues::Int64s({10, 11, 12, 13, 14}), values});
    ASSERT_TRUE(added.ok()) << added.ToString();
    ASSERT_TRUE((*builder)->Finish().ok());
  }
  auto pool = MakeSystemMemoryPool();
  {
    auto reader = FileReader::OpenFile(path, pool.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    const ColumnMetaData& meta = *(*reader)->metadata().row_groups[0].columns[1].meta_data;
    ASSERT_FALSE(meta.size_statistics.has_value());
    ASSERT_LT(meta.total_uncompressed_size, int64_t{1} << 31);
    auto batches = *(*reader)->ReadBatches({});
    ASSERT_EQ(batches->schema()->field(1)->type()->ToString(), "list<element: binary>");
    std::vector<int64_t> lengths;
    int64_t row = 0;
    while (true) {
      auto batch = batches->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (!*batch) break;
      lengths.push_back((*batch)->num_rows());
      const auto& id = *(*batch)->column(0).data();
      const auto& lists = *(*batch)->column(1).data();
      const auto& blob = *lists.children[0];
      const auto* list_offsets = lists.buffers[1]->data_as<int32_t>() + lists.offset;
      for (int64_t i = 0; i < (*batch)->num_rows(); ++i, ++row) {
        EXPECT_EQ(id.buffers[1]->data_as<int64_t>()[id.offset + i], 10 + row);
        ASSERT_EQ(list_offsets[i + 1] - list_offsets[i], 1);
        ExpectBlob<int32_t>(blob, list_offsets[i], kValueBytes, static_cast<int>('a' + row % 2));
      }
    }
    EXPECT_EQ(row, kRows);
    EXPECT_EQ(lengths, (std::vector<int64_t>{4, 1}));
  }
  std::remove(path.c_str());
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::parquet
