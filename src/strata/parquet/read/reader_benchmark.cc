// End-to-end column reads through FileReader (open, pages, decode, batches) on files built once
// per process by TestFileBuilder: time, rows and decoded bytes per second, and the pool's
// bytes allocated, allocations, reallocations and peak per read.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <map>

#include <unistd.h>

#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/testing/file_builder.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

namespace pt = strata::parquet::testing;
using codec::CompressionCodec;

constexpr int64_t kRows = 4 << 20;           // rows of the one-column files
constexpr int64_t kRowsPerGroup = 1 << 20;
// 9-byte strings in 32 MiB pages: 4M rows make 52 MB of PLAIN values, a full 32 MiB page and a
// shorter one, and a read of about a second.
constexpr int64_t kNineByteRows = 4 << 20;
// Long strings (13..140 bytes, ~77 on average, 5% null): 1M rows make ~80 MB of values in
// row groups of 256K rows (~20 MB chunks, so pages are read one by one).
constexpr int64_t kLongRows = 1 << 20;
constexpr int64_t kLongRowsPerGroup = 256 << 10;
constexpr int kLargeRowGroups = 2;
constexpr int64_t kLargeRowsPerGroup = 484;  // values of 100..220 KB, 5% null: ~150 MB

uint64_t Mix(uint64_t x) {
  x *= 0x9E3779B97F4A7C15ULL;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ULL;
  return x ^ (x >> 32);
}

pt::ColumnValues Int64Values(double null_fraction, bool sorted) {
  pt::ColumnValues values(PhysicalType::kInt64);
  values.Reserve(kRows);
  int64_t timestamp = 1'700'000'000'000'000;
  for (int64_t i = 0; i < kRows; ++i) {
    const uint64_t h = Mix(static_cast<uint64_t>(i) + 1);
    if (static_cast<double>(h % 1000) < null_fraction * 1000) {
      values.AppendNull();
      continue;
    }
    timestamp += static_cast<int64_t>(h % 5000);
    values.Append<int64_t>(sorted ? timestamp : static_cast<int64_t>(h));
  }
  return values;
}

pt::ColumnValues VocabularyStrings() {
  pt::ColumnValues values(PhysicalType::kByteArray);
  values.Reserve(kRows, kRows * 16);
  for (int64_t i = 0; i < kRows; ++i) {
    const uint64_t word = Mix(static_cast<uint64_t>(i) + 7) % 1000;
    std::string s = fmt::format("word-{:04}-", word);
    s.append(static_cast<size_t>(word % 12), static_cast<char>('a' + word % 26));
    values.AppendBytes(s);
  }
  return values;
}

pt::ColumnValues Doubles() {
  pt::ColumnValues values(PhysicalType::kDouble);
  values.Reserve(kRows);
  double price = 100.0;
  for (int64_t i = 0; i < kRows; ++i) {
    price += static_cast<double>(static_cast<int64_t>(Mix(static_cast<uint64_t>(i)) % 2001) - 1000) / 10000.0;
    values.Append<double>(price);
  }
  return values;
}

pt::ColumnValues LongStrings() {
  pt::ColumnValues values(PhysicalType::kByteArray);
  values.Reserve(kLongRows, kLongRows * 80);
  std::string s;
  for (int64_t i = 0; i < kLongRows; ++i) {
    const uint64_t h = Mix(static_cast<uint64_t>(i) + 11);
    if (h % 20 == 0) {
      values.AppendNull();
      continue;
    }
    s = fmt::format("{:016x}-", h);
    s.resize(static_cast<size_t>(13 + (h >> 16) % 128), static_cast<char>('a' + (h >> 8) % 26));
    values.AppendBytes(s);
  }
  return values;
}

pt::ColumnValues NineByteStrings() {
  pt::ColumnValues values(PhysicalType::kByteArray);
  values.Reserve(kNineByteRows, kNineByteRows * 9);
  for (int64_t i = 0; i < kNineByteRows; ++i) values.AppendBytes(fmt::format("{:09}", Mix(static_cast<uint64_t>(i)) % 1000000000));
  return values;
}

struct BuiltFile {
  std::shared_ptr<Buffer> bytes;  // in memory, or
  std::string path;               // on disk
  int64_t rows = 0;
};

enum class Scenario {
  kPlainInt64,
  kPlainInt64Nulls,
  kDictionaryStrings,
  kPlainStrings,
  kDeltaInt64,
  kByteStreamSplitDouble,
  kNineByte,
  kLongStrings,
  kLongStringsSnappy
};

// Each scenario's file, built on first use and kept for the process.
const BuiltFile& FileFor(Scenario scenario) {
  static std::map<Scenario, BuiltFile> files;
  auto it = files.find(scenario);
  if (it != files.end()) return it->second;
  pt::ColumnOptions column{.name = "c", .physical_type = PhysicalType::kInt64};
  pt::ColumnValues values(PhysicalType::kInt64);
  int64_t rows_per_group = kRowsPerGroup;
  switch (scenario) {
    case Scenario::kPlainInt64:
      column.optional = false;
      values = Int64Values(0, false);
      break;
    case Scenario::kPlainInt64Nulls:
      values = Int64Values(0.1, false);
      break;
    case Scenario::kDictionaryStrings:
      column.physical_type = PhysicalType::kByteArray;
      column.logical_type = pt::StringLogicalType();
      column.encoding = Encoding::kRleDictionary;
      column.size_statistics = true;
      values = VocabularyStrings();
      break;
    case Scenario::kPlainStrings:
      column.physical_type = PhysicalType::kByteArray;
      column.logical_type = pt::StringLogicalType();
      column.size_statistics = true;
      values = VocabularyStrings();
      break;
    case Scenario::kDeltaInt64:
      column.optional = false;
      column.encoding = Encoding::kDeltaBinaryPacked;
      values = Int64Values(0, true);
      break;
    case Scenario::kByteStreamSplitDouble:
      column.physical_type = PhysicalType::kDouble;
      column.optional = false;
      column.encoding = Encoding::kByteStreamSplit;
      column.codec = CompressionCodec::kZstd;
      values = Doubles();
      break;
    case Scenario::kNineByte:
      column.physical_type = PhysicalType::kByteArray;
      column.logical_type = pt::StringLogicalType();
      column.optional = false;
      column.codec = CompressionCodec::kZstd;
      column.bytes_per_page = 32 << 20;
      values = NineByteStrings();
      rows_per_group = kNineByteRows;
      break;
    case Scenario::kLongStrings:
    case Scenario::kLongStringsSnappy:
      column.physical_type = PhysicalType::kByteArray;
      column.logical_type = pt::StringLogicalType();
      column.size_statistics = true;
      if (scenario == Scenario::kLongStringsSnappy) column.codec = CompressionCodec::kSnappy;
      values = LongStrings();
      rows_per_group = kLongRowsPerGroup;
      break;
  }
  auto file = pt::BuildFile({column}, {values}, rows_per_group);
  if (!file.ok()) {
    std::fprintf(stderr, "building the benchmark file failed: %s\n", file.status().ToString().c_str());
    std::abort();
  }
  return files[scenario] = BuiltFile{*file, "", values.num_rows()};
}

// ~150 MB of large binary values, written to the temp directory a row group at a time (removed
// at exit).
const BuiltFile& LargeBinaryFile() {
  static BuiltFile file = [] {
    BuiltFile out;
    out.path = (std::filesystem::temp_directory_path() / fmt::format("strata_bench_large_{}.parquet", ::getpid())).string();
    out.rows = kLargeRowGroups * kLargeRowsPerGroup;
    pt::ColumnOptions column{.name = "blob", .physical_type = PhysicalType::kByteArray, .size_statistics = true};
    auto builder = pt::TestFileBuilder::MakeForFile({column}, out.path);
    std::string value;
    for (int group = 0; group < kLargeRowGroups && builder.ok(); ++group) {
      pt::ColumnValues values(PhysicalType::kByteArray);
      for (int64_t row = 0; row < kLargeRowsPerGroup; ++row) {
        const uint64_t h = Mix(static_cast<uint64_t>(group) << 32 | static_cast<uint64_t>(row));
        if (h % 20 == 0) {
          values.AppendNull();
          continue;
        }
        value.assign(static_cast<size_t>(100 * 1024 + (h >> 8) % (120 * 1024 + 1)), static_cast<char>(h));
        values.AppendBytes(value);
      }
      if (!(*builder)->AddRowGroup({values}).ok()) std::abort();
    }
    if (!builder.ok() || !(*builder)->Finish().ok()) std::abort();
    // The handler runs after this static is destroyed, so it removes its own copy of the path.
    static const std::string* const to_remove = new std::string(out.path);
    std::atexit([] { std::filesystem::remove(*to_remove); });
    return out;
  }();
  return file;
}

int64_t ArrayBytes(const Array& array) {
  int64_t total = 0;
  for (const auto& buffer : array.data()->buffers) total += buffer ? buffer->size() : 0;
  return total;
}

std::shared_ptr<RandomAccessSource> SourceFor(const BuiltFile& file) {
  if (file.bytes) return MakeBufferSource(file.bytes, "bench.parquet");
  auto source = OpenLocalFile(file.path);
  if (!source.ok()) std::abort();
  return *source;
}

// How string columns come back (BatchReadOptions).
enum class StringOutput { kOffsets, kViews, kDictionary };

// Reads every batch of the file (each released before the next), or with `whole_file` keeps
// them all (a table), as an engine materialising the file would.
void ReadFile(benchmark::State& state, const BuiltFile& file, int64_t batch_rows, bool whole_file = false,
              StringOutput output = StringOutput::kOffsets) {
  auto pool = MakeSystemMemoryPool();
  int64_t decoded_bytes = 0;
  strata::testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    auto reader = FileReader::Open(SourceFor(file), pool.get());
    if (!reader.ok()) {
      state.SkipWithError(reader.status().ToString().c_str());
      return;
    }
    BatchReadOptions options;
    options.batch_rows = batch_rows;
    options.string_views = output == StringOutput::kViews;
    options.read_dictionary = output == StringOutput::kDictionary;
    decoded_bytes = 0;
    if (whole_file) {
      auto table = (*reader)->ReadTable(options);
      if (!table.ok()) {
        state.SkipWithError(table.status().ToString().c_str());
        return;
      }
      for (const auto& chunk : (*table)->column(0)->chunks()) decoded_bytes += ArrayBytes(chunk);
      benchmark::DoNotOptimize(table->get());
      continue;
    }
    auto batches = *(*reader)->ReadBatches(options);
    while (true) {
      auto batch = batches->Next();
      if (!batch.ok()) {
        state.SkipWithError(batch.status().ToString().c_str());
        return;
      }
      if (!*batch) break;
      decoded_bytes += ArrayBytes((*batch)->column(0));
    }
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * file.rows);
  state.SetBytesProcessed(state.iterations() * decoded_bytes);
}

void BM_ReadPlainInt64(benchmark::State& state) { ReadFile(state, FileFor(Scenario::kPlainInt64), 64 * 1024); }
BENCHMARK(BM_ReadPlainInt64)->Unit(benchmark::kMillisecond);

void BM_ReadPlainInt64TenPercentNulls(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kPlainInt64Nulls), 64 * 1024);
}
BENCHMARK(BM_ReadPlainInt64TenPercentNulls)->Unit(benchmark::kMillisecond);

void BM_ReadDictionaryStrings(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kDictionaryStrings), 64 * 1024);
}
BENCHMARK(BM_ReadDictionaryStrings)->Unit(benchmark::kMillisecond);

// The same 10..21-byte strings (1000 distinct) as offsets + data (0), string views (1) or,
// dictionary-encoded only, dictionary arrays (2). Compare time and bytes_allocated.
void BM_ReadStringsPlainAs(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kPlainStrings), 64 * 1024, false, static_cast<StringOutput>(state.range(0)));
}
BENCHMARK(BM_ReadStringsPlainAs)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_ReadStringsDictionaryAs(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kDictionaryStrings), 64 * 1024, false, static_cast<StringOutput>(state.range(0)));
}
BENCHMARK(BM_ReadStringsDictionaryAs)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

// The uncompressed long-strings file written to the temp directory (removed at exit), read
// with pread: pages come into buffers of the pool rather than from the file's bytes in memory.
const BuiltFile& LongStringsOnDisk() {
  static BuiltFile file = [] {
    const BuiltFile& in_memory = FileFor(Scenario::kLongStrings);
    BuiltFile out;
    out.path = (std::filesystem::temp_directory_path() / fmt::format("strata_bench_long_{}.parquet", ::getpid())).string();
    out.rows = in_memory.rows;
    std::FILE* f = std::fopen(out.path.c_str(), "wb");
    if (f == nullptr || std::fwrite(in_memory.bytes->data(), 1, static_cast<size_t>(in_memory.bytes->size()), f) !=
                             static_cast<size_t>(in_memory.bytes->size())) {
      std::abort();
    }
    std::fclose(f);
    static const std::string* const to_remove = new std::string(out.path);
    std::atexit([] { std::filesystem::remove(*to_remove); });
    return out;
  }();
  return file;
}

// PLAIN strings of 13..140 bytes, uncompressed (codec 0), snappy (1) or uncompressed from a
// file on disk (2), as offsets + data (output 0) or string views (1), whose long values refer
// to the pages.
void BM_ReadLongStringsPlainAs(benchmark::State& state) {
  const int64_t source = state.range(0);
  const BuiltFile& file = source == 2 ? LongStringsOnDisk()
                                      : FileFor(source == 0 ? Scenario::kLongStrings : Scenario::kLongStringsSnappy);
  ReadFile(state, file, 64 * 1024, false, static_cast<StringOutput>(state.range(1)));
}
BENCHMARK(BM_ReadLongStringsPlainAs)
    ->ArgNames({"codec", "output"})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({2, 0})
    ->Args({2, 1})
    ->Unit(benchmark::kMillisecond);

void BM_ReadDeltaBinaryPackedInt64(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kDeltaInt64), 64 * 1024);
}
BENCHMARK(BM_ReadDeltaBinaryPackedInt64)->Unit(benchmark::kMillisecond);

void BM_ReadByteStreamSplitDoubleZstd(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kByteStreamSplitDouble), 64 * 1024);
}
BENCHMARK(BM_ReadByteStreamSplitDoubleZstd)->Unit(benchmark::kMillisecond);

// Large binary values from disk. Arg: 0 = the whole file as one table, 1 = a batch per row
// group, 4 = quarter row groups.
void BM_ReadLargeBinary(benchmark::State& state) {
  const int64_t split = state.range(0);
  const int64_t batch_rows = split == 0 ? kLargeRowsPerGroup : kLargeRowsPerGroup / split;
  ReadFile(state, LargeBinaryFile(), batch_rows, split == 0);
}
BENCHMARK(BM_ReadLargeBinary)->Arg(0)->Arg(1)->Arg(4)->Unit(benchmark::kMillisecond);

// 9-byte strings, PLAIN, ZSTD, 32 MiB pages, one row group: peak_bytes shows what a huge page
// costs on top of the batch.
void BM_ReadNineByteStringsZstd32MiBPages(benchmark::State& state) {
  ReadFile(state, FileFor(Scenario::kNineByte), 64 * 1024);
}
BENCHMARK(BM_ReadNineByteStringsZstd32MiBPages)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
