// MemoryPool: every byte strata allocates goes through one of these, so that bytes in use,
// peak, total and allocation counts are exact and a limit can be enforced. The pool is
// passed explicitly to whatever allocates; the library holds no hidden global default.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>

#include "strata/util/result.h"

namespace strata {

// A snapshot of a pool's counters. All sizes are in bytes.
struct MemoryStats {
  int64_t bytes_in_use = 0;       // allocated and not yet freed
  int64_t peak_bytes = 0;         // highest bytes_in_use since creation or ResetPeak()
  int64_t total_bytes_allocated = 0;  // sum of allocation sizes plus growth by reallocation
  int64_t num_allocations = 0;    // successful Allocate() calls of a non-zero size
  int64_t num_reallocations = 0;  // successful Reallocate() calls that changed the size
  int64_t num_frees = 0;          // Free() calls of a non-zero size
  // The part of bytes_in_use that is charged memory (see Charge): heap memory counted here
  // but not allocated by this pool. Charges are not counted as allocations or frees.
  int64_t charged_bytes_in_use = 0;
  // Freed memory the backend keeps mapped for reuse (not part of bytes_in_use); see
  // MemoryPool::ReleaseRetained.
  int64_t retained_bytes = 0;
};

class MemoryPool {
 public:
  // Every non-empty allocation is aligned to this many bytes (the Arrow layout requires 8,
  // recommends 64 for SIMD).
  static constexpr int64_t kAlignment = 64;

  virtual ~MemoryPool() = default;
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // Allocates `size` bytes, 64-byte aligned, uninitialised. A zero size yields a shared
  // aligned sentinel that must still be passed to Free() with size 0. Fails with OutOfMemory
  // when the backend refuses or the limit would be exceeded.
  Status Allocate(int64_t size, uint8_t** out);
  // Resizes an allocation made by this pool; contents up to min(old, new) are kept. On error
  // *ptr is left untouched and still owned by the caller.
  Status Reallocate(int64_t old_size, int64_t new_size, uint8_t** ptr);
  // Frees an allocation of `size` bytes made by this pool.
  void Free(uint8_t* ptr, int64_t size);

  // Charges: memory the C++ heap holds for strata (footer metadata in std::vector/std::string)
  // counted here as if allocated, so peak and limit cover it. A charge adds to bytes_in_use,
  // peak_bytes and total_bytes_allocated, and is refused with OutOfMemory past the limit
  // exactly as Allocate is (changing nothing); it is not counted in num_allocations. Prefer the
  // RAII MemoryCharge (memory_charge.h), which releases what it charged.
  Status Charge(int64_t bytes);
  // Gives back `bytes` charged earlier.
  void ReleaseCharge(int64_t bytes);

  MemoryStats stats() const;
  int64_t bytes_in_use() const { return bytes_in_use_.load(std::memory_order_relaxed); }
  int64_t peak_bytes() const { return peak_bytes_.load(std::memory_order_relaxed); }
  int64_t total_bytes_allocated() const { return total_bytes_.load(std::memory_order_relaxed); }
  int64_t num_allocations() const { return num_allocations_.load(std::memory_order_relaxed); }
  int64_t num_reallocations() const { return num_reallocations_.load(std::memory_order_relaxed); }
  int64_t charged_bytes() const { return charged_bytes_.load(std::memory_order_relaxed); }

  // Sets the peak to the current bytes in use, so a region's own peak can be measured.
  void ResetPeak();

  // At most `bytes` may be in use at once; 0 or less means no limit. An allocation that would
  // pass it fails with OutOfMemory and changes nothing.
  void set_limit(int64_t bytes) { limit_.store(bytes, std::memory_order_relaxed); }
  int64_t limit() const { return limit_.load(std::memory_order_relaxed); }

  // "system", "jemalloc", "mimalloc", ...
  virtual std::string_view backend_name() const = 0;

  // Freed memory the backend still holds for reuse: the system pool keeps up to four freed
  // blocks of 8 MiB or more, so that a scan's next row group does not fault in and zero its
  // pages again. ReleaseRetained() gives them back to the system.
  virtual int64_t retained_bytes() const { return 0; }
  virtual void ReleaseRetained() {}

 protected:
  MemoryPool() = default;
  // Backends return nullptr on failure; `size` is never 0.
  virtual uint8_t* AllocateAligned(int64_t size) = 0;
  virtual uint8_t* ReallocateAligned(uint8_t* ptr, int64_t old_size, int64_t new_size) = 0;
  virtual void FreeAligned(uint8_t* ptr, int64_t size) = 0;

 private:
  // Reserves `delta` bytes against the limit; false when it would be exceeded.
  bool ReserveBytes(int64_t delta);
  void UpdatePeak(int64_t in_use);

  std::atomic<int64_t> bytes_in_use_{0};
  std::atomic<int64_t> peak_bytes_{0};
  std::atomic<int64_t> total_bytes_{0};
  std::atomic<int64_t> num_allocations_{0};
  std::atomic<int64_t> num_reallocations_{0};
  std::atomic<int64_t> num_frees_{0};
  std::atomic<int64_t> limit_{0};
  std::atomic<int64_t> charged_bytes_{0};
};

// A pool on the system allocator (posix_memalign / free).
std::unique_ptr<MemoryPool> MakeSystemMemoryPool();

// A process-wide system pool for the command-line tool, tests and benchmarks. The library
// itself never reaches for it: callers pass a pool.
MemoryPool* SystemMemoryPool();

}  // namespace strata
