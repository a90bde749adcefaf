#include "strata/io/fault_injection_source.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "strata/array/validate.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"

namespace strata {
namespace {

std::shared_ptr<RandomAccessSource> Bytes(int n) {
  auto buffer = *AllocateBuffer(SystemMemoryPool(), n);
  for (int i = 0; i < n; ++i) buffer->mutable_data()[i] = static_cast<uint8_t>(i);
  return MakeBufferSource(std::shared_ptr<Buffer>(std::move(buffer)), "bytes");
}

TEST(FaultInjectionSourceTest, FailsReadsTouchingTheFault) {
  FaultInjectionSource source(Bytes(100), {Fault{Fault::Kind::kFail, 10, 2}});
  uint8_t out[16];
  EXPECT_TRUE(source.ReadAt(0, 10, out).ok());    // ends just before
  EXPECT_TRUE(source.ReadAt(12, 8, out).ok());    // starts just after
  Status st = source.ReadAt(8, 4, out);
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find("injected fault"), std::string::npos) << st.ToString();
  EXPECT_NE(st.message().find("bytes"), std::string::npos);
  auto pool = MakeSystemMemoryPool();
  EXPECT_TRUE(source.ReadBufferAt(11, 1, pool.get()).status().IsIOError());
  EXPECT_EQ(source.faults_injected(), 2);
  EXPECT_EQ(*source.Size(), 100);
}

TEST(FaultInjectionSourceTest, TruncatesTheSource) {
  FaultInjectionSource source(Bytes(100), {Fault{Fault::Kind::kTruncate, 40}});
  EXPECT_EQ(*source.Size(), 40);
  uint8_t out[10];
  EXPECT_TRUE(source.ReadAt(30, 10, out).ok());
  EXPECT_EQ(out[9], 39);
  EXPECT_TRUE(source.ReadAt(35, 10, out).IsIOError());
}

TEST(FaultInjectionSourceTest, CorruptsExactlyTheChosenBytes) {
  auto inner = Bytes(64);
  FaultInjectionSource source(inner, {Fault{Fault::Kind::kCorrupt, 5, 2, 0x80}});
  uint8_t out[10];
  ASSERT_TRUE(source.ReadAt(0, 10, out).ok());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], (i == 5 || i == 6) ? (i ^ 0x80) : i) << i;
  ASSERT_TRUE(source.ReadAt(6, 4, out).ok());  // a read starting inside the fault
  EXPECT_EQ(out[0], 6 ^ 0x80);
  EXPECT_EQ(out[1], 7);

  auto pool = MakeSystemMemoryPool();
  auto buffer = source.ReadBufferAt(4, 4, pool.get());
  ASSERT_TRUE(buffer.ok());
  EXPECT_EQ((*buffer)->data()[1], 5 ^ 0x80);
  // The inner (shared, zero-copy) bytes are untouched: corruption goes to a private copy.
  auto clean = inner->ReadBufferAt(4, 4, pool.get());
  EXPECT_EQ((*clean)->data()[1], 5);
  EXPECT_EQ(source.reads_corrupted(), 3);
  // Untouched ranges stay zero-copy.
  auto untouched = source.ReadBufferAt(20, 4, pool.get());
  EXPECT_EQ((*untouched)->data(), (*inner->ReadBufferAt(20, 4, pool.get()))->data());
}

TEST(FaultInjectionSourceTest, RandomFaultsRepeatWithTheSeed) {
  auto outcomes = [](uint64_t seed) {
    RandomFaultOptions options;
    options.seed = seed;
    options.fail_probability = 0.3;
    options.corrupt_probability = 0.3;
    FaultInjectionSource source(Bytes(256), options);
    std::string trace;
    uint8_t out[16];
    for (int i = 0; i < 200; ++i) {
      Status st = source.ReadAt(i % 200, 16, out);
      trace += st.ok() ? std::string(reinterpret_cast<char*>(out), 16) : std::string("E");
    }
    return std::make_pair(trace, std::make_pair(source.faults_injected(), source.reads_corrupted()));
  };
  const auto a = outcomes(7);
  EXPECT_EQ(a, outcomes(7));
  EXPECT_NE(a.first, outcomes(8).first);
  // About 30% fail, and about 30% of the rest are corrupted.
  EXPECT_GT(a.second.first, 30);
  EXPECT_LT(a.second.first, 90);
  EXPECT_GT(a.second.second, 20);

  RandomFaultOptions never;
  FaultInjectionSource clean(Bytes(64), never);
  uint8_t out[64];
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(clean.ReadAt(0, 64, out).ok());
  EXPECT_EQ(clean.faults_injected() + clean.reads_corrupted(), 0);
}

// ---- real files through the faulty source ----------------------------------------------------

struct ReadOutcome {
  Status status;
  std::shared_ptr<Table> table;
};

ReadOutcome ReadWhole(std::shared_ptr<RandomAccessSource> source, MemoryPool* pool, bool page_by_page) {
  parquet::FileReaderOptions options;
  // A short speculative tail read, so that chunk reads happen apart from the footer's and a
  // fault can land in either; page by page, each page header and body is a read of its own.
  options.footer.speculative_tail_bytes = 64;
  if (page_by_page) options.pages.whole_chunk_read_limit = 0;
  auto reader = parquet::FileReader::Open(std::move(source), pool, options);
  if (!reader.ok()) return {reader.status(), nullptr};
  parquet::BatchReadOptions read;
  read.batch_rows = 97;
  auto table = (*reader)->ReadTable(read);
  if (!table.ok()) return {table.status(), nullptr};
  return {Status::OK(), *table};
}

// A table read from corrupted bytes may hold different values, never a broken layout.
void ExpectWellFormed(const Table& table, const std::string& where) {
  for (int c = 0; c < table.num_columns(); ++c) {
    int64_t rows = 0;
    for (int k = 0; k < table.column(c)->num_chunks(); ++k) {
      const Array& chunk = table.column(c)->chunk(k);
      Status valid = ValidateFull(*chunk.data());
      EXPECT_TRUE(valid.ok()) << where << ": " << valid.ToString();
      rows += chunk.length();
    }
    EXPECT_EQ(rows, table.num_rows()) << where;
  }
}

// Files covering the codecs, encodings and page versions the reader supports.
const char* kFiles[] = {
    "data/alltypes_plain.parquet",          "data/alltypes_dictionary.parquet",
    "data/alltypes_plain.snappy.parquet",   "data/datapage_v2.snappy.parquet",
    "data/delta_byte_array.parquet",        "data/delta_length_byte_array.parquet",
    "data/delta_binary_packed.parquet",     "data/byte_stream_split.zstd.parquet",
    "data/rle-dict-snappy-checksum.parquet", "data/lz4_raw_compressed.parquet",
    "data/nulls.snappy.parquet",            "data/concatenated_gzip_members.parquet",
    "data/rle_boolean_encoding.parquet",    "data/fixed_length_byte_array.parquet",
};

// Offsets to fault: every byte of small files, else ~400 spread over the file plus every byte
// of the tail (footer length, magic and the end of the footer).
std::vector<int64_t> FaultOffsets(int64_t size) {
  std::vector<int64_t> offsets;
  const int64_t stride = std::max<int64_t>(1, size / 400);
  for (int64_t o = 0; o < size; o += stride) offsets.push_back(o);
  for (int64_t o = std::max<int64_t>(0, size - 64); o < size; ++o) offsets.push_back(o);
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  return offsets;
}

class FaultInjectionFileTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (strata::testing::ParquetTestingDir().empty()) return;
    path_ = strata::testing::ParquetTestingFile(GetParam());
    auto file = OpenLocalFile(path_);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    size_ = *(*file)->Size();
    // Faults are injected over a memory copy: fast, and the same bytes each time.
    auto pool = SystemMemoryPool();
    bytes_ = *(*file)->ReadBufferAt(0, size_, pool);
    source_ = MakeBufferSource(bytes_, path_);
    ReadOutcome baseline = ReadWhole(source_, pool, false);
    ASSERT_TRUE(baseline.status.ok()) << baseline.status.ToString();
    baseline_ = baseline.table;
  }

  std::string path_;
  int64_t size_ = 0;
  std::shared_ptr<Buffer> bytes_;
  std::shared_ptr<RandomAccessSource> source_;
  std::shared_ptr<Table> baseline_;
};

TEST_P(FaultInjectionFileTest, FailedReadsAreCleanIOErrors) {
  STRATA_REQUIRE_PARQUET_TESTING();
  int failed = 0;
  for (int64_t offset : FaultOffsets(size_)) {
    auto pool = MakeSystemMemoryPool();
    {
      auto faulty = std::make_shared<FaultInjectionSource>(source_, std::vector<Fault>{{Fault::Kind::kFail, offset, 1}});
      ReadOutcome outcome = ReadWhole(faulty, pool.get(), offset % 2 == 1);
      if (faulty->faults_injected() == 0) {
        // No read touched the byte (padding, an index the reader does not use): same table.
        ASSERT_TRUE(outcome.status.ok()) << "offset " << offset << ": " << outcome.status.ToString();
        EXPECT_TRUE(outcome.table->Equals(*baseline_)) << "offset " << offset;
      } else {
        ASSERT_FALSE(outcome.status.ok()) << "offset " << offset << ": a failed read went unnoticed";
        EXPECT_TRUE(outcome.status.IsIOError()) << "offset " << offset << ": " << outcome.status.ToString();
        EXPECT_NE(outcome.status.message().find("injected fault"), std::string::npos) << outcome.status.ToString();
        ++failed;
      }
    }
    ASSERT_EQ(pool->bytes_in_use(), 0) << "offset " << offset << " leaked";
  }
  EXPECT_GT(failed, 0);
}

TEST_P(FaultInjectionFileTest, TruncatedFilesFailClearly) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (int64_t offset : FaultOffsets(size_)) {
    auto pool = MakeSystemMemoryPool();
    {
      auto faulty = std::make_shared<FaultInjectionSource>(source_, std::vector<Fault>{{Fault::Kind::kTruncate, offset}});
      ReadOutcome outcome = ReadWhole(faulty, pool.get(), offset % 2 == 0);
      // The footer is found from the end, so a cut file has no valid footer where it looks.
      ASSERT_FALSE(outcome.status.ok()) << "truncated at " << offset << " of " << size_ << " read cleanly";
      EXPECT_TRUE(outcome.status.IsCorrupt() || outcome.status.IsIOError()) << outcome.status.ToString();
      EXPECT_FALSE(outcome.status.message().empty());
    }
    ASSERT_EQ(pool->bytes_in_use(), 0) << "truncated at " << offset << " leaked";
  }
}

TEST_P(FaultInjectionFileTest, FlippedBytesGiveAnErrorOrWellFormedData) {
  STRATA_REQUIRE_PARQUET_TESTING();
  int errors = 0;
  int reads = 0;
  for (int64_t offset : FaultOffsets(size_)) {
    for (uint8_t mask : {uint8_t{0xFF}, uint8_t{0x01}, uint8_t{0x40}}) {
      auto pool = MakeSystemMemoryPool();
      {
        auto faulty = std::make_shared<FaultInjectionSource>(
            source_, std::vector<Fault>{{Fault::Kind::kCorrupt, offset, 1, mask}});
        ReadOutcome outcome = ReadWhole(faulty, pool.get(), (offset + mask) % 2 == 0);
        const std::string where = "offset " + std::to_string(offset) + " mask " + std::to_string(mask);
        if (outcome.status.ok()) {
          ++reads;
          ExpectWellFormed(*outcome.table, where);
          if (faulty->reads_corrupted() == 0) {
            EXPECT_TRUE(outcome.table->Equals(*baseline_)) << where;
          }
        } else {
          ++errors;
          EXPECT_FALSE(outcome.status.message().empty()) << where;
          EXPECT_FALSE(outcome.status.IsOutOfMemory()) << where << ": " << outcome.status.ToString();
        }
      }
      ASSERT_EQ(pool->bytes_in_use(), 0) << "offset " << offset << " leaked";
    }
  }
  EXPECT_GT(errors, 0);
  RecordProperty("clean_reads", reads);
}

TEST_P(FaultInjectionFileTest, RandomFaultsNeverCrashOrLeak) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    auto pool = MakeSystemMemoryPool();
    {
      RandomFaultOptions options;
      options.seed = seed;
      options.fail_probability = 0.1;
      options.corrupt_probability = 0.5;
      auto faulty = std::make_shared<FaultInjectionSource>(source_, options);
      ReadOutcome outcome = ReadWhole(faulty, pool.get(), seed % 2 == 0);
      if (outcome.status.ok()) {
        ExpectWellFormed(*outcome.table, "seed " + std::to_string(seed));
      } else {
        EXPECT_FALSE(outcome.status.IsOutOfMemory()) << outcome.status.ToString();
      }
    }
    ASSERT_EQ(pool->bytes_in_use(), 0) << "seed " << seed << " leaked";
  }
}

INSTANTIATE_TEST_SUITE_P(Files, FaultInjectionFileTest, ::testing::ValuesIn(kFiles),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           std::string name = std::string(info.param).substr(5);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace strata
