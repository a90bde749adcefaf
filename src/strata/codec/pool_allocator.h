// PoolAllocator: routes the internal allocations of C compression libraries (zlib, zstd,
// brotli) to a MemoryPool, so their contexts and windows count against the pool and its limit.
// Internal to the codec layer.
#pragma once

#include <cstddef>
#include <cstdint>

#include <string_view>

#include "strata/memory/memory_pool.h"
#include "strata/util/status.h"

namespace strata::codec {

// The libraries' free callbacks pass no size, but MemoryPool::Free needs one: each block
// carries a 64-byte header holding its size (64 keeps the pool's alignment for the caller).
class PoolAllocator {
 public:
  explicit PoolAllocator(MemoryPool* pool) : pool_(pool) {}
  PoolAllocator(const PoolAllocator&) = delete;
  PoolAllocator& operator=(const PoolAllocator&) = delete;

  // nullptr when the pool refuses (the libraries then report an allocation error).
  void* Allocate(size_t size);
  void Free(void* address);

  MemoryPool* pool() const { return pool_; }
  // Bytes handed out and not yet freed, headers included.
  int64_t bytes_in_use() const { return bytes_in_use_; }
  // True when the most recent Allocate() was refused: lets a codec report OutOfMemory rather
  // than the library's generic error.
  bool allocation_failed() const { return allocation_failed_; }
  void clear_allocation_failed() {
    allocation_failed_ = false;
    failure_ = Status::OK();
  }
  // The OutOfMemory a codec returns when its library failed to allocate: the pool's own
  // message (the limit, bytes in use, the size asked) behind `what` ("ZSTD decompression"),
  // or, when the pool was never asked, that the library itself failed.
  Status OutOfMemoryError(std::string_view what) const;

  // C callbacks, `opaque` being the PoolAllocator.
  static void* AllocCallback(void* opaque, size_t size);
  static void* ZlibAllocCallback(void* opaque, unsigned items, unsigned size);
  static void FreeCallback(void* opaque, void* address);

 private:
  MemoryPool* pool_;
  int64_t bytes_in_use_ = 0;
  bool allocation_failed_ = false;
  Status failure_;  // the pool's refusal behind allocation_failed_
};

}  // namespace strata::codec
