// Value conversion: how a leaf's decoded physical values become its strata type's values
// (INT96 -> timestamp[ns], big-endian decimals, narrow integers, ...), and how dense values
// move to their slots once nulls are known. Shared by the flat column reader and the nested
// leaf reader, so both read a value the same way.
#pragma once

#include <cstdint>
#include <string>

#include "strata/memory/buffer.h"
#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/schema.h"
#include "strata/util/result.h"

namespace strata::parquet {

enum class ValueConversion {
  kCopy,              // same bytes (int32 -> int32/date32/time32, int64 -> timestamp, flba -> fsb, ...)
  kNarrow,            // INT32 -> int8/int16/uint8/uint16 (truncate)
  kSignExtend,        // INT32/INT64 -> decimal128/decimal256
  kBigEndianDecimal,  // FIXED_LEN_BYTE_ARRAY -> decimal128/decimal256
  kInt96,             // INT96 -> timestamp[ns|us|ms] (ConvertInt96)
  kInterval,          // FIXED_LEN_BYTE_ARRAY(12) INTERVAL -> month_day_nano_interval (ConvertIntervals)
  kBits,              // BOOLEAN -> boolean
  kByteArray,         // BYTE_ARRAY -> binary/string (32- or 64-bit offsets)
  kByteArrayDecimal,  // BYTE_ARRAY -> decimal
  kDecimalText,       // BYTE_ARRAY / FIXED_LEN_BYTE_ARRAY decimal above 76 digits -> (large_)utf8 text:
                      // decoded as DecimalTextStorageType, then DecimalTextConverter (decimal_text.h)
  kByteArrayDictionary,  // BYTE_ARRAY -> dictionary<string|binary, int32> (flat reader option)
  kByteArrayView,        // BYTE_ARRAY -> string_view / binary_view (flat reader option)
  kDiscard,           // values decoded and dropped (null-typed columns)
};

// The conversion from `column`'s physical type to `output`; NotImplemented or Corrupt when
// the two cannot meet (a 20-byte decimal into decimal128, ...).
Result<ValueConversion> ChooseValueConversion(const ColumnDescriptor& column, const DataType& output);

// Converts `count` dense physical values (`physical_width` bytes each) into `output_width`-byte
// values, for kNarrow, kSignExtend and kBigEndianDecimal.
void ConvertFixedValues(ValueConversion conversion, const uint8_t* in, int physical_width, int64_t count,
                        uint8_t* out, int output_width);

// INT96 values (8 bytes nanoseconds of day, a 4-byte Julian day) -> int64 timestamps of
// `unit` (ns, us or ms, rounding toward negative infinity). Returns the index of the first value
// outside int64 at that unit, which stops the conversion, or -1 when every value fits; `wrap`
// (nanoseconds only) wraps instead, in 64-bit arithmetic, and never stops.
int64_t ConvertInt96(const uint8_t* in, int64_t count, ::strata::TimeUnit unit, bool wrap, uint8_t* out);
// The error for INT96 value `value` (12 bytes) that does not fit `unit`; `where` names the
// column and row.
Status Int96OutOfRange(const uint8_t* value, ::strata::TimeUnit unit, const std::string& where);
// Parquet INTERVAL values (12 bytes: little-endian unsigned 32-bit months, days, milliseconds)
// -> 16-byte month_day_nano values (signed 32-bit months and days, nanoseconds = milliseconds
// * 1,000,000, which always fits). Returns the index of the first value whose months or days
// exceed INT32_MAX, which stops the conversion, or -1 when every value fits.
inline constexpr int kParquetIntervalBytes = 12;
int64_t ConvertIntervals(const uint8_t* in, int64_t count, uint8_t* out);
// The error for INTERVAL value `value` (12 bytes) that does not fit; `where` names the row.
Status IntervalOutOfRange(const uint8_t* value, const std::string& where);
// The slot of the `dense`-th non-null value among slots [slot, slot + count) (validity bits;
// nullptr: no nulls), for messages.
int64_t SlotOfDenseValue(const uint8_t* validity, int64_t slot, int64_t count, int64_t dense);

// Big-endian two's complement of `length` bytes -> little-endian, sign-extended to `width`.
inline void BigEndianToDecimal(const uint8_t* in, int64_t length, uint8_t* out, int width) {
  const uint8_t fill = (length > 0 && (in[0] & 0x80)) ? 0xff : 0x00;
  for (int64_t i = 0; i < length; ++i) out[i] = in[length - 1 - i];
  for (int64_t i = length; i < width; ++i) out[i] = fill;
}

// BYTE_ARRAY decimals: `count` slots from slot `slot` (dense `views` for the valid ones) into
// `width`-byte little-endian decimals at `out`; null slots zeroed. Corrupt when a value is wider.
Status ConvertByteArrayDecimals(const ByteArrayView* views, const uint8_t* validity, int64_t slot, int64_t count,
                                uint8_t* out, int width, const DataType& type);

// Appends the valid slots' values (dense `views`) to `data`, which must have room for them
// all, and writes offsets[slot + 1 + i] for each of the `count` slots (int64 offsets with
// `large_offsets`, else int32).
void AppendByteArraysAtSlots(const ByteArrayView* views, const uint8_t* validity, int64_t slot, int64_t count,
                             int64_t non_null, bool large_offsets, uint8_t* offsets, ResizableBuffer* data);

inline bool IsBitSet(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }

// Moves `non_null` dense values at the front of `out` to the valid slots among [0, count)
// (bits [slot, slot + count) of `validity`), zeroing null slots. Backwards, so it works in place.
void SpreadValues(uint8_t* out, int width, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null);
// The same for bits: dense bits at [slot, slot + non_null) move to the valid slots.
void SpreadBits(uint8_t* bits, const uint8_t* validity, int64_t slot, int64_t count, int64_t non_null);

}  // namespace strata::parquet
