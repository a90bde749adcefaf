#include "strata/memory/buffer.h"

#include <algorithm>

namespace strata {

std::shared_ptr<Buffer> Buffer::Slice(std::shared_ptr<Buffer> parent, int64_t offset, int64_t length) {
  auto slice = std::shared_ptr<Buffer>(new Buffer(parent->data() + offset, length));
  if (parent->mutable_data() != nullptr) slice->mutable_data_ = parent->mutable_data() + offset;
  slice->parent_ = std::move(parent);
  return slice;
}

ResizableBuffer::~ResizableBuffer() { Release(); }

void ResizableBuffer::Release() {
  if (capacity_ > 0) pool_->Free(mutable_data_, capacity_);
  mutable_data_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

Result<std::shared_ptr<ResizableBuffer>> ResizableBuffer::Make(MemoryPool* pool, int64_t capacity) {
  auto buffer = std::make_shared<ResizableBuffer>(pool);
  STRATA_RETURN_NOT_OK(buffer->Reserve(capacity));
  return buffer;
}

Status ResizableBuffer::SetCapacity(int64_t new_capacity) {
  uint8_t* p = mutable_data_;
  if (capacity_ == 0) {
    STRATA_RETURN_NOT_OK(pool_->Allocate(new_capacity, &p));
  } else {
    STRATA_RETURN_NOT_OK(pool_->Reallocate(capacity_, new_capacity, &p));
  }
  mutable_data_ = p;
  data_ = p;
  capacity_ = new_capacity;
  return Status::OK();
}

Status ResizableBuffer::Reserve(int64_t capacity) {
  if (capacity < 0) return Status::Invalid("negative buffer capacity {}", capacity);
  if (capacity <= capacity_) return Status::OK();
  return SetCapacity(RoundUpToMultipleOf64(capacity));
}

Status ResizableBuffer::ReserveDiscardingContents(int64_t capacity) {
  if (capacity <= capacity_) return Status::OK();
  Release();
  return Reserve(capacity);
}

Status ResizableBuffer::GrowForAppend(int64_t min_capacity) {
  if (min_capacity <= capacity_) return Status::OK();
  return SetCapacity(RoundUpToMultipleOf64(std::max(min_capacity, 2 * capacity_)));
}

Status ResizableBuffer::Resize(int64_t size) {
  STRATA_RETURN_NOT_OK(Reserve(size));
  size_ = size;
  return Status::OK();
}

Status ResizableBuffer::ResizeZeroed(int64_t size) {
  const int64_t old_size = size_;
  STRATA_RETURN_NOT_OK(Resize(size));
  if (size > old_size) std::memset(mutable_data_ + old_size, 0, static_cast<size_t>(size - old_size));
  return Status::OK();
}

Status ResizableBuffer::ShrinkToFit() {
  const int64_t target = RoundUpToMultipleOf64(size_);
  if (target >= capacity_) return Status::OK();
  if (target == 0) {
    Release();
    return Status::OK();
  }
  return SetCapacity(target);
}

Result<std::shared_ptr<ResizableBuffer>> AllocateBuffer(MemoryPool* pool, int64_t size) {
  STRATA_ASSIGN_OR_RETURN(auto buffer, ResizableBuffer::Make(pool, size));
  buffer->set_size(size);
  return buffer;
}

}  // namespace strata
