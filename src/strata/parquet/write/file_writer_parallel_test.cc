// The writer's parallel path on its own, small enough for ThreadSanitizer: column chunks encoded
// on an injected pool (strata::testing::TestExecutor) give the same bytes as on the calling thread, flat
// and nested, and the pool is shared with other users at the same time.
#include <thread>

#include <gtest/gtest.h>

#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_executor.h"

namespace strata::parquet {
namespace {

std::shared_ptr<Schema> MixedSchema() {
  return std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("a", int64()),
      std::make_shared<Field>("b", utf8()),
      std::make_shared<Field>("c", list(float64())),
      std::make_shared<Field>("d", struct_({std::make_shared<Field>("x", int32()), std::make_shared<Field>("y", binary())})),
      std::make_shared<Field>("e", map(utf8(), int16())),
      std::make_shared<Field>("f", boolean(), false),
  });
}

Result<std::shared_ptr<Buffer>> Write(int threads, const std::vector<std::shared_ptr<RecordBatch>>& batches) {
  WriterOptions options;
  options.file.executor = strata::testing::TestExecutor(threads);
  options.file.max_row_group_rows = 1500;
  options.file.data_page_rows = 400;
  options.columns.bloom_filter = true;
  return testing::WriteToBuffer(MixedSchema(), batches, options, SystemMemoryPool());
}

TEST(FileWriterParallelTest, ThreadsChangeNothingInTheFile) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < 3; ++i) batches.push_back(*testing::RandomBatch(MixedSchema(), 1000, static_cast<uint64_t>(i), SystemMemoryPool()));
  auto serial = Write(1, batches);
  ASSERT_TRUE(serial.ok()) << serial.status().ToString();
  for (int threads : {2, 0}) {
    auto parallel = Write(threads, batches);
    ASSERT_TRUE(parallel.ok()) << parallel.status().ToString();
    EXPECT_TRUE((*serial)->Equals(**parallel)) << threads << " threads";
  }
}

TEST(FileWriterParallelTest, TwoWritersShareThePoolAtOnce) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < 2; ++i) batches.push_back(*testing::RandomBatch(MixedSchema(), 1200, static_cast<uint64_t>(10 + i), SystemMemoryPool()));
  auto expected = Write(1, batches);
  ASSERT_TRUE(expected.ok());
  Result<std::shared_ptr<Buffer>> first = Status::Invalid("not run"), second = Status::Invalid("not run");
  std::thread a([&] { first = Write(2, batches); });
  std::thread b([&] { second = Write(2, batches); });
  a.join();
  b.join();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_TRUE((*first)->Equals(**expected));
  EXPECT_TRUE((*second)->Equals(**expected));
}

// WriteRowGroupByColumn: the same calls per field as WriteBatch makes (a row group of the
// batches, each field's arrays in order), so the same bytes, at every thread count; a field
// short of rows or of another type fails naming it, and the writer is aborted.
Result<std::shared_ptr<Buffer>> WriteByColumn(int threads, const std::vector<std::shared_ptr<RecordBatch>>& batches,
                                              int64_t rows, int wrong_field = -1) {
  WriterOptions options;
  options.file.executor = strata::testing::TestExecutor(threads);
  options.file.max_row_group_rows = 3000;
  options.file.data_page_rows = 400;
  options.columns.bloom_filter = true;
  auto sink = std::make_unique<BufferSink>(SystemMemoryPool());
  BufferSink* raw = sink.get();
  STRATA_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(std::move(sink), MixedSchema(), SystemMemoryPool(), options));
  STRATA_RETURN_NOT_OK(writer->WriteRowGroupByColumn(rows, [&](int field, const FileWriter::EmitColumn& emit) -> Status {
    for (const auto& batch : batches) {
      if (field == wrong_field) return emit(batch->column(0));
      STRATA_RETURN_NOT_OK(emit(batch->column(field)));
    }
    return Status::OK();
  }));
  STRATA_RETURN_NOT_OK(writer->Close());
  return raw->Finish();
}

TEST(FileWriterParallelTest, ColumnByColumnWritesWhatWriteBatchWrites) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int i = 0; i < 3; ++i) batches.push_back(*testing::RandomBatch(MixedSchema(), 1000, static_cast<uint64_t>(20 + i), SystemMemoryPool()));
  WriterOptions options;
  options.file.max_row_group_rows = 3000;
  options.file.data_page_rows = 400;
  options.columns.bloom_filter = true;
  auto expected = testing::WriteToBuffer(MixedSchema(), batches, options, SystemMemoryPool());
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  for (int threads : {1, 2, 0}) {
    auto written = WriteByColumn(threads, batches, 3000);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    EXPECT_TRUE((*written)->Equals(**expected)) << threads << " threads";
  }
  auto short_rows = WriteByColumn(2, batches, 3001);
  ASSERT_TRUE(short_rows.status().IsInvalid());
  EXPECT_NE(short_rows.status().message().find("has 3000 rows; the row group has 3001"), std::string::npos)
      << short_rows.status().ToString();
  auto wrong_type = WriteByColumn(2, batches, 3000, /*wrong_field=*/1);
  ASSERT_TRUE(wrong_type.status().IsInvalid());
  EXPECT_NE(wrong_type.status().message().find("field 'b'"), std::string::npos) << wrong_type.status().ToString();
}

}  // namespace
}  // namespace strata::parquet
