// The text of single values of each non-text type, for the CSV writer's cells (value_writer)
// and the JSON of nested values (json_value_writer). Each Format is made per block from the
// array's ArrayData and writes element i (an absolute index: data.offset included) into
// memory with room for MaxChars(i) bytes. Internal to the CSV layer.
#pragma once

#include <charconv>
#include <cmath>
#include <cstring>
#include <string_view>

#include "strata/array/array.h"
#include "strata/array/value_text.h"
#include "strata/csv/write_options.h"
#include "strata/util/base64.h"

namespace strata::csv::formats {

struct FormatOptions {
  WriteOptions::BinaryValues binary = WriteOptions::BinaryValues::kHex;
};

// How a value appears inside JSON: as its text, or its text in quotes.
enum class JsonForm { kBare, kQuoted, kFloat /* bare when finite, else quoted */ };

// Buffer `index` of `data` as T (nullptr when absent, as in empty arrays).
template <typename T>
const T* Values(const ArrayData& data, size_t index) {
  return data.buffers.size() > index && data.buffers[index] != nullptr ? data.buffers[index]->data_as<T>() : nullptr;
}

inline bool IsNullAt(const ArrayData& data, int64_t index) {
  if (data.type->id() == TypeId::kNull) return true;
  const uint8_t* validity = data.validity_data();
  return validity != nullptr && !bitmap::GetBit(validity, index);
}

template <typename T>
struct IntegerFormat {
  static constexpr JsonForm kJson = JsonForm::kBare;
  const T* values;
  IntegerFormat(const ArrayData& data, const FormatOptions&) : values(Values<T>(data, 1)) {}
  static int64_t MaxChars(int64_t) { return 24; }
  char* Write(int64_t i, char* out) const { return std::to_chars(out, out + 24, values[i]).ptr; }
};

struct BooleanFormat {
  static constexpr JsonForm kJson = JsonForm::kBare;
  const uint8_t* bits;
  BooleanFormat(const ArrayData& data, const FormatOptions&) : bits(Values<uint8_t>(data, 1)) {}
  static int64_t MaxChars(int64_t) { return 5; }
  char* Write(int64_t i, char* out) const {
    if (bitmap::GetBit(bits, i)) {
      std::memcpy(out, "true", 4);
      return out + 4;
    }
    std::memcpy(out, "false", 5);
    return out + 5;
  }
};

// NaN, inf and -inf: spellings std::from_chars, strata's reader, DuckDB and Polars all read.
inline char* WriteNonFinite(double value, char* out) {
  const std::string_view text = std::isnan(value) ? "NaN" : value > 0 ? "inf" : "-inf";
  std::memcpy(out, text.data(), text.size());
  return out + text.size();
}

// float and double: the shortest text that reads back as the same value (std::to_chars
// without a precision); -0 stays -0.
template <typename T>
struct FloatFormat {
  static constexpr JsonForm kJson = JsonForm::kFloat;
  const T* values;
  FloatFormat(const ArrayData& data, const FormatOptions&) : values(Values<T>(data, 1)) {}
  static int64_t MaxChars(int64_t) { return 32; }
  bool IsFinite(int64_t i) const { return std::isfinite(values[i]); }
  char* Write(int64_t i, char* out) const {
    const T value = values[i];
    if (!std::isfinite(value)) return WriteNonFinite(value, out);
    return std::to_chars(out, out + 32, value).ptr;
  }
};

// float16: the fewest significant digits (1 to 5) that round back to the same half, laid out
// as std::to_chars lays out a float ("0.1", not the float value's "0.099975586").
char* WriteShortestHalf(uint16_t bits, char* out);

struct HalfFormat {
  static constexpr JsonForm kJson = JsonForm::kFloat;
  const uint16_t* values;
  HalfFormat(const ArrayData& data, const FormatOptions&) : values(Values<uint16_t>(data, 1)) {}
  static int64_t MaxChars(int64_t) { return 32; }
  bool IsFinite(int64_t i) const { return (values[i] & 0x7c00) != 0x7c00; }
  char* Write(int64_t i, char* out) const {
    if (!IsFinite(i)) return WriteNonFinite(value_text::HalfToFloat(values[i]), out);
    return WriteShortestHalf(values[i], out);
  }
};

// decimal128 / decimal256: exact, with `scale` fraction digits (-12.50).
template <int kWidth>
struct DecimalFormat {
  static constexpr JsonForm kJson = JsonForm::kBare;
  const uint8_t* values;
  int32_t scale;
  DecimalFormat(const ArrayData& data, const FormatOptions&)
      : values(Values<uint8_t>(data, 1)), scale(data.type->scale()) {}
  int64_t MaxChars(int64_t) const { return 84 + (scale < 0 ? -int64_t{scale} : int64_t{scale}); }
  char* Write(int64_t i, char* out) const {
    value_text::DecimalDigits digits;
    value_text::ToDecimalDigits(values + i * kWidth, kWidth, &digits);
    return value_text::WriteDecimal(digits, scale, out);
  }
};

// date32 (days) and date64 (milliseconds): YYYY-MM-DD.
template <typename T>
struct DateFormat {
  static constexpr JsonForm kJson = JsonForm::kQuoted;
  const T* values;
  DateFormat(const ArrayData& data, const FormatOptions&) : values(Values<T>(data, 1)) {}
  static int64_t MaxChars(int64_t) { return value_text::kMaxDateChars; }
  char* Write(int64_t i, char* out) const {
    if constexpr (sizeof(T) == 8) return value_text::WriteDate(value_text::FloorDiv(values[i], 86400000), &memo, out);
    return value_text::WriteDate(values[i], &memo, out);
  }
  mutable value_text::DayMemo memo;  // per block: neighbouring rows mostly share a day
};

template <typename T>
struct TimeFormat {
  static constexpr JsonForm kJson = JsonForm::kQuoted;
  const T* values;
  TimeUnit unit;
  TimeFormat(const ArrayData& data, const FormatOptions&) : values(Values<T>(data, 1)), unit(data.type->unit()) {}
  static int64_t MaxChars(int64_t) { return value_text::kMaxTimeChars; }
  char* Write(int64_t i, char* out) const { return value_text::WriteTimeOfDay(values[i], unit, out); }
};

// YYYY-MM-DDTHH:MM:SS[.fraction], and Z when the type has a time zone (the values are UTC).
struct TimestampFormat {
  static constexpr JsonForm kJson = JsonForm::kQuoted;
  const int64_t* values;
  TimeUnit unit;
  bool utc;
  TimestampFormat(const ArrayData& data, const FormatOptions&)
      : values(Values<int64_t>(data, 1)), unit(data.type->unit()), utc(!data.type->timezone().empty()) {}
  static int64_t MaxChars(int64_t) { return value_text::kMaxTimestampChars + 1; }
  char* Write(int64_t i, char* out) const {
    out = value_text::WriteTimestamp(values[i], unit, &memo, out);
    if (utc) *out++ = 'Z';
    return out;
  }
  mutable value_text::DayMemo memo;
};

// month_day_nano_interval in DuckDB's interval text (value_text::WriteMonthDayNano:
// "1 year 2 months 3 days 04:05:06.789"). Its spaces are outside the plain alphabet, so its
// cells are always checked for quoting (kHasSpaces).
struct IntervalFormat {
  static constexpr JsonForm kJson = JsonForm::kQuoted;
  static constexpr bool kHasSpaces = true;
  const uint8_t* values;
  TypeId id;  // any of the three interval types, written in the month_day_nano form
  IntervalFormat(const ArrayData& data, const FormatOptions&) : values(Values<uint8_t>(data, 1)), id(data.type->id()) {}
  static int64_t MaxChars(int64_t) { return value_text::kMaxIntervalChars; }
  char* Write(int64_t i, char* out) const {
    return value_text::WriteMonthDayNano(LoadIntervalAsMonthDayNano(id, values, i), out);
  }
};

// The bytes of binary-like values, by absolute index.
template <typename OffsetT>
struct OffsetBytes {
  const OffsetT* offsets;
  const char* bytes;
  explicit OffsetBytes(const ArrayData& data) : offsets(Values<OffsetT>(data, 1)), bytes(Values<char>(data, 2)) {}
  std::string_view Get(int64_t i) const {
    return {bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i])};
  }
};

struct ViewBytes {
  const uint8_t* views;
  const ArrayData* data;
  explicit ViewBytes(const ArrayData& array) : views(Values<uint8_t>(array, 1)), data(&array) {}
  std::string_view Get(int64_t i) const { return view_layout::Value(views + i * view_layout::kViewSize, *data); }
};

struct FixedBytes {
  const char* values;
  int64_t width;
  explicit FixedBytes(const ArrayData& data) : values(Values<char>(data, 1)), width(data.type->byte_width()) {}
  std::string_view Get(int64_t i) const { return {values + i * width, static_cast<size_t>(width)}; }
};

// Binary values as hex or base64 (never kRefuse: the writers refuse those columns up front).
template <typename Bytes>
struct BinaryFormat {
  static constexpr JsonForm kJson = JsonForm::kQuoted;
  Bytes bytes;
  bool base64;
  BinaryFormat(const ArrayData& data, const FormatOptions& options)
      : bytes(data), base64(options.binary == WriteOptions::BinaryValues::kBase64) {}
  int64_t MaxChars(int64_t i) const {
    const auto size = static_cast<int64_t>(bytes.Get(i).size());
    return base64 ? Base64EncodedLength(size) : 2 * size;
  }
  char* Write(int64_t i, char* out) const {
    const std::string_view value = bytes.Get(i);
    if (base64) return Base64EncodeTo(value, out);
    return value_text::WriteHex(reinterpret_cast<const uint8_t*>(value.data()), static_cast<int64_t>(value.size()),
                                out);
  }
};

}  // namespace strata::csv::formats
