#include "strata/testing/benchmark_memory.h"

namespace strata::testing {

BenchmarkMemory::BenchmarkMemory(benchmark::State& state, MemoryPool* pool)
    : state_(state), pool_(pool) {
  pool_->ResetPeak();
  start_ = pool_->stats();
}

void BenchmarkMemory::Report() {
  const MemoryStats now = pool_->stats();
  const double iterations = static_cast<double>(std::max<int64_t>(1, state_.iterations()));
  auto per_iteration = [&](int64_t v) { return benchmark::Counter(static_cast<double>(v) / iterations); };
  state_.counters["bytes_alloc"] = per_iteration(now.total_bytes_allocated - start_.total_bytes_allocated);
  state_.counters["allocs"] = per_iteration(now.num_allocations - start_.num_allocations);
  state_.counters["reallocs"] = per_iteration(now.num_reallocations - start_.num_reallocations);
  state_.counters["peak_bytes"] = benchmark::Counter(static_cast<double>(now.peak_bytes - start_.bytes_in_use));
}

}  // namespace strata::testing
