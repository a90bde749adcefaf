// The Arrow IPC format's FlatBuffers layout, spelled out: vtable slots of every table strata
// reads or writes (format/Schema.fbs, Message.fbs, File.fbs), the enums' values and the structs.
// strata uses no generated code: these names are the only place the layout is written down.
// Internal to the ipc layer.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <flatbuffers/flatbuffers.h>

#include "strata/types/data_type.h"

namespace strata::ipc::format {

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
constexpr fb::voffset_t kIntervalUnit = Slot(0);              // Interval.unit: IntervalUnit = YEAR_MONTH (short)
constexpr fb::voffset_t kFixedSizeBinaryByteWidth = Slot(0);  // FixedSizeBinary.byteWidth: int
constexpr fb::voffset_t kFixedSizeListListSize = Slot(0);     // FixedSizeList.listSize: int
constexpr fb::voffset_t kMapKeysSorted = Slot(0);             // Map.keysSorted: bool
constexpr fb::voffset_t kUnionMode = Slot(0);                 // Union.mode: UnionMode = Sparse (short)
constexpr fb::voffset_t kUnionTypeIds = Slot(1);              // Union.typeIds: [int]

// enum MetadataVersion: short { V1, V2, V3, V4, V5 }
constexpr int16_t kMetadataV4 = 3;
constexpr int16_t kMetadataV5 = 4;
// union MessageHeader { Schema, DictionaryBatch, RecordBatch, Tensor, SparseTensor } (0 is NONE)
constexpr uint8_t kMessageHeaderSchema = 1;
// enum Endianness: short { Little, Big }
constexpr int16_t kEndiannessLittle = 0, kEndiannessBig = 1;
// enum Precision: short { HALF, SINGLE, DOUBLE }
constexpr int16_t kPrecisionHalf = 0, kPrecisionSingle = 1, kPrecisionDouble = 2;
// enum DateUnit: short { DAY, MILLISECOND }
constexpr int16_t kDateUnitDay = 0, kDateUnitMillisecond = 1;
// enum TimeUnit: short { SECOND, MILLISECOND, MICROSECOND, NANOSECOND }; also the default of
// Time.unit and Duration.unit.
constexpr int16_t kTimeUnitMillisecond = 1;
// enum IntervalUnit: short { YEAR_MONTH, DAY_TIME, MONTH_DAY_NANO }; YEAR_MONTH is also the
// default of Interval.unit.
constexpr int16_t kIntervalYearMonth = 0, kIntervalDayTime = 1, kIntervalMonthDayNano = 2;
// enum UnionMode: short { Sparse, Dense }
constexpr int16_t kUnionModeSparse = 0, kUnionModeDense = 1;
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

inline constexpr std::string_view kTypeTagNames[] = {
    "NONE", "Null", "Int", "FloatingPoint", "Binary", "Utf8", "Bool", "Decimal", "Date", "Time",
    "Timestamp", "Interval", "List", "Struct_", "Union", "FixedSizeBinary", "FixedSizeList", "Map",
    "Duration", "LargeBinary", "LargeUtf8", "LargeList", "RunEndEncoded", "BinaryView", "Utf8View",
    "ListView", "LargeListView",
};

constexpr uint32_t kContinuationMarker = 0xFFFFFFFFu;

inline int16_t TimeUnitToFlatbuf(TimeUnit unit) { return static_cast<int16_t>(unit); }

inline std::optional<TimeUnit> TimeUnitFromFlatbuf(int16_t unit) {
  switch (unit) {
    case 0: return TimeUnit::kSecond;
    case 1: return TimeUnit::kMilli;
    case 2: return TimeUnit::kMicro;
    case 3: return TimeUnit::kNano;
    default: return std::nullopt;
  }
}

// Message.fbs: table Message, continued
constexpr fb::voffset_t kMessageCustomMetadata = Slot(4);  // custom_metadata: [KeyValue]
// union MessageHeader, continued
constexpr uint8_t kMessageHeaderDictionaryBatch = 2;
constexpr uint8_t kMessageHeaderRecordBatch = 3;
// Message.fbs: table RecordBatch
constexpr fb::voffset_t kRecordBatchLength = Slot(0);                // length: long
constexpr fb::voffset_t kRecordBatchNodes = Slot(1);                 // nodes: [FieldNode]
constexpr fb::voffset_t kRecordBatchBuffers = Slot(2);               // buffers: [Buffer]
constexpr fb::voffset_t kRecordBatchCompression = Slot(3);           // compression: BodyCompression
constexpr fb::voffset_t kRecordBatchVariadicBufferCounts = Slot(4);  // variadicBufferCounts: [long]
// Message.fbs: table BodyCompression
constexpr fb::voffset_t kBodyCompressionCodec = Slot(0);   // codec: CompressionType = LZ4_FRAME (byte)
constexpr fb::voffset_t kBodyCompressionMethod = Slot(1);  // method: BodyCompressionMethod = BUFFER (byte)
constexpr int8_t kCompressionLz4Frame = 0, kCompressionZstd = 1;
constexpr int8_t kBodyCompressionBuffer = 0;
// Message.fbs: table DictionaryBatch
constexpr fb::voffset_t kDictionaryBatchId = Slot(0);       // id: long
constexpr fb::voffset_t kDictionaryBatchData = Slot(1);     // data: RecordBatch
constexpr fb::voffset_t kDictionaryBatchIsDelta = Slot(2);  // isDelta: bool
// File.fbs: table Footer
constexpr fb::voffset_t kFooterVersion = Slot(0);         // version: MetadataVersion (short)
constexpr fb::voffset_t kFooterSchema = Slot(1);          // schema: Schema
constexpr fb::voffset_t kFooterDictionaries = Slot(2);    // dictionaries: [Block]
constexpr fb::voffset_t kFooterRecordBatches = Slot(3);   // recordBatches: [Block]
constexpr fb::voffset_t kFooterCustomMetadata = Slot(4);  // custom_metadata: [KeyValue]

// The format's structs, laid out as FlatBuffers lays them out (little-endian, 8-aligned).
struct FieldNode {  // Message.fbs: struct FieldNode
  int64_t length;
  int64_t null_count;
};
struct BufferSpec {  // Schema.fbs: struct Buffer
  int64_t offset;
  int64_t length;
};
struct Block {  // File.fbs: struct Block (4 bytes of padding after metaDataLength)
  int64_t offset;
  int32_t metadata_length;
  int32_t padding;
  int64_t body_length;
};
static_assert(sizeof(FieldNode) == 16 && sizeof(BufferSpec) == 16 && sizeof(Block) == 24);

// The file format's magic, at the start (padded to 8 bytes) and at the very end.
inline constexpr std::string_view kFileMagic = "ARROW1";

}  // namespace strata::ipc::format
