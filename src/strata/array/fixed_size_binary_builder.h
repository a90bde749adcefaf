// FixedSizeBinaryBuilder: values of a fixed byte width (fixed_size_binary[w], and decimal128
// / decimal256 as 16 / 32 little-endian two's-complement bytes, month_day_nano_interval as
// its 16 bytes, see strata/types/month_day_nano.h). Counts are rows.
#pragma once

#include <string_view>

#include "strata/array/primitive_builder.h"
#include "strata/types/month_day_nano.h"

namespace strata {

class FixedSizeBinaryBuilder : public FixedWidthBuilder {
 public:
  // `type` is fixed_size_binary, decimal128, decimal256, day_time_interval or
  // month_day_nano_interval.
  FixedSizeBinaryBuilder(TypePtr type, MemoryPool* pool)
      : FixedWidthBuilder(type, static_cast<int32_t>(type->byte_width()), pool) {}

  // Appends byte_width() bytes from `value`.
  Status Append(const uint8_t* value) {
    if (__builtin_expect(length_ == capacity_, 0)) STRATA_RETURN_NOT_OK(GrowRows(length_ + 1));
    UnsafeAppend(value);
    return Status::OK();
  }
  // Fails with Invalid when the size is not byte_width().
  Status Append(std::string_view value) {
    if (static_cast<int64_t>(value.size()) != byte_width_) {
      return Status::Invalid("value of {} bytes appended to {}", value.size(), type_->ToString());
    }
    return Append(reinterpret_cast<const uint8_t*>(value.data()));
  }
  // Precondition: length() < capacity().
  void UnsafeAppend(const uint8_t* value) {
    if (byte_width_ > 0) std::memcpy(values_data() + length_ * byte_width_, value, static_cast<size_t>(byte_width_));
    if (uint8_t* bits = active_validity()) bitmap::SetBit(bits, length_);
    ++length_;
  }
  // n rows from n * byte_width() contiguous bytes; see FixedWidthBuilder::AppendBytes.
  Status AppendValues(const uint8_t* values, int64_t n, const uint8_t* validity = nullptr,
                      int64_t validity_offset = 0) {
    return AppendBytes(values, n, validity, validity_offset);
  }
  Result<uint8_t*> AppendUninitialized(int64_t n, const uint8_t* validity = nullptr, int64_t validity_offset = 0) {
    return AppendUninitializedBytes(n, validity, validity_offset);
  }
};

// month_day_nano_interval values, appended as MonthDayNano.
class MonthDayNanoBuilder : public FixedSizeBinaryBuilder {
 public:
  explicit MonthDayNanoBuilder(MemoryPool* pool) : FixedSizeBinaryBuilder(month_day_nano_interval(), pool) {}

  using FixedSizeBinaryBuilder::Append;
  Status Append(const MonthDayNano& value) {
    uint8_t bytes[kMonthDayNanoBytes];
    StoreMonthDayNano(value, bytes);
    return Append(bytes);
  }
};

// day_time_interval values, appended as DayTime.
class DayTimeBuilder : public FixedSizeBinaryBuilder {
 public:
  explicit DayTimeBuilder(MemoryPool* pool) : FixedSizeBinaryBuilder(day_time_interval(), pool) {}

  using FixedSizeBinaryBuilder::Append;
  Status Append(const DayTime& value) {
    uint8_t bytes[kDayTimeBytes];
    StoreDayTime(value, bytes);
    return Append(bytes);
  }
};

}  // namespace strata
