// Decimals wider than decimal256 (precision above 76, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY) read
// as their exact decimal text: a utf8 field (large_utf8 with 64-bit offsets) whose metadata
// keeps the Parquet type,
//   parquet.decimal = "decimal(90, 10)"
// and whose values read like "-12345.6789000000": a leading '-' for negatives, the scale's
// digits always shown, "0.001" for |x| < 1, no exponent. The column readers decode the raw
// big-endian two's complement bytes (as binary or fixed_size_binary) and turn each batch to
// text here (ValueConversion::kDecimalText).
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/array/array_data.h"
#include "strata/memory/buffer.h"
#include "strata/parquet/schema.h"
#include "strata/util/result.h"

namespace strata::parquet {

// The field metadata key naming the Parquet type of a decimal read as text.
inline constexpr std::string_view kDecimalTextMetadataKey = "parquet.decimal";
// The widest precision decimal256 holds; wider decimals read as text.
inline constexpr int32_t kMaxDecimal256Precision = 76;

// Whether `column` is a decimal read as text (its descriptor type is utf8 and its field
// metadata carries kDecimalTextMetadataKey).
bool IsDecimalTextColumn(const ColumnDescriptor& column);

// The type the readers decode such a column's bytes as: binary for BYTE_ARRAY (large_binary
// when the text is large_string, so the reader's offsets match the storage type),
// fixed_size_binary(type_length) for FIXED_LEN_BYTE_ARRAY.
TypePtr DecimalTextStorageType(const ColumnDescriptor& column, const DataType& text_type);

// Writes the decimal text of one big-endian two's complement integer of `length` bytes (any
// length; 0 reads as zero) with `scale` digits after the point to `out`, which must have room
// for DecimalTextBound(length, scale) bytes. `limbs` is scratch of at least (length + 3) / 4
// 32-bit words. Returns the bytes written.
int64_t FormatDecimalText(const uint8_t* bytes, int64_t length, int32_t scale, uint32_t* limbs, char* out);
// Room FormatDecimalText needs at most: the digits 8 * length bits can have, the sign, "0." and
// the scale's leading zeros.
int64_t DecimalTextBound(int64_t length, int32_t scale);

// Turns batches of a decimal text column's raw values into utf8 text. Scratch (limbs, digits)
// lives in the converter and is reused batch after batch; the text arrays' buffers come from
// the pool and belong to them.
class DecimalTextConverter {
 public:
  DecimalTextConverter(const ColumnDescriptor& column, TypePtr text_type, MemoryPool* pool);

  // `storage`: a binary, large_binary or fixed_size_binary array as DecimalTextStorageType has
  // it. The result, of the text type given at construction (utf8 or large_utf8), keeps its
  // validity bitmap and null count. LimitExceeded when utf8 text would pass 2 GiB.
  Result<ArrayDataPtr> Convert(const ArrayData& storage);

  // Scratch held across batches.
  int64_t memory_size() const { return limbs_.capacity(); }

 private:
  int32_t scale_;
  template <typename TextOffset, typename StorageOffset>
  Result<ArrayDataPtr> ConvertWithOffsets(const ArrayData& storage);

  TypePtr text_type_;
  MemoryPool* pool_;
  ResizableBuffer limbs_;
};

}  // namespace strata::parquet
