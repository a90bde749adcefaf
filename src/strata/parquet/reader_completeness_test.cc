// Valid files from older writers that strata once refused, rebuilt with the project's own file
// builder (no file from another project is committed): each case reads to its values.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "strata/parquet/file_reader.h"
#include "strata/parquet/testing/file_builder.h"

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

}  // namespace
}  // namespace strata::parquet
