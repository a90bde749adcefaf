// Valid files from older writers that strata once refused, rebuilt with the project's own file
// builder (no file from another project is committed): each case reads to its values.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "strata/array/array.h"
#include "strata/array/pretty_print.h"
#include "strata/array/validate.h"
#include "strata/expr/bind.h"
#include "strata/expr/parser.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/filter/filtered_reader.h"
#include "strata/parquet/read/offset_limit.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"
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

// Nested string and binary leaves take 64-bit offsets when the chunk's metadata says their
// values may pass 2 GiB (one row may hold that much, and a batch cannot end inside a row), or
// with large_binary; the types above them follow (list, map, struct), and the values are the
// same.
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

// A list<string> column of the file builder, dictionary-encoded, without SizeStatistics; its
// pages end after `entries_per_page` level entries (inside rows, as older writers' v1 pages).
pt::ColumnOptions DictionaryStringList(std::string name, int64_t entries_per_page) {
  pt::ColumnOptions column;
  column.name = std::move(name);
  column.physical_type = PhysicalType::kByteArray;
  column.logical_type = pt::StringLogicalType();
  column.list = true;
  column.encoding = Encoding::kRleDictionary;
  column.rows_per_page = entries_per_page;
  return column;
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
  const pt::ColumnOptions column = DictionaryStringList("tags", 20000);
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

// Lowers the 2 GiB limit of string and binary batches with 32-bit offsets for one test.
class LoweredOffsetLimit {
 public:
  explicit LoweredOffsetLimit(int64_t bytes) { SetOffsetLimitForTesting(bytes); }
  ~LoweredOffsetLimit() { SetOffsetLimitForTesting(0); }
  LoweredOffsetLimit(const LoweredOffsetLimit&) = delete;
  LoweredOffsetLimit& operator=(const LoweredOffsetLimit&) = delete;
};

std::string RowText(const RecordBatch& batch, int64_t row) {
  std::string text;
  for (int c = 0; c < batch.num_columns(); ++c) text += PrettyPrint(batch.column(c).Slice(row, 1)) + " | ";
  return text;
}

// The largest byte count of a string or binary array with 32-bit offsets within `data`.
int64_t LargestStringBytes(const ArrayData& data) {
  int64_t largest = 0;
  const TypeId id = data.type->id();
  if ((id == TypeId::kString || id == TypeId::kBinary) && data.length > 0) {
    const auto* offsets = data.buffers[1]->data_as<int32_t>() + data.offset;
    largest = offsets[data.length] - offsets[0];
  }
  for (const auto& child : data.children) largest = std::max(largest, LargestStringBytes(*child));
  return largest;
}

// A read of `file` in batches of `batch_rows` (under whatever limit the caller set): its rows
// (RowText), and how many batches ended before `batch_rows` though their row group had more
// rows. Every batch is checked: non-empty, valid, and no string array of the columns in
// `limited` past `limit` bytes. `error` says what went wrong, if anything did.
struct LimitedRead {
  std::vector<std::string> rows;
  int64_t cut = 0;
  std::string error;
};
LimitedRead ReadUnderLimit(const std::shared_ptr<Buffer>& file, int64_t batch_rows, int64_t limit,
                           const std::vector<int>& limited, const FileReaderOptions& open = {}) {
  LimitedRead out;
  auto reader = FileReader::Open(MakeBufferSource(file, "written.parquet"), SystemMemoryPool(), open);
  if (!reader.ok()) return {{}, 0, reader.status().ToString()};
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  auto batches = (*reader)->ReadBatches(options);
  if (!batches.ok()) return {{}, 0, batches.status().ToString()};
  size_t group = 0;
  int64_t left_in_group = 0;
  while (true) {
    auto next = (*batches)->Next();
    if (!next.ok()) return {std::move(out.rows), out.cut, next.status().ToString()};
    if (!*next) break;
    const RecordBatch& b = **next;
    if (b.num_rows() == 0) return {std::move(out.rows), out.cut, "an empty batch"};
    if (left_in_group == 0) left_in_group = (*reader)->metadata().row_groups[group++].num_rows;
    out.cut += b.num_rows() < std::min(batch_rows, left_in_group);
    left_in_group -= b.num_rows();
    for (int c = 0; c < b.num_columns(); ++c) {
      auto valid = ValidateFull(*b.column(c).data());
      if (!valid.ok()) return {std::move(out.rows), out.cut, fmt::format("column {}: {}", c, valid.ToString())};
    }
    for (const int c : limited) {
      const int64_t bytes = LargestStringBytes(*b.column(c).data());
      if (bytes > limit) return {std::move(out.rows), out.cut, fmt::format("column {} holds {} bytes", c, bytes)};
    }
    for (int64_t r = 0; r < b.num_rows(); ++r) out.rows.push_back(RowText(b, r));
  }
  return out;
}

// A dictionary-encoded nested string chunk without SizeStatistics may expand past 2 GiB though
// its metadata does not show it. Its leaves keep 32-bit offsets, and a batch ends early, at the
// last row start before the limit, by the rule a flat string column (f) follows too: the field's other leaves give
// back the rows they read beyond it, and the file's other fields carry them, so every batch is
// consistent and the rows come out in order. The limit is lowered here so that a few MB of
// values cross it many times (cuts in the middle of pages, at different rows in a map's keys
// and values, before rows with nulls and empty lists), under every value encoding.
TEST(ReaderCompletenessTest, NestedBatchesEndBeforeTheOffsetLimit) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("id", int64()),
      std::make_shared<Field>("m", map(utf8(), utf8())),
      std::make_shared<Field>("s", struct_({std::make_shared<Field>("a", list(utf8())),
                                            std::make_shared<Field>("b", int32())})),
      std::make_shared<Field>("t", struct_({std::make_shared<Field>("u", utf8())})),
      std::make_shared<Field>("l", list(binary())),
      std::make_shared<Field>("f", utf8()),
  });
  constexpr int64_t kRows = 3000;
  constexpr int64_t kLimit = 2000;
  pt::RandomArrayOptions random;
  random.distinct_values = 50;  // dictionaries stay in use
  auto generated = pt::RandomBatch(schema, kRows, 23, SystemMemoryPool(), random);
  ASSERT_TRUE(generated.ok()) << generated.status().ToString();
  // w: struct<a: short strings, b: long ones>. Its first leaf, read first, ends later than the
  // second, so it gives rows back, and then gives back rows it carried.
  auto short_strings = random;
  short_strings.max_string_length = 6;
  auto long_strings = random;
  long_strings.max_string_length = 60;
  auto a = pt::RandomArray(utf8(), kRows, 29, SystemMemoryPool(), short_strings);
  auto b = pt::RandomArray(utf8(), kRows, 31, SystemMemoryPool(), long_strings);
  ASSERT_TRUE(a.ok() && b.ok());
  auto w_type = struct_({std::make_shared<Field>("a", utf8()), std::make_shared<Field>("b", utf8())});
  auto w = ArrayData::Make(w_type, kRows, {nullptr}, 0);
  w->children = {a->data(), b->data()};
  std::vector<FieldPtr> fields = schema->fields();
  fields.push_back(std::make_shared<Field>("w", w_type));
  schema = std::make_shared<Schema>(std::move(fields));
  std::vector<Array> columns = (*generated)->columns();
  columns.emplace_back(std::move(w));
  auto batch = std::make_shared<RecordBatch>(schema, kRows, std::move(columns));
  struct Config {
    const char* name;
    bool dictionary;
    Encoding encoding;
  };
  for (const Config config : {Config{"dictionary", true, Encoding::kPlain}, Config{"plain", false, Encoding::kPlain},
                              Config{"delta_length", false, Encoding::kDeltaLengthByteArray},
                              Config{"delta", false, Encoding::kDeltaByteArray}}) {
    WriterOptions write;
    write.file.max_row_group_rows = 1200;
    write.file.data_page_rows = 100;
    write.columns.dictionary = config.dictionary;
    write.column_overrides["m"].dictionary = config.dictionary;
    write.column_overrides["m"].encoding = config.encoding;
    write.column_overrides["s.a"].dictionary = config.dictionary;
    write.column_overrides["s.a"].encoding = config.encoding;
    write.column_overrides["t"].dictionary = config.dictionary;
    write.column_overrides["t"].encoding = config.encoding;
    write.column_overrides["l"].dictionary = config.dictionary;
    write.column_overrides["l"].encoding = config.encoding;
    write.column_overrides["w"].dictionary = config.dictionary;
    write.column_overrides["w"].encoding = config.encoding;
    auto file = pt::WriteToBuffer(schema, {batch}, write, SystemMemoryPool());
    ASSERT_TRUE(file.ok()) << config.name << ": " << file.status().ToString();
    // The rows as an unlimited read gives them.
    std::vector<std::string> expected;
    std::vector<int64_t> ids;
    {
      auto reader = pt::OpenBuffer(*file, SystemMemoryPool());
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      auto batches = (*reader)->ReadBatches({});
      ASSERT_TRUE(batches.ok()) << batches.status().ToString();
      while (true) {
        auto next = (*batches)->Next();
        ASSERT_TRUE(next.ok()) << next.status().ToString();
        if (!*next) break;
        ASSERT_GT(LargestStringBytes(*(*next)->column(1).data()), kLimit) << "the limit must bite";
        const Int64Array id((*next)->column(0).data());
        for (int64_t r = 0; r < (*next)->num_rows(); ++r) {
          expected.push_back(RowText(**next, r));
          ids.push_back(id.Value(r));
        }
      }
    }
    ASSERT_EQ(static_cast<int64_t>(expected.size()), kRows);

    LoweredOffsetLimit limit(kLimit);
    for (const int64_t batch_rows : {int64_t{1} << 16, int64_t{500}, int64_t{7}, int64_t{1}}) {
      const std::string where = fmt::format("{}, batches of {}", config.name, batch_rows);
      const LimitedRead read = ReadUnderLimit(*file, batch_rows, kLimit, {1, 2, 3, 4, 5, 6});
      ASSERT_EQ(read.error, "") << where;
      EXPECT_EQ(read.rows, expected) << where;
      if (batch_rows >= 500) {
        EXPECT_GT(read.cut, 0) << where;
      }
    }

    // Filtered reads decode the filter field first and cut the others, or skip them.
    auto predicate = expr::ParseFilter("id > 0");
    ASSERT_TRUE(predicate.ok()) << predicate.status().ToString();
    auto reader = pt::OpenBuffer(*file, SystemMemoryPool());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto bound = expr::Bind(**predicate, *(*reader)->schema());
    ASSERT_TRUE(bound.ok()) << bound.status().ToString();
    FilterOptions filter;
    filter.predicate = *bound;
    BatchReadOptions options;
    options.batch_rows = 800;
    auto filtered = FilteredBatchReader::Make(reader->get(), options, filter);
    ASSERT_TRUE(filtered.ok()) << filtered.status().ToString();
    std::vector<std::string> selected;
    for (size_t r = 0; r < ids.size(); ++r) {
      if (ids[r] > 0) selected.push_back(expected[r]);
    }
    size_t at = 0;
    while (true) {
      auto next = (*filtered)->Next();
      ASSERT_TRUE(next.ok()) << config.name << ", filtered: " << next.status().ToString();
      if (!*next) break;
      for (int64_t r = 0; r < (*next)->num_rows(); ++r, ++at) {
        ASSERT_LT(at, selected.size());
        ASSERT_EQ(RowText(**next, r), selected[at]) << config.name << ", filtered row " << at;
      }
    }
    EXPECT_EQ(at, selected.size()) << config.name;
  }
}

// Flat string and binary columns end their batches by the same rule: at the last value before
// the limit, whatever the encoding, on streamed pages (read through a small window) too, and
// when the values pending from a cut are themselves more than one batch can hold. The other
// columns carry the rows they read beyond the cut.
TEST(ReaderCompletenessTest, FlatBatchesEndBeforeTheOffsetLimit) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("id", int64()),
      std::make_shared<Field>("s", utf8()),
      std::make_shared<Field>("b", binary(), /*nullable=*/false),
  });
  constexpr int64_t kRows = 4000;
  constexpr int64_t kLimit = 1500;
  pt::RandomArrayOptions random;
  random.distinct_values = 60;
  random.max_string_length = 50;
  auto batch = pt::RandomBatch(schema, kRows, 41, SystemMemoryPool(), random);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  struct Config {
    const char* name;
    bool dictionary;
    Encoding encoding;
    int64_t window;  // PageReadOptions::stream_window_bytes
  };
  for (const Config config : {Config{"dictionary", true, Encoding::kPlain, 1 << 20},
                              Config{"plain", false, Encoding::kPlain, 1 << 20},
                              Config{"plain, streamed", false, Encoding::kPlain, 1024},
                              Config{"delta_length", false, Encoding::kDeltaLengthByteArray, 1 << 20},
                              Config{"delta", false, Encoding::kDeltaByteArray, 1 << 20}}) {
    WriterOptions write;
    write.file.max_row_group_rows = 2500;
    write.file.data_page_rows = 700;
    write.columns.codec = codec::CompressionCodec::kUncompressed;  // streamed as read
    write.columns.dictionary = config.dictionary;
    write.columns.encoding = config.encoding;
    write.column_overrides["id"].encoding = Encoding::kPlain;
    write.column_overrides["id"].codec = codec::CompressionCodec::kUncompressed;
    auto file = pt::WriteToBuffer(schema, {*batch}, write, SystemMemoryPool());
    ASSERT_TRUE(file.ok()) << config.name << ": " << file.status().ToString();
    FileReaderOptions open;
    open.pages.stream_window_bytes = config.window;
    const LimitedRead whole = ReadUnderLimit(*file, kRows, std::numeric_limits<int64_t>::max(), {}, open);
    ASSERT_EQ(whole.error, "") << config.name;
    ASSERT_EQ(static_cast<int64_t>(whole.rows.size()), kRows);

    LoweredOffsetLimit limit(kLimit);
    for (const int64_t batch_rows : {int64_t{1} << 16, int64_t{300}, int64_t{3}}) {
      const std::string where = fmt::format("{}, batches of {}", config.name, batch_rows);
      const LimitedRead read = ReadUnderLimit(*file, batch_rows, kLimit, {1, 2}, open);
      ASSERT_EQ(read.error, "") << where;
      EXPECT_EQ(read.rows, whole.rows) << where;
      if (batch_rows >= 300) {
        EXPECT_GT(read.cut, 0) << where;
      }
    }
  }
}

// A row whose values alone pass the limit cannot be cut: the read fails naming large_binary,
// which reads it.
TEST(ReaderCompletenessTest, ANestedRowPastTheOffsetLimitNamesLargeBinary) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("l", list(utf8()))});
  auto batch = pt::RandomBatch(schema, 200, 5, SystemMemoryPool());
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  auto file = pt::WriteToBuffer(schema, {*batch}, WriterOptions{}, SystemMemoryPool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto expected = pt::ReadBuffer(*file, SystemMemoryPool());
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  LoweredOffsetLimit limit(8);
  auto table = pt::ReadBuffer(*file, SystemMemoryPool());
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), StatusCode::kLimitExceeded) << table.status().ToString();
  EXPECT_NE(table.status().message().find("one row's values pass"), std::string::npos) << table.status().ToString();
  EXPECT_NE(table.status().message().find("large_binary"), std::string::npos) << table.status().ToString();
  BatchReadOptions options;
  options.large_binary = true;
  auto large = pt::ReadBuffer(*file, SystemMemoryPool(), options);
  ASSERT_TRUE(large.ok()) << large.status().ToString();
  PrettyPrintOptions all;
  all.max_rows = 0;
  std::string printed = PrettyPrint(*(*large)->column(0), all);
  for (size_t at = printed.find("large_"); at != std::string::npos; at = printed.find("large_")) printed.erase(at, 6);
  EXPECT_EQ(printed, PrettyPrint(*(*expected)->column(0), all));
}

// Older writers' v1 pages may begin inside a row. A batch that reaches the limit inside a row
// begun on an earlier page ends before that row: its levels and values so far open the next
// batch, and the page continues it. Rows with nulls, null elements and empty lists, pages of 7
// level entries, several limits and batch sizes: every row reads as without a limit.
TEST(ReaderCompletenessTest, ALimitInsideARowContinuedFromAnEarlierPageEndsTheBatchBeforeIt) {
  using Row = std::optional<std::vector<std::optional<std::string>>>;
  std::vector<Row> rows;
  for (int r = 0; r < 60; ++r) {
    if (r % 11 == 5) {
      rows.emplace_back(std::nullopt);
      continue;
    }
    std::vector<std::optional<std::string>> elements;
    const int count = r % 7 == 3 ? 0 : r % 5 + 3;
    for (int e = 0; e < count; ++e) {
      if (e % 4 == 2) {
        elements.emplace_back(std::nullopt);
      } else {
        elements.emplace_back(fmt::format("r{:03d}e{:05d}", r, e));  // 10 bytes
      }
    }
    rows.emplace_back(std::move(elements));
  }
  const pt::ColumnOptions column = DictionaryStringList("l", 7);  // rows begin inside pages
  auto file = pt::BuildFile({column}, {pt::ColumnValues::ListOf<std::string>(PhysicalType::kByteArray, rows)},
                            int64_t{1} << 30);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  const LimitedRead expected = ReadUnderLimit(*file, int64_t{1} << 16, std::numeric_limits<int64_t>::max(), {});
  ASSERT_EQ(expected.error, "");
  ASSERT_EQ(expected.rows.size(), rows.size());
  for (const int64_t limit_bytes : {int64_t{75}, int64_t{150}, int64_t{250}, int64_t{1000}}) {
    LoweredOffsetLimit limit(limit_bytes);
    for (const int64_t batch_rows : {int64_t{1} << 16, int64_t{20}, int64_t{3}, int64_t{1}}) {
      const std::string where = fmt::format("limit {}, batches of {}", limit_bytes, batch_rows);
      const LimitedRead read = ReadUnderLimit(*file, batch_rows, limit_bytes, {0});
      ASSERT_EQ(read.error, "") << where;
      EXPECT_EQ(read.rows, expected.rows) << where;
      if (batch_rows >= 20 && limit_bytes <= 250) {
        EXPECT_GT(read.cut, 0) << where;
      }
    }
  }
  // A row that alone passes the limit still fails, naming large_binary (the longest: 50 bytes).
  LoweredOffsetLimit limit(45);
  auto table = pt::ReadBuffer(*file, SystemMemoryPool());
  ASSERT_FALSE(table.ok());
  EXPECT_EQ(table.status().code(), StatusCode::kLimitExceeded) << table.status().ToString();
  EXPECT_NE(table.status().message().find("one row's values pass"), std::string::npos) << table.status().ToString();
}

}  // namespace
}  // namespace strata::parquet
