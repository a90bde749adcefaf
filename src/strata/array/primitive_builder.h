// Builders for fixed-width values: FixedWidthBuilder holds the byte-level logic (values
// buffer + validity) once, and PrimitiveBuilder<T> adds typed, inline hot paths on top
// (header-only, so there is no per-type code to instantiate in a .cc).
#pragma once

#include <cstring>

#include "strata/array/array_builder.h"

namespace strata {

// Values of `byte_width` bytes each, in buffers[1]. Counts are rows.
class FixedWidthBuilder : public ArrayBuilder {
 public:
  FixedWidthBuilder(TypePtr type, int32_t byte_width, MemoryPool* pool);

  int32_t byte_width() const { return byte_width_; }

  Status Reserve(int64_t additional_rows) override;
  // Null slots get zeroed value bytes.
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  // Appends n rows from `values` (n * byte_width bytes) with an optional LSB-first validity
  // bitmap starting at bit `validity_offset`; value bytes of null slots are zeroed.
  Status AppendBytes(const uint8_t* values, int64_t n, const uint8_t* validity = nullptr,
                     int64_t validity_offset = 0);
  // Decoder hook: appends n rows with the given validity and returns where their n *
  // byte_width value bytes go (uninitialised; the caller writes every slot, zeroing null
  // ones). The pointer is valid until the next append, Reset or Finish.
  Result<uint8_t*> AppendUninitializedBytes(int64_t n, const uint8_t* validity = nullptr,
                                            int64_t validity_offset = 0);

  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 protected:
  // Grows the values buffer (doubling) to hold at least `min_rows` rows.
  Status GrowRows(int64_t min_rows);
  uint8_t* values_data() const { return values_->mutable_data(); }

  int32_t byte_width_;
  std::shared_ptr<ResizableBuffer> values_;
};

// Builds arrays of C type T: int8_t..uint64_t, float, double, uint16_t for float16, and
// int32_t / int64_t for date32/date64, time32/time64, timestamp and duration (pass the type).
template <typename T>
class PrimitiveBuilder : public FixedWidthBuilder {
 public:
  using value_type = T;
  PrimitiveBuilder(TypePtr type, MemoryPool* pool) : FixedWidthBuilder(std::move(type), sizeof(T), pool) {}

  Status Append(T value) {
    if (__builtin_expect(length_ == capacity_, 0)) STRATA_RETURN_NOT_OK(GrowRows(length_ + 1));
    UnsafeAppend(value);
    return Status::OK();
  }
  // Precondition: length() < capacity() (after Reserve). No checks, no allocation.
  void UnsafeAppend(T value) {
    std::memcpy(values_data() + length_ * sizeof(T), &value, sizeof(T));
    if (uint8_t* bits = active_validity()) bitmap::SetBit(bits, length_);
    ++length_;
  }
  // Bulk append of n rows; validity is LSB-first from bit validity_offset (nullptr = all
  // valid). Null slots' values are stored as zero.
  Status AppendValues(const T* values, int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0) {
    return AppendBytes(reinterpret_cast<const uint8_t*>(values), n, validity, validity_offset);
  }
  // See AppendUninitializedBytes.
  Result<T*> AppendUninitialized(int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0) {
    STRATA_ASSIGN_OR_RETURN(uint8_t * p, AppendUninitializedBytes(n, validity, validity_offset));
    return reinterpret_cast<T*>(p);
  }
  // The values appended so far (length() of them); valid until the next append.
  const T* values() const { return reinterpret_cast<const T*>(values_->data()); }
  T* mutable_values() { return reinterpret_cast<T*>(values_data()); }
};

using Int8Builder = PrimitiveBuilder<int8_t>;
using Int16Builder = PrimitiveBuilder<int16_t>;
using Int32Builder = PrimitiveBuilder<int32_t>;
using Int64Builder = PrimitiveBuilder<int64_t>;
using UInt8Builder = PrimitiveBuilder<uint8_t>;
using UInt16Builder = PrimitiveBuilder<uint16_t>;
using UInt32Builder = PrimitiveBuilder<uint32_t>;
using UInt64Builder = PrimitiveBuilder<uint64_t>;
using FloatBuilder = PrimitiveBuilder<float>;
using DoubleBuilder = PrimitiveBuilder<double>;

}  // namespace strata
