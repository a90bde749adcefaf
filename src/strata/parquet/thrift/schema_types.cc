// parquet.thrift schema family: SchemaElement, the LogicalType union, KeyValue, ColumnOrder, and
// the names of the enums.
#include <fmt/format.h>

#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/thrift/struct_codec.h"

namespace strata::parquet {

using namespace thrift_internal;  // NOLINT: the codec vocabulary of this folder

std::string_view ConvertedTypeName(ConvertedType type) {
  static constexpr std::string_view kNames[] = {
      "UTF8",   "MAP",    "MAP_KEY_VALUE", "LIST",   "ENUM",   "DECIMAL",          "DATE",
      "TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32",
      "UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL"};
  const auto i = static_cast<int32_t>(type);
  return i >= 0 && i < static_cast<int32_t>(std::size(kNames)) ? kNames[i] : "UNKNOWN";
}

std::string_view FieldRepetitionTypeName(FieldRepetitionType type) {
  switch (type) {
    case FieldRepetitionType::kRequired: return "REQUIRED";
    case FieldRepetitionType::kOptional: return "OPTIONAL";
    case FieldRepetitionType::kRepeated: return "REPEATED";
    case FieldRepetitionType::kVector: return "VECTOR";
  }
  return "UNKNOWN";
}

std::string_view CompressionCodecName(CompressionCodec codec) {
  static constexpr std::string_view kNames[] = {"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO",
                                                "BROTLI",       "LZ4",    "ZSTD", "LZ4_RAW"};
  const auto i = static_cast<int32_t>(codec);
  return i >= 0 && i < static_cast<int32_t>(std::size(kNames)) ? kNames[i] : "UNKNOWN";
}

std::string_view PageTypeName(PageType type) {
  switch (type) {
    case PageType::kDataPage: return "DATA_PAGE";
    case PageType::kIndexPage: return "INDEX_PAGE";
    case PageType::kDictionaryPage: return "DICTIONARY_PAGE";
    case PageType::kDataPageV2: return "DATA_PAGE_V2";
  }
  return "UNKNOWN";
}

std::string_view BoundaryOrderName(BoundaryOrder order) {
  switch (order) {
    case BoundaryOrder::kUnordered: return "UNORDERED";
    case BoundaryOrder::kAscending: return "ASCENDING";
    case BoundaryOrder::kDescending: return "DESCENDING";
  }
  return "UNKNOWN";
}

std::string_view EdgeInterpolationAlgorithmName(EdgeInterpolationAlgorithm algorithm) {
  switch (algorithm) {
    case EdgeInterpolationAlgorithm::kSpherical: return "SPHERICAL";
    case EdgeInterpolationAlgorithm::kVincenty: return "VINCENTY";
    case EdgeInterpolationAlgorithm::kThomas: return "THOMAS";
    case EdgeInterpolationAlgorithm::kAndoyer: return "ANDOYER";
    case EdgeInterpolationAlgorithm::kKarney: return "KARNEY";
  }
  return "UNKNOWN";
}

std::string_view TimeUnitName(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kMillis: return "MILLIS";
    case TimeUnit::kMicros: return "MICROS";
    case TimeUnit::kNanos: return "NANOS";
    case TimeUnit::kUnknown: break;
  }
  return "UNKNOWN";
}

std::string LogicalTypeToString(const LogicalType& type) {
  using Kind = LogicalType::Kind;
  switch (type.kind) {
    case Kind::kString: return "STRING";
    case Kind::kMap: return "MAP";
    case Kind::kList: return "LIST";
    case Kind::kEnum: return "ENUM";
    case Kind::kDecimal: return fmt::format("DECIMAL({},{})", type.precision, type.scale);
    case Kind::kDate: return "DATE";
    case Kind::kTime:
    case Kind::kTimestamp:
      return fmt::format("{}({},{})", type.kind == Kind::kTime ? "TIME" : "TIMESTAMP", TimeUnitName(type.unit),
                         type.is_adjusted_to_utc ? "UTC" : "local");
    case Kind::kInteger:
      return fmt::format("INT({},{})", static_cast<int>(type.bit_width), type.is_signed ? "signed" : "unsigned");
    case Kind::kNull: return "NULL";
    case Kind::kJson: return "JSON";
    case Kind::kBson: return "BSON";
    case Kind::kUuid: return "UUID";
    case Kind::kFloat16: return "FLOAT16";
    case Kind::kVariant:
      return type.specification_version ? fmt::format("VARIANT({})", static_cast<int>(*type.specification_version))
                                        : "VARIANT";
    // An omitted crs is OGC:CRS84 (Geospatial.md): shown, as GEOGRAPHY shows its defaults.
    case Kind::kGeometry: return fmt::format("GEOMETRY({})", type.crs.value_or("OGC:CRS84"));
    case Kind::kGeography:
      return fmt::format("GEOGRAPHY({},{})", type.crs.value_or("OGC:CRS84"),
                         EdgeInterpolationAlgorithmName(type.algorithm.value_or(EdgeInterpolationAlgorithm::kSpherical)));
    case Kind::kVector: return "VECTOR";
    case Kind::kUnrecognized: break;
  }
  return fmt::format("UNKNOWN(field {})", type.unrecognized_field_id);
}

// ---- LogicalType --------------------------------------------------------------------------------

namespace {

Status DecodeTimeUnit(CompactReader& reader, const FieldHeader& field, TimeUnit* out) {
  reader.SetField("unit");
  if (field.type != WireType::kStruct) return TypeMismatch(reader, field.type, "struct");
  *out = TimeUnit::kUnknown;
  return DecodeStruct(reader, "TimeUnit", {}, [&](const FieldHeader& f) -> Status {
    if (f.id >= 1 && f.id <= 3 && f.type == WireType::kStruct) *out = static_cast<TimeUnit>(f.id);
    return reader.Skip(f.type);
  });
}

// TimeType and TimestampType share their layout.
Status DecodeTimeOrTimestamp(CompactReader& reader, const char* name, LogicalType* out) {
  return DecodeStruct(reader, name, {{1, "isAdjustedToUTC"}, {2, "unit"}}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "isAdjustedToUTC", &out->is_adjusted_to_utc);
      case 2: return DecodeTimeUnit(reader, f, &out->unit);
      default: return reader.Skip(f.type);
    }
  });
}

Status DecodeLogicalMember(CompactReader& reader, const FieldHeader& field, LogicalType* out) {
  using Kind = LogicalType::Kind;
  static constexpr const char* kMemberNames[] = {
      nullptr, "STRING", "MAP", "LIST", "ENUM", "DECIMAL", "DATE", "TIME", "TIMESTAMP", nullptr, "INTEGER",
      "UNKNOWN", "JSON", "BSON", "UUID", "FLOAT16", "VARIANT", "GEOMETRY", "GEOGRAPHY", "VECTOR"};
  const bool known = field.id > 0 && field.id < static_cast<int>(std::size(kMemberNames)) &&
                     kMemberNames[field.id] != nullptr;
  if (!known) {
    // A member newer than this code: keep its id and move on.
    out->kind = Kind::kUnrecognized;
    out->unrecognized_field_id = field.id;
    return reader.Skip(field.type);
  }
  reader.SetField(kMemberNames[field.id]);
  if (field.type != WireType::kStruct) return TypeMismatch(reader, field.type, "struct");
  out->kind = static_cast<Kind>(field.id);
  switch (out->kind) {
    case Kind::kDecimal:
      return DecodeStruct(reader, "DecimalType", {{1, "scale"}, {2, "precision"}}, [&](const FieldHeader& f) -> Status {
        switch (f.id) {
          case 1: return ReadField(reader, f, "scale", &out->scale);
          case 2: return ReadField(reader, f, "precision", &out->precision);
          default: return reader.Skip(f.type);
        }
      });
    case Kind::kTime: return DecodeTimeOrTimestamp(reader, "TimeType", out);
    case Kind::kTimestamp: return DecodeTimeOrTimestamp(reader, "TimestampType", out);
    case Kind::kInteger:
      return DecodeStruct(reader, "IntType", {{1, "bitWidth"}, {2, "isSigned"}}, [&](const FieldHeader& f) -> Status {
        switch (f.id) {
          case 1: return ReadField(reader, f, "bitWidth", &out->bit_width);
          case 2: return ReadField(reader, f, "isSigned", &out->is_signed);
          default: return reader.Skip(f.type);
        }
      });
    case Kind::kVariant:
      return DecodeStruct(reader, "VariantType", {}, [&](const FieldHeader& f) -> Status {
        if (f.id == 1) return ReadField(reader, f, "specification_version", &out->specification_version);
        return reader.Skip(f.type);
      });
    case Kind::kGeometry:
    case Kind::kGeography:
      return DecodeStruct(reader, out->kind == Kind::kGeometry ? "GeometryType" : "GeographyType", {},
                          [&](const FieldHeader& f) -> Status {
                            if (f.id == 1) return ReadField(reader, f, "crs", &out->crs);
                            if (f.id == 2 && out->kind == Kind::kGeography) {
                              return ReadField(reader, f, "algorithm", &out->algorithm);
                            }
                            return reader.Skip(f.type);
                          });
    default:
      // Empty marker structs (StringType, DateType, ...): skip whatever a later spec adds to them.
      return reader.Skip(WireType::kStruct);
  }
}

void EncodeTimeUnit(CompactWriter& writer, TimeUnit unit) {
  writer.WriteFieldBegin(WireType::kStruct, 2);
  writer.WriteStructBegin();
  if (unit != TimeUnit::kUnknown) writer.WriteEmptyStructField(static_cast<int16_t>(unit));
  writer.WriteStructEnd();
}

}  // namespace

Status Decode(CompactReader& reader, LogicalType* out) {
  *out = LogicalType{};
  return DecodeStruct(reader, "LogicalType", {}, [&](const FieldHeader& f) { return DecodeLogicalMember(reader, f, out); });
}

void Encode(CompactWriter& writer, const LogicalType& value) {
  using Kind = LogicalType::Kind;
  writer.WriteStructBegin();
  const auto id = static_cast<int16_t>(value.kind);
  switch (value.kind) {
    case Kind::kUnrecognized:
      // Nothing known to write: an unrecognized member round-trips as an empty struct.
      if (value.unrecognized_field_id > 0) writer.WriteEmptyStructField(value.unrecognized_field_id);
      break;
    case Kind::kDecimal:
      writer.WriteFieldBegin(WireType::kStruct, id);
      writer.WriteStructBegin();
      writer.WriteI32Field(1, value.scale);
      writer.WriteI32Field(2, value.precision);
      writer.WriteStructEnd();
      break;
    case Kind::kTime:
    case Kind::kTimestamp:
      writer.WriteFieldBegin(WireType::kStruct, id);
      writer.WriteStructBegin();
      writer.WriteBoolField(1, value.is_adjusted_to_utc);
      EncodeTimeUnit(writer, value.unit);
      writer.WriteStructEnd();
      break;
    case Kind::kInteger:
      writer.WriteFieldBegin(WireType::kStruct, id);
      writer.WriteStructBegin();
      writer.WriteByteField(1, value.bit_width);
      writer.WriteBoolField(2, value.is_signed);
      writer.WriteStructEnd();
      break;
    case Kind::kVariant:
      writer.WriteFieldBegin(WireType::kStruct, id);
      writer.WriteStructBegin();
      if (value.specification_version) writer.WriteByteField(1, *value.specification_version);
      writer.WriteStructEnd();
      break;
    case Kind::kGeometry:
    case Kind::kGeography:
      writer.WriteFieldBegin(WireType::kStruct, id);
      writer.WriteStructBegin();
      WriteField(writer, 1, value.crs);
      if (value.kind == Kind::kGeography) WriteField(writer, 2, value.algorithm);
      writer.WriteStructEnd();
      break;
    default:
      writer.WriteEmptyStructField(id);
      break;
  }
  writer.WriteStructEnd();
}

// ---- SchemaElement ------------------------------------------------------------------------------

Status Decode(CompactReader& reader, SchemaElement* out) {
  return DecodeStruct(reader, "SchemaElement", {{4, "name"}}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "type", &out->type);
      case 2: return ReadField(reader, f, "type_length", &out->type_length);
      case 3: return ReadField(reader, f, "repetition_type", &out->repetition_type);
      case 4: return ReadField(reader, f, "name", &out->name);
      case 5: return ReadField(reader, f, "num_children", &out->num_children);
      case 6: return ReadField(reader, f, "converted_type", &out->converted_type);
      case 7: return ReadField(reader, f, "scale", &out->scale);
      case 8: return ReadField(reader, f, "precision", &out->precision);
      case 9: return ReadField(reader, f, "field_id", &out->field_id);
      case 10: return ReadField(reader, f, "logicalType", &out->logical_type);
      case 11: return ReadField(reader, f, "vector_length", &out->vector_length);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const SchemaElement& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.type);
  WriteField(writer, 2, value.type_length);
  WriteField(writer, 3, value.repetition_type);
  WriteField(writer, 4, value.name);
  WriteField(writer, 5, value.num_children);
  WriteField(writer, 6, value.converted_type);
  WriteField(writer, 7, value.scale);
  WriteField(writer, 8, value.precision);
  WriteField(writer, 9, value.field_id);
  WriteField(writer, 10, value.logical_type);
  WriteField(writer, 11, value.vector_length);
  writer.WriteStructEnd();
}

// ---- KeyValue, ColumnOrder ------------------------------------------------------------------------

Status Decode(CompactReader& reader, KeyValue* out) {
  return DecodeStruct(reader, "KeyValue", {{1, "key"}}, [&](const FieldHeader& f) -> Status {
    switch (f.id) {
      case 1: return ReadField(reader, f, "key", &out->key);
      case 2: return ReadField(reader, f, "value", &out->value);
      default: return reader.Skip(f.type);
    }
  });
}

void Encode(CompactWriter& writer, const KeyValue& value) {
  writer.WriteStructBegin();
  WriteField(writer, 1, value.key);
  WriteField(writer, 2, value.value);
  writer.WriteStructEnd();
}

Status Decode(CompactReader& reader, ColumnOrder* out) {
  out->kind = ColumnOrder::Kind::kUnknown;
  return DecodeStruct(reader, "ColumnOrder", {}, [&](const FieldHeader& f) -> Status {
    if (f.id >= 1 && f.id <= 3) {
      out->kind = static_cast<ColumnOrder::Kind>(f.id);
      static constexpr const char* kNames[] = {nullptr, "TYPE_ORDER", "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER"};
      return ReadEmptyStruct(reader, f, kNames[f.id]);
    }
    out->kind = ColumnOrder::Kind::kUnknown;
    out->unknown_field_id = f.id;
    return reader.Skip(f.type);
  });
}

void Encode(CompactWriter& writer, const ColumnOrder& value) {
  writer.WriteStructBegin();
  const int16_t id = value.kind == ColumnOrder::Kind::kUnknown ? value.unknown_field_id
                                                                : static_cast<int16_t>(value.kind);
  if (id > 0) writer.WriteEmptyStructField(id);
  writer.WriteStructEnd();
}

}  // namespace strata::parquet
