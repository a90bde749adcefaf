// DELTA_BINARY_PACKED INT64 decode: timestamps-like (small positive deltas) and random values.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "strata/parquet/encoding/delta_binary_packed.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

constexpr int64_t kValues = 64 * 1024;

void BM_DeltaBinaryPackedDecodeInt64(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937_64 rng(5);
  std::vector<int64_t> values(kValues);
  int64_t v = 1700000000000;
  for (auto& x : values) x = state.range(0) == 0 ? (v += static_cast<int64_t>(rng() % 1000)) : static_cast<int64_t>(rng());
  DeltaBinaryPackedEncoder<int64_t> encoder(pool.get());
  STRATA_BENCH_OK(encoder.Put(values.data(), kValues));
  ResizableBuffer page(pool.get());
  STRATA_BENCH_OK(encoder.FlushTo(&page));
  std::vector<int64_t> out(kValues);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    DeltaBinaryPackedDecoder<int64_t> decoder;
    STRATA_BENCH_OK(decoder.SetData(page.data(), page.size()));
    STRATA_BENCH_OK(decoder.Decode(out.data(), kValues));
  }
  memory.Report();
  state.SetLabel(state.range(0) == 0 ? "deltas<1000" : "random");
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * page.size());
}
BENCHMARK(BM_DeltaBinaryPackedDecodeInt64)->Arg(0)->Arg(1);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
