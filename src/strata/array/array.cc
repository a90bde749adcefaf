#include "strata/array/array.h"

#include <algorithm>

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

namespace strata {

namespace {

// Whether element `index` (relative to the child's offset) of `child` holds a null value.
bool ChildValueIsNull(const ArrayData& child, int64_t index) {
  const TypeId id = child.type->id();
  if (id == TypeId::kNull) return true;
  if (is_union(id)) return UnionArray(std::make_shared<ArrayData>(child)).IsLogicalNull(index);
  if (id == TypeId::kRunEndEncoded) {
    RunEndEncodedArray ree(std::make_shared<ArrayData>(child));
    return ChildValueIsNull(ree.values(), ree.PhysicalIndex(index));
  }
  const uint8_t* bits = child.validity_data();
  return bits != nullptr && !bitmap::GetBit(bits, child.offset + index);
}

}  // namespace

UnionArray::UnionArray(ArrayDataPtr data) : Array(std::move(data)) {
  type_codes_ = internal::BufferValues<int8_t>(*data_, 1);
  if (type_codes_) type_codes_ += data_->offset;
  if (data_->type->id() == TypeId::kDenseUnion && data_->buffers.size() > 2) {
    offsets_ = internal::BufferValues<int32_t>(*data_, 2);
    if (offsets_) offsets_ += data_->offset;
  }
  for (int16_t& c : child_of_code_) c = -1;
  const std::vector<int8_t>& codes = data_->type->type_codes();
  for (size_t c = 0; c < codes.size(); ++c) child_of_code_[static_cast<uint8_t>(codes[c])] = static_cast<int16_t>(c);
}

bool UnionArray::IsLogicalNull(int64_t i) const {
  const int c = child_index(i);
  if (c < 0) return false;
  return ChildValueIsNull(child(c), value_offset(i));
}

int64_t UnionArray::LogicalNullCount() const {
  int64_t nulls = 0;
  for (int64_t i = 0; i < length(); ++i) nulls += IsLogicalNull(i) ? 1 : 0;
  return nulls;
}

int64_t RunEndEncodedArray::RunEnd(int64_t k) const {
  const ArrayData& ends = run_ends();
  const int64_t j = ends.offset + k;
  switch (ends.type->id()) {
    case TypeId::kInt16: return internal::BufferValues<int16_t>(ends, 1)[j];
    case TypeId::kInt32: return internal::BufferValues<int32_t>(ends, 1)[j];
    default: return internal::BufferValues<int64_t>(ends, 1)[j];
  }
}

int64_t RunEndEncodedArray::PhysicalIndex(int64_t i) const {
  // The first run whose end is past the logical position.
  const int64_t position = data_->offset + i;
  int64_t lo = 0, hi = run_ends().length;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (RunEnd(mid) <= position) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

int64_t RunEndEncodedArray::LogicalNullCount() const {
  if (length() == 0) return 0;
  const ArrayData& vals = values();
  int64_t nulls = 0;
  const int64_t begin = data_->offset, end = data_->offset + length();
  for (int64_t run = PhysicalIndex(0); run < run_ends().length; ++run) {
    const int64_t run_start = run == 0 ? 0 : RunEnd(run - 1);
    const int64_t run_end = RunEnd(run);
    const int64_t covered = std::min(run_end, end) - std::max(run_start, begin);
    if (covered > 0 && ChildValueIsNull(vals, run)) nulls += covered;
    if (run_end >= end) break;
  }
  return nulls;
}

}  // namespace strata
