#include "strata/testing/test_executor.h"

#include <cstdlib>
#include <memory>
#include <utility>

namespace strata::testing {

exec::ThreadPool* TestThreadPool() {
  // Leaked like the process's pool: joining workers while static destructors run could race a
  // task still touching a static.
  static exec::ThreadPool* const pool = [] {
    Result<std::unique_ptr<exec::ThreadPool>> made = exec::ThreadPool::Make(kTestPoolThreads);
    if (!made.ok()) std::abort();  // a test machine that cannot start 4 threads runs nothing
    return std::move(made).MoveValueUnsafe().release();
  }();
  return pool;
}

exec::Executor TestExecutor(int threads) {
  if (threads == 1) return exec::Executor();
  return exec::Executor(TestThreadPool(), threads);
}

}  // namespace strata::testing
