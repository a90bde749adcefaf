#include "strata/parquet/encoding/encoding.h"

namespace strata::parquet {

std::string_view EncodingName(Encoding encoding) {
  switch (encoding) {
    case Encoding::kPlain: return "PLAIN";
    case Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::kRle: return "RLE";
    case Encoding::kBitPacked: return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
    case Encoding::kAlp: return "ALP";
  }
  return "UNKNOWN";
}

std::string_view PhysicalTypeName(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean: return "BOOLEAN";
    case PhysicalType::kInt32: return "INT32";
    case PhysicalType::kInt64: return "INT64";
    case PhysicalType::kInt96: return "INT96";
    case PhysicalType::kFloat: return "FLOAT";
    case PhysicalType::kDouble: return "DOUBLE";
    case PhysicalType::kByteArray: return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

bool EncodingAppliesTo(Encoding encoding, PhysicalType type) {
  switch (encoding) {
    case Encoding::kPlain: return true;
    case Encoding::kRle: return type == PhysicalType::kBoolean;
    case Encoding::kPlainDictionary:
    case Encoding::kRleDictionary: return type != PhysicalType::kBoolean;
    case Encoding::kDeltaBinaryPacked: return type == PhysicalType::kInt32 || type == PhysicalType::kInt64;
    case Encoding::kDeltaLengthByteArray: return type == PhysicalType::kByteArray;
    case Encoding::kDeltaByteArray:
      return type == PhysicalType::kByteArray || type == PhysicalType::kFixedLenByteArray;
    case Encoding::kByteStreamSplit:
      return type != PhysicalType::kBoolean && type != PhysicalType::kByteArray && type != PhysicalType::kInt96;
    case Encoding::kAlp: return type == PhysicalType::kFloat || type == PhysicalType::kDouble;
    case Encoding::kBitPacked: return false;
  }
  return false;
}

}  // namespace strata::parquet
