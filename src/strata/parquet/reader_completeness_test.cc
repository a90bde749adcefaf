// Valid files from older writers that strata once refused, rebuilt with the project's own file
// builder (no file from another project is committed): each case reads to its values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strata/parquet/file_reader.h"
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

}  // namespace
}  // namespace strata::parquet
