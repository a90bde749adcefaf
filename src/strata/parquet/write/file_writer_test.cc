// The writer end to end: what it writes reads back exactly through strata's reader, for every
// codec, page version, encoding and nesting, with the row-group and page limits, statistics,
// the page index, safe output and bounded, reused memory.
#include "strata/parquet/write/file_writer.h"

#include <dirent.h>
#include <sys/stat.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <tuple>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/exec/process_pool.h"
#include "strata/parquet/stats/page_index.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

using testing::OpenBuffer;
using testing::RandomBatch;
using testing::ReadBuffer;
using testing::WriteToBuffer;

MemoryPool* Pool() { return SystemMemoryPool(); }

std::shared_ptr<Schema> FlatSchema() {
  return std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("i32", int32()),
      std::make_shared<Field>("i64", int64(), false),
      std::make_shared<Field>("f32", float32()),
      std::make_shared<Field>("f64", float64()),
      std::make_shared<Field>("flag", boolean()),
      std::make_shared<Field>("name", utf8()),
      std::make_shared<Field>("blob", binary(), false),
      std::make_shared<Field>("fixed", fixed_size_binary(7)),
  });
}

std::vector<std::shared_ptr<RecordBatch>> Batches(const std::shared_ptr<Schema>& schema, int count, int64_t rows,
                                                  const testing::RandomArrayOptions& options = {}) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < count; ++i) {
    auto batch = RandomBatch(schema, rows, static_cast<uint64_t>(i + 1), Pool(), options);
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    batches.push_back(*batch);
  }
  return batches;
}

void ExpectRoundTrip(const std::shared_ptr<Schema>& schema, const std::vector<std::shared_ptr<RecordBatch>>& batches,
                     const WriterOptions& options, const BatchReadOptions& read = {}) {
  auto file = WriteToBuffer(schema, batches, options, Pool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto table = ReadBuffer(*file, Pool(), read);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto expected = Table::FromRecordBatches(schema, batches);
  ASSERT_TRUE(expected.ok());
  ASSERT_EQ((*table)->num_rows(), (*expected)->num_rows());
  EXPECT_TRUE((*table)->Equals(**expected)) << "read back:\n"
                                            << (*table)->ToString().substr(0, 2000) << "\nwritten:\n"
                                            << (*expected)->ToString().substr(0, 2000);
}

// ---- every codec x page version x dictionary ---------------------------------------------------

using CodecCase = std::tuple<codec::CompressionCodec, DataPageVersion, bool>;
class WriterCodecTest : public ::testing::TestWithParam<CodecCase> {};

TEST_P(WriterCodecTest, FlatColumnsRoundTrip) {
  const auto [codec, version, dictionary] = GetParam();
  WriterOptions options;
  options.columns.codec = codec;
  options.columns.dictionary = dictionary;
  options.file.page_version = version;
  options.file.data_page_rows = 700;     // several pages per chunk
  options.file.max_row_group_rows = 2500;  // row groups that cut batches
  testing::RandomArrayOptions values;
  values.distinct_values = dictionary ? 50 : 0;
  ExpectRoundTrip(FlatSchema(), Batches(FlatSchema(), 3, 2000, values), options);
}

INSTANTIATE_TEST_SUITE_P(
    AllCodecs, WriterCodecTest,
    ::testing::Combine(::testing::Values(codec::CompressionCodec::kUncompressed, codec::CompressionCodec::kSnappy,
                                         codec::CompressionCodec::kGzip, codec::CompressionCodec::kZstd,
                                         codec::CompressionCodec::kLz4Raw, codec::CompressionCodec::kLz4,
                                         codec::CompressionCodec::kBrotli),
                       ::testing::Values(DataPageVersion::kV1, DataPageVersion::kV2), ::testing::Bool()));

// ---- explicit encodings --------------------------------------------------------------------------

struct EncodingCase {
  TypePtr type;
  Encoding encoding;
};

class WriterEncodingTest : public ::testing::TestWithParam<std::tuple<int, DataPageVersion>> {};

const std::vector<EncodingCase>& EncodingCases() {
  static const std::vector<EncodingCase> cases = {
      {int32(), Encoding::kDeltaBinaryPacked},     {int64(), Encoding::kDeltaBinaryPacked},
      {int32(), Encoding::kByteStreamSplit},       {int64(), Encoding::kByteStreamSplit},
      {float32(), Encoding::kByteStreamSplit},     {float64(), Encoding::kByteStreamSplit},
      {fixed_size_binary(5), Encoding::kByteStreamSplit}, {utf8(), Encoding::kDeltaLengthByteArray},
      {utf8(), Encoding::kDeltaByteArray},         {fixed_size_binary(5), Encoding::kDeltaByteArray},
      {boolean(), Encoding::kRle},                 {boolean(), Encoding::kPlain},
      {float64(), Encoding::kPlain},               {int16(), Encoding::kDeltaBinaryPacked},
      {uint64(), Encoding::kDeltaBinaryPacked},    {decimal128(30, 4), Encoding::kByteStreamSplit},
      {float32(), Encoding::kAlp},                 {float64(), Encoding::kAlp},
  };
  return cases;
}

TEST_P(WriterEncodingTest, ValuesRoundTripAndTheEncodingIsRecorded) {
  const auto [index, version] = GetParam();
  const EncodingCase& c = EncodingCases()[static_cast<size_t>(index)];
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", c.type),
                                                               std::make_shared<Field>("w", c.type, false)});
  WriterOptions options;
  options.columns.dictionary = false;
  options.columns.encoding = c.encoding;
  options.file.page_version = version;
  options.file.data_page_rows = 333;
  auto batches = Batches(schema, 2, 1500);
  ExpectRoundTrip(schema, batches, options);
  auto file = WriteToBuffer(schema, batches, options, Pool());
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  for (const ColumnChunk& chunk : (*reader)->metadata().row_groups[0].columns) {
    const auto& encodings = chunk.meta_data->encodings;
    EXPECT_NE(std::find(encodings.begin(), encodings.end(), c.encoding), encodings.end())
        << c.type->ToString() << " " << EncodingName(c.encoding);
  }
}

INSTANTIATE_TEST_SUITE_P(AllEncodings, WriterEncodingTest,
                         ::testing::Combine(::testing::Range(0, 18),
                                            ::testing::Values(DataPageVersion::kV1, DataPageVersion::kV2)));

TEST(WriterOptionsTest, EncodingsThatDoNotApplyAreRefusedNamingTheColumn) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("price", float64())});
  WriterOptions options;
  options.column_overrides["price"].encoding = Encoding::kDeltaBinaryPacked;
  auto writer = FileWriter::Open(std::make_unique<BufferSink>(Pool()), schema, Pool(), options);
  ASSERT_FALSE(writer.ok());
  EXPECT_TRUE(writer.status().IsInvalid());
  EXPECT_NE(writer.status().message().find("'price'"), std::string::npos) << writer.status().ToString();
  EXPECT_NE(writer.status().message().find("DELTA_BINARY_PACKED"), std::string::npos);

  WriterOptions unknown;
  unknown.column_overrides["nope"].codec = codec::CompressionCodec::kZstd;
  writer = FileWriter::Open(std::make_unique<BufferSink>(Pool()), schema, Pool(), unknown);
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("'nope'"), std::string::npos);

  WriterOptions bad_level;
  bad_level.columns.codec = codec::CompressionCodec::kGzip;
  bad_level.columns.compression_level = 42;
  EXPECT_FALSE(bad_level.Validate().ok());
  WriterOptions bad_pages;
  bad_pages.file.data_page_rows = 0;
  EXPECT_FALSE(bad_pages.Validate().ok());
}

// ALP through the whole writer and reader: every float and double bit pattern that matters
// (NaN payloads, -0.0, infinities, subnormals, decimals, values without a decimal form) with
// nulls between them, over several pages, v1 and v2, equal bit for bit.
TEST(FileWriterTest, AlpColumnsRoundTripBitForBitWithNulls) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("f", float32()),
                                                               std::make_shared<Field>("d", float64()),
                                                               std::make_shared<Field>("price", float64(), false)});
  constexpr int64_t kRows = 5000;
  FloatBuilder floats(float32(), Pool());
  DoubleBuilder doubles(float64(), Pool());
  DoubleBuilder prices(float64(), Pool());
  const uint64_t double_specials[] = {0x8000000000000000u, 0x7FF0000000000000u, 0xFFF0000000000000u,
                                      0x7FF8000000000001u, 0x7FF0000000000001u, 0xFFF80000DEADBEEFu,
                                      0x0000000000000001u, 0x000FFFFFFFFFFFFFu, 0x3FD5555555555555u};
  const uint32_t float_specials[] = {0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00001u,
                                     0x7F800001u, 0xFFC0BEEFu, 0x00000001u, 0x007FFFFFu, 0x3EAAAAABu};
  for (int64_t i = 0; i < kRows; ++i) {
    if (i % 7 == 3) {
      ASSERT_TRUE(floats.AppendNull().ok());
    } else {
      ASSERT_TRUE(floats.Append(i % 13 == 0 ? std::bit_cast<float>(float_specials[i / 13 % 9])
                                            : static_cast<float>(i % 1000) / 10.0f).ok());
    }
    if (i % 5 == 1) {
      ASSERT_TRUE(doubles.AppendNull().ok());
    } else {
      ASSERT_TRUE(doubles.Append(i % 11 == 0 ? std::bit_cast<double>(double_specials[i / 11 % 9])
                                             : static_cast<double>(i * 37 % 100000) / 100.0).ok());
    }
    ASSERT_TRUE(prices.Append(static_cast<double>(i % 50 + 1) * 1234.56).ok());
  }
  const Array f(*floats.Finish()), d(*doubles.Finish()), p(*prices.Finish());
  auto batch = RecordBatch::Make(schema, kRows, {f, d, p});
  ASSERT_TRUE(batch.ok());
  for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    WriterOptions options;
    options.columns.encoding = Encoding::kAlp;
    options.columns.dictionary = false;
    options.file.page_version = version;
    options.file.data_page_rows = 1500;  // pages of several vectors and a partial last one
    auto file = WriteToBuffer(schema, {*batch}, options, Pool());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto reader = OpenBuffer(*file, Pool());
    ASSERT_TRUE(reader.ok());
    for (const ColumnChunk& chunk : (*reader)->metadata().row_groups[0].columns) {
      const auto& encodings = chunk.meta_data->encodings;
      EXPECT_NE(std::find(encodings.begin(), encodings.end(), Encoding::kAlp), encodings.end());
    }
    auto table = ReadBuffer(*file, Pool());
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    ASSERT_EQ((*table)->num_rows(), kRows);
    auto expect_bits = [&](int column, const Array& expected, int width) {
      int64_t row = 0;
      for (const Array& chunk : (*table)->column(column)->chunks()) {
        for (int64_t i = 0; i < chunk.length(); ++i, ++row) {
          ASSERT_EQ(chunk.IsValid(i), expected.IsValid(row)) << "column " << column << " row " << row;
          if (!expected.IsValid(row)) continue;
          const uint8_t* got = chunk.data()->buffers[1]->data() + (chunk.offset() + i) * width;
          const uint8_t* want = expected.data()->buffers[1]->data() + row * width;
          ASSERT_EQ(std::memcmp(got, want, static_cast<size_t>(width)), 0) << "column " << column << " row " << row;
        }
      }
      EXPECT_EQ(row, kRows);
    };
    expect_bits(0, f, 4);
    expect_bits(1, d, 8);
    expect_bits(2, p, 8);
  }
}

TEST(WriterOptionsTest, AlpAppliesToFloatAndDoubleOnly) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("n", int64())});
  WriterOptions options;
  options.columns.encoding = Encoding::kAlp;
  auto writer = FileWriter::Open(std::make_unique<BufferSink>(Pool()), schema, Pool(), options);
  ASSERT_FALSE(writer.ok());
  EXPECT_NE(writer.status().message().find("column 'n': ALP encoding does not apply to INT64"), std::string::npos)
      << writer.status().ToString();
  EXPECT_EQ(ColumnWriteOptions{}.encoding, Encoding::kPlain);  // never chosen by default
}

TEST(WriterOptionsTest, OverridesApplyByLongestPathPrefix) {
  WriterOptions options;
  options.column_overrides["a"].codec = codec::CompressionCodec::kZstd;
  options.column_overrides["a.b"].codec = codec::CompressionCodec::kGzip;
  EXPECT_EQ(options.ForColumn("a.c").codec, codec::CompressionCodec::kZstd);
  EXPECT_EQ(options.ForColumn("a.b").codec, codec::CompressionCodec::kGzip);
  EXPECT_EQ(options.ForColumn("a.b.list.element").codec, codec::CompressionCodec::kGzip);
  EXPECT_EQ(options.ForColumn("ab").codec, codec::CompressionCodec::kSnappy);
}

// ---- dictionary fallback, row groups, pages --------------------------------------------------

TEST(FileWriterTest, DictionaryFallsBackToPlainPastItsByteLimit) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("s", utf8())});
  WriterOptions options;
  options.columns.dictionary_page_bytes = 2000;
  options.file.data_page_rows = 500;
  auto batches = Batches(schema, 1, 5000);  // ~5000 distinct strings: far past 2000 bytes
  ExpectRoundTrip(schema, batches, options);
  auto file = WriteToBuffer(schema, batches, options, Pool());
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  const ColumnMetaData& meta = *(*reader)->metadata().row_groups[0].columns[0].meta_data;
  int dictionary_pages = 0, plain_pages = 0, dictionary_data_pages = 0;
  for (const PageEncodingStats& stats : *meta.encoding_stats) {
    if (stats.page_type == PageType::kDictionaryPage) dictionary_pages += stats.count;
    if (stats.page_type == PageType::kDataPage && stats.encoding == Encoding::kPlain) plain_pages += stats.count;
    if (stats.page_type == PageType::kDataPage && stats.encoding == Encoding::kRleDictionary) {
      dictionary_data_pages += stats.count;
    }
  }
  EXPECT_EQ(dictionary_pages, 1);
  EXPECT_GE(dictionary_data_pages, 1);
  EXPECT_GE(plain_pages, 1);
  EXPECT_TRUE(meta.dictionary_page_offset.has_value());
}

// A column whose dictionary overflows builds its dictionary page there and then, keeping only
// the stored page: the row group no longer holds, per column, the dictionary's entries plus
// its PLAIN and compressed pages until it is written. Eight such columns in one row group:
// with the dictionary on, the writer holds about one stored dictionary page per column more
// than a PLAIN-only write of the same rows.
TEST(FileWriterTest, AnOverflowedDictionaryIsFreedAtTheFallback) {
  std::vector<FieldPtr> fields;
  for (int i = 0; i < 8; ++i) fields.push_back(std::make_shared<Field>(fmt::format("c{}", i), int64(), false));
  auto schema = std::make_shared<Schema>(fields);
  auto batches = Batches(schema, 4, 50000);  // random int64: every value distinct
  // What the writer holds with the whole row group buffered, just before Close().
  auto held_before_close = [&](bool dictionary) -> int64_t {
    WriterOptions options;
    options.columns.codec = codec::CompressionCodec::kSnappy;
    options.columns.dictionary = dictionary;
    options.columns.dictionary_page_bytes = 256 << 10;
    // Data pages far smaller than the dictionary page, as on a column of long strings.
    options.file.data_page_rows = 2000;
    auto sink = std::make_unique<BufferSink>(SystemMemoryPool());
    BufferSink* raw = sink.get();
    auto writer = FileWriter::Open(std::move(sink), schema, Pool(), options);
    EXPECT_TRUE(writer.ok());
    for (const auto& batch : batches) EXPECT_TRUE((*writer)->WriteBatch(*batch).ok());
    const int64_t held = (*writer)->memory_size();
    EXPECT_TRUE((*writer)->Close().ok());
    auto reader = OpenBuffer(*raw->Finish(), Pool());
    EXPECT_TRUE(reader.ok());
    EXPECT_EQ((*reader)->num_row_groups(), 1);
    if (dictionary) {  // every column did fall back
      for (const ColumnChunk& chunk : (*reader)->metadata().row_groups[0].columns) {
        EXPECT_TRUE(chunk.meta_data->dictionary_page_offset.has_value());
      }
    }
    ExpectRoundTrip(schema, batches, options);
    return held;
  };
  const int64_t plain = held_before_close(false);
  const int64_t with_dictionary = held_before_close(true);
  // Per column at most its stored dictionary page (32K int64 entries, 256 KiB before snappy):
  // 0.84 MB beyond PLAIN for the eight. Keeping the codec's output buffer at the dictionary
  // page's size held 3.2 MB; holding the entries until the row group was written held more, and
  // the PLAIN and compressed pages came on top at Close().
  const int64_t page = 256 << 10;
  EXPECT_LT(with_dictionary - plain, 8 * (page + page / 8)) << "plain " << plain << ", with a dictionary " << with_dictionary;
}

// ALP asked for with the dictionary on is the fallback encoding, as every explicit encoding.
TEST(FileWriterTest, DictionaryFallsBackToAlp) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("d", float64())});
  WriterOptions options;
  options.columns.encoding = Encoding::kAlp;
  options.columns.dictionary_page_bytes = 2000;
  options.file.data_page_rows = 500;
  auto batches = Batches(schema, 1, 5000);
  ExpectRoundTrip(schema, batches, options);
  auto file = WriteToBuffer(schema, batches, options, Pool());
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  int alp_pages = 0, dictionary_data_pages = 0;
  for (const PageEncodingStats& stats : *(*reader)->metadata().row_groups[0].columns[0].meta_data->encoding_stats) {
    if (stats.page_type == PageType::kDataPage && stats.encoding == Encoding::kAlp) alp_pages += stats.count;
    if (stats.page_type == PageType::kDataPage && stats.encoding == Encoding::kRleDictionary) {
      dictionary_data_pages += stats.count;
    }
  }
  EXPECT_GE(dictionary_data_pages, 1);
  EXPECT_GE(alp_pages, 1);
}

TEST(FileWriterTest, RowGroupsEndAtTheRowLimitAndTheByteLimit) {
  auto schema = FlatSchema();
  auto batches = Batches(schema, 4, 1375);  // 5500 rows
  WriterOptions by_rows;
  by_rows.file.max_row_group_rows = 1000;
  auto file = WriteToBuffer(schema, batches, by_rows, Pool());
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ((*reader)->num_row_groups(), 6);
  for (int i = 0; i < 5; ++i) EXPECT_EQ((*reader)->metadata().row_groups[static_cast<size_t>(i)].num_rows, 1000);
  EXPECT_EQ((*reader)->metadata().row_groups[5].num_rows, 500);
  EXPECT_EQ((*reader)->metadata().num_rows, 5500);

  WriterOptions by_bytes;
  by_bytes.file.max_row_group_bytes = 4096;
  by_bytes.columns.codec = codec::CompressionCodec::kUncompressed;
  by_bytes.file.data_page_rows = 100;
  file = WriteToBuffer(schema, Batches(schema, 1, 100000), by_bytes, Pool());
  ASSERT_TRUE(file.ok());
  reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  EXPECT_GT((*reader)->num_row_groups(), 1);
  ExpectRoundTrip(schema, Batches(schema, 1, 100000), by_bytes);
}

TEST(FileWriterTest, PagesEndAtTheRowLimitAndTheOffsetIndexListsThem) {
  auto schema = FlatSchema();
  WriterOptions options;
  options.file.data_page_rows = 128;
  auto file = WriteToBuffer(schema, Batches(schema, 1, 1000), options, Pool());
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  for (const ColumnChunk& chunk : (*reader)->metadata().row_groups[0].columns) {
    auto offsets = ReadOffsetIndex((*reader)->source(), chunk, Pool());
    ASSERT_TRUE(offsets.ok()) << offsets.status().ToString();
    ASSERT_TRUE(offsets->has_value());
    const auto& pages = (*offsets)->page_locations;
    ASSERT_EQ(pages.size(), 8u);  // ceil(1000 / 128)
    for (size_t p = 0; p < pages.size(); ++p) EXPECT_EQ(pages[p].first_row_index, static_cast<int64_t>(p) * 128);
    EXPECT_EQ(pages[0].offset, chunk.meta_data->data_page_offset);
    auto index = ReadColumnIndex((*reader)->source(), chunk, Pool());
    ASSERT_TRUE(index.ok()) << index.status().ToString();
    if (chunk.meta_data->type != PhysicalType::kBoolean || true) {
      ASSERT_TRUE(index->has_value()) << chunk.meta_data->path_in_schema[0];
      EXPECT_EQ((*index)->null_pages.size(), 8u);
    }
  }
}

// A wide schema: the pages being filled share half of max_row_group_bytes (here 8 KiB each,
// the least), pages end within a value of that size, and row groups end near the byte limit
// (a slice of rows at a time, fewer rows a slice for more columns). Values round-trip.
TEST(FileWriterTest, WideSchemasBoundTheirPagesAndRowGroups) {
  std::vector<FieldPtr> fields;
  for (int c = 0; c < 400; ++c) fields.push_back(std::make_shared<Field>("c" + std::to_string(c), int64()));
  auto schema = std::make_shared<Schema>(std::move(fields));
  WriterOptions options;
  options.file.max_row_group_bytes = 6 << 20;  // 15 KiB a column: chunks of two pages
  options.columns.codec = codec::CompressionCodec::kUncompressed;
  options.columns.dictionary = false;
  const auto batches = Batches(schema, 1, 12000);
  auto file = WriteToBuffer(schema, batches, options, Pool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  const auto& groups = (*reader)->metadata().row_groups;
  EXPECT_GT(groups.size(), 3u);
  size_t pages_seen = 0;
  for (const RowGroup& group : groups) {
    // The limit, and one slice of 256 rows (400 columns of 8 bytes: 800 KB) past it at most.
    EXPECT_LE(group.total_byte_size, (6 << 20) + 256 * 400 * 8 + 400 * 1024) << group.num_rows << " rows";
    for (const ColumnChunk& chunk : group.columns) {
      auto offsets = ReadOffsetIndex((*reader)->source(), chunk, Pool());
      ASSERT_TRUE(offsets.ok() && offsets->has_value());
      pages_seen += (*offsets)->page_locations.size();
      for (const PageLocation& page : (*offsets)->page_locations) {
        // 8 KiB of values, one more value, the levels and the page header.
        EXPECT_LE(page.compressed_page_size, 8192 + 8 + 1024 + 256) << chunk.meta_data->path_in_schema[0];
      }
    }
  }
  EXPECT_GT(pages_seen, 2 * groups.size() * 400 - 400);  // chunks of two pages, but for the last row group
  ExpectRoundTrip(schema, batches, options);
}

// FileWriter::WriteRowGroupByColumn with column_by_column: a wide row group written a few
// columns at a time holds those columns, not the row group; the rows read back the same.
TEST(FileWriterTest, ColumnByColumnHoldsAFewChunksNotTheRowGroup) {
  std::vector<FieldPtr> fields;
  for (int c = 0; c < 200; ++c) fields.push_back(std::make_shared<Field>("c" + std::to_string(c), int64()));
  auto schema = std::make_shared<Schema>(std::move(fields));
  const auto batches = Batches(schema, 1, 10000);
  WriterOptions options;
  options.columns.codec = codec::CompressionCodec::kUncompressed;
  options.columns.dictionary = false;
  auto peak_of = [&](bool by_column) -> int64_t {
    auto pool = MakeSystemMemoryPool();
    WriterOptions these = options;
    these.file.column_by_column = by_column;
    auto sink = std::make_unique<BufferSink>(Pool());  // the file's bytes are not the writer's
    BufferSink* raw = sink.get();
    auto writer = FileWriter::Open(std::move(sink), schema, pool.get(), these);
    EXPECT_TRUE(writer.ok());
    if (by_column) {
      EXPECT_TRUE((*writer)
                      ->WriteRowGroupByColumn(10000, [&](int field, const FileWriter::EmitColumn& emit) {
                        return emit(batches[0]->column(field));
                      })
                      .ok());
    } else {
      EXPECT_TRUE((*writer)->WriteBatch(*batches[0]).ok());
    }
    EXPECT_TRUE((*writer)->Close().ok());
    auto file = raw->Finish();
    EXPECT_TRUE(file.ok());
    auto table = ReadBuffer(*file, Pool());
    EXPECT_TRUE(table.ok());
    EXPECT_EQ((*table)->num_rows(), 10000);
    for (int c : {0, 77, 199}) {
      EXPECT_TRUE((*table)->column(c)->chunk(0).Equals(batches[0]->column(c))) << c;
    }
    if (by_column) {
      auto reader = OpenBuffer(*file, Pool());
      EXPECT_EQ((*reader)->metadata().row_groups.size(), 1u);
    }
    return pool->peak_bytes();
  };
  const int64_t whole = peak_of(false);
  const int64_t by_column = peak_of(true);
  // 200 chunks of 80 KB encoded at once, against a few at a time (twice the threads).
  EXPECT_GT(whole, 12 << 20);
  EXPECT_LT(by_column, whole / 8) << by_column << " against " << whole;
}

TEST(FileWriterTest, ChunkStatisticsAreExact) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("n", int64()),
                                                               std::make_shared<Field>("s", utf8())});
  // Build known values: n = -5, null, 7, 3; s = "pear", "apple", null, "zebra".
  Int64Builder ints(int64(), Pool());
  ASSERT_TRUE(ints.Append(-5).ok());
  ASSERT_TRUE(ints.AppendNull().ok());
  ASSERT_TRUE(ints.Append(7).ok());
  ASSERT_TRUE(ints.Append(3).ok());
  StringBuilder strings(utf8(), Pool());
  ASSERT_TRUE(strings.Append("pear").ok());
  ASSERT_TRUE(strings.Append("apple").ok());
  ASSERT_TRUE(strings.AppendNull().ok());
  ASSERT_TRUE(strings.Append("zebra").ok());
  auto batch = RecordBatch::Make(schema, 4, {Array(*ints.Finish()), Array(*strings.Finish())});
  ASSERT_TRUE(batch.ok());
  auto file = WriteToBuffer(schema, {*batch}, {}, Pool());
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, Pool());
  ASSERT_TRUE(reader.ok());
  const auto& columns = (*reader)->metadata().row_groups[0].columns;
  const Statistics& ni = *columns[0].meta_data->statistics;
  int64_t min, max;
  ASSERT_TRUE(ni.min_value && ni.max_value);
  std::memcpy(&min, ni.min_value->data(), 8);
  std::memcpy(&max, ni.max_value->data(), 8);
  EXPECT_EQ(min, -5);
  EXPECT_EQ(max, 7);
  EXPECT_EQ(ni.null_count, 1);
  const Statistics& si = *columns[1].meta_data->statistics;
  EXPECT_EQ(si.min_value, "apple");
  EXPECT_EQ(si.max_value, "zebra");
  EXPECT_EQ(si.null_count, 1);
  EXPECT_EQ(columns[1].meta_data->size_statistics->unencoded_byte_array_data_bytes, 14);
  EXPECT_EQ(*columns[1].meta_data->size_statistics->definition_level_histogram, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ((*reader)->metadata().created_by.value_or("").rfind("strata version ", 0), 0u);
  ASSERT_TRUE((*reader)->metadata().column_orders.has_value());
  EXPECT_EQ((*reader)->metadata().column_orders->size(), 2u);
}

// ---- nested ---------------------------------------------------------------------------------------

TEST(FileWriterTest, NestedColumnsRoundTrip) {
  auto item = std::make_shared<Field>("item", int32());
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("ints", list(int32())),
      std::make_shared<Field>("nested", list(std::make_shared<Field>("item", list(utf8())))),
      std::make_shared<Field>("record", struct_({std::make_shared<Field>("a", int64()),
                                                 std::make_shared<Field>("b", list(float64())),
                                                 std::make_shared<Field>("c", utf8(), false)})),
      std::make_shared<Field>("tags", map(utf8(), int64())),
      std::make_shared<Field>("required_items", list(std::make_shared<Field>("item", int32(), false)), false),
      std::make_shared<Field>("deep", struct_({std::make_shared<Field>(
                                          "inner", struct_({std::make_shared<Field>("x", boolean())}))})),
  });
  for (auto version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    WriterOptions options;
    options.file.page_version = version;
    options.file.data_page_rows = 300;
    options.file.max_row_group_rows = 1700;
    ExpectRoundTrip(schema, Batches(schema, 3, 1000), options);
  }
}

// ---- threads, safe output, memory ------------------------------------------------------------------

TEST(FileWriterTest, OutputIsByteIdenticalAtEveryThreadCount) {
  auto schema = FlatSchema();
  auto batches = Batches(schema, 3, 5000);
  WriterOptions one;
  one.file.max_row_group_rows = 4000;
  WriterOptions two = one;
  two.file.executor = exec::ProcessExecutor(2);
  WriterOptions all = one;
  all.file.executor = exec::ProcessExecutor(0);
  auto a = WriteToBuffer(schema, batches, one, Pool());
  auto b = WriteToBuffer(schema, batches, two, Pool());
  auto c = WriteToBuffer(schema, batches, all, Pool());
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_TRUE((*a)->Equals(**b));
  EXPECT_TRUE((*a)->Equals(**c));
}

std::vector<std::string> FilesIn(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* entry = readdir(d)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string TempDir() {
  char pattern[] = "/tmp/strata_writer_test_XXXXXX";
  const char* dir = mkdtemp(pattern);
  return dir != nullptr ? dir : "/tmp";
}

TEST(FileWriterTest, NothingAppearsAtThePathUntilCloseSucceeds) {
  const std::string dir = TempDir();
  const std::string path = dir + "/out.parquet";
  auto schema = FlatSchema();
  auto batches = Batches(schema, 1, 1000);
  {
    auto writer = FileWriter::Open(path, schema, Pool());
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->WriteBatch(*batches[0]).ok());
    EXPECT_EQ(FilesIn(dir).size(), 1u);  // the temporary file
    EXPECT_NE(FilesIn(dir)[0], "out.parquet");
    // Destroyed without Close: discarded.
  }
  EXPECT_TRUE(FilesIn(dir).empty());

  // An existing file stays as it was until the new one is committed.
  { std::ofstream(path) << "old contents"; }
  auto writer = FileWriter::Open(path, schema, Pool());
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE((*writer)->WriteBatch(*batches[0]).ok());
  {
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "old contents");
  }
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(FilesIn(dir), std::vector<std::string>{"out.parquet"});
  auto reader = FileReader::OpenFile(path, Pool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ((*reader)->num_rows(), 1000);

  // A schema mismatch aborts: the old file stays, no temporary remains.
  auto other = FileWriter::Open(path, schema, Pool());
  ASSERT_TRUE(other.ok());
  auto wrong = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("x", int32())});
  auto wrong_batch = RandomBatch(wrong, 10, 1, Pool());
  Status status = (*other)->WriteBatch(**wrong_batch);
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_FALSE((*other)->Close().ok());
  EXPECT_EQ(FilesIn(dir), std::vector<std::string>{"out.parquet"});
  std::remove(path.c_str());
  rmdir(dir.c_str());
}

// A sink that fails once `limit` bytes have been written (a full disk).
class FailingSink final : public OutputSink {
 public:
  explicit FailingSink(int64_t limit, bool* aborted) : limit_(limit), aborted_(aborted) {}
  Status Write(const void*, int64_t size) override {
    if (position_ + size > limit_) return Status::IOError("no space left on device");
    position_ += size;
    return Status::OK();
  }
  Status Close() override { return Status::OK(); }
  void Abort() override { *aborted_ = true; }
  const std::string& name() const override { return name_; }

 private:
  int64_t limit_;
  bool* aborted_;
  std::string name_ = "full-disk";
};

TEST(FileWriterTest, AFailingSinkAbortsTheWriteWithTheSinksError) {
  auto schema = FlatSchema();
  auto batches = Batches(schema, 4, 5000);
  for (int64_t limit : {int64_t{0}, int64_t{100}, int64_t{50000}, int64_t{400000}}) {
    bool aborted = false;
    WriterOptions options;
    options.file.max_row_group_rows = 5000;
    auto writer = FileWriter::Open(std::make_unique<FailingSink>(limit, &aborted), schema, Pool(), options);
    Status status = writer.ok() ? Status::OK() : writer.status();
    if (writer.ok()) {
      for (const auto& batch : batches) {
        status = (*writer)->WriteBatch(*batch);
        if (!status.ok()) break;
      }
      if (status.ok()) status = (*writer)->Close();
    }
    EXPECT_TRUE(status.IsIOError()) << limit << ": " << status.ToString();
    EXPECT_NE(status.message().find("no space left"), std::string::npos);
    EXPECT_TRUE(aborted) << limit;
  }
}

// Row group after row group of the same shape: buffers, dictionaries, codecs and statistics
// keep their capacity, so nothing is allocated and the peak does not move. Only the page index
// (metadata kept for the footer, like the footer itself) grows with the row groups.
TEST(FileWriterTest, SteadyStateRowGroupsAllocateNothingAndThePeakStaysFlat) {
  auto schema = FlatSchema();
  testing::RandomArrayOptions values;
  values.distinct_values = 1000;
  auto batches = Batches(schema, 1, 20000, values);
  for (bool page_index : {false, true}) {
    auto pool = MakeSystemMemoryPool();
    WriterOptions options;
    options.file.max_row_group_rows = 20000;
    options.columns.page_index = page_index;
    auto sink = std::make_unique<BufferSink>(SystemMemoryPool());  // the file's bytes are not the writer's memory
    auto writer = FileWriter::Open(std::move(sink), schema, pool.get(), options);
    ASSERT_TRUE(writer.ok());
    for (int i = 0; i < 3; ++i) ASSERT_TRUE((*writer)->WriteBatch(*batches[0]).ok());
    const MemoryStats warm = pool->stats();
    const int64_t warm_size = (*writer)->memory_size();
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*writer)->WriteBatch(*batches[0]).ok());
    const MemoryStats after = pool->stats();
    // memory_size() is what the pool holds, plus the level builders' per-leaf range lists
    // (small std::vectors, 16 bytes per range).
    EXPECT_GE((*writer)->memory_size(), pool->bytes_in_use());
    EXPECT_LE((*writer)->memory_size() - pool->bytes_in_use(), 1024);
    if (!page_index) {
      EXPECT_EQ(after.num_allocations - warm.num_allocations, 0) << "allocations in 10 steady-state row groups";
      EXPECT_EQ(after.num_reallocations - warm.num_reallocations, 0);
      EXPECT_EQ(after.peak_bytes, warm.peak_bytes) << "the peak grew after the third row group";
    } else {
      // The serialized page index: a few hundred bytes per chunk, in one buffer.
      EXPECT_LE(after.peak_bytes - warm.peak_bytes, (*writer)->memory_size() - warm_size);
      EXPECT_LE(after.num_allocations + after.num_reallocations - warm.num_allocations - warm.num_reallocations, 4);
    }
    ASSERT_TRUE((*writer)->Close().ok());
  }
}

// A stream 20 times the row-group byte limit: the pool's peak is reached in the first row
// groups and stays there; it is bounded by the limit plus one page and a dictionary per column.
TEST(FileWriterTest, PeakStaysFlatOverAStreamTwentyTimesTheRowGroupLimit) {
  auto schema = FlatSchema();
  auto batches = Batches(schema, 4, 10000);
  auto pool = MakeSystemMemoryPool();
  WriterOptions options;
  options.file.max_row_group_bytes = 256 << 10;
  options.file.max_row_group_rows = 1 << 30;
  options.columns.page_index = false;  // metadata that grows with the file, measured elsewhere
  options.columns.dictionary_page_bytes = 32 << 10;
  options.file.data_page_rows = 2000;
  auto sink = std::make_unique<BufferSink>(SystemMemoryPool());
  BufferSink* raw = sink.get();
  auto writer = FileWriter::Open(std::move(sink), schema, pool.get(), options);
  ASSERT_TRUE(writer.ok());
  int64_t peak_after_warmup = 0;
  for (int round = 0; round < 20; ++round) {
    for (const auto& batch : batches) ASSERT_TRUE((*writer)->WriteBatch(*batch).ok());
    if (round == 4) peak_after_warmup = pool->peak_bytes();
  }
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_GT(raw->position(), 20 * options.file.max_row_group_bytes);
  EXPECT_EQ(pool->peak_bytes(), peak_after_warmup) << "the peak grew with the stream";
  // The bound: the row group's pages (the limit, overshot by at most one batch: ~600 KB here)
  // plus, per column, its dictionary (entries, a hash table kept a quarter full, the PLAIN and
  // compressed dictionary page: up to ~12x dictionary_page_bytes for 4-byte values), one data
  // page with its compression buffer, and the gather scratch.
  const int64_t per_column = 12 * options.columns.dictionary_page_bytes + 80000;
  const int64_t bound = options.file.max_row_group_bytes + 700000 + 8 * per_column;
  EXPECT_LT(pool->peak_bytes(), bound) << pool->peak_bytes();
  auto reader = OpenBuffer(*raw->Finish(), Pool());
  ASSERT_TRUE(reader.ok());
  EXPECT_GT((*reader)->num_row_groups(), 20);
  EXPECT_EQ((*reader)->num_rows(), 20 * 4 * 10000);
}

}  // namespace
}  // namespace strata::parquet
