// Buffer: a contiguous byte range, immutable once shared. ResizableBuffer: the pool-owned,
// growable buffer that builders and decoders fill. Arrays hold shared_ptr<Buffer>.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata {

class Buffer {
 public:
  // A view of memory the caller keeps alive for the Buffer's lifetime (no ownership).
  Buffer(const uint8_t* data, int64_t size) : data_(data), size_(size), capacity_(size) {}
  // A view of a string's bytes; the string must outlive the Buffer.
  explicit Buffer(std::string_view bytes)
      : Buffer(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int64_t>(bytes.size())) {}
  virtual ~Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  // A view of bytes [offset, offset + length) of `parent` that keeps `parent` alive.
  // The range must lie inside the parent.
  static std::shared_ptr<Buffer> Slice(std::shared_ptr<Buffer> parent, int64_t offset, int64_t length);

  const uint8_t* data() const { return data_; }
  // Writable pointer, or nullptr for buffers that do not own writable memory.
  uint8_t* mutable_data() { return mutable_data_; }
  int64_t size() const { return size_; }
  int64_t capacity() const { return capacity_; }
  std::span<const uint8_t> span() const { return {data_, static_cast<size_t>(size_)}; }
  std::string_view view() const { return {reinterpret_cast<const char*>(data_), static_cast<size_t>(size_)}; }
  const std::shared_ptr<Buffer>& parent() const { return parent_; }

  template <typename T>
  const T* data_as() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_data_as() { return reinterpret_cast<T*>(mutable_data_); }

  bool Equals(const Buffer& other) const {
    return size_ == other.size_ && (data_ == other.data_ || std::memcmp(data_, other.data_, size_) == 0);
  }

 protected:
  Buffer() = default;

  const uint8_t* data_ = nullptr;
  uint8_t* mutable_data_ = nullptr;
  int64_t size_ = 0;
  int64_t capacity_ = 0;
  std::shared_ptr<Buffer> parent_;
};

// Owns pool memory. Growth policy, in one place:
//  - Reserve(n) allocates only when n > capacity(), and then exactly n rounded up to 64 bytes;
//    no hidden extra. Readers that know the final size call it once.
//  - GrowForAppend(n) is for appends of unknown total size: when n > capacity() it grows to
//    max(n, 2 * capacity()) rounded up to 64 bytes (amortised doubling).
//  - Resize() never zero-fills; ResizeZeroed() zero-fills the added bytes (validity bitmaps
//    and offsets need defined bytes; values do not).
class ResizableBuffer final : public Buffer {
 public:
  explicit ResizableBuffer(MemoryPool* pool) : pool_(pool) {}
  ~ResizableBuffer() override;

  static Result<std::shared_ptr<ResizableBuffer>> Make(MemoryPool* pool, int64_t capacity = 0);

  MemoryPool* pool() const { return pool_; }

  Status Reserve(int64_t capacity);
  // For scratch whose contents are not needed any more: when `capacity` exceeds the current
  // one, frees first and then allocates exactly (no copy, never two blocks at once).
  Status ReserveDiscardingContents(int64_t capacity);
  // The same for scratch reused across pages whose sizes vary and are not known ahead: the
  // first use is exact, later growth doubles, so a page or two in it stops growing.
  Status ReserveScratch(int64_t capacity) {
    if (capacity <= capacity_) return Status::OK();
    return ReserveDiscardingContents(capacity_ == 0 ? capacity : std::max(capacity, 2 * capacity_));
  }
  Status GrowForAppend(int64_t min_capacity);
  // Sets size() to `size`, reserving exactly when needed; keeps the contents below `size`.
  Status Resize(int64_t size);
  Status ResizeZeroed(int64_t size);
  // Releases the capacity above size() (rounded to 64 bytes).
  Status ShrinkToFit();
  // Size 0, capacity kept: a builder or decoder reusing this buffer batch after batch.
  void Clear() { size_ = 0; }
  // Frees everything.
  void Release();

  // Appends without checking capacity: callers Reserve() first (hot loops).
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n == 0) return;  // the buffer may not be allocated yet: memcpy(nullptr, ...) is UB
    std::memcpy(mutable_data_ + size_, bytes, static_cast<size_t>(n));
    size_ += n;
  }
  Status Append(const void* bytes, int64_t n) {
    if (size_ + n > capacity_) STRATA_RETURN_NOT_OK(GrowForAppend(size_ + n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  void set_size(int64_t size) { size_ = size; }

 private:
  Status SetCapacity(int64_t new_capacity);
  MemoryPool* pool_;
};

inline constexpr int64_t RoundUpToMultipleOf64(int64_t n) { return (n + 63) & ~int64_t{63}; }

// Allocates a buffer of exactly `size` bytes (capacity rounded to 64), contents undefined.
Result<std::shared_ptr<ResizableBuffer>> AllocateBuffer(MemoryPool* pool, int64_t size);

}  // namespace strata
