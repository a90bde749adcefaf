// A statistics value (a min or max in a footer or a page index) decoded from its PLAIN bytes
// per the column's physical type and the schema facts that change its reading (unsigned
// integers, text): for `strata meta`, Python's metadata and any other reader that shows them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

// STRING, ENUM or JSON (logical or converted type); false for a null leaf.
bool IsTextColumn(const SchemaElement* leaf);
// An unsigned INTEGER logical type or UINT_8..UINT_64 converted type; false for a null leaf.
bool IsUnsigned(const SchemaElement* leaf);

// "0x" and lowercase hex of up to `limit` bytes, then "... (N bytes)" when cut.
std::string Hex(std::string_view bytes, size_t limit = SIZE_MAX);

// A statistics value decoded for its physical type: a number, a bool, text, or hex.
struct StatValue {
  enum class Kind { kInt, kUint, kDouble, kBool, kText, kHex } kind = Kind::kHex;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
  std::string text;       // kText or kHex
  bool is_float = false;  // print with float precision: 9.9, not 9.899999618530273

  static StatValue Int(int64_t v) { StatValue s; s.kind = Kind::kInt; s.i = v; return s; }
  static StatValue Uint(uint64_t v) { StatValue s; s.kind = Kind::kUint; s.u = v; return s; }
  static StatValue Double(double v) { StatValue s; s.kind = Kind::kDouble; s.d = v; return s; }
  static StatValue Float(float v) { StatValue s = Double(v); s.is_float = true; return s; }
  static StatValue Bool(bool v) { StatValue s; s.kind = Kind::kBool; s.i = v; return s; }
};

// `bytes` as PLAIN-encoded (BYTE_ARRAY without its length prefix); hex (Hex(bytes), uncut) when
// it does not fit the type. `leaf` may be null (no schema facts: signed integers, binary as hex).
StatValue DecodeStat(std::string_view bytes, PhysicalType type, const SchemaElement* leaf);

}  // namespace strata::parquet
