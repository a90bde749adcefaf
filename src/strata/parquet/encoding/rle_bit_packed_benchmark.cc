// Definition levels (max 1): decoded to int16 levels, and straight to a validity bitmap, for
// a mostly-non-null column (long RLE runs) and a ~50% null one (bit-packed runs).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "strata/parquet/encoding/level_decoder.h"
#include "strata/testing/benchmark_memory.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

constexpr int64_t kLevels = 64 * 1024;

Status MakeLevels(MemoryPool* pool, int null_percent, ResizableBuffer* page) {
  std::mt19937 rng(7);
  std::vector<int16_t> levels(kLevels);
  for (auto& l : levels) l = static_cast<int16_t>(static_cast<int>(rng() % 100) >= null_percent);
  return EncodeLevelsRle(pool, levels.data(), kLevels, 1, /*length_prefix=*/true, page);
}

void BM_DecodeLevels(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer page(pool.get());
  STRATA_BENCH_OK(MakeLevels(pool.get(), static_cast<int>(state.range(0)), &page));
  std::vector<int16_t> out(kLevels);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    LevelDecoder decoder;
    STRATA_BENCH_OK(decoder.SetDataV1(Encoding::kRle, 1, kLevels, page.data(), page.size()));
    STRATA_BENCH_OK(decoder.Decode(out.data(), kLevels));
  }
  memory.Report();
  state.SetLabel(std::to_string(state.range(0)) + "% null");
  state.SetItemsProcessed(state.iterations() * kLevels);
  state.SetBytesProcessed(state.iterations() * page.size());
}
BENCHMARK(BM_DecodeLevels)->Arg(0)->Arg(1)->Arg(50);

void BM_DecodeLevelsToValidity(benchmark::State& state) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer page(pool.get());
  STRATA_BENCH_OK(MakeLevels(pool.get(), static_cast<int>(state.range(0)), &page));
  std::vector<uint8_t> validity(bit_util::BytesForBits(kLevels));
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    LevelDecoder decoder;
    STRATA_BENCH_OK(decoder.SetDataV1(Encoding::kRle, 1, kLevels, page.data(), page.size()));
    STRATA_BENCH_OK(decoder.DecodeValidity(kLevels, validity.data(), 0));
  }
  memory.Report();
  state.SetLabel(std::to_string(state.range(0)) + "% null");
  state.SetItemsProcessed(state.iterations() * kLevels);
  state.SetBytesProcessed(state.iterations() * page.size());
}
BENCHMARK(BM_DecodeLevelsToValidity)->Arg(0)->Arg(1)->Arg(50);

}  // namespace
}  // namespace strata::parquet

BENCHMARK_MAIN();
