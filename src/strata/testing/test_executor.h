// Executors for tests. Tests are an edge: they choose where the library runs. The parallel
// tests inject a pool of their own of a chosen size (more workers than a 2-core machine has,
// so tasks interleave under ThreadSanitizer whatever the machine) instead of the process's.
#pragma once

#include "strata/exec/executor.h"
#include "strata/exec/thread_pool.h"

namespace strata::testing {

inline constexpr int kTestPoolThreads = 4;

// A pool of kTestPoolThreads workers for tests, created on first use and kept for the
// process (executors over it stay valid in every test).
exec::ThreadPool* TestThreadPool();

// `threads` tasks at once on TestThreadPool(): 0 is all its workers, 1 the calling thread.
exec::Executor TestExecutor(int threads);

}  // namespace strata::testing
