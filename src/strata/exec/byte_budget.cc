#include "strata/exec/byte_budget.h"

#include "strata/exec/thread_pool.h"

namespace strata::exec {

ByteBudget::ByteBudget(int64_t limit_bytes, int max_items, Oversize oversize)
    : limit_bytes_(limit_bytes < 0 ? 0 : limit_bytes), max_items_(max_items < 1 ? 1 : max_items), oversize_(oversize) {}

bool ByteBudget::FitsLocked(int64_t bytes) const {
  if (held_items_ == 0 && oversize_ == Oversize::kAdmitAlone) return true;
  // held_bytes_ may pass the limit after an Adjust(); compared this way round nothing overflows.
  return held_items_ < max_items_ && held_bytes_ <= limit_bytes_ && bytes <= limit_bytes_ - held_bytes_;
}

bool ByteBudget::TryAcquire(int64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!FitsLocked(bytes)) return false;
  held_bytes_ += bytes;
  ++held_items_;
  return true;
}

bool ByteBudget::Acquire(int64_t bytes, ThreadPool* pool, const std::function<bool()>& cancelled) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto may_go = [&] { return (cancelled && cancelled()) || FitsLocked(bytes); };
  while (!may_go()) {
    // A pool worker runs queued tasks meanwhile (one of them may be what releases bytes);
    // another thread only waits.
    lock.unlock();
    const bool ran = pool != nullptr && pool->HelpWhileWaiting();
    lock.lock();
    if (!ran) released_.wait(lock, may_go);
  }
  if (cancelled && cancelled()) return false;
  held_bytes_ += bytes;
  ++held_items_;
  return true;
}

void ByteBudget::Release(int64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_bytes_ -= bytes;
    --held_items_;
  }
  released_.notify_all();
}

void ByteBudget::Adjust(int64_t from, int64_t to) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    held_bytes_ += to - from;
  }
  if (to < from) released_.notify_all();
}

int64_t ByteBudget::held_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_bytes_;
}

int ByteBudget::held_items() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return held_items_;
}

}  // namespace strata::exec
