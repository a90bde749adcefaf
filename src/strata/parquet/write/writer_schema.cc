#include "strata/parquet/write/writer_schema.h"

#include "strata/parquet/geo/geoarrow_metadata.h"

#include <algorithm>
#include <cmath>
#include <charconv>

namespace strata::parquet {
namespace {

using Kind = LogicalType::Kind;

LogicalType MakeLogical(Kind kind) {
  LogicalType t;
  t.kind = kind;
  return t;
}

LogicalType IntegerLogical(int bits, bool is_signed) {
  LogicalType t = MakeLogical(Kind::kInteger);
  t.bit_width = static_cast<int8_t>(bits);
  t.is_signed = is_signed;
  return t;
}

TimeUnit ParquetUnit(::strata::TimeUnit unit) {
  switch (unit) {
    case ::strata::TimeUnit::kSecond:
    case ::strata::TimeUnit::kMilli: return TimeUnit::kMillis;
    case ::strata::TimeUnit::kMicro: return TimeUnit::kMicros;
    case ::strata::TimeUnit::kNano: return TimeUnit::kNanos;
  }
  return TimeUnit::kMillis;
}

// Smallest FIXED_LEN_BYTE_ARRAY width whose two's complement holds `precision` digits.
int32_t DecimalBytesForPrecision(int32_t precision) {
  for (int32_t bytes = 1; bytes <= 32; ++bytes) {
    const double digits = std::floor((8.0 * bytes - 1.0) * std::log10(2.0));
    if (digits >= precision) return bytes;
  }
  return 32;
}

std::string_view ExtensionName(const Field& field) {
  return field.metadata().Get("ARROW:extension:name").value_or("");
}

class SchemaMapper {
 public:
  SchemaMapper(const WriterOptions& options, WriterSchema* out) : options_(options), out_(out) {}

  Status AddField(const Field& field, std::vector<std::string>& path, int16_t def, int16_t rep,
                  std::optional<FieldRepetitionType> forced = std::nullopt) {
    SchemaElement element;
    element.name = field.name();
    element.repetition_type = forced ? *forced
                                     : (field.nullable() ? FieldRepetitionType::kOptional : FieldRepetitionType::kRequired);
    if (auto id = field.metadata().Get("PARQUET:field_id")) {
      int32_t value = 0;
      const auto [ptr, ec] = std::from_chars(id->data(), id->data() + id->size(), value);
      if (ec == std::errc() && ptr == id->data() + id->size()) element.field_id = value;
    }
    if (*element.repetition_type == FieldRepetitionType::kOptional) ++def;
    path.push_back(field.name());
    const DataType& type = *field.type();
    Status status;
    switch (type.id()) {
      case TypeId::kStruct: status = AddStruct(field, std::move(element), path, def, rep); break;
      case TypeId::kList:
      case TypeId::kLargeList:
      case TypeId::kFixedSizeList: status = AddList(field, std::move(element), path, def, rep); break;
      case TypeId::kMap: status = AddMap(field, std::move(element), path, def, rep); break;
      default: status = AddLeaf(field, std::move(element), path, def, rep); break;
    }
    path.pop_back();
    return status;
  }

 private:
  Status AddStruct(const Field& field, SchemaElement element, std::vector<std::string>& path, int16_t def,
                   int16_t rep) {
    const DataType& type = *field.type();
    if (type.num_fields() == 0) {
      return Status::Invalid("field '{}': a struct without fields has no Parquet form", Dotted(path));
    }
    element.num_children = type.num_fields();
    if (ExtensionName(field) == "arrow.parquet.variant") {
      // Arrow's variant (struct<metadata: binary not null, value: binary>) is a VARIANT group,
      // unshredded: its two binary leaves as they are.
      const bool unshredded = type.num_fields() == 2 && type.field(0)->name() == "metadata" &&
                              type.field(1)->name() == "value" && !type.field(0)->nullable() &&
                              is_binary_like(type.field(0)->type()->id()) && is_binary_like(type.field(1)->type()->id());
      if (!unshredded) {
        return Status::Invalid("field '{}': a variant is struct<metadata: binary not null, value: binary>, not {}",
                               Dotted(path), type.ToString());
      }
      LogicalType variant = MakeLogical(Kind::kVariant);
      variant.specification_version = 1;
      element.logical_type = variant;
    }
    out_->elements.push_back(std::move(element));
    for (const FieldPtr& child : type.fields()) STRATA_RETURN_NOT_OK(AddField(*child, path, def, rep));
    return Status::OK();
  }

  // <optional|required> group name (LIST) { repeated group list { <element> } }
  Status AddList(const Field& field, SchemaElement element, std::vector<std::string>& path, int16_t def,
                 int16_t rep) {
    element.num_children = 1;
    element.converted_type = ConvertedType::kList;
    element.logical_type = MakeLogical(Kind::kList);
    out_->elements.push_back(std::move(element));
    SchemaElement repeated;
    repeated.name = "list";
    repeated.repetition_type = FieldRepetitionType::kRepeated;
    repeated.num_children = 1;
    out_->elements.push_back(std::move(repeated));
    path.push_back("list");
    const Field& value = *field.type()->value_field();
    Status status = AddField(*value.WithName("element"), path, static_cast<int16_t>(def + 1),
                             static_cast<int16_t>(rep + 1));
    path.pop_back();
    return status;
  }

  // <optional|required> group name (MAP) { repeated group key_value { required key; value } }
  Status AddMap(const Field& field, SchemaElement element, std::vector<std::string>& path, int16_t def,
                int16_t rep) {
    const DataType& type = *field.type();
    const DataType& entries = *type.value_field()->type();
    if (entries.num_fields() != 2) return Status::Invalid("map field '{}' needs key and value", Dotted(path));
    element.num_children = 1;
    element.converted_type = ConvertedType::kMap;
    element.logical_type = MakeLogical(Kind::kMap);
    out_->elements.push_back(std::move(element));
    SchemaElement key_value;
    key_value.name = "key_value";
    key_value.repetition_type = FieldRepetitionType::kRepeated;
    key_value.num_children = 2;
    out_->elements.push_back(std::move(key_value));
    path.push_back("key_value");
    const auto next_def = static_cast<int16_t>(def + 1);
    const auto next_rep = static_cast<int16_t>(rep + 1);
    Status status = AddField(*entries.field(0)->WithName("key"), path, next_def, next_rep,
                             FieldRepetitionType::kRequired);
    if (status.ok()) status = AddField(*entries.field(1)->WithName("value"), path, next_def, next_rep);
    path.pop_back();
    return status;
  }

  Status AddLeaf(const Field& field, SchemaElement element, std::vector<std::string>& path, int16_t def,
                 int16_t rep) {
    WriterColumn column;
    column.column_index = static_cast<int>(out_->columns.size());
    column.path = path;
    column.dotted_path = Dotted(path);
    column.arrow_type = field.type();
    column.value_type = field.type()->id() == TypeId::kDictionary ? field.type()->value_type() : field.type();
    if (is_nested(column.value_type->id()) || column.value_type->id() == TypeId::kDictionary) {
      return Status::Invalid("field '{}': dictionary values of type {} have no Parquet form", column.dotted_path,
                             column.value_type->ToString());
    }
    STRATA_RETURN_NOT_OK(MapLeafType(field, *column.value_type, &element, &column));
    if (column.conversion == PhysicalConversion::kNull && *element.repetition_type == FieldRepetitionType::kRequired) {
      element.repetition_type = FieldRepetitionType::kOptional;  // a null column is all nulls
      ++def;
    }
    column.max_definition_level = def;
    column.max_repetition_level = rep;
    column.physical_type = *element.type;
    column.type_length = element.type_length.value_or(0);
    column.sort_order = ColumnSortOrder(column.physical_type, element.logical_type, element.converted_type);
    column.is_float16 = element.logical_type && element.logical_type->kind == Kind::kFloat16;
    column.element_index = static_cast<int>(out_->elements.size());

    ColumnWriteOptions resolved = options_.ForColumn(column.dotted_path);
    if (resolved.encoding == Encoding::kRleDictionary) {
      resolved.dictionary = true;
      resolved.encoding = Encoding::kPlain;
    }
    if (column.physical_type == PhysicalType::kBoolean) resolved.dictionary = false;
    if (field.type()->id() == TypeId::kDictionary && column.physical_type != PhysicalType::kBoolean) {
      resolved.dictionary = true;  // the values come as a dictionary already
    }
    STRATA_RETURN_NOT_OK(resolved.Validate(column.physical_type, column.dotted_path));
    column.options = std::move(resolved);

    out_->elements.push_back(std::move(element));
    out_->columns.push_back(std::move(column));
    return Status::OK();
  }

  Status MapLeafType(const Field& field, const DataType& type, SchemaElement* e, WriterColumn* column) {
    auto set = [&](PhysicalType physical, std::optional<LogicalType> logical = std::nullopt,
                   std::optional<ConvertedType> converted = std::nullopt) {
      e->type = physical;
      e->logical_type = std::move(logical);
      e->converted_type = converted;
    };
    switch (type.id()) {
      case TypeId::kNull:
        set(PhysicalType::kInt32, MakeLogical(Kind::kNull));
        column->conversion = PhysicalConversion::kNull;
        return Status::OK();
      case TypeId::kBoolean:
        set(PhysicalType::kBoolean);
        column->conversion = PhysicalConversion::kBoolean;
        return Status::OK();
      case TypeId::kInt8:
        set(PhysicalType::kInt32, IntegerLogical(8, true), ConvertedType::kInt8);
        column->conversion = PhysicalConversion::kSignExtend8;
        return Status::OK();
      case TypeId::kInt16:
        set(PhysicalType::kInt32, IntegerLogical(16, true), ConvertedType::kInt16);
        column->conversion = PhysicalConversion::kSignExtend16;
        return Status::OK();
      case TypeId::kInt32: set(PhysicalType::kInt32); return Status::OK();
      case TypeId::kInt64: set(PhysicalType::kInt64); return Status::OK();
      case TypeId::kUInt8:
        set(PhysicalType::kInt32, IntegerLogical(8, false), ConvertedType::kUint8);
        column->conversion = PhysicalConversion::kZeroExtend8;
        return Status::OK();
      case TypeId::kUInt16:
        set(PhysicalType::kInt32, IntegerLogical(16, false), ConvertedType::kUint16);
        column->conversion = PhysicalConversion::kZeroExtend16;
        return Status::OK();
      case TypeId::kUInt32: set(PhysicalType::kInt32, IntegerLogical(32, false), ConvertedType::kUint32); return Status::OK();
      case TypeId::kUInt64: set(PhysicalType::kInt64, IntegerLogical(64, false), ConvertedType::kUint64); return Status::OK();
      case TypeId::kFloat16:
        set(PhysicalType::kFixedLenByteArray, MakeLogical(Kind::kFloat16));
        e->type_length = 2;
        return Status::OK();
      case TypeId::kFloat32: set(PhysicalType::kFloat); return Status::OK();
      case TypeId::kFloat64: set(PhysicalType::kDouble); return Status::OK();
      case TypeId::kDecimal32:  // DECIMAL on INT32 (precision <= 9)
      case TypeId::kDecimal64:  // DECIMAL on INT32 or INT64 by precision, as every decimal
      case TypeId::kDecimal128:
      case TypeId::kDecimal256: {
        LogicalType logical = MakeLogical(Kind::kDecimal);
        logical.precision = type.precision();
        logical.scale = type.scale();
        e->precision = type.precision();
        e->scale = type.scale();
        if (type.precision() <= 9) {
          set(PhysicalType::kInt32, logical, ConvertedType::kDecimal);
          column->conversion = PhysicalConversion::kDecimalToInt32;
        } else if (type.precision() <= 18) {
          set(PhysicalType::kInt64, logical, ConvertedType::kDecimal);
          column->conversion = PhysicalConversion::kDecimalToInt64;
        } else {
          set(PhysicalType::kFixedLenByteArray, logical, ConvertedType::kDecimal);
          e->type_length = DecimalBytesForPrecision(type.precision());
          column->conversion = PhysicalConversion::kDecimalToFixed;
        }
        return Status::OK();
      }
      case TypeId::kDate32: set(PhysicalType::kInt32, MakeLogical(Kind::kDate), ConvertedType::kDate); return Status::OK();
      case TypeId::kDate64:
        set(PhysicalType::kInt32, MakeLogical(Kind::kDate), ConvertedType::kDate);
        column->conversion = PhysicalConversion::kDate64ToDate32;
        return Status::OK();
      case TypeId::kTime32: {
        // Times of day are local: isAdjustedToUTC false (DuckDB reads true as TIME WITH TIME ZONE).
        LogicalType logical = MakeLogical(Kind::kTime);
        logical.unit = TimeUnit::kMillis;
        set(PhysicalType::kInt32, logical, ConvertedType::kTimeMillis);
        if (type.unit() == ::strata::TimeUnit::kSecond) {
          column->conversion = PhysicalConversion::kMultiply;
          column->multiplier = 1000;
        }
        return Status::OK();
      }
      case TypeId::kTime64: {
        LogicalType logical = MakeLogical(Kind::kTime);
        logical.unit = ParquetUnit(type.unit());
        set(PhysicalType::kInt64, logical,
            logical.unit == TimeUnit::kMicros ? std::optional(ConvertedType::kTimeMicros) : std::nullopt);
        return Status::OK();
      }
      case TypeId::kTimestamp: {
        const bool utc = !type.timezone().empty();
        if (options_.file.int96_timestamps) {
          set(PhysicalType::kInt96);
          column->conversion = PhysicalConversion::kTimestampToInt96;
          return Status::OK();
        }
        LogicalType logical = MakeLogical(Kind::kTimestamp);
        logical.unit = ParquetUnit(type.unit());
        logical.is_adjusted_to_utc = utc;
        std::optional<ConvertedType> converted;
        // The converted types mean "adjusted to UTC": only then are they written.
        if (utc && logical.unit == TimeUnit::kMillis) converted = ConvertedType::kTimestampMillis;
        if (utc && logical.unit == TimeUnit::kMicros) converted = ConvertedType::kTimestampMicros;
        set(PhysicalType::kInt64, logical, converted);
        if (type.unit() == ::strata::TimeUnit::kSecond) {
          column->conversion = PhysicalConversion::kMultiply;
          column->multiplier = 1000;
        }
        return Status::OK();
      }
      case TypeId::kDuration: set(PhysicalType::kInt64); return Status::OK();
      case TypeId::kIntervalYearMonth:
      case TypeId::kIntervalDayTime:
      case TypeId::kIntervalMonthDayNano:
        // All three Arrow intervals map exactly onto INTERVAL's months, days and milliseconds
        // when their parts are non-negative (the gatherer refuses, naming the value, otherwise).
        // INTERVAL is a converted type only (LogicalTypes.md has no logical form): no logical
        // type, as parquet-cpp and DuckDB write it. Its order is undefined, so no min/max.
        set(PhysicalType::kFixedLenByteArray, std::nullopt, ConvertedType::kInterval);
        e->type_length = 12;
        column->conversion = PhysicalConversion::kIntervalToFixed;
        return Status::OK();
      case TypeId::kString:
      case TypeId::kLargeString:
      case TypeId::kStringView: {
        const bool json = ExtensionName(field) == "arrow.json";
        set(PhysicalType::kByteArray, MakeLogical(json ? Kind::kJson : Kind::kString),
            json ? ConvertedType::kJson : ConvertedType::kUtf8);
        column->conversion = PhysicalConversion::kByteArray;
        return Status::OK();
      }
      case TypeId::kBinary:
      case TypeId::kLargeBinary:
      case TypeId::kBinaryView: {
        // WKB marked geoarrow.wkb goes back to GEOMETRY or GEOGRAPHY (geoarrow_metadata.h).
        STRATA_ASSIGN_OR_RETURN(auto geospatial, GeospatialLogicalTypeOf(field));
        set(PhysicalType::kByteArray, std::move(geospatial));
        column->conversion = PhysicalConversion::kByteArray;
        return Status::OK();
      }
      case TypeId::kFixedSizeBinary: {
        const bool uuid = ExtensionName(field) == "arrow.uuid" && type.byte_width() == 16;
        set(PhysicalType::kFixedLenByteArray, uuid ? std::optional(MakeLogical(Kind::kUuid)) : std::nullopt);
        e->type_length = type.byte_width();
        return Status::OK();
      }
      case TypeId::kSparseUnion:
      case TypeId::kDenseUnion:
      case TypeId::kListView:
      case TypeId::kLargeListView:
        return Status::NotImplemented("field '{}': type {} has no Parquet form (Parquet has no {} type)",
                                      Dotted(column->path), type.ToString(),
                                      is_union(type.id()) ? "union" : "list view");
      case TypeId::kRunEndEncoded:
        return Status::NotImplemented("field '{}': type {} is not written to Parquet yet (decode it to its values "
                                      "first)",
                                      Dotted(column->path), type.ToString());
      default:
        return Status::Invalid("field '{}': type {} has no Parquet form", Dotted(column->path), type.ToString());
    }
  }

  static std::string Dotted(const std::vector<std::string>& path) {
    std::string out;
    for (const std::string& part : path) {
      if (!out.empty()) out += '.';
      out += part;
    }
    return out;
  }

  const WriterOptions& options_;
  WriterSchema* out_;
};

}  // namespace

Result<WriterSchema> MakeWriterSchema(std::shared_ptr<Schema> schema, const WriterOptions& options) {
  WriterSchema out;
  out.schema = schema;
  SchemaElement root;
  root.name = "schema";
  root.num_children = schema->num_fields();
  out.elements.push_back(std::move(root));
  SchemaMapper mapper(options, &out);
  std::vector<std::string> path;
  for (int i = 0; i < schema->num_fields(); ++i) {
    out.field_first_column.push_back(static_cast<int>(out.columns.size()));
    STRATA_RETURN_NOT_OK(mapper.AddField(*schema->field(i), path, 0, 0));
  }
  out.field_first_column.push_back(static_cast<int>(out.columns.size()));
  if (out.columns.empty()) return Status::Invalid("a Parquet file needs at least one column");
  // Every column fills a page at a time. On a wide schema, data_page_bytes each would hold
  // more than the row group (2,000 columns x 1 MiB): the pages being filled stay within half
  // of max_row_group_bytes together, at no less than 8 KiB a page. Narrow schemas (under 32
  // columns at the defaults) keep data_page_bytes.
  const auto columns = static_cast<int64_t>(out.columns.size());
  const int64_t share = options.file.column_by_column
                            ? options.file.data_page_bytes
                            : std::max<int64_t>(8 << 10, options.file.max_row_group_bytes / (2 * columns));
  for (WriterColumn& column : out.columns) column.page_bytes = std::min(options.file.data_page_bytes, share);
  for (const auto& [override_path, unused] : options.column_overrides) {
    const bool found = std::any_of(out.columns.begin(), out.columns.end(), [&](const WriterColumn& column) {
      return PathCovers(override_path, column.dotted_path);
    });
    if (!found) return Status::Invalid("column option for '{}': no such column", override_path);
  }
  return out;
}

}  // namespace strata::parquet
