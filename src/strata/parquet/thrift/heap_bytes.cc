#include "strata/parquet/thrift/heap_bytes.h"

#include <optional>
#include <type_traits>
#include <vector>

namespace strata::parquet {
namespace {

// Heap bytes owned by one value's members; structs without strings or vectors own none.
int64_t Owned(const std::string& value) { return HeapBytes(value); }
int64_t Owned(const LogicalType& value);
int64_t Owned(const SchemaElement& value);
int64_t Owned(const KeyValue& value);
int64_t Owned(const Statistics& value);
int64_t Owned(const SizeStatistics& value);
int64_t Owned(const GeospatialStatistics& value);
int64_t Owned(const EncryptionAlgorithm& value);
int64_t Owned(const ColumnCryptoMetaData& value);
int64_t Owned(const ColumnMetaData& value) { return HeapBytes(value); }
int64_t Owned(const ColumnChunk& value);
int64_t Owned(const RowGroup& value);
template <typename T>
  requires(std::is_trivially_destructible_v<T>)
int64_t Owned(const T&) {
  return 0;  // scalars, enums, and structs of them (PageLocation, SortingColumn, ColumnOrder, ...)
}
template <typename T>
int64_t Owned(const std::optional<T>& value);
template <typename T>
int64_t Owned(const std::vector<T>& values);
int64_t Owned(const std::vector<bool>& values);

template <typename T>
int64_t Owned(const std::optional<T>& value) {
  return value.has_value() ? Owned(*value) : 0;
}

template <typename T>
int64_t Owned(const std::vector<T>& values) {
  int64_t bytes = static_cast<int64_t>(values.capacity() * sizeof(T));
  if constexpr (!std::is_trivially_destructible_v<T>) {
    for (const T& value : values) bytes += Owned(value);
  }
  return bytes;
}

// libstdc++ and libc++ store bits in 64-bit words; capacity() counts the bits of whole words.
int64_t Owned(const std::vector<bool>& values) { return static_cast<int64_t>((values.capacity() + 63) / 64 * 8); }

int64_t Owned(const LogicalType& value) { return Owned(value.crs); }

int64_t Owned(const SchemaElement& value) { return Owned(value.name) + Owned(value.logical_type); }

int64_t Owned(const KeyValue& value) { return Owned(value.key) + Owned(value.value); }

int64_t Owned(const Statistics& value) {
  return Owned(value.max) + Owned(value.min) + Owned(value.max_value) + Owned(value.min_value);
}

int64_t Owned(const SizeStatistics& value) {
  return Owned(value.repetition_level_histogram) + Owned(value.definition_level_histogram);
}

int64_t Owned(const GeospatialStatistics& value) { return Owned(value.geospatial_types); }

int64_t Owned(const EncryptionAlgorithm& value) { return Owned(value.aad_prefix) + Owned(value.aad_file_unique); }

int64_t Owned(const ColumnCryptoMetaData& value) { return Owned(value.path_in_schema) + Owned(value.key_metadata); }

int64_t Owned(const ColumnChunk& value) {
  return Owned(value.file_path) + Owned(value.meta_data) + Owned(value.crypto_metadata) +
         Owned(value.encrypted_column_metadata);
}

int64_t Owned(const RowGroup& value) { return Owned(value.columns) + Owned(value.sorting_columns); }

}  // namespace

int64_t HeapBytes(const std::string& value) {
  static const size_t in_place = std::string().capacity();
  return value.capacity() > in_place ? static_cast<int64_t>(value.capacity()) + 1 : 0;
}

int64_t HeapBytes(const ColumnMetaData& value) {
  return Owned(value.encodings) + Owned(value.path_in_schema) + Owned(value.key_value_metadata) +
         Owned(value.statistics) + Owned(value.encoding_stats) + Owned(value.size_statistics) +
         Owned(value.geospatial_statistics);
}

int64_t HeapBytes(const FileMetaData& value) {
  return Owned(value.schema) + Owned(value.row_groups) + Owned(value.key_value_metadata) + Owned(value.created_by) +
         Owned(value.column_orders) + Owned(value.encryption_algorithm) + Owned(value.footer_signing_key_metadata) +
         Owned(value.selected_columns);
}

int64_t HeapBytes(const ColumnIndex& value) {
  return Owned(value.null_pages) + Owned(value.min_values) + Owned(value.max_values) + Owned(value.null_counts) +
         Owned(value.repetition_level_histograms) + Owned(value.definition_level_histograms) +
         Owned(value.nan_counts);
}

int64_t HeapBytes(const OffsetIndex& value) {
  return Owned(value.page_locations) + Owned(value.unencoded_byte_array_data_bytes);
}

}  // namespace strata::parquet
