#include "strata/memory/memory_pool.h"

#include <cstdlib>
#include <algorithm>
#include <cstring>

#include "strata/memory/large_block_cache.h"

namespace strata {
namespace {

// Zero-size allocations all point here; it is never written and never freed.
alignas(MemoryPool::kAlignment) uint8_t zero_size_area[1];

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer tracks only malloc's blocks: large ones stay with malloc there.
constexpr bool kUseLargeBlockCache = false;
#else
constexpr bool kUseLargeBlockCache = true;
#endif

class SystemAllocatorPool final : public MemoryPool {
 public:
  std::string_view backend_name() const override { return "system"; }
  int64_t retained_bytes() const override { return large_blocks_.retained_bytes(); }
  void ReleaseRetained() override { large_blocks_.Release(); }

 protected:
  uint8_t* AllocateAligned(int64_t size) override {
    if (IsLarge(size)) return large_blocks_.Allocate(size);
    void* p = nullptr;
    if (posix_memalign(&p, kAlignment, static_cast<size_t>(size)) != 0) return nullptr;
    return static_cast<uint8_t*>(p);
  }
  uint8_t* ReallocateAligned(uint8_t* ptr, int64_t old_size, int64_t new_size) override {
    // A large block grows or shrinks in place while its mapping holds it.
    if (IsLarge(old_size) && IsLarge(new_size) && new_size <= LargeBlockCache::Capacity(ptr)) return ptr;
    // glibc has no aligned realloc, and realloc() may return 16-byte aligned memory; moving
    // by hand keeps the caller's block valid when the new allocation fails.
    uint8_t* moved = AllocateAligned(new_size);
    if (moved == nullptr) return nullptr;
    std::memcpy(moved, ptr, static_cast<size_t>(std::min(old_size, new_size)));
    FreeAligned(ptr, old_size);
    return moved;
  }
  void FreeAligned(uint8_t* ptr, int64_t size) override {
    if (IsLarge(size)) {
      large_blocks_.Free(ptr);
    } else {
      std::free(ptr);
    }
  }

 private:
  static bool IsLarge(int64_t size) { return kUseLargeBlockCache && size >= LargeBlockCache::kMinBlockBytes; }

  // Blocks of 8 MiB and more (see large_block_cache.h for why and for its bounds).
  LargeBlockCache large_blocks_;
};

}  // namespace

bool MemoryPool::ReserveBytes(int64_t delta) {
  const int64_t limit = limit_.load(std::memory_order_relaxed);
  const int64_t in_use = bytes_in_use_.fetch_add(delta, std::memory_order_relaxed) + delta;
  if (limit > 0 && delta > 0 && in_use > limit) {
    bytes_in_use_.fetch_sub(delta, std::memory_order_relaxed);
    return false;
  }
  UpdatePeak(in_use);
  return true;
}

void MemoryPool::UpdatePeak(int64_t in_use) {
  int64_t peak = peak_bytes_.load(std::memory_order_relaxed);
  while (in_use > peak &&
         !peak_bytes_.compare_exchange_weak(peak, in_use, std::memory_order_relaxed)) {
  }
}

Status MemoryPool::Allocate(int64_t size, uint8_t** out) {
  if (size < 0) return Status::Invalid("negative allocation size {}", size);
  if (size == 0) {
    *out = zero_size_area;
    return Status::OK();
  }
  if (!ReserveBytes(size)) {
    return Status::OutOfMemory("allocation of {} bytes exceeds the memory limit of {} bytes ({} in use)",
                               size, limit(), bytes_in_use());
  }
  uint8_t* p = AllocateAligned(size);
  if (p == nullptr) {
    bytes_in_use_.fetch_sub(size, std::memory_order_relaxed);
    return Status::OutOfMemory("{} allocator failed to allocate {} bytes", backend_name(), size);
  }
  total_bytes_.fetch_add(size, std::memory_order_relaxed);
  num_allocations_.fetch_add(1, std::memory_order_relaxed);
  *out = p;
  return Status::OK();
}

Status MemoryPool::Reallocate(int64_t old_size, int64_t new_size, uint8_t** ptr) {
  if (old_size < 0 || new_size < 0) {
    return Status::Invalid("negative reallocation size {} -> {}", old_size, new_size);
  }
  if (old_size == new_size) return Status::OK();
  if (old_size == 0) return Allocate(new_size, ptr);
  if (new_size == 0) {
    Free(*ptr, old_size);
    *ptr = zero_size_area;
    return Status::OK();
  }
  const int64_t delta = new_size - old_size;
  if (!ReserveBytes(delta)) {
    return Status::OutOfMemory(
        "reallocation from {} to {} bytes exceeds the memory limit of {} bytes ({} in use)",
        old_size, new_size, limit(), bytes_in_use());
  }
  uint8_t* p = ReallocateAligned(*ptr, old_size, new_size);
  if (p == nullptr) {
    bytes_in_use_.fetch_sub(delta, std::memory_order_relaxed);
    return Status::OutOfMemory("{} allocator failed to reallocate {} to {} bytes", backend_name(),
                               old_size, new_size);
  }
  if (delta > 0) total_bytes_.fetch_add(delta, std::memory_order_relaxed);
  num_reallocations_.fetch_add(1, std::memory_order_relaxed);
  *ptr = p;
  return Status::OK();
}

Status MemoryPool::Charge(int64_t bytes) {
  if (bytes < 0) return Status::Invalid("negative memory charge {}", bytes);
  if (bytes == 0) return Status::OK();
  if (!ReserveBytes(bytes)) {
    return Status::OutOfMemory("allocation of {} bytes exceeds the memory limit of {} bytes ({} in use)",
                               bytes, limit(), bytes_in_use());
  }
  total_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  charged_bytes_.fetch_add(bytes, std::memory_order_relaxed);
  return Status::OK();
}

void MemoryPool::ReleaseCharge(int64_t bytes) {
  if (bytes <= 0) return;
  bytes_in_use_.fetch_sub(bytes, std::memory_order_relaxed);
  charged_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
}

void MemoryPool::Free(uint8_t* ptr, int64_t size) {
  if (size == 0 || ptr == zero_size_area) return;
  FreeAligned(ptr, size);
  bytes_in_use_.fetch_sub(size, std::memory_order_relaxed);
  num_frees_.fetch_add(1, std::memory_order_relaxed);
}

MemoryStats MemoryPool::stats() const {
  MemoryStats s;
  s.bytes_in_use = bytes_in_use();
  s.peak_bytes = peak_bytes();
  s.total_bytes_allocated = total_bytes_allocated();
  s.num_allocations = num_allocations();
  s.num_reallocations = num_reallocations();
  s.num_frees = num_frees_.load(std::memory_order_relaxed);
  s.charged_bytes_in_use = charged_bytes();
  s.retained_bytes = retained_bytes();
  return s;
}

void MemoryPool::ResetPeak() { peak_bytes_.store(bytes_in_use(), std::memory_order_relaxed); }

std::unique_ptr<MemoryPool> MakeSystemMemoryPool() { return std::make_unique<SystemAllocatorPool>(); }

MemoryPool* SystemMemoryPool() {
  static std::unique_ptr<MemoryPool> pool = MakeSystemMemoryPool();
  return pool.get();
}

}  // namespace strata
