// BinaryBuilder<OffsetT>: binary / string (int32 offsets) and large_binary / large_string
// (int64 offsets). Rows go to the offsets buffer (length() + 1 entries), bytes to the data
// buffer. Row counts (Reserve, Append*) and byte counts (ReserveData, data_length) are kept
// apart: a reader that knows both up front calls Reserve(rows) and ReserveData(bytes) once
// and then appends without any allocation.
#pragma once

#include <limits>
#include <string_view>

#include "strata/array/array_builder.h"

namespace strata {

template <typename OffsetT>
class BinaryBuilder : public ArrayBuilder {
 public:
  using offset_type = OffsetT;
  // The most bytes one array may hold: the largest offset.
  static constexpr int64_t kMaxDataLength = static_cast<int64_t>(std::numeric_limits<OffsetT>::max());

  // `type` is binary / string for int32_t, large_binary / large_string for int64_t.
  BinaryBuilder(TypePtr type, MemoryPool* pool);

  Status Append(std::string_view value) { return Append(value.data(), static_cast<int64_t>(value.size())); }
  Status Append(const void* bytes, int64_t n) {
    if (__builtin_expect(length_ == capacity_, 0)) STRATA_RETURN_NOT_OK(GrowRows(length_ + 1));
    if (__builtin_expect(data_->size() + n > data_->capacity(), 0)) STRATA_RETURN_NOT_OK(GrowData(n));
    UnsafeAppend(bytes, n);
    return Status::OK();
  }
  // Precondition: length() < capacity() and n bytes fit in the reserved data capacity
  // (Reserve + ReserveData). No checks, no allocation.
  void UnsafeAppend(const void* bytes, int64_t n) {
    if (n > 0) data_->UnsafeAppend(bytes, n);  // memcpy must not see a null pointer
    offsets()[length_ + 1] = static_cast<OffsetT>(data_->size());
    if (uint8_t* bits = active_validity()) bitmap::SetBit(bits, length_);
    ++length_;
  }
  // Appends a valid value of `n` bytes and returns where to write them (uninitialised;
  // valid until the next append). For decoders that assemble a value in place (e.g. a
  // delta-encoded prefix + suffix).
  Result<uint8_t*> AppendUninitialized(int64_t n);

  // n rows from string views, optional LSB-first validity (null slots' views are ignored).
  Status AppendValues(const std::string_view* values, int64_t n, const uint8_t* validity = nullptr,
                      int64_t validity_offset = 0);
  // n rows whose values lie end to end in `data` (`data_size` bytes); lengths[i] is the byte
  // length of row i (null rows usually 0). Fails with Invalid when a length is negative or
  // the lengths do not add up to data_size.
  Status AppendConcatenated(const uint8_t* data, int64_t data_size, const int32_t* lengths, int64_t n,
                            const uint8_t* validity = nullptr, int64_t validity_offset = 0);

  // Makes room for `additional_bytes` more value bytes, exactly.
  Status ReserveData(int64_t additional_bytes);
  // Bytes appended so far / bytes that fit without growing.
  int64_t data_length() const { return data_->size(); }
  int64_t data_capacity() const { return data_->capacity(); }

  Status Reserve(int64_t additional_rows) override;
  // Null rows and empty values take no bytes.
  Status AppendNulls(int64_t n) override;
  Status AppendEmptyValues(int64_t n) override;
  Result<ArrayDataPtr> Finish() override;
  void Reset() override;
  int64_t memory_size() const override;

 private:
  OffsetT* offsets() const { return reinterpret_cast<OffsetT*>(offsets_->mutable_data()); }
  Status GrowRows(int64_t min_rows);
  Status GrowData(int64_t additional_bytes);
  Status CheckDataLength(int64_t total_bytes) const;
  // Ensures the offsets buffer exists with offsets[0] = 0 (after construction/Finish).
  Status EnsureFirstOffset();

  std::shared_ptr<ResizableBuffer> offsets_;
  std::shared_ptr<ResizableBuffer> data_;
};

using StringBuilder = BinaryBuilder<int32_t>;
using LargeStringBuilder = BinaryBuilder<int64_t>;
using LargeBinaryBuilder = BinaryBuilder<int64_t>;

extern template class BinaryBuilder<int32_t>;
extern template class BinaryBuilder<int64_t>;

}  // namespace strata
