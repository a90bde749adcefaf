// The parquet.thrift structures (apache/parquet-format), hand-written as plain C++ structs with
// compact-protocol Decode/Encode functions. This layer only mirrors the wire format: values are
// kept as written (an enum may hold a number newer than this code knows); checking them against
// each other is the metadata layer's job. Optional fields are std::optional; unknown fields are
// skipped; unknown union members are kept as "unknown" rather than rejected.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/thrift/compact_protocol.h"
#include "strata/util/result.h"

namespace strata::parquet {

using thrift::CompactReader;
using thrift::CompactWriter;

// ---- enums (values are the on-disk numbers) ---------------------------------------------------

enum class ConvertedType : int32_t {
  kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6,
  kTimeMillis = 7, kTimeMicros = 8, kTimestampMillis = 9, kTimestampMicros = 10,
  kUint8 = 11, kUint16 = 12, kUint32 = 13, kUint64 = 14,
  kInt8 = 15, kInt16 = 16, kInt32 = 17, kInt64 = 18,
  kJson = 19, kBson = 20, kInterval = 21,
};

enum class FieldRepetitionType : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2, kVector = 3 };

enum class CompressionCodec : int32_t {
  kUncompressed = 0, kSnappy = 1, kGzip = 2, kLzo = 3, kBrotli = 4, kLz4 = 5, kZstd = 6, kLz4Raw = 7,
};

enum class PageType : int32_t { kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3 };

enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

enum class EdgeInterpolationAlgorithm : int32_t {
  kSpherical = 0, kVincenty = 1, kThomas = 2, kAndoyer = 3, kKarney = 4,
};

enum class TimeUnit : int32_t { kUnknown = 0, kMillis = 1, kMicros = 2, kNanos = 3 };

// Spec names ("SNAPPY", "TIMESTAMP_MICROS", ...); "UNKNOWN" for numbers outside the enum.
std::string_view ConvertedTypeName(ConvertedType type);
std::string_view FieldRepetitionTypeName(FieldRepetitionType type);
std::string_view CompressionCodecName(CompressionCodec codec);
std::string_view PageTypeName(PageType type);
std::string_view BoundaryOrderName(BoundaryOrder order);
std::string_view EdgeInterpolationAlgorithmName(EdgeInterpolationAlgorithm algorithm);
std::string_view TimeUnitName(TimeUnit unit);

// ---- schema -----------------------------------------------------------------------------------

// The LogicalType union, flattened: `kind` says which member was set; the members' parameters
// sit beside it. A member this code does not know (added to the spec later) decodes as
// kUnrecognized with its field id, so the file still opens.
struct LogicalType {
  enum class Kind : int16_t {
    kUnrecognized = 0,
    kString = 1, kMap = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6, kTime = 7, kTimestamp = 8,
    kInteger = 10,
    kNull = 11,  // the spec's "UNKNOWN" member (NullType): always-null column
    kJson = 12, kBson = 13, kUuid = 14, kFloat16 = 15, kVariant = 16, kGeometry = 17, kGeography = 18,
    kVector = 19,
  };
  Kind kind = Kind::kUnrecognized;
  int16_t unrecognized_field_id = 0;  // for kUnrecognized: the union member's field id
  // DECIMAL
  int32_t scale = 0;
  int32_t precision = 0;
  // TIME, TIMESTAMP
  bool is_adjusted_to_utc = false;
  TimeUnit unit = TimeUnit::kUnknown;
  // INTEGER
  int8_t bit_width = 0;
  bool is_signed = false;
  // VARIANT
  std::optional<int8_t> specification_version;
  // GEOMETRY, GEOGRAPHY
  std::optional<std::string> crs;
  std::optional<EdgeInterpolationAlgorithm> algorithm;  // GEOGRAPHY only

  bool operator==(const LogicalType&) const = default;
};

// "STRING", "DECIMAL(10,2)", "TIMESTAMP(MICROS,UTC)", "INT(8,signed)", "UNKNOWN(field 42)", ...
std::string LogicalTypeToString(const LogicalType& type);

struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<FieldRepetitionType> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
  std::optional<int32_t> vector_length;

  bool operator==(const SchemaElement&) const = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
  bool operator==(const KeyValue&) const = default;
};

// The ColumnOrder union.
struct ColumnOrder {
  enum class Kind : int16_t { kUnknown = 0, kTypeOrder = 1, kIeee754TotalOrder = 2, kInt96TimestampOrder = 3 };
  Kind kind = Kind::kTypeOrder;
  int16_t unknown_field_id = 0;
  bool operator==(const ColumnOrder&) const = default;
};

// ---- statistics -------------------------------------------------------------------------------

// Min/max are PLAIN-encoded values without a length prefix (raw bytes for BYTE_ARRAY).
struct Statistics {
  std::optional<std::string> max;  // legacy: signed comparison
  std::optional<std::string> min;  // legacy
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;
  bool operator==(const Statistics&) const = default;
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::optional<std::vector<int64_t>> repetition_level_histogram;
  std::optional<std::vector<int64_t>> definition_level_histogram;
  bool operator==(const SizeStatistics&) const = default;
};

struct BoundingBox {
  double xmin = 0, xmax = 0, ymin = 0, ymax = 0;
  std::optional<double> zmin, zmax, mmin, mmax;
  bool operator==(const BoundingBox&) const = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::optional<std::vector<int32_t>> geospatial_types;
  bool operator==(const GeospatialStatistics&) const = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;
  bool operator==(const PageEncodingStats&) const = default;
};

// ---- encryption -------------------------------------------------------------------------------

// The EncryptionAlgorithm union: AesGcmV1 and AesGcmCtrV1 carry the same fields.
struct EncryptionAlgorithm {
  enum class Kind : int16_t { kUnknown = 0, kAesGcmV1 = 1, kAesGcmCtrV1 = 2 };
  Kind kind = Kind::kAesGcmV1;
  int16_t unknown_field_id = 0;
  std::optional<std::string> aad_prefix;
  std::optional<std::string> aad_file_unique;
  std::optional<bool> supply_aad_prefix;
  bool operator==(const EncryptionAlgorithm&) const = default;
};
std::string_view EncryptionAlgorithmName(const EncryptionAlgorithm& algorithm);

// The ColumnCryptoMetaData union: encrypted with the footer key, or with a column key.
struct ColumnCryptoMetaData {
  enum class Kind : int16_t { kUnknown = 0, kFooterKey = 1, kColumnKey = 2 };
  Kind kind = Kind::kFooterKey;
  int16_t unknown_field_id = 0;
  std::vector<std::string> path_in_schema;  // kColumnKey
  std::optional<std::string> key_metadata;  // kColumnKey
  bool operator==(const ColumnCryptoMetaData&) const = default;
};

struct FileCryptoMetaData {
  EncryptionAlgorithm encryption_algorithm;
  std::optional<std::string> key_metadata;
  bool operator==(const FileCryptoMetaData&) const = default;
};

// ---- column chunks, row groups, file ----------------------------------------------------------

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kBoolean;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::optional<std::vector<PageEncodingStats>> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;
  bool operator==(const ColumnMetaData&) const = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  std::optional<ColumnCryptoMetaData> crypto_metadata;
  std::optional<std::string> encrypted_column_metadata;
  bool operator==(const ColumnChunk&) const = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;
  bool operator==(const SortingColumn&) const = default;
};

struct RowGroup {
  // With FileMetaDataDecodeOptions::column_indices, only the selected chunks, in file order.
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<std::vector<SortingColumn>> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
  bool operator==(const RowGroup&) const = default;
};

struct FileMetaData {
  int32_t version = 0;
  std::vector<SchemaElement> schema;  // depth-first; the first element is the root
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::optional<std::vector<KeyValue>> key_value_metadata;
  std::optional<std::string> created_by;
  std::optional<std::vector<ColumnOrder>> column_orders;
  std::optional<EncryptionAlgorithm> encryption_algorithm;  // encrypted files with plaintext footer
  std::optional<std::string> footer_signing_key_metadata;

  // Not on the wire: set by a selective decode to the sorted, distinct column indices kept, so
  // row_groups[r].columns[k] is column selected_columns[k] of the file.
  std::optional<std::vector<int>> selected_columns;
  bool operator==(const FileMetaData&) const = default;

  // Leaf column `column` (counted in the file) of row group `row_group`, through
  // selected_columns after a selective decode; nullptr when the row group or the column is out
  // of range or the column was not decoded.
  const ColumnChunk* chunk(int row_group, int column) const;
};

struct FileMetaDataDecodeOptions {
  // When set, ColumnChunk structs of other columns are skipped on the wire (nothing is allocated
  // for them). Indices count leaf columns from 0; each must exist in every row group.
  std::optional<std::vector<int>> column_indices;
  // Without column_indices: called with the schema once it is decoded, before the row groups,
  // and its answer (unset: every column) is used as column_indices would be. Lets a reader pick
  // columns by name in one pass over the footer. Not called when a footer puts its row groups
  // before its schema (no writer does; every column is then decoded).
  std::function<Result<std::optional<std::vector<int>>>(const std::vector<SchemaElement>& schema)> select_columns;
  Status Validate() const;
};

// ---- pages ------------------------------------------------------------------------------------

struct DataPageHeader {
  int32_t num_values = 0;  // including nulls
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeader&) const = default;
};

struct IndexPageHeader {
  bool operator==(const IndexPageHeader&) const = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;
  bool operator==(const DictionaryPageHeader&) const = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;  // including nulls
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // the spec's default when absent
  std::optional<Statistics> statistics;
  bool operator==(const DataPageHeaderV2&) const = default;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;  // bytes, not including this header
  int32_t compressed_page_size = 0;    // bytes, not including this header
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<IndexPageHeader> index_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
  bool operator==(const PageHeader&) const = default;
};

// ---- page index and Bloom filters ----------------------------------------------------------------

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;  // including the page header
  int64_t first_row_index = 0;
  bool operator==(const PageLocation&) const = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::optional<std::vector<int64_t>> unencoded_byte_array_data_bytes;
  bool operator==(const OffsetIndex&) const = default;
};

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::optional<std::vector<int64_t>> null_counts;
  std::optional<std::vector<int64_t>> repetition_level_histograms;
  std::optional<std::vector<int64_t>> definition_level_histograms;
  std::optional<std::vector<int64_t>> nan_counts;
  bool operator==(const ColumnIndex&) const = default;
};

// The algorithm, hash and compression unions each have one member today (BLOCK, XXHASH,
// UNCOMPRESSED); a member id other than 1 is kept so callers can refuse it clearly.
struct BloomFilterHeader {
  int32_t num_bytes = 0;  // size of the bitset that follows the header
  int16_t algorithm = 1;  // 1 = BLOCK (split block)
  int16_t hash = 1;       // 1 = XXHASH (64-bit)
  int16_t compression = 1;  // 1 = UNCOMPRESSED
  bool operator==(const BloomFilterHeader&) const = default;
};

// ---- codec functions --------------------------------------------------------------------------
// Decode reads one struct (its fields up to the stop byte) and fails with Corrupt when a
// required field is missing or a field has the wrong wire type. Encode writes one struct.

Status Decode(CompactReader& reader, LogicalType* out);
Status Decode(CompactReader& reader, SchemaElement* out);
Status Decode(CompactReader& reader, KeyValue* out);
Status Decode(CompactReader& reader, ColumnOrder* out);
Status Decode(CompactReader& reader, Statistics* out);
Status Decode(CompactReader& reader, SizeStatistics* out);
Status Decode(CompactReader& reader, BoundingBox* out);
Status Decode(CompactReader& reader, GeospatialStatistics* out);
Status Decode(CompactReader& reader, PageEncodingStats* out);
Status Decode(CompactReader& reader, EncryptionAlgorithm* out);
Status Decode(CompactReader& reader, ColumnCryptoMetaData* out);
Status Decode(CompactReader& reader, FileCryptoMetaData* out);
Status Decode(CompactReader& reader, ColumnMetaData* out);
Status Decode(CompactReader& reader, ColumnChunk* out);
Status Decode(CompactReader& reader, SortingColumn* out);
// `selected` (sorted, distinct) keeps only those column chunks; nullptr keeps all.
Status Decode(CompactReader& reader, RowGroup* out, const std::vector<int>* selected = nullptr);
Status Decode(CompactReader& reader, FileMetaData* out, const FileMetaDataDecodeOptions& options = {});
Status Decode(CompactReader& reader, DataPageHeader* out);
Status Decode(CompactReader& reader, IndexPageHeader* out);
Status Decode(CompactReader& reader, DictionaryPageHeader* out);
Status Decode(CompactReader& reader, DataPageHeaderV2* out);
Status Decode(CompactReader& reader, PageHeader* out);
Status Decode(CompactReader& reader, PageLocation* out);
Status Decode(CompactReader& reader, OffsetIndex* out);
Status Decode(CompactReader& reader, ColumnIndex* out);
Status Decode(CompactReader& reader, BloomFilterHeader* out);

void Encode(CompactWriter& writer, const LogicalType& value);
void Encode(CompactWriter& writer, const SchemaElement& value);
void Encode(CompactWriter& writer, const KeyValue& value);
void Encode(CompactWriter& writer, const ColumnOrder& value);
void Encode(CompactWriter& writer, const Statistics& value);
void Encode(CompactWriter& writer, const SizeStatistics& value);
void Encode(CompactWriter& writer, const BoundingBox& value);
void Encode(CompactWriter& writer, const GeospatialStatistics& value);
void Encode(CompactWriter& writer, const PageEncodingStats& value);
void Encode(CompactWriter& writer, const EncryptionAlgorithm& value);
void Encode(CompactWriter& writer, const ColumnCryptoMetaData& value);
void Encode(CompactWriter& writer, const FileCryptoMetaData& value);
void Encode(CompactWriter& writer, const ColumnMetaData& value);
void Encode(CompactWriter& writer, const ColumnChunk& value);
void Encode(CompactWriter& writer, const SortingColumn& value);
void Encode(CompactWriter& writer, const RowGroup& value);
void Encode(CompactWriter& writer, const FileMetaData& value);
void Encode(CompactWriter& writer, const DataPageHeader& value);
void Encode(CompactWriter& writer, const IndexPageHeader& value);
void Encode(CompactWriter& writer, const DictionaryPageHeader& value);
void Encode(CompactWriter& writer, const DataPageHeaderV2& value);
void Encode(CompactWriter& writer, const PageHeader& value);
void Encode(CompactWriter& writer, const PageLocation& value);
void Encode(CompactWriter& writer, const OffsetIndex& value);
void Encode(CompactWriter& writer, const ColumnIndex& value);
void Encode(CompactWriter& writer, const BloomFilterHeader& value);

// ---- top level: whole serialized structs --------------------------------------------------------
// Each reads one struct from the start of [data, data + size) and returns the bytes it consumed
// (the rest may be page data or padding). Truncated or malformed input is Corrupt. `base_offset`
// is the position of `data` in its file, so error messages give file offsets. Strings that must
// outlive the input are copied into the output struct.

Result<size_t> DeserializePageHeader(const uint8_t* data, size_t size, PageHeader* out, int64_t base_offset = 0);
// `charge`, when given, is grown by the heap bytes of each list and string before it is
// allocated (an estimate: true it up with HeapBytes, heap_bytes.h), so a limit refuses first.
Result<size_t> DeserializeFileMetaData(const uint8_t* data, size_t size, FileMetaData* out,
                                       const FileMetaDataDecodeOptions& options = {}, int64_t base_offset = 0,
                                       MemoryCharge* charge = nullptr);
Result<size_t> DeserializeFileCryptoMetaData(const uint8_t* data, size_t size, FileCryptoMetaData* out,
                                             int64_t base_offset = 0);
Result<size_t> DeserializeColumnIndex(const uint8_t* data, size_t size, ColumnIndex* out, int64_t base_offset = 0);
Result<size_t> DeserializeOffsetIndex(const uint8_t* data, size_t size, OffsetIndex* out, int64_t base_offset = 0);
Result<size_t> DeserializeBloomFilterHeader(const uint8_t* data, size_t size, BloomFilterHeader* out,
                                            int64_t base_offset = 0);

// Append the serialized struct to `out`.
void SerializePageHeader(const PageHeader& value, std::string* out);
void SerializeFileMetaData(const FileMetaData& value, std::string* out);
void SerializeFileCryptoMetaData(const FileCryptoMetaData& value, std::string* out);
void SerializeColumnMetaData(const ColumnMetaData& value, std::string* out);  // an encrypted column's
void SerializeColumnIndex(const ColumnIndex& value, std::string* out);
void SerializeOffsetIndex(const OffsetIndex& value, std::string* out);
void SerializeBloomFilterHeader(const BloomFilterHeader& value, std::string* out);

}  // namespace strata::parquet
