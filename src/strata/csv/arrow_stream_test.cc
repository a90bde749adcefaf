// An in-memory CSV read through the Arrow C stream.
#include "strata/csv/arrow_stream.h"

#include <gtest/gtest.h>

#include "strata/arrow_c/import.h"
#include "strata/io/input_stream.h"

namespace strata::csv {
namespace {

TEST(CsvArrowStreamTest, BatchesThroughTheCStream) {
  static const std::string kText = "id,name,score\n1,ann,1.5\n2,bob,\n3,cé,2.25\n4,dan,3\n5,eve,4\n";
  auto pool = MakeSystemMemoryPool();
  CsvReadOptions options;
  options.read.batch_rows = 2;
  auto reader = CsvReader::Open(
      MakeMemoryInputStream({reinterpret_cast<const uint8_t*>(kText.data()), kText.size()}, "mem.csv"), options,
      pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportArrowStream(std::move(*reader), &stream).ok());

  ArrowSchema c_schema;
  ASSERT_EQ(stream.get_schema(&stream, &c_schema), 0);
  auto schema = arrow_c::ImportSchema(&c_schema);
  ASSERT_TRUE(schema.ok()) << schema.status().ToString();
  ASSERT_EQ((*schema)->num_fields(), 3);
  EXPECT_EQ((*schema)->field(1)->name(), "name");

  int64_t rows = 0;
  std::string names;
  while (true) {
    ArrowArray array;
    ASSERT_EQ(stream.get_next(&stream, &array), 0) << stream.get_last_error(&stream);
    if (array.release == nullptr) break;
    auto batch = arrow_c::ImportRecordBatch(&array, *schema);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    StringArray column((*batch)->column(1));
    for (int64_t i = 0; i < column.length(); ++i) names += column.GetString(i) + ";";
    rows += (*batch)->num_rows();
  }
  stream.release(&stream);
  EXPECT_EQ(rows, 5);
  EXPECT_EQ(names, "ann;bob;cé;dan;eve;");
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

}  // namespace
}  // namespace strata::csv
