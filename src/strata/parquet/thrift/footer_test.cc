#include "strata/parquet/thrift/footer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>
#include <random>

#include "strata/parquet/thrift/heap_bytes.h"
#include "strata/testing/test_data.h"

// Records the largest single heap allocation, so tests can show that hostile or truncated
// footers never make the decoder reserve memory out of proportion to the input.
namespace {
std::atomic<size_t> g_largest_allocation{0};
}  // namespace

// GCC cannot see that these new/delete replacements pair malloc with free.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(size_t size) {
  size_t seen = g_largest_allocation.load(std::memory_order_relaxed);
  while (size > seen && !g_largest_allocation.compare_exchange_weak(seen, size)) {
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace strata::parquet {
namespace {

namespace fs = std::filesystem;

std::string ReadWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::shared_ptr<RandomAccessSource> SourceOf(std::shared_ptr<std::string> bytes, std::string name) {
  auto buffer = std::make_shared<Buffer>(*bytes);
  // Keep the string alive with the buffer: a slice whose parent owns nothing, plus a holder.
  struct Holder : Buffer {
    explicit Holder(std::shared_ptr<std::string> s) : Buffer(*s), bytes(std::move(s)) {}
    std::shared_ptr<std::string> bytes;
  };
  return MakeBufferSource(std::make_shared<Holder>(std::move(bytes)), std::move(name));
}

Result<FileFooter> ReadFooterOfFile(const std::string& path, MemoryPool* pool, const FooterReadOptions& options = {}) {
  STRATA_ASSIGN_OR_RETURN(auto source, OpenLocalFile(path));
  return ReadFooter(*source, pool, options);
}

// Leaf columns' names in schema order (depth-first, leaves are elements without children).
std::vector<std::string> LeafNames(const FileMetaData& md) {
  std::vector<std::string> names;
  for (size_t i = 1; i < md.schema.size(); ++i) {
    if (md.schema[i].num_children.value_or(0) == 0) names.push_back(md.schema[i].name);
  }
  return names;
}

TEST(FooterTest, AlltypesPlainMatchesTheDocumentedContents) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto footer = ReadFooterOfFile(testing::ParquetTestingFile("data/alltypes_plain.parquet"), pool.get());
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  const FileMetaData& md = footer->metadata;
  EXPECT_EQ(md.num_rows, 8);
  ASSERT_EQ(md.row_groups.size(), 1u);
  ASSERT_EQ(md.row_groups[0].columns.size(), 11u);
  EXPECT_EQ(LeafNames(md), (std::vector<std::string>{"id", "bool_col", "tinyint_col", "smallint_col", "int_col",
                                                      "bigint_col", "float_col", "double_col", "date_string_col",
                                                      "string_col", "timestamp_col"}));
  const PhysicalType expected[] = {PhysicalType::kInt32,  PhysicalType::kBoolean,   PhysicalType::kInt32,
                                   PhysicalType::kInt32,  PhysicalType::kInt32,     PhysicalType::kInt64,
                                   PhysicalType::kFloat,  PhysicalType::kDouble,    PhysicalType::kByteArray,
                                   PhysicalType::kByteArray, PhysicalType::kInt96};
  for (size_t c = 0; c < 11; ++c) {
    const ColumnChunk& chunk = md.row_groups[0].columns[c];
    ASSERT_TRUE(chunk.meta_data.has_value());
    EXPECT_EQ(chunk.meta_data->type, expected[c]) << c;
    EXPECT_EQ(chunk.meta_data->codec, CompressionCodec::kUncompressed);
    EXPECT_EQ(chunk.meta_data->num_values, 8);
    EXPECT_EQ(chunk.meta_data->path_in_schema, std::vector<std::string>{LeafNames(md)[c]});
  }
  EXPECT_EQ(footer->reads, 1);  // the 64 KiB guess covers this small file
  EXPECT_EQ(footer->metadata_offset + footer->metadata_length + 8, footer->file_size);
  EXPECT_EQ(footer->metadata_bytes_decoded, footer->metadata_length);
  // Temporary buffers released; what remains is the metadata's heap bytes, charged.
  EXPECT_GT(HeapBytes(md), 0);
  EXPECT_EQ(footer->metadata_charge.bytes(), HeapBytes(md));
  EXPECT_EQ(pool->charged_bytes(), HeapBytes(md));
  EXPECT_EQ(pool->bytes_in_use(), HeapBytes(md));
  *footer = FileFooter{};  // the metadata goes, and its charge with it
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(FooterTest, FactsFromTheCorpusReadme) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  auto read = [&](const std::string& name) {
    auto footer = ReadFooterOfFile(testing::ParquetTestingFile(name), pool.get());
    EXPECT_TRUE(footer.ok()) << name << ": " << footer.status().ToString();
    return footer.ok() ? footer->metadata : FileMetaData{};
  };
  {  // 2 rows, snappy
    FileMetaData md = read("data/alltypes_plain.snappy.parquet");
    EXPECT_EQ(md.num_rows, 2);
    EXPECT_EQ(md.row_groups.at(0).columns.at(0).meta_data->codec, CompressionCodec::kSnappy);
  }
  {  // "200 rows", "Number of RowGroups: 1", "Number of Columns: 66", DELTA_BINARY_PACKED
    FileMetaData md = read("data/delta_binary_packed.parquet");
    EXPECT_EQ(md.num_rows, 200);
    ASSERT_EQ(md.row_groups.size(), 1u);
    EXPECT_EQ(md.row_groups[0].columns.size(), 66u);
    const auto& encodings = md.row_groups[0].columns[0].meta_data->encodings;
    EXPECT_NE(std::find(encodings.begin(), encodings.end(), Encoding::kDeltaBinaryPacked), encodings.end());
  }
  {  // single INT96 column with 6 values
    FileMetaData md = read("data/int96_from_spark.parquet");
    EXPECT_EQ(md.num_rows, 6);
    ASSERT_EQ(md.row_groups.at(0).columns.size(), 1u);
    EXPECT_EQ(md.row_groups[0].columns[0].meta_data->type, PhysicalType::kInt96);
  }
  {  // 100 rows
    EXPECT_EQ(read("data/delta_encoding_required_column.parquet").num_rows, 100);
  }
  {  // column chunk key-value metadata {"foo": "bar", "thisiskeywithoutvalue": null}
    FileMetaData md = read("data/column_chunk_key_value_metadata.parquet");
    bool found = false;
    for (const ColumnChunk& chunk : md.row_groups.at(0).columns) {
      if (!chunk.meta_data->key_value_metadata) continue;
      const auto& kv = *chunk.meta_data->key_value_metadata;
      ASSERT_EQ(kv.size(), 2u);
      EXPECT_EQ(kv[0].key, "foo");
      EXPECT_EQ(kv[0].value, "bar");
      EXPECT_EQ(kv[1].key, "thisiskeywithoutvalue");
      EXPECT_FALSE(kv[1].value.has_value());
      found = true;
    }
    EXPECT_TRUE(found);
  }
  {  // two row groups; column 0 descending nulls first, column 1 ascending nulls last
    FileMetaData md = read("data/sort_columns.parquet");
    ASSERT_EQ(md.row_groups.size(), 2u);
    for (const RowGroup& rg : md.row_groups) {
      ASSERT_TRUE(rg.sorting_columns.has_value());
      ASSERT_EQ(rg.sorting_columns->size(), 2u);
      EXPECT_EQ((*rg.sorting_columns)[0], (SortingColumn{0, true, true}));
      EXPECT_EQ((*rg.sorting_columns)[1], (SortingColumn{1, false, false}));
    }
  }
  {  // bloom filter, column index, offset index, encoding stats; the second file adds bloom_filter_length
    FileMetaData md = read("data/data_index_bloom_encoding_stats.parquet");
    const ColumnChunk& chunk = md.row_groups.at(0).columns.at(0);
    EXPECT_EQ(chunk.meta_data->type, PhysicalType::kByteArray);
    EXPECT_TRUE(chunk.meta_data->bloom_filter_offset.has_value());
    EXPECT_FALSE(chunk.meta_data->bloom_filter_length.has_value());
    EXPECT_TRUE(chunk.column_index_offset.has_value());
    EXPECT_TRUE(chunk.offset_index_offset.has_value());
    EXPECT_TRUE(chunk.meta_data->encoding_stats.has_value());
    FileMetaData with_length = read("data/data_index_bloom_encoding_with_length.parquet");
    EXPECT_TRUE(with_length.row_groups.at(0).columns.at(0).meta_data->bloom_filter_length.has_value());
  }
  {  // codecs
    EXPECT_EQ(read("data/lz4_raw_compressed.parquet").row_groups.at(0).columns.at(0).meta_data->codec,
              CompressionCodec::kLz4Raw);
    FileMetaData bss = read("data/byte_stream_split.zstd.parquet");
    const ColumnMetaData& md = *bss.row_groups.at(0).columns.at(0).meta_data;
    EXPECT_EQ(md.codec, CompressionCodec::kZstd);
    EXPECT_NE(std::find(md.encodings.begin(), md.encodings.end(), Encoding::kByteStreamSplit), md.encodings.end());
  }
  {  // a LogicalType member id from the future is kept as "unrecognized"
    FileMetaData md = read("data/unknown-logical-type.parquet");
    bool found = false;
    for (const SchemaElement& e : md.schema) {
      found = found || (e.logical_type && e.logical_type->kind == LogicalType::Kind::kUnrecognized);
    }
    EXPECT_TRUE(found);
  }
  {  // FIXED_LEN_BYTE_ARRAY column with 1000 values and a page index
    FileMetaData md = read("data/fixed_length_byte_array.parquet");
    EXPECT_EQ(md.num_rows, 1000);
    EXPECT_EQ(md.row_groups.at(0).columns.at(0).meta_data->type, PhysicalType::kFixedLenByteArray);
    EXPECT_TRUE(md.row_groups[0].columns[0].offset_index_offset.has_value());
  }
  {  // geospatial logical types
    FileMetaData md = read("data/geospatial/crs-geography.parquet");
    bool geography = false;
    for (const SchemaElement& e : md.schema) {
      geography = geography || (e.logical_type && e.logical_type->kind == LogicalType::Kind::kGeography);
    }
    EXPECT_TRUE(geography);
  }
}

// Every .parquet (and .parquet.encrypted) file of the corpus yields metadata or a clear error.
TEST(FooterTest, EveryCorpusFileYieldsMetadataOrAClearError) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  int files = 0, decoded = 0, encrypted_footers = 0, plaintext_encrypted = 0;
  for (const auto& entry : fs::recursive_directory_iterator(testing::ParquetTestingDir())) {
    const std::string path = entry.path().string();
    const bool encrypted_name = path.ends_with(".parquet.encrypted");
    if (!entry.is_regular_file() || !(path.ends_with(".parquet") || encrypted_name)) continue;
    ++files;
    auto footer = ReadFooterOfFile(path, pool.get());
    if (footer.ok()) {
      ++decoded;
      const FileMetaData& md = footer->metadata;
      EXPECT_FALSE(md.schema.empty()) << path;
      for (const RowGroup& rg : md.row_groups) EXPECT_GE(rg.num_rows, 0) << path;
      if (encrypted_name) {
        EXPECT_TRUE(footer->has_encryption_info()) << path;
        ++plaintext_encrypted;
      }
    } else {
      const Status& st = footer.status();
      EXPECT_NE(st.message().find(path), std::string::npos) << st.ToString();
      if (encrypted_name) {
        // Without keys: an encrypted footer asks for its key.
        EXPECT_EQ(st.code(), StatusCode::kInvalid) << st.ToString();
        EXPECT_NE(st.message().find("PARE"), std::string::npos) << st.ToString();
        EXPECT_NE(st.message().find("give the footer key"), std::string::npos) << st.ToString();
        ++encrypted_footers;
      } else {
        EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
        std::cout << "  clear error: " << st.ToString() << "\n";
      }
    }
    // Only the decoded metadata's charge outlives the call.
    EXPECT_EQ(pool->bytes_in_use(), footer.ok() ? HeapBytes(footer->metadata) : 0) << path;
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
  std::cout << files << " files: " << decoded << " decoded (" << plaintext_encrypted
            << " encrypted with plaintext footer), " << encrypted_footers << " encrypted footers\n";
  EXPECT_GT(files, 100);
  EXPECT_GT(encrypted_footers, 0);
  EXPECT_GT(plaintext_encrypted, 0);
}

// A file made of "PAR1", the footer cut to `cut` bytes, its length and "PAR1": every cut of a
// real footer must fail cleanly, and never allocate out of proportion.
TEST(FooterTest, EveryTruncationOfAValidFooterFails) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string file = ReadWholeFile(testing::ParquetTestingFile("data/alltypes_tiny_pages.parquet"));
  ASSERT_GT(file.size(), 12u);
  const uint32_t length = static_cast<uint8_t>(file[file.size() - 8]) |
                          (static_cast<uint8_t>(file[file.size() - 7]) << 8) |
                          (static_cast<uint8_t>(file[file.size() - 6]) << 16) |
                          (static_cast<uint32_t>(static_cast<uint8_t>(file[file.size() - 5])) << 24);
  const std::string metadata = file.substr(file.size() - 8 - length, length);
  // The whole footer decodes; a cut one charges at most what the whole one holds.
  FileMetaData whole;
  auto full = DeserializeFileMetaData(reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size(), &whole);
  ASSERT_TRUE(full.ok()) << full.status().ToString();
  EXPECT_EQ(*full, metadata.size());
  const int64_t whole_heap_bytes = HeapBytes(whole);
  auto pool = MakeSystemMemoryPool();
  for (uint32_t cut = 0; cut < length; ++cut) {
    // The serialized struct alone.
    g_largest_allocation = 0;
    FileMetaData md;
    auto direct = DeserializeFileMetaData(reinterpret_cast<const uint8_t*>(metadata.data()), cut, &md);
    ASSERT_FALSE(direct.ok()) << cut;
    EXPECT_TRUE(direct.status().IsCorrupt()) << direct.status().ToString();
    EXPECT_LT(g_largest_allocation.load(), 2u << 20) << "cut " << cut;

    // As a whole (small) file.
    auto bytes = std::make_shared<std::string>("PAR1");
    bytes->append(metadata, 0, cut);
    for (int i = 0; i < 4; ++i) bytes->push_back(static_cast<char>(cut >> (8 * i)));
    bytes->append("PAR1");
    pool->ResetPeak();
    auto footer = ReadFooter(*SourceOf(bytes, "cut.parquet"), pool.get());
    ASSERT_FALSE(footer.ok()) << cut;
    EXPECT_TRUE(footer.status().IsCorrupt()) << footer.status().ToString();
    EXPECT_NE(footer.status().message().find("cut.parquet"), std::string::npos) << footer.status().ToString();
    EXPECT_LE(pool->peak_bytes(), static_cast<int64_t>(bytes->size()) + 64 + whole_heap_bytes);
    EXPECT_EQ(pool->bytes_in_use(), 0);
  }
}

// Random byte flips inside the footer (and its length) of a real file never crash.
TEST(FooterTest, RandomByteFlipsNeverCrash) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string file = ReadWholeFile(testing::ParquetTestingFile("data/alltypes_tiny_pages.parquet"));
  auto pool = MakeSystemMemoryPool();
  auto original = ReadFooter(*SourceOf(std::make_shared<std::string>(file), "x"), pool.get());
  ASSERT_TRUE(original.ok());
  const int64_t footer_start = original->metadata_offset;
  std::mt19937 rng(1234);
  int failures = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    auto bytes = std::make_shared<std::string>(file);
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < flips; ++i) {
      const size_t at = footer_start + rng() % (bytes->size() - footer_start - 4);
      (*bytes)[at] = static_cast<char>((*bytes)[at] ^ (1 << (rng() % 8)));
    }
    g_largest_allocation = 0;
    auto footer = ReadFooter(*SourceOf(bytes, "flipped.parquet"), pool.get());
    if (!footer.ok()) {
      ++failures;
      const Status& st = footer.status();
      EXPECT_TRUE(st.IsCorrupt() || st.IsNotImplemented() || st.IsLimitExceeded()) << st.ToString();
    }
    EXPECT_LT(g_largest_allocation.load(), 8u << 20);
    EXPECT_EQ(pool->bytes_in_use(),
              HeapBytes(original->metadata) + (footer.ok() ? HeapBytes(footer->metadata) : 0));
  }
  EXPECT_GT(failures, 0);
}

TEST(FooterTest, LargeFooterTakesASecondReadOnlyForTheMissingPart) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto bytes = std::make_shared<std::string>(ReadWholeFile(testing::ParquetTestingFile("data/alltypes_tiny_pages.parquet")));
  auto pool = MakeSystemMemoryPool();
  auto source = SourceOf(bytes, "tiny_pages.parquet");
  auto one = ReadFooter(*source, pool.get());
  ASSERT_TRUE(one.ok());
  ASSERT_GT(one->metadata_length, 100);
  FooterReadOptions options;
  options.speculative_tail_bytes = 64;  // far smaller than the footer
  auto two = ReadFooter(*source, pool.get(), options);
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  EXPECT_EQ(two->reads, 2);
  EXPECT_EQ(two->metadata, one->metadata);
  options.verify_leading_magic = true;
  auto three = ReadFooter(*source, pool.get(), options);
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three->reads, 3);
  // Nothing but the three footers' charges stays on the pool.
  EXPECT_EQ(pool->bytes_in_use(), 3 * HeapBytes(one->metadata));
  EXPECT_EQ(pool->charged_bytes(), pool->bytes_in_use());

  // A bad leading magic is found when asked for, or when the tail read covers it.
  (*bytes)[0] = 'X';
  auto bad_head = ReadFooter(*SourceOf(bytes, "head.parquet"), pool.get(), options);
  ASSERT_TRUE(bad_head.status().IsCorrupt());
  EXPECT_NE(bad_head.status().message().find("does not start with"), std::string::npos);
  FooterReadOptions whole_file;
  whole_file.speculative_tail_bytes = static_cast<int64_t>(bytes->size());
  auto covered = ReadFooter(*SourceOf(bytes, "head.parquet"), pool.get(), whole_file);
  EXPECT_TRUE(covered.status().IsCorrupt());
  EXPECT_EQ(covered.status().code(), StatusCode::kCorrupt);
}

TEST(FooterTest, ClearErrorsForBrokenFiles) {
  auto pool = MakeSystemMemoryPool();
  auto too_small = ReadFooter(*SourceOf(std::make_shared<std::string>("PAR1PAR1"), "x.parquet"), pool.get());
  ASSERT_TRUE(too_small.status().IsCorrupt());
  EXPECT_NE(too_small.status().message().find("file 'x.parquet' (8 bytes) is too small to be Parquet"),
            std::string::npos)
      << too_small.status().ToString();

  auto no_magic = ReadFooter(*SourceOf(std::make_shared<std::string>("PAR1 some csv text, not parquet\n"), "a.csv"),
                             pool.get());
  ASSERT_TRUE(no_magic.status().IsCorrupt());
  EXPECT_NE(no_magic.status().message().find("does not end with the Parquet magic"), std::string::npos);

  auto long_footer = std::make_shared<std::string>("PAR1" + std::string(100, '\0'));
  const uint32_t length = 9999999;
  for (int i = 0; i < 4; ++i) long_footer->push_back(static_cast<char>(length >> (8 * i)));
  *long_footer += "PAR1";
  auto too_long = ReadFooter(*SourceOf(long_footer, "y.parquet"), pool.get());
  ASSERT_TRUE(too_long.status().IsCorrupt());
  EXPECT_NE(too_long.status().message().find("footer length 9999999 at offset 104 exceeds the file size"),
            std::string::npos)
      << too_long.status().ToString();

  FooterReadOptions bad_options;
  bad_options.speculative_tail_bytes = 2;
  EXPECT_TRUE(ReadFooter(*SourceOf(long_footer, "y.parquet"), pool.get(), bad_options).status().IsInvalid());
}

TEST(FooterTest, EncryptedFooterWithoutAKeyAsksForIt) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  const std::string path = testing::ParquetTestingFile("data/encrypt_columns_and_footer.parquet.encrypted");
  auto footer = ReadFooterOfFile(path, pool.get());
  ASSERT_EQ(footer.status().code(), StatusCode::kInvalid) << footer.status().ToString();
  EXPECT_NE(footer.status().message().find("encrypted footer (PARE"), std::string::npos);
  EXPECT_NE(footer.status().message().find("AES_GCM_V1"), std::string::npos) << footer.status().ToString();
  EXPECT_NE(footer.status().message().find("give the footer key (--footer-key)"), std::string::npos);

  // With the key, the footer decrypts (and no byte is left on the pool).
  FooterReadOptions with_key;
  auto keys = std::make_shared<FileDecryptionOptions>();
  keys->footer_key = "0123456789012345";
  with_key.decryption = keys;
  auto decrypted = ReadFooterOfFile(path, pool.get(), with_key);
  ASSERT_TRUE(decrypted.ok()) << decrypted.status().ToString();
  EXPECT_TRUE(decrypted->encrypted_footer);
  EXPECT_EQ(decrypted->metadata.num_rows, 50);
  EXPECT_EQ(pool->bytes_in_use(), HeapBytes(decrypted->metadata));
  EXPECT_EQ(pool->charged_bytes(), pool->bytes_in_use());

  auto plaintext = ReadFooterOfFile(testing::ParquetTestingFile("data/encrypt_columns_plaintext_footer.parquet.encrypted"),
                                    pool.get());
  ASSERT_TRUE(plaintext.ok()) << plaintext.status().ToString();
  EXPECT_TRUE(plaintext->has_encryption_info());
  // A signature (nonce + tag, 28 bytes) follows the plaintext FileMetaData.
  EXPECT_EQ(plaintext->metadata_length - plaintext->metadata_bytes_decoded, 28);
}

TEST(FooterTest, SelectiveDecodeThroughReadFooter) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto pool = MakeSystemMemoryPool();
  FooterReadOptions options;
  options.decode.column_indices = std::vector<int>{10, 0};
  auto footer = ReadFooterOfFile(testing::ParquetTestingFile("data/alltypes_plain.parquet"), pool.get(), options);
  ASSERT_TRUE(footer.ok()) << footer.status().ToString();
  ASSERT_EQ(footer->metadata.row_groups[0].columns.size(), 2u);
  EXPECT_EQ(footer->metadata.row_groups[0].columns[0].meta_data->path_in_schema[0], "id");
  EXPECT_EQ(footer->metadata.row_groups[0].columns[1].meta_data->path_in_schema[0], "timestamp_col");
}

}  // namespace
}  // namespace strata::parquet
