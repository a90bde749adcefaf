// String views into PLAIN and DELTA_LENGTH_BYTE_ARRAY pages without a copy
// (BatchReadOptions::string_views, PageReader::ShareValues): values equal the offsets path's on
// writer-made files (long and short strings, nulls, several pages and row groups, v1/v2 pages,
// uncompressed and snappy, from memory, a file, a memory map and a pre-buffered range, and
// encrypted) and on every parquet-testing file; the batches' data buffers are the pages
// themselves (slices of the page reader's buffers, or of the file's bytes), stay valid after
// the reader has read later pages and after it is gone, and memory stays bounded when batches
// are dropped.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/validate.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/testing/same_values.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

namespace fs = std::filesystem;
namespace pt = strata::parquet::testing;
using codec::CompressionCodec;
using Strings = pt::OptionalStrings;

constexpr int64_t kRows = 6000;
constexpr int64_t kRowsPerGroup = 2500;
constexpr int64_t kRowsPerPage = 300;

// Every 9th value null; lengths cycle through 0..150 bytes, so about 90% are longer than a
// view's 12 inline bytes.
Strings MakeValues(int64_t rows) {
  Strings out;
  for (int64_t i = 0; i < rows; ++i) {
    if (i % 9 == 4) {
      out.push_back(std::nullopt);
      continue;
    }
    std::string s = std::to_string(i) + ":";
    s.resize(static_cast<size_t>((i * 37) % 151), static_cast<char>('a' + i % 26));
    out.push_back(std::move(s));
  }
  return out;
}

pt::ColumnValues ToColumnValues(const Strings& values) {
  std::vector<std::string> bytes;
  std::vector<bool> valid;
  for (const auto& v : values) {
    bytes.push_back(v.value_or(""));
    valid.push_back(v.has_value());
  }
  return pt::ColumnValues::ByteArrays(bytes, valid);
}

struct FileCase {
  Encoding encoding;
  pt::DataPageVersion version;
  CompressionCodec codec;
};

std::shared_ptr<Buffer> BuildStrings(const FileCase& c, const Strings& values) {
  pt::ColumnOptions column;
  column.name = "s";
  column.physical_type = PhysicalType::kByteArray;
  column.logical_type = pt::StringLogicalType();
  column.encoding = c.encoding;
  column.page_version = c.version;
  column.codec = c.codec;
  column.rows_per_page = kRowsPerPage;
  auto file = pt::BuildFile({column}, {ToColumnValues(values)}, kRowsPerGroup);
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? *file : nullptr;
}

// A temporary copy of `bytes` on disk, removed with the object.
struct TempFile {
  explicit TempFile(const Buffer& bytes)
      : path((fs::temp_directory_path() / ("strata_view_pages_" + std::to_string(::getpid()) + "_" +
                                           std::to_string(counter++) + ".parquet"))
                 .string()) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  ~TempFile() { fs::remove(path); }
  std::string path;
  static inline int counter = 0;
};

// Every batch of column 0, kept; each passes ValidateFull (UTF-8 included).
std::vector<Array> ReadColumn(FileReader* reader, const BatchReadOptions& options) {
  std::vector<Array> out;
  auto batches = reader->ReadBatches(options);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return out;
  while (true) {
    auto batch = (*batches)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    const Array& column = (*batch)->column(0);
    const Status valid = ValidateFull(*column.data(), {.check_utf8 = true});
    EXPECT_TRUE(valid.ok()) << valid.ToString();
    out.push_back(column);
  }
  return out;
}

Strings Concat(const std::vector<Array>& arrays) {
  Strings out;
  for (const Array& array : arrays) {
    Strings part = pt::StringValues(array);
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

enum class Source { kMemory, kFile, kMemoryMap, kPreBuffered };

const char* SourceName(Source source) {
  switch (source) {
    case Source::kMemory: return "memory";
    case Source::kFile: return "file";
    case Source::kMemoryMap: return "memory map";
    default: return "pre-buffered";
  }
}

std::unique_ptr<FileReader> Open(Source source, const std::shared_ptr<Buffer>& bytes, const std::string& path,
                                 int64_t whole_chunk_limit, MemoryPool* pool) {
  FileReaderOptions options;
  options.pages.whole_chunk_read_limit = whole_chunk_limit;
  Result<std::unique_ptr<FileReader>> reader = Status::Invalid("unset");
  switch (source) {
    case Source::kMemory: reader = FileReader::Open(MakeBufferSource(bytes), pool, options); break;
    case Source::kFile: reader = FileReader::OpenFile(path, pool, options); break;
    case Source::kMemoryMap: {
      auto mapped = OpenLocalFile(path, {.memory_map = true});
      EXPECT_TRUE(mapped.ok());
      if (!mapped.ok()) return nullptr;
      reader = FileReader::Open(*mapped, pool, options);
      break;
    }
    case Source::kPreBuffered:
      options.pre_buffer = true;
      reader = FileReader::OpenFile(path, pool, options);
      break;
  }
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(*reader) : nullptr;
}

// The bytes of `data` lie inside `outer`.
bool Inside(const Buffer& data, const Buffer& outer) {
  return data.data() >= outer.data() && data.data() + data.size() <= outer.data() + outer.size();
}

class ViewPagesTest : public ::testing::TestWithParam<FileCase> {};

// Every source and both page paths (the chunk read whole, or page by page): the views equal
// the offsets path and the values written, after the reader has moved on and after it is
// destroyed; every data buffer is a slice of a page buffer (of the file's own bytes from
// memory and memory maps when uncompressed), except pre-buffered pages, which are copied.
TEST_P(ViewPagesTest, EqualsOffsetsPathWithoutCopies) {
  const FileCase c = GetParam();
  const Strings values = MakeValues(kRows);
  const auto bytes = BuildStrings(c, values);
  ASSERT_NE(bytes, nullptr);
  const TempFile file(*bytes);
  const bool uncompressed = c.codec == CompressionCodec::kUncompressed;
  auto pool = MakeSystemMemoryPool();
  for (Source source : {Source::kMemory, Source::kFile, Source::kMemoryMap, Source::kPreBuffered}) {
    for (int64_t whole_chunk_limit : {int64_t{0}, int64_t{8} << 20}) {
      SCOPED_TRACE(std::string(SourceName(source)) + (whole_chunk_limit ? ", whole chunks" : ", page by page"));
      std::vector<Array> views;
      Strings offsets;
      {
        auto reader = Open(source, bytes, file.path, whole_chunk_limit, pool.get());
        ASSERT_NE(reader, nullptr);
        BatchReadOptions options;
        options.batch_rows = 700;  // crosses pages and ends inside them
        offsets = Concat(ReadColumn(reader.get(), options));
        options.string_views = true;
        views = ReadColumn(reader.get(), options);
      }
      // The reader is gone and read every later page: the kept batches still hold their values.
      EXPECT_EQ(offsets, values);
      EXPECT_EQ(Concat(views), values);
      size_t batches = 0;  // batches end at row groups
      for (int64_t begin = 0; begin < kRows; begin += kRowsPerGroup) {
        batches += static_cast<size_t>((std::min(kRowsPerGroup, kRows - begin) + 699) / 700);
      }
      ASSERT_EQ(views.size(), batches);
      for (const Array& batch : views) {
        const auto& buffers = batch.data()->buffers;
        ASSERT_GE(buffers.size(), 3u);  // every batch holds long values
        for (size_t k = 2; k < buffers.size(); ++k) {
          const Buffer& data = *buffers[k];
          if (source == Source::kPreBuffered && whole_chunk_limit > 0 && uncompressed) {
            EXPECT_EQ(data.parent(), nullptr);  // a copy: a kept slice would keep the cache entry
            continue;
          }
          ASSERT_NE(data.parent(), nullptr) << "buffer " << k << " is a copy";
          EXPECT_TRUE(Inside(data, *data.parent()));
          if (uncompressed && source == Source::kMemory) {
            EXPECT_TRUE(Inside(data, *bytes)) << "buffer " << k;  // the file's own bytes
          }
        }
      }
    }
  }
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

// From memory, uncompressed PLAIN: the views' data buffers are the file's bytes, so the pool
// allocates no value bytes: against the offsets path, which allocates the value bytes and 4
// bytes of offset a row, the views path allocates 12 bytes more a row (16-byte views) and
// not the value bytes. (The copying path allocated a copy of every page, the value bytes
// and their 4-byte lengths, on top.)
TEST_P(ViewPagesTest, MemorySourceAllocatesNoValueBytes) {
  const FileCase c = GetParam();
  if (c.codec != CompressionCodec::kUncompressed) GTEST_SKIP() << "pages are decompressed";
  const int64_t rows = 40000;
  const Strings values = MakeValues(rows);
  const auto bytes = BuildStrings(c, values);
  ASSERT_NE(bytes, nullptr);
  int64_t value_bytes = 0;
  for (const auto& v : values) value_bytes += v ? static_cast<int64_t>(v->size()) : 0;
  auto pool = MakeSystemMemoryPool();
  for (int64_t whole_chunk_limit : {int64_t{0}, int64_t{8} << 20}) {
    SCOPED_TRACE(whole_chunk_limit);
    auto reader = Open(Source::kMemory, bytes, "", whole_chunk_limit, pool.get());
    ASSERT_NE(reader, nullptr);
    int64_t allocated[2];
    for (int views = 0; views < 2; ++views) {
      BatchReadOptions options;
      options.batch_rows = 8192;
      options.string_views = views == 1;
      const int64_t before = pool->total_bytes_allocated();
      const std::vector<Array> read = ReadColumn(reader.get(), options);
      allocated[views] = pool->total_bytes_allocated() - before;
      EXPECT_EQ(Concat(read), values);
    }
    EXPECT_GT(value_bytes, 4 * 12 * rows);  // the check below means something
    EXPECT_LE(allocated[1], allocated[0] + 12 * rows - value_bytes + value_bytes / 20)
        << "offsets path " << allocated[0] << ", views " << allocated[1] << ", value bytes " << value_bytes;
  }
}

// Batches dropped as they come: the page reader reuses its page buffer when no batch kept it,
// so the pool's peak stays near the offsets path's (a batch and a page or two), and the bytes
// in use return to 0.
TEST_P(ViewPagesTest, DroppedBatchesKeepMemoryBounded) {
  const FileCase c = GetParam();
  const Strings values = MakeValues(kRows * 4);
  const auto bytes = BuildStrings(c, values);
  ASSERT_NE(bytes, nullptr);
  const TempFile file(*bytes);
  int64_t peaks[2] = {0, 0};
  for (int views = 0; views < 2; ++views) {
    auto pool = MakeSystemMemoryPool();
    {
      auto reader = Open(Source::kFile, bytes, file.path, 0, pool.get());
      ASSERT_NE(reader, nullptr);
      BatchReadOptions options;
      options.batch_rows = 500;
      options.string_views = views == 1;
      auto batches = reader->ReadBatches(options);
      ASSERT_TRUE(batches.ok());
      pool->ResetPeak();
      int64_t rows = 0;
      while (true) {
        auto batch = (*batches)->Next();
        ASSERT_TRUE(batch.ok()) << batch.status().ToString();
        if (!*batch) break;
        rows += (*batch)->num_rows();
      }
      EXPECT_EQ(rows, kRows * 4);
      peaks[views] = pool->peak_bytes();
    }
    EXPECT_EQ(pool->bytes_in_use(), 0);
  }
  // A batch of 500 views (8 KB) may keep the two pages it spans (~2 x 24 KB) where the offsets
  // path holds its data (~38 KB) and one page.
  EXPECT_LT(peaks[1], peaks[0] + 64 * 1024) << "offsets " << peaks[0] << ", views " << peaks[1];
}

INSTANTIATE_TEST_SUITE_P(
    Pages, ViewPagesTest,
    ::testing::Values(FileCase{Encoding::kPlain, pt::DataPageVersion::kV1, CompressionCodec::kUncompressed},
                      FileCase{Encoding::kPlain, pt::DataPageVersion::kV2, CompressionCodec::kUncompressed},
                      FileCase{Encoding::kPlain, pt::DataPageVersion::kV1, CompressionCodec::kSnappy},
                      FileCase{Encoding::kPlain, pt::DataPageVersion::kV2, CompressionCodec::kSnappy},
                      FileCase{Encoding::kDeltaLengthByteArray, pt::DataPageVersion::kV1,
                               CompressionCodec::kUncompressed},
                      FileCase{Encoding::kDeltaLengthByteArray, pt::DataPageVersion::kV2, CompressionCodec::kSnappy}));

// list<string> (views are not offered inside nested fields): with string_views on, the list
// reads as with it off, through page readers that keep reusing their buffers (no leaf keeps a
// page), and the pool returns to 0.
TEST(ViewPagesNestedTest, ListOfStringsUnaffected) {
  const Strings strings = MakeValues(3000);
  std::vector<std::optional<std::vector<std::optional<std::string>>>> lists;
  for (int64_t i = 0; i < 3000; ++i) {
    if (i % 11 == 3) {
      lists.push_back(std::nullopt);
      continue;
    }
    std::vector<std::optional<std::string>> row;
    for (int64_t k = 0; k < i % 4; ++k) row.push_back(strings[static_cast<size_t>((i + k * 7) % 3000)]);
    lists.push_back(std::move(row));
  }
  const pt::ColumnValues values = pt::ColumnValues::ListOf<std::string>(PhysicalType::kByteArray, lists);
  for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy}) {
    SCOPED_TRACE(static_cast<int>(codec));
    pt::ColumnOptions column{.name = "l", .physical_type = PhysicalType::kByteArray};
    column.logical_type = pt::StringLogicalType();
    column.list = true;
    column.codec = codec;
    column.rows_per_page = 250;  // entries: pages begin inside rows
    auto bytes = pt::BuildFile({column}, {values}, values.num_rows());
    ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
    auto pool = MakeSystemMemoryPool();
    {
      auto reader = Open(Source::kMemory, *bytes, "", 0, pool.get());
      ASSERT_NE(reader, nullptr);
      BatchReadOptions options;
      options.batch_rows = 333;
      auto base = reader->ReadTable(options);
      ASSERT_TRUE(base.ok()) << base.status().ToString();
      options.string_views = true;
      auto views = reader->ReadTable(options);
      ASSERT_TRUE(views.ok()) << views.status().ToString();
      ASSERT_EQ((*views)->column(0)->num_chunks(), (*base)->column(0)->num_chunks());
      int64_t rows = 0;
      for (int k = 0; k < (*base)->column(0)->num_chunks(); ++k) {
        const Array& want = (*base)->column(0)->chunk(k);
        const Array& chunk = (*views)->column(0)->chunk(k);
        EXPECT_TRUE(ValidateFull(*chunk.data(), {.check_utf8 = true}).ok());
        EXPECT_TRUE(chunk.Equals(want)) << "chunk " << k;
        rows += chunk.length();
      }
      EXPECT_EQ(rows, 3000);
    }
    EXPECT_EQ(pool->bytes_in_use(), 0);
  }
}

// Encrypted chunks (strata's writer, uniform encryption, no dictionary): the views keep the
// decrypted (and decompressed) pages, which the page reader then stops reusing; values equal
// the offsets path's after the reader is gone.
TEST(ViewPagesEncryptedTest, ViewsKeepDecryptedPages) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("s", utf8())});
  pt::RandomArrayOptions random;
  random.max_string_length = 120;
  auto batch = pt::RandomBatch(schema, 5000, 3, SystemMemoryPool(), random);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const std::string key = "0123456789012345";
  for (const auto codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy}) {
    for (const auto version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(codec)) + (version == DataPageVersion::kV1 ? " v1" : " v2"));
      WriterOptions options;
      options.columns.dictionary = false;
      options.columns.codec = codec;
      options.file.page_version = version;
      options.file.data_page_rows = 400;
      options.file.max_row_group_rows = 2000;
      FileEncryptionOptions encryption;
      encryption.footer_key = key;
      options.file.encryption = encryption;
      auto bytes = pt::WriteToBuffer(schema, {*batch}, options, SystemMemoryPool());
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      for (int64_t whole_chunk_limit : {int64_t{0}, int64_t{8} << 20}) {
        auto pool = MakeSystemMemoryPool();
        {
          std::vector<Array> views;
          Strings offsets;
          {
            FileDecryptionOptions keys;
            keys.footer_key = key;
            FileReaderOptions reader_options;
            reader_options.footer.decryption = std::make_shared<const FileDecryptionOptions>(std::move(keys));
            reader_options.pages.whole_chunk_read_limit = whole_chunk_limit;
            auto reader = FileReader::Open(MakeBufferSource(*bytes), pool.get(), reader_options);
            ASSERT_TRUE(reader.ok()) << reader.status().ToString();
            BatchReadOptions read;
            read.batch_rows = 900;
            offsets = Concat(ReadColumn(reader->get(), read));
            read.string_views = true;
            views = ReadColumn(reader->get(), read);
          }
          EXPECT_EQ(offsets, pt::StringValues((*batch)->column(0)));
          EXPECT_EQ(Concat(views), offsets);
          for (const Array& view : views) {
            ASSERT_GE(view.data()->buffers.size(), 3u);  // long values in every batch
            for (size_t k = 2; k < view.data()->buffers.size(); ++k) {
              EXPECT_NE(view.data()->buffers[k]->parent(), nullptr) << "buffer " << k << " is a copy";
            }
          }
        }
        EXPECT_EQ(pool->bytes_in_use(), 0);
      }
    }
  }
}

// Every parquet-testing file: read with string views, from the file page by page and from a
// memory map (the chunk whole and page by page), equal to the default read field by field
// (strings as values, other fields as arrays), each array valid; a file the default read
// refuses is refused with the same code.
TEST(ViewPagesCorpusTest, EveryFileEqualsDefaultRead) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::vector<std::string> files =
      ::strata::testing::ParquetFilesIn(::strata::testing::ParquetTestingDir(), /*recursive=*/true);
  ASSERT_GT(files.size(), 50u);
  auto pool = MakeSystemMemoryPool();
  int64_t view_columns = 0;
  for (const std::string& path : files) {
    SCOPED_TRACE(path);
    auto base_reader = FileReader::OpenFile(path, pool.get());
    if (!base_reader.ok()) continue;  // footers other tests refuse
    BatchReadOptions defaults;
    defaults.batch_rows = 1000;
    auto base = (*base_reader)->ReadTable(defaults);
    for (Source source : {Source::kFile, Source::kMemoryMap}) {
      for (int64_t whole_chunk_limit : {int64_t{0}, int64_t{8} << 20}) {
        if (source == Source::kFile && whole_chunk_limit > 0) continue;  // output_options_test's case
        auto reader = Open(source, nullptr, path, whole_chunk_limit, pool.get());
        ASSERT_NE(reader, nullptr);
        BatchReadOptions options = defaults;
        options.string_views = true;
        auto read = reader->ReadTable(options);
        if (!base.ok()) {
          ASSERT_FALSE(read.ok());
          EXPECT_EQ(read.status().code(), base.status().code()) << read.status().ToString();
          continue;
        }
        ASSERT_TRUE(read.ok()) << read.status().ToString();
        view_columns += pt::ExpectSameValues(**base, **read, [](TypeId id) {
          return id == TypeId::kStringView || id == TypeId::kBinaryView;
        });
      }
    }
  }
  EXPECT_GT(view_columns, 100);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::parquet
