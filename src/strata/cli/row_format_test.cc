#include "strata/cli/row_format.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "strata/parquet/file_reader.h"

namespace strata::cli {
namespace {

// The example file that ships in examples/ (2,000 taxi trips written by DuckDB).
std::shared_ptr<RecordBatch> FirstTrips(int64_t rows) {
  const char* source = std::getenv("STRATA_SOURCE_DIR");
  const std::string path = std::string(source ? source : ".") + "/examples/trips.parquet";
  auto reader = parquet::FileReader::OpenFile(path, SystemMemoryPool());
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  if (!reader.ok()) return nullptr;
  parquet::BatchReadOptions options;
  options.batch_rows = rows;
  auto batches = (*reader)->ReadBatches(options);
  EXPECT_TRUE(batches.ok());
  auto batch = (*batches)->Next();
  EXPECT_TRUE(batch.ok());
  return batch.ok() ? *batch : nullptr;
}

TEST(RowFormatTest, CsvWritesHeaderAndValues) {
  auto batch = FirstTrips(3);
  ASSERT_NE(batch, nullptr);
  std::string out;
  AppendHeader(*batch->schema(), RowFormat::kCsv, &out);
  AppendRows(*batch, RowFormat::kCsv, &out);
  EXPECT_EQ(out,
            "trip_id,pickup_at,pickup_date,fare,distance_km,passengers,vendor,notes,store_and_forward\n"
            "1,2024-03-01T00:22:41,2024-03-01,30.24,4.55,4,Northline,waited 5 min,false\n"
            "2,2024-03-01T00:52:01,2024-03-01,34.94,7.83,4,Northline,waited 5 min,false\n"
            "3,2024-03-01T01:09:32,2024-03-01,62.66,8.01,1,Verde Taxi,wheelchair access,false\n");
}

TEST(RowFormatTest, JsonLinesTypesNumbersAndStrings) {
  auto batch = FirstTrips(1);
  ASSERT_NE(batch, nullptr);
  std::string out;
  AppendRows(*batch, RowFormat::kJsonLines, &out);
  EXPECT_EQ(out,
            "{\"trip_id\":1,\"pickup_at\":\"2024-03-01T00:22:41\",\"pickup_date\":\"2024-03-01\",\"fare\":\"30.24\","
            "\"distance_km\":4.55,\"passengers\":4,\"vendor\":\"Northline\",\"notes\":\"waited 5 min\","
            "\"store_and_forward\":false}\n");
}

}  // namespace
}  // namespace strata::cli
