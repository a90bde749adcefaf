#include "strata/exec/process_pool.h"

#include <memory>
#include <utility>

namespace strata::exec {

ThreadPool* ProcessThreadPool() {
  // Leaked on purpose: destroying it at exit would join workers while static destructors run,
  // and a task still running could touch a static already destroyed. The OS reclaims the
  // threads at exit. The magic static makes first use thread-safe.
  static ThreadPool* const pool = [] {
    Result<std::unique_ptr<ThreadPool>> made = ThreadPool::Make(UsableCores());
    return made.ok() ? std::move(made).MoveValueUnsafe().release() : nullptr;
  }();
  return pool;
}

Executor ProcessExecutor(int threads) {
  if (threads == 1) return Executor();
  return Executor(ProcessThreadPool(), threads);
}

}  // namespace strata::exec
