#include "strata/array/boolean_builder.h"

namespace strata {

BooleanBuilder::BooleanBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), values_(std::make_shared<ResizableBuffer>(pool)) {}

BooleanBuilder::BooleanBuilder(MemoryPool* pool) : BooleanBuilder(boolean(), pool) {}

Status BooleanBuilder::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  const int64_t rows = length_ + additional_rows;
  if (rows <= capacity_) return Status::OK();
  STRATA_RETURN_NOT_OK(values_->Reserve(bitmap::BytesForBits(rows)));
  return SetRowCapacity(values_->capacity() * 8);
}

Status BooleanBuilder::GrowRows(int64_t min_rows) {
  if (min_rows <= capacity_) return Status::OK();
  STRATA_RETURN_NOT_OK(values_->GrowForAppend(bitmap::BytesForBits(min_rows)));
  return SetRowCapacity(values_->capacity() * 8);
}

void BooleanBuilder::ClearNullValues(int64_t first_row, int64_t n, const uint8_t* validity, int64_t validity_offset) {
  for (int64_t i = 0; i < n; ++i) {
    if (!bitmap::GetBit(validity, validity_offset + i)) bitmap::ClearBit(values_->mutable_data(), first_row + i);
  }
}

Status BooleanBuilder::AppendValues(const uint8_t* values, int64_t n, const uint8_t* validity,
                                    int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_ASSIGN_OR_RETURN(const int64_t nulls, AppendValidityBitmap(validity, validity_offset, n));
  bitmap::PackBools(values, n, values_->mutable_data(), length_);
  if (nulls > 0) ClearNullValues(length_, n, validity, validity_offset);
  length_ += n;
  return Status::OK();
}

Status BooleanBuilder::AppendBitmap(const uint8_t* bits, int64_t bits_offset, int64_t n, const uint8_t* validity,
                                    int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_ASSIGN_OR_RETURN(const int64_t nulls, AppendValidityBitmap(validity, validity_offset, n));
  bitmap::CopyBitmap(bits, bits_offset, n, values_->mutable_data(), length_);
  if (nulls > 0) ClearNullValues(length_, n, validity, validity_offset);
  length_ += n;
  return Status::OK();
}

Status BooleanBuilder::AppendNulls(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityNull(n));
  bitmap::SetBitsTo(values_->mutable_data(), length_, n, false);
  length_ += n;
  return Status::OK();
}

Status BooleanBuilder::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityValid(n));
  bitmap::SetBitsTo(values_->mutable_data(), length_, n, false);
  length_ += n;
  return Status::OK();
}

Result<ArrayDataPtr> BooleanBuilder::Finish() {
  if (values_->capacity() == 0) STRATA_RETURN_NOT_OK(values_->Reserve(1));
  const int64_t bytes = bitmap::BytesForBits(length_);
  values_->set_size(bytes);
  if ((length_ & 7) != 0) values_->mutable_data()[bytes - 1] &= static_cast<uint8_t>((1u << (length_ & 7)) - 1);
  std::shared_ptr<Buffer> validity = FinishValidity();
  auto data = ArrayData::Make(type_, length_, {std::move(validity), std::move(values_)}, null_count_);
  values_ = std::make_shared<ResizableBuffer>(pool_);
  ResetAfterFinish();
  return data;
}

void BooleanBuilder::Reset() {
  ArrayBuilder::Reset();
  values_->Clear();
}

int64_t BooleanBuilder::memory_size() const { return ArrayBuilder::memory_size() + values_->capacity(); }

}  // namespace strata
