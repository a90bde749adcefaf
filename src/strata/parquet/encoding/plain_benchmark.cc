// PLAIN decode: INT64 (a bounds check + memcpy) and BYTE_ARRAY (views, and into offsets+data).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "strata/parquet/encoding/plain.h"
#include "strata/testing/benchmark_memory.h"

namespace strata::parquet {
namespace {

constexpr int64_t kValues = 64 * 1024;

void BM_PlainDecodeInt64(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  std::vector<int64_t> values(kValues);
  std::mt19937_64 rng(1);
  for (auto& v : values) v = static_cast<int64_t>(rng());
  std::vector<int64_t> out(kValues);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    PlainFixedDecoder decoder;
    STRATA_BENCH_OK(decoder.SetData(reinterpret_cast<const uint8_t*>(values.data()), kValues * 8, 8));
    STRATA_BENCH_OK(decoder.Decode(out.data(), kValues));
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * kValues * 8);
}
BENCHMARK(BM_PlainDecodeInt64);

// Strings of 0..31 bytes appended to offsets + data, one exact reservation per batch.
void BM_PlainDecodeByteArrayInto(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(2);
  std::vector<std::string> strings(kValues);
  for (auto& s : strings) s.assign(rng() % 32, 'x');
  std::vector<ByteArrayView> views;
  for (auto& s : strings) views.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  ResizableBuffer page(pool.get());
  STRATA_BENCH_OK(PlainEncodeByteArrays(views.data(), kValues, &page));
  std::vector<int32_t> offsets(kValues + 1);
  ResizableBuffer data(pool.get());
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    data.Clear();
    PlainByteArrayDecoder decoder;
    decoder.SetData(page.data(), page.size());
    for (int64_t done = 0; done < kValues;) {
      auto n = decoder.DecodeInto(1024, offsets.data() + 1 + done, &data);
      done += *n;
    }
    benchmark::DoNotOptimize(data.data());
  }
  memory.Report();
  state.SetItemsProcessed(state.iterations() * kValues);
  state.SetBytesProcessed(state.iterations() * page.size());
}
BENCHMARK(BM_PlainDecodeByteArrayInto);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
