// BYTE_STREAM_SPLIT DOUBLE decode (the width-8 transpose).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "strata/parquet/encoding/byte_stream_split.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

constexpr int64_t kValues = 64 * 1024;

void BM_ByteStreamSplitDecodeDouble(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937_64 rng(6);
  std::vector<double> values(kValues);
  for (auto& x : values) x = static_cast<double>(rng() % 100000) / 100.0;
  ResizableBuffer page(pool.get());
  STRATA_BENCH_OK(ByteStreamSplitEncode(reinterpret_cast<const uint8_t*>(values.data()), kValues, 8, &page));
  std::vector<double> out(kValues);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    ByteStreamSplitDecoder decoder;
    STRATA_BENCH_OK(decoder.SetData(page.data(), page.size(), 8));
    STRATA_BENCH_OK(decoder.Decode(out.data(), kValues));
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * page.size());
}
BENCHMARK(BM_ByteStreamSplitDecodeDouble);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
