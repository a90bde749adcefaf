#include "strata/types/data_type.h"

#include <array>
#include <cassert>

#include <fmt/format.h>

#include "strata/types/field.h"

namespace strata {

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSecond: return "s";
    case TimeUnit::kMilli: return "ms";
    case TimeUnit::kMicro: return "us";
    case TimeUnit::kNano: return "ns";
  }
  return "?";
}

std::string_view TypeIdName(TypeId id) {
  switch (id) {
    case TypeId::kNull: return "null";
    case TypeId::kBoolean: return "bool";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kFloat16: return "halffloat";
    case TypeId::kFloat32: return "float";
    case TypeId::kFloat64: return "double";
    case TypeId::kDecimal32: return "decimal32";
    case TypeId::kDecimal64: return "decimal64";
    case TypeId::kDecimal128: return "decimal128";
    case TypeId::kDecimal256: return "decimal256";
    case TypeId::kDate32: return "date32";
    case TypeId::kDate64: return "date64";
    case TypeId::kTime32: return "time32";
    case TypeId::kTime64: return "time64";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kDuration: return "duration";
    case TypeId::kIntervalYearMonth: return "month_interval";
    case TypeId::kIntervalDayTime: return "day_time_interval";
    case TypeId::kIntervalMonthDayNano: return "month_day_nano_interval";
    case TypeId::kBinary: return "binary";
    case TypeId::kString: return "string";
    case TypeId::kLargeBinary: return "large_binary";
    case TypeId::kLargeString: return "large_string";
    case TypeId::kBinaryView: return "binary_view";
    case TypeId::kStringView: return "string_view";
    case TypeId::kFixedSizeBinary: return "fixed_size_binary";
    case TypeId::kList: return "list";
    case TypeId::kLargeList: return "large_list";
    case TypeId::kFixedSizeList: return "fixed_size_list";
    case TypeId::kStruct: return "struct";
    case TypeId::kMap: return "map";
    case TypeId::kDictionary: return "dictionary";
    case TypeId::kSparseUnion: return "sparse_union";
    case TypeId::kDenseUnion: return "dense_union";
    case TypeId::kRunEndEncoded: return "run_end_encoded";
    case TypeId::kListView: return "list_view";
    case TypeId::kLargeListView: return "large_list_view";
  }
  return "?";
}

namespace {

int BitWidthOf(TypeId id, const TypeParams& p) {
  switch (id) {
    case TypeId::kBoolean: return 1;
    case TypeId::kInt8:
    case TypeId::kUInt8: return 8;
    case TypeId::kInt16:
    case TypeId::kUInt16:
    case TypeId::kFloat16: return 16;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate32:
    case TypeId::kTime32:
    case TypeId::kDecimal32:
    case TypeId::kIntervalYearMonth: return 32;
    case TypeId::kDecimal64:
    case TypeId::kIntervalDayTime:
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: return 64;
    case TypeId::kDecimal128:
    case TypeId::kIntervalMonthDayNano: return 128;
    case TypeId::kDecimal256: return 256;
    case TypeId::kFixedSizeBinary: return p.byte_width * 8;
    case TypeId::kDictionary: return p.index_type ? p.index_type->bit_width() : 0;
    default: return 0;
  }
}

}  // namespace

DataType::DataType(TypeId id, TypeParams params) : id_(id), params_(std::move(params)) {
  bit_width_ = BitWidthOf(id_, params_);
}

const TypePtr& DataType::list_value_type() const { return params_.fields[0]->type(); }
const TypePtr& DataType::run_end_type() const { return params_.fields[0]->type(); }
const TypePtr& DataType::encoded_value_type() const { return params_.fields[1]->type(); }
const TypePtr& DataType::key_type() const { return params_.fields[0]->type()->field(0)->type(); }
const TypePtr& DataType::item_type() const { return params_.fields[0]->type()->field(1)->type(); }

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256:
      return fmt::format("{}({}, {})", TypeIdName(id_), params_.precision, params_.scale);
    case TypeId::kDate32: return "date32[day]";
    case TypeId::kDate64: return "date64[ms]";
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kDuration:
      return fmt::format("{}[{}]", TypeIdName(id_), TimeUnitName(params_.unit));
    case TypeId::kTimestamp:
      if (params_.timezone.empty()) return fmt::format("timestamp[{}]", TimeUnitName(params_.unit));
      return fmt::format("timestamp[{}, tz={}]", TimeUnitName(params_.unit), params_.timezone);
    case TypeId::kFixedSizeBinary: return fmt::format("fixed_size_binary[{}]", params_.byte_width);
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView:
      return fmt::format("{}<{}>", TypeIdName(id_), params_.fields[0]->ToString());
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion: {
      // Arrow's spelling: sparse_union<a: int32=0, b: string=1>
      std::string out = fmt::format("{}<", TypeIdName(id_));
      for (size_t i = 0; i < params_.fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += fmt::format("{}={}", params_.fields[i]->ToString(), params_.type_codes[i]);
      }
      out += ">";
      return out;
    }
    case TypeId::kRunEndEncoded:
      return fmt::format("run_end_encoded<run_ends: {}, values: {}>", run_end_type()->ToString(),
                         encoded_value_type()->ToString());
    case TypeId::kFixedSizeList:
      return fmt::format("fixed_size_list<{}>[{}]", params_.fields[0]->ToString(), params_.list_size);
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < params_.fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += params_.fields[i]->ToString();
      }
      out += ">";
      return out;
    }
    case TypeId::kMap:
      return fmt::format("map<{}, {}{}>", key_type()->ToString(), item_type()->ToString(),
                         params_.keys_sorted ? ", keys_sorted" : "");
    case TypeId::kDictionary:
      return fmt::format("dictionary<values={}, indices={}{}>", params_.value_type->ToString(),
                         params_.index_type->ToString(), params_.ordered ? ", ordered" : "");
    default: return std::string(TypeIdName(id_));
  }
}

namespace {

// Child fields of list-likes and map entries: type and nullability, not the name.
bool ChildEquals(const Field& a, const Field& b) {
  return a.nullable() == b.nullable() && a.type()->Equals(*b.type());
}

}  // namespace

bool DataType::Equals(const DataType& other) const {
  if (this == &other) return true;
  if (id_ != other.id_) return false;
  const TypeParams& a = params_;
  const TypeParams& b = other.params_;
  switch (id_) {
    case TypeId::kDecimal32:
    case TypeId::kDecimal64:
    case TypeId::kDecimal128:
    case TypeId::kDecimal256: return a.precision == b.precision && a.scale == b.scale;
    case TypeId::kTime32:
    case TypeId::kTime64:
    case TypeId::kDuration: return a.unit == b.unit;
    case TypeId::kTimestamp: return a.unit == b.unit && a.timezone == b.timezone;
    case TypeId::kFixedSizeBinary: return a.byte_width == b.byte_width;
    case TypeId::kFixedSizeList:
      if (a.list_size != b.list_size) return false;
      [[fallthrough]];
    case TypeId::kList:
    case TypeId::kLargeList:
    case TypeId::kListView:
    case TypeId::kLargeListView: return ChildEquals(*a.fields[0], *b.fields[0]);
    case TypeId::kRunEndEncoded:
      return ChildEquals(*a.fields[0], *b.fields[0]) && ChildEquals(*a.fields[1], *b.fields[1]);
    case TypeId::kMap: {
      if (a.keys_sorted != b.keys_sorted) return false;
      const DataType& ea = *a.fields[0]->type();
      const DataType& eb = *b.fields[0]->type();
      return ChildEquals(*ea.field(0), *eb.field(0)) && ChildEquals(*ea.field(1), *eb.field(1));
    }
    case TypeId::kSparseUnion:
    case TypeId::kDenseUnion:
      if (a.type_codes != b.type_codes) return false;
      [[fallthrough]];  // members compare as struct members do, names included
    case TypeId::kStruct: {
      if (a.fields.size() != b.fields.size()) return false;
      for (size_t i = 0; i < a.fields.size(); ++i) {
        if (!a.fields[i]->Equals(*b.fields[i])) return false;
      }
      return true;
    }
    case TypeId::kDictionary:
      return a.ordered == b.ordered && a.index_type->Equals(*b.index_type) && a.value_type->Equals(*b.value_type);
    default: return true;
  }
}

// ---------------------------------------------------------------------------------------
// Factories

namespace {

TypePtr MakeSimple(TypeId id) { return std::make_shared<const DataType>(id, TypeParams{}); }

}  // namespace

#define STRATA_SINGLETON_TYPE(fn, id)        \
  TypePtr fn() {                             \
    static const TypePtr kType = MakeSimple(id); \
    return kType;                            \
  }
STRATA_SINGLETON_TYPE(null, TypeId::kNull)
STRATA_SINGLETON_TYPE(boolean, TypeId::kBoolean)
STRATA_SINGLETON_TYPE(int8, TypeId::kInt8)
STRATA_SINGLETON_TYPE(int16, TypeId::kInt16)
STRATA_SINGLETON_TYPE(int32, TypeId::kInt32)
STRATA_SINGLETON_TYPE(int64, TypeId::kInt64)
STRATA_SINGLETON_TYPE(uint8, TypeId::kUInt8)
STRATA_SINGLETON_TYPE(uint16, TypeId::kUInt16)
STRATA_SINGLETON_TYPE(uint32, TypeId::kUInt32)
STRATA_SINGLETON_TYPE(uint64, TypeId::kUInt64)
STRATA_SINGLETON_TYPE(float16, TypeId::kFloat16)
STRATA_SINGLETON_TYPE(float32, TypeId::kFloat32)
STRATA_SINGLETON_TYPE(float64, TypeId::kFloat64)
STRATA_SINGLETON_TYPE(date32, TypeId::kDate32)
STRATA_SINGLETON_TYPE(date64, TypeId::kDate64)
STRATA_SINGLETON_TYPE(binary, TypeId::kBinary)
STRATA_SINGLETON_TYPE(utf8, TypeId::kString)
STRATA_SINGLETON_TYPE(large_binary, TypeId::kLargeBinary)
STRATA_SINGLETON_TYPE(large_utf8, TypeId::kLargeString)
STRATA_SINGLETON_TYPE(binary_view, TypeId::kBinaryView)
STRATA_SINGLETON_TYPE(utf8_view, TypeId::kStringView)
STRATA_SINGLETON_TYPE(month_day_nano_interval, TypeId::kIntervalMonthDayNano)
STRATA_SINGLETON_TYPE(year_month_interval, TypeId::kIntervalYearMonth)
STRATA_SINGLETON_TYPE(day_time_interval, TypeId::kIntervalDayTime)
#undef STRATA_SINGLETON_TYPE

TypePtr TypeForId(TypeId id) {
  switch (id) {
    case TypeId::kNull: return null();
    case TypeId::kBoolean: return boolean();
    case TypeId::kInt8: return int8();
    case TypeId::kInt16: return int16();
    case TypeId::kInt32: return int32();
    case TypeId::kInt64: return int64();
    case TypeId::kUInt8: return uint8();
    case TypeId::kUInt16: return uint16();
    case TypeId::kUInt32: return uint32();
    case TypeId::kUInt64: return uint64();
    case TypeId::kFloat16: return float16();
    case TypeId::kFloat32: return float32();
    case TypeId::kFloat64: return float64();
    case TypeId::kDate32: return date32();
    case TypeId::kDate64: return date64();
    case TypeId::kBinary: return binary();
    case TypeId::kString: return utf8();
    case TypeId::kLargeBinary: return large_binary();
    case TypeId::kLargeString: return large_utf8();
    case TypeId::kBinaryView: return binary_view();
    case TypeId::kStringView: return utf8_view();
    case TypeId::kIntervalMonthDayNano: return month_day_nano_interval();
    case TypeId::kIntervalYearMonth: return year_month_interval();
    case TypeId::kIntervalDayTime: return day_time_interval();
    default: return nullptr;
  }
}

namespace {

TypePtr MakeDecimalUnchecked(TypeId id, int32_t precision, int32_t scale) {
  TypeParams p;
  p.precision = precision;
  p.scale = scale;
  return std::make_shared<const DataType>(id, std::move(p));
}

TypePtr MakeUnitType(TypeId id, TimeUnit unit, std::string timezone = "") {
  TypeParams p;
  p.unit = unit;
  p.timezone = std::move(timezone);
  return std::make_shared<const DataType>(id, std::move(p));
}

TypePtr MakeListLike(TypeId id, FieldPtr value_field, int32_t list_size = 0) {
  TypeParams p;
  p.fields.push_back(std::move(value_field));
  p.list_size = list_size;
  return std::make_shared<const DataType>(id, std::move(p));
}

}  // namespace

namespace {

// The most digits each decimal width holds.
int32_t MaxDecimalPrecision(TypeId id) {
  switch (id) {
    case TypeId::kDecimal32: return 9;
    case TypeId::kDecimal64: return 18;
    case TypeId::kDecimal128: return 38;
    default: return 76;
  }
}

Result<TypePtr> MakeCheckedDecimal(TypeId id, int32_t precision, int32_t scale) {
  const int32_t max_precision = MaxDecimalPrecision(id);
  if (precision < 1 || precision > max_precision) {
    return Status::Invalid("{} precision must be in [1, {}], got {}", TypeIdName(id), max_precision, precision);
  }
  if (scale < -kMaxDecimalScale || scale > kMaxDecimalScale) {
    return Status::Invalid("decimal scale must be in [-{}, {}], got {}", kMaxDecimalScale, kMaxDecimalScale, scale);
  }
  return MakeDecimalUnchecked(id, precision, scale);
}

}  // namespace

Result<TypePtr> MakeDecimal32(int32_t precision, int32_t scale) {
  return MakeCheckedDecimal(TypeId::kDecimal32, precision, scale);
}
Result<TypePtr> MakeDecimal64(int32_t precision, int32_t scale) {
  return MakeCheckedDecimal(TypeId::kDecimal64, precision, scale);
}
Result<TypePtr> MakeDecimal128(int32_t precision, int32_t scale) {
  return MakeCheckedDecimal(TypeId::kDecimal128, precision, scale);
}
Result<TypePtr> MakeDecimal256(int32_t precision, int32_t scale) {
  return MakeCheckedDecimal(TypeId::kDecimal256, precision, scale);
}

Result<TypePtr> MakeDecimalOfWidth(int bit_width, int32_t precision, int32_t scale) {
  switch (bit_width) {
    case 32: return MakeDecimal32(precision, scale);
    case 64: return MakeDecimal64(precision, scale);
    case 128: return MakeDecimal128(precision, scale);
    case 256: return MakeDecimal256(precision, scale);
    default: return Status::Invalid("a decimal is 32, 64, 128 or 256 bits wide, not {}", bit_width);
  }
}

Result<TypePtr> MakeDecimal(int32_t precision, int32_t scale) {
  return precision <= 38 ? MakeDecimal128(precision, scale) : MakeDecimal256(precision, scale);
}

TypePtr decimal32(int32_t precision, int32_t scale) {
  assert(precision >= 1 && precision <= 9);
  return MakeDecimalUnchecked(TypeId::kDecimal32, precision, scale);
}

TypePtr decimal64(int32_t precision, int32_t scale) {
  assert(precision >= 1 && precision <= 18);
  return MakeDecimalUnchecked(TypeId::kDecimal64, precision, scale);
}

TypePtr decimal128(int32_t precision, int32_t scale) {
  assert(precision >= 1 && precision <= 38);
  return MakeDecimalUnchecked(TypeId::kDecimal128, precision, scale);
}

TypePtr decimal256(int32_t precision, int32_t scale) {
  assert(precision >= 1 && precision <= 76);
  return MakeDecimalUnchecked(TypeId::kDecimal256, precision, scale);
}

Result<TypePtr> MakeTime32(TimeUnit unit) {
  if (unit != TimeUnit::kSecond && unit != TimeUnit::kMilli) {
    return Status::Invalid("time32 takes unit s or ms, got {}", TimeUnitName(unit));
  }
  return MakeUnitType(TypeId::kTime32, unit);
}

Result<TypePtr> MakeTime64(TimeUnit unit) {
  if (unit != TimeUnit::kMicro && unit != TimeUnit::kNano) {
    return Status::Invalid("time64 takes unit us or ns, got {}", TimeUnitName(unit));
  }
  return MakeUnitType(TypeId::kTime64, unit);
}

TypePtr time32(TimeUnit unit) {
  assert(unit == TimeUnit::kSecond || unit == TimeUnit::kMilli);
  return MakeUnitType(TypeId::kTime32, unit);
}

TypePtr time64(TimeUnit unit) {
  assert(unit == TimeUnit::kMicro || unit == TimeUnit::kNano);
  return MakeUnitType(TypeId::kTime64, unit);
}

TypePtr timestamp(TimeUnit unit, std::string timezone) {
  return MakeUnitType(TypeId::kTimestamp, unit, std::move(timezone));
}

TypePtr duration(TimeUnit unit) { return MakeUnitType(TypeId::kDuration, unit); }

Result<TypePtr> MakeFixedSizeBinary(int32_t byte_width) {
  if (byte_width < 0 || byte_width > kMaxFixedSizeBinaryWidth) {
    return Status::Invalid("fixed_size_binary byte width must be in [0, {}], got {}", kMaxFixedSizeBinaryWidth,
                           byte_width);
  }
  return fixed_size_binary(byte_width);
}

TypePtr fixed_size_binary(int32_t byte_width) {
  assert(byte_width >= 0);
  TypeParams p;
  p.byte_width = byte_width;
  return std::make_shared<const DataType>(TypeId::kFixedSizeBinary, std::move(p));
}

TypePtr list(FieldPtr value_field) { return MakeListLike(TypeId::kList, std::move(value_field)); }
TypePtr list(TypePtr value_type) { return list(field("item", std::move(value_type))); }
TypePtr large_list(FieldPtr value_field) { return MakeListLike(TypeId::kLargeList, std::move(value_field)); }
TypePtr large_list(TypePtr value_type) { return large_list(field("item", std::move(value_type))); }

TypePtr fixed_size_list(FieldPtr value_field, int32_t list_size) {
  assert(list_size >= 0);
  return MakeListLike(TypeId::kFixedSizeList, std::move(value_field), list_size);
}
TypePtr fixed_size_list(TypePtr value_type, int32_t list_size) {
  return fixed_size_list(field("item", std::move(value_type)), list_size);
}
Result<TypePtr> MakeFixedSizeList(FieldPtr value_field, int32_t list_size) {
  if (list_size < 0) return Status::Invalid("fixed_size_list size must be >= 0, got {}", list_size);
  return MakeListLike(TypeId::kFixedSizeList, std::move(value_field), list_size);
}

TypePtr struct_(std::vector<FieldPtr> fields) {
  TypeParams p;
  p.fields = std::move(fields);
  return std::make_shared<const DataType>(TypeId::kStruct, std::move(p));
}

TypePtr map(TypePtr key_type, FieldPtr item_field, bool keys_sorted) {
  auto entries = field("entries", struct_({field("key", std::move(key_type), false), std::move(item_field)}), false);
  TypeParams p;
  p.fields.push_back(std::move(entries));
  p.keys_sorted = keys_sorted;
  return std::make_shared<const DataType>(TypeId::kMap, std::move(p));
}

TypePtr map(TypePtr key_type, TypePtr item_type, bool keys_sorted) {
  return map(std::move(key_type), field("value", std::move(item_type)), keys_sorted);
}

Result<TypePtr> MakeMap(FieldPtr entries, bool keys_sorted) {
  if (entries == nullptr || entries->type()->id() != TypeId::kStruct || entries->type()->num_fields() != 2) {
    return Status::Invalid("map entries must be a struct of two fields (key, value), got {}",
                           entries ? entries->ToString() : "null");
  }
  if (entries->nullable()) return Status::Invalid("map entries field must not be nullable");
  if (entries->type()->field(0)->nullable()) return Status::Invalid("map key field must not be nullable");
  TypeParams p;
  p.fields.push_back(std::move(entries));
  p.keys_sorted = keys_sorted;
  return TypePtr(std::make_shared<const DataType>(TypeId::kMap, std::move(p)));
}

Result<TypePtr> MakeDictionary(TypePtr index_type, TypePtr value_type, bool ordered) {
  if (index_type == nullptr || !is_integer(index_type->id())) {
    return Status::Invalid("dictionary index type must be an integer, got {}",
                           index_type ? index_type->ToString() : "null");
  }
  if (value_type == nullptr) return Status::Invalid("dictionary value type is null");
  return dictionary(std::move(index_type), std::move(value_type), ordered);
}

namespace {

Result<TypePtr> MakeUnion(TypeId id, std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  if (fields.size() > static_cast<size_t>(kMaxUnionTypeCode) + 1) {
    return Status::Invalid("a union has at most {} members, got {}", kMaxUnionTypeCode + 1, fields.size());
  }
  if (type_codes.empty()) {
    for (size_t i = 0; i < fields.size(); ++i) type_codes.push_back(static_cast<int8_t>(i));
  }
  if (type_codes.size() != fields.size()) {
    return Status::Invalid("a union of {} members has {} type ids", fields.size(), type_codes.size());
  }
  bool seen[kMaxUnionTypeCode + 1] = {};
  for (size_t i = 0; i < type_codes.size(); ++i) {
    const int8_t code = type_codes[i];
    if (code < 0) return Status::Invalid("union type id {} (member {}) is negative", int{code}, i);
    if (seen[code]) return Status::Invalid("union type id {} is given twice", int{code});
    seen[code] = true;
    if (fields[i] == nullptr || fields[i]->type() == nullptr) return Status::Invalid("union member {} has no type", i);
  }
  TypeParams p;
  p.fields = std::move(fields);
  p.type_codes = std::move(type_codes);
  return TypePtr(std::make_shared<const DataType>(id, std::move(p)));
}

TypePtr MustUnion(TypeId id, std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  auto type = MakeUnion(id, std::move(fields), std::move(type_codes));
  assert(type.ok());
  return type.ok() ? *type : nullptr;
}

}  // namespace

Result<TypePtr> MakeSparseUnion(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  return MakeUnion(TypeId::kSparseUnion, std::move(fields), std::move(type_codes));
}
Result<TypePtr> MakeDenseUnion(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  return MakeUnion(TypeId::kDenseUnion, std::move(fields), std::move(type_codes));
}
TypePtr sparse_union(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  return MustUnion(TypeId::kSparseUnion, std::move(fields), std::move(type_codes));
}
TypePtr dense_union(std::vector<FieldPtr> fields, std::vector<int8_t> type_codes) {
  return MustUnion(TypeId::kDenseUnion, std::move(fields), std::move(type_codes));
}

Result<TypePtr> MakeRunEndEncoded(TypePtr run_end_type, TypePtr value_type) {
  if (run_end_type == nullptr || (run_end_type->id() != TypeId::kInt16 && run_end_type->id() != TypeId::kInt32 &&
                                  run_end_type->id() != TypeId::kInt64)) {
    return Status::Invalid("run ends must be int16, int32 or int64, got {}",
                           run_end_type ? run_end_type->ToString() : "null");
  }
  if (value_type == nullptr) return Status::Invalid("run_end_encoded value type is null");
  TypeParams p;
  p.fields.push_back(field("run_ends", std::move(run_end_type), false));
  p.fields.push_back(field("values", std::move(value_type)));
  return TypePtr(std::make_shared<const DataType>(TypeId::kRunEndEncoded, std::move(p)));
}

TypePtr run_end_encoded(TypePtr run_end_type, TypePtr value_type) {
  auto type = MakeRunEndEncoded(std::move(run_end_type), std::move(value_type));
  assert(type.ok());
  return type.ok() ? *type : nullptr;
}

TypePtr list_view(FieldPtr value_field) { return MakeListLike(TypeId::kListView, std::move(value_field)); }
TypePtr list_view(TypePtr value_type) { return list_view(field("item", std::move(value_type))); }
TypePtr large_list_view(FieldPtr value_field) { return MakeListLike(TypeId::kLargeListView, std::move(value_field)); }
TypePtr large_list_view(TypePtr value_type) { return large_list_view(field("item", std::move(value_type))); }

TypePtr dictionary(TypePtr index_type, TypePtr value_type, bool ordered) {
  assert(index_type && is_integer(index_type->id()));
  TypeParams p;
  p.index_type = std::move(index_type);
  p.value_type = std::move(value_type);
  p.ordered = ordered;
  return std::make_shared<const DataType>(TypeId::kDictionary, std::move(p));
}

}  // namespace strata
