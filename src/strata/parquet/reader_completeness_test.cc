// Valid files from older writers that strata once refused, rebuilt with the project's own file
// builder (no file from another project is committed): each case reads to its values.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "strata/array/pretty_print.h"
#include "strata/array/validate.h"
#include "strata/parquet/file_reader.h"
#include "strata/parquet/nested_leaf_reader.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/writer_test_util.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;

// PyArrow before 3.0 wrote data pages v2 compressed but flagged is_compressed = false. Arrow
// C++ reads them; so does strata now, for every codec, whatever the page holds (nulls, strings,
// several pages); a page that is truly uncompressed still reads as such.
TEST(ReaderCompletenessTest, V2PagesCompressedButFlaggedUncompressedRead) {
  std::vector<int64_t> ints;
  std::vector<bool> valid;
  std::vector<std::string> strings;
  for (int64_t r = 0; r < 3000; ++r) {
    ints.push_back(r * 7 % 1000);
    valid.push_back(r % 5 != 0);
    strings.push_back("value " + std::to_string(r % 40));
  }
  const std::vector<pt::ColumnValues> values = {pt::ColumnValues::Int64s(ints, valid),
                                                pt::ColumnValues::ByteArrays(strings)};
  for (auto codec : {codec::CompressionCodec::kSnappy, codec::CompressionCodec::kGzip, codec::CompressionCodec::kZstd,
                     codec::CompressionCodec::kLz4Raw, codec::CompressionCodec::kBrotli,
                     codec::CompressionCodec::kUncompressed}) {
    std::vector<pt::ColumnOptions> columns(2);
    columns[0].name = "n";
    columns[0].physical_type = PhysicalType::kInt64;
    columns[1].name = "s";
    columns[1].physical_type = PhysicalType::kByteArray;
    columns[1].logical_type = pt::StringLogicalType();
    columns[1].optional = false;
    for (auto& column : columns) {
      column.codec = codec;
      column.page_version = pt::DataPageVersion::kV2;
      column.v2_flagged_uncompressed = true;
      column.rows_per_page = 700;
    }
    auto file = pt::BuildFile(columns, values, 1500);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto reader = FileReader::Open(MakeBufferSource(*file, "pyarrow2.parquet"), SystemMemoryPool());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok()) << codec::CodecName(codec) << ": " << table.status().ToString();
    ASSERT_EQ((*table)->num_rows(), 3000);
    for (int c = 0; c < 2; ++c) {
      int64_t row = 0;
      for (const Array& chunk : (*table)->column(c)->chunks()) {
        Status same = values[static_cast<size_t>(c)].CheckEquals(chunk, row);
        ASSERT_TRUE(same.ok()) << codec::CodecName(codec) << " column " << c << ": " << same.ToString();
        row += chunk.length();
      }
    }
  }
}

// INT96 timestamps (Julian day, nanoseconds of day) outside timestamp[ns]'s 1677-2262 were read
// wrapped around, silently wrong. Now: ns (the default) fails naming the column and row; us and
// ms hold wider ranges; int96_wrap keeps the scan-summary contract's wrapping nanoseconds.
// parquet-testing's int96_from_spark.parquet (Spark 3.4): 2024-01-01T20:34:56.123456,
// 2024-01-01T01:00:00, 9999-12-31T03:00:00, 2024-12-30T23:00:00, null, and a last value
// whose Julian day (-105862232) lies beyond even microseconds' range.
TEST(ReaderCompletenessTest, Int96OutsideNanosecondsFailsOrReadsAtACoarserUnit) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = strata::testing::ParquetTestingFile("data/int96_from_spark.parquet");
  auto read = [&](SchemaOptions schema) -> Result<std::shared_ptr<Table>> {
    FileReaderOptions options;
    options.schema = schema;
    STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::OpenFile(path, SystemMemoryPool(), options));
    return reader->ReadTable();
  };
  auto ns = read({});
  ASSERT_FALSE(ns.ok());
  EXPECT_TRUE(ns.status().IsInvalid()) << ns.status().ToString();
  for (const char* part : {"column 'a'", "row 2 of the row group", "timestamp[ns]", "--int96-unit us"}) {
    EXPECT_NE(ns.status().message().find(part), std::string::npos) << part << " in " << ns.status().ToString();
  }
  SchemaOptions micros;
  micros.int96_unit = ::strata::TimeUnit::kMicro;
  auto us = read(micros);
  ASSERT_FALSE(us.ok());
  EXPECT_NE(us.status().message().find("row 5 of the row group"), std::string::npos) << us.status().ToString();

  SchemaOptions millis;
  millis.int96_unit = ::strata::TimeUnit::kMilli;
  auto ms = read(millis);
  ASSERT_TRUE(ms.ok()) << ms.status().ToString();
  ASSERT_EQ((*ms)->column(0)->type()->ToString(), "timestamp[ms]");
  const PrimitiveArray<int64_t> values((*ms)->column(0)->chunk(0));
  ASSERT_EQ(values.length(), 6);
  // The first four as the file's documentation gives them in microseconds, floored to ms.
  EXPECT_EQ(values.Value(0), 1704141296123);
  EXPECT_EQ(values.Value(1), 1704070800000);
  EXPECT_EQ(values.Value(2), 253402225200000);
  EXPECT_EQ(values.Value(3), 1735599600000);
  EXPECT_TRUE(values.IsNull(4));
  // Its nanoseconds of day are negative (-9:01:49.552): 14:58:10.448 of the day before.
  EXPECT_EQ(values.Value(5), (int64_t{-105862232} - 2440588) * 86400000 - 32509552);

  SchemaOptions wrap;
  wrap.int96_wrap = true;
  auto wrapped = read(wrap);
  ASSERT_TRUE(wrapped.ok()) << wrapped.status().ToString();
  const PrimitiveArray<int64_t> nanos((*wrapped)->column(0)->chunk(0));
  EXPECT_EQ(nanos.Value(0), int64_t{1704141296123456} * 1000);
  // 9999-12-31 wraps, as the contract says (and as DuckDB's reading does not).
  EXPECT_EQ(static_cast<uint64_t>(nanos.Value(2)), uint64_t{253402225200000000} * 1000);
}

// Older writers (parquet-mr before page-index support, Impala) cut v1 data pages by value
// count, so a list row's elements may continue on the next page. Such rows read whole, in
// batches of any size, through every codec and value encoding the builder writes.
std::optional<std::vector<std::optional<int64_t>>> ListRow(int64_t row) {
  if (row % 11 == 0) return std::nullopt;
  std::vector<std::optional<int64_t>> elements;
  for (int64_t j = 0; j < row % 6; ++j) {
    elements.push_back((row + j) % 5 == 0 ? std::nullopt : std::optional<int64_t>(row * 10 + j));
  }
  return elements;
}

std::string ListRowText(int64_t row, bool strings) {
  const auto elements = ListRow(row);
  if (!elements) return "null";
  std::string out = "[";
  for (size_t j = 0; j < elements->size(); ++j) {
    if (j) out += ", ";
    const auto& e = (*elements)[j];
    out += !e ? "null" : strings ? "\"s" + std::to_string(*e) + "\"" : std::to_string(*e);
  }
  return out + "]";
}

TEST(ReaderCompletenessTest, ListRowsContinuingOnTheNextPageRead) {
  constexpr int64_t kRows = 3000;
  std::vector<std::optional<std::vector<std::optional<int64_t>>>> ints;
  std::vector<std::optional<std::vector<std::optional<std::string>>>> strings;
  for (int64_t r = 0; r < kRows; ++r) {
    ints.push_back(ListRow(r));
    if (!ints.back()) {
      strings.emplace_back(std::nullopt);
      continue;
    }
    strings.emplace_back(std::vector<std::optional<std::string>>{});
    for (const auto& e : *ints.back()) {
      strings.back()->push_back(e ? std::optional<std::string>("s" + std::to_string(*e)) : std::nullopt);
    }
  }
  for (const bool as_strings : {false, true}) {
    const pt::ColumnValues values = as_strings ? pt::ColumnValues::ListOf(PhysicalType::kByteArray, strings)
                                               : pt::ColumnValues::ListOf(PhysicalType::kInt64, ints);
    const auto& rep = values.repetition_levels();
    // Two row groups, split at the start of row 1500.
    int64_t split = 0;
    for (int64_t rows = 0; split < values.num_rows(); ++split) {
      if (rep[static_cast<size_t>(split)] == 0 && rows++ == 1500) break;
    }
    for (const int64_t entries_per_page : {7, 500}) {
      // The test means something only if some page begins inside a row.
      int64_t pages_inside_a_row = 0;
      for (int64_t begin : {int64_t{0}, split}) {
        const int64_t end = begin == 0 ? split : values.num_rows();
        for (int64_t e = begin + entries_per_page; e < end; e += entries_per_page) {
          pages_inside_a_row += rep[static_cast<size_t>(e)] != 0;
        }
      }
      ASSERT_GT(pages_inside_a_row, 0);
      for (const auto encoding : {Encoding::kPlain, Encoding::kRleDictionary}) {
        for (const auto codec : {codec::CompressionCodec::kUncompressed, codec::CompressionCodec::kSnappy}) {
          pt::ColumnOptions column;
          column.name = "l";
          column.list = true;
          column.physical_type = as_strings ? PhysicalType::kByteArray : PhysicalType::kInt64;
          if (as_strings) column.logical_type = pt::StringLogicalType();
          column.encoding = encoding;
          column.codec = codec;
          column.rows_per_page = entries_per_page;
          auto builder = pt::TestFileBuilder::Make({column});
          ASSERT_TRUE(builder.ok()) << builder.status().ToString();
          ASSERT_TRUE((*builder)->AddRowGroup({values}, 0, split).ok());
          auto added = (*builder)->AddRowGroup({values}, split, values.num_rows());
          ASSERT_TRUE(added.ok()) << added.ToString();
          auto file = (*builder)->Finish();
          ASSERT_TRUE(file.ok()) << file.status().ToString();
          const std::string where = std::string(as_strings ? "strings" : "ints") + ", " +
                                    std::to_string(entries_per_page) + " entries a page, " +
                                    std::string(EncodingName(encoding)) + ", " +
                                    std::string(codec::CodecName(codec));
          for (const int64_t batch_rows : {int64_t{1} << 16, int64_t{1000}, int64_t{3}, int64_t{1}}) {
            auto reader = FileReader::Open(MakeBufferSource(*file, "old_writer_lists.parquet"), SystemMemoryPool());
            ASSERT_TRUE(reader.ok()) << reader.status().ToString();
            BatchReadOptions options;
            options.batch_rows = batch_rows;
            auto batches = (*reader)->ReadBatches(options);
            ASSERT_TRUE(batches.ok()) << batches.status().ToString();
            int64_t row = 0;
            while (true) {
              auto batch = (*batches)->Next();
              ASSERT_TRUE(batch.ok()) << where << ", batches of " << batch_rows << ": " << batch.status().ToString();
              if (!*batch) break;
              const Array& column_read = (*batch)->column(0);
              for (int64_t i = 0; i < column_read.length(); ++i, ++row) {
                const std::string printed = PrettyPrint(column_read.Slice(i, 1));
                ASSERT_EQ(printed.substr(1, printed.size() - 2), ListRowText(row, as_strings))
                    << where << ", batches of " << batch_rows << ", row " << row;
              }
            }
            ASSERT_EQ(row, kRows) << where << ", batches of " << batch_rows;
          }
        }
      }
    }
  }
}

// A nested batch cannot be cut short at 2 GiB as a flat one is, so nested string and binary
// leaves take 64-bit offsets when the chunk's metadata says their values may pass it, or with
// large_binary; the types above them follow (list, map, struct), and the values are the same.
TEST(ReaderCompletenessTest, NestedLeavesTakeLargeOffsets) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("m", map(utf8(), utf8())),
      std::make_shared<Field>("s", struct_({std::make_shared<Field>("a", list(utf8())),
                                            std::make_shared<Field>("b", int32())})),
      std::make_shared<Field>("l", large_list(binary())),
  });
  auto batch = pt::RandomBatch(schema, 3000, 17, SystemMemoryPool());
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto file = pt::WriteToBuffer(schema, {*batch}, WriterOptions{}, SystemMemoryPool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto small = pt::ReadBuffer(*file, SystemMemoryPool());
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_EQ((*small)->schema()->field(0)->type()->ToString(), schema->field(0)->type()->ToString());
  BatchReadOptions options;
  options.large_binary = true;
  auto large = pt::ReadBuffer(*file, SystemMemoryPool(), options);
  ASSERT_TRUE(large.ok()) << large.status().ToString();
  // The same types with every string and binary leaf made large.
  auto made_large = [](std::string type) {
    for (const char* name : {"string", "binary"}) {
      for (size_t at = type.find(name); at != std::string::npos; at = type.find(name, at + 6 + 6)) {
        type.insert(at, "large_");
      }
    }
    return type;
  };
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ((*large)->schema()->field(c)->type()->ToString(),
              made_large((*small)->schema()->field(c)->type()->ToString()));
  }
  EXPECT_EQ((*large)->schema()->field(0)->type()->ToString(), "map<large_string, large_string>");
  PrettyPrintOptions all;
  all.max_rows = 0;
  for (int c = 0; c < 3; ++c) {
    for (const Array& chunk : (*large)->column(c)->chunks()) {
      auto valid = ValidateFull(*chunk.data());
      EXPECT_TRUE(valid.ok()) << valid.ToString();
    }
    EXPECT_EQ(PrettyPrint(*(*large)->column(c), all), PrettyPrint(*(*small)->column(c), all)) << c;
  }

  // The metadata's judgement: SizeStatistics' exact bytes, else the uncompressed size.
  ColumnMetaData meta;
  meta.type = PhysicalType::kByteArray;
  meta.total_uncompressed_size = int64_t{3} << 30;
  EXPECT_TRUE(ValuesMayPassTwoGiB(meta));
  meta.size_statistics = SizeStatistics{};
  meta.size_statistics->unencoded_byte_array_data_bytes = int64_t{1} << 30;
  EXPECT_FALSE(ValuesMayPassTwoGiB(meta));
  meta.size_statistics->unencoded_byte_array_data_bytes = (int64_t{1} << 31);
  EXPECT_TRUE(ValuesMayPassTwoGiB(meta));
  meta.type = PhysicalType::kInt64;
  EXPECT_FALSE(ValuesMayPassTwoGiB(meta));
}

// A dictionary-encoded nested string chunk without SizeStatistics, as DuckDB 1.5 and older
// writers make them, keeps 32-bit offsets when its size says its values stay far below 2 GiB.
// Bounding the expanded values by the chunk's value count times its dictionary page size would
// be sound but switch such ordinary chunks to large types: here 100,000 elements of 1,000
// distinct 20-byte tags bound at about 2.4 GB, while the values take 2 MB (a 4 MB DuckDB file
// of 1M rows of tag lists, 1,000 distinct tags, bounds at 2.9 GB per row group).
TEST(ReaderCompletenessTest, DictionaryChunksWithoutSizeStatisticsKeep32BitOffsets) {
  using Row = std::optional<std::vector<std::optional<std::string>>>;
  constexpr int kDistinct = 1000;
  constexpr int kRows = 25000;
  constexpr int kPerRow = 4;
  auto tag = [](int k) { return fmt::format("tag-{:016d}", k); };  // 20 bytes
  std::vector<Row> rows;
  for (int r = 0; r < kRows; ++r) {
    std::vector<std::optional<std::string>> tags;
    for (int k = 0; k < kPerRow; ++k) tags.emplace_back(tag((r * 7 + k * 13) % kDistinct));
    rows.emplace_back(std::move(tags));
  }
  pt::ColumnOptions column;
  column.name = "tags";
  column.physical_type = PhysicalType::kByteArray;
  column.logical_type = pt::StringLogicalType();
  column.list = true;
  column.encoding = Encoding::kRleDictionary;
  column.rows_per_page = 20000;
  auto file = pt::BuildFile({column}, {pt::ColumnValues::ListOf<std::string>(PhysicalType::kByteArray, rows)},
                            int64_t{1} << 30);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto reader = pt::OpenBuffer(*file, SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->metadata().row_groups.size(), 1u);
  const ColumnMetaData& meta = *(*reader)->metadata().row_groups[0].columns[0].meta_data;
  ASSERT_FALSE(meta.size_statistics.has_value());
  ASSERT_TRUE(meta.dictionary_page_offset.has_value());
  // The dictionary page with its header, uncompressed: 1,000 x (4 + 20) bytes and a few more.
  const int64_t dictionary_page_bytes = meta.data_page_offset - *meta.dictionary_page_offset;
  EXPECT_GE(dictionary_page_bytes, kDistinct * 24);
  EXPECT_GT(meta.num_values * dictionary_page_bytes, int64_t{1} << 31);
  EXPECT_FALSE(ValuesMayPassTwoGiB(meta));

  auto table = (*reader)->ReadTable();
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  const DataType& type = *(*table)->schema()->field(0)->type();
  ASSERT_EQ(type.id(), TypeId::kList) << type.ToString();
  EXPECT_EQ(type.value_field()->type()->id(), TypeId::kString) << type.ToString();
  int64_t checked = 0;
  int64_t row = 0;
  for (const Array& chunk : (*table)->column(0)->chunks()) {
    auto valid = ValidateFull(*chunk.data());
    ASSERT_TRUE(valid.ok()) << valid.ToString();
    const ListArray<int32_t> lists(chunk.data());
    const StringArray values(lists.values());
    for (int64_t i = 0; i < chunk.length(); ++i, ++row) {
      ASSERT_EQ(lists.value_length(i), kPerRow);
      for (int k = 0; k < kPerRow; ++k) {
        ASSERT_EQ(values.GetView(lists.value_offset(i) + k), tag((static_cast<int>(row) * 7 + k * 13) % kDistinct));
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, int64_t{kRows} * kPerRow);
}

}  // namespace
}  // namespace strata::parquet
