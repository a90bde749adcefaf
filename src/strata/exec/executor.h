// Executor: where a reader, writer or scan runs its CPU work (strata's execution layer). A
// thread pool and how many of its threads one component may keep busy at once, resolved once
// here. The library takes an Executor through its options and never reaches for a pool of its
// own; the edges (CLI, C API, Python, tests) create one, usually over the process's pool
// (ProcessExecutor, process_pool.h), or over a pool of their own.
#pragma once

namespace strata::exec {

class ThreadPool;

// A small value: copy it freely. It does not own the pool, which must outlive every component
// given the executor (and the work that component queued).
class Executor {
 public:
  // Everything on the calling thread: pool() null, threads() 1. What a component does when
  // its options name no executor.
  Executor() = default;

  // Up to `threads` tasks of one component at once on `pool`. `threads` 0 means the pool's
  // size (the one place that rule is applied); a count above the pool's size is kept (more
  // tasks in flight than workers, as asked). Resolves to the calling thread (pool() null,
  // threads() 1) when `pool` is null or the count comes to 1 (a 1-core pool, or 1 asked for),
  // so a component tests parallel() and never sees a pool with a single thread to use.
  // `threads` must be >= 0 (the edges validate the user's number); a negative count is taken
  // as 1.
  Executor(ThreadPool* pool, int threads);

  // Null: run on the calling thread.
  ThreadPool* pool() const { return pool_; }
  // Tasks of one component at once, >= 1 (1 exactly when pool() is null).
  int threads() const { return threads_; }
  bool parallel() const { return pool_ != nullptr; }

  bool operator==(const Executor& other) const = default;

 private:
  ThreadPool* pool_ = nullptr;
  int threads_ = 1;
};

}  // namespace strata::exec
