// ByteBudget: admission of work by the bytes it will hold (strata's execution layer). One
// read-ahead idea, used by the Parquet reader's row-group read-ahead (BatchReader::ReadAhead),
// its row groups decoded at once (BatchReader::ForEachBatch) and the dataset's files open at
// once: an item is admitted while the admitted items hold, with it, at most the budget's bytes
// (and, optionally, while fewer than a number of items are admitted).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>

namespace strata::exec {

class ThreadPool;

class ByteBudget {
 public:
  // What happens to an item larger than the room the budget can ever give it.
  enum class Oversize {
    // Admitted alone, when nothing else is held: work that must be done (a row group to
    // decode, a file to read) always makes progress, at the memory of that one item.
    kAdmitAlone,
    // Never admitted: the budget never goes past its bytes. For optional work (reading ahead)
    // that is done anyway when it is reached.
    kRefuse,
  };
  static constexpr int kNoItemLimit = std::numeric_limits<int>::max();

  // `limit_bytes` >= 0; `max_items` >= 1 (admitted items at once, whatever their bytes).
  explicit ByteBudget(int64_t limit_bytes, int max_items = kNoItemLimit, Oversize oversize = Oversize::kAdmitAlone);
  ByteBudget(const ByteBudget&) = delete;
  ByteBudget& operator=(const ByteBudget&) = delete;

  // Admits an item of `bytes` (>= 0) if fewer than max_items are admitted and the held bytes
  // plus `bytes` are at most limit_bytes; with kAdmitAlone also when no item is admitted,
  // whatever its size. True if admitted: the caller then owes a Release().
  bool TryAcquire(int64_t bytes);

  // Waits until TryAcquire(bytes) admits the item (true), or until `cancelled` (if given)
  // returns true (false: nothing admitted). `cancelled` is asked first and again whenever an
  // item is released, under the budget's lock: it must not call the budget, and a change it
  // sees must come with a Release() (or it is seen at the next one). Meanwhile a worker of
  // `pool` (if given) runs that pool's queued tasks instead of blocking
  // (ThreadPool::HelpWhileWaiting), so work admitted from a pool task cannot stall the pool.
  // With kRefuse an item that can never fit waits for `cancelled` only.
  bool Acquire(int64_t bytes, ThreadPool* pool = nullptr, const std::function<bool()>& cancelled = nullptr);

  // Returns an admitted item of `bytes` (as admitted, or as last Adjust()ed), and wakes the
  // threads waiting in Acquire().
  void Release(int64_t bytes);

  // An admitted item now holds `to` bytes instead of `from` (an estimate replaced by the real
  // figure). Never refused: the held bytes may pass the limit, and then nothing more is
  // admitted (kAdmitAlone: beside another item) until releases bring them back under it.
  void Adjust(int64_t from, int64_t to);

  int64_t limit_bytes() const { return limit_bytes_; }
  int max_items() const { return max_items_; }
  // Snapshots, for tests and diagnostics.
  int64_t held_bytes() const;
  int held_items() const;

 private:
  bool FitsLocked(int64_t bytes) const;

  const int64_t limit_bytes_;
  const int max_items_;
  const Oversize oversize_;
  mutable std::mutex mutex_;
  std::condition_variable released_;
  int64_t held_bytes_ = 0;
  int held_items_ = 0;
};

}  // namespace strata::exec
