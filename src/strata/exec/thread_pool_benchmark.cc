// The execution layer's own cost: what one task costs to submit, run and await, so callers
// can size their tasks (a task should do far more work than this, e.g. a whole column chunk).
#include <benchmark/benchmark.h>

#include <atomic>
#include <memory>

#include "strata/exec/task_group.h"
#include "strata/exec/thread_pool.h"

namespace strata::exec {
namespace {

std::unique_ptr<ThreadPool> MakePoolOrSkip(benchmark::State& state, int threads) {
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(threads);
  if (!pool.ok()) {
    state.SkipWithError(pool.status().ToString().c_str());
    return nullptr;
  }
  return std::move(pool).MoveValueUnsafe();
}

// One group of range(1) empty tasks per iteration on a pool of range(0) threads.
void BM_TaskGroupEmptyTasks(benchmark::State& state) {
  std::unique_ptr<ThreadPool> pool = MakePoolOrSkip(state, static_cast<int>(state.range(0)));
  if (pool == nullptr) return;
  const int64_t tasks = state.range(1);
  std::atomic<int64_t> ran{0};
  for (auto _ : state) {
    TaskGroup group(pool.get());
    for (int64_t i = 0; i < tasks; ++i) {
      group.Submit([&ran] {
        ran.fetch_add(1, std::memory_order_relaxed);
        return Status::OK();
      });
    }
    if (!group.Wait().ok()) state.SkipWithError("a task failed");
  }
  state.SetItemsProcessed(state.iterations() * tasks);
}
BENCHMARK(BM_TaskGroupEmptyTasks)->Args({1, 1000})->Args({2, 1000})->Args({4, 1000});

// The same tasks inline (null pool): the floor a 1-thread caller pays.
void BM_TaskGroupInline(benchmark::State& state) {
  const int64_t tasks = state.range(0);
  int64_t ran = 0;
  for (auto _ : state) {
    TaskGroup group(nullptr);
    for (int64_t i = 0; i < tasks; ++i) {
      group.Submit([&ran] {
        ++ran;
        return Status::OK();
      });
    }
    if (!group.Wait().ok()) state.SkipWithError("a task failed");
  }
  benchmark::DoNotOptimize(ran);
  state.SetItemsProcessed(state.iterations() * tasks);
}
BENCHMARK(BM_TaskGroupInline)->Arg(1000);

// Ordered results with bounded read-ahead, as the reader uses it.
void BM_OrderedTaskQueue(benchmark::State& state) {
  std::unique_ptr<ThreadPool> pool = MakePoolOrSkip(state, 2);
  if (pool == nullptr) return;
  const int64_t tasks = state.range(0);
  for (auto _ : state) {
    OrderedTaskQueue<int64_t> queue(pool.get(), /*max_in_flight=*/4);
    for (int64_t i = 0; i < tasks; ++i) queue.Submit([i]() -> Result<int64_t> { return i; });
    int64_t sum = 0;
    for (int64_t i = 0; i < tasks; ++i) {
      Result<int64_t> next = queue.Next();
      if (next.ok()) sum += *next;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * tasks);
}
BENCHMARK(BM_OrderedTaskQueue)->Arg(1000);

}  // namespace
}  // namespace strata::exec
BENCHMARK_MAIN();
