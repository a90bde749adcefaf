// A Parquet file read through the Arrow C stream: the same batches as the reader's own.
#include "strata/parquet/filter/arrow_stream.h"

#include <gtest/gtest.h>

#include "strata/arrow_c/import.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

TEST(ParquetArrowStreamTest, AllTypesPlainThroughTheCStream) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = testing::ParquetTestingFile("data/alltypes_plain.parquet");
  auto pool = MakeSystemMemoryPool();
  BatchReadOptions options;
  options.batch_rows = 3;  // 8 rows: batches of 3, 3, 2
  auto expected = (*(*FileReader::OpenFile(path, pool.get()))->ReadTable(options));

  auto file = FileReader::OpenFile(path, pool.get());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportArrowStream(std::move(*file), options, &stream).ok());
  auto reader = arrow_c::ImportBatchStream(&stream);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_TRUE((*reader)->schema()->Equals(*expected->schema()));
  int64_t rows = 0;
  int batches = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      const Array& want = expected->column(c)->chunk(batches);
      EXPECT_TRUE((*batch)->column(c).Equals(want)) << expected->schema()->field(c)->name();
    }
    rows += (*batch)->num_rows();
    ++batches;
  }
  EXPECT_EQ(rows, 8);
  EXPECT_EQ(batches, 3);
}

}  // namespace
}  // namespace strata::parquet
