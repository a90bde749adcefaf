// Reports a pool's memory next to time in Google Benchmark: bytes allocated, allocations,
// reallocations per iteration, and the peak bytes in use during the run.
#pragma once

#include <benchmark/benchmark.h>

#include "strata/memory/memory_pool.h"

namespace strata::testing {

// Construct before the timing loop, call Report() after it:
//   BenchmarkMemory memory(state, pool);
//   for (auto _ : state) { ... }
//   memory.Report();
class BenchmarkMemory {
 public:
  BenchmarkMemory(benchmark::State& state, MemoryPool* pool);
  void Report();

 private:
  benchmark::State& state_;
  MemoryPool* pool_;
  MemoryStats start_;
};

}  // namespace strata::testing
