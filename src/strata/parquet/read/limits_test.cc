// Hostile sizes: every count or length a file declares (value counts, page and dictionary sizes,
// string lengths, list lengths, nesting depth, row counts) is checked against the bytes that
// exist before it sizes an allocation. Each test builds a small file or structure that lies, and
// asserts a clear error and a small memory peak: in the pool for what the reader allocates, and
// in operator new (replaced below) for what the Thrift decoder puts in std::vector.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "strata/codec/codec.h"
#include "strata/memory/memory_scope.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/testing/test_data.h"

// These replacements of operator new/delete are malloc and free underneath; GCC 12 sees
// free() reached from operator delete and warns of a mismatch that is not one.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
// The largest single operator new request since the last reset: a decoder that reserves from
// a declared count shows up here even though it bypasses the memory pool.
namespace {
std::atomic<size_t> largest_new{0};
}  // namespace

void* operator new(size_t size) {
  size_t seen = largest_new.load(std::memory_order_relaxed);
  while (size > seen && !largest_new.compare_exchange_weak(seen, size, std::memory_order_relaxed)) {
  }
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace strata::parquet {
namespace {

constexpr int64_t kSmallPeak = 4 << 20;  // what any of these tiny files may cost, at most

// ---- building lying files ---------------------------------------------------------------------

std::string Page(const PageHeader& header, const std::string& body) {
  std::string out;
  SerializePageHeader(header, &out);
  return out + body;
}

PageHeader DataPageHeader(int32_t num_values, int32_t size, Encoding encoding = Encoding::kPlain) {
  PageHeader header;
  header.type = PageType::kDataPage;
  header.compressed_page_size = size;
  header.uncompressed_page_size = size;
  header.data_page_header = parquet::DataPageHeader{num_values, encoding, Encoding::kRle, Encoding::kRle, {}};
  return header;
}

PageHeader DictionaryPageHeaderOf(int32_t num_values, int32_t size) {
  PageHeader header;
  header.type = PageType::kDictionaryPage;
  header.compressed_page_size = size;
  header.uncompressed_page_size = size;
  header.dictionary_page_header = parquet::DictionaryPageHeader{num_values, Encoding::kPlain, {}};
  return header;
}

std::vector<SchemaElement> OneColumnSchema(PhysicalType type, FieldRepetitionType repetition) {
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement leaf;
  leaf.name = "x";
  leaf.type = type;
  leaf.repetition_type = repetition;
  return {root, leaf};
}

struct FileSpec {
  PhysicalType type = PhysicalType::kInt32;
  FieldRepetitionType repetition = FieldRepetitionType::kRequired;
  std::string chunk;  // page headers and bodies
  int64_t rows = 0;
  int64_t num_values = -1;  // column chunk metadata; -1 = rows
  CompressionCodec codec = CompressionCodec::kUncompressed;
  bool dictionary_first = false;
};

FileMetaData Metadata(const FileSpec& spec) {
  FileMetaData metadata;
  metadata.version = 1;
  metadata.schema = OneColumnSchema(spec.type, spec.repetition);
  metadata.num_rows = spec.rows;
  ColumnMetaData column;
  column.type = spec.type;
  column.encodings = {Encoding::kPlain, Encoding::kRle};
  column.path_in_schema = {"x"};
  column.codec = spec.codec;
  column.num_values = spec.num_values < 0 ? spec.rows : spec.num_values;
  column.total_uncompressed_size = static_cast<int64_t>(spec.chunk.size());
  column.total_compressed_size = static_cast<int64_t>(spec.chunk.size());
  column.data_page_offset = 4;
  if (spec.dictionary_first) column.dictionary_page_offset = 4;
  ColumnChunk chunk;
  chunk.file_offset = 4;
  chunk.meta_data = column;
  RowGroup row_group;
  row_group.columns = {chunk};
  row_group.num_rows = spec.rows;
  row_group.total_byte_size = static_cast<int64_t>(spec.chunk.size());
  metadata.row_groups = {row_group};
  return metadata;
}

std::string FileBytes(const std::string& chunk, const FileMetaData& metadata) {
  std::string footer;
  SerializeFileMetaData(metadata, &footer);
  std::string file = "PAR1" + chunk + footer;
  const uint32_t length = static_cast<uint32_t>(footer.size());
  file.append(reinterpret_cast<const char*>(&length), 4);
  return file + "PAR1";
}

std::string FileBytes(const FileSpec& spec) { return FileBytes(spec.chunk, Metadata(spec)); }

// Opens `bytes` and reads every batch; returns the first error.
Status ReadAll(const std::string& bytes, MemoryPool* pool, const FileReaderOptions& options = {}) {
  auto source = MakeBufferSource(std::make_shared<Buffer>(bytes), "hostile.parquet");
  auto reader = FileReader::Open(source, pool, options);
  if (!reader.ok()) return reader.status();
  auto table = (*reader)->ReadTable();
  return table.status();
}

// Reads a lying file and checks the error is `code`-like, names the file and mentions
// `expected_text`, and that the pool's peak stayed small and everything was returned.
void ExpectRefused(const std::string& bytes, const std::string& expected_text, bool corrupt_only = true) {
  auto pool = MakeSystemMemoryPool();
  largest_new = 0;
  Status st = ReadAll(bytes, pool.get());
  ASSERT_FALSE(st.ok()) << "a lying file read cleanly";
  if (corrupt_only) {
    EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
  } else {
    EXPECT_TRUE(st.IsCorrupt() || st.IsLimitExceeded()) << st.ToString();
  }
  EXPECT_NE(st.message().find(expected_text), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("hostile.parquet"), std::string::npos) << st.ToString();
  EXPECT_LT(pool->peak_bytes(), kSmallPeak) << st.ToString();
  EXPECT_LT(largest_new.load(), static_cast<size_t>(kSmallPeak)) << st.ToString();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

std::string Le32(uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

// ---- a well-formed baseline, so the lies below are the only thing wrong -------------------------

TEST(LimitsTest, BaselineFileReads) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  auto pool = MakeSystemMemoryPool();
  EXPECT_TRUE(ReadAll(FileBytes(spec), pool.get()).ok());
}

// ---- value counts, row counts ------------------------------------------------------------------

TEST(LimitsTest, PageValueCountBeyondItsBytes) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(INT32_MAX, 8), Le32(7) + Le32(9));
  spec.rows = INT32_MAX;
  ExpectRefused(FileBytes(spec), "column 'x' (row group 0): PLAIN: page holds 2 values where");
}

TEST(LimitsTest, RowGroupRowsBeyondTheChunk) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = int64_t{1} << 40;  // a 2-value chunk for a trillion rows
  ExpectRefused(FileBytes(spec), "column 'x' (row group 0): the column chunk ends after 2 rows; the row group declares 1099511627776");
}

TEST(LimitsTest, NegativeRowCount) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = -5;
  ExpectRefused(FileBytes(spec), "row group 0 declares -5 rows");
}

TEST(LimitsTest, NullableColumnLevelsBeyondTheirBytes) {
  // Definition levels: a 4-byte length prefix declaring 1 GiB of runs in a 10-byte page.
  FileSpec spec;
  spec.repetition = FieldRepetitionType::kOptional;
  spec.chunk = Page(DataPageHeader(1000, 10), Le32(1u << 30) + "abcdef");
  spec.rows = 1000;
  ExpectRefused(FileBytes(spec), "column 'x' (row group 0): RLE data at offset 4 declares 1073741824 bytes but only 6 remain");
}

// ---- dictionary pages ----------------------------------------------------------------------------

TEST(LimitsTest, DictionaryCountBeyondItsBytes) {
  FileSpec spec;
  spec.dictionary_first = true;
  spec.chunk = Page(DictionaryPageHeaderOf(INT32_MAX, 8), Le32(1) + Le32(2)) +
               Page(DataPageHeader(2, 2, Encoding::kRleDictionary), std::string("\x01\x04", 2));
  spec.rows = 2;
  ExpectRefused(FileBytes(spec), "dictionary");
}

TEST(LimitsTest, NegativeDictionaryCount) {
  FileSpec spec;
  spec.dictionary_first = true;
  spec.chunk = Page(DictionaryPageHeaderOf(-3, 8), Le32(1) + Le32(2)) +
               Page(DataPageHeader(2, 2, Encoding::kRleDictionary), std::string("\x01\x04", 2));
  spec.rows = 2;
  ExpectRefused(FileBytes(spec), "-3");
}

TEST(LimitsTest, ByteArrayDictionaryEntryLongerThanThePage) {
  FileSpec spec;
  spec.type = PhysicalType::kByteArray;
  spec.dictionary_first = true;
  spec.chunk = Page(DictionaryPageHeaderOf(1, 8), Le32(0xFFFFFFF0u) + "abcd") +
               Page(DataPageHeader(2, 2, Encoding::kRleDictionary), std::string("\x01\x04", 2));
  spec.rows = 2;
  ExpectRefused(FileBytes(spec), "dictionary");
}

// ---- string lengths ----------------------------------------------------------------------------

TEST(LimitsTest, ByteArrayLengthBeyondThePage) {
  FileSpec spec;
  spec.type = PhysicalType::kByteArray;
  spec.chunk = Page(DataPageHeader(1, 8), Le32(0xFFFFFFF0u) + "abcd");
  spec.rows = 1;
  ExpectRefused(FileBytes(spec), "bytes");
}

// ---- page sizes --------------------------------------------------------------------------------

TEST(LimitsTest, PageSizeBeyondTheChunk) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, INT32_MAX), Le32(7) + Le32(9));
  spec.rows = 2;
  ExpectRefused(FileBytes(spec), "runs past the end of the column chunk");
}

TEST(LimitsTest, NegativePageSize) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, -8), Le32(7) + Le32(9));
  spec.rows = 2;
  ExpectRefused(FileBytes(spec), "negative page size");
}

TEST(LimitsTest, PageAboveTheConfiguredLimitIsRefusedBeforeAllocating) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  FileReaderOptions options;
  options.pages.max_page_bytes = 4;
  auto pool = MakeSystemMemoryPool();
  Status st = ReadAll(FileBytes(spec), pool.get(), options);
  ASSERT_TRUE(st.IsLimitExceeded()) << st.ToString();
  EXPECT_NE(st.message().find("above the limit of 4"), std::string::npos) << st.ToString();
}

TEST(LimitsTest, ChunkOutsideTheFile) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  FileMetaData metadata = Metadata(spec);
  metadata.row_groups[0].columns[0].meta_data->total_compressed_size = int64_t{1} << 50;
  ExpectRefused(FileBytes(spec.chunk, metadata), "lies outside the file");
}

// ---- decompression checks declared sizes -------------------------------------------------------

std::string Compress(codec::CompressionCodec type, const std::string& data) {
  auto pool = SystemMemoryPool();
  auto codec = *codec::MakeCodec(type, pool);
  ResizableBuffer out(pool);
  EXPECT_TRUE(codec->Compress({reinterpret_cast<const uint8_t*>(data.data()), data.size()}, &out).ok());
  return std::string(out.view());
}

TEST(LimitsTest, DecompressedSizeMustMatchTheHeader) {
  const std::string values = Le32(1) + Le32(2) + Le32(3) + Le32(4);
  const std::string packed = Compress(codec::CompressionCodec::kSnappy, values);
  for (int32_t declared : {8, 15, 17, 64}) {
    PageHeader header = DataPageHeader(4, static_cast<int32_t>(packed.size()));
    header.uncompressed_page_size = declared;
    FileSpec spec;
    spec.codec = CompressionCodec::kSnappy;
    spec.chunk = Page(header, packed);
    spec.rows = 4;
    SCOPED_TRACE(declared);
    // Longer than the data: the codec stops at the header's size; shorter: the size check.
    ExpectRefused(FileBytes(spec), declared < 16 ? fmt::format("page at offset 4: SNAPPY data of {} bytes decompresses to more than the declared {} bytes", packed.size(), declared)
                                                 : fmt::format("page at offset 4: decompressed to 16 bytes, the header declares {}", declared));
  }
}

// A 30-byte snappy page whose header claims 1 GiB: the claim is checked before a buffer that
// size is allocated (snappy states its own length; other codecs are bounded by their maximum
// expansion ratio).
TEST(LimitsTest, DecompressionBombHeaderIsRefusedBeforeAllocating) {
  const std::string packed = Compress(codec::CompressionCodec::kSnappy, std::string(64, 'a'));
  PageHeader header = DataPageHeader(16, static_cast<int32_t>(packed.size()));
  header.uncompressed_page_size = (1 << 30) - 1;
  FileSpec spec;
  spec.codec = CompressionCodec::kSnappy;
  spec.chunk = Page(header, packed);
  spec.rows = 16;
  ExpectRefused(FileBytes(spec), "cannot decompress to the 1073741823 bytes the header declares");
}

// ---- per-reader memory limit -------------------------------------------------------------------

TEST(LimitsTest, PoolLimitTurnsAnOversizedReadIntoOutOfMemory) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = strata::testing::ParquetTestingFile("data/alltypes_tiny_pages.parquet");
  // Opening needs the 64 KiB tail read, then the footer's and schema's heap bytes (charged):
  // a limit below that fails in the footer, one above it in a column.
  int64_t open_peak = 0;
  {
    auto unlimited = MakeSystemMemoryPool();
    auto reader = FileReader::OpenFile(path, unlimited.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    open_peak = unlimited->peak_bytes();
  }
  ASSERT_LT(open_peak, int64_t{256} << 10);
  auto pool = MakeSystemMemoryPool();
  for (int64_t limit : {int64_t{4} << 10, int64_t{64} << 10, int64_t{256} << 10}) {
    pool->set_limit(limit);
    Status st;
    {
      auto reader = FileReader::OpenFile(path, pool.get());
      if (!reader.ok()) {
        st = reader.status();
      } else {
        st = (*reader)->ReadTable().status();
      }
    }
    ASSERT_TRUE(st.IsOutOfMemory()) << limit << ": " << st.ToString();
    // The message names the allocation and the limit, and where in the file it happened.
    EXPECT_NE(st.message().find("allocation of"), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find(std::to_string(limit)), std::string::npos) << st.ToString();
    EXPECT_NE(st.message().find("alltypes_tiny_pages.parquet"), std::string::npos) << st.ToString();
    // Past the footer, it names the column too.
    if (limit >= open_peak) {
      EXPECT_NE(st.message().find("column '"), std::string::npos) << st.ToString();
    }
    EXPECT_LE(pool->peak_bytes(), limit);
    EXPECT_EQ(pool->bytes_in_use(), 0) << limit;
    pool->ResetPeak();
  }
  // Without the limit the same read succeeds: the limit, not the file, made it fail.
  pool->set_limit(0);
  auto reader = FileReader::OpenFile(path, pool.get());
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE((*reader)->ReadTable().ok());
}

// ---- footers: lengths, list sizes, string lengths, nesting -------------------------------------

TEST(LimitsTest, FooterLengthBeyondTheFile) {
  std::string file = "PAR1" + std::string(16, '\0') + Le32(0xFFFFFFF0u) + "PAR1";
  ExpectRefused(file, "footer length 4294967280 at offset 20 exceeds the file size");
}

TEST(LimitsTest, FooterAboveTheConfiguredLimit) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  FileReaderOptions options;
  options.footer.max_footer_bytes = 16;
  auto pool = MakeSystemMemoryPool();
  Status st = ReadAll(FileBytes(spec), pool.get(), options);
  EXPECT_TRUE(st.IsLimitExceeded()) << st.ToString();
}

// Raw compact-protocol FileMetaData prefixes: version = 1, then the lie.
const std::string kVersion1 = std::string("\x15\x02", 2);

void ExpectFooterBytesRefused(const std::string& metadata, const std::string& expected_text) {
  largest_new = 0;
  FileMetaData out;
  auto consumed =
      DeserializeFileMetaData(reinterpret_cast<const uint8_t*>(metadata.data()), metadata.size(), &out);
  ASSERT_FALSE(consumed.ok());
  EXPECT_TRUE(consumed.status().IsCorrupt()) << consumed.status().ToString();
  EXPECT_NE(consumed.status().message().find(expected_text), std::string::npos) << consumed.status().ToString();
  EXPECT_LT(largest_new.load(), size_t{1} << 20) << consumed.status().ToString();
  // And as a whole file: the same finding, placed in the footer.
  ExpectRefused("PAR1" + metadata + Le32(static_cast<uint32_t>(metadata.size())) + "PAR1", expected_text, false);
}

TEST(LimitsTest, ThriftListSizeBeyondTheBytes) {
  // Field 2 (schema), list of structs, size 2^31 - 1 as a varint.
  ExpectFooterBytesRefused(kVersion1 + std::string("\x19\xFC\xFF\xFF\xFF\xFF\x07", 7) + std::string(8, '\0'),
                           "Thrift FileMetaData.schema: list of 2147483647 struct elements");
  // A more modest ten million, still far beyond the 10 bytes that follow.
  ExpectFooterBytesRefused(kVersion1 + std::string("\x19\xFC\x80\xAD\xE2\x04", 6) + std::string(10, '\0'),
                           "Thrift FileMetaData.schema: list of 10000000 struct elements");
}

TEST(LimitsTest, ThriftStringLengthBeyondTheBytes) {
  // Field 6 (created_by), binary of 2^31 - 1 bytes.
  ExpectFooterBytesRefused(kVersion1 + std::string("\x58\xFF\xFF\xFF\xFF\x07", 6) + "abc",
                           "Thrift FileMetaData.created_by: binary length 2147483647");
}

TEST(LimitsTest, ThriftNestingDepthIsBounded) {
  // Field 2 declared as a struct (wrong type, so skipped), containing a struct, containing ...
  // 100000 levels: a recursive skip without a bound would overflow the stack.
  std::string metadata = kVersion1 + "\x1C" + std::string(100000, '\x1C');
  ExpectFooterBytesRefused(metadata, "nesting deeper than");
}

TEST(LimitsTest, SchemaNestingDepthIsBounded) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  FileMetaData metadata = Metadata(spec);
  std::vector<SchemaElement> schema;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  schema.push_back(root);
  for (int depth = 0; depth < 5000; ++depth) {
    SchemaElement group;
    group.name = "g" + std::to_string(depth);
    group.num_children = 1;
    group.repetition_type = FieldRepetitionType::kOptional;
    schema.push_back(group);
  }
  schema.push_back(OneColumnSchema(PhysicalType::kInt32, FieldRepetitionType::kRequired)[1]);
  metadata.schema = schema;
  auto pool = MakeSystemMemoryPool();
  Status st = ReadAll(FileBytes(spec.chunk, metadata), pool.get());
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(st.IsLimitExceeded() || st.IsCorrupt()) << st.ToString();
  EXPECT_NE(st.message().find("nesting"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("hostile.parquet"), std::string::npos) << st.ToString();
}

TEST(LimitsTest, SchemaChildCountBeyondTheElements) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  FileMetaData metadata = Metadata(spec);
  metadata.schema[0].num_children = INT32_MAX;
  ExpectRefused(FileBytes(spec.chunk, metadata), "schema element 'schema' declares more children than the schema holds");
}

TEST(LimitsTest, RowGroupChunkCountDisagreesWithTheSchema) {
  FileSpec spec;
  spec.chunk = Page(DataPageHeader(2, 8), Le32(7) + Le32(9));
  spec.rows = 2;
  FileMetaData metadata = Metadata(spec);
  metadata.row_groups[0].columns.push_back(metadata.row_groups[0].columns[0]);
  ExpectRefused(FileBytes(spec.chunk, metadata), "column chunks");
}

}  // namespace
}  // namespace strata::parquet
