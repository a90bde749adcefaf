#include "strata/array/array.h"

namespace strata {

int64_t BooleanArray::TrueCount() const {
  if (null_bitmap_ == nullptr) return bitmap::CountSetBits(bits_, data_->offset, length());
  int64_t count = 0;
  for (int64_t i = 0; i < length(); ++i) count += IsValid(i) && Value(i);
  return count;
}

Array StructArray::field(int i) const {
  const ArrayDataPtr& child = data_->children[static_cast<size_t>(i)];
  if (data_->offset == 0 && child->length == data_->length) return Array(child);
  return Array(child->Slice(data_->offset, data_->length));
}

MapArray::MapArray(ArrayDataPtr data) : ListArray<int32_t>(std::move(data)) {
  StructArray entries(data_->children[0]);
  keys_ = entries.field(0);
  items_ = entries.field(1);
}

DictionaryArray::DictionaryArray(ArrayDataPtr data) : Array(std::move(data)) {
  auto indices = std::make_shared<ArrayData>(*data_);
  indices->type = data_->type->index_type();
  indices->dictionary = nullptr;
  indices_ = Array(std::move(indices));
  if (data_->dictionary) dictionary_ = Array(data_->dictionary);
}

int64_t DictionaryArray::GetValueIndex(int64_t i) const {
  const ArrayData& d = *indices_.data();
  const int64_t j = d.offset + i;
  switch (d.type->id()) {
    case TypeId::kInt8: return internal::BufferValues<int8_t>(d, 1)[j];
    case TypeId::kInt16: return internal::BufferValues<int16_t>(d, 1)[j];
    case TypeId::kInt32: return internal::BufferValues<int32_t>(d, 1)[j];
    case TypeId::kInt64: return internal::BufferValues<int64_t>(d, 1)[j];
    case TypeId::kUInt8: return internal::BufferValues<uint8_t>(d, 1)[j];
    case TypeId::kUInt16: return internal::BufferValues<uint16_t>(d, 1)[j];
    case TypeId::kUInt32: return internal::BufferValues<uint32_t>(d, 1)[j];
    case TypeId::kUInt64: return static_cast<int64_t>(internal::BufferValues<uint64_t>(d, 1)[j]);
    default: return -1;
  }
}

}  // namespace strata
