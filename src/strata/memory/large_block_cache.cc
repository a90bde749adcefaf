#include "strata/memory/large_block_cache.h"

#include <cstring>

#include <sys/mman.h>

namespace strata {
namespace {

int64_t RoundUp(int64_t n, int64_t multiple) { return (n + multiple - 1) / multiple * multiple; }

}  // namespace

LargeBlockCache::~LargeBlockCache() { Release(); }

uint8_t* LargeBlockCache::Map(int64_t mapped_bytes) {
  // Over-map by one huge page and trim both ends, so the block starts on a 2 MiB boundary and
  // the kernel can back all of it with huge pages.
  const size_t over = static_cast<size_t>(mapped_bytes + kHugePageBytes);
  void* raw = mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t base = (start + kHugePageBytes - 1) & ~static_cast<uintptr_t>(kHugePageBytes - 1);
  const size_t head = base - start;
  const size_t tail = over - head - static_cast<size_t>(mapped_bytes);
  if (head > 0) munmap(raw, head);
  if (tail > 0) munmap(reinterpret_cast<void*>(base + static_cast<uintptr_t>(mapped_bytes)), tail);
  // Where THP is "madvise" or "always" this cuts the page faults 512-fold; elsewhere it fails
  // and nothing changes.
  (void)madvise(reinterpret_cast<void*>(base), static_cast<size_t>(mapped_bytes), MADV_HUGEPAGE);
  auto* block = reinterpret_cast<uint8_t*>(base);
  std::memcpy(block, &mapped_bytes, sizeof mapped_bytes);
  return block;
}

int64_t LargeBlockCache::MappedBytes(const uint8_t* base) {
  int64_t mapped_bytes;
  std::memcpy(&mapped_bytes, base, sizeof mapped_bytes);
  return mapped_bytes;
}

void LargeBlockCache::Unmap(uint8_t* base) { munmap(base, static_cast<size_t>(MappedBytes(base))); }

int64_t LargeBlockCache::Capacity(const uint8_t* ptr) { return MappedBytes(ptr - kHeaderBytes) - kHeaderBytes; }

uint8_t* LargeBlockCache::Allocate(int64_t size) {
  const int64_t needed = RoundUp(size + kHeaderBytes, kHugePageBytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Best fit among the kept blocks, wasting at most a quarter of the request.
    int best = -1;
    for (int i = 0; i < num_kept_; ++i) {
      const int64_t mapped = MappedBytes(kept_[i]);
      if (mapped < needed || mapped - needed > needed / 4) continue;
      if (best < 0 || mapped < MappedBytes(kept_[best])) best = i;
    }
    if (best >= 0) {
      uint8_t* base = kept_[best];
      kept_bytes_ -= MappedBytes(base);
      kept_[best] = kept_[--num_kept_];
      return base + kHeaderBytes;
    }
    // A miss: what is kept goes back first, so the new mapping never stacks on idle ones.
    ReleaseLocked();
  }
  uint8_t* base = Map(needed);
  return base == nullptr ? nullptr : base + kHeaderBytes;
}

void LargeBlockCache::Free(uint8_t* ptr) {
  uint8_t* base = ptr - kHeaderBytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (num_kept_ < kMaxBlocks) {
      kept_[num_kept_++] = base;
      kept_bytes_ += MappedBytes(base);
      return;
    }
  }
  Unmap(base);
}

void LargeBlockCache::Release() {
  std::lock_guard<std::mutex> lock(mutex_);
  ReleaseLocked();
}

void LargeBlockCache::ReleaseLocked() {
  for (int i = 0; i < num_kept_; ++i) Unmap(kept_[i]);
  num_kept_ = 0;
  kept_bytes_ = 0;
}

int64_t LargeBlockCache::retained_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return kept_bytes_;
}

int LargeBlockCache::num_retained() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return num_kept_;
}

}  // namespace strata
