#include "strata/codec/pool_allocator.h"

#include <cstring>
#include <limits>

namespace strata::codec {
namespace {
constexpr int64_t kHeaderBytes = MemoryPool::kAlignment;
}  // namespace

void* PoolAllocator::Allocate(size_t size) {
  if (size > static_cast<size_t>(std::numeric_limits<int64_t>::max() - kHeaderBytes)) {
    allocation_failed_ = true;
    failure_ = Status::OutOfMemory("the library asked for {} bytes", size);
    return nullptr;
  }
  const int64_t total = static_cast<int64_t>(size) + kHeaderBytes;
  uint8_t* block = nullptr;
  Status allocated = pool_->Allocate(total, &block);
  if (!allocated.ok()) {
    allocation_failed_ = true;
    failure_ = std::move(allocated);
    return nullptr;
  }
  std::memcpy(block, &total, sizeof(total));
  bytes_in_use_ += total;
  return block + kHeaderBytes;
}

Status PoolAllocator::OutOfMemoryError(std::string_view what) const {
  if (!failure_.ok()) return failure_.WithContext(what);
  return Status::OutOfMemory("{}: the library failed to allocate memory (the pool refused nothing)", what);
}

void PoolAllocator::Free(void* address) {
  if (address == nullptr) return;
  uint8_t* block = static_cast<uint8_t*>(address) - kHeaderBytes;
  int64_t total;
  std::memcpy(&total, block, sizeof(total));
  bytes_in_use_ -= total;
  pool_->Free(block, total);
}

void* PoolAllocator::AllocCallback(void* opaque, size_t size) {
  return static_cast<PoolAllocator*>(opaque)->Allocate(size);
}

void* PoolAllocator::ZlibAllocCallback(void* opaque, unsigned items, unsigned size) {
  // Both factors are 32-bit, so the product fits in 64 bits.
  return static_cast<PoolAllocator*>(opaque)->Allocate(static_cast<size_t>(items) * size);
}

void PoolAllocator::FreeCallback(void* opaque, void* address) {
  static_cast<PoolAllocator*>(opaque)->Free(address);
}

}  // namespace strata::codec
