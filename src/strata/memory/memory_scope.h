// MemoryScope: measures what a region of code did to a pool (bytes allocated, allocation and
// reallocation counts, its own peak). Used by tests and benchmarks to turn memory claims
// into numbers.
#pragma once

#include "strata/memory/memory_pool.h"

namespace strata {

struct MemoryDelta {
  int64_t bytes_allocated = 0;    // total bytes allocated in the region
  int64_t num_allocations = 0;
  int64_t num_reallocations = 0;
  int64_t peak_bytes = 0;         // the pool's highest bytes in use during the region
  int64_t peak_above_start = 0;   // peak_bytes minus bytes in use when the region began
  int64_t bytes_in_use_change = 0;
};

class MemoryScope {
 public:
  // Resets the pool's peak: the pool's peak counter then describes this region. Not for
  // regions that overlap on the same pool.
  explicit MemoryScope(MemoryPool* pool) : pool_(pool) {
    pool_->ResetPeak();
    start_ = pool_->stats();
  }

  MemoryDelta delta() const {
    const MemoryStats now = pool_->stats();
    MemoryDelta d;
    d.bytes_allocated = now.total_bytes_allocated - start_.total_bytes_allocated;
    d.num_allocations = now.num_allocations - start_.num_allocations;
    d.num_reallocations = now.num_reallocations - start_.num_reallocations;
    d.peak_bytes = now.peak_bytes;
    d.peak_above_start = now.peak_bytes - start_.bytes_in_use;
    d.bytes_in_use_change = now.bytes_in_use - start_.bytes_in_use;
    return d;
  }

 private:
  MemoryPool* pool_;
  MemoryStats start_;
};

}  // namespace strata
