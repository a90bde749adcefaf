#include "strata/memory/block_buffer.h"

#include <algorithm>
#include <cstring>

namespace strata {

Status BlockBuffer::Append(const void* data, int64_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const size_t block = static_cast<size_t>(size_ / block_bytes_);
    const int64_t at = size_ % block_bytes_;
    if (block == blocks_.size()) {
      auto fresh = std::make_unique<ResizableBuffer>(pool_);
      STRATA_RETURN_NOT_OK(fresh->Reserve(block_bytes_));
      blocks_.push_back(std::move(fresh));
    }
    const int64_t n = std::min(size, block_bytes_ - at);
    std::memcpy(blocks_[block]->mutable_data() + at, bytes, static_cast<size_t>(n));
    bytes += n;
    size -= n;
    size_ += n;
  }
  return Status::OK();
}

void BlockBuffer::Clear() { size_ = 0; }

void BlockBuffer::Release() {
  blocks_.clear();
  size_ = 0;
}

}  // namespace strata
