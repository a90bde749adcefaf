// VariantValue: a view of one encoded variant value (VariantEncoding.md, "Value encoding"):
// its basic and primitive type, its primitive payload, and the fields and elements of objects
// and arrays. Make() checks the value's own framing; children are checked when taken, and
// ValidateVariant() checks a whole tree against its metadata. Nothing here allocates.
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/util/result.h"
#include "strata/variant/variant_metadata.h"

namespace strata::variant {

enum class BasicType : uint8_t { kPrimitive = 0, kShortString = 1, kObject = 2, kArray = 3 };

// The primitive type ids of the spec's table (the value header of basic type 0).
enum class PrimitiveType : uint8_t {
  kNull = 0,
  kTrue = 1,
  kFalse = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt64 = 6,
  kDouble = 7,
  kDecimal4 = 8,
  kDecimal8 = 9,
  kDecimal16 = 10,
  kDate = 11,
  kTimestampMicros = 12,     // adjusted to UTC
  kTimestampNtzMicros = 13,  // without time zone
  kFloat = 14,
  kBinary = 15,
  kString = 16,
  kTimeNtzMicros = 17,
  kTimestampNanos = 18,
  kTimestampNtzNanos = 19,
  kUuid = 20,
};
inline constexpr int kMaxPrimitiveType = 20;

// "int32", "timestamp_ntz_nanos", ...
std::string_view PrimitiveTypeName(PrimitiveType type);

// Nesting deeper than this is LimitExceeded: it bounds the recursion of validation, JSON and
// reconstruction on hostile input.
inline constexpr int kMaxVariantDepth = 256;

class VariantValue {
 public:
  VariantValue() = default;

  // The value that starts at bytes[0]. Checks the header and that the value's extent (its
  // header, offsets and, for objects and arrays, the byte count its last offset gives) lies
  // inside `bytes`; bytes() is then exactly that extent (bytes after it are not the value's).
  // Corrupt otherwise. The view points into `bytes`, which must outlive it.
  static Result<VariantValue> Make(std::string_view bytes);

  std::string_view bytes() const { return bytes_; }
  BasicType basic_type() const { return static_cast<BasicType>(header() & 3); }
  // For basic type 0; a short string reports kString.
  PrimitiveType primitive_type() const;
  bool is_object() const { return basic_type() == BasicType::kObject; }
  bool is_array() const { return basic_type() == BasicType::kArray; }

  // Primitive payloads; each requires the matching primitive_type().
  bool boolean() const { return primitive_type() == PrimitiveType::kTrue; }
  // int8, int16, int32, int64, date (days), timestamps and time (micro- or nanoseconds).
  int64_t integer() const;
  double float64() const;
  float float32() const;
  // Decimals: the scale (0 to 38) and the unscaled value.
  int scale() const { return payload()[0]; }
  __int128 unscaled() const;
  // Strings (short or long) and binary: a view of the payload bytes.
  std::string_view string() const;
  // The 16 big-endian bytes of a UUID.
  const uint8_t* uuid() const { return payload(); }

  // Objects and arrays.
  uint32_t num_elements() const { return num_elements_; }
  // Object field `i`'s dictionary id (unchecked against the metadata: see ValidateVariant).
  uint32_t field_id(uint32_t i) const;
  // Object field `i`'s value, or array element `i`; Corrupt when its offset or extent does not
  // fit the container. i < num_elements().
  Result<VariantValue> child(uint32_t i) const;

 private:
  uint8_t header() const { return static_cast<uint8_t>(bytes_[0]); }
  const uint8_t* payload() const { return reinterpret_cast<const uint8_t*>(bytes_.data()) + 1; }
  uint32_t OffsetAt(uint32_t i) const;

  std::string_view bytes_;
  // Objects and arrays: the layout read from the header.
  uint32_t num_elements_ = 0;
  int id_size_ = 0;
  int offset_size_ = 0;
  uint32_t ids_start_ = 0;      // byte positions within bytes_
  uint32_t offsets_start_ = 0;
  uint32_t data_start_ = 0;
  uint32_t data_size_ = 0;      // the last offset
};

// Checks the whole tree of `value` against `metadata`: every child's offset and extent, field
// ids inside the dictionary, object fields in strictly increasing name order (so unique),
// UTF-8 strings, known primitive types and decimal scales, nesting within kMaxVariantDepth.
// Corrupt or LimitExceeded, naming the path to the bad value ($.a[3].b).
Status ValidateVariant(const VariantMetadata& metadata, const VariantValue& value);

}  // namespace strata::variant
