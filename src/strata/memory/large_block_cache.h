// LargeBlockCache: the system pool's blocks of 8 MiB and more, mapped by hand and kept after
// they are freed, so that the next block of about the same size reuses their pages.
//
// Why: glibc maps blocks above its mmap threshold afresh and unmaps them on free, so each one
// pays the kernel's page faults and zeroing again. A scan of a file whose row groups hold one 70 MB
// page (bench/data/large_binary.parquet: 4 row groups) mapped ~220 MB per row group and spent
// three quarters of its time in the kernel zeroing pages.
//
// Bounds: at most kMaxBlocks blocks are kept, and a request that none of them fits empties
// the cache before it maps a new block. So every kept block was live at the last fresh
// mapping: kept plus live large blocks never exceed the large blocks live at that moment (plus
// the fit slack of a quarter); what the cache adds to a peak is large blocks idle while small
// allocations peak. Release() unmaps what is kept. (The system pool does not use it under AddressSanitizer, which tracks
// only malloc's blocks.)
#pragma once

#include <cstdint>
#include <mutex>

namespace strata {

class LargeBlockCache {
 public:
  static constexpr int64_t kMinBlockBytes = int64_t{8} << 20;
  static constexpr int kMaxBlocks = 4;
  // Every block's pointer is aligned to this many bytes.
  static constexpr int64_t kAlignment = 64;

  LargeBlockCache() = default;
  ~LargeBlockCache();
  LargeBlockCache(const LargeBlockCache&) = delete;
  LargeBlockCache& operator=(const LargeBlockCache&) = delete;

  // A block of at least `size` (>= kMinBlockBytes) bytes, reused or freshly mapped; nullptr
  // when the system refuses.
  uint8_t* Allocate(int64_t size);
  // Takes back a block from Allocate.
  void Free(uint8_t* ptr);
  // How many bytes the block at `ptr` (from Allocate) can hold: a block may grow or shrink in
  // place up to this.
  static int64_t Capacity(const uint8_t* ptr);
  // Unmaps every kept block.
  void Release();
  int64_t retained_bytes() const;
  int num_retained() const;

 private:
  // Bytes before the caller's pointer that record the mapping's size.
  static constexpr int64_t kHeaderBytes = 64;
  // Mappings are sized in steps of this, so that blocks of nearly the same size fit each other.
  static constexpr int64_t kMappingGrain = int64_t{1} << 20;

  // A fresh mapping of `mapped_bytes` (a multiple of kMappingGrain), or nullptr.
  static uint8_t* Map(int64_t mapped_bytes);
  static void Unmap(uint8_t* base);
  static int64_t MappedBytes(const uint8_t* base);
  void ReleaseLocked();

  mutable std::mutex mutex_;
  uint8_t* kept_[kMaxBlocks] = {};  // bases of kept mappings
  int num_kept_ = 0;
  int64_t kept_bytes_ = 0;
};

}  // namespace strata
