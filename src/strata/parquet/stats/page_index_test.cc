#include "strata/parquet/stats/page_index.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "strata/parquet/thrift/footer.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

template <typename T>
std::string Bytes(T value) {
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

class PageIndexTest : public ::testing::Test {
 protected:
  std::unique_ptr<StatisticsCollector> Int32Page(std::vector<int32_t> values, int64_t nulls = 0,
                                                 SortOrder order = SortOrder::kSigned) {
    auto page = std::make_unique<StatisticsCollector>(pool_.get(), PhysicalType::kInt32, 0, order);
    EXPECT_TRUE(page->UpdateFixed(values.data(), static_cast<int64_t>(values.size())).ok());
    page->AddNulls(nulls);
    return page;
  }
  std::unique_ptr<StatisticsCollector> StringPage(const std::vector<std::string>& values) {
    auto page = std::make_unique<StatisticsCollector>(pool_.get(), PhysicalType::kByteArray, 0, SortOrder::kUnsigned);
    std::vector<ByteArrayView> views;
    for (const auto& v : values) views.push_back({reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())});
    EXPECT_TRUE(page->UpdateByteArrays(views.data(), static_cast<int64_t>(views.size())).ok());
    return page;
  }
  BoundaryOrder OrderOfInt32Pages(const std::vector<std::vector<int32_t>>& pages,
                                  SortOrder order = SortOrder::kSigned) {
    ColumnIndexBuilder builder(StatisticsOptions{});
    for (const auto& values : pages) builder.AddPage(*Int32Page(values, 0, order), {}, {});
    auto index = builder.Finish();
    EXPECT_TRUE(index.has_value());
    return index ? index->boundary_order : BoundaryOrder::kUnordered;
  }

  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
};

// ---- ColumnIndexBuilder ---------------------------------------------------------------------------

TEST_F(PageIndexTest, AscendingWithNullPageAndHistograms) {
  ColumnIndexBuilder builder(StatisticsOptions{});
  const std::vector<int64_t> def_full = {0, 3};
  const std::vector<int64_t> def_null = {2, 0};
  builder.AddPage(*Int32Page({3, 1, 2}), def_full, {});
  builder.AddPage(*Int32Page({}, 2), def_null, {});  // a null page
  builder.AddPage(*Int32Page({3, 5, 4}), def_full, {});
  builder.AddPage(*Int32Page({9, 5, 6}), def_full, {});
  EXPECT_EQ(builder.num_pages(), 4);
  std::optional<ColumnIndex> index = builder.Finish();
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->null_pages, (std::vector<bool>{false, true, false, false}));
  EXPECT_EQ(index->min_values, (std::vector<std::string>{Bytes<int32_t>(1), "", Bytes<int32_t>(3), Bytes<int32_t>(5)}));
  EXPECT_EQ(index->max_values, (std::vector<std::string>{Bytes<int32_t>(3), "", Bytes<int32_t>(5), Bytes<int32_t>(9)}));
  EXPECT_EQ(index->boundary_order, BoundaryOrder::kAscending);  // the null page is skipped
  EXPECT_EQ(index->null_counts, (std::vector<int64_t>{0, 2, 0, 0}));
  EXPECT_EQ(index->definition_level_histograms, (std::vector<int64_t>{0, 3, 2, 0, 0, 3, 0, 3}));
  EXPECT_FALSE(index->repetition_level_histograms.has_value());  // max repetition level 0
  EXPECT_FALSE(index->nan_counts.has_value());                   // not a floating type
  // Finish leaves the builder empty.
  EXPECT_EQ(builder.num_pages(), 0);
  EXPECT_FALSE(builder.Finish().has_value());
  // Serialized and read back unchanged.
  std::string wire;
  SerializeColumnIndex(*index, &wire);
  ColumnIndex decoded;
  auto consumed = DeserializeColumnIndex(reinterpret_cast<const uint8_t*>(wire.data()), wire.size(), &decoded);
  ASSERT_TRUE(consumed.ok()) << consumed.status().ToString();
  EXPECT_EQ(*consumed, wire.size());
  EXPECT_EQ(decoded, *index);
}

TEST_F(PageIndexTest, BoundaryOrders) {
  EXPECT_EQ(OrderOfInt32Pages({{7, 9}, {4, 8}, {1, 2}}), BoundaryOrder::kDescending);
  EXPECT_EQ(OrderOfInt32Pages({{1, 5}, {0, 9}}), BoundaryOrder::kUnordered);  // min down, max up
  EXPECT_EQ(OrderOfInt32Pages({{1, 5}, {2, 4}}), BoundaryOrder::kUnordered);  // min up, max down
  EXPECT_EQ(OrderOfInt32Pages({{1, 5}, {1, 5}, {1, 5}}), BoundaryOrder::kAscending);  // both hold
  EXPECT_EQ(OrderOfInt32Pages({{4}}), BoundaryOrder::kAscending);
  EXPECT_EQ(OrderOfInt32Pages({{1, 2}, {2, 3}, {1, 4}}), BoundaryOrder::kUnordered);
  // Unsigned order: 1 < 0x80000000 < 0xFFFFFFFF ascending (signed it would be unordered).
  EXPECT_EQ(OrderOfInt32Pages({{1}, {std::numeric_limits<int32_t>::min()}, {-1}}, SortOrder::kUnsigned),
            BoundaryOrder::kAscending);
  EXPECT_EQ(OrderOfInt32Pages({{1}, {std::numeric_limits<int32_t>::min()}, {-1}}, SortOrder::kSigned),
            BoundaryOrder::kUnordered);
  // Strings compare unsigned bytewise: "a" < "ab" < "\x80".
  ColumnIndexBuilder builder(StatisticsOptions{});
  builder.AddPage(*StringPage({"a"}), {}, {});
  builder.AddPage(*StringPage({"ab"}), {}, {});
  builder.AddPage(*StringPage({"\x80"}), {}, {});
  EXPECT_EQ(builder.Finish()->boundary_order, BoundaryOrder::kAscending);
}

TEST_F(PageIndexTest, AllNaNPageMeansNoIndex) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnIndexBuilder builder(StatisticsOptions{});
  StatisticsCollector good(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  StatisticsCollector all_nan(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  const double values[] = {1.0, nan};
  const double nans[] = {nan, nan};
  ASSERT_TRUE(good.UpdateFixed(values, 2).ok());
  ASSERT_TRUE(all_nan.UpdateFixed(nans, 2).ok());
  builder.AddPage(good, {}, {});
  builder.AddPage(all_nan, {}, {});
  builder.AddPage(good, {}, {});
  EXPECT_FALSE(builder.Finish().has_value());
  // The builder is usable again afterwards.
  builder.AddPage(good, {}, {});
  EXPECT_TRUE(builder.Finish().has_value());
}

TEST_F(PageIndexTest, FloatingPagesCarryNanCountsAndZeroRule) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  ColumnIndexBuilder builder(StatisticsOptions{});
  StatisticsCollector nulls_only(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  nulls_only.AddNulls(3);
  StatisticsCollector page(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  const double values[] = {0.0, nan, 2.0, -0.0};
  ASSERT_TRUE(page.UpdateFixed(values, 4).ok());
  StatisticsCollector negative(pool_.get(), PhysicalType::kDouble, 0, SortOrder::kSigned);
  const double below[] = {-3.0, -0.0};
  ASSERT_TRUE(negative.UpdateFixed(below, 2).ok());
  builder.AddPage(nulls_only, {}, {});
  builder.AddPage(page, {}, {});
  builder.AddPage(negative, {}, {});
  auto index = builder.Finish();
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->null_pages, (std::vector<bool>{true, false, false}));
  EXPECT_EQ(index->min_values[1], Bytes(-0.0));
  EXPECT_EQ(index->max_values[1], Bytes(2.0));
  EXPECT_EQ(index->min_values[2], Bytes(-3.0));
  EXPECT_EQ(index->max_values[2], Bytes(0.0));  // +0.0
  EXPECT_EQ(index->nan_counts, (std::vector<int64_t>{0, 1, 0}));
  EXPECT_EQ(index->null_counts, (std::vector<int64_t>{3, 0, 0}));
  EXPECT_EQ(index->boundary_order, BoundaryOrder::kDescending);
}

TEST_F(PageIndexTest, UnknownOrderMeansNoIndex) {
  ColumnIndexBuilder builder(StatisticsOptions{});
  StatisticsCollector int96(pool_.get(), PhysicalType::kInt96, 0, SortOrder::kSigned);
  const std::string values(12, '\x01');
  ASSERT_TRUE(int96.UpdateFixed(values.data(), 1).ok());
  builder.AddPage(int96, {}, {});
  EXPECT_FALSE(builder.Finish().has_value());
  // Pages of different columns in one index are refused too.
  builder.AddPage(*Int32Page({1}), {}, {});
  builder.AddPage(*StringPage({"x"}), {}, {});
  EXPECT_FALSE(builder.Finish().has_value());
}

TEST_F(PageIndexTest, TruncatesLikeStatisticsButKeepsAnUntruncatableMax) {
  ColumnIndexBuilder builder(StatisticsOptions{.max_value_bytes = 3});
  builder.AddPage(*StringPage({"abcdef", "abzzzz"}), {}, {});
  builder.AddPage(*StringPage({"ab", std::string("\xff\xff\xff\xff", 4)}), {}, {});
  builder.AddPage(*StringPage({"abc"}), {}, {});  // exactly at the limit: unchanged
  auto index = builder.Finish();
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->min_values, (std::vector<std::string>{"abc", "ab", "abc"}));
  EXPECT_EQ(index->max_values, (std::vector<std::string>{"ab{", std::string("\xff\xff\xff\xff", 4), "abc"}));
  // min: abc, ab, abc (down, up); max: ab{, ffffffff, abc (up, down): unordered.
  EXPECT_EQ(index->boundary_order, BoundaryOrder::kUnordered);
}

TEST_F(PageIndexTest, HistogramsDroppedWhenPagesDisagree) {
  ColumnIndexBuilder builder(StatisticsOptions{});
  const std::vector<int64_t> rep = {2, 1};
  const std::vector<int64_t> rep3 = {2, 1, 0};
  const std::vector<int64_t> def = {1, 2};
  builder.AddPage(*Int32Page({1}), def, rep);
  builder.AddPage(*Int32Page({2}), {}, rep3);  // no def histogram; rep of another length
  builder.AddPage(*Int32Page({3}), def, rep);
  auto index = builder.Finish();
  ASSERT_TRUE(index.has_value());
  EXPECT_FALSE(index->definition_level_histograms.has_value());
  EXPECT_FALSE(index->repetition_level_histograms.has_value());
  ColumnIndexBuilder consistent(StatisticsOptions{});
  consistent.AddPage(*Int32Page({1}), def, rep);
  consistent.AddPage(*Int32Page({2}), def, rep);
  index = consistent.Finish();
  EXPECT_EQ(index->repetition_level_histograms, (std::vector<int64_t>{2, 1, 2, 1}));
  EXPECT_EQ(index->definition_level_histograms, (std::vector<int64_t>{1, 2, 1, 2}));
}

// ---- OffsetIndexBuilder ---------------------------------------------------------------------------

TEST_F(PageIndexTest, OffsetIndexBuilder) {
  OffsetIndexBuilder builder;
  builder.AddPage(4, 100, 0, 40);
  builder.AddPage(104, 90, 10, 35);
  OffsetIndex index = builder.Finish();
  EXPECT_EQ(index.page_locations, (std::vector<PageLocation>{{4, 100, 0}, {104, 90, 10}}));
  EXPECT_EQ(index.unencoded_byte_array_data_bytes, (std::vector<int64_t>{40, 35}));
  EXPECT_EQ(builder.num_pages(), 0);
  builder.AddPage(4, 100, 0, std::nullopt);
  builder.AddPage(104, 90, 10, std::nullopt);
  index = builder.Finish();
  EXPECT_EQ(index.page_locations.size(), 2u);
  EXPECT_FALSE(index.unencoded_byte_array_data_bytes.has_value());
  // A page without the size drops the list (it must have one entry per page).
  builder.AddPage(4, 100, 0, 7);
  builder.AddPage(104, 90, 10, std::nullopt);
  builder.AddPage(194, 90, 20, 8);
  index = builder.Finish();
  EXPECT_FALSE(index.unencoded_byte_array_data_bytes.has_value());
  EXPECT_EQ(index.page_locations.size(), 3u);
  std::string wire;
  SerializeOffsetIndex(index, &wire);
  OffsetIndex decoded;
  ASSERT_TRUE(DeserializeOffsetIndex(reinterpret_cast<const uint8_t*>(wire.data()), wire.size(), &decoded).ok());
  EXPECT_EQ(decoded, index);
}

// ---- reading ---------------------------------------------------------------------------------------

class PageIndexReadTest : public PageIndexTest {
 protected:
  // A "file": 16 filler bytes, then `payload`, then 16 more.
  std::shared_ptr<RandomAccessSource> SourceWith(const std::string& payload) {
    std::string bytes = std::string(16, 'P') + payload + std::string(16, 'Q');
    auto buffer = AllocateBuffer(pool_.get(), static_cast<int64_t>(bytes.size())).ValueOrDie();
    std::memcpy(buffer->mutable_data(), bytes.data(), bytes.size());
    return MakeBufferSource(std::move(buffer), "test.parquet");
  }
  ColumnChunk Chunk() {
    ColumnChunk chunk;
    chunk.meta_data.emplace();
    chunk.meta_data->path_in_schema = {"a", "b"};
    return chunk;
  }
};

TEST_F(PageIndexReadTest, ReadsBackWhatWasWritten) {
  ColumnIndexBuilder builder(StatisticsOptions{});
  builder.AddPage(*Int32Page({1, 2}), {}, {});
  builder.AddPage(*Int32Page({}, 4), {}, {});
  ColumnIndex column_index = *builder.Finish();
  OffsetIndexBuilder offsets;
  offsets.AddPage(4, 30, 0, std::nullopt);
  offsets.AddPage(34, 20, 2, std::nullopt);
  OffsetIndex offset_index = offsets.Finish();
  std::string ci_wire, oi_wire;
  SerializeColumnIndex(column_index, &ci_wire);
  SerializeOffsetIndex(offset_index, &oi_wire);
  auto source = SourceWith(ci_wire + oi_wire);
  ColumnChunk chunk = Chunk();
  // No index in the chunk: nullopt, nothing read.
  auto none = ReadColumnIndex(*source, chunk, pool_.get());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_FALSE(ReadOffsetIndex(*source, chunk, pool_.get())->has_value());
  EXPECT_EQ(source->read_count(), 0);
  chunk.column_index_offset = 16;
  chunk.column_index_length = static_cast<int32_t>(ci_wire.size());
  chunk.offset_index_offset = 16 + static_cast<int64_t>(ci_wire.size());
  chunk.offset_index_length = static_cast<int32_t>(oi_wire.size());
  const int64_t in_use = pool_->bytes_in_use();
  auto ci = ReadColumnIndex(*source, chunk, pool_.get());
  ASSERT_TRUE(ci.ok()) << ci.status().ToString();
  EXPECT_EQ(**ci, column_index);
  auto oi = ReadOffsetIndex(*source, chunk, pool_.get());
  ASSERT_TRUE(oi.ok()) << oi.status().ToString();
  EXPECT_EQ(**oi, offset_index);
  EXPECT_EQ(pool_->bytes_in_use(), in_use);  // read buffers released
}

TEST_F(PageIndexReadTest, RefusesLocationsOutsideTheFile) {
  auto source = SourceWith(std::string(20, '\0'));  // 52 bytes
  ColumnChunk chunk = Chunk();
  chunk.column_index_offset = 40;
  chunk.column_index_length = 20;  // ends at 60 > 52
  auto r = ReadColumnIndex(*source, chunk, pool_.get());
  ASSERT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("column 'a.b'"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("offset 40 with length 20"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("(52 bytes)"), std::string::npos) << r.status().message();
  EXPECT_EQ(source->read_count(), 0);  // checked before reading
  chunk.column_index_offset = -1;
  chunk.column_index_length = 4;
  EXPECT_TRUE(ReadColumnIndex(*source, chunk, pool_.get()).status().IsCorrupt());
  chunk.column_index_offset = 4;
  chunk.column_index_length = 0;
  EXPECT_TRUE(ReadColumnIndex(*source, chunk, pool_.get()).status().IsCorrupt());
  chunk.column_index_offset = std::numeric_limits<int64_t>::max();
  chunk.column_index_length = std::numeric_limits<int32_t>::max();
  EXPECT_TRUE(ReadColumnIndex(*source, chunk, pool_.get()).status().IsCorrupt());
  // Offset without length (and the other way round).
  ColumnChunk half = Chunk();
  half.offset_index_offset = 4;
  auto h = ReadOffsetIndex(*source, half, pool_.get());
  ASSERT_TRUE(h.status().IsCorrupt());
  EXPECT_NE(h.status().message().find("offset 4 but no length"), std::string::npos) << h.status().message();
  half = Chunk();
  half.column_index_length = 4;
  EXPECT_TRUE(ReadColumnIndex(*source, half, pool_.get()).status().IsCorrupt());
}

TEST_F(PageIndexReadTest, RefusesMalformedIndexes) {
  ColumnChunk chunk = Chunk();
  {  // garbage: a field of the wrong type
    const std::string garbage = "\x15\x07\x00\x00";
    auto source = SourceWith(garbage);
    chunk.column_index_offset = 16;
    chunk.column_index_length = static_cast<int32_t>(garbage.size());
    auto r = ReadColumnIndex(*source, chunk, pool_.get());
    ASSERT_TRUE(r.status().IsCorrupt()) << r.status().ToString();
    EXPECT_NE(r.status().message().find("column index of column 'a.b' at offset 16"), std::string::npos)
        << r.status().message();
  }
  {  // lists of different lengths
    ColumnIndex bad;
    bad.null_pages = {false, false};
    bad.min_values = {"a", "b"};
    bad.max_values = {"c"};
    bad.null_counts = std::vector<int64_t>{0, 0};
    std::string wire;
    SerializeColumnIndex(bad, &wire);
    auto source = SourceWith(wire);
    chunk.column_index_length = static_cast<int32_t>(wire.size());
    auto r = ReadColumnIndex(*source, chunk, pool_.get());
    ASSERT_TRUE(r.status().IsCorrupt());
    EXPECT_NE(r.status().message().find("1 max_values for 2 pages"), std::string::npos) << r.status().message();
    bad.max_values = {"c", "d"};
    bad.definition_level_histograms = std::vector<int64_t>{1, 2, 3};  // not a multiple of 2 pages
    wire.clear();
    SerializeColumnIndex(bad, &wire);
    source = SourceWith(wire);
    chunk.column_index_length = static_cast<int32_t>(wire.size());
    EXPECT_TRUE(ReadColumnIndex(*source, chunk, pool_.get()).status().IsCorrupt());
  }
  {  // rows not increasing; a page past the end of the file
    OffsetIndex bad;
    bad.page_locations = {{0, 10, 0}, {10, 10, 0}};
    std::string wire;
    SerializeOffsetIndex(bad, &wire);
    auto source = SourceWith(wire);
    chunk.offset_index_offset = 16;
    chunk.offset_index_length = static_cast<int32_t>(wire.size());
    auto r = ReadOffsetIndex(*source, chunk, pool_.get());
    ASSERT_TRUE(r.status().IsCorrupt());
    EXPECT_NE(r.status().message().find("page 1 starts at row 0, not after page 0's row 0"), std::string::npos)
        << r.status().message();
    bad.page_locations = {{0, 10, 0}, {10, 1000, 5}};
    wire.clear();
    SerializeOffsetIndex(bad, &wire);
    source = SourceWith(wire);
    chunk.offset_index_length = static_cast<int32_t>(wire.size());
    r = ReadOffsetIndex(*source, chunk, pool_.get());
    ASSERT_TRUE(r.status().IsCorrupt());
    EXPECT_NE(r.status().message().find("page 1 at offset 10 with 1000 bytes"), std::string::npos)
        << r.status().message();
    bad.page_locations = {{0, 10, 0}};
    bad.unencoded_byte_array_data_bytes = std::vector<int64_t>{1, 2};
    wire.clear();
    SerializeOffsetIndex(bad, &wire);
    source = SourceWith(wire);
    chunk.offset_index_length = static_cast<int32_t>(wire.size());
    EXPECT_TRUE(ReadOffsetIndex(*source, chunk, pool_.get()).status().IsCorrupt());
  }
}

// ---- parquet-testing files --------------------------------------------------------------------------

struct FileIndexes {
  FileFooter footer;
  std::vector<ColumnIndex> column_indexes;  // empty ColumnIndex where the chunk has none
  std::vector<bool> has_column_index;
  std::vector<OffsetIndex> offset_indexes;
};

FileIndexes ReadIndexes(const std::string& path, MemoryPool* pool) {
  FileIndexes out;
  auto source = OpenLocalFile(path);
  EXPECT_TRUE(source.ok()) << source.status().ToString();
  auto footer = ReadFooter(**source, pool);
  EXPECT_TRUE(footer.ok()) << footer.status().ToString();
  out.footer = std::move(*footer);
  for (const ColumnChunk& chunk : out.footer.metadata.row_groups.at(0).columns) {
    auto ci = ReadColumnIndex(**source, chunk, pool);
    auto oi = ReadOffsetIndex(**source, chunk, pool);
    EXPECT_TRUE(ci.ok()) << ci.status().ToString();
    EXPECT_TRUE(oi.ok()) << oi.status().ToString();
    out.has_column_index.push_back(ci.ok() && ci->has_value());
    out.column_indexes.push_back(ci.ok() && ci->has_value() ? **ci : ColumnIndex{});
    EXPECT_TRUE(oi.ok() && oi->has_value()) << chunk.meta_data->path_in_schema[0];
    out.offset_indexes.push_back(oi.ok() && oi->has_value() ? **oi : OffsetIndex{});
  }
  return out;
}

int ColumnNamed(const FileIndexes& f, const std::string& name) {
  const auto& columns = f.footer.metadata.row_groups[0].columns;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].meta_data->path_in_schema[0] == name) return static_cast<int>(i);
  }
  ADD_FAILURE() << "no column " << name;
  return 0;
}

TEST_F(PageIndexTest, DataIndexBloomEncodingStats) {
  STRATA_REQUIRE_PARQUET_TESTING();
  FileIndexes f = ReadIndexes(testing::ParquetTestingFile("data/data_index_bloom_encoding_stats.parquet"), pool_.get());
  ASSERT_EQ(f.column_indexes.size(), 1u);
  ASSERT_TRUE(f.has_column_index[0]);
  const ColumnIndex& ci = f.column_indexes[0];
  EXPECT_EQ(ci.null_pages, std::vector<bool>{false});
  EXPECT_EQ(ci.min_values, std::vector<std::string>{"Hello"});  // of the 14 strings, "Hello" .. "today"
  EXPECT_EQ(ci.max_values, std::vector<std::string>{"today"});
  EXPECT_EQ(ci.null_counts, std::vector<int64_t>{0});
  EXPECT_EQ(ci.boundary_order, BoundaryOrder::kAscending);
  const OffsetIndex& oi = f.offset_indexes[0];
  ASSERT_EQ(oi.page_locations.size(), 1u);
  EXPECT_EQ(oi.page_locations[0].first_row_index, 0);
  EXPECT_EQ(oi.page_locations[0].offset, f.footer.metadata.row_groups[0].columns[0].meta_data->data_page_offset);
}

TEST_F(PageIndexTest, AllTypesTinyPages) {
  STRATA_REQUIRE_PARQUET_TESTING();
  FileIndexes f = ReadIndexes(testing::ParquetTestingFile("data/alltypes_tiny_pages.parquet"), pool_.get());
  const int64_t rows = f.footer.metadata.row_groups[0].num_rows;
  ASSERT_EQ(rows, 7300);
  for (size_t c = 0; c < f.offset_indexes.size(); ++c) {
    const auto& pages = f.offset_indexes[c].page_locations;
    const auto& meta = *f.footer.metadata.row_groups[0].columns[c].meta_data;
    SCOPED_TRACE(meta.path_in_schema[0]);
    ASSERT_FALSE(pages.empty());
    EXPECT_EQ(pages[0].first_row_index, 0);
    for (size_t p = 1; p < pages.size(); ++p) {
      EXPECT_LT(pages[p - 1].first_row_index, pages[p].first_row_index);
      EXPECT_LE(pages[p - 1].offset + pages[p - 1].compressed_page_size, pages[p].offset);
    }
    EXPECT_LT(pages.back().first_row_index, rows);
    if (f.has_column_index[c]) {
      EXPECT_EQ(f.column_indexes[c].null_pages.size(), pages.size());
    }
  }
  // INT96 timestamps: an offset index but no column index (undefined order).
  EXPECT_FALSE(f.has_column_index[ColumnNamed(f, "timestamp_col")]);

  // Values checked against DuckDB's reading of the rows each page covers.
  const int id = ColumnNamed(f, "id");
  const ColumnIndex& ids = f.column_indexes[id];
  ASSERT_EQ(ids.null_pages.size(), 325u);
  EXPECT_EQ(f.offset_indexes[id].page_locations[1].first_row_index, 21);
  EXPECT_EQ(ids.min_values[0], Bytes<int32_t>(122));  // rows 0..20
  EXPECT_EQ(ids.max_values[0], Bytes<int32_t>(142));
  EXPECT_EQ(ids.min_values[1], Bytes<int32_t>(98));   // rows 21..41
  EXPECT_EQ(ids.max_values[1], Bytes<int32_t>(145));
  EXPECT_EQ(f.offset_indexes[id].page_locations[324].first_row_index, 7284);
  EXPECT_EQ(ids.min_values[324], Bytes<int32_t>(6174));  // rows 7284..7299
  EXPECT_EQ(ids.max_values[324], Bytes<int32_t>(6189));
  EXPECT_EQ(ids.boundary_order, BoundaryOrder::kUnordered);
  const int bigint = ColumnNamed(f, "bigint_col");
  ASSERT_EQ(f.column_indexes[bigint].null_pages.size(), 528u);
  EXPECT_EQ(f.offset_indexes[bigint].page_locations[527].first_row_index, 7297);
  EXPECT_EQ(f.column_indexes[bigint].min_values[527], Bytes<int64_t>(40));
  EXPECT_EQ(f.column_indexes[bigint].max_values[527], Bytes<int64_t>(60));
  const int dbl = ColumnNamed(f, "double_col");
  EXPECT_EQ(f.column_indexes[dbl].min_values[527], Bytes(40.4));
  EXPECT_EQ(f.column_indexes[dbl].max_values[527], Bytes(60.599999999999994));
  EXPECT_EQ(f.column_indexes[dbl].min_values[0], Bytes(-0.0));  // the zero rule, by another writer
  const int dates = ColumnNamed(f, "date_string_col");
  EXPECT_EQ(f.offset_indexes[dates].page_locations[3].first_row_index, 21);
  EXPECT_EQ(f.column_indexes[dates].min_values[3], "01/10/09");
  EXPECT_EQ(f.column_indexes[dates].max_values[3], "01/15/09");
  const int year = ColumnNamed(f, "year");
  EXPECT_EQ(f.column_indexes[year].min_values[324], Bytes<int32_t>(2010));
  EXPECT_EQ(f.column_indexes[year].boundary_order, BoundaryOrder::kAscending);

  // Rebuilding each index from its own bounds with ColumnIndexBuilder gives the same lists and
  // the same boundary order as the writer of this file computed.
  const auto& schema = f.footer.metadata.schema;
  for (size_t c = 0; c < f.column_indexes.size(); ++c) {
    if (!f.has_column_index[c]) continue;
    const SchemaElement& element = schema[c + 1];  // flat schema: leaf c is element c + 1
    const PhysicalType physical = *element.type;
    SCOPED_TRACE(element.name);
    const SortOrder order = ColumnSortOrder(physical, element.logical_type, element.converted_type);
    const ColumnIndex& original = f.column_indexes[c];
    ColumnIndexBuilder builder(StatisticsOptions{});
    for (size_t p = 0; p < original.null_pages.size(); ++p) {
      StatisticsCollector page(pool_.get(), physical, element.type_length.value_or(0), order);
      const std::string& lo = original.min_values[p];
      const std::string& hi = original.max_values[p];
      if (physical == PhysicalType::kBoolean) {
        const uint8_t bits = static_cast<uint8_t>(lo[0] | (hi[0] << 1));
        page.UpdateBooleans(&bits, 0, 2);
      } else if (physical == PhysicalType::kByteArray) {
        const ByteArrayView views[2] = {{reinterpret_cast<const uint8_t*>(lo.data()), uint32_t(lo.size())},
                                        {reinterpret_cast<const uint8_t*>(hi.data()), uint32_t(hi.size())}};
        ASSERT_TRUE(page.UpdateByteArrays(views, 2).ok());
      } else {
        const std::string both = lo + hi;
        ASSERT_TRUE(page.UpdateFixed(both.data(), 2).ok());
      }
      builder.AddPage(page, {}, {});
    }
    auto rebuilt = builder.Finish();
    ASSERT_TRUE(rebuilt.has_value());
    EXPECT_EQ(rebuilt->min_values, original.min_values);
    EXPECT_EQ(rebuilt->max_values, original.max_values);
    EXPECT_EQ(rebuilt->boundary_order, original.boundary_order);
  }
}

}  // namespace
}  // namespace strata::parquet
