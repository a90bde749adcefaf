// DataType: the logical type of a column, in the Arrow type system. One immutable class holds
// the type id and its parameters (no deep hierarchy), shared as TypePtr. Sits above memory and
// below array, parquet and csv, which all describe their columns with it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/util/result.h"

namespace strata {

enum class TypeId : uint8_t {
  kNull,
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat16,
  kFloat32,
  kFloat64,
  kDecimal32,  // 4-byte little-endian two's-complement unscaled value, precision 1..9
  kDecimal64,  // 8 bytes, precision 1..18
  kDecimal128,
  kDecimal256,
  kDate32,     // days since the UNIX epoch, int32
  kDate64,     // milliseconds since the UNIX epoch, int64
  kTime32,     // time of day, int32, unit second or milli
  kTime64,     // time of day, int64, unit micro or nano
  kTimestamp,  // int64 since the UNIX epoch in `unit`, optional time zone
  kDuration,   // int64 in `unit`
  // Arrow's Interval(YEAR_MONTH): int32 months.
  kIntervalYearMonth,
  // Arrow's Interval(DAY_TIME): 8 bytes per value, int32 days then int32 milliseconds.
  kIntervalDayTime,
  // Arrow's Interval(MONTH_DAY_NANO): 16 bytes per value, int32 months, int32 days, int64
  // nanoseconds (little-endian). Calendar-relative, so it has no total order.
  kIntervalMonthDayNano,
  kBinary,
  kString,
  kLargeBinary,
  kLargeString,
  kBinaryView,
  kStringView,
  kFixedSizeBinary,
  kList,
  kLargeList,
  kFixedSizeList,
  kStruct,
  kMap,
  kDictionary,
  // Unions: int8 type ids (and, dense, int32 offsets) over one child per member; no validity
  // bitmap of their own (a slot is null when its child's value is).
  kSparseUnion,
  kDenseUnion,
  // Run-end encoded: no buffers; child 0 the run ends (int16/32/64, strictly increasing), child
  // 1 the values of each run. Logical length and offset index the decoded values.
  kRunEndEncoded,
  // List views: int32 (list_view) or int64 (large_list_view) offsets and sizes, one child; views
  // may come in any order and overlap.
  kListView,
  kLargeListView,
};

enum class TimeUnit : uint8_t { kSecond, kMilli, kMicro, kNano };

// "s", "ms", "us", "ns" (Arrow's spelling).
std::string_view TimeUnitName(TimeUnit unit);
// "int64", "timestamp", ... : the name of the id alone, without parameters.
std::string_view TypeIdName(TypeId id);

// Classification of ids. Constexpr so hot paths can dispatch on them once per batch.
constexpr bool is_signed_integer(TypeId id) { return id >= TypeId::kInt8 && id <= TypeId::kInt64; }
constexpr bool is_unsigned_integer(TypeId id) { return id >= TypeId::kUInt8 && id <= TypeId::kUInt64; }
constexpr bool is_integer(TypeId id) { return id >= TypeId::kInt8 && id <= TypeId::kUInt64; }
constexpr bool is_floating(TypeId id) { return id >= TypeId::kFloat16 && id <= TypeId::kFloat64; }
// decimal32, decimal64, decimal128 and decimal256 (all little-endian two's complement).
constexpr bool is_decimal(TypeId id) { return id >= TypeId::kDecimal32 && id <= TypeId::kDecimal256; }
// The three interval types (calendar-relative, no total order).
constexpr bool is_interval(TypeId id) {
  return id >= TypeId::kIntervalYearMonth && id <= TypeId::kIntervalMonthDayNano;
}
constexpr bool is_temporal(TypeId id) { return id >= TypeId::kDate32 && id <= TypeId::kDuration; }
// Byte-aligned fixed-width values in buffers[1] (after validity): integers, floats, decimals,
// date/time/timestamp/duration, intervals and fixed_size_binary. Boolean (bit-packed) is not
// included.
constexpr bool is_primitive_fixed_width(TypeId id) {
  return (id >= TypeId::kInt8 && id <= TypeId::kIntervalMonthDayNano) || id == TypeId::kFixedSizeBinary;
}
// binary and string: int32 offsets + data.
constexpr bool is_binary_like(TypeId id) { return id == TypeId::kBinary || id == TypeId::kString; }
// large_binary and large_string: int64 offsets + data.
constexpr bool is_large_binary_like(TypeId id) {
  return id == TypeId::kLargeBinary || id == TypeId::kLargeString;
}
// binary_view and string_view: 16-byte views + variadic data buffers.
constexpr bool is_view(TypeId id) { return id == TypeId::kBinaryView || id == TypeId::kStringView; }
// Types whose values must be valid UTF-8.
constexpr bool is_string(TypeId id) {
  return id == TypeId::kString || id == TypeId::kLargeString || id == TypeId::kStringView;
}
// list, large_list, fixed_size_list, struct, map (the types Parquet nests). Unions, run-end
// encoded and list views have children too, but are named by their own predicates below.
constexpr bool is_nested(TypeId id) { return id >= TypeId::kList && id <= TypeId::kMap; }
constexpr bool is_union(TypeId id) { return id == TypeId::kSparseUnion || id == TypeId::kDenseUnion; }
constexpr bool is_list_view(TypeId id) { return id == TypeId::kListView || id == TypeId::kLargeListView; }
// Every type with child arrays (nested, unions, run-end encoded, list views).
constexpr bool has_children(TypeId id) { return is_nested(id) || id >= TypeId::kSparseUnion; }
constexpr bool is_list_like(TypeId id) {
  return id == TypeId::kList || id == TypeId::kLargeList || id == TypeId::kFixedSizeList || id == TypeId::kMap;
}

class DataType;
class Field;
using TypePtr = std::shared_ptr<const DataType>;
using FieldPtr = std::shared_ptr<const Field>;

// The parameters of a type; which ones apply depends on the id. Use the factory functions
// below rather than filling this by hand: they keep the parameters consistent.
struct TypeParams {
  int32_t precision = 0;   // decimal
  int32_t scale = 0;       // decimal
  TimeUnit unit = TimeUnit::kSecond;  // time32/64, timestamp, duration
  std::string timezone;    // timestamp; empty = naive
  int32_t byte_width = 0;  // fixed_size_binary
  int32_t list_size = 0;   // fixed_size_list
  bool keys_sorted = false;  // map
  bool ordered = false;      // dictionary
  std::vector<FieldPtr> fields;  // list-likes: one value field; map: the entries field; struct: members
  TypePtr index_type;  // dictionary
  TypePtr value_type;  // dictionary
  std::vector<int8_t> type_codes;  // unions: the type id of each member (fields), distinct, 0..127
};

class DataType {
 public:
  DataType(TypeId id, TypeParams params);

  TypeId id() const { return id_; }

  // Width of one value in bits for fixed-width types (boolean 1, int32 32, decimal128 128,
  // fixed_size_binary 8*byte_width, dictionary: its index width); 0 for everything else.
  int bit_width() const { return bit_width_; }
  // Width of one value in bytes for byte-aligned fixed-width types; 0 for boolean and
  // variable-width types.
  int byte_width() const { return bit_width_ % 8 == 0 ? bit_width_ / 8 : 0; }

  int32_t precision() const { return params_.precision; }
  int32_t scale() const { return params_.scale; }
  TimeUnit unit() const { return params_.unit; }
  const std::string& timezone() const { return params_.timezone; }
  int32_t list_size() const { return params_.list_size; }
  bool keys_sorted() const { return params_.keys_sorted; }
  bool ordered() const { return params_.ordered; }

  // Children: the value field of list types, the "entries" field of map, the members of
  // struct; empty otherwise.
  const std::vector<FieldPtr>& fields() const { return params_.fields; }
  int num_fields() const { return static_cast<int>(params_.fields.size()); }
  const FieldPtr& field(int i) const { return params_.fields[static_cast<size_t>(i)]; }
  // The value field of list, large_list, fixed_size_list and map (map: "entries").
  const FieldPtr& value_field() const { return params_.fields[0]; }
  // The value type of a list-like type (map: the entries struct).
  const TypePtr& list_value_type() const;
  // map only: the key and item types (children of the entries struct).
  const TypePtr& key_type() const;
  const TypePtr& item_type() const;

  // unions only: the type id of member i (the ids an array's type-id buffer holds).
  const std::vector<int8_t>& type_codes() const { return params_.type_codes; }
  // run_end_encoded only.
  const TypePtr& run_end_type() const;
  const TypePtr& encoded_value_type() const;

  // dictionary only.
  const TypePtr& index_type() const { return params_.index_type; }
  const TypePtr& value_type() const { return params_.value_type; }

  // Arrow's spelling: "int64", "timestamp[ns, tz=UTC]", "decimal128(15, 2)",
  // "list<item: int64>", "struct<a: int32, b: string>", "map<string, int64>",
  // "fixed_size_binary[16]", "dictionary<values=string, indices=int32>".
  std::string ToString() const;

  // Structural equality. Struct member names count; the names of list items and map entries
  // do not (writers disagree on "item" / "element"), their types and nullability do.
  // Field metadata is ignored.
  bool Equals(const DataType& other) const;
  bool Equals(const TypePtr& other) const { return other != nullptr && Equals(*other); }

 private:
  TypeId id_;
  int bit_width_ = 0;
  TypeParams params_;
};

inline bool operator==(const DataType& a, const DataType& b) { return a.Equals(b); }

// Factories. Types without parameters are shared singletons.
TypePtr null();
TypePtr boolean();
TypePtr int8();
TypePtr int16();
TypePtr int32();
TypePtr int64();
TypePtr uint8();
TypePtr uint16();
TypePtr uint32();
TypePtr uint64();
TypePtr float16();
TypePtr float32();
TypePtr float64();
TypePtr date32();
TypePtr date64();
TypePtr binary();
TypePtr utf8();
TypePtr large_binary();
TypePtr large_utf8();
TypePtr binary_view();
TypePtr utf8_view();
// Interval(MONTH_DAY_NANO); its values are MonthDayNano (strata/types/month_day_nano.h).
TypePtr month_day_nano_interval();
// Interval(YEAR_MONTH): int32 months.
TypePtr year_month_interval();
// Interval(DAY_TIME): int32 days and int32 milliseconds (DayTime, month_day_nano.h).
TypePtr day_time_interval();
// The singleton for a parameterless id; nullptr for ids that take parameters.
TypePtr TypeForId(TypeId id);

// Precondition: 1 <= precision <= 9 (decimal32), 18 (decimal64), 38 (decimal128) or 76
// (decimal256). Use the Make* variants for parameters read from untrusted input.
TypePtr decimal32(int32_t precision, int32_t scale);
TypePtr decimal64(int32_t precision, int32_t scale);
TypePtr decimal128(int32_t precision, int32_t scale);
TypePtr decimal256(int32_t precision, int32_t scale);
// Scales beyond this (either sign) are refused from untrusted input: no real data has them, and
// printing one value would take as many digits.
inline constexpr int32_t kMaxDecimalScale = 4096;
Result<TypePtr> MakeDecimal32(int32_t precision, int32_t scale);
Result<TypePtr> MakeDecimal64(int32_t precision, int32_t scale);
Result<TypePtr> MakeDecimal128(int32_t precision, int32_t scale);
// The decimal of `bit_width` bits (32, 64, 128 or 256).
Result<TypePtr> MakeDecimalOfWidth(int bit_width, int32_t precision, int32_t scale);
Result<TypePtr> MakeDecimal256(int32_t precision, int32_t scale);
// The narrowest decimal that holds `precision` digits (128 up to 38, then 256).
Result<TypePtr> MakeDecimal(int32_t precision, int32_t scale);

// Precondition: time32 takes seconds or millis, time64 micros or nanos.
TypePtr time32(TimeUnit unit);
TypePtr time64(TimeUnit unit);
Result<TypePtr> MakeTime32(TimeUnit unit);
Result<TypePtr> MakeTime64(TimeUnit unit);
TypePtr timestamp(TimeUnit unit, std::string timezone = "");
TypePtr duration(TimeUnit unit);

// Precondition: 0 <= byte_width <= kMaxFixedSizeBinaryWidth (its width in bits fits an int).
inline constexpr int32_t kMaxFixedSizeBinaryWidth = INT32_MAX / 8;
TypePtr fixed_size_binary(int32_t byte_width);
Result<TypePtr> MakeFixedSizeBinary(int32_t byte_width);

// List types; given a type, the value field is "item", nullable.
TypePtr list(FieldPtr value_field);
TypePtr list(TypePtr value_type);
TypePtr large_list(FieldPtr value_field);
TypePtr large_list(TypePtr value_type);
// Precondition: list_size >= 0.
TypePtr fixed_size_list(FieldPtr value_field, int32_t list_size);
TypePtr fixed_size_list(TypePtr value_type, int32_t list_size);
Result<TypePtr> MakeFixedSizeList(FieldPtr value_field, int32_t list_size);

TypePtr struct_(std::vector<FieldPtr> fields);

// map<key, item>: a list of a non-null struct "entries" with a non-null "key" and a "value".
TypePtr map(TypePtr key_type, TypePtr item_type, bool keys_sorted = false);
TypePtr map(TypePtr key_type, FieldPtr item_field, bool keys_sorted = false);
// Checks that `entries` is a non-null struct of exactly two fields with a non-null key.
Result<TypePtr> MakeMap(FieldPtr entries, bool keys_sorted = false);

// Unions of `fields` with type ids `type_codes` (empty: 0, 1, ...). Checks that the ids are
// distinct, in [0, 127] and one per field (at most 128 members).
inline constexpr int kMaxUnionTypeCode = 127;
Result<TypePtr> MakeSparseUnion(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes = {});
Result<TypePtr> MakeDenseUnion(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes = {});
// Precondition: as MakeSparseUnion / MakeDenseUnion check.
TypePtr sparse_union(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes = {});
TypePtr dense_union(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes = {});

// run_end_encoded<run_ends: R, values: V>: R is int16, int32 or int64 (a non-null field
// "run_ends"); the values field is "values", nullable.
Result<TypePtr> MakeRunEndEncoded(TypePtr run_end_type, TypePtr value_type);
TypePtr run_end_encoded(TypePtr run_end_type, TypePtr value_type);

// list_view / large_list_view; given a type, the value field is "item", nullable.
TypePtr list_view(FieldPtr value_field);
TypePtr list_view(TypePtr value_type);
TypePtr large_list_view(FieldPtr value_field);
TypePtr large_list_view(TypePtr value_type);

// Precondition: index_type is an integer type.
TypePtr dictionary(TypePtr index_type, TypePtr value_type, bool ordered = false);
Result<TypePtr> MakeDictionary(TypePtr index_type, TypePtr value_type, bool ordered = false);

}  // namespace strata
