#include "strata/array/binary_builder.h"

#include <algorithm>
#include <cstring>

namespace strata {

template <typename OffsetT>
BinaryBuilder<OffsetT>::BinaryBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool),
      offsets_(std::make_shared<ResizableBuffer>(pool)),
      data_(std::make_shared<ResizableBuffer>(pool)) {}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::CheckDataLength(int64_t total_bytes) const {
  if (total_bytes > kMaxDataLength) {
    return Status::LimitExceeded("{} array data would reach {} bytes, above the offset limit of {}{}",
                                 type_->ToString(), total_bytes, kMaxDataLength,
                                 sizeof(OffsetT) == 4 ? " (use the large_ type)" : "");
  }
  return Status::OK();
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::EnsureFirstOffset() {
  if (capacity_ > 0) return Status::OK();
  return GrowRows(1);
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  const int64_t rows = length_ + additional_rows;
  if (rows <= capacity_ && capacity_ > 0) return Status::OK();
  const bool first = offsets_->capacity() == 0 || capacity_ == 0;
  STRATA_RETURN_NOT_OK(offsets_->Reserve((rows + 1) * static_cast<int64_t>(sizeof(OffsetT))));
  if (first) offsets()[length_] = static_cast<OffsetT>(data_->size());
  return SetRowCapacity(offsets_->capacity() / static_cast<int64_t>(sizeof(OffsetT)) - 1);
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::GrowRows(int64_t min_rows) {
  if (min_rows <= capacity_ && capacity_ > 0) return Status::OK();
  const bool first = capacity_ == 0;
  STRATA_RETURN_NOT_OK(offsets_->GrowForAppend((min_rows + 1) * static_cast<int64_t>(sizeof(OffsetT))));
  if (first) offsets()[length_] = static_cast<OffsetT>(data_->size());
  return SetRowCapacity(offsets_->capacity() / static_cast<int64_t>(sizeof(OffsetT)) - 1);
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::GrowData(int64_t additional_bytes) {
  STRATA_RETURN_NOT_OK(CheckDataLength(data_->size() + additional_bytes));
  return data_->GrowForAppend(data_->size() + additional_bytes);
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::ReserveData(int64_t additional_bytes) {
  if (additional_bytes < 0) return Status::Invalid("negative byte count {} passed to ReserveData", additional_bytes);
  STRATA_RETURN_NOT_OK(CheckDataLength(data_->size() + additional_bytes));
  return data_->Reserve(data_->size() + additional_bytes);
}

template <typename OffsetT>
Result<uint8_t*> BinaryBuilder<OffsetT>::AppendUninitialized(int64_t n) {
  if (n < 0) return Status::Invalid("negative value length {}", n);
  if (length_ == capacity_) STRATA_RETURN_NOT_OK(GrowRows(length_ + 1));
  if (data_->size() + n > data_->capacity()) STRATA_RETURN_NOT_OK(GrowData(n));
  uint8_t* out = data_->mutable_data() + data_->size();
  data_->set_size(data_->size() + n);
  offsets()[length_ + 1] = static_cast<OffsetT>(data_->size());
  if (uint8_t* bits = active_validity()) bitmap::SetBit(bits, length_);
  ++length_;
  return out;
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::AppendValues(const std::string_view* values, int64_t n, const uint8_t* validity,
                                            int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  int64_t bytes = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (validity == nullptr || bitmap::GetBit(validity, validity_offset + i)) bytes += static_cast<int64_t>(values[i].size());
  }
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  if (data_->size() + bytes > data_->capacity()) STRATA_RETURN_NOT_OK(GrowData(bytes));
  STRATA_RETURN_NOT_OK(AppendValidityBitmap(validity, validity_offset, n).status());
  OffsetT* out = offsets() + length_ + 1;
  for (int64_t i = 0; i < n; ++i) {
    if (validity == nullptr || bitmap::GetBit(validity, validity_offset + i)) {
      data_->UnsafeAppend(values[i].data(), static_cast<int64_t>(values[i].size()));
    }
    out[i] = static_cast<OffsetT>(data_->size());
  }
  length_ += n;
  return Status::OK();
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::AppendConcatenated(const uint8_t* data, int64_t data_size, const int32_t* lengths,
                                                  int64_t n, const uint8_t* validity, int64_t validity_offset) {
  if (n <= 0) {
    if (data_size != 0) return Status::Invalid("{} bytes given for 0 values", data_size);
    return Status::OK();
  }
  int64_t sum = 0;
  bool negative = false;
  for (int64_t i = 0; i < n; ++i) {
    negative |= lengths[i] < 0;
    sum += lengths[i];
  }
  if (negative) return Status::Invalid("negative value length among {} values", n);
  if (sum != data_size) return Status::Invalid("value lengths add up to {} bytes, but {} bytes were given", sum, data_size);
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  if (data_->size() + data_size > data_->capacity()) STRATA_RETURN_NOT_OK(GrowData(data_size));
  STRATA_RETURN_NOT_OK(AppendValidityBitmap(validity, validity_offset, n).status());
  OffsetT* out = offsets() + length_ + 1;
  OffsetT position = static_cast<OffsetT>(data_->size());
  for (int64_t i = 0; i < n; ++i) {
    position += static_cast<OffsetT>(lengths[i]);
    out[i] = position;
  }
  data_->UnsafeAppend(data, data_size);
  length_ += n;
  return Status::OK();
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::AppendNulls(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityNull(n));
  std::fill_n(offsets() + length_ + 1, n, static_cast<OffsetT>(data_->size()));
  length_ += n;
  return Status::OK();
}

template <typename OffsetT>
Status BinaryBuilder<OffsetT>::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityValid(n));
  std::fill_n(offsets() + length_ + 1, n, static_cast<OffsetT>(data_->size()));
  length_ += n;
  return Status::OK();
}

template <typename OffsetT>
Result<ArrayDataPtr> BinaryBuilder<OffsetT>::Finish() {
  STRATA_RETURN_NOT_OK(EnsureFirstOffset());
  offsets_->set_size((length_ + 1) * static_cast<int64_t>(sizeof(OffsetT)));
  if (data_->capacity() == 0) STRATA_RETURN_NOT_OK(data_->Reserve(1));  // never hand out a null buffer
  std::shared_ptr<Buffer> validity = FinishValidity();
  auto out = ArrayData::Make(type_, length_, {std::move(validity), std::move(offsets_), std::move(data_)}, null_count_);
  offsets_ = std::make_shared<ResizableBuffer>(pool_);
  data_ = std::make_shared<ResizableBuffer>(pool_);
  ResetAfterFinish();
  return out;
}

template <typename OffsetT>
void BinaryBuilder<OffsetT>::Reset() {
  ArrayBuilder::Reset();
  data_->Clear();
  if (capacity_ > 0) offsets()[0] = 0;
}

template <typename OffsetT>
int64_t BinaryBuilder<OffsetT>::memory_size() const {
  return ArrayBuilder::memory_size() + offsets_->capacity() + data_->capacity();
}

template class BinaryBuilder<int32_t>;
template class BinaryBuilder<int64_t>;

}  // namespace strata
