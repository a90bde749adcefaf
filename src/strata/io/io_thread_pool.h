// IoThreadPool: a small fixed set of threads that run blocking I/O tasks (range fetches) in
// FIFO order. Deliberately minimal: no futures, no work stealing; tasks report through the
// state they capture.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace strata {

class IoThreadPool {
 public:
  // Starts `num_threads` threads (at least 1).
  explicit IoThreadPool(int num_threads);
  // Runs every task already submitted, then joins the threads.
  ~IoThreadPool();
  IoThreadPool(const IoThreadPool&) = delete;
  IoThreadPool& operator=(const IoThreadPool&) = delete;

  // Queues `task`; it runs on one of the pool's threads. Tasks must not throw.
  void Submit(std::function<void()> task);

  int num_threads() const { return static_cast<int>(threads_.size()); }

 private:
  void WorkerLoop();

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace strata
