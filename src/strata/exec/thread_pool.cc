#include "strata/exec/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <system_error>

namespace strata::exec {
namespace {

// The pool whose worker is the current thread, if any (set once when a worker starts).
thread_local const ThreadPool* current_worker_pool = nullptr;

}  // namespace

Result<std::unique_ptr<ThreadPool>> ThreadPool::Make(int threads) {
  if (threads < 1) {
    return Status::Invalid("a thread pool needs at least 1 thread, got {}", threads);
  }
  std::unique_ptr<ThreadPool> pool(new ThreadPool());
  STRATA_RETURN_NOT_OK(pool->StartWorkers(threads));
  return pool;
}

Status ThreadPool::StartWorkers(int threads) {
  workers_.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) {
    // std::thread reports failure only by throwing; turn it into a Status here, the one place
    // it can happen. The destructor then joins the workers already started.
    try {
      workers_.emplace_back([this] { WorkerLoop(); });
    } catch (const std::system_error& error) {
      return Status::IOError("could not start thread {} of a {}-thread pool: {}", i + 1, threads,
                             error.what());
    }
  }
  return Status::OK();
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_available_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Submit(MoveOnlyTask task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(task));
  }
  work_available_.notify_one();
}

bool ThreadPool::RunOneIfQueued() {
  MoveOnlyTask task;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (queue_.empty()) return false;
    task = std::move(queue_.front());
    queue_.pop_front();
  }
  task();
  return true;
}

bool ThreadPool::OnWorkerThread() const { return current_worker_pool == this; }

int64_t ThreadPool::num_queued() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(queue_.size());
}

void ThreadPool::WorkerLoop() {
  current_worker_pool = this;
  for (;;) {
    MoveOnlyTask task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_available_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      // Drain before stopping: a queued task may be what some TaskGroup is waiting for.
      if (queue_.empty()) return;
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

int UsableCores() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0) {
    return std::max(1, CPU_COUNT(&mask));
  }
  // Only on machines with more CPUs than a cpu_set_t holds (1024): fall back to the count of
  // online CPUs.
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

}  // namespace strata::exec
