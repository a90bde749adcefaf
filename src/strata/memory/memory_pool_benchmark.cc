// Allocation patterns typical of a reader (page buffers, builders growing) on each backend.
// Built three times: system (default), jemalloc and mimalloc (STRATA_BENCH_*).
#include <benchmark/benchmark.h>

#include <vector>

#include "strata/memory/buffer.h"
#include "strata/testing/benchmark_memory.h"
#if defined(STRATA_BENCH_JEMALLOC)
#include "strata/memory/jemalloc_memory_pool.h"
#elif defined(STRATA_BENCH_MIMALLOC)
#include "strata/memory/mimalloc_memory_pool.h"
#endif

namespace strata {
namespace {

std::unique_ptr<MemoryPool> MakePool() {
#if defined(STRATA_BENCH_JEMALLOC)
  return MakeJemallocMemoryPool();
#elif defined(STRATA_BENCH_MIMALLOC)
  return MakeMimallocMemoryPool();
#else
  return MakeSystemMemoryPool();
#endif
}

// Allocate and free one block of the given size (small: builders; large: pages).
void BM_AllocateFree(benchmark::State& state) {
  auto pool = MakePool();
  const int64_t size = state.range(0);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    uint8_t* p = nullptr;
    if (!pool->Allocate(size, &p).ok()) state.SkipWithError("allocation failed");
    benchmark::DoNotOptimize(p);
    pool->Free(p, size);
  }
  memory.Report();
  state.SetLabel(std::string(pool->backend_name()));
}
BENCHMARK(BM_AllocateFree)->Arg(64)->Arg(4096)->Arg(1 << 20)->Arg(32 << 20);

// A buffer grown by doubling to 64 MiB, as a builder that knows nothing does.
void BM_GrowByDoubling(benchmark::State& state) {
  auto pool = MakePool();
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    ResizableBuffer buffer(pool.get());
    for (int64_t n = 64; n <= (64 << 20); n *= 2) {
      if (!buffer.GrowForAppend(n).ok()) state.SkipWithError("allocation failed");
      buffer.mutable_data()[n - 1] = 1;
    }
  }
  memory.Report();
  state.SetLabel(std::string(pool->backend_name()));
}
BENCHMARK(BM_GrowByDoubling)->Unit(benchmark::kMicrosecond);

// Many live mid-size blocks, freed in reverse: a batch of column buffers.
void BM_ManyLiveBlocks(benchmark::State& state) {
  auto pool = MakePool();
  std::vector<uint8_t*> blocks(1024);
  testing::BenchmarkMemory memory(state, pool.get());
  for (auto _ : state) {
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (!pool->Allocate(static_cast<int64_t>(256 + (i % 16) * 512), &blocks[i]).ok()) {
        state.SkipWithError("allocation failed");
      }
    }
    for (size_t i = blocks.size(); i-- > 0;) pool->Free(blocks[i], static_cast<int64_t>(256 + (i % 16) * 512));
  }
  memory.Report();
  state.SetLabel(std::string(pool->backend_name()));
}
BENCHMARK(BM_ManyLiveBlocks)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace strata

BENCHMARK_MAIN();
