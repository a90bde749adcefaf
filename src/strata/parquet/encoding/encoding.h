// Parquet's encodings and physical types, with the numeric values parquet.thrift assigns them.
// Shared by the Thrift metadata layer, the page reader and the per-encoding decoders in this folder.
#pragma once

#include <cstdint>
#include <string_view>

namespace strata::parquet {

// parquet.thrift `enum Encoding`. Values are the on-disk numbers; do not renumber.
enum class Encoding : int32_t {
  kPlain = 0,
  kPlainDictionary = 2,  // deprecated alias of PLAIN (dictionary page) / RLE_DICTIONARY (data page)
  kRle = 3,
  kBitPacked = 4,  // deprecated; only for levels
  kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6,
  kDeltaByteArray = 7,
  kRleDictionary = 8,
  kByteStreamSplit = 9,
  kAlp = 10,  // Preview in parquet-format (2026): written only when asked for
};

// parquet.thrift `enum Type`.
enum class PhysicalType : int32_t {
  kBoolean = 0,
  kInt32 = 1,
  kInt64 = 2,
  kInt96 = 3,  // deprecated; 12-byte timestamps
  kFloat = 4,
  kDouble = 5,
  kByteArray = 6,
  kFixedLenByteArray = 7,
};

// The spec's upper-case name ("DELTA_BINARY_PACKED"), or "UNKNOWN" for a value outside the enum
// (Thrift data may carry any int32).
std::string_view EncodingName(Encoding encoding);
// "INT32", "FIXED_LEN_BYTE_ARRAY", ..., or "UNKNOWN".
std::string_view PhysicalTypeName(PhysicalType type);
// Whether data pages of `type` may use `encoding` as their value encoding (Encodings.md):
// PLAIN everywhere; RLE for BOOLEAN; RLE_DICTIONARY and PLAIN_DICTIONARY for all but BOOLEAN;
// DELTA_BINARY_PACKED for INT32/INT64; DELTA_LENGTH_BYTE_ARRAY for BYTE_ARRAY; DELTA_BYTE_ARRAY
// for BYTE_ARRAY/FIXED_LEN_BYTE_ARRAY; BYTE_STREAM_SPLIT for fixed-width types but INT96; ALP
// for FLOAT and DOUBLE.
bool EncodingAppliesTo(Encoding encoding, PhysicalType type);

// Bytes of one value for fixed-width types; 0 for BOOLEAN (bit-packed), BYTE_ARRAY (variable)
// and FIXED_LEN_BYTE_ARRAY (width comes from the schema's type_length).
constexpr int PhysicalTypeByteWidth(PhysicalType type) {
  switch (type) {
    case PhysicalType::kInt32:
    case PhysicalType::kFloat:
      return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble:
      return 8;
    case PhysicalType::kInt96:
      return 12;
    default:
      return 0;
  }
}

}  // namespace strata::parquet
