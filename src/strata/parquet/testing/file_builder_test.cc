#include "strata/parquet/testing/file_builder.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include <unistd.h>

#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"

namespace strata::parquet::testing {
namespace {

using codec::CompressionCodec;

// Values of `type` for `rows` rows, `null_fraction` of them null. `distinct` > 0 draws them
// from that many values (dictionary-friendly); strings share prefixes (DELTA_BYTE_ARRAY).
ColumnValues MakeValues(PhysicalType type, int32_t type_length, int64_t rows, double null_fraction, int distinct,
                        uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  ColumnValues values(type, type_length);
  auto pick = [&]() -> uint64_t { return distinct > 0 ? rng() % static_cast<uint64_t>(distinct) * 7919 : rng(); };
  for (int64_t i = 0; i < rows; ++i) {
    if (unit(rng) < null_fraction) {
      values.AppendNull();
      continue;
    }
    const uint64_t r = pick();
    switch (type) {
      case PhysicalType::kBoolean: values.AppendBool(r & 1); break;
      case PhysicalType::kInt32: values.Append<int32_t>(static_cast<int32_t>(r % 200000) - 100000); break;
      case PhysicalType::kInt64: values.Append<int64_t>(static_cast<int64_t>(r)); break;
      case PhysicalType::kFloat: values.Append<float>(static_cast<float>(r % 100000) / 7.0f); break;
      case PhysicalType::kDouble: values.Append<double>(static_cast<double>(r % 10000000) / 3.0); break;
      case PhysicalType::kByteArray: {
        std::string s = "key-" + std::to_string(r % 1000);
        s.append(static_cast<size_t>(r % 17), static_cast<char>('a' + r % 26));
        values.AppendBytes(s);
        break;
      }
      case PhysicalType::kFixedLenByteArray: {
        std::string s(static_cast<size_t>(type_length), '\0');
        for (int32_t b = 0; b < type_length; ++b) s[static_cast<size_t>(b)] = static_cast<char>(r >> (b % 8 * 8));
        values.AppendBytes(s);
        break;
      }
      default: break;
    }
  }
  return values;
}

std::unique_ptr<FileReader> OpenBuffer(std::shared_ptr<Buffer> file, MemoryPool* pool) {
  auto reader = FileReader::Open(MakeBufferSource(std::move(file), "built.parquet"), pool);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  return reader.ok() ? std::move(*reader) : nullptr;
}

// Reads every batch and compares each column with the values it was built from.
void ExpectReadsBack(FileReader* reader, const std::vector<ColumnValues>& expected, int64_t batch_rows,
                     const std::string& what) {
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  auto batches = reader->ReadBatches(options);
  ASSERT_TRUE(batches.ok()) << what << ": " << batches.status().ToString();
  int64_t row = 0;
  while (true) {
    auto batch = (*batches)->Next();
    ASSERT_TRUE(batch.ok()) << what << ": " << batch.status().ToString();
    if (!*batch) break;
    for (size_t c = 0; c < expected.size(); ++c) {
      Status st = expected[c].CheckEquals((*batch)->column(static_cast<int>(c)), row);
      ASSERT_TRUE(st.ok()) << what << ", column " << c << ": " << st.ToString();
    }
    row += (*batch)->num_rows();
  }
  EXPECT_EQ(row, expected[0].num_rows()) << what;
}

struct TypeCase {
  const char* label;
  PhysicalType type;
  int32_t type_length;
  std::optional<LogicalType> logical;
  std::vector<Encoding> encodings;
};

std::vector<TypeCase> AllTypeCases() {
  return {
      {"boolean", PhysicalType::kBoolean, 0, std::nullopt, {Encoding::kPlain, Encoding::kRle}},
      {"int32", PhysicalType::kInt32, 0, std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked, Encoding::kByteStreamSplit}},
      {"date", PhysicalType::kInt32, 0, DateLogicalType(), {Encoding::kPlain, Encoding::kDeltaBinaryPacked}},
      {"int64", PhysicalType::kInt64, 0, std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaBinaryPacked, Encoding::kByteStreamSplit}},
      {"timestamp", PhysicalType::kInt64, 0, TimestampLogicalType(TimeUnit::kMicros, true), {Encoding::kPlain}},
      {"float", PhysicalType::kFloat, 0, std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kByteStreamSplit, Encoding::kAlp}},
      {"double", PhysicalType::kDouble, 0, std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kByteStreamSplit, Encoding::kAlp}},
      {"string", PhysicalType::kByteArray, 0, StringLogicalType(),
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaLengthByteArray, Encoding::kDeltaByteArray}},
      {"binary", PhysicalType::kByteArray, 0, std::nullopt, {Encoding::kPlain, Encoding::kDeltaByteArray}},
      {"flba16", PhysicalType::kFixedLenByteArray, 16, std::nullopt,
       {Encoding::kPlain, Encoding::kRleDictionary, Encoding::kDeltaByteArray, Encoding::kByteStreamSplit}},
  };
}

// Every type x encoding x codec x page version, required and optional (with nulls) side by side,
// several row groups of several pages, checksums on: everything reads back equal.
TEST(TestFileBuilderTest, EveryEncodingCodecAndPageVersionReadsBack) {
  const CompressionCodec codecs[] = {CompressionCodec::kUncompressed, CompressionCodec::kSnappy,
                                     CompressionCodec::kZstd,         CompressionCodec::kGzip,
                                     CompressionCodec::kLz4Raw,       CompressionCodec::kBrotli};
  auto pool = MakeSystemMemoryPool();
  int files = 0;
  uint64_t seed = 1;
  for (const TypeCase& type : AllTypeCases()) {
    for (Encoding encoding : type.encodings) {
      const int distinct = encoding == Encoding::kRleDictionary ? 37 : 0;
      std::vector<ColumnValues> values = {MakeValues(type.type, type.type_length, 1000, 0.0, distinct, seed++),
                                          MakeValues(type.type, type.type_length, 1000, 0.15, distinct, seed++)};
      for (CompressionCodec codec : codecs) {
        for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
          std::vector<ColumnOptions> columns(2);
          for (int c = 0; c < 2; ++c) {
            ColumnOptions& column = columns[static_cast<size_t>(c)];
            column.name = c == 0 ? "required" : "optional";
            column.physical_type = type.type;
            column.type_length = type.type_length;
            column.logical_type = type.logical;
            column.optional = c == 1;
            column.encoding = encoding;
            column.codec = codec;
            column.page_version = version;
            column.rows_per_page = 97;
            column.page_crc = true;
          }
          const std::string what = fmt::format("{} {} {} v{}", type.label, EncodingName(encoding),
                                               codec::CodecName(codec), static_cast<int>(version));
          auto file = BuildFile(columns, values, 400);
          ASSERT_TRUE(file.ok()) << what << ": " << file.status().ToString();
          auto reader = OpenBuffer(*file, pool.get());
          ASSERT_NE(reader, nullptr) << what;
          ASSERT_EQ(reader->num_row_groups(), 3) << what;
          ExpectReadsBack(reader.get(), values, 333, what);
          ++files;
        }
      }
    }
  }
  EXPECT_EQ(files, 31 * 6 * 2);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(TestFileBuilderTest, SchemaCarriesLogicalAndConvertedTypes) {
  std::vector<ColumnOptions> columns(3);
  columns[0] = {.name = "s", .physical_type = PhysicalType::kByteArray, .logical_type = StringLogicalType()};
  columns[1] = {.name = "d", .physical_type = PhysicalType::kInt32, .logical_type = DateLogicalType(), .optional = false};
  columns[2] = {.name = "f", .physical_type = PhysicalType::kFixedLenByteArray, .type_length = 4};
  std::vector<ColumnValues> values = {ColumnValues::ByteArrays({"a", "b"}, {true, false}),
                                      ColumnValues::Int32s({19000, 19001}),
                                      ColumnValues::FixedLenByteArrays(4, {"abcd", "efgh"})};
  auto file = BuildFile(columns, values, 10);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto reader = OpenBuffer(*file, SystemMemoryPool());
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->schema()->field(0)->type()->ToString(), "string");
  EXPECT_EQ(reader->schema()->field(1)->type()->ToString(), "date32[day]");
  EXPECT_FALSE(reader->schema()->field(1)->nullable());
  EXPECT_EQ(reader->schema()->field(2)->type()->ToString(), "fixed_size_binary[4]");
  const auto& schema = reader->metadata().schema;
  ASSERT_EQ(schema.size(), 4u);
  EXPECT_EQ(schema[1].converted_type, ConvertedType::kUtf8);
  EXPECT_EQ(schema[2].converted_type, ConvertedType::kDate);
  EXPECT_EQ(schema[3].type_length, 4);
  EXPECT_EQ(reader->metadata().num_rows, 2);
  ExpectReadsBack(reader.get(), values, 10, "schema");
}

// Pages end by rows or by the PLAIN size of their values, whichever comes first.
TEST(TestFileBuilderTest, PagesSplitByRowsAndBytes) {
  auto pool = MakeSystemMemoryPool();
  ColumnValues values = MakeValues(PhysicalType::kByteArray, 0, 5000, 0.1, 0, 7);
  for (const auto& [rows_per_page, bytes_per_page] : {std::pair<int64_t, int64_t>{0, 4096}, {250, 1 << 20}}) {
    ColumnOptions column{.name = "v", .physical_type = PhysicalType::kByteArray};
    column.rows_per_page = rows_per_page;
    column.bytes_per_page = bytes_per_page;
    auto file = BuildFile({column}, {values}, 5000);
    ASSERT_TRUE(file.ok());
    auto reader = OpenBuffer(*file, pool.get());
    auto location = reader->ChunkLocation(0, 0);
    ASSERT_TRUE(location.ok());
    auto pages = PageReader::Make(&reader->source(), *location, pool.get(), {});
    ASSERT_TRUE(pages.ok());
    Page page;
    int64_t rows = 0;
    int count = 0;
    while (*(*pages)->Next(&page)) {
      if (rows_per_page > 0) {
        EXPECT_LE(page.num_values, rows_per_page);
      } else {
        // PLAIN values plus at most a few bytes of levels; one value may not pass the limit.
        EXPECT_LE(static_cast<int64_t>(page.values.size()), bytes_per_page + 64);
      }
      rows += page.num_values;
      ++count;
    }
    EXPECT_EQ(rows, 5000);
    EXPECT_EQ(count, rows_per_page > 0 ? 20 : static_cast<int>(reader->metadata()
                                                                   .row_groups[0]
                                                                   .columns[0]
                                                                   .meta_data->encoding_stats->at(0)
                                                                   .count));
    if (rows_per_page == 0) {
      EXPECT_GT(count, 10);
    }
    ExpectReadsBack(reader.get(), {values}, 1000, "pages");
  }
}

TEST(TestFileBuilderTest, SizeStatisticsAndChunkMetadata) {
  ColumnValues values = ColumnValues::ByteArrays({"abc", "", "hello", "x"}, {true, true, false, true});
  ColumnOptions column{.name = "s", .physical_type = PhysicalType::kByteArray, .logical_type = StringLogicalType()};
  column.size_statistics = true;
  column.encoding = Encoding::kRleDictionary;
  auto file = BuildFile({column}, {values}, 100);
  ASSERT_TRUE(file.ok());
  auto reader = OpenBuffer(*file, SystemMemoryPool());
  const ColumnMetaData& meta = *reader->metadata().row_groups[0].columns[0].meta_data;
  ASSERT_TRUE(meta.size_statistics.has_value());
  EXPECT_EQ(meta.size_statistics->unencoded_byte_array_data_bytes, 4);  // "abc" + "" + "x"
  EXPECT_EQ(meta.size_statistics->definition_level_histogram, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(meta.statistics->null_count, 1);
  EXPECT_EQ(meta.num_values, 4);
  ASSERT_TRUE(meta.dictionary_page_offset.has_value());
  EXPECT_EQ(*meta.dictionary_page_offset, 4);  // right after the magic
  EXPECT_GT(meta.data_page_offset, 4);
  EXPECT_EQ(meta.encodings, (std::vector<Encoding>{Encoding::kPlain, Encoding::kRleDictionary, Encoding::kRle}));

  column.size_statistics = false;
  auto without = BuildFile({column}, {values}, 100);
  auto reader2 = OpenBuffer(*without, SystemMemoryPool());
  EXPECT_FALSE(reader2->metadata().row_groups[0].columns[0].meta_data->size_statistics.has_value());
}

// Flipping a byte of a page body fails the stored checksum; without CRCs the same flip goes
// unnoticed by the page reader (a value changes).
TEST(TestFileBuilderTest, PageChecksumsAreWrittenAndVerified) {
  ColumnValues values = MakeValues(PhysicalType::kInt64, 0, 100, 0, 0, 3);
  for (bool crc : {true, false}) {
    ColumnOptions column{.name = "v", .physical_type = PhysicalType::kInt64, .optional = false};
    column.page_crc = crc;
    auto file = BuildFile({column}, {values}, 100);
    ASSERT_TRUE(file.ok());
    std::string bytes((*file)->view());
    bytes[bytes.size() / 4] ^= 0x10;  // inside the values of the only page
    auto reader = OpenBuffer(StringToBuffer(bytes), SystemMemoryPool());
    auto table = reader->ReadTable();
    if (crc) {
      ASSERT_FALSE(table.ok());
      EXPECT_TRUE(table.status().IsChecksumError()) << table.status().ToString();
    } else {
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      EXPECT_FALSE(values.CheckEquals((*table)->column(0)->chunk(0), 0).ok());
    }
  }
}

TEST(TestFileBuilderTest, StreamsToAFile) {
  const auto path = std::filesystem::temp_directory_path() / fmt::format("strata_builder_{}.parquet", ::getpid());
  auto pool = MakeSystemMemoryPool();
  std::vector<ColumnOptions> columns = {
      {.name = "id", .physical_type = PhysicalType::kInt64, .optional = false, .encoding = Encoding::kDeltaBinaryPacked},
      {.name = "s", .physical_type = PhysicalType::kByteArray, .logical_type = StringLogicalType(),
       .codec = CompressionCodec::kZstd}};
  auto builder = TestFileBuilder::MakeForFile(columns, path.string());
  ASSERT_TRUE(builder.ok()) << builder.status().ToString();
  std::vector<std::vector<ColumnValues>> groups;
  for (int g = 0; g < 3; ++g) {
    groups.push_back({MakeValues(PhysicalType::kInt64, 0, 700, 0, 0, 10 + g),
                      MakeValues(PhysicalType::kByteArray, 0, 700, 0.2, 0, 20 + g)});
    ASSERT_TRUE((*builder)->AddRowGroup(groups.back()).ok());
  }
  auto finished = (*builder)->Finish();
  ASSERT_TRUE(finished.ok()) << finished.status().ToString();
  EXPECT_EQ(*finished, nullptr);
  EXPECT_EQ(static_cast<int64_t>(std::filesystem::file_size(path)), (*builder)->bytes_written());
  EXPECT_TRUE((*builder)->AddRowGroup(groups[0]).IsInvalid());  // finished

  auto reader = FileReader::OpenFile(path.string(), pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_EQ((*reader)->num_row_groups(), 3);
  BatchReadOptions options;
  options.batch_rows = 700;
  auto batches = *(*reader)->ReadBatches(options);
  for (int g = 0; g < 3; ++g) {
    auto batch = batches->Next();
    ASSERT_TRUE(batch.ok() && *batch);
    for (int c = 0; c < 2; ++c) EXPECT_TRUE(groups[g][c].CheckEquals((*batch)->column(c), 0).ok());
  }
  std::filesystem::remove(path);
}

TEST(TestFileBuilderTest, RefusesWhatTheFormatForbids) {
  EXPECT_TRUE((ColumnOptions{.name = "d", .physical_type = PhysicalType::kDouble,
                             .encoding = Encoding::kDeltaBinaryPacked}).Validate().IsInvalid());
  EXPECT_TRUE((ColumnOptions{.name = "b", .physical_type = PhysicalType::kBoolean,
                             .encoding = Encoding::kRleDictionary}).Validate().IsInvalid());
  EXPECT_TRUE((ColumnOptions{.name = "i", .physical_type = PhysicalType::kInt32,
                             .encoding = Encoding::kDeltaLengthByteArray}).Validate().IsInvalid());
  EXPECT_TRUE((ColumnOptions{.name = "f", .physical_type = PhysicalType::kFixedLenByteArray}).Validate().IsInvalid());
  EXPECT_TRUE(TestFileBuilder::Make({ColumnOptions{}}).status().IsInvalid());  // no name

  auto builder = *TestFileBuilder::Make({{.name = "v", .physical_type = PhysicalType::kInt64, .optional = false}});
  EXPECT_TRUE(builder->AddRowGroup({ColumnValues::Int64s({1, 2}, {true, false})}).IsInvalid());  // null in required
  EXPECT_TRUE(builder->AddRowGroup({ColumnValues::Int32s({1, 2})}).IsInvalid());                 // wrong type
  EXPECT_TRUE(builder->AddRowGroup({ColumnValues::Int64s({1, 2})}, 1, 5).IsInvalid());          // past the end
  auto flba = *TestFileBuilder::Make(
      {{.name = "f", .physical_type = PhysicalType::kFixedLenByteArray, .type_length = 3}});
  EXPECT_TRUE(flba->AddRowGroup({ColumnValues::FixedLenByteArrays(3, {"abc", "de"})}).IsInvalid());
}

// An all-null page and an empty row group are legal; real writers produce both.
TEST(TestFileBuilderTest, AllNullPagesAndEmptyRowGroups) {
  std::vector<bool> validity(300, false);
  for (int i = 200; i < 300; ++i) validity[static_cast<size_t>(i)] = i % 3 != 0;
  std::vector<int64_t> raw(300);
  for (int i = 0; i < 300; ++i) raw[static_cast<size_t>(i)] = i * 11;
  ColumnValues values = ColumnValues::Int64s(raw, validity);
  for (DataPageVersion version : {DataPageVersion::kV1, DataPageVersion::kV2}) {
    for (CompressionCodec codec : {CompressionCodec::kUncompressed, CompressionCodec::kSnappy}) {
      ColumnOptions column{.name = "v", .physical_type = PhysicalType::kInt64, .codec = codec,
                           .page_version = version, .rows_per_page = 100};
      auto builder = *TestFileBuilder::Make({column});
      ASSERT_TRUE(builder->AddRowGroup({values}, 0, 0).ok());
      ASSERT_TRUE(builder->AddRowGroup({values}).ok());
      auto file = builder->Finish();
      ASSERT_TRUE(file.ok());
      auto reader = OpenBuffer(*file, SystemMemoryPool());
      ASSERT_NE(reader, nullptr);
      EXPECT_EQ(reader->num_row_groups(), 2);
      ExpectReadsBack(reader.get(), {values}, 128,
                      fmt::format("all-null pages, v{} {}", static_cast<int>(version), codec::CodecName(codec)));
    }
  }
}

// A peer reads a built file and agrees on rows, counts, nulls, min and max.
TEST(TestFileBuilderTest, DuckDbReadsABuiltFile) {
  const char* source_dir = std::getenv("STRATA_SOURCE_DIR");
  const std::filesystem::path root = source_dir ? source_dir : STRATA_SOURCE_DIR_DEFAULT;
  STRATA_REQUIRE_OR_SKIP(std::filesystem::exists(root / "node_modules" / "@duckdb") &&
                             std::filesystem::exists(root / "testing/peers/scan_summary.mjs") &&
                             std::system("node --version >/dev/null 2>&1") == 0,
                         "node and node_modules/@duckdb (scripts/install-deps)");
  std::vector<int64_t> ids(5000);
  std::vector<bool> validity(5000);
  std::vector<std::string> names(5000);
  for (int i = 0; i < 5000; ++i) {
    ids[static_cast<size_t>(i)] = (i * 7919) % 10007 - 3000;
    validity[static_cast<size_t>(i)] = i % 10 != 0;
    names[static_cast<size_t>(i)] = fmt::format("name-{:05}", (i * 31) % 5000);
  }
  std::vector<ColumnValues> values = {ColumnValues::Int64s(ids, validity), ColumnValues::ByteArrays(names)};
  std::vector<ColumnOptions> columns = {
      {.name = "id", .physical_type = PhysicalType::kInt64, .encoding = Encoding::kDeltaBinaryPacked,
       .codec = CompressionCodec::kZstd, .page_version = DataPageVersion::kV2, .rows_per_page = 1000, .page_crc = true},
      {.name = "name", .physical_type = PhysicalType::kByteArray, .logical_type = StringLogicalType(),
       .optional = false, .encoding = Encoding::kRleDictionary, .codec = CompressionCodec::kSnappy,
       .size_statistics = true}};
  const auto path = std::filesystem::temp_directory_path() / fmt::format("strata_duckdb_{}.parquet", ::getpid());
  auto builder = *TestFileBuilder::MakeForFile(columns, path.string());
  ASSERT_TRUE(builder->AddRowGroups(values, 2000).ok());
  ASSERT_TRUE(builder->Finish().ok());
  int64_t min = INT64_MAX, max = INT64_MIN, count = 0;
  for (int i = 0; i < 5000; ++i) {
    if (!validity[static_cast<size_t>(i)]) continue;
    min = std::min(min, ids[static_cast<size_t>(i)]);
    max = std::max(max, ids[static_cast<size_t>(i)]);
    ++count;
  }
  const std::string out_path = path.string() + ".out";
  const std::string command =
      fmt::format("node '{}' duckdb '{}' > '{}'", (root / "testing/peers/scan_summary.mjs").string(), path.string(), out_path);
  const int rc = std::system(command.c_str());
  std::string line;
  if (FILE* f = std::fopen(out_path.c_str(), "r")) {
    char buffer[4096];
    while (std::fgets(buffer, sizeof(buffer), f)) line += buffer;
    std::fclose(f);
  }
  std::filesystem::remove(path);
  std::filesystem::remove(out_path);
  ASSERT_EQ(rc, 0) << line;
  EXPECT_NE(line.find("\"rows\":5000"), std::string::npos) << line;
  EXPECT_NE(line.find(fmt::format("\"count\":{},\"nulls\":{},\"min\":\"{}\",\"max\":\"{}\"", count, 5000 - count, min, max)),
            std::string::npos)
      << line;
  EXPECT_NE(line.find("\"count\":5000,\"nulls\":0,\"min\":\"name-00000\",\"max\":\"name-04999\""), std::string::npos)
      << line;
}

}  // namespace
}  // namespace strata::parquet::testing
