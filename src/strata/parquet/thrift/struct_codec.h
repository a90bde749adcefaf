// Internal to parquet/thrift: the generic pieces every parquet.thrift struct codec is made of.
// DecodeStruct runs the field loop and checks required fields; ReadField reads one field into a
// C++ member of any supported type (integers of any width, enums, bool, double, string, nested
// struct, std::optional and std::vector of those); WriteList and friends do the reverse.
#pragma once

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet::thrift_internal {

using thrift::FieldHeader;
using thrift::ListHeader;
using thrift::WireType;

// Vectors are reserved from the list header's count (already checked against the bytes that
// remain), but never more than this many bytes up front: an element such as ColumnChunk is
// hundreds of bytes in memory and a few on the wire, so a hostile count could otherwise reserve
// ~100x the input. Past the budget the vector grows as elements actually decode.
inline constexpr size_t kReserveBudgetBytes = 1 << 20;

// Heap bytes charged (CompactReader::Charge) before a decoded value is allocated: a list's
// elements at their final count, a string's bytes when they do not fit in place. Estimates,
// which the footer reader trues up to HeapBytes() (heap_bytes.h) after decoding.
template <typename T>
int64_t ListChargeBytes(int32_t count) {
  if constexpr (std::is_same_v<T, bool>) return (int64_t{count} + 63) / 64 * 8;
  else return int64_t{count} * static_cast<int64_t>(sizeof(T));
}
inline int64_t StringChargeBytes(size_t size) {
  static const size_t in_place = std::string().capacity();
  return size > in_place ? static_cast<int64_t>(size) + 1 : 0;
}

struct RequiredField {
  int16_t id;
  const char* name;
};

// Reads one struct: calls on_field(header) for every field until the stop byte, then checks that
// every required field (ids below 64) was seen. on_field must consume the value (ReadField or
// reader.Skip).
template <typename OnField>
Status DecodeStruct(CompactReader& reader, const char* struct_name, std::initializer_list<RequiredField> required,
                    OnField&& on_field) {
  STRATA_RETURN_NOT_OK(reader.ReadStructBegin(struct_name));
  uint64_t seen = 0;
  while (true) {
    FieldHeader field;
    STRATA_RETURN_NOT_OK(reader.ReadFieldBegin(&field));
    if (field.type == WireType::kStop) break;
    STRATA_RETURN_NOT_OK(on_field(field));
    if (field.id >= 0 && field.id < 64 && !reader.TakeFieldSkipped()) seen |= uint64_t{1} << field.id;
  }
  for (const RequiredField& r : required) {
    if ((seen & (uint64_t{1} << r.id)) == 0) {
      return reader.Corrupt("required field '{}' (id {}) is missing at offset {}", r.name, r.id, reader.offset());
    }
  }
  return reader.ReadStructEnd();
}

// A value whose wire type does not match the declaration is skipped, not decoded: the field
// counts as absent (so a missing required field is still reported). Thrift's generated readers
// do the same, and real files (parquet-testing's dict-page-offset-zero.parquet) need it.
inline Status TypeMismatch(CompactReader& reader, WireType found, const char* /*expected*/) {
  reader.MarkFieldSkipped();
  return reader.Skip(found);
}

constexpr bool IsInteger(WireType t) {
  return t == WireType::kByte || t == WireType::kI16 || t == WireType::kI32 || t == WireType::kI64;
}
constexpr bool IsBool(WireType t) { return t == WireType::kBoolTrue || t == WireType::kBoolFalse; }

// ---- ReadValue: one value of wire type `type` into a C++ object ---------------------------------

// Containers first, so the templates below can find each other whatever the nesting.
template <typename T>
Status ReadValue(CompactReader& reader, WireType type, std::optional<T>* out);
template <typename T>
Status ReadValue(CompactReader& reader, WireType type, std::vector<T>* out);
inline Status ReadValue(CompactReader& reader, WireType type, std::vector<bool>* out);

// Integers: any integer wire type is accepted (writers disagree on i8 vs i32 for small fields),
// and the value must fit the member.
template <typename Int>
  requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool>)
Status ReadValue(CompactReader& reader, WireType type, Int* out) {
  int64_t value;
  if (type == WireType::kByte) {
    int8_t byte;
    STRATA_RETURN_NOT_OK(reader.ReadByte(&byte));
    value = byte;
  } else if (IsInteger(type)) {
    STRATA_RETURN_NOT_OK(reader.ReadI64(&value));
  } else {
    return TypeMismatch(reader, type, "integer");
  }
  if (value < std::numeric_limits<Int>::min() || value > std::numeric_limits<Int>::max()) {
    return reader.Corrupt("value {} does not fit in {} bytes (ending at offset {})", value, sizeof(Int),
                          reader.offset());
  }
  *out = static_cast<Int>(value);
  return Status::OK();
}

template <typename E>
  requires std::is_enum_v<E>
Status ReadValue(CompactReader& reader, WireType type, E* out) {
  std::underlying_type_t<E> value;
  STRATA_RETURN_NOT_OK(ReadValue(reader, type, &value));
  *out = static_cast<E>(value);
  return Status::OK();
}

inline Status ReadValue(CompactReader& reader, WireType type, bool* out) {
  if (!IsBool(type)) return TypeMismatch(reader, type, "bool");
  return reader.ReadBool(out);
}

inline Status ReadValue(CompactReader& reader, WireType type, double* out) {
  if (type != WireType::kDouble) return TypeMismatch(reader, type, "double");
  return reader.ReadDouble(out);
}

inline Status ReadValue(CompactReader& reader, WireType type, std::string* out) {
  if (type != WireType::kBinary) return TypeMismatch(reader, type, "binary");
  std::string_view view;
  STRATA_RETURN_NOT_OK(reader.ReadBinary(&view));
  STRATA_RETURN_NOT_OK(reader.Charge(StringChargeBytes(view.size())));
  out->assign(view.data(), view.size());
  return Status::OK();
}

// Nested structs: anything with a Decode overload.
template <typename T>
  requires requires(CompactReader& r, T* t) { Decode(r, t); }
Status ReadValue(CompactReader& reader, WireType type, T* out) {
  if (type != WireType::kStruct) return TypeMismatch(reader, type, "struct");
  return Decode(reader, out);
}

template <typename T>
Status ReadValue(CompactReader& reader, WireType type, std::optional<T>* out) {
  out->emplace();
  STRATA_RETURN_NOT_OK(ReadValue(reader, type, &**out));
  if (reader.TakeFieldSkipped()) {  // wrong wire type: absent, not default-valued
    out->reset();
    reader.MarkFieldSkipped();
  }
  return Status::OK();
}

// Reads a list header; when `type` is not a list the value is skipped, the reader's skipped flag
// is set and header->size is 0.
inline Status ReadListHeader(CompactReader& reader, WireType type, ListHeader* header) {
  if (type != WireType::kList && type != WireType::kSet) {
    *header = ListHeader{};
    return TypeMismatch(reader, type, "list");
  }
  return reader.ReadListBegin(header);
}

template <typename T>
constexpr bool ElementTypeMatches(WireType type);

// A list whose elements have the wrong wire type is skipped whole and left empty.
inline Status SkipElements(CompactReader& reader, const ListHeader& header) {
  reader.MarkFieldSkipped();
  for (int32_t i = 0; i < header.size; ++i) STRATA_RETURN_NOT_OK(reader.Skip(header.element_type));
  return Status::OK();
}

template <typename T>
Status ReadValue(CompactReader& reader, WireType type, std::vector<T>* out) {
  ListHeader header;
  out->clear();
  STRATA_RETURN_NOT_OK(ReadListHeader(reader, type, &header));
  if (reader.TakeFieldSkipped()) return (reader.MarkFieldSkipped(), Status::OK());
  if (header.size > 0 && !ElementTypeMatches<T>(header.element_type)) return SkipElements(reader, header);
  STRATA_RETURN_NOT_OK(reader.Charge(ListChargeBytes<T>(header.size)));
  out->reserve(std::min<size_t>(header.size, kReserveBudgetBytes / sizeof(T) + 1));
  for (int32_t i = 0; i < header.size; ++i) {
    reader.SetIndex(i);
    STRATA_RETURN_NOT_OK(ReadValue(reader, header.element_type, &out->emplace_back()));
  }
  reader.SetIndex(-1);
  return Status::OK();
}

inline Status ReadValue(CompactReader& reader, WireType type, std::vector<bool>* out) {
  ListHeader header;
  out->clear();
  STRATA_RETURN_NOT_OK(ReadListHeader(reader, type, &header));
  if (reader.TakeFieldSkipped()) return (reader.MarkFieldSkipped(), Status::OK());
  if (header.size > 0 && !IsBool(header.element_type)) return SkipElements(reader, header);
  STRATA_RETURN_NOT_OK(reader.Charge(ListChargeBytes<bool>(header.size)));
  out->reserve(header.size);  // bits: at most 1/8 of the input size
  for (int32_t i = 0; i < header.size; ++i) {
    reader.SetIndex(i);
    bool value;
    STRATA_RETURN_NOT_OK(ReadValue(reader, header.element_type, &value));
    out->push_back(value);
  }
  reader.SetIndex(-1);
  return Status::OK();
}

template <typename T>
constexpr bool ElementTypeMatches(WireType type) {
  if constexpr (std::is_same_v<T, bool>) return IsBool(type);
  else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) return IsInteger(type);
  else if constexpr (std::is_same_v<T, double>) return type == WireType::kDouble;
  else if constexpr (std::is_same_v<T, std::string>) return type == WireType::kBinary;
  else return type == WireType::kStruct;
}

// One field: names it for error messages, then reads it.
template <typename T>
Status ReadField(CompactReader& reader, const FieldHeader& field, const char* name, T* out) {
  reader.SetField(name);
  return ReadValue(reader, field.type, out);
}

// An empty struct member of a union (LogicalType.STRING, TimeUnit.MILLIS, ...): any content is
// skipped, since a later spec may give it fields.
inline Status ReadEmptyStruct(CompactReader& reader, const FieldHeader& field, const char* name) {
  reader.SetField(name);
  if (field.type != WireType::kStruct) return TypeMismatch(reader, field.type, "struct");
  return reader.Skip(WireType::kStruct);
}

// ---- writing -----------------------------------------------------------------------------------

template <typename T>
constexpr WireType WireTypeOf() {
  if constexpr (std::is_same_v<T, bool>) return WireType::kBoolTrue;
  else if constexpr (std::is_same_v<T, int8_t>) return WireType::kByte;
  else if constexpr (std::is_same_v<T, int16_t>) return WireType::kI16;
  else if constexpr (std::is_same_v<T, int32_t> || std::is_enum_v<T>) return WireType::kI32;
  else if constexpr (std::is_same_v<T, int64_t>) return WireType::kI64;
  else if constexpr (std::is_same_v<T, double>) return WireType::kDouble;
  else if constexpr (std::is_same_v<T, std::string>) return WireType::kBinary;
  else return WireType::kStruct;
}

template <typename T>
void WriteValue(CompactWriter& writer, const T& value) {
  if constexpr (std::is_same_v<T, bool>) writer.WriteBool(value);
  else if constexpr (std::is_same_v<T, int8_t>) writer.WriteByte(value);
  else if constexpr (std::is_same_v<T, int16_t>) writer.WriteI16(value);
  else if constexpr (std::is_same_v<T, int32_t>) writer.WriteI32(value);
  else if constexpr (std::is_enum_v<T>) writer.WriteI32(static_cast<int32_t>(value));
  else if constexpr (std::is_same_v<T, int64_t>) writer.WriteI64(value);
  else if constexpr (std::is_same_v<T, double>) writer.WriteDouble(value);
  else if constexpr (std::is_same_v<T, std::string>) writer.WriteBinary(value);
  else Encode(writer, value);
}

template <typename T>
void WriteField(CompactWriter& writer, int16_t id, const T& value) {
  if constexpr (std::is_same_v<T, bool>) {
    writer.WriteBoolField(id, value);
  } else {
    writer.WriteFieldBegin(WireTypeOf<T>(), id);
    WriteValue(writer, value);
  }
}

template <typename T>
void WriteField(CompactWriter& writer, int16_t id, const std::vector<T>& values) {
  writer.WriteFieldBegin(WireType::kList, id);
  writer.WriteListBegin(WireTypeOf<T>(), static_cast<int32_t>(values.size()));
  for (const auto& v : values) WriteValue<T>(writer, v);
}

template <typename T>
void WriteField(CompactWriter& writer, int16_t id, const std::optional<T>& value) {
  if (value.has_value()) WriteField(writer, id, *value);
}

}  // namespace strata::parquet::thrift_internal
