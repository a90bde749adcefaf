// Reports a pool's memory next to time in Google Benchmark: bytes allocated, allocations,
// reallocations per iteration, and the peak bytes in use during the run.
#pragma once

#include <benchmark/benchmark.h>

#include <string>

#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

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

namespace strata::testing {
inline std::string BenchErrorText(const Status& status) { return status.ToString(); }
template <typename T>
std::string BenchErrorText(const Result<T>& result) {
  return result.status().ToString();
}
}  // namespace strata::testing

// Inside a benchmark function (a `benchmark::State& state` in scope): when `expr` (a Status or
// Result) fails, the benchmark stops with the error instead of timing a failed call.
#define STRATA_BENCH_OK(expr)                                                  \
  do {                                                                         \
    auto&& strata_bench_result = (expr);                                       \
    if (!strata_bench_result.ok()) {                                           \
      state.SkipWithError(::strata::testing::BenchErrorText(strata_bench_result).c_str()); \
      return;                                                                  \
    }                                                                          \
  } while (false)
