#include "strata/parquet/read/value_conversion.h"

#include <climits>
#include <cstring>

#include "strata/parquet/decimal_text.h"
#include "strata/parquet/read/value_decoder.h"
#include "strata/types/month_day_nano.h"

namespace strata::parquet {
namespace {

template <int kWidth>
void SpreadFixed(uint8_t* out, int width, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null) {
  const int w = kWidth > 0 ? kWidth : width;
  int64_t j = non_null - 1;
  for (int64_t i = count - 1; i >= 0 && j < i; --i) {
    if (IsBitSet(validity, slot + i)) {
      std::memcpy(out + i * w, out + j * w, static_cast<size_t>(w));
      --j;
    } else {
      std::memset(out + i * w, 0, static_cast<size_t>(w));
    }
  }
}

}  // namespace

Result<ValueConversion> ChooseValueConversion(const ColumnDescriptor& column, const DataType& output) {
  const TypeId out = output.id();
  const int physical_width = PhysicalValueWidth(column.physical_type, column.type_length);
  const int output_width = output.byte_width();
  if (out == TypeId::kNull) return ValueConversion::kDiscard;
  if (IsDecimalTextColumn(column)) {
    // Text in utf8 or large_utf8; the readers decode the raw bytes as (large_)binary or
    // fixed_size_binary first.
    if (out == TypeId::kString || out == TypeId::kLargeString) return ValueConversion::kDecimalText;
    if (is_string(out)) {
      return Status::NotImplemented("column '{}': decimal text values cannot be read as {}", column.dotted_path,
                                    output.ToString());
    }
  }
  ValueConversion conversion = ValueConversion::kCopy;
  switch (column.physical_type) {
    case PhysicalType::kBoolean:
      conversion = ValueConversion::kBits;
      break;
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      conversion = is_decimal(out)                  ? ValueConversion::kSignExtend
                   : output_width < physical_width ? ValueConversion::kNarrow
                                                   : ValueConversion::kCopy;
      break;
    case PhysicalType::kInt96:
      conversion = ValueConversion::kInt96;
      break;
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      break;
    case PhysicalType::kByteArray:
      conversion = is_decimal(out) ? ValueConversion::kByteArrayDecimal : ValueConversion::kByteArray;
      break;
    case PhysicalType::kFixedLenByteArray:
      if (out == TypeId::kIntervalMonthDayNano) {
        if (physical_width != kParquetIntervalBytes) {
          return Status::Corrupt("column '{}': INTERVAL values are {} bytes, not {}", column.dotted_path,
                                 physical_width, kParquetIntervalBytes);
        }
        return ValueConversion::kInterval;
      }
      conversion = is_decimal(out) ? ValueConversion::kBigEndianDecimal : ValueConversion::kCopy;
      if (conversion == ValueConversion::kBigEndianDecimal && physical_width > output_width) {
        return Status::Corrupt("column '{}': {}-byte decimal values do not fit {}", column.dotted_path,
                               physical_width, output.ToString());
      }
      break;
    default:
      return Status::Corrupt("column '{}' has an unknown physical type", column.dotted_path);
  }
  if (conversion == ValueConversion::kCopy && physical_width != output_width) {
    return Status::NotImplemented("column '{}': {} values cannot be read as {}", column.dotted_path,
                                  PhysicalTypeName(column.physical_type), output.ToString());
  }
  return conversion;
}

namespace {

template <typename Physical>
void SignExtendTo128(const uint8_t* in, int64_t count, uint8_t* out) {
  for (int64_t i = 0; i < count; ++i) {
    Physical v;
    std::memcpy(&v, in + i * static_cast<int64_t>(sizeof(Physical)), sizeof(Physical));
    const int64_t low = v;
    const int64_t high = low >> 63;  // all ones when negative
    std::memcpy(out + i * 16, &low, 8);
    std::memcpy(out + i * 16 + 8, &high, 8);
  }
}

}  // namespace

void ConvertFixedValues(ValueConversion conversion, const uint8_t* in, int physical_width, int64_t count,
                        uint8_t* out, int output_width) {
  const int w = output_width;
  switch (conversion) {
    case ValueConversion::kNarrow:
      // Little-endian: the low bytes of the int32 are the narrow value.
      for (int64_t i = 0; i < count; ++i) std::memcpy(out + i * w, in + i * 4, static_cast<size_t>(w));
      return;
    case ValueConversion::kSignExtend:
      // decimal128 from INT32/INT64 (most decimals) in loops of fixed widths: a memset call of
      // a runtime length per value was a tenth of a lineitem scan's conversions.
      if (w == 16 && physical_width == 8) return SignExtendTo128<int64_t>(in, count, out);
      if (w == 16 && physical_width == 4) return SignExtendTo128<int32_t>(in, count, out);
      for (int64_t i = 0; i < count; ++i) {
        int64_t v;
        if (physical_width == 4) {
          int32_t v32;
          std::memcpy(&v32, in + i * 4, 4);
          v = v32;
        } else {
          std::memcpy(&v, in + i * 8, 8);
        }
        std::memcpy(out + i * w, &v, 8);
        std::memset(out + i * w + 8, v < 0 ? 0xff : 0x00, static_cast<size_t>(w - 8));
      }
      return;
    case ValueConversion::kBigEndianDecimal:
      for (int64_t i = 0; i < count; ++i) BigEndianToDecimal(in + i * physical_width, physical_width, out + i * w, w);
      return;
    default:
      return;
  }
}

int64_t ConvertInt96(const uint8_t* in, int64_t count, ::strata::TimeUnit unit, bool wrap, uint8_t* out) {
  constexpr int64_t kJulianEpochDay = 2440588;
  constexpr int64_t kSecondsPerDay = 86400;
  if (wrap) {
    // The scan-summary contract (and Spark's old readers): nanoseconds, wrapping.
    constexpr uint64_t kNanosPerDay = uint64_t{kSecondsPerDay} * 1000000000ULL;
    for (int64_t i = 0; i < count; ++i) {
      uint64_t nanos;
      int32_t day;
      std::memcpy(&nanos, in + i * 12, 8);
      std::memcpy(&day, in + i * 12 + 8, 4);
      const uint64_t value = static_cast<uint64_t>(int64_t{day} - kJulianEpochDay) * kNanosPerDay + nanos;
      std::memcpy(out + i * 8, &value, 8);
    }
    return -1;
  }
  const int64_t per_second = unit == ::strata::TimeUnit::kNano ? 1000000000 : unit == ::strata::TimeUnit::kMicro ? 1000000 : 1000;
  const int64_t nanos_per_tick = 1000000000 / per_second;
  const int64_t per_day = kSecondsPerDay * per_second;
  for (int64_t i = 0; i < count; ++i) {
    int64_t nanos;
    int32_t day;
    std::memcpy(&nanos, in + i * 12, 8);
    std::memcpy(&day, in + i * 12 + 8, 4);
    // Floor division: a negative nanosecond count (some writers) stays before its day.
    int64_t ticks = nanos / nanos_per_tick;
    if (nanos % nanos_per_tick < 0) --ticks;
    int64_t value;
    if (__builtin_mul_overflow(int64_t{day} - kJulianEpochDay, per_day, &value) ||
        __builtin_add_overflow(value, ticks, &value)) {
      return i;
    }
    std::memcpy(out + i * 8, &value, 8);
  }
  return -1;
}

Status Int96OutOfRange(const uint8_t* value, ::strata::TimeUnit unit, const std::string& where) {
  int32_t day;
  std::memcpy(&day, value + 8, 4);
  return Status::Invalid(
      "{}: an INT96 timestamp (Julian day {}) is outside the range of timestamp[{}]; read INT96 as microseconds "
      "or milliseconds (FileReaderOptions::schema.int96_unit, --int96-unit us)",
      where, day, TimeUnitName(unit));
}

int64_t ConvertIntervals(const uint8_t* in, int64_t count, uint8_t* out) {
  constexpr int64_t kNanosPerMilli = 1000000;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t parts[3];  // months, days, milliseconds
    std::memcpy(parts, in + i * kParquetIntervalBytes, sizeof(parts));
    if (parts[0] > INT32_MAX || parts[1] > INT32_MAX) return i;
    const MonthDayNano value{static_cast<int32_t>(parts[0]), static_cast<int32_t>(parts[1]),
                             int64_t{parts[2]} * kNanosPerMilli};
    StoreMonthDayNano(value, out + i * kMonthDayNanoBytes);
  }
  return -1;
}

Status IntervalOutOfRange(const uint8_t* value, const std::string& where) {
  uint32_t parts[3];
  std::memcpy(parts, value, sizeof(parts));
  return Status::Invalid(
      "{}: an INTERVAL value (months {}, days {}, milliseconds {}) does not fit month_day_nano_interval, whose "
      "months and days are signed 32-bit (at most {})",
      where, parts[0], parts[1], parts[2], INT32_MAX);
}

int64_t SlotOfDenseValue(const uint8_t* validity, int64_t slot, int64_t count, int64_t dense) {
  if (validity == nullptr) return slot + dense;
  for (int64_t i = slot; i < slot + count; ++i) {
    if ((validity[i >> 3] >> (i & 7)) & 1) {
      if (dense-- == 0) return i;
    }
  }
  return slot + count;
}

void SpreadValues(uint8_t* out, int width, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null) {
  if (non_null == count) return;
  switch (width) {
    case 1: return SpreadFixed<1>(out, width, validity, slot, count, non_null);
    case 2: return SpreadFixed<2>(out, width, validity, slot, count, non_null);
    case 4: return SpreadFixed<4>(out, width, validity, slot, count, non_null);
    case 8: return SpreadFixed<8>(out, width, validity, slot, count, non_null);
    case 16: return SpreadFixed<16>(out, width, validity, slot, count, non_null);
    default: return SpreadFixed<0>(out, width, validity, slot, count, non_null);
  }
}

void SpreadBits(uint8_t* bits, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null) {
  int64_t j = non_null - 1;
  for (int64_t i = count - 1; i >= 0 && j < i; --i) {
    const int64_t dst = slot + i;
    bool value = false;
    if (IsBitSet(validity, dst)) value = IsBitSet(bits, slot + j--);
    const uint8_t mask = static_cast<uint8_t>(1u << (dst & 7));
    bits[dst >> 3] = value ? (bits[dst >> 3] | mask) : (bits[dst >> 3] & ~mask);
  }
}

Status ConvertByteArrayDecimals(const ByteArrayView* views, const uint8_t* validity, int64_t slot, int64_t count,
                                uint8_t* out, int width, const DataType& type) {
  int64_t j = 0;
  for (int64_t i = 0; i < count; ++i) {
    if (validity != nullptr && !IsBitSet(validity, slot + i)) {
      std::memset(out + i * width, 0, static_cast<size_t>(width));
      continue;
    }
    const ByteArrayView& v = views[j++];
    if (v.length > static_cast<uint32_t>(width)) {
      return Status::Corrupt("a {}-byte decimal value does not fit {}", v.length, type.ToString());
    }
    BigEndianToDecimal(v.data, v.length, out + i * width, width);
  }
  return Status::OK();
}

namespace {

// Copies `length` bytes, Width <= length <= 2 * Width, as the first and the last Width bytes
// (overlapping in the middle): fixed-width loads and stores that stay inside the value.
template <int Width>
inline void CopyHeadAndTail(uint8_t* out, const uint8_t* in, uint32_t length) {
  uint8_t head[Width], tail[Width];
  std::memcpy(head, in, Width);
  std::memcpy(tail, in + length - Width, Width);
  std::memcpy(out, head, Width);
  std::memcpy(out + length - Width, tail, Width);
}

// Copies one value: up to 32 bytes without a call, longer ones by memcpy. Most strings are
// short, and a memcpy call a value was the larger part of copying them.
inline void CopyValue(uint8_t* out, const uint8_t* in, uint32_t length) {
  if (length > 32) {
    std::memcpy(out, in, length);
  } else if (length >= 16) {
    CopyHeadAndTail<16>(out, in, length);
  } else if (length >= 8) {
    CopyHeadAndTail<8>(out, in, length);
  } else if (length >= 4) {
    CopyHeadAndTail<4>(out, in, length);
  } else if (length > 0) {
    out[0] = in[0];
    out[length / 2] = in[length / 2];
    out[length - 1] = in[length - 1];
  }
}

// AppendByteArraysAtSlots with `Offset` offsets, the values written from `*position` on.
template <typename Offset>
void WriteByteArrays(const ByteArrayView* views, const uint8_t* validity, int64_t slot, int64_t count,
                     int64_t non_null, Offset* offsets, uint8_t* data, int64_t* position) {
  int64_t pos = *position;
  int64_t j = 0;
  if (validity == nullptr || non_null == count) {
    for (int64_t i = 0; i < count; ++i) {
      const ByteArrayView& v = views[j++];
      CopyValue(data + pos, v.data, v.length);
      pos += v.length;
      offsets[slot + 1 + i] = static_cast<Offset>(pos);
    }
  } else {
    for (int64_t i = 0; i < count; ++i) {
      if (IsBitSet(validity, slot + i)) {
        const ByteArrayView& v = views[j++];
        CopyValue(data + pos, v.data, v.length);
        pos += v.length;
      }
      offsets[slot + 1 + i] = static_cast<Offset>(pos);
    }
  }
  *position = pos;
}

}  // namespace

void AppendByteArraysAtSlots(const ByteArrayView* views, const uint8_t* validity, int64_t slot, int64_t count,
                             int64_t non_null, bool large_offsets, uint8_t* offsets, ResizableBuffer* data) {
  int64_t position = data->size();
  if (large_offsets) {
    WriteByteArrays(views, validity, slot, count, non_null, reinterpret_cast<int64_t*>(offsets), data->mutable_data(),
                    &position);
  } else {
    WriteByteArrays(views, validity, slot, count, non_null, reinterpret_cast<int32_t*>(offsets), data->mutable_data(),
                    &position);
  }
  data->set_size(position);
}

}  // namespace strata::parquet
