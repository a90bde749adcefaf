#include "strata/exec/executor.h"

#include "strata/exec/thread_pool.h"

namespace strata::exec {

Executor::Executor(ThreadPool* pool, int threads) {
  if (pool == nullptr || threads < 0) return;
  const int resolved = threads == 0 ? pool->num_threads() : threads;
  if (resolved <= 1) return;  // one thread: the caller's own, no tasks queued
  pool_ = pool;
  threads_ = resolved;
}

}  // namespace strata::exec
