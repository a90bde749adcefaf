// A limit on the pool, which the writer and the batch reader fit themselves to: row groups end
// at an eighth of it, batches hold about an eighth, and what still does not fit fails with
// OutOfMemory naming the file and column. Input batches live in another pool.
#include <filesystem>

#include <gtest/gtest.h>
#include <unistd.h>

#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/read/memory_limit_fit.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/write/file_writer.h"
#include "strata/parquet/write/writer_test_util.h"

namespace strata::parquet {
namespace {

constexpr int kColumns = 400;
constexpr int64_t kRows = 30'000;        // 400 int64 columns: 96 MB decoded
constexpr int64_t kLimit = int64_t{48} << 20;

std::shared_ptr<Schema> WideSchema() {
  std::vector<FieldPtr> fields;
  for (int c = 0; c < kColumns; ++c) fields.push_back(std::make_shared<Field>("c" + std::to_string(c), int64()));
  return std::make_shared<Schema>(std::move(fields));
}

class MemoryLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() / ("strata-memory-limit-" + std::to_string(getpid()) + ".parquet");
    auto batch = testing::RandomBatch(schema_, kRows, 7, input_pool_.get());
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    input_ = *batch;
  }
  void TearDown() override { std::filesystem::remove(path_); }

  Status Write(MemoryPool* pool) {
    WriterOptions options;
    options.columns.dictionary = false;  // random int64: PLAIN pages, as big as the data
    STRATA_ASSIGN_OR_RETURN(auto writer, FileWriter::Open(path_.string(), schema_, pool, options));
    for (int64_t row = 0; row < kRows; row += 3000) {
      STRATA_RETURN_NOT_OK(writer->WriteBatch(*input_->Slice(row, 3000)));
    }
    return writer->Close();
  }

  std::shared_ptr<Schema> schema_ = WideSchema();
  std::unique_ptr<MemoryPool> input_pool_ = MakeSystemMemoryPool();
  std::shared_ptr<RecordBatch> input_;
  std::filesystem::path path_;
};

TEST_F(MemoryLimitTest, TheWriterEndsRowGroupsEarlyAndTheReaderShrinksItsBatches) {
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(kLimit);
  ASSERT_TRUE(Write(pool.get()).ok());
  EXPECT_LE(pool->peak_bytes(), kLimit);

  auto file = FileReader::OpenFile(path_.string(), pool.get());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  // Unlimited, 64 MiB row groups would hold the 96 MB in two; an eighth of 48 MiB makes 14 or more.
  EXPECT_GE((*file)->num_row_groups(), 14);
  for (const RowGroup& group : (*file)->metadata().row_groups) {
    EXPECT_LE(group.total_byte_size, kLimit / 8 + 256 * kColumns * 8 + kColumns * 1024) << group.num_rows << " rows";
  }
  // The fit, from the footer: 8 bytes a row and column at least (PLAIN int64 pages hold a bit more).
  std::vector<int> fields(kColumns);
  for (int c = 0; c < kColumns; ++c) fields[static_cast<size_t>(c)] = c;
  const double per_row = EstimatedDecodedBytesPerRow((*file)->descriptor(), (*file)->metadata(), 0, fields);
  EXPECT_GE(per_row, kColumns * 8);
  EXPECT_LE(per_row, kColumns * 8 * 1.1);
  BatchReadOptions fitted;
  FitBatchRead(kLimit, (*file)->descriptor(), (*file)->metadata(), {0}, fields, &fitted);
  EXPECT_EQ(fitted.batch_rows, static_cast<int64_t>(static_cast<double>(kLimit / 8) / per_row));
  EXPECT_EQ(fitted.read_ahead_bytes, kLimit / 16);
  EXPECT_EQ(fitted.row_groups_at_once_bytes, kLimit / 8);

  auto batches = (*file)->ReadBatches();  // 65,536 rows a batch asked for: 210 MB
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  const int64_t fitted_rows = (*batches)->options().batch_rows;
  EXPECT_LE(fitted_rows * kColumns * 8, kLimit / 8);
  EXPECT_GT(fitted_rows, 100);
  int64_t row = 0;
  while (true) {
    auto batch = (*batches)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    ASSERT_LE((*batch)->num_rows(), fitted_rows);
    for (int c = 0; c < kColumns; c += 37) {
      ASSERT_TRUE((*batch)->column(c).Equals(input_->column(c).Slice(row, (*batch)->num_rows())))
          << "column " << c << ", rows from " << row;
    }
    row += (*batch)->num_rows();
  }
  EXPECT_EQ(row, kRows);
  EXPECT_LE(pool->peak_bytes(), kLimit);
}

TEST_F(MemoryLimitTest, ALimitBelowOnePageFailsNamingTheFileAndTheLimit) {
  ASSERT_TRUE(Write(input_pool_.get()).ok());
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(64 << 10);
  auto file = FileReader::OpenFile(path_.string(), pool.get());
  Status st = file.status();
  if (file.ok()) {
    auto table = (*file)->ReadTable();
    st = table.status();
  }
  ASSERT_TRUE(st.IsOutOfMemory()) << st.ToString();
  EXPECT_NE(st.message().find(path_.string()), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("memory limit of 65536 bytes"), std::string::npos) << st.ToString();

  // The writer too: the first row group's pages do not fit, and nothing is left at the path.
  std::filesystem::remove(path_);
  Status write = Write(pool.get());
  ASSERT_TRUE(write.IsOutOfMemory()) << write.ToString();
  EXPECT_FALSE(std::filesystem::exists(path_));
}

// A wide row group streams its SNAPPY pages from the file: with 8 MiB of windows for 400
// columns (32 KiB each), each 480 KB page (more than 8 windows) is read a window at a time
// (checksummed first), never held decompressed;
// the values are the same and the peak is a fraction of reading the pages whole. A damaged
// page fails its checksum.
TEST_F(MemoryLimitTest, WideRowGroupsStreamSnappyPagesFromTheFile) {
  WriterOptions options;
  options.columns.dictionary = false;
  options.file.max_row_group_bytes = 512 << 20;  // one row group, of one page a column
  options.file.data_page_rows = 2 * kRows;
  auto file = testing::WriteToBuffer(schema_, {input_, input_}, options, input_pool_.get());  // 60,000 rows
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  auto read = [&](const std::shared_ptr<Buffer>& bytes, bool stream, int64_t* peak) -> Status {
    auto pool = MakeSystemMemoryPool();
    FileReaderOptions file_options;
    file_options.pages.stream_large_pages = stream;
    file_options.pages.column_windows_total_bytes = 8 << 20;  // 32 KiB a column
    STRATA_ASSIGN_OR_RETURN(auto reader,
                            FileReader::Open(MakeBufferSource(bytes, "wide.parquet"), pool.get(), file_options));
    BatchReadOptions batch_options;
    batch_options.batch_rows = 3000;  // never across the input's two copies
    STRATA_ASSIGN_OR_RETURN(auto batches, reader->ReadBatches(batch_options));
    int64_t row = 0;
    while (true) {
      STRATA_ASSIGN_OR_RETURN(auto batch, batches->Next());
      if (batch == nullptr) break;
      for (int c = 0; c < kColumns; c += 13) {
        if (!batch->column(c).Equals(input_->column(c).Slice(row % kRows, batch->num_rows()))) {
          return Status::Invalid("column {} differs from row {}", c, row);
        }
      }
      row += batch->num_rows();
    }
    if (row != 2 * kRows) return Status::Invalid("{} rows read", row);
    *peak = pool->peak_bytes();
    return Status::OK();
  };
  int64_t whole_peak = 0;
  int64_t streamed_peak = 0;
  ASSERT_TRUE(read(*file, false, &whole_peak).ok());
  Status streamed = read(*file, true, &streamed_peak);
  ASSERT_TRUE(streamed.ok()) << streamed.ToString();
  // Whole: 400 pages of 480 KB decompressed (192 MB), and their chunks as read. Streamed: the
  // window, SNAPPY's 64 KiB of history and its slices (~150 KB a column), and the batch.
  EXPECT_GT(whole_peak, 192'000'000);
  EXPECT_LT(streamed_peak, whole_peak / 2) << streamed_peak << " vs " << whole_peak;

  // One byte changed inside the first column's page: its checksum, checked before decoding.
  auto reader = testing::OpenBuffer(*file, input_pool_.get());
  ASSERT_TRUE(reader.ok());
  const int64_t page = (*reader)->metadata().row_groups[0].columns[0].meta_data->data_page_offset;
  std::string bytes(reinterpret_cast<const char*>((*file)->data()), static_cast<size_t>((*file)->size()));
  bytes[static_cast<size_t>(page + 1000)] ^= 0x5a;
  int64_t unused = 0;
  Status st = read(testing::StringToBuffer(std::move(bytes)), true, &unused);
  EXPECT_TRUE(st.IsChecksumError()) << st.ToString();
}

}  // namespace
}  // namespace strata::parquet
