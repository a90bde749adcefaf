// The two other outputs of flat string and binary columns (BatchReadOptions::read_dictionary
// and string_views), on synthetic files: every BYTE_ARRAY encoding, nulls, several pages and
// row groups, v1/v2 pages, codecs, and a chunk whose writer fell back from dictionary to PLAIN
// (spliced from two files). Values must equal the default path's and the values written, every
// array must pass ValidateFull, and the pool must return to 0.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/validate.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/testing/same_values.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;
using codec::CompressionCodec;
using Strings = pt::OptionalStrings;

struct Column {
  std::vector<std::string> values;
  std::vector<bool> validity;
  Strings Expected(size_t begin = 0, size_t end = SIZE_MAX) const {
    Strings out;
    for (size_t i = begin; i < std::min(end, values.size()); ++i) {
      out.push_back(validity[i] ? std::optional<std::string>(values[i]) : std::nullopt);
    }
    return out;
  }
  pt::ColumnValues ToValues(size_t begin = 0, size_t end = SIZE_MAX) const {
    end = std::min(end, values.size());
    return pt::ColumnValues::ByteArrays({values.begin() + begin, values.begin() + end},
                                        {validity.begin() + begin, validity.begin() + end});
  }
};

// Short (inline in a view) and long values, empty strings, repeats (dictionary-friendly) and
// about 1 in 7 null.
Column MakeColumn(int64_t rows, uint32_t seed, int distinct = 50) {
  std::mt19937 rng(seed);
  std::vector<std::string> pool;
  for (int i = 0; i < distinct; ++i) {
    const int length = i % 5 == 0 ? 0 : (i % 3 == 0 ? 5 + i % 8 : 13 + (i * 7) % 40);
    std::string s;
    for (int k = 0; k < length; ++k) s.push_back(static_cast<char>('a' + (i + k) % 26));
    pool.push_back(s + (length > 0 ? std::to_string(i) : ""));
  }
  Column c;
  for (int64_t r = 0; r < rows; ++r) {
    c.values.push_back(pool[rng() % pool.size()]);
    c.validity.push_back(rng() % 7 != 0);
  }
  return c;
}

struct ReadResult {
  std::shared_ptr<Schema> schema;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  std::vector<int> batch_row_groups;
};

ReadResult ReadAll(FileReader* reader, const BatchReadOptions& options) {
  ReadResult out;
  auto batches = reader->ReadBatches(options);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return out;
  out.schema = (*batches)->schema();
  int row_group = 0;
  int64_t rows_in_group = 0;
  while (true) {
    auto batch = (*batches)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    while (rows_in_group == reader->metadata().row_groups[static_cast<size_t>(row_group)].num_rows) {
      ++row_group;
      rows_in_group = 0;
    }
    rows_in_group += (*batch)->num_rows();
    for (const Array& column : (*batch)->columns()) {
      Status valid = ValidateFull(*column.data(), {.check_utf8 = true});
      EXPECT_TRUE(valid.ok()) << valid.ToString();
    }
    out.batches.push_back(*batch);
    out.batch_row_groups.push_back(row_group);
  }
  return out;
}

Strings ColumnStrings(const ReadResult& result, int column) {
  Strings out;
  for (const auto& batch : result.batches) {
    Strings part = pt::StringValues(batch->column(column));
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

std::unique_ptr<FileReader> OpenBuffer(std::shared_ptr<Buffer> file, MemoryPool* pool) {
  auto reader = FileReader::Open(MakeBufferSource(std::move(file)), pool);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(*reader) : nullptr;
}

struct Case {
  Encoding encoding;
  pt::DataPageVersion version;
  CompressionCodec codec;
};

class OutputOptionsTest : public ::testing::TestWithParam<Case> {};

// Both options against the default path and the values written: a string and a binary column,
// pages of 37 rows, row groups of 400 rows, batches of 150 (crossing pages and row groups).
TEST_P(OutputOptionsTest, EqualsDefaultPath) {
  const Case c = GetParam();
  const int64_t rows = 1000;
  const Column strings = MakeColumn(rows, 1);
  const Column binaries = MakeColumn(rows, 2, 300);
  std::vector<pt::ColumnOptions> columns(2);
  for (auto& column : columns) {
    column.physical_type = PhysicalType::kByteArray;
    column.encoding = c.encoding;
    column.page_version = c.version;
    column.codec = c.codec;
    column.rows_per_page = 37;
  }
  columns[0].name = "s";
  columns[0].logical_type = pt::StringLogicalType();
  columns[1].name = "b";
  auto file = pt::BuildFile(columns, {strings.ToValues(), binaries.ToValues()}, 400);
  ASSERT_TRUE(file.ok()) << file.status().ToString();

  auto pool = MakeSystemMemoryPool();
  {
    auto reader = OpenBuffer(*file, pool.get());
    ASSERT_NE(reader, nullptr);
    BatchReadOptions defaults;
    defaults.batch_rows = 150;
    const ReadResult base = ReadAll(reader.get(), defaults);
    ASSERT_EQ(ColumnStrings(base, 0), strings.Expected());
    ASSERT_EQ(ColumnStrings(base, 1), binaries.Expected());

    for (int mode = 0; mode < 4; ++mode) {
      SCOPED_TRACE(mode);
      BatchReadOptions options = defaults;
      options.read_dictionary = mode == 0 || mode == 2;
      options.string_views = mode == 1 || mode == 2;
      options.large_binary = mode == 3;
      if (mode == 3) options.read_dictionary = true;
      const ReadResult read = ReadAll(reader.get(), options);
      EXPECT_EQ(ColumnStrings(read, 0), ColumnStrings(base, 0));
      EXPECT_EQ(ColumnStrings(read, 1), ColumnStrings(base, 1));
      ASSERT_NE(read.schema, nullptr);
      const TypePtr& s_type = read.schema->field(0)->type();
      const TypePtr& b_type = read.schema->field(1)->type();
      if (options.read_dictionary) {
        const TypePtr value = mode == 3 ? large_utf8() : utf8();
        EXPECT_TRUE(s_type->Equals(dictionary(int32(), value))) << s_type->ToString();
        EXPECT_TRUE(b_type->Equals(dictionary(int32(), mode == 3 ? large_binary() : binary())));
      } else {
        EXPECT_TRUE(s_type->Equals(utf8_view())) << s_type->ToString();
        EXPECT_TRUE(b_type->Equals(binary_view()));
      }
      for (const auto& batch : read.batches) {
        EXPECT_TRUE(batch->column(0).type()->Equals(s_type));
        EXPECT_TRUE(batch->column(1).type()->Equals(b_type));
      }
      // Dictionary-encoded chunks: one dictionary per row group, shared by its batches, and
      // (views) one data buffer, the dictionary's bytes.
      if (c.encoding == Encoding::kRleDictionary) {
        for (size_t k = 1; k < read.batches.size(); ++k) {
          if (read.batch_row_groups[k] != read.batch_row_groups[k - 1]) continue;
          for (int col = 0; col < 2; ++col) {
            const auto& now = read.batches[k]->column(col).data();
            const auto& before = read.batches[k - 1]->column(col).data();
            if (options.read_dictionary) {
              EXPECT_EQ(now->dictionary.get(), before->dictionary.get());
            } else {
              ASSERT_EQ(now->buffers.size(), 3u);
              ASSERT_EQ(before->buffers.size(), 3u);
              EXPECT_EQ(now->buffers[2]->data(), before->buffers[2]->data());
            }
          }
        }
      }
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Encodings, OutputOptionsTest,
    ::testing::Values(Case{Encoding::kPlain, pt::DataPageVersion::kV1, CompressionCodec::kUncompressed},
                      Case{Encoding::kPlain, pt::DataPageVersion::kV2, CompressionCodec::kSnappy},
                      Case{Encoding::kPlain, pt::DataPageVersion::kV1, CompressionCodec::kZstd},
                      Case{Encoding::kRleDictionary, pt::DataPageVersion::kV1, CompressionCodec::kUncompressed},
                      Case{Encoding::kRleDictionary, pt::DataPageVersion::kV2, CompressionCodec::kZstd},
                      Case{Encoding::kDeltaLengthByteArray, pt::DataPageVersion::kV1, CompressionCodec::kSnappy},
                      Case{Encoding::kDeltaLengthByteArray, pt::DataPageVersion::kV2, CompressionCodec::kUncompressed},
                      Case{Encoding::kDeltaByteArray, pt::DataPageVersion::kV1, CompressionCodec::kUncompressed},
                      Case{Encoding::kDeltaByteArray, pt::DataPageVersion::kV2, CompressionCodec::kZstd}));

// ---- a chunk that falls back from dictionary to PLAIN -----------------------------------------

// One string column written by TestFileBuilder (one row group), and where its pages are.
struct SingleChunk {
  std::shared_ptr<Buffer> file;
  FileMetaData metadata;
  const ColumnMetaData& meta() const { return *metadata.row_groups[0].columns[0].meta_data; }
  int64_t start() const { return meta().dictionary_page_offset.value_or(meta().data_page_offset); }
  std::string_view Bytes(int64_t begin, int64_t end) const { return file->view().substr(begin, end - begin); }
  std::string_view DictionaryPage() const { return Bytes(start(), meta().data_page_offset); }
  std::string_view DataPages() const {
    return Bytes(meta().data_page_offset, start() + meta().total_compressed_size);
  }
};

SingleChunk WriteChunk(const Column& column, size_t begin, size_t end, Encoding encoding, int64_t rows_per_page) {
  pt::ColumnOptions options;
  options.name = "s";
  options.physical_type = PhysicalType::kByteArray;
  options.logical_type = pt::StringLogicalType();
  options.encoding = encoding;
  options.rows_per_page = rows_per_page;
  auto file = pt::BuildFile({options}, {column.ToValues(begin, end)}, 1 << 20);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  SingleChunk out;
  out.file = *file;
  auto pool = MakeSystemMemoryPool();
  auto reader = OpenBuffer(out.file, pool.get());
  if (reader) out.metadata = reader->metadata();
  return out;
}

// A file of one row group whose chunk is `dictionary_page` (may be empty) followed by the
// data pages of `parts`, with `like`'s metadata adjusted to the new sizes.
std::shared_ptr<Buffer> Splice(const SingleChunk& like, std::string_view dictionary_page,
                               const std::vector<const SingleChunk*>& parts) {
  std::string bytes = "PAR1";
  bytes.append(dictionary_page);
  const auto data_offset = static_cast<int64_t>(bytes.size());
  int64_t num_values = 0;
  for (const SingleChunk* part : parts) {
    bytes.append(part->DataPages());
    num_values += part->meta().num_values;
  }
  FileMetaData metadata = like.metadata;
  ColumnChunk& chunk = metadata.row_groups[0].columns[0];
  ColumnMetaData& meta = *chunk.meta_data;
  meta.dictionary_page_offset = dictionary_page.empty() ? std::nullopt : std::optional<int64_t>(4);
  meta.data_page_offset = data_offset;
  meta.total_compressed_size = static_cast<int64_t>(bytes.size()) - 4;
  meta.total_uncompressed_size = meta.total_compressed_size;
  meta.num_values = num_values;
  meta.statistics.reset();
  meta.encoding_stats.reset();
  meta.size_statistics.reset();
  meta.encodings = {Encoding::kPlain, Encoding::kRle, Encoding::kRleDictionary};
  chunk.file_offset = 4;
  metadata.row_groups[0].num_rows = num_values;
  metadata.row_groups[0].total_byte_size = meta.total_compressed_size;
  metadata.row_groups[0].total_compressed_size = meta.total_compressed_size;
  metadata.row_groups[0].file_offset = 4;
  metadata.num_rows = num_values;
  return pt::AppendFooter(std::move(bytes), metadata);
}

TEST(OutputOptionsFallbackTest, DictionaryThenPlain) {
  const Column column = MakeColumn(900, 3);
  const size_t fallback_row = 500;  // pages of 50 rows: the fallback falls inside batch 3 (450..600)
  const SingleChunk dictionary_part = WriteChunk(column, 0, fallback_row, Encoding::kRleDictionary, 50);
  const SingleChunk plain_part = WriteChunk(column, fallback_row, column.values.size(), Encoding::kPlain, 50);
  auto file = Splice(dictionary_part, dictionary_part.DictionaryPage(), {&dictionary_part, &plain_part});

  auto pool = MakeSystemMemoryPool();
  {
    auto reader = OpenBuffer(file, pool.get());
    ASSERT_NE(reader, nullptr);
    BatchReadOptions options;
    options.batch_rows = 150;
    const ReadResult base = ReadAll(reader.get(), options);
    ASSERT_EQ(ColumnStrings(base, 0), column.Expected());
    options.string_views = true;
    const ReadResult views = ReadAll(reader.get(), options);
    EXPECT_EQ(ColumnStrings(views, 0), column.Expected());
    options.read_dictionary = true;
    const ReadResult dictionaries = ReadAll(reader.get(), options);
    EXPECT_EQ(ColumnStrings(dictionaries, 0), column.Expected());

    ASSERT_EQ(dictionaries.batches.size(), 6u);
    const auto& shared = dictionaries.batches[0]->column(0).data()->dictionary;
    const int64_t dictionary_size = shared->length;
    // Batches 0-2: the chunk's dictionary. Batch 3 mixes: its dictionary is the chunk's
    // followed by its PLAIN values. Batches 4-5: their PLAIN values alone.
    for (size_t k = 0; k < 3; ++k) EXPECT_EQ(dictionaries.batches[k]->column(0).data()->dictionary, shared);
    const auto& mixed = dictionaries.batches[3]->column(0).data();
    const int64_t plain_in_mixed = [&] {
      int64_t n = 0;
      for (size_t r = fallback_row; r < 600; ++r) n += column.validity[r] ? 1 : 0;
      return n;
    }();
    EXPECT_EQ(mixed->dictionary->length, dictionary_size + plain_in_mixed);
    EXPECT_EQ(pt::StringValues(Array(mixed->dictionary)).front(), pt::StringValues(Array(shared)).front());
    for (size_t k = 4; k < 6; ++k) {
      const auto& data = dictionaries.batches[k]->column(0).data();
      EXPECT_EQ(data->dictionary->length, data->length - data->GetNullCount());
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// A chunk without a dictionary page read as dictionaries: batch-local dictionaries, in order.
TEST(OutputOptionsFallbackTest, PlainChunkAsDictionary) {
  const Column column = MakeColumn(300, 4);
  const SingleChunk plain = WriteChunk(column, 0, column.values.size(), Encoding::kPlain, 64);
  auto pool = MakeSystemMemoryPool();
  {
    auto reader = OpenBuffer(plain.file, pool.get());
    ASSERT_NE(reader, nullptr);
    BatchReadOptions options;
    options.batch_rows = 100;
    options.read_dictionary = true;
    options.dictionary_fields = {"s"};
    const ReadResult read = ReadAll(reader.get(), options);
    EXPECT_EQ(ColumnStrings(read, 0), column.Expected());
    for (const auto& batch : read.batches) {
      const DictionaryArray array(batch->column(0));
      int64_t next = 0;
      for (int64_t i = 0; i < array.length(); ++i) {
        if (array.IsValid(i)) {
          EXPECT_EQ(array.GetValueIndex(i), next++);
        }
      }
    }
    options.dictionary_fields = {"missing"};
    auto refused = reader->ReadBatches(options);
    EXPECT_EQ(refused.status().code(), StatusCode::kInvalid);
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// An all-null batch of a chunk without a dictionary gets an empty dictionary.
TEST(OutputOptionsFallbackTest, AllNullBatches) {
  Column column;
  for (int i = 0; i < 64; ++i) {
    column.values.push_back(i < 32 ? "" : "a long value past twelve bytes " + std::to_string(i));
    column.validity.push_back(i >= 32);
  }
  const SingleChunk plain = WriteChunk(column, 0, column.values.size(), Encoding::kPlain, 16);
  auto pool = MakeSystemMemoryPool();
  {
    auto reader = OpenBuffer(plain.file, pool.get());
    ASSERT_NE(reader, nullptr);
    for (int mode = 0; mode < 2; ++mode) {
      BatchReadOptions options;
      options.batch_rows = 32;
      options.read_dictionary = mode == 0;
      options.string_views = mode == 1;
      const ReadResult read = ReadAll(reader.get(), options);
      EXPECT_EQ(ColumnStrings(read, 0), column.Expected());
      ASSERT_EQ(read.batches.size(), 2u);
      if (mode == 0) {
        EXPECT_EQ(read.batches[0]->column(0).data()->dictionary->length, 0);
      }
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// Hostile chunks: dictionary-coded pages without a dictionary page, and indices past a smaller
// dictionary, fail with Corrupt under both outputs.
TEST(OutputOptionsFallbackTest, MalformedDictionaryChunks) {
  const Column column = MakeColumn(200, 5, 40);
  Column few;
  for (int i = 0; i < 200; ++i) {
    few.values.push_back(i % 2 ? "x" : "y");
    few.validity.push_back(true);
  }
  const SingleChunk coded = WriteChunk(column, 0, 200, Encoding::kRleDictionary, 50);
  const SingleChunk small = WriteChunk(few, 0, 200, Encoding::kRleDictionary, 50);
  const auto no_dictionary = Splice(coded, "", {&coded});
  const auto wrong_dictionary = Splice(coded, small.DictionaryPage(), {&coded});
  auto pool = MakeSystemMemoryPool();
  for (const auto& file : {no_dictionary, wrong_dictionary}) {
    for (int mode = 0; mode < 3; ++mode) {
      auto reader = OpenBuffer(file, pool.get());
      ASSERT_NE(reader, nullptr);
      BatchReadOptions options;
      options.read_dictionary = mode == 0;
      options.string_views = mode == 1;
      auto batches = reader->ReadBatches(options);
      ASSERT_TRUE(batches.ok());
      auto batch = (*batches)->Next();
      ASSERT_FALSE(batch.ok()) << mode;
      EXPECT_EQ(batch.status().code(), StatusCode::kCorrupt) << batch.status().ToString();
      EXPECT_NE(batch.status().message().find("column 's'"), std::string::npos) << batch.status().ToString();
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// Invalid UTF-8 is caught in the dictionary (once per chunk) and in view batches.
TEST(OutputOptionsFallbackTest, Utf8Validation) {
  Column column;
  for (int i = 0; i < 20; ++i) {
    column.values.push_back(i == 7 ? std::string("bad \xff value, long enough") : "fine value number " + std::to_string(i % 3));
    column.validity.push_back(true);
  }
  for (Encoding encoding : {Encoding::kRleDictionary, Encoding::kPlain}) {
    const SingleChunk chunk = WriteChunk(column, 0, column.values.size(), encoding, 8);
    auto pool = MakeSystemMemoryPool();
    for (int mode = 0; mode < 2; ++mode) {
      auto reader = OpenBuffer(chunk.file, pool.get());
      ASSERT_NE(reader, nullptr);
      BatchReadOptions options;
      options.validate_utf8 = true;
      options.read_dictionary = mode == 0;
      options.string_views = mode == 1;
      auto table = reader->ReadTable(options);
      ASSERT_FALSE(table.ok());
      EXPECT_EQ(table.status().code(), StatusCode::kCorrupt);
      EXPECT_NE(table.status().message().find("UTF-8"), std::string::npos) << table.status().ToString();
    }
  }
}

// View batches keep their pages alive after the reader is gone; the reader reuses a page copy
// only once no batch refers to it.
TEST(OutputOptionsFallbackTest, ViewsOutliveTheReader) {
  const Column column = MakeColumn(2000, 6);
  const SingleChunk plain = WriteChunk(column, 0, column.values.size(), Encoding::kPlain, 100);
  auto pool = MakeSystemMemoryPool();
  {
    std::vector<std::shared_ptr<RecordBatch>> kept;
    {
      auto reader = OpenBuffer(plain.file, pool.get());
      ASSERT_NE(reader, nullptr);
      BatchReadOptions options;
      options.batch_rows = 250;
      options.string_views = true;
      auto batches = reader->ReadBatches(options);
      ASSERT_TRUE(batches.ok());
      while (true) {
        auto batch = (*batches)->Next();
        ASSERT_TRUE(batch.ok()) << batch.status().ToString();
        if (!*batch) break;
        if (kept.size() % 2 == 0) kept.push_back(*batch);  // keep every other one
        else kept.push_back(nullptr);
      }
    }
    Strings expected = column.Expected();
    for (size_t k = 0; k < kept.size(); ++k) {
      if (!kept[k]) continue;
      Strings want(expected.begin() + static_cast<int64_t>(k) * 250, expected.begin() + static_cast<int64_t>(k + 1) * 250);
      EXPECT_EQ(pt::StringValues(kept[k]->column(0)), want) << k;
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// Files of other writers (parquet-testing): both outputs equal the default read, field by
// field (strings compared as values, other columns as arrays); a file the default read refuses
// is refused by both.
TEST(OutputOptionsCorpusTest, EqualsDefaultPath) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const char* files[] = {"alltypes_dictionary", "alltypes_plain", "alltypes_plain.snappy", "alltypes_tiny_pages",
                         "binary", "binary_truncated_min_max", "byte_array_decimal", "concatenated_gzip_members",
                         "data_index_bloom_encoding_stats", "datapage_v1-snappy-compressed-checksum",
                         "datapage_v2.snappy", "delta_byte_array", "delta_encoding_required_column",
                         "delta_length_byte_array", "dict-page-offset-zero", "nation.dict-malformed",
                         "nulls.snappy", "page_v2_empty_compressed", "plain-dict-uncompressed-checksum",
                         "rle-dict-snappy-checksum", "unknown-logical-type"};
  auto pool = MakeSystemMemoryPool();
  for (const char* name : files) {
    SCOPED_TRACE(name);
    auto reader = FileReader::OpenFile(strata::testing::ParquetTestingFile(std::string("data/") + name + ".parquet"),
                                       pool.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    BatchReadOptions defaults;
    defaults.batch_rows = 100;
    auto base = (*reader)->ReadTable(defaults);
    for (int mode = 0; mode < 2; ++mode) {
      BatchReadOptions options = defaults;
      options.read_dictionary = mode == 0;
      options.string_views = mode == 1;
      auto read = (*reader)->ReadTable(options);
      if (!base.ok()) {
        ASSERT_FALSE(read.ok());
        EXPECT_EQ(read.status().code(), base.status().code()) << read.status().ToString();
        continue;
      }
      ASSERT_TRUE(read.ok()) << read.status().ToString();
      const TypeId layout = mode == 0 ? TypeId::kDictionary : TypeId::kStringView;
      pt::ExpectSameValues(**base, **read, [&](TypeId id) {
        return id == layout || (layout == TypeId::kStringView && id == TypeId::kBinaryView);
      });
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::parquet
