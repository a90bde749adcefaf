#include "strata/parquet/write/physical_values.h"

#include <cstring>
#include <limits>

#include "strata/array/bitmap.h"
#include "strata/array/select_values.h"
#include "strata/types/month_day_nano.h"

namespace strata::parquet {
namespace {

constexpr int64_t kNanosPerDay = int64_t{86400} * 1000 * 1000 * 1000;
constexpr int64_t kJulianDayOfEpoch = 2440588;

int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// Buffer i of `data` offset to element 0 as T.
template <typename T>
const T* Values(const ArrayData& data, int index = 1) {
  return data.buffers[static_cast<size_t>(index)]->data_as<T>() + data.offset;
}

}  // namespace

PhysicalValueGatherer::PhysicalValueGatherer(const WriterColumn& column, MemoryPool* pool)
    : column_(column), scratch_(pool), views_(pool), indices_(pool) {
  switch (column.physical_type) {
    case PhysicalType::kFixedLenByteArray: value_width_ = column.type_length; break;
    default: value_width_ = PhysicalTypeByteWidth(column.physical_type); break;
  }
}

// Writes convert(in[i]) for every valid element of [begin, end) back to back. The store is
// unconditional and the cursor advances by the validity bit, so the loop has no branch; the
// bits come 56 at a time from one unaligned 64-bit load (a run of 56 valid values converts
// without looking at them one by one).
template <typename In, typename Out, typename ConvertFn>
void PhysicalValueGatherer::Convert(const ArrayData& values, int64_t begin, int64_t end, ConvertFn convert,
                                    GatheredValues* out) {
  const In* in = Values<In>(values);
  Out* dst = reinterpret_cast<Out*>(target_);
  const uint8_t* validity = values.validity_data();
  int64_t count = 0;
  if (validity == nullptr || values.null_count == 0) {
    for (int64_t i = begin; i < end; ++i) dst[i - begin] = convert(in[i]);
    count = end - begin;
  } else {
    constexpr int kStep = 56;
    constexpr uint64_t kStepMask = (uint64_t{1} << kStep) - 1;
    const int64_t bit0 = values.offset;
    int64_t i = begin;
    // i + 64 <= end keeps the 8-byte load inside the bitmap.
    for (; i + 64 <= end; i += kStep) {
      const int64_t at = bit0 + i;
      uint64_t word;
      std::memcpy(&word, validity + (at >> 3), 8);
      word = (word >> (at & 7)) & kStepMask;
      if (word == kStepMask) {
        for (int k = 0; k < kStep; ++k) dst[count + k] = convert(in[i + k]);
        count += kStep;
        continue;
      }
      for (int k = 0; k < kStep; ++k) {
        dst[count] = convert(in[i + k]);
        count += static_cast<int64_t>((word >> k) & 1);
      }
    }
    for (; i < end; ++i) {
      dst[count] = convert(in[i]);
      count += bitmap::GetBit(validity, bit0 + i);
    }
  }
  out->count = count;
  out->fixed = target_;
}

void PhysicalValueGatherer::GatherFixedBytes(const ArrayData& values, int64_t begin, int64_t end, int width,
                                             GatheredValues* out) {
  const uint8_t* in = values.buffers[1]->data() + values.offset * width;
  const uint8_t* validity = values.validity_data();
  if (validity == nullptr || values.null_count == 0) {
    out->count = end - begin;
    if (!appending_) {
      out->fixed = in + begin * width;  // in place: no copy
    } else {
      std::memcpy(target_, in + begin * width, static_cast<size_t>((end - begin) * width));
      out->fixed = target_;
    }
    return;
  }
  uint8_t* dst = target_;
  int64_t count = 0;
  for (int64_t i = begin; i < end; ++i) {
    if (bitmap::GetBit(validity, values.offset + i)) {
      std::memcpy(dst + count * width, in + i * width, static_cast<size_t>(width));
      ++count;
    }
  }
  out->count = count;
  out->fixed = dst;
}

Status PhysicalValueGatherer::GatherBooleans(const ArrayData& values, int64_t begin, int64_t end,
                                             GatheredValues* out) {
  const uint8_t* bits = values.buffers[1]->data();
  const uint8_t* validity = values.validity_data();
  if (validity == nullptr || values.null_count == 0) {
    out->count = end - begin;
    out->bits = bits;
    out->bit_offset = values.offset + begin;
    return Status::OK();
  }
  STRATA_RETURN_NOT_OK(scratch_.ReserveScratch(bitmap::BytesForBits(end - begin) + 8));
  uint8_t* dst = scratch_.mutable_data();
  std::memset(dst, 0, static_cast<size_t>(bitmap::BytesForBits(end - begin)));
  int64_t count = 0;
  for (int64_t i = begin; i < end; ++i) {
    const int64_t at = values.offset + i;
    if (bitmap::GetBit(validity, at)) {
      if (bitmap::GetBit(bits, at)) bitmap::SetBit(dst, count);
      ++count;
    }
  }
  out->count = count;
  out->bits = dst;
  out->bit_offset = 0;
  return Status::OK();
}

Status PhysicalValueGatherer::GatherByteArrays(const ArrayData& values, int64_t begin, int64_t end,
                                               GatheredValues* out) {
  STRATA_RETURN_NOT_OK(views_.ReserveScratch((end - begin) * static_cast<int64_t>(sizeof(ByteArrayView))));
  auto* dst = views_.mutable_data_as<ByteArrayView>();
  const uint8_t* validity = values.null_count == 0 ? nullptr : values.validity_data();
  const int64_t bit0 = values.offset;
  int64_t count = 0;
  int64_t bytes = 0;
  const TypeId id = values.type->id();
  auto emit = [&](int64_t i, const uint8_t* data, int64_t length) {
    dst[count] = ByteArrayView{data, static_cast<uint32_t>(length)};
    const bool valid = validity == nullptr || bitmap::GetBit(validity, bit0 + i);
    bytes += valid ? length : 0;
    count += valid;
  };
  if (is_binary_like(id) || is_large_binary_like(id)) {
    const uint8_t* data = values.buffers[2] != nullptr ? values.buffers[2]->data() : nullptr;
    if (is_binary_like(id)) {
      const int32_t* offsets = Values<int32_t>(values);
      for (int64_t i = begin; i < end; ++i) emit(i, data + offsets[i], offsets[i + 1] - offsets[i]);
    } else {
      const int64_t* offsets = Values<int64_t>(values);
      for (int64_t i = begin; i < end; ++i) {
        const int64_t length = offsets[i + 1] - offsets[i];
        if (length > std::numeric_limits<int32_t>::max()) {
          return Status::Invalid("column '{}': a value of {} bytes exceeds Parquet's 2 GiB BYTE_ARRAY limit",
                                 column_.dotted_path, length);
        }
        emit(i, data + offsets[i], length);
      }
    }
  } else if (is_view(id)) {
    // 16-byte views: length, then 12 inline bytes, or a 4-byte prefix, buffer index, offset.
    const uint8_t* views = values.buffers[1]->data() + values.offset * 16;
    for (int64_t i = begin; i < end; ++i) {
      const uint8_t* view = views + i * 16;
      int32_t length;
      std::memcpy(&length, view, 4);
      if (length <= 12) {
        emit(i, view + 4, length);
      } else {
        int32_t buffer_index, offset;
        std::memcpy(&buffer_index, view + 8, 4);
        std::memcpy(&offset, view + 12, 4);
        emit(i, values.buffers[static_cast<size_t>(2 + buffer_index)]->data() + offset, length);
      }
    }
  } else {
    return Status::Invalid("column '{}': {} is not a binary type", column_.dotted_path, values.type->ToString());
  }
  out->count = count;
  out->views = dst;
  out->byte_array_bytes = bytes;
  return Status::OK();
}

Status PhysicalValueGatherer::GatherIntervals(const ArrayData& values, int64_t begin, int64_t end,
                                              GatheredValues* out) {
  // INTERVAL holds unsigned 32-bit months, days and milliseconds: a value it cannot hold
  // exactly fails the write (rounding nanoseconds or dropping a sign would change it).
  constexpr int64_t kNanosPerMilli = 1000000;
  // Any of the three interval types (year_month: months alone; day_time: days and
  // milliseconds), read through the month_day_nano form.
  const TypeId id = values.type->id();
  const uint8_t* in = values.buffers[1]->data();
  const uint8_t* validity = values.null_count == 0 ? nullptr : values.validity_data();
  uint8_t* dst = target_;
  int64_t count = 0;
  for (int64_t i = begin; i < end; ++i) {
    if (validity != nullptr && !bitmap::GetBit(validity, values.offset + i)) continue;
    const MonthDayNano v = LoadIntervalAsMonthDayNano(id, in, values.offset + i);
    if (v.months < 0 || v.days < 0 || v.nanoseconds < 0 || v.nanoseconds % kNanosPerMilli != 0 ||
        v.nanoseconds / kNanosPerMilli > UINT32_MAX) {
      return Status::Invalid(
          "column '{}' ({}): the value at index {} (months {}, days {}, nanoseconds {}) cannot be written as a Parquet "
          "INTERVAL, which holds non-negative months and days and a whole number of milliseconds up to {}",
          column_.dotted_path, values.type->ToString(), i, v.months, v.days, v.nanoseconds, UINT32_MAX);
    }
    const uint32_t parts[3] = {static_cast<uint32_t>(v.months), static_cast<uint32_t>(v.days),
                               static_cast<uint32_t>(v.nanoseconds / kNanosPerMilli)};
    std::memcpy(dst + count * 12, parts, sizeof(parts));
    ++count;
  }
  out->count = count;
  out->fixed = dst;
  return Status::OK();
}

Status PhysicalValueGatherer::Gather(const ArrayData& values, int64_t begin, int64_t end, GatheredValues* out,
                                     ResizableBuffer* append_to) {
  *out = GatheredValues{};
  if (begin >= end) return Status::OK();
  const int64_t n = end - begin;
  if (column_.conversion == PhysicalConversion::kByteArray) return GatherByteArrays(values, begin, end, out);
  if (column_.conversion == PhysicalConversion::kBoolean) return GatherBooleans(values, begin, end, out);
  if (column_.conversion == PhysicalConversion::kNull) return Status::OK();
  const int64_t bytes = n * std::max(value_width_, 1);
  if (append_to != nullptr) {
    STRATA_RETURN_NOT_OK(append_to->GrowForAppend(append_to->size() + bytes));
    target_ = append_to->mutable_data() + append_to->size();
    appending_ = true;
  } else {
    STRATA_RETURN_NOT_OK(scratch_.ReserveScratch(bytes));
    target_ = scratch_.mutable_data();
    appending_ = false;
  }
  STRATA_RETURN_NOT_OK(GatherFixedWidth(values, begin, end, out));
  if (append_to != nullptr) append_to->set_size(append_to->size() + out->count * value_width_);
  return Status::OK();
}

Status PhysicalValueGatherer::GatherFixedWidth(const ArrayData& values, int64_t begin, int64_t end,
                                               GatheredValues* out) {
  switch (column_.conversion) {
    case PhysicalConversion::kNone:
      // With nulls, 4- and 8-byte values are compacted by SelectValues (AVX-512 compress
      // where the CPU has it): dropping the nulls then costs about what the copy of a
      // column without nulls does.
      if (values.validity_data() != nullptr && values.null_count != 0 && (value_width_ == 4 || value_width_ == 8)) {
        const uint8_t* validity = values.validity_data();
        const int64_t bit = values.offset + begin;
        out->count = value_width_ == 4
                         ? SelectValues32(Values<uint32_t>(values) + begin, validity, bit, end - begin,
                                          reinterpret_cast<uint32_t*>(target_))
                         : SelectValues64(Values<uint64_t>(values) + begin, validity, bit, end - begin,
                                          reinterpret_cast<uint64_t*>(target_));
        out->fixed = target_;
      } else {
        GatherFixedBytes(values, begin, end, value_width_, out);
      }
      return Status::OK();
    case PhysicalConversion::kSignExtend8:
      Convert<int8_t, int32_t>(values, begin, end, [](int8_t v) { return int32_t{v}; }, out);
      return Status::OK();
    case PhysicalConversion::kSignExtend16:
      Convert<int16_t, int32_t>(values, begin, end, [](int16_t v) { return int32_t{v}; }, out);
      return Status::OK();
    case PhysicalConversion::kZeroExtend8:
      Convert<uint8_t, int32_t>(values, begin, end, [](uint8_t v) { return int32_t{v}; }, out);
      return Status::OK();
    case PhysicalConversion::kZeroExtend16:
      Convert<uint16_t, int32_t>(values, begin, end, [](uint16_t v) { return int32_t{v}; }, out);
      return Status::OK();
    case PhysicalConversion::kMultiply: {
      const int64_t factor = column_.multiplier;
      bool overflow = false;
      if (column_.physical_type == PhysicalType::kInt32) {
        Convert<int32_t, int32_t>(values, begin, end, [&](int32_t v) {
          int32_t r;
          overflow |= __builtin_mul_overflow(v, static_cast<int32_t>(factor), &r);
          return r;
        }, out);
      } else {
        Convert<int64_t, int64_t>(values, begin, end, [&](int64_t v) {
          int64_t r;
          overflow |= __builtin_mul_overflow(v, factor, &r);
          return r;
        }, out);
      }
      if (overflow) {
        return Status::Invalid("column '{}': a {} value overflows when converted to milliseconds",
                               column_.dotted_path, values.type->ToString());
      }
      return Status::OK();
    }
    case PhysicalConversion::kDate64ToDate32:
      Convert<int64_t, int32_t>(values, begin, end,
                                [](int64_t ms) { return static_cast<int32_t>(FloorDiv(ms, 86400000)); }, out);
      return Status::OK();
    case PhysicalConversion::kDecimalToInt32:
    case PhysicalConversion::kDecimalToInt64:
    case PhysicalConversion::kDecimalToFixed: {
      // Decimals are little-endian two's complement of 4 to 32 bytes; the value fits the
      // physical width (the precision chose it), so the low bytes carry it.
      const int in_width = values.type->byte_width();
      const uint8_t* in = values.buffers[1]->data() + values.offset * in_width;
      const uint8_t* validity = values.null_count == 0 ? nullptr : values.validity_data();
      uint8_t* dst = target_;
      const int width = value_width_;
      const bool big_endian = column_.conversion == PhysicalConversion::kDecimalToFixed;
      int64_t count = 0;
      for (int64_t i = begin; i < end; ++i) {
        if (validity != nullptr && !bitmap::GetBit(validity, values.offset + i)) continue;
        const uint8_t* v = in + i * in_width;
        uint8_t* o = dst + count * width;
        if (big_endian) {
          for (int b = 0; b < width; ++b) o[b] = v[width - 1 - b];
        } else {
          std::memcpy(o, v, static_cast<size_t>(width));
        }
        ++count;
      }
      out->count = count;
      out->fixed = dst;
      return Status::OK();
    }
    case PhysicalConversion::kTimestampToInt96: {
      int64_t to_nanos = 1;
      switch (values.type->unit()) {
        case ::strata::TimeUnit::kSecond: to_nanos = 1000000000; break;
        case ::strata::TimeUnit::kMilli: to_nanos = 1000000; break;
        case ::strata::TimeUnit::kMicro: to_nanos = 1000; break;
        case ::strata::TimeUnit::kNano: to_nanos = 1; break;
      }
      const int64_t* in = Values<int64_t>(values);
      const uint8_t* validity = values.null_count == 0 ? nullptr : values.validity_data();
      uint8_t* dst = target_;
      int64_t count = 0;
      for (int64_t i = begin; i < end; ++i) {
        if (validity != nullptr && !bitmap::GetBit(validity, values.offset + i)) continue;
        const int64_t days = FloorDiv(in[i], kNanosPerDay / to_nanos);
        const int64_t nanos = (in[i] - days * (kNanosPerDay / to_nanos)) * to_nanos;
        const auto julian = static_cast<int32_t>(days + kJulianDayOfEpoch);
        std::memcpy(dst + count * 12, &nanos, 8);
        std::memcpy(dst + count * 12 + 8, &julian, 4);
        ++count;
      }
      out->count = count;
      out->fixed = dst;
      return Status::OK();
    }
    case PhysicalConversion::kIntervalToFixed: return GatherIntervals(values, begin, end, out);
    default:
      return Status::Invalid("column '{}': no conversion for {}", column_.dotted_path, values.type->ToString());
  }
}

Status PhysicalValueGatherer::GatherIndices(const ArrayData& indices, int64_t begin, int64_t end,
                                            int64_t dictionary_length, const int32_t** out, int64_t* count) {
  STRATA_RETURN_NOT_OK(indices_.ReserveScratch((end - begin) * 4));
  auto* dst = indices_.mutable_data_as<int32_t>();
  const uint8_t* validity = indices.null_count == 0 ? nullptr : indices.validity_data();
  int64_t n = 0;
  bool out_of_range = false;
  auto run = [&](const auto* in) {
    for (int64_t i = begin; i < end; ++i) {
      const int64_t index = static_cast<int64_t>(in[i]);
      const bool valid = validity == nullptr || bitmap::GetBit(validity, indices.offset + i);
      out_of_range |= valid && (index < 0 || index >= dictionary_length);
      dst[n] = static_cast<int32_t>(index);
      n += valid;
    }
  };
  const DataType& index_type = indices.type->id() == TypeId::kDictionary ? *indices.type->index_type() : *indices.type;
  switch (index_type.id()) {
    case TypeId::kInt8: run(Values<int8_t>(indices)); break;
    case TypeId::kInt16: run(Values<int16_t>(indices)); break;
    case TypeId::kInt32: run(Values<int32_t>(indices)); break;
    case TypeId::kInt64: run(Values<int64_t>(indices)); break;
    case TypeId::kUInt8: run(Values<uint8_t>(indices)); break;
    case TypeId::kUInt16: run(Values<uint16_t>(indices)); break;
    case TypeId::kUInt32: run(Values<uint32_t>(indices)); break;
    case TypeId::kUInt64: run(Values<uint64_t>(indices)); break;
    default:
      return Status::Invalid("column '{}': dictionary indices of type {}", column_.dotted_path,
                             index_type.ToString());
  }
  if (out_of_range) {
    return Status::Invalid("column '{}': a dictionary index is outside the dictionary of {} values",
                           column_.dotted_path, dictionary_length);
  }
  *out = dst;
  *count = n;
  return Status::OK();
}

}  // namespace strata::parquet
