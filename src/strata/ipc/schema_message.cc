// Writes and reads the Arrow IPC schema message with hand-written FlatBuffers table builders
// and readers (no generated code): each table field is addressed by its vtable slot, named
// below after the field of format/Schema.fbs or format/Message.fbs it stands for.
#include "strata/ipc/schema_message.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include <flatbuffers/flatbuffers.h>

#include "strata/ipc/flatbuffer_format.h"
#include "strata/ipc/flatbuffer_reader.h"
#include "strata/ipc/schema_table.h"

namespace strata::ipc {
namespace format {
namespace {

using namespace format;  // NOLINT: the format's names, spelled as in the .fbs files

// ---------------------------------------------------------------------------------------------
// Writing. FlatBuffers are built back to front: every child (string, vector, table) is
// finished before the table that refers to it is started.

struct TypeTable {
  TypeTag tag;
  fb::Offset<void> table;
};

class SchemaMessageBuilder {
 public:
  SchemaMessageBuilder(fb::FlatBufferBuilder& fbb, DictionaryIds* ids) : fbb_(fbb), ids_(ids) {}

  Result<fb::Offset<void>> AddSchema(const Schema& schema, bool big_endian) {
    std::vector<fb::Offset<void>> fields;
    fields.reserve(schema.fields().size());
    for (const FieldPtr& field : schema.fields()) {
      STRATA_ASSIGN_OR_RETURN(fb::Offset<void> offset, AddField(*field, field->name()));
      fields.push_back(offset);
    }
    const auto fields_vector = fbb_.CreateVector(fields);
    const fb::Offset<void> metadata = AddKeyValues(fbb_, schema.metadata());

    const fb::uoffset_t schema_start = fbb_.StartTable();
    fbb_.AddElement<int16_t>(kSchemaEndianness, big_endian ? kEndiannessBig : kEndiannessLittle);
    fbb_.AddOffset(kSchemaFields, fields_vector);
    fbb_.AddOffset(kSchemaCustomMetadata, metadata);
    return fb::Offset<void>(fbb_.EndTable(schema_start));
  }

 private:
  // `path` names the field in errors ("a.item.b").
  Result<fb::Offset<void>> AddField(const Field& field, const std::string& path, int depth = 1) {
    if (field.type() == nullptr) return Status::Invalid("Arrow schema: field '{}' has no type", path);
    if (depth > kMaxSchemaNestingDepth) {
      return Status::LimitExceeded("Arrow schema: field '{}' is nested deeper than {} levels, which readers refuse",
                                   path, kMaxSchemaNestingDepth);
    }
    const DataType* type = field.type().get();
    fb::Offset<void> dictionary;
    if (type->id() == TypeId::kDictionary) {
      // Pre-order: this field's id comes before the ids of dictionaries nested in its values.
      const int64_t id = next_dictionary_id_++;
      if (ids_ != nullptr) (*ids_)[&field] = id;
      if (type->value_type()->id() == TypeId::kDictionary) {
        return Status::NotImplemented("Arrow schema: field '{}' is a dictionary of dictionaries", path);
      }
      const fb::Offset<void> index_type = AddInt(*type->index_type());
      const fb::uoffset_t start = fbb_.StartTable();
      fbb_.AddElement<int64_t>(kDictionaryId, id);
      fbb_.AddOffset(kDictionaryIndexType, index_type);
      fbb_.AddElement<uint8_t>(kDictionaryIsOrdered, type->ordered() ? 1 : 0);
      fbb_.AddElement<int16_t>(kDictionaryKind, kDictionaryKindDenseArray);
      dictionary = fb::Offset<void>(fbb_.EndTable(start));
      // A dictionary field is described by its value type; the indices live in the encoding.
      type = type->value_type().get();
    }

    std::vector<fb::Offset<void>> children;
    children.reserve(type->fields().size());
    for (const FieldPtr& child : type->fields()) {
      STRATA_ASSIGN_OR_RETURN(fb::Offset<void> offset, AddField(*child, path + "." + child->name(), depth + 1));
      children.push_back(offset);
    }
    // Always written, even when empty: Arrow C++ refuses a field without a children vector.
    const auto children_vector = fbb_.CreateVector(children);
    STRATA_ASSIGN_OR_RETURN(TypeTable type_table, AddType(*type, path));
    const auto name = fbb_.CreateString(field.name());
    const fb::Offset<void> metadata = AddKeyValues(fbb_, field.metadata());

    const fb::uoffset_t start = fbb_.StartTable();
    fbb_.AddOffset(kFieldName, name);
    fbb_.AddElement<uint8_t>(kFieldNullable, field.nullable() ? 1 : 0);
    fbb_.AddElement<uint8_t>(kFieldTypeType, static_cast<uint8_t>(type_table.tag));
    fbb_.AddOffset(kFieldType, type_table.table);
    fbb_.AddOffset(kFieldDictionary, dictionary);
    fbb_.AddOffset(kFieldChildren, children_vector);
    fbb_.AddOffset(kFieldCustomMetadata, metadata);
    return fb::Offset<void>(fbb_.EndTable(start));
  }

  Result<TypeTable> AddType(const DataType& type, const std::string& path) {
    switch (type.id()) {
      case TypeId::kNull: return TypeTable{TypeTag::kNull, EmptyTable()};
      case TypeId::kBoolean: return TypeTable{TypeTag::kBool, EmptyTable()};
      case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
      case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
        return TypeTable{TypeTag::kInt, AddInt(type)};
      case TypeId::kFloat16: return FloatingPoint(kPrecisionHalf);
      case TypeId::kFloat32: return FloatingPoint(kPrecisionSingle);
      case TypeId::kFloat64: return FloatingPoint(kPrecisionDouble);
      case TypeId::kDecimal32: case TypeId::kDecimal64: case TypeId::kDecimal128: case TypeId::kDecimal256: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int32_t>(kDecimalPrecision, type.precision());
        fbb_.AddElement<int32_t>(kDecimalScale, type.scale());
        // Always written: the schema's default (128) is not relied upon.
        fbb_.ForceDefaults(true);
        fbb_.AddElement<int32_t>(kDecimalBitWidth, type.bit_width());
        fbb_.ForceDefaults(false);
        return TypeTable{TypeTag::kDecimal, End(start)};
      }
      case TypeId::kDate32: case TypeId::kDate64: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int16_t>(kDateUnit, type.id() == TypeId::kDate32 ? kDateUnitDay : kDateUnitMillisecond);
        return TypeTable{TypeTag::kDate, End(start)};
      }
      case TypeId::kTime32: case TypeId::kTime64: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int16_t>(kTimeUnit, TimeUnitToFlatbuf(type.unit()));
        fbb_.AddElement<int32_t>(kTimeBitWidth, type.id() == TypeId::kTime32 ? 32 : 64);
        return TypeTable{TypeTag::kTime, End(start)};
      }
      case TypeId::kTimestamp: {
        fb::Offset<fb::String> timezone;
        if (!type.timezone().empty()) timezone = fbb_.CreateString(type.timezone());
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int16_t>(kTimestampUnit, TimeUnitToFlatbuf(type.unit()));
        fbb_.AddOffset(kTimestampTimezone, timezone);
        return TypeTable{TypeTag::kTimestamp, End(start)};
      }
      case TypeId::kDuration: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int16_t>(kDurationUnit, TimeUnitToFlatbuf(type.unit()));
        return TypeTable{TypeTag::kDuration, End(start)};
      }
      case TypeId::kIntervalYearMonth: case TypeId::kIntervalDayTime: case TypeId::kIntervalMonthDayNano: {
        const int16_t unit = type.id() == TypeId::kIntervalYearMonth ? kIntervalYearMonth
                             : type.id() == TypeId::kIntervalDayTime ? kIntervalDayTime
                                                                     : kIntervalMonthDayNano;
        const fb::uoffset_t start = fbb_.StartTable();
        // Written even when it is the default (YEAR_MONTH), as Arrow C++ does.
        fbb_.ForceDefaults(true);
        fbb_.AddElement<int16_t>(kIntervalUnit, unit);
        fbb_.ForceDefaults(false);
        return TypeTable{TypeTag::kInterval, End(start)};
      }
      case TypeId::kBinary: return TypeTable{TypeTag::kBinary, EmptyTable()};
      case TypeId::kString: return TypeTable{TypeTag::kUtf8, EmptyTable()};
      case TypeId::kLargeBinary: return TypeTable{TypeTag::kLargeBinary, EmptyTable()};
      case TypeId::kLargeString: return TypeTable{TypeTag::kLargeUtf8, EmptyTable()};
      case TypeId::kBinaryView: return TypeTable{TypeTag::kBinaryView, EmptyTable()};
      case TypeId::kStringView: return TypeTable{TypeTag::kUtf8View, EmptyTable()};
      case TypeId::kFixedSizeBinary: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int32_t>(kFixedSizeBinaryByteWidth, type.byte_width());
        return TypeTable{TypeTag::kFixedSizeBinary, End(start)};
      }
      case TypeId::kList: return TypeTable{TypeTag::kList, EmptyTable()};
      case TypeId::kLargeList: return TypeTable{TypeTag::kLargeList, EmptyTable()};
      case TypeId::kFixedSizeList: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int32_t>(kFixedSizeListListSize, type.list_size());
        return TypeTable{TypeTag::kFixedSizeList, End(start)};
      }
      case TypeId::kStruct: return TypeTable{TypeTag::kStruct, EmptyTable()};
      case TypeId::kMap: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<uint8_t>(kMapKeysSorted, type.keys_sorted() ? 1 : 0);
        return TypeTable{TypeTag::kMap, End(start)};
      }
      case TypeId::kSparseUnion: case TypeId::kDenseUnion: {
        std::vector<int32_t> codes(type.type_codes().begin(), type.type_codes().end());
        const auto type_ids = fbb_.CreateVector(codes);
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.ForceDefaults(true);
        fbb_.AddElement<int16_t>(kUnionMode, type.id() == TypeId::kDenseUnion ? kUnionModeDense : kUnionModeSparse);
        fbb_.ForceDefaults(false);
        fbb_.AddOffset(kUnionTypeIds, type_ids);
        return TypeTable{TypeTag::kUnion, End(start)};
      }
      case TypeId::kRunEndEncoded: return TypeTable{TypeTag::kRunEndEncoded, EmptyTable()};
      case TypeId::kListView: return TypeTable{TypeTag::kListView, EmptyTable()};
      case TypeId::kLargeListView: return TypeTable{TypeTag::kLargeListView, EmptyTable()};
      case TypeId::kDictionary: break;  // handled by AddField; reached only for nested ones
    }
    return Status::NotImplemented("Arrow schema: field '{}' has type {}, which has no Arrow IPC form here", path,
                                  type.ToString());
  }

  fb::Offset<void> AddInt(const DataType& type) {
    const fb::uoffset_t start = fbb_.StartTable();
    fbb_.AddElement<int32_t>(kIntBitWidth, type.bit_width());
    fbb_.AddElement<uint8_t>(kIntIsSigned, is_signed_integer(type.id()) ? 1 : 0);
    return End(start);
  }

  TypeTable FloatingPoint(int16_t precision) {
    const fb::uoffset_t start = fbb_.StartTable();
    fbb_.AddElement<int16_t>(kFloatingPointPrecision, precision);
    return TypeTable{TypeTag::kFloatingPoint, End(start)};
  }

  fb::Offset<void> EmptyTable() { return End(fbb_.StartTable()); }
  fb::Offset<void> End(fb::uoffset_t start) { return fb::Offset<void>(fbb_.EndTable(start)); }

  fb::FlatBufferBuilder& fbb_;
  DictionaryIds* ids_;
  int64_t next_dictionary_id_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Reading. The flatbuffer is copied to 8-aligned memory (FlatBuffers reads scalars in place),
// and every table, field, string and vector is verified just before it is read.

class SchemaMessageParser {
 public:
  SchemaMessageParser(FlatbufferReader& reader, DictionaryIds* ids) : reader_(reader), ids_(ids) {}

  Result<std::shared_ptr<Schema>> Parse() {
    STRATA_ASSIGN_OR_RETURN(const fb::Table* message, reader_.Root());
    STRATA_ASSIGN_OR_RETURN(int16_t version, reader_.Scalar<int16_t>(message, kMessageVersion, 0, "Message.version"));
    if (version != kMetadataV4 && version != kMetadataV5) {
      return Status::NotImplemented("Arrow schema message: metadata version V{} (only V4 and V5 are read)",
                                    static_cast<int>(version) + 1);
    }
    STRATA_ASSIGN_OR_RETURN(uint8_t header_type,
                            reader_.Scalar<uint8_t>(message, kMessageHeaderType, 0, "Message.header_type"));
    if (header_type != kMessageHeaderSchema) {
      return Status::Corrupt("Arrow schema message: the message header is of type {}, not Schema ({})", header_type,
                             kMessageHeaderSchema);
    }
    STRATA_RETURN_NOT_OK(reader_.Scalar<int64_t>(message, kMessageBodyLength, 0, "Message.bodyLength").status());
    STRATA_ASSIGN_OR_RETURN(const fb::Table* schema, reader_.Table(message, kMessageHeader, "Message.header"));
    if (schema == nullptr) return Status::Corrupt("Arrow schema message: the Schema header is missing");
    return ParseSchema(schema);
  }

  Result<std::shared_ptr<Schema>> ParseSchema(const fb::Table* schema, bool* big_endian = nullptr) {
    STRATA_ASSIGN_OR_RETURN(int16_t endianness,
                            reader_.Scalar<int16_t>(schema, kSchemaEndianness, kEndiannessLittle, "Schema.endianness"));
    if (endianness != kEndiannessLittle && endianness != kEndiannessBig) {
      return Status::Corrupt("Arrow schema message: endianness {} (table at byte {})", endianness,
                             reader_.OffsetOf(schema));
    }
    if (endianness == kEndiannessBig && big_endian == nullptr) {
      return Status::NotImplemented("Arrow schema message: a big-endian schema, outside of an IPC stream or file");
    }
    if (big_endian != nullptr) *big_endian = endianness == kEndiannessBig;
    STRATA_ASSIGN_OR_RETURN(auto field_tables, reader_.Tables(schema, kSchemaFields, "Schema.fields"));
    std::vector<FieldPtr> fields;
    fields.reserve(field_tables.size());
    for (const fb::Table* field_table : field_tables) {
      STRATA_ASSIGN_OR_RETURN(FieldPtr field, ParseField(field_table, "", 1));
      fields.push_back(std::move(field));
    }
    STRATA_ASSIGN_OR_RETURN(KeyValueMetadata metadata,
                            ParseKeyValues(reader_, schema, kSchemaCustomMetadata, "Schema.custom_metadata"));
    return std::make_shared<Schema>(std::move(fields), std::move(metadata));
  }

 private:
  // `parent_path` is the dotted path of the enclosing field ("" at the top), for errors.
  Result<FieldPtr> ParseField(const fb::Table* table, const std::string& parent_path, int depth) {
    STRATA_ASSIGN_OR_RETURN(std::string_view name, reader_.String(table, kFieldName, "Field.name"));
    const std::string path = parent_path.empty() ? std::string(name) : parent_path + "." + std::string(name);
    if (depth > kMaxSchemaNestingDepth) {
      return Status::LimitExceeded("Arrow schema message: field '{}' (table at byte {}) is nested deeper than {} levels",
                                   path, reader_.OffsetOf(table), kMaxSchemaNestingDepth);
    }
    STRATA_ASSIGN_OR_RETURN(uint8_t nullable, reader_.Scalar<uint8_t>(table, kFieldNullable, 0, "Field.nullable"));
    STRATA_ASSIGN_OR_RETURN(uint8_t tag, reader_.Scalar<uint8_t>(table, kFieldTypeType, 0, "Field.type_type"));
    STRATA_ASSIGN_OR_RETURN(const fb::Table* type_table, reader_.Table(table, kFieldType, "Field.type"));
    STRATA_ASSIGN_OR_RETURN(const fb::Table* dictionary, reader_.Table(table, kFieldDictionary, "Field.dictionary"));
    STRATA_ASSIGN_OR_RETURN(auto child_tables, reader_.Tables(table, kFieldChildren, "Field.children"));
    STRATA_ASSIGN_OR_RETURN(KeyValueMetadata metadata,
                            ParseKeyValues(reader_, table, kFieldCustomMetadata, "Field.custom_metadata"));

    std::vector<FieldPtr> children;
    children.reserve(child_tables.size());
    for (const fb::Table* child_table : child_tables) {
      STRATA_ASSIGN_OR_RETURN(FieldPtr child, ParseField(child_table, path, depth + 1));
      children.push_back(std::move(child));
    }
    STRATA_ASSIGN_OR_RETURN(TypePtr type, ParseType(tag, type_table, std::move(children), path, table));
    int64_t dictionary_id = 0;
    if (dictionary != nullptr) {
      STRATA_ASSIGN_OR_RETURN(dictionary_id,
                              reader_.Scalar<int64_t>(dictionary, kDictionaryId, 0, "DictionaryEncoding.id"));
      STRATA_ASSIGN_OR_RETURN(type, ParseDictionary(dictionary, std::move(type), path));
    }
    auto field = std::make_shared<const Field>(std::string(name), std::move(type), nullable != 0, std::move(metadata));
    if (dictionary != nullptr && ids_ != nullptr) (*ids_)[field.get()] = dictionary_id;
    return field;
  }

  Result<TypePtr> ParseDictionary(const fb::Table* encoding, TypePtr value_type, const std::string& path) {
    STRATA_RETURN_NOT_OK(reader_.Scalar<int64_t>(encoding, kDictionaryId, 0, "DictionaryEncoding.id").status());
    STRATA_ASSIGN_OR_RETURN(uint8_t ordered,
                            reader_.Scalar<uint8_t>(encoding, kDictionaryIsOrdered, 0, "DictionaryEncoding.isOrdered"));
    STRATA_ASSIGN_OR_RETURN(int16_t kind, reader_.Scalar<int16_t>(encoding, kDictionaryKind, kDictionaryKindDenseArray,
                                                                  "DictionaryEncoding.dictionaryKind"));
    if (kind != kDictionaryKindDenseArray) {
      return Status::NotImplemented("Arrow schema message: field '{}' has dictionary kind {}", path, kind);
    }
    STRATA_ASSIGN_OR_RETURN(const fb::Table* index_table,
                            reader_.Table(encoding, kDictionaryIndexType, "DictionaryEncoding.indexType"));
    // Schema.fbs: without an index type the indices are signed int32.
    TypePtr index_type = int32();
    if (index_table != nullptr) {
      STRATA_ASSIGN_OR_RETURN(index_type, ParseInt(index_table, path));
    }
    auto dictionary = MakeDictionary(std::move(index_type), std::move(value_type), ordered != 0);
    if (!dictionary.ok()) return CorruptField(path, dictionary.status());
    return dictionary;
  }

  Result<TypePtr> ParseInt(const fb::Table* table, const std::string& path) {
    STRATA_ASSIGN_OR_RETURN(int32_t bit_width, reader_.Scalar<int32_t>(table, kIntBitWidth, 0, "Int.bitWidth"));
    STRATA_ASSIGN_OR_RETURN(uint8_t is_signed, reader_.Scalar<uint8_t>(table, kIntIsSigned, 0, "Int.is_signed"));
    switch (bit_width) {
      case 8: return is_signed ? int8() : uint8();
      case 16: return is_signed ? int16() : uint16();
      case 32: return is_signed ? int32() : uint32();
      case 64: return is_signed ? int64() : uint64();
      default:
        return Status::Corrupt("Arrow schema message: field '{}' has an integer of {} bits (table at byte {})", path,
                               bit_width, reader_.OffsetOf(table));
    }
  }

  Result<TimeUnit> ParseTimeUnit(const fb::Table* table, fb::voffset_t slot, int16_t default_unit,
                                 std::string_view what, const std::string& path) {
    STRATA_ASSIGN_OR_RETURN(int16_t unit, reader_.Scalar<int16_t>(table, slot, default_unit, what));
    const std::optional<TimeUnit> time_unit = TimeUnitFromFlatbuf(unit);
    if (!time_unit) {
      return Status::Corrupt("Arrow schema message: field '{}' has time unit {} (table at byte {})", path, unit,
                             reader_.OffsetOf(table));
    }
    return *time_unit;
  }

  Result<TypePtr> ParseUnion(const fb::Table* table, std::vector<FieldPtr> children, const std::string& path) {
    STRATA_ASSIGN_OR_RETURN(int16_t mode, reader_.Scalar<int16_t>(table, kUnionMode, kUnionModeSparse, "Union.mode"));
    if (mode != kUnionModeSparse && mode != kUnionModeDense) {
      return Status::Corrupt("Arrow schema message: field '{}' has union mode {} (table at byte {})", path, mode,
                             reader_.OffsetOf(table));
    }
    STRATA_ASSIGN_OR_RETURN(auto ids, reader_.Structs<int32_t>(table, kUnionTypeIds, "Union.typeIds"));
    std::vector<int8_t> codes;
    if (!ids.empty() || children.empty()) {
      if (ids.size() != children.size()) {
        return Status::Corrupt("Arrow schema message: field '{}' is a union of {} members with {} type ids", path,
                               children.size(), ids.size());
      }
      for (const int32_t id : ids) {
        if (id < 0 || id > kMaxUnionTypeCode) {
          return Status::Corrupt("Arrow schema message: field '{}' has union type id {} (ids are 0 to {})", path, id,
                                 kMaxUnionTypeCode);
        }
        codes.push_back(static_cast<int8_t>(id));
      }
    }  // no typeIds: 0, 1, ... in member order
    auto type = mode == kUnionModeDense ? MakeDenseUnion(std::move(children), std::move(codes))
                                        : MakeSparseUnion(std::move(children), std::move(codes));
    if (!type.ok()) return CorruptField(path, type.status());
    return type;
  }

  Result<TypePtr> ParseInterval(const fb::Table* table, const std::string& path) {
    STRATA_ASSIGN_OR_RETURN(int16_t unit,
                            reader_.Scalar<int16_t>(table, kIntervalUnit, kIntervalYearMonth, "Interval.unit"));
    switch (unit) {
      case kIntervalYearMonth: return year_month_interval();
      case kIntervalDayTime: return day_time_interval();
      case kIntervalMonthDayNano: return month_day_nano_interval();
      default:
        return Status::Corrupt("Arrow schema message: field '{}' has interval unit {} (table at byte {})", path, unit,
                               reader_.OffsetOf(table));
    }
  }

  Result<TypePtr> ParseType(uint8_t tag_value, const fb::Table* table, std::vector<FieldPtr> children,
                            const std::string& path, const fb::Table* field_table) {
    if (tag_value > kLastKnownTypeTag) {
      return Status::NotImplemented("Arrow schema message: field '{}' has type #{}, unknown to strata", path,
                                    tag_value);
    }
    const auto tag = static_cast<TypeTag>(tag_value);
    const std::string_view tag_name = kTypeTagNames[tag_value];
    switch (tag) {
      case TypeTag::kNone:
        return Status::Corrupt("Arrow schema message: field '{}' (table at byte {}) has no type", path,
                               reader_.OffsetOf(field_table));
      default: break;
    }
    const bool one_child = tag == TypeTag::kList || tag == TypeTag::kLargeList || tag == TypeTag::kFixedSizeList ||
                           tag == TypeTag::kMap || tag == TypeTag::kListView || tag == TypeTag::kLargeListView;
    const bool nested = one_child || tag == TypeTag::kStruct || tag == TypeTag::kUnion ||
                        tag == TypeTag::kRunEndEncoded;
    if ((!nested && !children.empty()) || (one_child && children.size() != 1) ||
        (tag == TypeTag::kRunEndEncoded && children.size() != 2)) {
      return Status::Corrupt("Arrow schema message: field '{}' of type {} has {} children", path, tag_name,
                             children.size());
    }
    // Types without parameters may omit their (empty) table; the others need it.
    const bool has_parameters = tag == TypeTag::kInt || tag == TypeTag::kFloatingPoint || tag == TypeTag::kDecimal ||
                                tag == TypeTag::kDate || tag == TypeTag::kTime || tag == TypeTag::kTimestamp ||
                                tag == TypeTag::kDuration || tag == TypeTag::kInterval || tag == TypeTag::kFixedSizeBinary ||
                                tag == TypeTag::kFixedSizeList || tag == TypeTag::kMap || tag == TypeTag::kUnion;
    if (has_parameters && table == nullptr) {
      return Status::Corrupt("Arrow schema message: field '{}' of type {} has no type table (field at byte {})", path,
                             tag_name, reader_.OffsetOf(field_table));
    }

    switch (tag) {
      case TypeTag::kNull: return null();
      case TypeTag::kBool: return boolean();
      case TypeTag::kInt: return ParseInt(table, path);
      case TypeTag::kFloatingPoint: {
        STRATA_ASSIGN_OR_RETURN(int16_t precision,
                                reader_.Scalar<int16_t>(table, kFloatingPointPrecision, 0, "FloatingPoint.precision"));
        if (precision == kPrecisionHalf) return float16();
        if (precision == kPrecisionSingle) return float32();
        if (precision == kPrecisionDouble) return float64();
        return Status::Corrupt("Arrow schema message: field '{}' has floating-point precision {}", path, precision);
      }
      case TypeTag::kDecimal: {
        STRATA_ASSIGN_OR_RETURN(int32_t precision, reader_.Scalar<int32_t>(table, kDecimalPrecision, 0, "Decimal.precision"));
        STRATA_ASSIGN_OR_RETURN(int32_t scale, reader_.Scalar<int32_t>(table, kDecimalScale, 0, "Decimal.scale"));
        STRATA_ASSIGN_OR_RETURN(int32_t bit_width, reader_.Scalar<int32_t>(table, kDecimalBitWidth, 128, "Decimal.bitWidth"));
        if (bit_width != 32 && bit_width != 64 && bit_width != 128 && bit_width != 256) {
          return Status::Corrupt("Arrow schema message: field '{}' has a decimal of {} bits", path, bit_width);
        }
        auto decimal = MakeDecimalOfWidth(bit_width, precision, scale);
        if (!decimal.ok()) return CorruptField(path, decimal.status());
        return decimal;
      }
      case TypeTag::kDate: {
        STRATA_ASSIGN_OR_RETURN(int16_t unit, reader_.Scalar<int16_t>(table, kDateUnit, kDateUnitMillisecond, "Date.unit"));
        if (unit == kDateUnitDay) return date32();
        if (unit == kDateUnitMillisecond) return date64();
        return Status::Corrupt("Arrow schema message: field '{}' has date unit {}", path, unit);
      }
      case TypeTag::kTime: {
        STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseTimeUnit(table, kTimeUnit, kTimeUnitMillisecond, "Time.unit", path));
        STRATA_ASSIGN_OR_RETURN(int32_t bit_width, reader_.Scalar<int32_t>(table, kTimeBitWidth, 32, "Time.bitWidth"));
        const bool narrow_unit = unit == TimeUnit::kSecond || unit == TimeUnit::kMilli;
        if ((bit_width != 32 && bit_width != 64) || (bit_width == 32) != narrow_unit) {
          return Status::Corrupt("Arrow schema message: field '{}' has a {}-bit time in {}", path, bit_width,
                                 TimeUnitName(unit));
        }
        return bit_width == 32 ? time32(unit) : time64(unit);
      }
      case TypeTag::kTimestamp: {
        STRATA_ASSIGN_OR_RETURN(TimeUnit unit, ParseTimeUnit(table, kTimestampUnit, 0, "Timestamp.unit", path));
        STRATA_ASSIGN_OR_RETURN(std::string_view timezone,
                                reader_.String(table, kTimestampTimezone, "Timestamp.timezone"));
        return timestamp(unit, std::string(timezone));
      }
      case TypeTag::kDuration: {
        STRATA_ASSIGN_OR_RETURN(TimeUnit unit,
                                ParseTimeUnit(table, kDurationUnit, kTimeUnitMillisecond, "Duration.unit", path));
        return duration(unit);
      }
      case TypeTag::kInterval: return ParseInterval(table, path);
      case TypeTag::kBinary: return binary();
      case TypeTag::kUtf8: return utf8();
      case TypeTag::kLargeBinary: return large_binary();
      case TypeTag::kLargeUtf8: return large_utf8();
      case TypeTag::kBinaryView: return binary_view();
      case TypeTag::kUtf8View: return utf8_view();
      case TypeTag::kFixedSizeBinary: {
        STRATA_ASSIGN_OR_RETURN(int32_t byte_width,
                                reader_.Scalar<int32_t>(table, kFixedSizeBinaryByteWidth, 0, "FixedSizeBinary.byteWidth"));
        auto type = MakeFixedSizeBinary(byte_width);
        if (!type.ok()) return CorruptField(path, type.status());
        return type;
      }
      case TypeTag::kList: return list(std::move(children[0]));
      case TypeTag::kLargeList: return large_list(std::move(children[0]));
      case TypeTag::kFixedSizeList: {
        STRATA_ASSIGN_OR_RETURN(int32_t list_size,
                                reader_.Scalar<int32_t>(table, kFixedSizeListListSize, 0, "FixedSizeList.listSize"));
        auto type = MakeFixedSizeList(std::move(children[0]), list_size);
        if (!type.ok()) return CorruptField(path, type.status());
        return type;
      }
      case TypeTag::kStruct: return struct_(std::move(children));
      case TypeTag::kUnion: return ParseUnion(table, std::move(children), path);
      case TypeTag::kRunEndEncoded: {
        auto type = MakeRunEndEncoded(children[0]->type(), children[1]->type());
        if (!type.ok()) return CorruptField(path, type.status());
        if (children[0]->nullable()) {
          return Status::Corrupt("Arrow schema message: field '{}': the run ends field is nullable", path);
        }
        // The children's names and the values' nullability are kept as written.
        TypeParams params;
        params.fields = {std::move(children[0]), std::move(children[1])};
        return TypePtr(std::make_shared<const DataType>(TypeId::kRunEndEncoded, std::move(params)));
      }
      case TypeTag::kListView: return list_view(std::move(children[0]));
      case TypeTag::kLargeListView: return large_list_view(std::move(children[0]));
      case TypeTag::kMap: {
        STRATA_ASSIGN_OR_RETURN(uint8_t keys_sorted, reader_.Scalar<uint8_t>(table, kMapKeysSorted, 0, "Map.keysSorted"));
        auto type = MakeMap(std::move(children[0]), keys_sorted != 0);
        if (!type.ok()) return CorruptField(path, type.status());
        return type;
      }
      default: break;
    }
    return Status::NotImplemented("Arrow schema message: field '{}' has type {}", path, tag_name);
  }

  static Status CorruptField(const std::string& path, const Status& status) {
    return Status::Corrupt("Arrow schema message: field '{}': {}", path, status.message());
  }

  FlatbufferReader& reader_;
  DictionaryIds* ids_;
};

}  // namespace

fb::Offset<void> AddKeyValues(fb::FlatBufferBuilder& fbb, const KeyValueMetadata& metadata) {
  if (metadata.empty()) return {};
  std::vector<fb::Offset<void>> pairs;
  pairs.reserve(metadata.size());
  for (const auto& [key, value] : metadata.pairs()) {
    const auto key_string = fbb.CreateString(key);
    const auto value_string = fbb.CreateString(value);
    const fb::uoffset_t start = fbb.StartTable();
    fbb.AddOffset(kKeyValueKey, key_string);
    fbb.AddOffset(kKeyValueValue, value_string);
    pairs.push_back(fb::Offset<void>(fbb.EndTable(start)));
  }
  return fb::Offset<void>(fbb.CreateVector(pairs).o);
}

Result<KeyValueMetadata> ParseKeyValues(FlatbufferReader& reader, const fb::Table* table, fb::voffset_t slot,
                                        std::string_view what) {
  STRATA_ASSIGN_OR_RETURN(auto pair_tables, reader.Tables(table, slot, what));
  std::vector<std::pair<std::string, std::string>> pairs;
  pairs.reserve(pair_tables.size());
  for (const fb::Table* pair : pair_tables) {
    STRATA_ASSIGN_OR_RETURN(std::string_view key, reader.String(pair, kKeyValueKey, "KeyValue.key"));
    STRATA_ASSIGN_OR_RETURN(std::string_view value, reader.String(pair, kKeyValueValue, "KeyValue.value"));
    pairs.emplace_back(std::string(key), std::string(value));
  }
  return KeyValueMetadata(std::move(pairs));
}

Result<fb::Offset<void>> AddSchemaTable(fb::FlatBufferBuilder& fbb, const Schema& schema, DictionaryIds* ids,
                                        bool big_endian) {
  return SchemaMessageBuilder(fbb, ids).AddSchema(schema, big_endian);
}

Result<SchemaPtr> ParseSchemaTable(FlatbufferReader& reader, const fb::Table* table, DictionaryIds* ids,
                                   bool* big_endian) {
  STRATA_ASSIGN_OR_RETURN(auto schema, SchemaMessageParser(reader, ids).ParseSchema(table, big_endian));
  return SchemaPtr(std::move(schema));
}

Result<std::string> FinishMessage(fb::FlatBufferBuilder& fbb, uint8_t header_type, fb::Offset<void> header,
                                  int64_t body_length, int64_t alignment, int64_t start_position) {
  const fb::uoffset_t message_start = fbb.StartTable();
  fbb.AddElement<int16_t>(kMessageVersion, kMetadataV5);
  fbb.AddElement<uint8_t>(kMessageHeaderType, header_type);
  fbb.AddOffset(kMessageHeader, header);
  fbb.AddElement<int64_t>(kMessageBodyLength, body_length);
  fbb.Finish(fb::Offset<void>(fbb.EndTable(message_start)));

  // The metadata length counts the padding, so that the body starts aligned after the prefix.
  const size_t flatbuffer_size = fbb.GetSize();
  const size_t start = static_cast<size_t>(start_position);
  const size_t whole = (start + 8 + flatbuffer_size + static_cast<size_t>(alignment) - 1) /
                           static_cast<size_t>(alignment) * static_cast<size_t>(alignment) -
                       start;
  const size_t padded_size = whole - 8;
  if (padded_size > static_cast<size_t>(INT32_MAX)) {
    return Status::LimitExceeded("Arrow IPC message metadata of {} bytes does not fit an int32 length", padded_size);
  }
  std::string message(whole, '\0');
  const uint32_t marker = kContinuationMarker;
  const int32_t length = static_cast<int32_t>(padded_size);
  std::memcpy(message.data(), &marker, 4);
  std::memcpy(message.data() + 4, &length, 4);
  std::memcpy(message.data() + 8, fbb.GetBufferPointer(), flatbuffer_size);
  return message;
}

}  // namespace format

Result<std::string> SerializeSchema(const Schema& schema) {
  format::fb::FlatBufferBuilder fbb(1024);
  STRATA_ASSIGN_OR_RETURN(auto schema_table, format::AddSchemaTable(fbb, schema, nullptr, false));
  return format::FinishMessage(fbb, format::kMessageHeaderSchema, schema_table, 0);
}

Result<std::shared_ptr<Schema>> DeserializeSchema(std::string_view message) {
  if (message.size() < 4) {
    return Status::Corrupt("Arrow schema message: {} bytes, too short for a message prefix", message.size());
  }
  uint32_t first_word = 0;
  std::memcpy(&first_word, message.data(), 4);
  size_t prefix_size = 4;
  int32_t metadata_length = 0;
  if (first_word == format::kContinuationMarker) {
    if (message.size() < 8) {
      return Status::Corrupt("Arrow schema message: {} bytes, too short for a message prefix", message.size());
    }
    std::memcpy(&metadata_length, message.data() + 4, 4);
    prefix_size = 8;
  } else {
    // Before Arrow 0.15 the prefix was the length alone.
    std::memcpy(&metadata_length, message.data(), 4);
  }
  if (metadata_length == 0) {
    return Status::Corrupt("Arrow schema message: found an end-of-stream marker, not a message");
  }
  if (metadata_length < 0 || static_cast<size_t>(metadata_length) > message.size() - prefix_size) {
    return Status::Corrupt("Arrow schema message: metadata length {} at byte {} passes the end of the {}-byte message",
                           metadata_length, prefix_size - 4, message.size());
  }
  // 8-aligned copy: FlatBuffers reads scalars in place, and the verifier checks alignment
  // relative to the buffer start.
  const size_t length = static_cast<size_t>(metadata_length);
  std::vector<uint64_t> aligned((length + 7) / 8);
  std::memcpy(aligned.data(), message.data() + prefix_size, length);
  format::FlatbufferReader reader(reinterpret_cast<const uint8_t*>(aligned.data()), length, prefix_size);
  return format::SchemaMessageParser(reader, nullptr).Parse();
}

}  // namespace strata::ipc
