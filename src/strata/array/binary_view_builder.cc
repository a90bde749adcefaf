#include "strata/array/binary_view_builder.h"

#include <cstring>
#include <limits>

namespace strata {

namespace {
constexpr int64_t kMaxDataBufferSize = std::numeric_limits<int32_t>::max();
}  // namespace

BinaryViewBuilder::BinaryViewBuilder(TypePtr type, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool),
      views_(std::make_shared<ResizableBuffer>(pool)),
      data_(std::make_shared<ResizableBuffer>(pool)) {}

Status BinaryViewBuilder::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  const int64_t rows = length_ + additional_rows;
  if (rows <= capacity_) return Status::OK();
  STRATA_RETURN_NOT_OK(views_->Reserve(rows * view_layout::kViewSize));
  return SetRowCapacity(views_->capacity() / view_layout::kViewSize);
}

Status BinaryViewBuilder::GrowRows(int64_t min_rows) {
  if (min_rows <= capacity_) return Status::OK();
  STRATA_RETURN_NOT_OK(views_->GrowForAppend(min_rows * view_layout::kViewSize));
  return SetRowCapacity(views_->capacity() / view_layout::kViewSize);
}

Status BinaryViewBuilder::PrepareData(int64_t n) {
  if (n > kMaxDataBufferSize) {
    return Status::LimitExceeded("{} value of {} bytes exceeds the view limit of {} bytes", type_->ToString(), n,
                                 kMaxDataBufferSize);
  }
  if (data_->size() + n > kMaxDataBufferSize) {
    full_data_.push_back(std::move(data_));
    data_ = std::make_shared<ResizableBuffer>(pool_);
  }
  if (data_->size() + n > data_->capacity()) return data_->GrowForAppend(data_->size() + n);
  return Status::OK();
}

Status BinaryViewBuilder::ReserveData(int64_t additional_bytes) {
  if (additional_bytes < 0) return Status::Invalid("negative byte count {} passed to ReserveData", additional_bytes);
  if (data_->size() + additional_bytes > kMaxDataBufferSize) {
    if (additional_bytes > kMaxDataBufferSize) return Status::OK();  // spread over buffers as they fill
    full_data_.push_back(std::move(data_));
    data_ = std::make_shared<ResizableBuffer>(pool_);
  }
  return data_->Reserve(data_->size() + additional_bytes);
}

void BinaryViewBuilder::UnsafeAppend(std::string_view value) {
  uint8_t* v = view(length_);
  const int32_t n = static_cast<int32_t>(value.size());
  std::memset(v, 0, view_layout::kViewSize);  // inline values are zero-padded
  std::memcpy(v, &n, 4);
  if (n <= view_layout::kInlineSize) {
    if (n > 0) std::memcpy(v + 4, value.data(), static_cast<size_t>(n));
  } else {
    const int32_t buffer_index = static_cast<int32_t>(full_data_.size());
    const int32_t offset = static_cast<int32_t>(data_->size());
    std::memcpy(v + 4, value.data(), view_layout::kPrefixSize);
    std::memcpy(v + 8, &buffer_index, 4);
    std::memcpy(v + 12, &offset, 4);
    data_->UnsafeAppend(value.data(), n);
  }
  if (uint8_t* bits = active_validity()) bitmap::SetBit(bits, length_);
  ++length_;
}

Status BinaryViewBuilder::Append(std::string_view value) {
  if (length_ == capacity_) STRATA_RETURN_NOT_OK(GrowRows(length_ + 1));
  const int64_t n = static_cast<int64_t>(value.size());
  if (n > view_layout::kInlineSize) STRATA_RETURN_NOT_OK(PrepareData(n));
  UnsafeAppend(value);
  return Status::OK();
}

Status BinaryViewBuilder::AppendValues(const std::string_view* values, int64_t n, const uint8_t* validity,
                                       int64_t validity_offset) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  for (int64_t i = 0; i < n; ++i) {
    if (validity != nullptr && !bitmap::GetBit(validity, validity_offset + i)) {
      STRATA_RETURN_NOT_OK(AppendNulls(1));
    } else {
      STRATA_RETURN_NOT_OK(Append(values[i]));
    }
  }
  return Status::OK();
}

Status BinaryViewBuilder::AppendNulls(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityNull(n));
  std::memset(view(length_), 0, static_cast<size_t>(n * view_layout::kViewSize));
  length_ += n;
  return Status::OK();
}

Status BinaryViewBuilder::AppendEmptyValues(int64_t n) {
  if (n <= 0) return Status::OK();
  STRATA_RETURN_NOT_OK(GrowRows(length_ + n));
  STRATA_RETURN_NOT_OK(AppendValidityValid(n));
  std::memset(view(length_), 0, static_cast<size_t>(n * view_layout::kViewSize));
  length_ += n;
  return Status::OK();
}

Result<ArrayDataPtr> BinaryViewBuilder::Finish() {
  if (views_->capacity() == 0) STRATA_RETURN_NOT_OK(views_->Reserve(1));
  views_->set_size(length_ * view_layout::kViewSize);
  std::vector<std::shared_ptr<Buffer>> buffers;
  buffers.reserve(3 + full_data_.size());
  buffers.push_back(FinishValidity());
  buffers.push_back(std::move(views_));
  for (auto& b : full_data_) buffers.push_back(std::move(b));
  full_data_.clear();
  if (data_->size() > 0) {
    buffers.push_back(std::move(data_));
    data_ = std::make_shared<ResizableBuffer>(pool_);
  }
  auto out = ArrayData::Make(type_, length_, std::move(buffers), null_count_);
  views_ = std::make_shared<ResizableBuffer>(pool_);
  ResetAfterFinish();
  return out;
}

void BinaryViewBuilder::Reset() {
  ArrayBuilder::Reset();
  views_->Clear();
  data_->Clear();
  full_data_.clear();
}

int64_t BinaryViewBuilder::memory_size() const {
  int64_t total = ArrayBuilder::memory_size() + views_->capacity() + data_->capacity();
  for (const auto& b : full_data_) total += b->capacity();
  return total;
}

}  // namespace strata
