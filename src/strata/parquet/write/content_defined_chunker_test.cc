// Content-defined chunking: page boundaries at record starts only, independent of how rows
// arrive in batches, stable around an insert or delete (pages after it are byte for byte the
// original's), and files that read back exactly for every type, nested columns, dictionary
// input, dictionary fallback and small row groups.
#include "strata/parquet/write/content_defined_chunker.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

using testing::OpenBuffer;
using testing::RandomBatch;
using testing::ReadBuffer;
using testing::WriteToBuffer;

MemoryPool* Pool() { return SystemMemoryPool(); }

ContentDefinedChunking SmallChunks() {
  ContentDefinedChunking cdc;
  cdc.enabled = true;
  cdc.min_chunk_bytes = 2048;
  cdc.max_chunk_bytes = 8192;
  return cdc;
}

WriterOptions CdcOptions(ContentDefinedChunking cdc = SmallChunks()) {
  WriterOptions options;
  options.columns.content_defined_chunking = cdc;
  options.columns.dictionary = false;
  options.columns.codec = codec::CompressionCodec::kUncompressed;
  return options;
}

TEST(ContentDefinedChunkerTest, MaskBitsFromTheSizesAndNormalisationLevel) {
  WriterColumn column;
  column.physical_type = PhysicalType::kInt64;
  ContentDefinedChunking cdc;  // Arrow's defaults: 256 KiB to 1 MiB
  // Half the 768 KiB span is 384 KiB: 18 bits (a boundary every 256 KiB past the minimum).
  EXPECT_EQ(std::popcount(ContentDefinedChunker(column, cdc, Pool()).mask()), 18);
  cdc.norm_level = 2;
  EXPECT_EQ(std::popcount(ContentDefinedChunker(column, cdc, Pool()).mask()), 16);
  cdc.norm_level = -1;
  EXPECT_EQ(std::popcount(ContentDefinedChunker(column, cdc, Pool()).mask()), 19);
  EXPECT_EQ(ContentDefinedChunker(column, cdc, Pool()).mask() >> 45, (uint64_t{1} << 19) - 1);  // the top bits

  cdc.max_chunk_bytes = cdc.min_chunk_bytes;
  EXPECT_FALSE(cdc.Validate().ok());
  cdc = ContentDefinedChunking{};
  cdc.norm_level = 9;
  EXPECT_FALSE(cdc.Validate().ok());
}

// A list column: every boundary is a record start, and feeding the rows in one batch or many
// gives the same boundaries.
TEST(ContentDefinedChunkerTest, BoundariesAtRecordStartsWhateverTheBatches) {
  auto field = std::make_shared<Field>("l", list(utf8()));
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{field});
  auto batch = RandomBatch(schema, 20'000, 3, Pool());
  ASSERT_TRUE(batch.ok());
  auto writer_schema = MakeWriterSchema(schema, CdcOptions());
  ASSERT_TRUE(writer_schema.ok()) << writer_schema.status().ToString();
  const WriterColumn& column = writer_schema->columns[0];

  auto boundaries_of = [&](int64_t batch_rows) {
    ContentDefinedChunker chunker(column, SmallChunks(), Pool());
    auto builder = LevelBuilder::Make(*field, Pool());
    EXPECT_TRUE(builder.ok());
    std::vector<int64_t> rows;  // boundaries as row numbers
    for (int64_t start = 0; start < (*batch)->num_rows(); start += batch_rows) {
      const int64_t n = std::min(batch_rows, (*batch)->num_rows() - start);
      EXPECT_TRUE((*builder)->Build(*(*batch)->column(0).Slice(start, n).data()).ok());
      const ShreddedLeaf& leaf = (*builder)->leaf(0);
      auto found = chunker.FindBoundaries(leaf);
      EXPECT_TRUE(found.ok()) << found.status().ToString();
      // Rows before each boundary, counted from the repetition levels.
      int64_t row = start - 1;
      size_t next = 0;
      for (int64_t i = 0; i < leaf.num_levels; ++i) {
        if (leaf.rep_levels[i] == 0) ++row;
        for (; next < found->size() && (*found)[next] == i; ++next) {
          EXPECT_EQ(leaf.rep_levels[i], 0) << "boundary inside a record at level " << i;
          rows.push_back(row);
        }
      }
    }
    return rows;
  };
  const std::vector<int64_t> whole = boundaries_of(20'000);
  EXPECT_GT(whole.size(), 20u);
  EXPECT_EQ(boundaries_of(777), whole);
  EXPECT_EQ(boundaries_of(1), whole);
}

// Flat leaves take a faster walk than nested ones: both must cut the same pages. A file written
// in one batch and in batches of 1,000 rows (most without nulls) is byte for byte the same, and
// the two walks find the same boundaries in a nullable column.
TEST(ContentDefinedChunkerTest, FastAndGeneralWalksAgree) {
  constexpr int64_t kRows = 50'000;
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("i", int64()),
                                                               std::make_shared<Field>("s", utf8()),
                                                               std::make_shared<Field>("r", int32(), false)});
  Int64Builder ints(int64(), Pool());
  StringBuilder strings(utf8(), Pool());
  Int32Builder required(int32(), Pool());
  for (int64_t r = 0; r < kRows; ++r) {
    const bool null = r >= 20'000 && r < 21'000 && r % 3 == 0;
    ASSERT_TRUE((null ? ints.AppendNull() : ints.Append(r * 7919 % 100'003)).ok());
    ASSERT_TRUE((null ? strings.AppendNull() : strings.Append("v" + std::to_string(r * 31 % 9973))).ok());
    ASSERT_TRUE(required.Append(static_cast<int32_t>(r % 1000)).ok());
  }
  auto whole = RecordBatch::Make(schema, kRows, {Array(*ints.Finish()), Array(*strings.Finish()),
                                                 Array(*required.Finish())});
  ASSERT_TRUE(whole.ok());
  std::vector<std::shared_ptr<RecordBatch>> pieces;
  for (int64_t r = 0; r < kRows; r += 1000) pieces.push_back((*whole)->Slice(r, 1000));
  ContentDefinedChunking cdc = SmallChunks();
  cdc.min_chunk_bytes = 256;
  cdc.max_chunk_bytes = 2048;
  const WriterOptions options = CdcOptions(cdc);
  auto one = WriteToBuffer(schema, {*whole}, options, Pool());
  auto many = WriteToBuffer(schema, pieces, options, Pool());
  ASSERT_TRUE(one.ok() && many.ok());
  ASSERT_EQ((*one)->size(), (*many)->size());
  EXPECT_EQ(std::memcmp((*one)->data(), (*many)->data(), static_cast<size_t>((*one)->size())), 0);
  auto reader = OpenBuffer(*one, Pool());
  ASSERT_TRUE(reader.ok());
  auto index = (*reader)->ReadOffsetIndex(0, 0);
  ASSERT_TRUE(index.ok() && index->has_value());
  EXPECT_GT((**index).page_locations.size(), 300u);

  // The flat walk reads the levels from the validity bits (as the file writer leaves them);
  // the general walk from materialised levels: the same boundaries.
  auto writer_schema = MakeWriterSchema(schema, options);
  ASSERT_TRUE(writer_schema.ok());
  for (int c = 0; c < 2; ++c) {
    std::vector<int64_t> found[2];
    for (const bool from_validity : {true, false}) {
      auto builder = LevelBuilder::Make(*schema->field(c), Pool());
      ASSERT_TRUE(builder.ok());
      (*builder)->set_flat_levels_from_validity(from_validity);
      ASSERT_TRUE((*builder)->Build(*(*whole)->column(c).data()).ok());
      ASSERT_EQ((*builder)->leaf(0).def_levels == nullptr, from_validity);
      ContentDefinedChunker chunker(writer_schema->columns[static_cast<size_t>(c)], cdc, Pool());
      auto boundaries = chunker.FindBoundaries((*builder)->leaf(0));
      ASSERT_TRUE(boundaries.ok());
      found[from_validity].assign(boundaries->begin(), boundaries->end());
    }
    EXPECT_GT(found[0].size(), 100u);
    EXPECT_EQ(found[0], found[1]) << "column " << c;
  }
}

// The data pages of a file, as their bytes (header and body).
std::vector<std::string> Pages(const Buffer& file, MemoryPool* pool) {
  std::vector<std::string> pages;
  auto reader = OpenBuffer(std::make_shared<Buffer>(file.data(), file.size()), pool);
  EXPECT_TRUE(reader.ok());
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto index = (*reader)->ReadOffsetIndex(g, 0);
    EXPECT_TRUE(index.ok() && index->has_value());
    for (const PageLocation& page : (**index).page_locations) {
      pages.emplace_back(reinterpret_cast<const char*>(file.data() + page.offset),
                         static_cast<size_t>(page.compressed_page_size));
    }
  }
  return pages;
}

// Share of `edited`'s pages that also occur in `original`.
double SharedPages(const std::vector<std::string>& original, const std::vector<std::string>& edited) {
  const std::set<std::string> known(original.begin(), original.end());
  int64_t shared = 0;
  for (const std::string& page : edited) shared += known.count(page);
  return static_cast<double>(shared) / static_cast<double>(edited.size());
}

std::shared_ptr<Schema> Int64Schema() {
  return std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", int64(), false)});
}

std::shared_ptr<RecordBatch> Int64s(const std::vector<int64_t>& values) {
  auto schema = Int64Schema();
  Int64Builder builder(int64(), Pool());
  EXPECT_TRUE(builder.AppendValues(values.data(), static_cast<int64_t>(values.size())).ok());
  auto batch = RecordBatch::Make(schema, static_cast<int64_t>(values.size()), {Array(*builder.Finish())});
  EXPECT_TRUE(batch.ok());
  return *batch;
}

// Ten rows inserted and three deleted mid-column: with content-defined pages, those after the
// edits are the original's byte for byte; with pages by count, nothing after the first edit is.
TEST(ContentDefinedChunkerTest, PagesAfterAnEditAreTheOriginals) {
  std::vector<int64_t> values(100'000);
  uint64_t state = 1;
  for (int64_t& v : values) v = static_cast<int64_t>(state = state * 6364136223846793005ULL + 1442695040888963407ULL);
  std::vector<int64_t> edited = values;
  edited.insert(edited.begin() + 30'000, values.begin(), values.begin() + 10);
  edited.erase(edited.begin() + 60'000, edited.begin() + 60'003);
  for (const bool cdc : {true, false}) {
    WriterOptions options = CdcOptions();
    options.columns.content_defined_chunking.enabled = cdc;
    options.file.data_page_rows = 1000;  // pages of 8 KB without chunking, as the chunks' maximum
    auto a = WriteToBuffer(Int64Schema(), {Int64s(values)}, options, Pool());
    auto b = WriteToBuffer(Int64Schema(), {Int64s(edited)}, options, Pool());
    ASSERT_TRUE(a.ok() && b.ok());
    const double shared = SharedPages(Pages(**a, Pool()), Pages(**b, Pool()));
    std::printf("%s: %.3f of the edited file's pages shared\n", cdc ? "content-defined" : "by count", shared);
    if (cdc) {
      EXPECT_GT(shared, 0.9);
    } else {
      EXPECT_LT(shared, 0.35);
    }
    RecordProperty(cdc ? "shared_cdc" : "shared_count", std::to_string(shared));
  }
}

// Every type the writer takes, flat and nested, nullable, dictionary input; with and without
// a dictionary (one small enough to fall back mid-chunk), v1 and v2 pages, small row groups.
TEST(ContentDefinedChunkerTest, EveryTypeReadsBack) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("b", boolean()),
      std::make_shared<Field>("i8", int8()),
      std::make_shared<Field>("i32", int32()),
      std::make_shared<Field>("i64", int64(), false),
      std::make_shared<Field>("f32", float32()),
      std::make_shared<Field>("f64", float64()),
      std::make_shared<Field>("d", date32()),
      std::make_shared<Field>("ts", timestamp(strata::TimeUnit::kMicro)),
      std::make_shared<Field>("dec", decimal128(20, 3)),
      std::make_shared<Field>("s", utf8()),
      std::make_shared<Field>("bin", binary()),
      std::make_shared<Field>("fixed", fixed_size_binary(5)),
      std::make_shared<Field>("dict", dictionary(int32(), utf8())),
      std::make_shared<Field>("li", list(int32())),
      std::make_shared<Field>("st", struct_({std::make_shared<Field>("x", int64()),
                                             std::make_shared<Field>("y", list(utf8()))})),
      std::make_shared<Field>("m", map(utf8(), float64())),
  });
  testing::RandomArrayOptions random;
  random.distinct_values = 300;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < 3; ++i) {
    auto batch = RandomBatch(schema, 3000 + 1000 * i, static_cast<uint64_t>(i + 11), Pool(), random);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    batches.push_back(*batch);
  }
  auto expected = Table::FromRecordBatches(schema, batches);
  ASSERT_TRUE(expected.ok());
  for (int variant = 0; variant < 3; ++variant) {
    ContentDefinedChunking cdc = SmallChunks();
    cdc.min_chunk_bytes = 256;
    cdc.max_chunk_bytes = 2048;
    WriterOptions options = CdcOptions(cdc);
    options.columns.dictionary = variant != 0;
    if (variant == 2) {
      options.columns.dictionary_page_bytes = 600;  // falls back mid-chunk
      options.file.page_version = DataPageVersion::kV2;
      options.file.max_row_group_rows = 2500;
      options.columns.codec = codec::CompressionCodec::kSnappy;
    }
    auto file = WriteToBuffer(schema, batches, options, Pool());
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto table = ReadBuffer(*file, Pool());
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    EXPECT_TRUE((*table)->Equals(**expected)) << "variant " << variant;
    // Chunking cut pages: far more than one per chunk.
    auto reader = OpenBuffer(*file, Pool());
    ASSERT_TRUE(reader.ok());
    auto index = (*reader)->ReadOffsetIndex(0, 3);  // i64: 8 bytes a value, 2 KiB chunks at most
    ASSERT_TRUE(index.ok() && index->has_value());
    EXPECT_GE((**index).page_locations.size(), (variant == 2 ? 2500u : 12000u) * 8 / 2048) << "variant " << variant;
  }
}

}  // namespace
}  // namespace strata::parquet
