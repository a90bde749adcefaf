// MemoryCharge: memory the C++ heap holds for strata (footer metadata kept in std::vector and
// std::string) accounted in a MemoryPool, so the pool's bytes in use, peak and limit cover it.
// The charge is an estimate the owner keeps true (Grow before allocating, Resize to the exact
// size after); the bytes themselves are allocated by operator new, not by the pool.
#pragma once

#include <cstdint>

#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata {

class MemoryCharge {
 public:
  // Charges nothing and has no pool: Grow and Resize succeed and count nowhere.
  MemoryCharge() = default;
  // Charges nothing yet against `pool` (nullptr: nowhere).
  explicit MemoryCharge(MemoryPool* pool) : pool_(pool) {}
  // Charges `bytes` against `pool`; OutOfMemory past the pool's limit.
  static Result<MemoryCharge> Make(MemoryPool* pool, int64_t bytes);

  ~MemoryCharge() { Release(); }
  MemoryCharge(const MemoryCharge&) = delete;
  MemoryCharge& operator=(const MemoryCharge&) = delete;
  MemoryCharge(MemoryCharge&& other) noexcept : pool_(other.pool_), bytes_(other.bytes_) { other.bytes_ = 0; }
  // Releases this charge, then takes over `other`'s.
  MemoryCharge& operator=(MemoryCharge&& other) noexcept;

  // Adds `delta` (>= 0) bytes; on OutOfMemory the charge is unchanged. Call before the heap
  // allocation it stands for, so a limit refuses it first.
  Status Grow(int64_t delta);
  // Sets the charge to `total` bytes (>= 0), growing or shrinking: the true-up once the exact
  // size is known. Growing past the limit fails and changes nothing.
  Status Resize(int64_t total);
  // Gives every charged byte back to the pool.
  void Release();

  MemoryPool* pool() const { return pool_; }
  int64_t bytes() const { return bytes_; }

 private:
  MemoryPool* pool_ = nullptr;
  int64_t bytes_ = 0;
};

}  // namespace strata
