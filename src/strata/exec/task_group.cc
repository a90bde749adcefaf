#include "strata/exec/task_group.h"

#include <atomic>

namespace strata::exec {

struct TaskGroup::State {
  std::mutex mutex;
  // Signalled when the last unfinished task finishes, and when a closure reaches the pool's
  // queue (a waiter that found the queue empty must look again).
  std::condition_variable changed;
  std::deque<Task> queued;        // submitted, not started
  int closures = 0;               // RunQueued closures queued on or running in the pool
  int64_t unfinished = 0;         // submitted, neither finished nor skipped
  uint64_t closures_submitted = 0;  // bumped after each closure reaches the pool's queue
  Status first_error;
  std::atomic<bool> failed{false};

  // Keeps the first error; skips every task not started yet. Returns the skipped tasks, to be
  // destroyed outside the lock (their captures may be heavy). Caller holds `mutex`.
  std::deque<Task> RecordErrorLocked(Status status) {
    std::deque<Task> skipped;
    if (failed.load(std::memory_order_relaxed)) return skipped;
    first_error = std::move(status);
    skipped.swap(queued);
    unfinished -= static_cast<int64_t>(skipped.size());
    failed.store(true, std::memory_order_release);
    return skipped;
  }
};

TaskGroup::TaskGroup(ThreadPool* pool, int max_parallelism)
    : pool_(pool),
      max_parallelism_(max_parallelism > 0 ? max_parallelism
                                           : (pool != nullptr ? pool->num_threads() : 1)),
      runs_inline_(pool == nullptr || max_parallelism == 1),
      state_(std::make_shared<State>()) {}

TaskGroup::~TaskGroup() {
  Status ignored = Wait();
  (void)ignored;
}

bool TaskGroup::ok() const { return !state_->failed.load(std::memory_order_acquire); }

void TaskGroup::Submit(Task task) {
  State& state = *state_;
  if (runs_inline()) {
    if (state.failed.load(std::memory_order_acquire)) return;
    Status status = task();
    task = nullptr;
    if (!status.ok()) {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.RecordErrorLocked(std::move(status));
    }
    return;
  }
  bool start_closure = false;
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    if (state.failed.load(std::memory_order_relaxed)) return;
    state.queued.push_back(std::move(task));
    ++state.unfinished;
    if (state.closures < max_parallelism_) {
      ++state.closures;
      start_closure = true;
    }
  }
  if (!start_closure) return;  // a running closure will pick the task up
  pool_->Submit([state = state_] { RunQueued(state); });
  {
    std::lock_guard<std::mutex> lock(state.mutex);
    ++state.closures_submitted;
  }
  state.changed.notify_all();
}

void TaskGroup::RunQueued(const std::shared_ptr<State>& state_ptr) {
  State& state = *state_ptr;
  for (;;) {
    Task task;
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      if (state.queued.empty()) {
        --state.closures;
        return;
      }
      task = std::move(state.queued.front());
      state.queued.pop_front();
    }
    Status status = task();
    task = nullptr;  // release the captures before Wait() can return
    std::deque<Task> skipped;
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      --state.unfinished;
      if (!status.ok()) skipped = state.RecordErrorLocked(std::move(status));
      if (state.unfinished == 0) state.changed.notify_all();
    }
  }
}

Status TaskGroup::Wait() {
  State& state = *state_;
  std::unique_lock<std::mutex> lock(state.mutex);
  // Inline mode never has unfinished tasks here: Submit() ran them.
  while (state.unfinished > 0) {
    const uint64_t closures_seen = state.closures_submitted;
    lock.unlock();
    const bool ran = pool_->HelpWhileWaiting();
    lock.lock();
    if (ran) continue;
    // The pool's queue was empty, or this thread is no worker: each of our closures is queued
    // for or running on a worker and will finish our tasks, unless a new closure is queued
    // meanwhile (a concurrent Submit): then look at the queue again rather than rely on a
    // worker being free to take it.
    state.changed.wait(lock, [&state, closures_seen] {
      return state.unfinished == 0 || state.closures_submitted != closures_seen;
    });
  }
  return state.first_error;
}

}  // namespace strata::exec
