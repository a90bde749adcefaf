// TaskGroup and OrderedTaskQueue: how strata's formats use the ThreadPool (thread_pool.h).
// A TaskGroup runs a set of Status-returning tasks and awaits them together (the writer encodes
// a row group's column chunks this way); an OrderedTaskQueue runs Result<T>-returning tasks with
// bounded read-ahead and hands the results back in submission order (the reader's batches).
// Waiting on one of the pool's workers helps run the pool's queued tasks, so nesting never
// deadlocks the pool; other threads just wait (ThreadPool::HelpWhileWaiting).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "strata/exec/thread_pool.h"
#include "strata/util/result.h"

namespace strata::exec {

// A set of tasks whose results are awaited together.
//
// The first error wins: tasks not yet started when a task fails are skipped (never run), tasks
// submitted afterwards are dropped, and Wait() returns that first Status. Tasks already running
// finish; their errors are ignored.
//
// At most max_parallelism() of the group's tasks run at once; the rest wait in the group, not in
// the pool, so one group cannot flood the pool and others' tasks keep getting turns.
//
// Wait() on a worker never just blocks while the pool has queued tasks: it runs them on the
// calling thread. So a task may create, fill and wait on its own TaskGroup on the same pool
// (nested parallelism), even on a 1-thread pool. A task must not wait on the group it belongs to.
//
// Inline mode (null pool, or max_parallelism 1): Submit() runs the task on the calling thread
// before returning, so a single-threaded caller needs no threads at all.
//
// Submit(), Wait() and ok() may be called from any thread; the group must outlive those calls.
class TaskGroup {
 public:
  using Task = MoveOnlyFunction<Status()>;

  // `max_parallelism` <= 0 means the pool's size. `pool` (if not null) must outlive the group.
  explicit TaskGroup(ThreadPool* pool, int max_parallelism = 0);
  // Waits for every task (the Status is dropped: call Wait() to see it).
  ~TaskGroup();
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  // Runs `task` on the pool (or inline, see above), unless a task has already failed.
  void Submit(Task task);

  // Waits until every submitted task has finished or been skipped, helping run queued pool
  // tasks meanwhile when called on a worker; returns the first error, or OK. May be called
  // again after more Submit()s.
  Status Wait();

  // No task has failed so far.
  bool ok() const;

  int max_parallelism() const { return max_parallelism_; }
  // Null pool or max_parallelism 1 asked for explicitly (a 1-thread pool's default of 1 still
  // runs on the pool's worker).
  bool runs_inline() const { return runs_inline_; }

 private:
  struct State;
  // Runs the group's queued tasks one after another on a pool thread until none is left;
  // at most max_parallelism_ of these are alive at once.
  static void RunQueued(const std::shared_ptr<State>& state);

  ThreadPool* pool_;
  int max_parallelism_;
  bool runs_inline_;
  // Shared with the pool closures, which may outlive Wait() by the moment it takes them to
  // see the group's queue is empty and exit.
  std::shared_ptr<State> state_;
};

// Runs tasks on a pool with at most `max_in_flight` started whose results have not been taken
// yet, and hands back their results in submission order: bounded read-ahead for a consumer that
// needs results in file order. A task starts when submitted if there is room, else when Next()
// takes an older result. With a null pool, Next() runs the oldest task itself (no threads).
//
// Single consumer: Submit(), Next() and the destructor must not be called concurrently.
// Each task's error is delivered at its position; the queue does not stop by itself (destroy
// it to drop the tasks not yet started).
template <typename T>
class OrderedTaskQueue {
 public:
  using Task = MoveOnlyFunction<Result<T>()>;

  // `max_in_flight` <= 0 means the pool's size. `pool` (if not null) must outlive the queue.
  explicit OrderedTaskQueue(ThreadPool* pool, int max_in_flight = 0)
      : pool_(pool),
        max_in_flight_(max_in_flight > 0 ? max_in_flight
                                         : (pool != nullptr ? pool->num_threads() : 1)),
        state_(std::make_shared<State>()) {}
  // Drops the tasks not started and waits (helping, on a worker) for those started.
  ~OrderedTaskQueue() {
    slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(num_started_), slots_.end());
    if (pool_ == nullptr) return;
    std::unique_lock<std::mutex> lock(state_->mutex);
    while (state_->running > 0) {
      lock.unlock();
      const bool ran = pool_->HelpWhileWaiting();
      lock.lock();
      // Started tasks are queued (then HelpWhileWaiting may run one) or running elsewhere.
      if (!ran) state_->finished.wait(lock, [this] { return state_->running == 0; });
    }
  }
  OrderedTaskQueue(const OrderedTaskQueue&) = delete;
  OrderedTaskQueue& operator=(const OrderedTaskQueue&) = delete;

  void Submit(Task task) {
    slots_.push_back(std::make_unique<Slot>());
    slots_.back()->task = std::move(task);
    StartWhileRoom();
  }

  // The oldest task's result, waiting for it (and, on a worker, helping run queued pool tasks)
  // if needed.
  // Invalid if no task is left.
  Result<T> Next() {
    if (slots_.empty()) return Status::Invalid("OrderedTaskQueue::Next(): no task left");
    Slot* oldest = slots_.front().get();
    std::optional<Result<T>> result;
    if (pool_ == nullptr) {
      result.emplace(oldest->task());
    } else {
      std::unique_lock<std::mutex> lock(state_->mutex);
      while (!oldest->result.has_value()) {
        lock.unlock();
        const bool ran = pool_->HelpWhileWaiting();
        lock.lock();
        // The oldest task was started (it always is); not queued, so running: wait for it.
        if (!ran) state_->finished.wait(lock, [oldest] { return oldest->result.has_value(); });
      }
      result.emplace(std::move(*oldest->result));
      --num_started_;
    }
    slots_.pop_front();
    StartWhileRoom();
    return std::move(*result);
  }

  // Tasks submitted whose results Next() has not returned yet.
  int64_t size() const { return static_cast<int64_t>(slots_.size()); }
  int max_in_flight() const { return max_in_flight_; }

 private:
  struct Slot {
    Task task;                         // moved into the pool closure when started
    std::optional<Result<T>> result;   // written under State::mutex by the task's thread
  };
  struct State {
    std::mutex mutex;
    std::condition_variable finished;  // a task stored its result
    int running = 0;                   // started, result not stored yet
  };

  void StartWhileRoom() {
    if (pool_ == nullptr) return;
    while (num_started_ < slots_.size() && num_started_ < static_cast<size_t>(max_in_flight_)) {
      Slot* slot = slots_[num_started_].get();
      ++num_started_;
      {
        std::lock_guard<std::mutex> lock(state_->mutex);
        ++state_->running;
      }
      pool_->Submit([state = state_, slot, task = std::move(slot->task)]() mutable {
        Result<T> result = task();
        task = nullptr;  // release the task's captures before the consumer can see the result
        std::lock_guard<std::mutex> lock(state->mutex);
        slot->result.emplace(std::move(result));
        --state->running;
        state->finished.notify_all();
      });
    }
  }

  ThreadPool* pool_;
  int max_in_flight_;
  // Oldest first; slots_[0, num_started_) have been started (always a prefix). unique_ptr keeps
  // each slot where a running task writes its result.
  std::deque<std::unique_ptr<Slot>> slots_;
  size_t num_started_ = 0;
  std::shared_ptr<State> state_;
};

}  // namespace strata::exec
