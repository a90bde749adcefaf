#include "strata/memory/large_block_cache.h"

#include <cstring>

#include <sys/mman.h>

namespace strata {
namespace {

int64_t RoundUp(int64_t n, int64_t multiple) { return (n + multiple - 1) / multiple * multiple; }

}  // namespace

LargeBlockCache::~LargeBlockCache() { Release(); }

uint8_t* LargeBlockCache::Map(int64_t mapped_bytes) {
  // No MADV_HUGEPAGE: where THP defrag is "madvise" (Debian's default) an advised fault may
  // compact memory synchronously, and after the peers' runs had fragmented it the large binary
  // scan took 0.6-0.8 s instead of 0.2 s in one run of three; 4 KiB pages, faulted only in the
  // first row group, gave 0.25-0.28 s every time.
  void* raw =
      mmap(nullptr, static_cast<size_t>(mapped_bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  auto* block = static_cast<uint8_t*>(raw);
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
  const int64_t needed = RoundUp(size + kHeaderBytes, kMappingGrain);
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
