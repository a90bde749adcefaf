#include "strata/array/array_builder.h"

#include <algorithm>

namespace strata {

ArrayBuilder::ArrayBuilder(TypePtr type, MemoryPool* pool) : type_(std::move(type)), pool_(pool) {}

void ArrayBuilder::Reset() {
  length_ = 0;
  null_count_ = 0;
  validity_active_ = false;  // the bitmap buffer (if any) keeps its capacity for the next batch
  for (auto& child : children_) child->Reset();
}

int64_t ArrayBuilder::memory_size() const {
  int64_t total = validity_ ? validity_->capacity() : 0;
  for (const auto& child : children_) total += child->memory_size();
  return total;
}

Status ArrayBuilder::MaterializeValidity(int64_t rows_needed) {
  if (validity_ == nullptr) validity_ = std::make_shared<ResizableBuffer>(pool_);
  // Sized to the reserved row capacity so later appends within it do not grow the bitmap.
  STRATA_RETURN_NOT_OK(validity_->Reserve(bitmap::BytesForBits(std::max(capacity_, rows_needed))));
  bitmap::SetBitsTo(validity_->mutable_data(), 0, length_, true);
  validity_active_ = true;
  return Status::OK();
}

Status ArrayBuilder::SetValidityRange(int64_t n, bool valid) {
  const int64_t bytes = bitmap::BytesForBits(length_ + n);
  if (bytes > validity_->capacity()) STRATA_RETURN_NOT_OK(validity_->GrowForAppend(bytes));
  bitmap::SetBitsTo(validity_->mutable_data(), length_, n, valid);
  return Status::OK();
}

Status ArrayBuilder::AppendValidityNull(int64_t n) {
  if (n <= 0) return Status::OK();
  if (!validity_active_) STRATA_RETURN_NOT_OK(MaterializeValidity(length_ + n));
  STRATA_RETURN_NOT_OK(SetValidityRange(n, false));
  null_count_ += n;
  return Status::OK();
}

Result<int64_t> ArrayBuilder::AppendValidityBitmap(const uint8_t* validity, int64_t offset, int64_t n) {
  if (validity == nullptr || n <= 0) {
    STRATA_RETURN_NOT_OK(AppendValidityValid(n));
    return int64_t{0};
  }
  const int64_t nulls = n - bitmap::CountSetBits(validity, offset, n);
  if (nulls == 0) {
    STRATA_RETURN_NOT_OK(AppendValidityValid(n));
    return int64_t{0};
  }
  if (!validity_active_) STRATA_RETURN_NOT_OK(MaterializeValidity(length_ + n));
  const int64_t bytes = bitmap::BytesForBits(length_ + n);
  if (bytes > validity_->capacity()) STRATA_RETURN_NOT_OK(validity_->GrowForAppend(bytes));
  bitmap::CopyBitmap(validity, offset, n, validity_->mutable_data(), length_);
  null_count_ += nulls;
  return nulls;
}

Status ArrayBuilder::SetRowCapacity(int64_t rows) {
  capacity_ = rows;
  if (validity_active_) return validity_->Reserve(bitmap::BytesForBits(rows));
  return Status::OK();
}

std::shared_ptr<Buffer> ArrayBuilder::FinishValidity() {
  if (!validity_active_) return nullptr;
  validity_active_ = false;
  const int64_t bytes = bitmap::BytesForBits(length_);
  validity_->set_size(bytes);
  // Bits past the last row are undefined while building; zero them so equal arrays have
  // equal bytes.
  if ((length_ & 7) != 0) validity_->mutable_data()[bytes - 1] &= static_cast<uint8_t>((1u << (length_ & 7)) - 1);
  return std::move(validity_);
}

void ArrayBuilder::ResetAfterFinish() {
  length_ = 0;
  null_count_ = 0;
  capacity_ = 0;
}

}  // namespace strata
