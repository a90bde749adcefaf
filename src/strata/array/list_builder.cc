#include "strata/array/list_builder.h"

#include <algorithm>
#include <limits>

namespace strata {

template <typename OffsetT>
Result<std::unique_ptr<ListBuilder<OffsetT>>> ListBuilder<OffsetT>::Make(TypePtr type, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto child, MakeBuilder(type->list_value_type(), pool));
  return std::make_unique<ListBuilder>(std::move(type), std::move(child), pool);
}

template <typename OffsetT>
ListBuilder<OffsetT>::ListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(std::make_shared<ResizableBuffer>(pool)) {
  children_.push_back(std::move(value_builder));
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  const int64_t rows = length_ + additional_rows;
  if (rows <= capacity_ && capacity_ > 0) return Status::OK();
  STRATA_RETURN_NOT_OK(offsets_->Reserve((rows + 1) * static_cast<int64_t>(sizeof(OffsetT))));
  return SetRowCapacity(offsets_->capacity() / static_cast<int64_t>(sizeof(OffsetT)) - 1);
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::GrowRows(int64_t min_rows) {
  if (min_rows <= capacity_ && capacity_ > 0) return Status::OK();
  STRATA_RETURN_NOT_OK(offsets_->GrowForAppend((min_rows + 1) * static_cast<int64_t>(sizeof(OffsetT))));
  return SetRowCapacity(offsets_->capacity() / static_cast<int64_t>(sizeof(OffsetT)) - 1);
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::AppendStarts(int64_t n, bool valid) {
  if (n <= 0) return Status::OK();
  const int64_t start = value_builder()->length();
  if (start > std::numeric_limits<OffsetT>::max()) {
    return Status::LimitExceeded("{} child holds {} elements, above the offset limit", type_->ToString(), start);
  }
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(valid ? AppendValidityValid(n) : AppendValidityNull(n));
  std::fill_n(offsets() + length_, n, static_cast<OffsetT>(start));
  length_ += n;
  return Status::OK();
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::Append(bool is_valid) {
  return AppendStarts(1, is_valid);
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::AppendNulls(int64_t n) {
  return AppendStarts(n, false);
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::AppendEmptyValues(int64_t n) {
  return AppendStarts(n, true);
}

template <typename OffsetT>
Status ListBuilder<OffsetT>::AppendValues(const OffsetT* starts, int64_t n, const uint8_t* validity,
                                          int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  OffsetT previous = length_ > 0 ? offsets()[length_ - 1] : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (starts[i] < previous) {
      return Status::Invalid("list start offset {} at row {} is below the previous one ({})", starts[i],
                             length_ + i, previous);
    }
    previous = starts[i];
  }
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityBitmap(validity, validity_offset, n).status());
  std::copy_n(starts, n, offsets() + length_);
  length_ += n;
  return Status::OK();
}

template <typename OffsetT>
Result<ArrayDataPtr> ListBuilder<OffsetT>::Finish() {
  const int64_t end = value_builder()->length();
  if (end > std::numeric_limits<OffsetT>::max()) {
    return Status::LimitExceeded("{} child holds {} elements, above the offset limit", type_->ToString(), end);
  }
  if (length_ > 0 && offsets()[length_ - 1] > end) {
    return Status::Invalid("last list starts at {} but the child holds only {} elements", offsets()[length_ - 1], end);
  }
  STRATA_RETURN_NOT_OK(GrowRows(length_));  // room for the closing offset
  offsets()[length_] = static_cast<OffsetT>(end);
  offsets_->set_size((length_ + 1) * static_cast<int64_t>(sizeof(OffsetT)));
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr child, value_builder()->Finish());
  auto out = ArrayData::Make(type_, length_, {FinishValidity(), std::move(offsets_)}, null_count_);
  out->children.push_back(std::move(child));
  offsets_ = std::make_shared<ResizableBuffer>(pool_);
  ResetAfterFinish();
  return out;
}

template <typename OffsetT>
void ListBuilder<OffsetT>::Reset() {
  ArrayBuilder::Reset();
  offsets_->Clear();
}

template <typename OffsetT>
int64_t ListBuilder<OffsetT>::memory_size() const {
  return ArrayBuilder::memory_size() + offsets_->capacity();
}

template class ListBuilder<int32_t>;
template class ListBuilder<int64_t>;

// ---------------------------------------------------------------------------------------

Result<std::unique_ptr<FixedSizeListBuilder>> FixedSizeListBuilder::Make(TypePtr type, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto child, MakeBuilder(type->list_value_type(), pool));
  return std::make_unique<FixedSizeListBuilder>(std::move(type), std::move(child), pool);
}

FixedSizeListBuilder::FixedSizeListBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> value_builder,
                                           MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), list_size_(type_->list_size()) {
  children_.push_back(std::move(value_builder));
}

Status FixedSizeListBuilder::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  // No row buffer of its own besides the bitmap: capacity is bookkeeping for the bitmap.
  const int64_t rows = length_ + additional_rows;
  return rows <= capacity_ ? Status::OK() : SetRowCapacity(rows);
}

Status FixedSizeListBuilder::Append() { return AppendValues(1); }

Status FixedSizeListBuilder::AppendValues(int64_t n, const uint8_t* validity, int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  if (length_ + n > capacity_) STRATA_RETURN_NOT_OK(SetRowCapacity(std::max(length_ + n, 2 * capacity_)));
  STRATA_RETURN_NOT_OK(AppendValidityBitmap(validity, validity_offset, n).status());
  length_ += n;
  return Status::OK();
}

Status FixedSizeListBuilder::AppendNulls(int64_t n) {
  if (n <= 0) return Status::OK();
  if (length_ + n > capacity_) STRATA_RETURN_NOT_OK(SetRowCapacity(std::max(length_ + n, 2 * capacity_)));
  STRATA_RETURN_NOT_OK(AppendValidityNull(n));
  STRATA_RETURN_NOT_OK(value_builder()->AppendEmptyValues(n * list_size_));
  length_ += n;
  return Status::OK();
}

Status FixedSizeListBuilder::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(AppendValues(n));
  return value_builder()->AppendEmptyValues(n * list_size_);
}

Result<ArrayDataPtr> FixedSizeListBuilder::Finish() {
  if (value_builder()->length() != length_ * list_size_) {
    return Status::Invalid("{} of {} lists needs {} child elements, got {}", type_->ToString(), length_,
                           length_ * list_size_, value_builder()->length());
  }
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr child, value_builder()->Finish());
  auto out = ArrayData::Make(type_, length_, {FinishValidity()}, null_count_);
  out->children.push_back(std::move(child));
  ResetAfterFinish();
  return out;
}

}  // namespace strata
