// The read path's memory discipline, measured on a fresh pool per test: a batch costs its
// decoded size plus the page buffers (within 25%), its variable-length data buffer is sized
// once and never reallocated, and in steady state a batch allocates only its own output
// buffers. Files come from TestFileBuilder, so sizes, nulls and encodings are known.
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <utility>

#include <unistd.h>

#include "strata/memory/memory_scope.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"

namespace strata::parquet {
namespace {

// Batches at the start of each row group that may still grow reader scratch.
// Reader scratch lives per row group (a new chunk starts empty) and grows exact-then-doubling
// over the first pages; a few batches in, it no longer grows.
constexpr int kWarmupBatches = 5;

namespace pt = strata::parquet::testing;
using codec::CompressionCodec;

// A system-allocator pool that remembers each reallocation's sizes, so a failure can say
// which buffer grew (a batch's data buffer is tens of MB; page and index scratch is smaller).
class RecordingPool final : public MemoryPool {
 public:
  std::string_view backend_name() const override { return "recording"; }
  // Reallocations since the last call, as (old size, new size).
  std::vector<std::pair<int64_t, int64_t>> TakeReallocations() { return std::exchange(reallocations_, {}); }

 protected:
  uint8_t* AllocateAligned(int64_t size) override {
    return static_cast<uint8_t*>(std::aligned_alloc(kAlignment, static_cast<size_t>(RoundUpToMultipleOf64(size))));
  }
  uint8_t* ReallocateAligned(uint8_t* ptr, int64_t old_size, int64_t new_size) override {
    uint8_t* moved = AllocateAligned(new_size);
    if (moved == nullptr) return nullptr;
    std::memcpy(moved, ptr, static_cast<size_t>(std::min(old_size, new_size)));
    std::free(ptr);
    reallocations_.emplace_back(old_size, new_size);
    return moved;
  }
  void FreeAligned(uint8_t* ptr, int64_t) override { std::free(ptr); }

 private:
  std::vector<std::pair<int64_t, int64_t>> reallocations_;
};

// Bytes the batch's arrays hold (validity, offsets or values, data), as sizes and capacities.
int64_t BatchBytes(const RecordBatch& batch, bool capacity) {
  int64_t total = 0;
  for (const Array& column : batch.columns()) {
    for (const auto& buffer : column.data()->buffers) {
      if (buffer) total += capacity ? buffer->capacity() : buffer->size();
    }
  }
  return total;
}

int BuffersPerColumn(const RecordBatch& batch) {
  int most = 0;
  for (const Array& column : batch.columns()) most = std::max(most, static_cast<int>(column.data()->buffers.size()));
  return most;
}

struct BatchMemory {
  int row_group = 0;
  bool first_of_row_group = false;
  int64_t rows = 0;
  MemoryDelta delta;
  int64_t batch_bytes = 0;     // sizes of the batch's buffers
  int64_t batch_capacity = 0;  // their capacities
  int64_t reader_bytes = 0;    // page buffers, dictionaries, scratch (BatchReader::memory_size)
  int buffers_per_column = 0;
  std::vector<std::pair<int64_t, int64_t>> reallocations;  // (old, new) sizes
  // Reallocations to at least half the batch's bytes: only the data buffer is that large.
  int64_t DataBufferReallocations() const {
    int64_t n = 0;
    for (const auto& [from, to] : reallocations) n += 2 * to >= batch_bytes ? 1 : 0;
    return n;
  }
};

// Reads every batch, measuring each one alone (the previous batch is released first), and
// hands it to `check` with its row group and first row within it.
std::vector<BatchMemory> ReadMeasured(FileReader* reader, RecordingPool* pool, int64_t batch_rows,
                                      const std::function<void(const RecordBatch&, int, int64_t)>& check) {
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  auto batches = reader->ReadBatches(options);
  EXPECT_TRUE(batches.ok()) << batches.status().ToString();
  if (!batches.ok()) return {};
  std::vector<BatchMemory> out;
  int row_group = 0;
  int64_t row_in_group = 0;
  while (true) {
    pool->TakeReallocations();
    MemoryScope scope(pool);
    auto batch = (*batches)->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || !*batch) break;
    while (row_in_group == reader->metadata().row_groups[static_cast<size_t>(row_group)].num_rows) {
      ++row_group;
      row_in_group = 0;
    }
    BatchMemory m;
    m.delta = scope.delta();
    m.row_group = row_group;
    m.first_of_row_group = row_in_group == 0;
    m.rows = (*batch)->num_rows();
    m.batch_bytes = BatchBytes(**batch, false);
    m.batch_capacity = BatchBytes(**batch, true);
    m.reader_bytes = (*batches)->memory_size();
    m.buffers_per_column = BuffersPerColumn(**batch);
    m.reallocations = pool->TakeReallocations();
    check(**batch, row_group, row_in_group);
    row_in_group += m.rows;
    out.push_back(m);
  }
  return out;
}

std::string Reallocations(const BatchMemory& m) {
  std::string out;
  for (const auto& [from, to] : m.reallocations) out += fmt::format("{}{} -> {}", out.empty() ? "" : ", ", from, to);
  return out.empty() ? "none" : out;
}

std::string Describe(const BatchMemory& m, size_t index) {
  return fmt::format(
      "batch {} (row group {}, {} rows): {} allocations, {} reallocations, peak {} above start; batch {} bytes "
      "({} capacity), reader {} bytes; reallocations (old -> new bytes): {}",
      index, m.row_group, m.rows, m.delta.num_allocations, m.delta.num_reallocations, m.delta.peak_above_start,
      m.batch_bytes, m.batch_capacity, m.reader_bytes, Reallocations(m));
}

// The bound the product promises: a batch's peak is its decoded size plus the page buffers,
// within 25%.
void ExpectPeakBounded(const std::vector<BatchMemory>& batches, const std::string& what) {
  for (size_t i = 0; i < batches.size(); ++i) {
    const BatchMemory& m = batches[i];
    EXPECT_LE(static_cast<double>(m.delta.peak_above_start), 1.25 * static_cast<double>(m.batch_bytes + m.reader_bytes))
        << what << ": " << Describe(m, i);
  }
}

// ---- large binary values ----------------------------------------------------------------------

constexpr int kLargeRowGroups = 2;
constexpr int64_t kLargeRowsPerGroup = 484;

// Row `row` of row group `group`: null 1 time in 20, else 100..220 KB of bytes that depend on
// the row and the position (a shifted or mixed-up value does not compare equal).
struct LargeRow {
  bool valid;
  int64_t length;
  uint64_t seed;
};

LargeRow LargeBinaryRow(int group, int64_t row) {
  uint64_t h = (static_cast<uint64_t>(group) << 32 | static_cast<uint64_t>(row)) * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  return {h % 20 != 0, 100 * 1024 + static_cast<int64_t>((h >> 8) % (120 * 1024 + 1)), h};
}

void FillLargeValue(const LargeRow& row, std::string* out) {
  out->resize(static_cast<size_t>(row.length));
  for (int64_t i = 0; i + 8 <= row.length; i += 8) {
    const uint64_t word = row.seed + static_cast<uint64_t>(i);
    std::memcpy(out->data() + i, &word, 8);
  }
  for (int64_t i = row.length & ~int64_t{7}; i < row.length; ++i) (*out)[static_cast<size_t>(i)] = static_cast<char>(i);
}

// Writes the file to disk a row group at a time (about 150 MB; never all in memory).
std::string BuildLargeBinaryFile(bool size_statistics) {
  const auto path = std::filesystem::temp_directory_path() /
                    fmt::format("strata_large_binary_{}_{}.parquet", ::getpid(), size_statistics ? "stats" : "nostats");
  pt::ColumnOptions column{.name = "blob", .physical_type = PhysicalType::kByteArray};
  column.size_statistics = size_statistics;
  auto builder = pt::TestFileBuilder::MakeForFile({column}, path.string());
  EXPECT_TRUE(builder.ok()) << builder.status().ToString();
  std::string value;
  for (int group = 0; group < kLargeRowGroups; ++group) {
    pt::ColumnValues values(PhysicalType::kByteArray);
    values.Reserve(kLargeRowsPerGroup, kLargeRowsPerGroup * 160 * 1024);
    for (int64_t row = 0; row < kLargeRowsPerGroup; ++row) {
      const LargeRow r = LargeBinaryRow(group, row);
      if (!r.valid) {
        values.AppendNull();
        continue;
      }
      FillLargeValue(r, &value);
      values.AppendBytes(value);
    }
    EXPECT_TRUE((*builder)->AddRowGroup({values}).ok());
  }
  EXPECT_TRUE((*builder)->Finish().ok());
  return path.string();
}

void CheckLargeBatch(const RecordBatch& batch, int group, int64_t first_row) {
  const BinaryArray<int32_t> array(batch.column(0));
  std::string expected;
  for (int64_t i = 0; i < batch.num_rows(); ++i) {
    const LargeRow r = LargeBinaryRow(group, first_row + i);
    ASSERT_EQ(array.IsValid(i), r.valid) << "row group " << group << ", row " << first_row + i;
    if (!r.valid) continue;
    FillLargeValue(r, &expected);
    ASSERT_TRUE(array.GetView(i) == expected) << "row group " << group << ", row " << first_row + i;
  }
}

class LargeBinaryMemoryTest : public ::testing::TestWithParam<bool> {};

// ~75 MB of values per row group: read whole row groups and quarter row groups; the data
// buffer is reserved once per batch and never grows, and the peak is the batch plus pages.
TEST_P(LargeBinaryMemoryTest, DataBufferSizedOncePeakBounded) {
  const bool size_statistics = GetParam();
  const std::string path = BuildLargeBinaryFile(size_statistics);
  for (int64_t batch_rows : {kLargeRowsPerGroup, kLargeRowsPerGroup / 4}) {
    const std::string what = fmt::format("large binary, SizeStatistics {}, batch_rows {}",
                                         size_statistics ? "present" : "absent", batch_rows);
    auto pool = std::make_unique<RecordingPool>();
    {
      auto reader = FileReader::OpenFile(path, pool.get());
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      const auto& meta = *(*reader)->metadata().row_groups[0].columns[0].meta_data;
      EXPECT_EQ(meta.size_statistics.has_value(), size_statistics);
      pool->ResetPeak();
      const int64_t before = pool->bytes_in_use();
      auto batches = ReadMeasured(reader->get(), pool.get(), batch_rows, CheckLargeBatch);
      ASSERT_EQ(batches.size(), static_cast<size_t>(kLargeRowGroups * kLargeRowsPerGroup / batch_rows)) << what;
      int64_t largest = 0;
      int in_group = 0;
      for (size_t i = 0; i < batches.size(); ++i) {
        const BatchMemory& m = batches[i];
        in_group = m.first_of_row_group ? 0 : in_group + 1;
        // The data buffer is reserved once per batch and never grows; nor does anything else:
        // scratch that must grow frees first and allocates (never reallocates).
        EXPECT_EQ(m.DataBufferReallocations(), 0) << what << ": " << Describe(m, i);
        EXPECT_EQ(m.delta.num_reallocations, 0) << what << ": " << Describe(m, i);
        if (in_group >= kWarmupBatches) {
          EXPECT_LE(m.delta.num_allocations, 3) << what << ": " << Describe(m, i);  // validity, offsets, data
        }
        largest = std::max(largest, m.batch_bytes + m.reader_bytes);
      }
      ExpectPeakBounded(batches, what);
      EXPECT_LE(static_cast<double>(pool->peak_bytes() - before), 1.25 * static_cast<double>(largest)) << what;
    }
    EXPECT_EQ(pool->bytes_in_use(), 0) << what;
  }
  std::filesystem::remove(path);
}

INSTANTIATE_TEST_SUITE_P(SizeStatistics, LargeBinaryMemoryTest, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "Present" : "Absent"; });

// ---- steady state over many batches -------------------------------------------------------------

struct Scenario {
  std::string name;
  std::vector<pt::ColumnOptions> columns;
  std::function<pt::ColumnValues(int column, int64_t rows)> make_values;
};

pt::ColumnValues NullableInt64s(int64_t rows, uint64_t seed) {
  pt::ColumnValues values(PhysicalType::kInt64);
  uint64_t x = seed;
  for (int64_t i = 0; i < rows; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    if ((x >> 33) % 10 == 0) {
      values.AppendNull();
    } else {
      values.Append<int64_t>(static_cast<int64_t>(x >> 7));
    }
  }
  return values;
}

// Strings of 5..40 bytes from a vocabulary of 1000 (dictionary-encoded well), 3% nulls.
pt::ColumnValues VocabularyStrings(int64_t rows, uint64_t seed) {
  pt::ColumnValues values(PhysicalType::kByteArray);
  uint64_t x = seed;
  for (int64_t i = 0; i < rows; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const uint64_t word = (x >> 20) % 1000;
    if ((x >> 40) % 33 == 0) {
      values.AppendNull();
      continue;
    }
    std::string s = fmt::format("w{:04}-", word);
    s.append(static_cast<size_t>(word % 35), static_cast<char>('a' + word % 26));
    values.AppendBytes(s);
  }
  return values;
}

std::vector<Scenario> Scenarios() {
  using pt::ColumnOptions;
  ColumnOptions nullable_int64{.name = "n", .physical_type = PhysicalType::kInt64, .bytes_per_page = 64 * 1024};
  ColumnOptions dict_strings{.name = "s", .physical_type = PhysicalType::kByteArray,
                             .logical_type = pt::StringLogicalType(), .encoding = Encoding::kRleDictionary,
                             .bytes_per_page = 64 * 1024};
  ColumnOptions plain_strings{.name = "p", .physical_type = PhysicalType::kByteArray,
                              .logical_type = pt::StringLogicalType(), .codec = CompressionCodec::kZstd,
                              .bytes_per_page = 64 * 1024};
  ColumnOptions required_int64{.name = "r", .physical_type = PhysicalType::kInt64, .optional = false,
                               .encoding = Encoding::kDeltaBinaryPacked, .codec = CompressionCodec::kSnappy,
                               .bytes_per_page = 64 * 1024};
  auto one = [](std::function<pt::ColumnValues(int64_t, uint64_t)> f) {
    return [f](int column, int64_t rows) { return f(rows, 100 + static_cast<uint64_t>(column)); };
  };
  return {
      {"nullable_int64", {nullable_int64}, one(NullableInt64s)},
      {"dictionary_strings", {dict_strings}, one(VocabularyStrings)},
      {"four_columns",
       {nullable_int64, dict_strings, plain_strings, required_int64},
       [](int column, int64_t rows) {
         if (column == 0) return NullableInt64s(rows, 1);
         if (column == 3) {
           pt::ColumnValues values(PhysicalType::kInt64);
           for (int64_t i = 0; i < rows; ++i) values.Append<int64_t>(i * 3 + (i % 7));
           return values;
         }
         return VocabularyStrings(rows, static_cast<uint64_t>(column));
       }},
  };
}

class SteadyStateMemoryTest : public ::testing::TestWithParam<std::tuple<int, bool>> {};

// Many batches over multi-page chunks: after a row group's first batch, each batch allocates
// only its output buffers (at most one per buffer per column) and reallocates nothing; every
// batch's peak is bounded by the batch and the page buffers.
TEST_P(SteadyStateMemoryTest, BatchesAllocateOnlyTheirOutputs) {
  const auto [scenario_index, size_statistics] = GetParam();
  Scenario scenario = Scenarios()[static_cast<size_t>(scenario_index)];
  constexpr int64_t kRows = 300000;
  constexpr int64_t kRowsPerGroup = 150000;
  constexpr int64_t kBatchRows = 10000;
  for (auto& column : scenario.columns) column.size_statistics = size_statistics;
  std::vector<pt::ColumnValues> values;
  for (size_t c = 0; c < scenario.columns.size(); ++c) values.push_back(scenario.make_values(static_cast<int>(c), kRows));
  auto file = pt::BuildFile(scenario.columns, values, kRowsPerGroup);
  ASSERT_TRUE(file.ok()) << file.status().ToString();

  const std::string what = fmt::format("{}, SizeStatistics {}", scenario.name, size_statistics ? "present" : "absent");
  auto pool = std::make_unique<RecordingPool>();
  {
    auto reader = FileReader::Open(MakeBufferSource(*file, scenario.name + ".parquet"), pool.get());
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    // Several pages per chunk, so batches cross page boundaries.
    EXPECT_GT((*reader)->metadata().row_groups[0].columns[0].meta_data->encoding_stats->back().count, 3);
    auto batches = ReadMeasured(reader->get(), pool.get(), kBatchRows, [&](const RecordBatch& batch, int group,
                                                                           int64_t first_row) {
      for (int c = 0; c < batch.num_columns(); ++c) {
        const Status st = values[static_cast<size_t>(c)].CheckEquals(batch.column(c), group * kRowsPerGroup + first_row);
        ASSERT_TRUE(st.ok()) << what << ": " << st.ToString();
      }
    });
    ASSERT_EQ(batches.size(), static_cast<size_t>(kRows / kBatchRows));
    const int columns = static_cast<int>(scenario.columns.size());
    int in_group = 0;
    for (size_t i = 0; i < batches.size(); ++i) {
      const BatchMemory& m = batches[i];
      in_group = m.first_of_row_group ? 0 : in_group + 1;
      EXPECT_EQ(m.DataBufferReallocations(), 0) << what << ": " << Describe(m, i);
      EXPECT_EQ(m.delta.num_reallocations, 0) << what << ": " << Describe(m, i);
      // Warm-up: the first batches of a row group open page readers, read dictionaries and
      // grow page scratch (exact, then doubling) to the chunk's largest pages so far.
      if (in_group < kWarmupBatches) continue;
      EXPECT_LE(m.delta.num_allocations, m.buffers_per_column * columns) << what << ": " << Describe(m, i);
    }
    ExpectPeakBounded(batches, what);
  }
  EXPECT_EQ(pool->bytes_in_use(), 0) << what;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, SteadyStateMemoryTest,
                         ::testing::Combine(::testing::Range(0, 3), ::testing::Bool()), [](const auto& info) {
                           return Scenarios()[static_cast<size_t>(std::get<0>(info.param))].name +
                                  (std::get<1>(info.param) ? "_SizeStatistics" : "_NoSizeStatistics");
                         });


// A 32 MiB PLAIN page, compressed with a codec that streams (ZSTD, GZIP, BROTLI), v1 and v2:
// decoded through the 1 MiB window, so the pool's peak is the window, the batch and the
// compressed page, not the page. The same file read with streaming off holds the whole page,
// which shows the measurement can tell the two apart.
class StreamingWindowTest
    : public ::testing::TestWithParam<std::tuple<codec::CompressionCodec, pt::DataPageVersion>> {};

TEST_P(StreamingWindowTest, LargePlainPageDecodesWithinTheWindow) {
  const auto [codec, version] = GetParam();
  constexpr int64_t kValues = 4 << 20;  // 32 MiB of int64 in one page
  pt::ColumnOptions column;
  column.name = "v";
  column.optional = false;
  column.codec = codec;
  column.compression_level = 1;
  column.page_version = version;
  column.bytes_per_page = int64_t{64} << 20;
  std::vector<int64_t> values(static_cast<size_t>(kValues));
  int64_t expected_sum = 0;
  for (int64_t i = 0; i < kValues; ++i) {
    values[static_cast<size_t>(i)] = (i % 256) * 1000003;  // repeats within gzip's 32 KiB window
    expected_sum += values[static_cast<size_t>(i)];
  }
  auto builder = pt::TestFileBuilder::Make({column});
  ASSERT_TRUE(builder.ok()) << builder.status().ToString();
  ASSERT_TRUE((*builder)->AddRowGroup({pt::ColumnValues::Int64s(values)}).ok());
  auto file = (*builder)->Finish();
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  ASSERT_EQ((*builder)->metadata().row_groups.size(), 1u);

  const int64_t page_bytes = kValues * 8;
  const int64_t compressed = (*builder)->metadata().row_groups[0].columns[0].meta_data->total_compressed_size;
  ASSERT_LT(compressed, page_bytes / 8) << "the test needs a page that compresses well";
  for (bool stream : {true, false}) {
    auto pool = MakeSystemMemoryPool();
    FileReaderOptions options;
    options.pages.stream_large_pages = stream;
    auto reader = FileReader::Open(MakeBufferSource(*file, "window.parquet"), pool.get(), options);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    BatchReadOptions read;
    read.batch_rows = 64 * 1024;
    auto batches = (*reader)->ReadBatches(read);
    ASSERT_TRUE(batches.ok()) << batches.status().ToString();
    int64_t rows = 0;
    int64_t sum = 0;
    while (true) {
      auto batch = (*batches)->Next();
      ASSERT_TRUE(batch.ok()) << batch.status().ToString();
      if (*batch == nullptr) break;
      const int64_t* v = (*batch)->column(0).data()->buffers[1]->data_as<int64_t>();
      for (int64_t i = 0; i < (*batch)->num_rows(); ++i) sum += v[i];
      rows += (*batch)->num_rows();
    }
    EXPECT_EQ(rows, kValues);
    EXPECT_EQ(sum, expected_sum);
    const int64_t window = options.pages.stream_window_bytes;
    const int64_t batch_bytes = read.batch_rows * 8;
    // The decompressor's own history window, allocated from the pool too: brotli's ring
    // buffer for the window the compressor chose (it picks up to 2^24 for a 32 MiB input;
    // the decoder's ring buffer and tables took about 6 MB here), zstd's at level 1 (at most
    // 2 MiB), 32 KiB for gzip.
    const int64_t codec_window = codec == codec::CompressionCodec::kBrotli ? int64_t{8} << 20
                                 : codec == codec::CompressionCodec::kZstd ? int64_t{2} << 20
                                                                           : int64_t{64} << 10;
    RecordProperty(stream ? "streamed_peak_bytes" : "whole_page_peak_bytes", std::to_string(pool->peak_bytes()));
    if (stream) {
      // Window + one batch + the compressed chunk (read whole: under 8 MiB) + the codec's
      // window, with slack for scratch; a page-sized buffer would be 32 MiB.
      EXPECT_LE(pool->peak_bytes(), 2 * window + 2 * batch_bytes + compressed + codec_window)
          << "streamed peak " << pool->peak_bytes() << " bytes for a " << page_bytes << "-byte page";
    } else {
      EXPECT_GE(pool->peak_bytes(), page_bytes) << "whole-page peak " << pool->peak_bytes();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Codecs, StreamingWindowTest,
    ::testing::Combine(::testing::Values(codec::CompressionCodec::kZstd, codec::CompressionCodec::kGzip,
                                         codec::CompressionCodec::kBrotli),
                       ::testing::Values(pt::DataPageVersion::kV1, pt::DataPageVersion::kV2)),
    [](const auto& info) {
      return std::string(codec::CodecName(std::get<0>(info.param))) +
             (std::get<1>(info.param) == pt::DataPageVersion::kV1 ? "_v1" : "_v2");
    });

// A wide row group whose chunks are one compressed page each (as DuckDB writes 50,000-row row
// groups): each chunk is read whole, and once its only page is decompressed the compressed
// chunk goes back to the pool. While a batch is held, the pool holds the columns' pages and
// the batch, not their compressed chunks as well (which here are as large as the pages).
TEST(WideRowGroupMemoryTest, CompressedChunksAreReleasedOnceTheirLastPageIsDecompressed) {
  constexpr int kColumns = 200;
  constexpr int64_t kRows = 20000;
  std::vector<pt::ColumnOptions> columns;
  std::vector<pt::ColumnValues> values;
  uint64_t state = 42;
  for (int c = 0; c < kColumns; ++c) {
    pt::ColumnOptions column;
    column.name = "c" + std::to_string(c);
    column.optional = false;
    column.codec = codec::CompressionCodec::kSnappy;
    column.bytes_per_page = int64_t{1} << 30;  // one page per chunk
    columns.push_back(column);
    std::vector<int64_t> v(static_cast<size_t>(kRows));
    for (auto& x : v) {  // random: snappy cannot shrink them, so a chunk weighs as much as its page
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      x = static_cast<int64_t>(state >> 1);
    }
    values.push_back(pt::ColumnValues::Int64s(v));
  }
  // On disk: a local file's chunks are read into pool buffers (a memory source would hand
  // out slices of itself, which the pool does not see).
  const auto path = std::filesystem::temp_directory_path() / fmt::format("strata_wide_{}.parquet", ::getpid());
  auto builder = pt::TestFileBuilder::MakeForFile(columns, path.string());
  ASSERT_TRUE(builder.ok()) << builder.status().ToString();
  ASSERT_TRUE((*builder)->AddRowGroup(values).ok());
  ASSERT_TRUE((*builder)->Finish().ok());
  const int64_t page_bytes = kRows * 8;
  const int64_t pages = kColumns * page_bytes;
  ASSERT_GT((*builder)->metadata().row_groups[0].total_byte_size, pages * 9 / 10);

  auto pool = MakeSystemMemoryPool();
  auto reader = FileReader::OpenFile(path.string(), pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  BatchReadOptions read;
  read.batch_rows = kRows / 10;
  auto batches = (*reader)->ReadBatches(read);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  auto first = (*batches)->Next();
  ASSERT_TRUE(first.ok() && *first) << first.status().ToString();
  const int64_t batch_bytes = kColumns * read.batch_rows * 8;
  // Pages + the batch + per-column scratch; with the compressed chunks kept it would be
  // another `pages` bytes.
  EXPECT_LE(pool->bytes_in_use(), pages + batch_bytes + pages / 4) << "pages " << pages;
  EXPECT_GE(pool->bytes_in_use(), pages);  // the measurement sees the pages
  int64_t rows = (*first)->num_rows();
  first->reset();
  while (true) {
    auto batch = (*batches)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    rows += (*batch)->num_rows();
  }
  EXPECT_EQ(rows, kRows);
  EXPECT_LE(pool->peak_bytes(), 2 * pages + batch_bytes);  // the chunks of columns not yet decoded
  batches->reset();
  reader->reset();
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace strata::parquet
