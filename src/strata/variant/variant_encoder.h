// Writing variant bytes (VariantEncoding.md). Two levels:
//  - layout functions and raw writers into caller-sized memory: the Parquet reader's shredding
//    reconstruction measures each value first, allocates once, then writes (no growth);
//  - VariantBuilder, which appends values to a std::string for tests and small producers:
//    every primitive type, objects (fields sorted by name, as the spec requires) and arrays.
// Containers use the smallest id and offset widths that fit, and is_large only above 255
// elements, as Iceberg's and Spark's writers do.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "strata/util/result.h"
#include "strata/variant/variant_metadata.h"
#include "strata/variant/variant_value.h"

namespace strata::variant {

// Bytes (1 to 4) of the smallest unsigned little-endian integer that holds `value`.
int ByteWidth(uint64_t value);

// The header, ids and offsets of an object or array; data follows them.
struct ContainerLayout {
  uint32_t num_elements = 0;
  int id_size = 0;      // objects only
  int offset_size = 1;
  bool is_large = false;
  int64_t header_size = 0;  // everything before the first value
};
ContainerLayout ObjectLayout(uint32_t num_elements, uint32_t max_field_id, int64_t data_size);
ContainerLayout ArrayLayout(uint32_t num_elements, int64_t data_size);

// Writes the container's header byte and element count at `out`; returns the end.
uint8_t* WriteContainerStart(const ContainerLayout& layout, bool object, uint8_t* out);
// Writes one little-endian unsigned integer of `width` bytes; returns the end.
uint8_t* WriteUnsigned(uint64_t value, int width, uint8_t* out);

// Encoded size of a string (short string below 64 bytes) and of binary.
inline int64_t StringSize(int64_t bytes) { return bytes < 64 ? 1 + bytes : 5 + bytes; }
inline int64_t BinarySize(int64_t bytes) { return 5 + bytes; }
uint8_t* WriteString(std::string_view text, uint8_t* out);
uint8_t* WriteBinary(std::string_view bytes, uint8_t* out);
// The header byte of primitive `type`.
inline uint8_t PrimitiveHeader(PrimitiveType type) { return static_cast<uint8_t>(static_cast<uint8_t>(type) << 2); }

// Appends values to a string. Containers are built from already encoded children.
class VariantBuilder {
 public:
  static void AppendNull(std::string* out) { out->push_back(0); }
  static void AppendBoolean(bool value, std::string* out);
  // int8 .. int64, date, time and timestamps: `type` says which, and how many bytes follow.
  static Status AppendInteger(PrimitiveType type, int64_t value, std::string* out);
  static void AppendDouble(double value, std::string* out);
  static void AppendFloat(float value, std::string* out);
  // decimal4/8/16 by `type`; Invalid when the scale is above 38 or the value does not fit.
  static Status AppendDecimal(PrimitiveType type, __int128 unscaled, int scale, std::string* out);
  static void AppendString(std::string_view text, std::string* out);
  static void AppendBinary(std::string_view bytes, std::string* out);
  // 16 big-endian bytes.
  static void AppendUuid(const uint8_t bytes[16], std::string* out);

  // An object of (field id, encoded value) pairs, written in the order of the names in
  // `metadata` (values too). Invalid for an id outside the dictionary or a repeated name.
  static Status AppendObject(const VariantMetadata& metadata, std::vector<std::pair<uint32_t, std::string>> fields,
                             std::string* out);
  static void AppendArray(const std::vector<std::string>& elements, std::string* out);

  // Metadata for `names` (version 1); the sorted flag is set when they are sorted and unique.
  static std::string EncodeMetadata(const std::vector<std::string>& names);
};

}  // namespace strata::variant
