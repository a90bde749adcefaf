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

namespace strata::ipc {
namespace {

namespace fb = flatbuffers;

// A field's vtable entry: FlatBuffers numbers fields 0, 1, ... in declaration order (a union
// takes two: its type tag, then its value) and keeps their offsets after the vtable's two
// 16-bit size words.
constexpr fb::voffset_t Slot(int field_index) { return static_cast<fb::voffset_t>(4 + 2 * field_index); }

// Message.fbs: table Message
constexpr fb::voffset_t kMessageVersion = Slot(0);     // version: MetadataVersion (short)
constexpr fb::voffset_t kMessageHeaderType = Slot(1);  // header: MessageHeader (union tag, ubyte)
constexpr fb::voffset_t kMessageHeader = Slot(2);      // header: MessageHeader (union value)
constexpr fb::voffset_t kMessageBodyLength = Slot(3);  // bodyLength: long
// Schema.fbs: table Schema
constexpr fb::voffset_t kSchemaEndianness = Slot(0);      // endianness: Endianness = Little (short)
constexpr fb::voffset_t kSchemaFields = Slot(1);          // fields: [Field]
constexpr fb::voffset_t kSchemaCustomMetadata = Slot(2);  // custom_metadata: [KeyValue]
// Schema.fbs: table Field
constexpr fb::voffset_t kFieldName = Slot(0);            // name: string
constexpr fb::voffset_t kFieldNullable = Slot(1);        // nullable: bool
constexpr fb::voffset_t kFieldTypeType = Slot(2);        // type: Type (union tag, ubyte)
constexpr fb::voffset_t kFieldType = Slot(3);            // type: Type (union value)
constexpr fb::voffset_t kFieldDictionary = Slot(4);      // dictionary: DictionaryEncoding
constexpr fb::voffset_t kFieldChildren = Slot(5);        // children: [Field]
constexpr fb::voffset_t kFieldCustomMetadata = Slot(6);  // custom_metadata: [KeyValue]
// Schema.fbs: table KeyValue
constexpr fb::voffset_t kKeyValueKey = Slot(0);    // key: string
constexpr fb::voffset_t kKeyValueValue = Slot(1);  // value: string
// Schema.fbs: table DictionaryEncoding
constexpr fb::voffset_t kDictionaryId = Slot(0);         // id: long
constexpr fb::voffset_t kDictionaryIndexType = Slot(1);  // indexType: Int
constexpr fb::voffset_t kDictionaryIsOrdered = Slot(2);  // isOrdered: bool
constexpr fb::voffset_t kDictionaryKind = Slot(3);       // dictionaryKind: DictionaryKind (short)
// Schema.fbs: the type tables of the Type union
constexpr fb::voffset_t kIntBitWidth = Slot(0);               // Int.bitWidth: int
constexpr fb::voffset_t kIntIsSigned = Slot(1);               // Int.is_signed: bool
constexpr fb::voffset_t kFloatingPointPrecision = Slot(0);    // FloatingPoint.precision: Precision (short)
constexpr fb::voffset_t kDecimalPrecision = Slot(0);          // Decimal.precision: int
constexpr fb::voffset_t kDecimalScale = Slot(1);              // Decimal.scale: int
constexpr fb::voffset_t kDecimalBitWidth = Slot(2);           // Decimal.bitWidth: int = 128
constexpr fb::voffset_t kDateUnit = Slot(0);                  // Date.unit: DateUnit = MILLISECOND (short)
constexpr fb::voffset_t kTimeUnit = Slot(0);                  // Time.unit: TimeUnit = MILLISECOND (short)
constexpr fb::voffset_t kTimeBitWidth = Slot(1);              // Time.bitWidth: int = 32
constexpr fb::voffset_t kTimestampUnit = Slot(0);             // Timestamp.unit: TimeUnit (short)
constexpr fb::voffset_t kTimestampTimezone = Slot(1);         // Timestamp.timezone: string
constexpr fb::voffset_t kDurationUnit = Slot(0);              // Duration.unit: TimeUnit = MILLISECOND (short)
constexpr fb::voffset_t kFixedSizeBinaryByteWidth = Slot(0);  // FixedSizeBinary.byteWidth: int
constexpr fb::voffset_t kFixedSizeListListSize = Slot(0);     // FixedSizeList.listSize: int
constexpr fb::voffset_t kMapKeysSorted = Slot(0);             // Map.keysSorted: bool

// enum MetadataVersion: short { V1, V2, V3, V4, V5 }
constexpr int16_t kMetadataV4 = 3;
constexpr int16_t kMetadataV5 = 4;
// union MessageHeader { Schema, DictionaryBatch, RecordBatch, Tensor, SparseTensor } (0 is NONE)
constexpr uint8_t kMessageHeaderSchema = 1;
// enum Endianness: short { Little, Big }
constexpr int16_t kEndiannessLittle = 0;
// enum Precision: short { HALF, SINGLE, DOUBLE }
constexpr int16_t kPrecisionHalf = 0, kPrecisionSingle = 1, kPrecisionDouble = 2;
// enum DateUnit: short { DAY, MILLISECOND }
constexpr int16_t kDateUnitDay = 0, kDateUnitMillisecond = 1;
// enum TimeUnit: short { SECOND, MILLISECOND, MICROSECOND, NANOSECOND }; also the default of
// Time.unit and Duration.unit.
constexpr int16_t kTimeUnitMillisecond = 1;
// enum DictionaryKind: short { DenseArray }
constexpr int16_t kDictionaryKindDenseArray = 0;

// union Type, in Schema.fbs order (0 is NONE).
enum class TypeTag : uint8_t {
  kNone, kNull, kInt, kFloatingPoint, kBinary, kUtf8, kBool, kDecimal, kDate, kTime, kTimestamp,
  kInterval, kList, kStruct, kUnion, kFixedSizeBinary, kFixedSizeList, kMap, kDuration,
  kLargeBinary, kLargeUtf8, kLargeList, kRunEndEncoded, kBinaryView, kUtf8View, kListView,
  kLargeListView,
};
constexpr uint8_t kLastKnownTypeTag = static_cast<uint8_t>(TypeTag::kLargeListView);

constexpr std::string_view kTypeTagNames[] = {
    "NONE", "Null", "Int", "FloatingPoint", "Binary", "Utf8", "Bool", "Decimal", "Date", "Time",
    "Timestamp", "Interval", "List", "Struct_", "Union", "FixedSizeBinary", "FixedSizeList", "Map",
    "Duration", "LargeBinary", "LargeUtf8", "LargeList", "RunEndEncoded", "BinaryView", "Utf8View",
    "ListView", "LargeListView",
};

constexpr uint32_t kContinuationMarker = 0xFFFFFFFFu;

int16_t TimeUnitToFlatbuf(TimeUnit unit) { return static_cast<int16_t>(unit); }

std::optional<TimeUnit> TimeUnitFromFlatbuf(int16_t unit) {
  switch (unit) {
    case 0: return TimeUnit::kSecond;
    case 1: return TimeUnit::kMilli;
    case 2: return TimeUnit::kMicro;
    case 3: return TimeUnit::kNano;
    default: return std::nullopt;
  }
}

// ---------------------------------------------------------------------------------------------
// Writing. FlatBuffers are built back to front: every child (string, vector, table) is
// finished before the table that refers to it is started.

struct TypeTable {
  TypeTag tag;
  fb::Offset<void> table;
};

class SchemaMessageBuilder {
 public:
  Result<std::string> Build(const Schema& schema) {
    std::vector<fb::Offset<void>> fields;
    fields.reserve(schema.fields().size());
    for (const FieldPtr& field : schema.fields()) {
      STRATA_ASSIGN_OR_RETURN(fb::Offset<void> offset, AddField(*field, field->name()));
      fields.push_back(offset);
    }
    const auto fields_vector = fbb_.CreateVector(fields);
    const fb::Offset<void> metadata = AddKeyValues(schema.metadata());

    const fb::uoffset_t schema_start = fbb_.StartTable();
    fbb_.AddElement<int16_t>(kSchemaEndianness, kEndiannessLittle);
    fbb_.AddOffset(kSchemaFields, fields_vector);
    fbb_.AddOffset(kSchemaCustomMetadata, metadata);
    const fb::Offset<void> schema_table(fbb_.EndTable(schema_start));

    const fb::uoffset_t message_start = fbb_.StartTable();
    fbb_.AddElement<int16_t>(kMessageVersion, kMetadataV5);
    fbb_.AddElement<uint8_t>(kMessageHeaderType, kMessageHeaderSchema);
    fbb_.AddOffset(kMessageHeader, schema_table);
    fbb_.AddElement<int64_t>(kMessageBodyLength, 0);
    fbb_.Finish(fb::Offset<void>(fbb_.EndTable(message_start)));

    // The metadata length counts the padding, so that a body (none here) would start
    // 8-aligned after the 8-byte prefix.
    const size_t flatbuffer_size = fbb_.GetSize();
    const size_t padded_size = (flatbuffer_size + 7) / 8 * 8;
    if (padded_size > static_cast<size_t>(INT32_MAX)) {
      return Status::LimitExceeded("Arrow schema message of {} bytes does not fit an int32 length", padded_size);
    }
    std::string message(8 + padded_size, '\0');
    const uint32_t marker = kContinuationMarker;
    const int32_t length = static_cast<int32_t>(padded_size);
    std::memcpy(message.data(), &marker, 4);
    std::memcpy(message.data() + 4, &length, 4);
    std::memcpy(message.data() + 8, fbb_.GetBufferPointer(), flatbuffer_size);
    return message;
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
    const fb::Offset<void> metadata = AddKeyValues(field.metadata());

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
      case TypeId::kDecimal128: case TypeId::kDecimal256: {
        const fb::uoffset_t start = fbb_.StartTable();
        fbb_.AddElement<int32_t>(kDecimalPrecision, type.precision());
        fbb_.AddElement<int32_t>(kDecimalScale, type.scale());
        fbb_.AddElement<int32_t>(kDecimalBitWidth, type.id() == TypeId::kDecimal128 ? 128 : 256);
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

  // A null offset (not written) for empty metadata, as Arrow C++ does.
  fb::Offset<void> AddKeyValues(const KeyValueMetadata& metadata) {
    if (metadata.empty()) return {};
    std::vector<fb::Offset<void>> pairs;
    pairs.reserve(metadata.size());
    for (const auto& [key, value] : metadata.pairs()) {
      const auto key_string = fbb_.CreateString(key);
      const auto value_string = fbb_.CreateString(value);
      const fb::uoffset_t start = fbb_.StartTable();
      fbb_.AddOffset(kKeyValueKey, key_string);
      fbb_.AddOffset(kKeyValueValue, value_string);
      pairs.push_back(End(start));
    }
    return fb::Offset<void>(fbb_.CreateVector(pairs).o);
  }

  fb::FlatBufferBuilder fbb_{1024};
  int64_t next_dictionary_id_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Reading. The flatbuffer is copied to 8-aligned memory (FlatBuffers reads scalars in place),
// and every table, field, string and vector is verified just before it is read.

// Reads verified pieces of one flatbuffer. Errors name the byte offset in the whole message
// (prefix included).
class FlatbufferReader {
 public:
  FlatbufferReader(const uint8_t* data, size_t size, size_t message_offset)
      : data_(data),
        size_(size),
        message_offset_(message_offset),
        // Depth is tracked by the caller, since each table is closed right after its own fields
        // are checked; the table count by CheckTable.
        verifier_(data, size, /*max_depth=*/8, /*max_tables=*/fb::uoffset_t{0x7FFFFFFF}),
        max_tables_(size / 4 + 16),
        // Strings shared the same way; a generous allowance over the message size.
        string_budget_(64 * size + 65536) {}

  size_t OffsetOf(const void* p) const {
    return message_offset_ + static_cast<size_t>(static_cast<const uint8_t*>(p) - data_);
  }

  Result<const fb::Table*> Root() {
    const fb::uoffset_t offset = verifier_.VerifyOffset(size_t{0});
    if (offset == 0) return Status::Corrupt("Arrow schema message: bad root offset at byte {}", message_offset_);
    const auto* root = reinterpret_cast<const fb::Table*>(data_ + offset);
    STRATA_RETURN_NOT_OK(CheckTable(root, "Message"));
    return root;
  }

  template <typename T>
  Result<T> Scalar(const fb::Table* table, fb::voffset_t slot, T default_value, std::string_view what) {
    if (!table->VerifyField<T>(verifier_, slot, sizeof(T))) {
      return Status::Corrupt("Arrow schema message: {} of the table at byte {} is out of bounds or misaligned",
                             what, OffsetOf(table));
    }
    return table->GetField<T>(slot, default_value);
  }

  // The table `slot` refers to, verified, or nullptr when absent.
  Result<const fb::Table*> Table(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* child = table->GetPointer<const fb::Table*>(slot);
    if (child != nullptr) STRATA_RETURN_NOT_OK(CheckTable(child, what));
    return child;
  }

  // The string `slot` refers to (empty when absent). Points into the reader's buffer.
  Result<std::string_view> String(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* string = table->GetPointer<const fb::String*>(slot);
    if (string == nullptr) return std::string_view();
    if (!verifier_.VerifyString(string)) {
      return Status::Corrupt("Arrow schema message: {} (string at byte {}) is out of bounds or unterminated", what,
                             OffsetOf(string));
    }
    if (string->size() > string_budget_) {
      return Status::LimitExceeded("Arrow schema message: strings shared so often that the schema would exceed {} "
                                   "bytes ({} at byte {})",
                                   64 * size_ + 65536, what, OffsetOf(string));
    }
    string_budget_ -= string->size();
    return std::string_view(string->c_str(), string->size());
  }

  // The tables of the vector `slot` refers to, each verified (empty when absent).
  Result<std::vector<const fb::Table*>> Tables(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_RETURN_NOT_OK(CheckOffset(table, slot, what));
    const auto* vector = table->GetPointer<const fb::Vector<fb::uoffset_t>*>(slot);
    std::vector<const fb::Table*> tables;
    if (vector == nullptr) return tables;
    if (!verifier_.VerifyVector(vector)) {
      return Status::Corrupt("Arrow schema message: {} (vector at byte {}) is out of bounds", what, OffsetOf(vector));
    }
    tables.reserve(vector->size());
    for (fb::uoffset_t i = 0; i < vector->size(); ++i) {
      const size_t element = static_cast<size_t>(reinterpret_cast<const uint8_t*>(vector->Data()) - data_) + 4 * size_t{i};
      const fb::uoffset_t offset = verifier_.VerifyOffset(element);
      if (offset == 0) {
        return Status::Corrupt("Arrow schema message: {} #{} has a bad offset at byte {}", what, i,
                               message_offset_ + element);
      }
      const auto* entry = reinterpret_cast<const fb::Table*>(data_ + element + offset);
      STRATA_RETURN_NOT_OK(CheckTable(entry, what));
      tables.push_back(entry);
    }
    return tables;
  }

 private:
  Status CheckOffset(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    if (!table->VerifyOffset(verifier_, slot)) {
      return Status::Corrupt("Arrow schema message: {} of the table at byte {} points outside the message", what,
                             OffsetOf(table));
    }
    return Status::OK();
  }

  Status CheckTable(const fb::Table* table, std::string_view what) {
    // Distinct tables need 4 bytes each at least (their vtable offset), so a legitimate message
    // never visits more than size/4 of them; more means subtrees shared over and over (a small
    // message that would expand into a huge schema).
    if (++tables_visited_ > max_tables_) {
      return Status::LimitExceeded("Arrow schema message: more than {} tables visited in {} bytes (shared subtrees), "
                                   "at {} (byte {})",
                                   max_tables_, size_, what, OffsetOf(table));
    }
    if (!table->VerifyTableStart(verifier_)) {
      return Status::Corrupt("Arrow schema message: {} (table at byte {}) is out of bounds or has a bad vtable", what,
                             OffsetOf(table));
    }
    verifier_.EndTable();
    return Status::OK();
  }

  const uint8_t* data_;
  size_t size_;
  size_t message_offset_;
  fb::Verifier verifier_;
  size_t max_tables_;
  size_t tables_visited_ = 0;
  size_t string_budget_;
};

class SchemaMessageParser {
 public:
  explicit SchemaMessageParser(FlatbufferReader& reader) : reader_(reader) {}

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

    STRATA_ASSIGN_OR_RETURN(int16_t endianness,
                            reader_.Scalar<int16_t>(schema, kSchemaEndianness, kEndiannessLittle, "Schema.endianness"));
    if (endianness != kEndiannessLittle) {
      return Status::NotImplemented("Arrow schema message: big-endian schemas are not supported");
    }
    STRATA_ASSIGN_OR_RETURN(auto field_tables, reader_.Tables(schema, kSchemaFields, "Schema.fields"));
    std::vector<FieldPtr> fields;
    fields.reserve(field_tables.size());
    for (const fb::Table* field_table : field_tables) {
      STRATA_ASSIGN_OR_RETURN(FieldPtr field, ParseField(field_table, "", 1));
      fields.push_back(std::move(field));
    }
    STRATA_ASSIGN_OR_RETURN(KeyValueMetadata metadata,
                            ParseKeyValues(schema, kSchemaCustomMetadata, "Schema.custom_metadata"));
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
                            ParseKeyValues(table, kFieldCustomMetadata, "Field.custom_metadata"));

    std::vector<FieldPtr> children;
    children.reserve(child_tables.size());
    for (const fb::Table* child_table : child_tables) {
      STRATA_ASSIGN_OR_RETURN(FieldPtr child, ParseField(child_table, path, depth + 1));
      children.push_back(std::move(child));
    }
    STRATA_ASSIGN_OR_RETURN(TypePtr type, ParseType(tag, type_table, std::move(children), path, table));
    if (dictionary != nullptr) {
      STRATA_ASSIGN_OR_RETURN(type, ParseDictionary(dictionary, std::move(type), path));
    }
    return std::make_shared<const Field>(std::string(name), std::move(type), nullable != 0, std::move(metadata));
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

  Result<TypePtr> ParseType(uint8_t tag_value, const fb::Table* table, std::vector<FieldPtr> children,
                            const std::string& path, const fb::Table* field_table) {
    if (tag_value > kLastKnownTypeTag) {
      return Status::NotImplemented("Arrow schema message: field '{}' has type #{}, unknown to strata", path,
                                    tag_value);
    }
    const auto tag = static_cast<TypeTag>(tag_value);
    const std::string_view tag_name = kTypeTagNames[tag_value];
    switch (tag) {
      case TypeTag::kInterval: case TypeTag::kUnion: case TypeTag::kRunEndEncoded: case TypeTag::kListView:
      case TypeTag::kLargeListView:
        return Status::NotImplemented("Arrow schema message: field '{}' has type {}, which strata does not support",
                                      path, tag_name);
      case TypeTag::kNone:
        return Status::Corrupt("Arrow schema message: field '{}' (table at byte {}) has no type", path,
                               reader_.OffsetOf(field_table));
      default: break;
    }
    const bool nested = tag == TypeTag::kList || tag == TypeTag::kLargeList || tag == TypeTag::kFixedSizeList ||
                        tag == TypeTag::kMap || tag == TypeTag::kStruct;
    const bool one_child = nested && tag != TypeTag::kStruct;
    if ((!nested && !children.empty()) || (one_child && children.size() != 1)) {
      return Status::Corrupt("Arrow schema message: field '{}' of type {} has {} children", path, tag_name,
                             children.size());
    }
    // Types without parameters may omit their (empty) table; the others need it.
    const bool has_parameters = tag == TypeTag::kInt || tag == TypeTag::kFloatingPoint || tag == TypeTag::kDecimal ||
                                tag == TypeTag::kDate || tag == TypeTag::kTime || tag == TypeTag::kTimestamp ||
                                tag == TypeTag::kDuration || tag == TypeTag::kFixedSizeBinary ||
                                tag == TypeTag::kFixedSizeList || tag == TypeTag::kMap;
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
        if (bit_width == 32 || bit_width == 64) {
          return Status::NotImplemented("Arrow schema message: field '{}' is a {}-bit decimal (strata has 128 and 256)",
                                        path, bit_width);
        }
        if (bit_width != 128 && bit_width != 256) {
          return Status::Corrupt("Arrow schema message: field '{}' has a decimal of {} bits", path, bit_width);
        }
        auto decimal = bit_width == 128 ? MakeDecimal128(precision, scale) : MakeDecimal256(precision, scale);
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

  Result<KeyValueMetadata> ParseKeyValues(const fb::Table* table, fb::voffset_t slot, std::string_view what) {
    STRATA_ASSIGN_OR_RETURN(auto pair_tables, reader_.Tables(table, slot, what));
    std::vector<std::pair<std::string, std::string>> pairs;
    pairs.reserve(pair_tables.size());
    for (const fb::Table* pair : pair_tables) {
      STRATA_ASSIGN_OR_RETURN(std::string_view key, reader_.String(pair, kKeyValueKey, "KeyValue.key"));
      STRATA_ASSIGN_OR_RETURN(std::string_view value, reader_.String(pair, kKeyValueValue, "KeyValue.value"));
      pairs.emplace_back(std::string(key), std::string(value));
    }
    return KeyValueMetadata(std::move(pairs));
  }

  static Status CorruptField(const std::string& path, const Status& status) {
    return Status::Corrupt("Arrow schema message: field '{}': {}", path, status.message());
  }

  FlatbufferReader& reader_;
};

}  // namespace

Result<std::string> SerializeSchema(const Schema& schema) { return SchemaMessageBuilder().Build(schema); }

Result<std::shared_ptr<Schema>> DeserializeSchema(std::string_view message) {
  if (message.size() < 4) {
    return Status::Corrupt("Arrow schema message: {} bytes, too short for a message prefix", message.size());
  }
  uint32_t first_word = 0;
  std::memcpy(&first_word, message.data(), 4);
  size_t prefix_size = 4;
  int32_t metadata_length = 0;
  if (first_word == kContinuationMarker) {
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
  FlatbufferReader reader(reinterpret_cast<const uint8_t*>(aligned.data()), length, prefix_size);
  return SchemaMessageParser(reader).Parse();
}

}  // namespace strata::ipc
