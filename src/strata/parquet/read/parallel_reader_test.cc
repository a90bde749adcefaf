// The reader's parallel path on its own, small enough for ThreadSanitizer: a batch's columns
// decoded (and a row group's readers opened, also ahead) on an injected pool
// (strata::testing::TestExecutor, 4 workers) give the same batches, and the same error, as on the
// calling thread.
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "strata/io/fault_injection_source.h"
#include "strata/parquet/testing/random_arrays.h"
#include "strata/parquet/write/writer_test_util.h"
#include "strata/testing/test_data.h"
#include "strata/testing/test_executor.h"

namespace strata::parquet {
namespace {

// What a reader returned: its batches, then OK (the end) or the error that stopped it.
struct ReadOutcome {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  Status status;
};

// Reads every batch of `source`: in order through Next(), or (by_row_group) through
// ForEachBatch, each row group's batches collected at its position and then put in file order
// (on the pool they arrive out of order).
ReadOutcome Read(std::shared_ptr<RandomAccessSource> source, bool pre_buffer, const BatchReadOptions& options,
                 bool by_row_group) {
  ReadOutcome out;
  FileReaderOptions file_options;
  file_options.pre_buffer = pre_buffer;
  auto reader = FileReader::Open(std::move(source), SystemMemoryPool(), file_options);
  if (!reader.ok()) {
    out.status = reader.status();
    return out;
  }
  auto batches = (*reader)->ReadBatches(options);
  if (!batches.ok()) {
    out.status = batches.status();
    return out;
  }
  if (!by_row_group) {
    while (true) {
      auto batch = (*batches)->Next();
      if (!batch.ok()) {
        out.status = batch.status();
        return out;
      }
      if (*batch == nullptr) return out;
      out.batches.push_back(std::move(*batch));
    }
  }
  std::mutex mutex;
  std::map<size_t, std::vector<std::shared_ptr<RecordBatch>>> by_position;
  out.status = (*batches)->ForEachBatch([&](size_t position, std::shared_ptr<RecordBatch> batch) {
    std::lock_guard<std::mutex> lock(mutex);
    by_position[position].push_back(std::move(batch));
    return Status::OK();
  });
  for (auto& [position, group] : by_position) {
    for (auto& batch : group) out.batches.push_back(std::move(batch));
  }
  // After the last batch the reader is at its end.
  if (out.status.ok()) {
    auto after = (*batches)->Next();
    EXPECT_TRUE(after.ok() && *after == nullptr);
  }
  return out;
}

ReadOutcome ReadAll(std::shared_ptr<RandomAccessSource> source, bool pre_buffer, const BatchReadOptions& options) {
  return Read(std::move(source), pre_buffer, options, /*by_row_group=*/false);
}
ReadOutcome ReadAllByRowGroup(std::shared_ptr<RandomAccessSource> source, bool pre_buffer,
                              const BatchReadOptions& options) {
  return Read(std::move(source), pre_buffer, options, /*by_row_group=*/true);
}

void ExpectSame(const ReadOutcome& expected, const ReadOutcome& actual, const std::string& what) {
  EXPECT_EQ(expected.status.ToString(), actual.status.ToString()) << what;
  ASSERT_EQ(expected.batches.size(), actual.batches.size()) << what;
  for (size_t b = 0; b < expected.batches.size(); ++b) {
    EXPECT_TRUE(expected.batches[b]->Equals(*actual.batches[b])) << what << ", batch " << b;
  }
}

struct ThreadsConfig {
  int threads;
  int64_t read_ahead_bytes;
};

// Against threads 1: the pool with and without opening row groups ahead (few: this test also
// runs under ThreadSanitizer).
constexpr ThreadsConfig kThreadConfigs[] = {{2, 64 << 20}, {4, 0}};

// Reads `source` with every entry of kThreadConfigs and checks each against threads 1.
void CheckEveryThreadCount(const std::function<std::shared_ptr<RandomAccessSource>()>& open, bool pre_buffer,
                           BatchReadOptions options, const std::string& what) {
  options.executor = exec::Executor();
  const ReadOutcome serial = ReadAll(open(), pre_buffer, options);
  for (const ThreadsConfig& config : kThreadConfigs) {
    options.executor = strata::testing::TestExecutor(config.threads);
    options.read_ahead_bytes = config.read_ahead_bytes;
    const std::string with = what + ", threads " + std::to_string(config.threads) + ", read-ahead " +
                             std::to_string(config.read_ahead_bytes) + (pre_buffer ? ", pre-buffered" : "");
    ExpectSame(serial, ReadAll(open(), pre_buffer, options), with);
    // Row groups at once: the same batches; the same error, without the batches before it
    // (later row groups may have been consumed already).
    const ReadOutcome by_row_group = ReadAllByRowGroup(open(), pre_buffer, options);
    if (serial.status.ok()) {
      ExpectSame(serial, by_row_group, with + ", ForEachBatch");
    } else {
      EXPECT_EQ(serial.status.ToString(), by_row_group.status.ToString()) << with << ", ForEachBatch";
    }
  }
}

// Every parquet-testing file (the ones that fail too: their error must not depend on threads):
// all columns and a reordered subset of fields and row groups, several batch sizes,
// pre-buffering on and off.
TEST(ParallelReaderTest, EveryTestingFileGivesTheSameBatches) {
  STRATA_REQUIRE_PARQUET_TESTING();
  int files = 0;
  for (const char* folder : {"data", "bad_data"}) {
    for (const auto& entry : std::filesystem::directory_iterator(strata::testing::ParquetTestingFile(folder))) {
      if (entry.path().extension() != ".parquet") continue;
      const std::string path = entry.path().string();
      auto open = [&path]() -> std::shared_ptr<RandomAccessSource> {
        auto source = OpenLocalFile(path);
        return source.ok() ? *source : nullptr;
      };
      ASSERT_NE(open(), nullptr) << path;
      auto probe = FileReader::OpenFile(path, SystemMemoryPool());
      if (!probe.ok()) continue;  // the footer fails before any column is read
      ++files;
      BatchReadOptions options;
      CheckEveryThreadCount(open, false, options, path);
      options.batch_rows = 100;
      CheckEveryThreadCount(open, true, options, path + ", batch_rows 100");
      // The last fields first, every other one; the last row group read twice around the first.
      const int num_fields = (*probe)->descriptor().num_fields();
      const int num_row_groups = (*probe)->num_row_groups();
      if (num_fields < 2 && num_row_groups < 2) continue;
      for (int f = num_fields - 1; f >= 0; f -= 2) options.columns.push_back(f);
      if (num_row_groups > 1) options.row_groups = {num_row_groups - 1, 0, num_row_groups - 1};
      options.batch_rows = 1000;
      for (bool pre_buffer : {false, true}) {
        CheckEveryThreadCount(open, pre_buffer, options, path + ", fields and row groups selected");
      }
    }
  }
  EXPECT_GE(files, 50);
}

// Many columns of every kind, several row groups and pages: the file the pool helps most.
std::shared_ptr<Schema> WideSchema() {
  std::vector<FieldPtr> fields;
  const TypePtr kinds[] = {int64(), utf8(), float64(), list(int32()), boolean(), binary(),
                           struct_({std::make_shared<Field>("x", int16()), std::make_shared<Field>("y", utf8())}),
                           map(utf8(), float32())};
  for (int i = 0; i < 32; ++i) fields.push_back(std::make_shared<Field>("c" + std::to_string(i), kinds[i % 8]));
  return std::make_shared<Schema>(std::move(fields));
}

std::shared_ptr<Buffer> WriteWideFile(uint64_t first_seed = 0) {
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (uint64_t seed = first_seed; seed < first_seed + 3; ++seed) {
    testing::RandomArrayOptions random;
    random.distinct_values = seed % 3 == 1 ? 50 : 0;  // dictionary-encoded chunks too
    batches.push_back(*testing::RandomBatch(WideSchema(), 300, seed, SystemMemoryPool(), random));
  }
  WriterOptions options;
  options.file.max_row_group_rows = 400;
  options.file.data_page_rows = 100;
  auto file = testing::WriteToBuffer(WideSchema(), batches, options, SystemMemoryPool());
  EXPECT_TRUE(file.ok()) << file.status().ToString();
  return file.ok() ? *file : nullptr;
}

// Written once: the tests only read it.
const std::shared_ptr<Buffer>& WideFile() {
  static const std::shared_ptr<Buffer> file = WriteWideFile();
  return file;
}

TEST(ParallelReaderTest, ManyColumnsWrittenByStrata) {
  const std::shared_ptr<Buffer>& file = WideFile();
  ASSERT_NE(file, nullptr);
  auto open = [&file] { return MakeBufferSource(file, "wide.parquet"); };
  for (int64_t batch_rows : {int64_t{7}, int64_t{150}, int64_t{64 * 1024}}) {
    BatchReadOptions options;
    options.batch_rows = batch_rows;
    options.read_dictionary = batch_rows == 150;
    const bool pre_buffer = batch_rows != 7;
    CheckEveryThreadCount(open, pre_buffer, options, "wide, batch_rows " + std::to_string(batch_rows));
  }
  // threads 0 is the pool's size, and reads the same table.
  BatchReadOptions options;
  const ReadOutcome serial = ReadAll(open(), false, options);
  ASSERT_TRUE(serial.status.ok()) << serial.status.ToString();
  EXPECT_EQ(serial.batches.size(), 3u);
  options.executor = strata::testing::TestExecutor(0);
  EXPECT_EQ(options.executor.threads(), strata::testing::kTestPoolThreads);
  ExpectSame(serial, ReadAll(open(), false, options), "threads 0");
}

// Faults in two columns of one row group: the error is the first column's at every thread
// count, and the batches before it are the same.
TEST(ParallelReaderTest, AnErrorInOneColumnIsTheSameStatusAtEveryThreadCount) {
  const std::shared_ptr<Buffer>& file = WideFile();
  ASSERT_NE(file, nullptr);
  auto reader = *testing::OpenBuffer(file, SystemMemoryPool());
  ASSERT_GE(reader->num_row_groups(), 2);
  for (Fault::Kind kind : {Fault::Kind::kFail, Fault::Kind::kCorrupt}) {
    std::vector<Fault> faults;
    for (int column : {7, 26}) {
      auto location = reader->ChunkLocation(1, column);
      ASSERT_TRUE(location.ok()) << location.status().ToString();
      Fault fault;
      fault.kind = kind;
      // Past the first page header, into its values (a corrupt header could just be ignored).
      fault.offset = location->offset + location->length / 2;
      fault.length = 8;
      faults.push_back(fault);
    }
    auto open = [&] {
      return std::make_shared<FaultInjectionSource>(MakeBufferSource(file, "wide.parquet"), faults);
    };
    for (bool pre_buffer : {false, true}) {
      BatchReadOptions options;
      options.batch_rows = 150;
      const ReadOutcome serial = ReadAll(open(), pre_buffer, options);
      if (kind == Fault::Kind::kFail) {
        EXPECT_TRUE(serial.status.IsIOError()) << serial.status.ToString();
      }
      EXPECT_FALSE(serial.status.ok());
      // Pre-buffering coalesces the small row groups into one read, which the fault fails.
      if (!pre_buffer) {
        EXPECT_GE(serial.batches.size(), 2u) << serial.status.ToString();
      }
      CheckEveryThreadCount(open, pre_buffer, options, kind == Fault::Kind::kFail ? "failed read" : "corrupt bytes");
    }
  }
}

// Two readers decoding on the pool at once, from two threads, with a writer beside them.
TEST(ParallelReaderTest, TwoReadersShareThePoolAtOnce) {
  const std::shared_ptr<Buffer>& file = WideFile();
  ASSERT_NE(file, nullptr);
  BatchReadOptions options;
  options.batch_rows = 250;
  const ReadOutcome serial = ReadAll(MakeBufferSource(file, "wide.parquet"), false, options);
  options.executor = strata::testing::TestExecutor(2);
  ReadOutcome first, second;
  std::thread a([&] { first = ReadAll(MakeBufferSource(file, "wide.parquet"), true, options); });
  std::thread b([&] { second = ReadAll(MakeBufferSource(file, "wide.parquet"), false, options); });
  std::thread c([] { WriteWideFile(10); });
  a.join();
  b.join();
  c.join();
  ExpectSame(serial, first, "first reader");
  ExpectSame(serial, second, "second reader");
}

// A reader dropped with row groups still being opened ahead waits for them; nothing leaks.
TEST(ParallelReaderTest, DroppedMidwayReleasesEverything) {
  const std::shared_ptr<Buffer>& file = WideFile();
  ASSERT_NE(file, nullptr);
  auto pool = MakeSystemMemoryPool();
  for (bool pre_buffer : {false, true}) {
    FileReaderOptions file_options;
    file_options.pre_buffer = pre_buffer;
    auto reader = *FileReader::Open(MakeBufferSource(file, "wide.parquet"), pool.get(), file_options);
    BatchReadOptions options;
    options.executor = strata::testing::TestExecutor(2);
    options.batch_rows = 50;
    auto batches = *reader->ReadBatches(options);
    auto batch = batches->Next();
    ASSERT_TRUE(batch.ok() && *batch != nullptr);
    batch->reset();
    batches.reset();
    // Only the open reader's footer and schema stay, charged; with the reader, nothing.
    EXPECT_EQ(pool->bytes_in_use(), pool->charged_bytes());
    EXPECT_EQ(pool->charged_bytes(), reader->footer().metadata_charge.bytes() + reader->descriptor().heap_bytes());
    reader.reset();
    EXPECT_EQ(pool->bytes_in_use(), 0);
  }
}

// The 2-thread read's memory does not grow with the file: row groups opened ahead are bounded
// by read_ahead_bytes, one batch is decoded ahead, and everything else is released row group by
// row group. The peak after the first few row groups is the peak of the whole file.
TEST(ParallelReaderTest, TwoThreadPeakIsFlatOverManyRowGroups) {
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{
      std::make_shared<Field>("id", int64()), std::make_shared<Field>("name", utf8()),
      std::make_shared<Field>("price", float64())});
  constexpr int kRowGroups = 60;
  constexpr int64_t kRowsPerGroup = 2000;
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (uint64_t seed = 0; seed < kRowGroups; ++seed) {
    batches.push_back(*testing::RandomBatch(schema, kRowsPerGroup, seed, SystemMemoryPool()));
  }
  WriterOptions writer;
  writer.file.max_row_group_rows = kRowsPerGroup;
  auto file = testing::WriteToBuffer(schema, batches, writer, SystemMemoryPool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  batches.clear();

  struct Peaks {
    int64_t early = 0;  // after the first kEarlyRowGroups row groups
    int64_t whole = 0;  // after the last batch
  };
  constexpr int kEarlyRowGroups = 8;
  constexpr int64_t kReadAhead = 256 << 10;
  // Next() (row groups opened ahead within kReadAhead), or ForEachBatch (row groups decoded at
  // once, one per thread).
  auto read = [&](int threads, bool by_row_group) {
    auto pool = MakeSystemMemoryPool();
    auto reader = *FileReader::Open(MakeBufferSource(*file, "many_row_groups.parquet"), pool.get());
    EXPECT_EQ(reader->num_row_groups(), kRowGroups);
    BatchReadOptions options;
    options.executor = strata::testing::TestExecutor(threads);
    options.batch_rows = 500;
    options.read_ahead_bytes = kReadAhead;
    auto reader_batches = *reader->ReadBatches(options);
    std::mutex mutex;
    Peaks peaks;
    int64_t rows = 0;
    auto take = [&](const std::shared_ptr<RecordBatch>& batch) {
      std::lock_guard<std::mutex> lock(mutex);
      rows += batch->num_rows();
      if (peaks.early == 0 && rows >= kEarlyRowGroups * kRowsPerGroup) peaks.early = pool->peak_bytes();
    };
    if (by_row_group) {
      const Status status = reader_batches->ForEachBatch([&](size_t, std::shared_ptr<RecordBatch> batch) {
        take(batch);
        return Status::OK();
      });
      EXPECT_TRUE(status.ok()) << status.ToString();
    } else {
      while (true) {
        auto batch = reader_batches->Next();
        EXPECT_TRUE(batch.ok()) << batch.status().ToString();
        if (!batch.ok() || *batch == nullptr) break;
        take(*batch);
      }
    }
    EXPECT_EQ(rows, kRowGroups * kRowsPerGroup);
    peaks.whole = pool->peak_bytes();
    return peaks;
  };
  const Peaks serial = read(1, false);
  const Peaks ahead = read(2, false);
  const Peaks at_once = read(2, true);
  const int64_t file_bytes = (*file)->size();
  // Flat at one thread: the peak after the first row groups is the whole file's (a tenth of
  // slack for the row groups' sizes).
  ASSERT_GT(serial.early, 0);
  EXPECT_LE(serial.whole, serial.early + serial.early / 10)
      << "early " << serial.early << ", whole " << serial.whole << ", file " << file_bytes;
  // At two threads which allocations overlap varies from run to run, so the peak is held to
  // bounds that do not grow with the file: opening ahead adds at most the read-ahead budget and
  // its row groups' first pages; decoding two row groups at once, a second row group's readers
  // and batch.
  EXPECT_LE(ahead.whole, serial.whole + 3 * kReadAhead) << "serial " << serial.whole << ", ahead " << ahead.whole;
  EXPECT_LE(at_once.whole, 2 * serial.whole + serial.whole / 10)
      << "serial " << serial.whole << ", at once " << at_once.whole;
  for (const Peaks& peaks : {serial, ahead, at_once}) {
    EXPECT_LT(peaks.whole * 4, file_bytes) << "peak " << peaks.whole << ", file " << file_bytes;
  }
}

// A consumer's error stops ForEachBatch: the first failing row group's, at every thread count.
TEST(ParallelReaderTest, ForEachBatchReturnsTheFirstRowGroupsError) {
  const std::shared_ptr<Buffer>& file = WideFile();
  ASSERT_NE(file, nullptr);
  for (int threads : {1, 2, 4}) {
    auto reader = *testing::OpenBuffer(file, SystemMemoryPool());
    ASSERT_GE(reader->num_row_groups(), 3);
    BatchReadOptions options;
    options.executor = strata::testing::TestExecutor(threads);
    options.batch_rows = 150;
    auto batches = *reader->ReadBatches(options);
    std::atomic<int> calls{0};
    const Status status = batches->ForEachBatch([&](size_t position, std::shared_ptr<RecordBatch>) {
      ++calls;
      if (position >= 1) return Status::Invalid("consumer stops at row group {}", position);
      return Status::OK();
    });
    EXPECT_EQ(status.ToString(), Status::Invalid("consumer stops at row group 1").ToString()) << threads;
    EXPECT_GE(calls.load(), 2) << threads;
  }
}

// The reader runs where its executor says: ForEachBatch hands row groups to the injected
// pool's workers, a serial executor keeps everything on the calling thread.
TEST(ParallelReaderTest, RunsOnTheInjectedPool) {
  const std::shared_ptr<Buffer>& file = WideFile();
  ASSERT_NE(file, nullptr);
  for (int threads : {1, 2}) {
    auto reader = *testing::OpenBuffer(file, SystemMemoryPool());
    BatchReadOptions options;
    options.executor = strata::testing::TestExecutor(threads);
    options.batch_rows = 150;
    auto batches = *reader->ReadBatches(options);
    std::atomic<int> on_pool{0};
    std::atomic<int> elsewhere{0};
    const Status status = batches->ForEachBatch([&](size_t, std::shared_ptr<RecordBatch>) {
      ++(strata::testing::TestThreadPool()->OnWorkerThread() ? on_pool : elsewhere);
      return Status::OK();
    });
    ASSERT_TRUE(status.ok()) << status.ToString();
    if (threads == 1) {
      EXPECT_EQ(on_pool.load(), 0);
      EXPECT_GT(elsewhere.load(), 0);
    } else {
      EXPECT_GT(on_pool.load(), 0);
      EXPECT_EQ(elsewhere.load(), 0);
    }
  }
}

TEST(ParallelReaderTest, NegativeBudgetsAreInvalid) {
  BatchReadOptions options;
  options.read_ahead_bytes = -1;
  EXPECT_TRUE(options.Validate().IsInvalid());
  options.read_ahead_bytes = 0;
  options.row_groups_at_once_bytes = -1;
  EXPECT_TRUE(options.Validate().IsInvalid());
}

}  // namespace
}  // namespace strata::parquet
