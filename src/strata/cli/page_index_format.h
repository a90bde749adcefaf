// `strata meta`'s view of what lies beyond the footer for one column chunk: its page index
// (ColumnIndex + OffsetIndex) and its Bloom filter, read from the file, then printed as text
// lines or JSON fields. A chunk whose index or filter does not read keeps the error beside it,
// so the rest of the file's metadata still prints.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "strata/cli/meta_format.h"
#include "strata/io/random_access_source.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/encryption/column_decryption.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/util/status.h"

namespace strata::cli {

struct ChunkExtras {
  std::optional<parquet::ColumnIndex> column_index;
  std::optional<parquet::OffsetIndex> offset_index;
  std::optional<int64_t> bloom_filter_bytes;  // bitset size of a filter that read
  // Not OK when the chunk points at an index or filter that does not read; the message names
  // the file, row group, column and offset.
  Status column_index_error;
  Status offset_index_error;
  Status bloom_filter_error;
};

// Reads the page index and Bloom filter of `chunk` (column `column` of row group `row_group`)
// when its metadata points at them, decrypting them with `decryption` for an encrypted chunk
// (parquet/chunk_decryption.h). Never fails: errors land in the result. Buffers come from
// `pool` and are released before returning.
ChunkExtras ReadChunkExtras(RandomAccessSource& source, const parquet::ColumnChunk& chunk, size_t row_group,
                            size_t column, MemoryPool* pool, const parquet::ColumnDecryption* decryption = nullptr);

// Text lines, indented for a column chunk of `strata meta`: the index locations, then a summary
// of each index (pages, boundary order, null pages, first rows), and with `pages` one line per
// page (offset, size, first row, nulls, min, max as the column's type). `leaf` may be null.
void AppendPageIndexText(std::string& out, const parquet::ColumnChunk& chunk, const ChunkExtras& extras,
                         const parquet::SchemaElement* leaf, bool pages);
// "bloom filter: at OFFSET (LENGTH bytes), bitset N bytes", "none", or the error.
void AppendBloomFilterText(std::string& out, const parquet::ColumnChunk& chunk, const ChunkExtras& extras);

// JSON fields of a chunk object: "column_index", "offset_index" (null, an object, or
// {"error": ...}; per-page arrays under "pages" with `pages`) and "bloom_filter".
void PageIndexJson(JsonWriter& json, const ChunkExtras& extras, parquet::PhysicalType type,
                   const parquet::SchemaElement* leaf, bool pages);
void BloomFilterJson(JsonWriter& json, const parquet::ColumnChunk& chunk, const ChunkExtras& extras);

}  // namespace strata::cli
