// BooleanBuilder: bit-packed (LSB-first) boolean values plus validity. Counts are rows.
#pragma once

#include "strata/array/array_builder.h"

namespace strata {

class BooleanBuilder : public ArrayBuilder {
 public:
  BooleanBuilder(TypePtr type, MemoryPool* pool);
  explicit BooleanBuilder(MemoryPool* pool);

  Status Append(bool value) {
    if (__builtin_expect(length_ == capacity_, 0)) STRATA_RETURN_NOT_OK(GrowRows(length_ + 1));
    UnsafeAppend(value);
    return Status::OK();
  }
  // Precondition: length() < capacity().
  void UnsafeAppend(bool value) {
    bitmap::SetBitTo(values_->mutable_data(), length_, value);
    if (uint8_t* bits = active_validity()) bitmap::SetBit(bits, length_);
    ++length_;
  }
  // One value per byte (nonzero = true), n rows, optional LSB-first validity. Null slots
  // are stored as false.
  Status AppendValues(const uint8_t* values, int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0);
  Status AppendValues(const bool* values, int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0) {
    return AppendValues(reinterpret_cast<const uint8_t*>(values), n, validity, validity_offset);
  }
  // Values already bit-packed: bits [bits_offset, bits_offset + n) of `bits`.
  Status AppendBitmap(const uint8_t* bits, int64_t bits_offset, int64_t n, const uint8_t* validity = nullptr,
                      int64_t validity_offset = 0);

  Status Reserve(int64_t additional_rows) override;
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 private:
  Status GrowRows(int64_t min_rows);
  // Zeroes the value bits of null slots among the last n rows.
  void ClearNullValues(int64_t first_row, int64_t n, const uint8_t* validity, int64_t validity_offset);

  std::shared_ptr<ResizableBuffer> values_;
};

}  // namespace strata
