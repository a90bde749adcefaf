// The process's CPU thread pool, for the edges only: the CLI, the C API, the Python module and
// tests choose the parallelism of what they run and pass it down as an Executor (executor.h).
// No library layer includes this header (the layering check fails otherwise: edge-headers in
// cmake/layers.txt), so a reader or writer runs where its options say and a test can inject a pool.
#pragma once

#include "strata/exec/executor.h"
#include "strata/exec/thread_pool.h"

namespace strata::exec {

// The process's pool, created on first use (thread-safely) with UsableCores() workers and
// never destroyed. Null only if the system refused to start its threads.
ThreadPool* ProcessThreadPool();

// `threads` of the process's pool (0: all of it, the edges' "every core"); 1 is the calling
// thread and does not start the pool. Runs on the caller if the pool could not start.
// `threads` must be >= 0.
Executor ProcessExecutor(int threads);

}  // namespace strata::exec
