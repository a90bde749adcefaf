#include "strata/array/map_builder.h"

#include <algorithm>
#include <limits>

namespace strata {

Result<std::unique_ptr<MapBuilder>> MapBuilder::Make(TypePtr type, MemoryPool* pool) {
  if (type->id() != TypeId::kMap) return Status::Invalid("MapBuilder needs a map type, got {}", type->ToString());
  STRATA_ASSIGN_OR_RETURN(auto keys, MakeBuilder(type->key_type(), pool));
  STRATA_ASSIGN_OR_RETURN(auto items, MakeBuilder(type->item_type(), pool));
  return std::make_unique<MapBuilder>(std::move(type), std::move(keys), std::move(items), pool);
}

MapBuilder::MapBuilder(TypePtr type, std::unique_ptr<ArrayBuilder> key_builder,
                       std::unique_ptr<ArrayBuilder> item_builder, MemoryPool* pool)
    : ArrayBuilder(std::move(type), pool), offsets_(std::make_shared<ResizableBuffer>(pool)) {
  children_.push_back(std::move(key_builder));
  children_.push_back(std::move(item_builder));
}

Status MapBuilder::Reserve(int64_t additional_rows) {
  if (additional_rows < 0) return Status::Invalid("negative row count {} passed to Reserve", additional_rows);
  const int64_t rows = length_ + additional_rows;
  if (rows <= capacity_ && capacity_ > 0) return Status::OK();
  STRATA_RETURN_NOT_OK(offsets_->Reserve((rows + 1) * 4));
  return SetRowCapacity(offsets_->capacity() / 4 - 1);
}

Status MapBuilder::AppendStarts(int64_t n, bool valid) {
  if (n <= 0) return Status::OK();
  const int64_t start = key_builder()->length();
  if (start > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("{} holds {} entries, above the offset limit", type_->ToString(), start);
  }
  if (length_ + n > capacity_ || capacity_ == 0) {
    STRATA_RETURN_NOT_OK(offsets_->GrowForAppend((length_ + n + 1) * 4));
    STRATA_RETURN_NOT_OK(SetRowCapacity(offsets_->capacity() / 4 - 1));
  }
  STRATA_RETURN_NOT_OK(valid ? AppendValidityValid(n) : AppendValidityNull(n));
  std::fill_n(offsets() + length_, n, static_cast<int32_t>(start));
  length_ += n;
  return Status::OK();
}

Status MapBuilder::Append(bool is_valid) { return AppendStarts(1, is_valid); }
Status MapBuilder::AppendNulls(int64_t n) { return AppendStarts(n, false); }
Status MapBuilder::AppendEmptyValues(int64_t n) { return AppendStarts(n, true); }

Result<ArrayDataPtr> MapBuilder::Finish() {
  const int64_t entries = key_builder()->length();
  if (item_builder()->length() != entries) {
    return Status::Invalid("{}: {} keys but {} items", type_->ToString(), entries, item_builder()->length());
  }
  if (key_builder()->null_count() != 0) {
    return Status::Invalid("{}: {} null keys (map keys must not be null)", type_->ToString(), key_builder()->null_count());
  }
  if (entries > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("{} holds {} entries, above the offset limit", type_->ToString(), entries);
  }
  if (capacity_ == 0) STRATA_RETURN_NOT_OK(Reserve(0));  // room for the closing offset
  offsets()[length_] = static_cast<int32_t>(entries);
  offsets_->set_size((length_ + 1) * 4);
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr keys, key_builder()->Finish());
  STRATA_ASSIGN_OR_RETURN(ArrayDataPtr items, item_builder()->Finish());
  auto entry_data = ArrayData::Make(type_->value_field()->type(), entries, {nullptr}, 0);
  entry_data->children = {std::move(keys), std::move(items)};
  auto out = ArrayData::Make(type_, length_, {FinishValidity(), std::move(offsets_)}, null_count_);
  out->children.push_back(std::move(entry_data));
  offsets_ = std::make_shared<ResizableBuffer>(pool_);
  ResetAfterFinish();
  return out;
}

void MapBuilder::Reset() {
  ArrayBuilder::Reset();
  offsets_->Clear();
}

int64_t MapBuilder::memory_size() const { return ArrayBuilder::memory_size() + offsets_->capacity(); }

}  // namespace strata
