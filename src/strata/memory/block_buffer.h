// BlockBuffer: bytes appended into fixed-size pool blocks instead of one growing allocation.
// For data whose final size is not known and that is only read back in order (a writer's
// encoded column chunk): growth never copies, never over-reserves by more than one block (a
// doubling buffer may hold twice what it needs), and Clear() keeps the blocks, so a second
// chunk of the same size allocates nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "strata/memory/buffer.h"

namespace strata {

class BlockBuffer {
 public:
  static constexpr int64_t kDefaultBlockBytes = 64 << 10;

  explicit BlockBuffer(MemoryPool* pool, int64_t block_bytes = kDefaultBlockBytes)
      : pool_(pool), block_bytes_(block_bytes) {}

  Status Append(const void* data, int64_t size);
  // Bytes appended since the last Clear().
  int64_t size() const { return size_; }
  // Empties the buffer; the blocks stay allocated for the next use.
  void Clear();
  // Frees every block.
  void Release();
  // Calls fn(std::span<const uint8_t>) for each filled piece, in order; stops at the first
  // non-OK Status and returns it.
  template <typename Fn>
  Status ForEachPiece(Fn&& fn) const {
    int64_t left = size_;
    for (const auto& block : blocks_) {
      if (left == 0) break;
      const int64_t n = std::min(left, block_bytes_);
      STRATA_RETURN_NOT_OK(fn(std::span<const uint8_t>(block->data(), static_cast<size_t>(n))));
      left -= n;
    }
    return Status::OK();
  }
  // Pool bytes held.
  int64_t capacity() const { return static_cast<int64_t>(blocks_.size()) * block_bytes_; }

 private:
  MemoryPool* pool_;
  int64_t block_bytes_;
  int64_t size_ = 0;
  std::vector<std::unique_ptr<ResizableBuffer>> blocks_;
};

}  // namespace strata
