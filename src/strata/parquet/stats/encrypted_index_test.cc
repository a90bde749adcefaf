// The encrypted paths of the page index and Bloom filter readers on synthetic files: modules
// made here with EncryptModule under the AADs Encryption.md gives them, read back through
// ReadOffsetIndex / ReadColumnIndex / BloomFilter::Read with a ColumnDecryption. Hostile
// lengths are refused before anything is allocated for them. (Files written by Arrow C++ and
// parquet-mr: parquet/encrypted_files_test.cc.)
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "strata/io/random_access_source.h"
#include "strata/parquet/encryption/file_decryptor.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/stats/page_index.h"

namespace strata::parquet {
namespace {

using encryption::CipherMode;
using encryption::ModuleType;

const std::string kKey = "1234567890123450";
const std::string kFileUnique = "synthetic-file-1";
constexpr int64_t kRowGroup = 3;  // ordinals other than 0, so a mix-up shows
constexpr int64_t kColumn = 2;

// A file of: 64 bytes of filler, the offset index module, the column index module, the Bloom
// filter's header and bitset modules. Offsets and lengths are recorded in `chunk`.
struct SyntheticFile {
  std::string bytes;
  ColumnChunk chunk;
  std::shared_ptr<const encryption::FileDecryptor> decryptor;
  ColumnDecryption decryption;
  int64_t bloom_header_module_bytes = 0;

  std::shared_ptr<RandomAccessSource> Source() const {
    auto buffer = std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                           static_cast<int64_t>(bytes.size()));
    return MakeBufferSource(buffer, "synthetic.parquet.encrypted");
  }
};

std::string Encrypt(const std::string& plaintext, ModuleType type) {
  auto aad = encryption::ModuleAad(kFileUnique, type, kRowGroup, kColumn);
  EXPECT_TRUE(aad.ok());
  ResizableBuffer out(SystemMemoryPool());
  Status st = encryption::EncryptModule(CipherMode::kGcm, kKey, *aad,
                                        {reinterpret_cast<const uint8_t*>(plaintext.data()), plaintext.size()}, &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size()));
}

SyntheticFile MakeFile() {
  SyntheticFile file;
  file.bytes.assign(64, 'x');
  file.chunk.meta_data.emplace();
  file.chunk.meta_data->path_in_schema = {"values"};

  OffsetIndex offset_index;
  offset_index.page_locations = {{4, 20, 0}, {24, 20, 100}, {44, 20, 250}};
  std::string plaintext;
  SerializeOffsetIndex(offset_index, &plaintext);
  std::string module = Encrypt(plaintext, ModuleType::kOffsetIndex);
  file.chunk.offset_index_offset = static_cast<int64_t>(file.bytes.size());
  file.chunk.offset_index_length = static_cast<int32_t>(module.size());
  file.bytes += module;

  ColumnIndex column_index;
  column_index.null_pages = {false, true, false};
  column_index.min_values = {"a", "", "m"};
  column_index.max_values = {"k", "", "z"};
  column_index.null_counts = std::vector<int64_t>{0, 100, 1};
  plaintext.clear();
  SerializeColumnIndex(column_index, &plaintext);
  module = Encrypt(plaintext, ModuleType::kColumnIndex);
  file.chunk.column_index_offset = static_cast<int64_t>(file.bytes.size());
  file.chunk.column_index_length = static_cast<int32_t>(module.size());
  file.bytes += module;

  auto filter = BloomFilter::Make(SystemMemoryPool(), 64);
  EXPECT_TRUE(filter.ok());
  for (int64_t v : {7, 42, 1000}) (*filter)->InsertHash(BloomFilter::HashInt64(v));
  ResizableBuffer serialized(SystemMemoryPool());
  EXPECT_TRUE((*filter)->WriteTo(&serialized).ok());
  const auto header_bytes = static_cast<size_t>(serialized.size() - 64);
  const std::string all(reinterpret_cast<const char*>(serialized.data()), static_cast<size_t>(serialized.size()));
  const std::string header_module = Encrypt(all.substr(0, header_bytes), ModuleType::kBloomFilterHeader);
  const std::string bitset_module = Encrypt(all.substr(header_bytes), ModuleType::kBloomFilterBitset);
  file.chunk.meta_data->bloom_filter_offset = static_cast<int64_t>(file.bytes.size());
  file.chunk.meta_data->bloom_filter_length = static_cast<int32_t>(header_module.size() + bitset_module.size());
  file.bloom_header_module_bytes = static_cast<int64_t>(header_module.size());
  file.bytes += header_module + bitset_module;
  file.bytes += "tail";

  encryption::EncryptionParameters parameters;
  parameters.algorithm_name = "AES_GCM_V1";
  parameters.aad_file_unique = kFileUnique;
  FileDecryptionOptions options;
  options.column_keys["values"] = kKey;
  auto decryptor = encryption::FileDecryptor::Make(parameters, options, "synthetic.parquet.encrypted");
  EXPECT_TRUE(decryptor.ok()) << decryptor.status().ToString();
  file.decryptor = *decryptor;
  file.decryption.decryptor = file.decryptor;
  file.decryption.key = kKey;
  file.decryption.row_group_ordinal = kRowGroup;
  file.decryption.column_ordinal = kColumn;
  file.decryption.column_path = "values";
  return file;
}

TEST(EncryptedIndexReadTest, IndexesAndFilterDecryptToWhatWasWritten) {
  const SyntheticFile file = MakeFile();
  auto source = file.Source();
  auto offset_index = ReadOffsetIndex(*source, file.chunk, SystemMemoryPool(), &file.decryption);
  ASSERT_TRUE(offset_index.ok()) << offset_index.status().ToString();
  ASSERT_TRUE(offset_index->has_value());
  ASSERT_EQ((*offset_index)->page_locations.size(), 3u);
  EXPECT_EQ((*offset_index)->page_locations[2].first_row_index, 250);
  EXPECT_EQ((*offset_index)->page_locations[1].offset, 24);

  auto column_index = ReadColumnIndex(*source, file.chunk, SystemMemoryPool(), &file.decryption);
  ASSERT_TRUE(column_index.ok()) << column_index.status().ToString();
  ASSERT_TRUE(column_index->has_value());
  EXPECT_EQ((*column_index)->null_pages, (std::vector<bool>{false, true, false}));
  EXPECT_EQ((*column_index)->max_values[2], "z");

  auto pool = MakeSystemMemoryPool();
  const ColumnMetaData& meta = *file.chunk.meta_data;
  auto filter = BloomFilter::Read(*source, *meta.bloom_filter_offset, meta.bloom_filter_length, pool.get(),
                                  &file.decryption);
  ASSERT_TRUE(filter.ok()) << filter.status().ToString();
  EXPECT_EQ((*filter)->num_bytes(), 64);
  for (int64_t v : {7, 42, 1000}) EXPECT_TRUE((*filter)->FindHash(BloomFilter::HashInt64(v))) << v;
  int absent = 0;
  for (int64_t v = 2000; v < 2100; ++v) absent += !(*filter)->FindHash(BloomFilter::HashInt64(v));
  EXPECT_GT(absent, 50);
  // Without a length (older writers), the file's end bounds the two modules.
  auto unbounded = BloomFilter::Read(*source, *meta.bloom_filter_offset, std::nullopt, pool.get(), &file.decryption);
  ASSERT_TRUE(unbounded.ok()) << unbounded.status().ToString();
  EXPECT_TRUE((*unbounded)->FindHash(BloomFilter::HashInt64(42)));
}

TEST(EncryptedIndexReadTest, AnotherColumnsOrdinalFailsAuthentication) {
  const SyntheticFile file = MakeFile();
  auto source = file.Source();
  ColumnDecryption other = file.decryption;
  other.column_ordinal = kColumn + 1;
  auto offset_index = ReadOffsetIndex(*source, file.chunk, SystemMemoryPool(), &other);
  ASSERT_FALSE(offset_index.ok());
  const std::string message = offset_index.status().ToString();
  EXPECT_TRUE(offset_index.status().IsCorrupt()) << message;
  EXPECT_NE(message.find("authentication failed"), std::string::npos) << message;
  EXPECT_NE(message.find("offset index at offset 64"), std::string::npos) << message;
  EXPECT_NE(message.find("column 'values'"), std::string::npos) << message;
  EXPECT_NE(message.find("synthetic.parquet.encrypted"), std::string::npos) << message;
  // The index types differ in their AAD: a column index module is not an offset index.
  ColumnChunk swapped = file.chunk;
  swapped.offset_index_offset = file.chunk.column_index_offset;
  swapped.offset_index_length = file.chunk.column_index_length;
  EXPECT_FALSE(ReadOffsetIndex(*source, swapped, SystemMemoryPool(), &file.decryption).ok());
}

TEST(EncryptedIndexReadTest, AModuleLengthThatDisagreesWithTheFooterIsRefused) {
  SyntheticFile file = MakeFile();
  auto source = file.Source();
  ColumnChunk longer = file.chunk;
  *longer.offset_index_length += 1;  // still inside the file, but not the module's length
  auto read = ReadOffsetIndex(*source, longer, SystemMemoryPool(), &file.decryption);
  ASSERT_FALSE(read.ok());
  const std::string expected = "the module declares " + std::to_string(*file.chunk.offset_index_length) +
                               " bytes (with its length field), the footer " +
                               std::to_string(*longer.offset_index_length);
  EXPECT_NE(read.status().message().find(expected), std::string::npos) << read.status().ToString();
  ColumnChunk tiny = file.chunk;
  tiny.column_index_length = 10;  // less than a nonce and a tag
  read = ReadOffsetIndex(*source, file.chunk, SystemMemoryPool(), &file.decryption);
  ASSERT_TRUE(read.ok());
  auto column_index = ReadColumnIndex(*source, tiny, SystemMemoryPool(), &file.decryption);
  ASSERT_FALSE(column_index.ok());
  EXPECT_NE(column_index.status().message().find("cannot hold an encrypted module"), std::string::npos)
      << column_index.status().ToString();
}

// A Bloom filter header module whose length field claims 2 GiB, or a header (authentic, so
// the writer's) that claims a 64 MiB bitset in a small file: Corrupt, with nothing allocated
// for the claimed sizes.
TEST(EncryptedIndexReadTest, HostileBloomFilterLengthsAreRefusedBeforeAllocating) {
  SyntheticFile file = MakeFile();
  const int64_t bloom_offset = *file.chunk.meta_data->bloom_filter_offset;
  std::string bytes = file.bytes;
  bytes[static_cast<size_t>(bloom_offset) + 3] = 0x7f;
  auto buffer = std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int64_t>(bytes.size()));
  auto source = MakeBufferSource(buffer, "hostile.parquet.encrypted");
  auto pool = MakeSystemMemoryPool();
  auto filter = BloomFilter::Read(*source, bloom_offset, std::nullopt, pool.get(), &file.decryption);
  ASSERT_FALSE(filter.ok());
  EXPECT_TRUE(filter.status().IsCorrupt()) << filter.status().ToString();
  EXPECT_NE(filter.status().message().find("Bloom filter header of column 'values'"), std::string::npos)
      << filter.status().ToString();
  EXPECT_LT(pool->peak_bytes(), 4096);

  // An authentic header promising 64 MiB.
  BloomFilterHeader header;
  header.num_bytes = 64 << 20;
  std::string plaintext;
  SerializeBloomFilterHeader(header, &plaintext);
  std::string big = file.bytes.substr(0, static_cast<size_t>(bloom_offset)) + Encrypt(plaintext, ModuleType::kBloomFilterHeader);
  big += std::string(200, '\0');
  auto big_buffer = std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(big.data()), static_cast<int64_t>(big.size()));
  auto big_source = MakeBufferSource(big_buffer, "big.parquet.encrypted");
  pool->ResetPeak();
  filter = BloomFilter::Read(*big_source, bloom_offset, std::nullopt, pool.get(), &file.decryption);
  ASSERT_FALSE(filter.ok());
  EXPECT_TRUE(filter.status().IsCorrupt()) << filter.status().ToString();
  EXPECT_NE(filter.status().message().find("do not fit"), std::string::npos) << filter.status().ToString();
  EXPECT_LT(pool->peak_bytes(), 4096);

  // bloom_filter_length cutting the bitset module short.
  const ColumnMetaData& meta = *file.chunk.meta_data;
  filter = BloomFilter::Read(*file.Source(), bloom_offset, *meta.bloom_filter_length - 1, pool.get(), &file.decryption);
  ASSERT_FALSE(filter.ok());
  EXPECT_NE(filter.status().message().find("of bloom_filter_length"), std::string::npos) << filter.status().ToString();
  // ...or the header module itself.
  filter = BloomFilter::Read(*file.Source(), bloom_offset, static_cast<int32_t>(file.bloom_header_module_bytes - 1),
                             pool.get(), &file.decryption);
  ASSERT_FALSE(filter.ok());
  EXPECT_NE(filter.status().message().find("not within"), std::string::npos) << filter.status().ToString();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::parquet
