// Array: a light, cheap-to-copy handle on ArrayData, and typed views that read values
// straight out of the Arrow buffers (no copies). Views cache raw pointers with the array
// offset already applied, so Value(i) is one load. Element indices are relative to the
// view (0 .. length()-1); bounds are the caller's precondition.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "strata/array/array_data.h"
#include "strata/array/bitmap.h"

namespace strata {

class Array {
 public:
  Array() = default;
  explicit Array(ArrayDataPtr data) { SetData(std::move(data)); }

  const ArrayDataPtr& data() const { return data_; }
  const TypePtr& type() const { return data_->type; }
  TypeId type_id() const { return data_->type->id(); }
  int64_t length() const { return data_->length; }
  int64_t offset() const { return data_->offset; }
  int64_t null_count() const { return data_->GetNullCount(); }
  // The validity bitmap (element i is bit offset() + i), or nullptr when there is none.
  const uint8_t* null_bitmap_data() const { return null_bitmap_; }

  bool IsNull(int64_t i) const { return null_bitmap_ ? !bitmap::GetBit(null_bitmap_, data_->offset + i) : all_null_; }
  bool IsValid(int64_t i) const { return !IsNull(i); }

  // Zero-copy: shares the buffers and keeps them alive.
  Array Slice(int64_t offset, int64_t length) const { return Array(data_->Slice(offset, length)); }
  Array Slice(int64_t offset) const { return Slice(offset, length() - offset); }

  // Value-wise equality (types, lengths, nulls, values), see compare.h.
  bool Equals(const Array& other) const;
  // Pretty-printed values (see pretty_print.h), e.g. [1, null, 3].
  std::string ToString() const;

 protected:
  void SetData(ArrayDataPtr data) {
    data_ = std::move(data);
    null_bitmap_ = data_->validity_data();
    all_null_ = data_->type->id() == TypeId::kNull;
  }

  ArrayDataPtr data_;
  const uint8_t* null_bitmap_ = nullptr;
  bool all_null_ = false;
};

namespace internal {
template <typename T>
const T* BufferValues(const ArrayData& data, int index) {
  const auto& buffer = data.buffers[static_cast<size_t>(index)];
  return buffer ? buffer->data_as<T>() : nullptr;
}
}  // namespace internal

// Fixed-width numeric and temporal values of C type T (int8_t..uint64_t, float, double;
// uint16_t for float16; int32_t/int64_t for dates, times, timestamps and durations).
template <typename T>
class PrimitiveArray : public Array {
 public:
  using value_type = T;
  PrimitiveArray() = default;
  explicit PrimitiveArray(ArrayDataPtr data) : Array(std::move(data)) {
    values_ = internal::BufferValues<T>(*data_, 1);
    if (values_) values_ += data_->offset;
  }
  explicit PrimitiveArray(const Array& array) : PrimitiveArray(array.data()) {}

  T Value(int64_t i) const { return values_[i]; }
  // Values with the offset applied: raw_values()[0] is element 0. Null slots hold
  // unspecified values (zero when built by strata).
  const T* raw_values() const { return values_; }
  std::span<const T> values() const { return {values_, static_cast<size_t>(length())}; }
  PrimitiveArray Slice(int64_t offset, int64_t length) const { return PrimitiveArray(data_->Slice(offset, length)); }

 private:
  const T* values_ = nullptr;
};

using Int8Array = PrimitiveArray<int8_t>;
using Int16Array = PrimitiveArray<int16_t>;
using Int32Array = PrimitiveArray<int32_t>;
using Int64Array = PrimitiveArray<int64_t>;
using UInt8Array = PrimitiveArray<uint8_t>;
using UInt16Array = PrimitiveArray<uint16_t>;
using UInt32Array = PrimitiveArray<uint32_t>;
using UInt64Array = PrimitiveArray<uint64_t>;
using HalfFloatArray = PrimitiveArray<uint16_t>;
using FloatArray = PrimitiveArray<float>;
using DoubleArray = PrimitiveArray<double>;
template <typename T>
using NumericArray = PrimitiveArray<T>;

class BooleanArray : public Array {
 public:
  BooleanArray() = default;
  explicit BooleanArray(ArrayDataPtr data) : Array(std::move(data)) { bits_ = internal::BufferValues<uint8_t>(*data_, 1); }
  explicit BooleanArray(const Array& array) : BooleanArray(array.data()) {}

  bool Value(int64_t i) const { return bitmap::GetBit(bits_, data_->offset + i); }
  // The value bitmap; element i is bit offset() + i.
  const uint8_t* values_bitmap() const { return bits_; }
  // Number of valid slots holding true.
  int64_t TrueCount() const;
  BooleanArray Slice(int64_t offset, int64_t length) const { return BooleanArray(data_->Slice(offset, length)); }

 private:
  const uint8_t* bits_ = nullptr;
};

// binary / string (OffsetT = int32_t) and large_binary / large_string (int64_t).
template <typename OffsetT>
class BinaryArray : public Array {
 public:
  using offset_type = OffsetT;
  BinaryArray() = default;
  explicit BinaryArray(ArrayDataPtr data) : Array(std::move(data)) {
    offsets_ = internal::BufferValues<OffsetT>(*data_, 1);
    if (offsets_) offsets_ += data_->offset;
    bytes_ = reinterpret_cast<const char*>(internal::BufferValues<uint8_t>(*data_, 2));
  }
  explicit BinaryArray(const Array& array) : BinaryArray(array.data()) {}

  // Points into the data buffer; valid while this array (or its data) is alive.
  std::string_view GetView(int64_t i) const {
    const OffsetT begin = offsets_[i];
    return {bytes_ + begin, static_cast<size_t>(offsets_[i + 1] - begin)};
  }
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  OffsetT value_offset(int64_t i) const { return offsets_[i]; }
  OffsetT value_length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  // length() + 1 offsets, offset applied; they index raw_data().
  const OffsetT* raw_value_offsets() const { return offsets_; }
  const uint8_t* raw_data() const { return reinterpret_cast<const uint8_t*>(bytes_); }
  // Bytes spanned by this array's values (from the first offset to the last).
  int64_t total_values_length() const { return length() == 0 ? 0 : offsets_[length()] - offsets_[0]; }
  BinaryArray Slice(int64_t offset, int64_t length) const { return BinaryArray(data_->Slice(offset, length)); }

 private:
  const OffsetT* offsets_ = nullptr;
  const char* bytes_ = nullptr;
};

using StringArray = BinaryArray<int32_t>;
using LargeStringArray = BinaryArray<int64_t>;
using LargeBinaryArray = BinaryArray<int64_t>;

// Arrow's 16-byte string view: int32 length, then either the value inline (length <= 12,
// zero-padded) or a 4-byte prefix, an int32 data buffer index and an int32 offset into it.
namespace view_layout {
inline constexpr int kViewSize = 16;
inline constexpr int kInlineSize = 12;
inline constexpr int kPrefixSize = 4;
inline int32_t Length(const uint8_t* view) {
  int32_t n;
  std::memcpy(&n, view, 4);
  return n;
}
inline int32_t BufferIndex(const uint8_t* view) {
  int32_t n;
  std::memcpy(&n, view + 8, 4);
  return n;
}
inline int32_t Offset(const uint8_t* view) {
  int32_t n;
  std::memcpy(&n, view + 12, 4);
  return n;
}
// The value `view` describes, inline or in one of `array`'s data buffers.
inline std::string_view Value(const uint8_t* view, const ArrayData& array) {
  const int32_t n = Length(view);
  if (n <= kInlineSize) return {reinterpret_cast<const char*>(view + 4), static_cast<size_t>(n)};
  const Buffer& buffer = *array.buffers[2 + static_cast<size_t>(BufferIndex(view))];
  return {reinterpret_cast<const char*>(buffer.data()) + Offset(view), static_cast<size_t>(n)};
}
}  // namespace view_layout

// Value i of a binary-like ArrayData with `OffsetT` offsets, or of a view array, without
// wrapping it in an Array (the array's offset applied).
template <typename OffsetT>
std::string_view BinaryValueAt(const ArrayData& d, int64_t i) {
  const OffsetT* offsets = d.buffers[1]->data_as<OffsetT>() + d.offset;
  return {d.buffers[2]->data_as<char>() + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
}
inline std::string_view ViewValueAt(const ArrayData& d, int64_t i) {
  return view_layout::Value(d.buffers[1]->data() + (d.offset + i) * view_layout::kViewSize, d);
}

// binary_view / string_view. buffers[1] holds the views; buffers[2...] the data buffers
// that out-of-line views point into (buffer index 0 is buffers[2]).
class BinaryViewArray : public Array {
 public:
  BinaryViewArray() = default;
  explicit BinaryViewArray(ArrayDataPtr data) : Array(std::move(data)) {
    views_ = internal::BufferValues<uint8_t>(*data_, 1);
    if (views_) views_ += data_->offset * view_layout::kViewSize;
  }
  explicit BinaryViewArray(const Array& array) : BinaryViewArray(array.data()) {}

  // Points into the views buffer (inline values) or a data buffer.
  std::string_view GetView(int64_t i) const { return view_layout::Value(views_ + i * view_layout::kViewSize, *data_); }
  std::string GetString(int64_t i) const { return std::string(GetView(i)); }
  // The 16-byte views, offset applied.
  const uint8_t* raw_views() const { return views_; }
  int64_t num_data_buffers() const { return static_cast<int64_t>(data_->buffers.size()) - 2; }
  BinaryViewArray Slice(int64_t offset, int64_t length) const { return BinaryViewArray(data_->Slice(offset, length)); }

 private:
  const uint8_t* views_ = nullptr;
};

// fixed_size_binary, and decimal128 / decimal256 (16 / 32 little-endian two's-complement bytes).
class FixedSizeBinaryArray : public Array {
 public:
  FixedSizeBinaryArray() = default;
  explicit FixedSizeBinaryArray(ArrayDataPtr data) : Array(std::move(data)) {
    byte_width_ = data_->type->byte_width();
    values_ = internal::BufferValues<uint8_t>(*data_, 1);
    if (values_) values_ += data_->offset * byte_width_;
  }
  explicit FixedSizeBinaryArray(const Array& array) : FixedSizeBinaryArray(array.data()) {}

  const uint8_t* GetValue(int64_t i) const { return values_ + i * byte_width_; }
  std::string_view GetView(int64_t i) const {
    return {reinterpret_cast<const char*>(GetValue(i)), static_cast<size_t>(byte_width_)};
  }
  int32_t byte_width() const { return byte_width_; }
  const uint8_t* raw_values() const { return values_; }
  FixedSizeBinaryArray Slice(int64_t offset, int64_t length) const {
    return FixedSizeBinaryArray(data_->Slice(offset, length));
  }

 private:
  int32_t byte_width_ = 0;
  const uint8_t* values_ = nullptr;
};

// list (OffsetT = int32_t) and large_list (int64_t); map reads through MapArray.
template <typename OffsetT>
class ListArray : public Array {
 public:
  using offset_type = OffsetT;
  ListArray() = default;
  explicit ListArray(ArrayDataPtr data) : Array(std::move(data)) {
    offsets_ = internal::BufferValues<OffsetT>(*data_, 1);
    if (offsets_) offsets_ += data_->offset;
    values_ = Array(data_->children[0]);
  }
  explicit ListArray(const Array& array) : ListArray(array.data()) {}

  // The whole child array (not sliced); value_offset(i) indexes it.
  const Array& values() const { return values_; }
  OffsetT value_offset(int64_t i) const { return offsets_[i]; }
  OffsetT value_length(int64_t i) const { return offsets_[i + 1] - offsets_[i]; }
  const OffsetT* raw_value_offsets() const { return offsets_; }
  // The child elements of list i, zero-copy.
  Array value_slice(int64_t i) const { return values_.Slice(offsets_[i], value_length(i)); }
  ListArray Slice(int64_t offset, int64_t length) const { return ListArray(data_->Slice(offset, length)); }

 private:
  const OffsetT* offsets_ = nullptr;
  Array values_;
};

using LargeListArray = ListArray<int64_t>;

class FixedSizeListArray : public Array {
 public:
  FixedSizeListArray() = default;
  explicit FixedSizeListArray(ArrayDataPtr data) : Array(std::move(data)) {
    list_size_ = data_->type->list_size();
    values_ = Array(data_->children[0]);
  }
  explicit FixedSizeListArray(const Array& array) : FixedSizeListArray(array.data()) {}

  const Array& values() const { return values_; }
  int32_t list_size() const { return list_size_; }
  int64_t value_offset(int64_t i) const { return (data_->offset + i) * list_size_; }
  Array value_slice(int64_t i) const { return values_.Slice(value_offset(i), list_size_); }
  FixedSizeListArray Slice(int64_t offset, int64_t length) const {
    return FixedSizeListArray(data_->Slice(offset, length));
  }

 private:
  int32_t list_size_ = 0;
  Array values_;
};

class StructArray : public Array {
 public:
  StructArray() = default;
  explicit StructArray(ArrayDataPtr data) : Array(std::move(data)) {}
  explicit StructArray(const Array& array) : StructArray(array.data()) {}

  int num_fields() const { return static_cast<int>(data_->children.size()); }
  // Child i aligned with this array: element j of the result is member i of element j
  // (the struct's offset and length are applied to the child, zero-copy).
  Array field(int i) const;
  StructArray Slice(int64_t offset, int64_t length) const { return StructArray(data_->Slice(offset, length)); }
};

// map<key, item>: a list<entries: struct<key, value>> with int32 offsets.
class MapArray : public ListArray<int32_t> {
 public:
  MapArray() = default;
  explicit MapArray(ArrayDataPtr data);
  explicit MapArray(const Array& array) : MapArray(array.data()) {}

  // All keys / items of the entries (not sliced); value_offset(i) indexes them.
  const Array& keys() const { return keys_; }
  const Array& items() const { return items_; }
  MapArray Slice(int64_t offset, int64_t length) const { return MapArray(data_->Slice(offset, length)); }

 private:
  Array keys_;
  Array items_;
};

class DictionaryArray : public Array {
 public:
  DictionaryArray() = default;
  explicit DictionaryArray(ArrayDataPtr data);
  explicit DictionaryArray(const Array& array) : DictionaryArray(array.data()) {}

  // The indices as an integer array sharing this array's validity, offset and buffers.
  const Array& indices() const { return indices_; }
  const Array& dictionary() const { return dictionary_; }
  // The dictionary index of element i, widened to int64 (any index type).
  int64_t GetValueIndex(int64_t i) const;
  DictionaryArray Slice(int64_t offset, int64_t length) const { return DictionaryArray(data_->Slice(offset, length)); }

 private:
  Array indices_;
  Array dictionary_;
};

// sparse_union / dense_union: buffers [nullptr, int8 type ids, (dense) int32 offsets], one child
// per member. A union has no validity bitmap: element i is null when its child's value is
// (IsNull() answers for the union's own, absent, bitmap; IsLogicalNull() for the value).
class UnionArray : public Array {
 public:
  UnionArray() = default;
  explicit UnionArray(ArrayDataPtr data);
  explicit UnionArray(const Array& array) : UnionArray(array.data()) {}

  int8_t type_code(int64_t i) const { return type_codes_[i]; }
  // The member (child index) element i belongs to; -1 for a type id that names no member
  // (ValidateFull refuses those).
  int child_index(int64_t i) const { return child_of_code_[static_cast<uint8_t>(type_codes_[i])]; }
  // Element i's index in its child: offset() + i (sparse) or its offset (dense).
  int64_t value_offset(int64_t i) const { return offsets_ != nullptr ? offsets_[i] : data_->offset + i; }
  const ArrayData& child(int c) const { return *data_->children[static_cast<size_t>(c)]; }
  bool IsLogicalNull(int64_t i) const;
  // The number of elements whose value is null.
  int64_t LogicalNullCount() const;

 private:
  const int8_t* type_codes_ = nullptr;  // offset applied
  const int32_t* offsets_ = nullptr;    // offset applied; dense only
  int16_t child_of_code_[256] = {};
};

// run_end_encoded: no buffers of its own; child 0 the run ends (int16/32/64), child 1 the
// values. Logical element i is run k, the first whose end exceeds offset() + i.
class RunEndEncodedArray : public Array {
 public:
  RunEndEncodedArray() = default;
  explicit RunEndEncodedArray(ArrayDataPtr data) : Array(std::move(data)) {}
  explicit RunEndEncodedArray(const Array& array) : RunEndEncodedArray(array.data()) {}

  const ArrayData& run_ends() const { return *data_->children[0]; }
  const ArrayData& values() const { return *data_->children[1]; }
  // Run end k (the child's offset applied), widened to int64.
  int64_t RunEnd(int64_t k) const;
  // The run (an index into values()) holding logical element i, by binary search.
  int64_t PhysicalIndex(int64_t i) const;
  // The number of logical elements whose value is null.
  int64_t LogicalNullCount() const;
};

// list_view (OffsetT = int32_t) and large_list_view (int64_t): buffers [validity, offsets,
// sizes], one child; list i is child elements [offset(i), offset(i) + size(i)).
template <typename OffsetT>
class ListViewArray : public Array {
 public:
  ListViewArray() = default;
  explicit ListViewArray(ArrayDataPtr data) : Array(std::move(data)) {
    offsets_ = internal::BufferValues<OffsetT>(*data_, 1);
    sizes_ = internal::BufferValues<OffsetT>(*data_, 2);
    if (offsets_) offsets_ += data_->offset;
    if (sizes_) sizes_ += data_->offset;
  }
  explicit ListViewArray(const Array& array) : ListViewArray(array.data()) {}

  OffsetT value_offset(int64_t i) const { return offsets_[i]; }
  OffsetT value_length(int64_t i) const { return sizes_[i]; }
  const ArrayData& values() const { return *data_->children[0]; }

 private:
  const OffsetT* offsets_ = nullptr;
  const OffsetT* sizes_ = nullptr;
};

// A view of `data` as the base Array (the typed views above take the same data).
inline Array MakeArray(ArrayDataPtr data) { return Array(std::move(data)); }

}  // namespace strata
