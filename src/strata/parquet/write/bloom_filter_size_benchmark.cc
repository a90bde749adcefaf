// What a chunk's Bloom filter costs and buys: for an int64 column of 10, 10^4 and 10^6 distinct
// values over 10^6 rows (four row groups at the default 256Ki rows), with the dictionary on and
// off, the filters' bytes (summed over the row groups) and their observed false-positive rate
// (100,000 values known absent probed against every row group's filter), at the default FPP.
// The write is timed too, but the counters are the point: docs/parquet.md quotes them.
//
//   build/release/src/strata/parquet/write/bloom_filter_size_benchmark
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include <vector>

#include "strata/array/primitive_builder.h"
#include "strata/io/output_sink.h"
#include "strata/io/random_access_source.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/write/file_writer.h"

namespace strata::parquet {
namespace {

constexpr int64_t kRows = 1'000'000;
constexpr int64_t kBatchRows = 64 * 1024;
constexpr int64_t kProbes = 100'000;

// A bijection on int64: value k of the column is Scramble(k), so Scramble(k) for k >= ndv is
// certainly absent, and the values are not in order.
int64_t Scramble(int64_t k) { return static_cast<int64_t>(static_cast<uint64_t>(k) * 0x9E3779B97F4A7C15ULL + 12345); }

void BM_BloomFilterSize(benchmark::State& state) {
  const int64_t ndv = state.range(0);
  const bool dictionary = state.range(1) != 0;
  state.SetLabel(fmt::format("ndv {} dictionary {}", ndv, dictionary ? "on" : "off"));
  auto pool = MakeSystemMemoryPool();
  auto schema = std::make_shared<Schema>(std::vector<FieldPtr>{std::make_shared<Field>("v", int64(), false)});
  std::vector<std::shared_ptr<RecordBatch>> batches;
  for (int64_t start = 0; start < kRows; start += kBatchRows) {
    const int64_t rows = std::min(kBatchRows, kRows - start);
    Int64Builder builder(int64(), pool.get());
    for (int64_t r = start; r < start + rows; ++r) (void)builder.Append(Scramble(r % ndv));
    auto batch = RecordBatch::Make(schema, rows, {Array(*builder.Finish())});
    if (!batch.ok()) return state.SkipWithError(batch.status().ToString().c_str());
    batches.push_back(*batch);
  }
  WriterOptions options;
  options.columns.bloom_filter = true;
  options.columns.dictionary = dictionary;
  std::shared_ptr<Buffer> file;
  for (auto _ : state) {
    auto sink = std::make_unique<BufferSink>(pool.get());
    BufferSink* raw = sink.get();
    auto writer = FileWriter::Open(std::move(sink), schema, pool.get(), options);
    if (!writer.ok()) return state.SkipWithError(writer.status().ToString().c_str());
    for (const auto& batch : batches) {
      if (Status s = (*writer)->WriteBatch(*batch); !s.ok()) return state.SkipWithError(s.ToString().c_str());
    }
    if (Status s = (*writer)->Close(); !s.ok()) return state.SkipWithError(s.ToString().c_str());
    file = *raw->Finish();
  }
  auto reader = FileReader::Open(MakeBufferSource(file, "bloom.parquet"), pool.get());
  if (!reader.ok()) return state.SkipWithError(reader.status().ToString().c_str());
  int64_t filter_bytes = 0;
  int64_t false_positives = 0;
  int64_t probes = 0;
  for (int g = 0; g < (*reader)->num_row_groups(); ++g) {
    auto filter = (*reader)->ReadBloomFilter(g, 0);
    if (!filter.ok() || *filter == nullptr) return state.SkipWithError("no Bloom filter");
    filter_bytes += (*filter)->num_bytes();
    for (int64_t k = 0; k < kProbes; ++k) {
      false_positives += (*filter)->FindHash(BloomFilter::HashInt64(Scramble(kRows + k))) ? 1 : 0;
    }
    probes += kProbes;
  }
  state.counters["row_groups"] = static_cast<double>((*reader)->num_row_groups());
  state.counters["filter_bytes"] = static_cast<double>(filter_bytes);
  state.counters["fpp"] = static_cast<double>(false_positives) / static_cast<double>(probes);
  state.counters["file_bytes"] = static_cast<double>(file->size());
  state.counters["pool_peak"] = static_cast<double>(pool->peak_bytes());
}
BENCHMARK(BM_BloomFilterSize)
    ->ArgNames({"ndv", "dictionary"})
    ->ArgsProduct({{10, 10'000, 1'000'000}, {1, 0}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
