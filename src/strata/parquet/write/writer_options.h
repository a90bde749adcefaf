// Options of the Parquet write path, by concern: the file (row groups, pages, metadata, executor)
// and each column (codec, encodings, statistics, Bloom filter), with defaults for every column
// and overrides by column path. Every struct has a Validate().
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "strata/codec/codec.h"
#include "strata/exec/executor.h"
#include "strata/io/output_sink.h"
#include "strata/io/s3/s3_options.h"
#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/encryption/encryption_options.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/types/field.h"

namespace strata::parquet {

enum class DataPageVersion { kV1 = 1, kV2 = 2 };

// Content-defined chunking (Arrow C++ 21's use_content_defined_chunking, arrow-rs's
// CdcOptions): data pages end where a rolling hash over the values says, not by count, so an
// edit changes only the pages around it (content_defined_chunker.h). A chunk holds at least
// `min_chunk_bytes` and at most `max_chunk_bytes` of hashed bytes (values as stored plus 2
// bytes per definition and repetition level, before encoding and compression); the page byte
// and row limits still split a chunk further. `norm_level` moves chunk sizes toward the
// minimum (each level halves the bytes between boundaries past it; negative: toward the
// maximum). Defaults as Arrow's documentation gives them.
struct ContentDefinedChunking {
  bool enabled = false;
  int64_t min_chunk_bytes = 256 << 10;
  int64_t max_chunk_bytes = 1 << 20;
  int norm_level = 0;

  Status Validate() const;
};

struct ColumnWriteOptions {
  // SNAPPY by default, as most writers: it costs little to write and reads fast.
  codec::CompressionCodec codec = codec::CompressionCodec::kSnappy;
  int compression_level = codec::kDefaultCompressionLevel;
  // Dictionary-encode values (RLE_DICTIONARY data pages after one PLAIN dictionary page) until
  // the dictionary's PLAIN size passes `dictionary_page_bytes`; the rest of the chunk then uses
  // `encoding`. BOOLEAN columns are never dictionary-encoded.
  bool dictionary = true;
  int64_t dictionary_page_bytes = 1 << 20;
  // Past a chunk's first 1,024 values, a dictionary whose page and indices would save less than
  // this share of the PLAIN bytes is dropped the same way (every value distinct, as in a row
  // group of high-cardinality int64s: hashing each value buys nothing). 0 keeps a dictionary
  // until dictionary_page_bytes. On issue 41's 2,000-column table: convert 48 -> 21 s, output
  // 2.12 -> 1.75 GB.
  double dictionary_min_saving = 0.1;
  // The value encoding without (or after) a dictionary: PLAIN, RLE (BOOLEAN),
  // DELTA_BINARY_PACKED (INT32, INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY), DELTA_BYTE_ARRAY
  // (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY), BYTE_STREAM_SPLIT (fixed-width types but BOOLEAN and
  // INT96), ALP (FLOAT, DOUBLE; never chosen by default, as the spec asks of a Preview
  // encoding). RLE_DICTIONARY here means `dictionary` with PLAIN fallback.
  Encoding encoding = Encoding::kPlain;
  // Chunk and page min/max, null and NaN counts (statistics in ColumnMetaData, and the page
  // index's ColumnIndex).
  bool statistics = true;
  // Byte-array and FIXED_LEN_BYTE_ARRAY min/max longer than this are truncated (0: never).
  int32_t max_statistics_bytes = 64;
  // ColumnIndex and OffsetIndex of every chunk, written before the footer.
  bool page_index = true;
  // A split-block Bloom filter per chunk with false-positive rate `bloom_filter_fpp`. With
  // `bloom_filter_ndv` 0 (the default) no distinct count is needed: the filter is built large
  // (up to `bloom_filter_max_bytes`, and no larger than the chunk's rows could fill for a flat
  // column) and folded at the chunk's end to the smallest size whose false-positive rate for
  // the values actually inserted stays within `bloom_filter_fpp`. A `bloom_filter_ndv` > 0
  // sizes it for that many distinct values instead, by the spec's formula, unfolded.
  bool bloom_filter = false;
  int64_t bloom_filter_ndv = 0;
  double bloom_filter_fpp = 0.05;
  // 1 MiB holds ~1.2 million distinct values at the default FPP: more than a default row
  // group (256Ki rows) can hold. Rounded down to a power of two; at least 32.
  int64_t bloom_filter_max_bytes = 1 << 20;
  // Pages by content; see ContentDefinedChunking.
  ContentDefinedChunking content_defined_chunking;

  // `type` is the column's physical type; `path` names it in messages.
  Status Validate(PhysicalType type, const std::string& path) const;
  Status Validate() const;  // the checks that do not depend on a type
};

struct FileWriteOptions {
  // A row group ends after this many rows, or once its encoded pages reach
  // `max_row_group_bytes`, whichever comes first. The writer holds one row group's encoded
  // pages (compressed) in memory, so the byte limit bounds its memory. 256Ki rows (Polars'
  // default; Arrow C++ and arrow-rs write 1Mi, DuckDB 122,880): on lineitem (16 columns) a
  // 1Mi-row group held 30 MB of pages, and the writer's pool peak fell 47 -> 28 MB for a file
  // 2.4% larger (a dictionary page per row group).
  int64_t max_row_group_rows = 1 << 18;
  int64_t max_row_group_bytes = 64 << 20;
  // A data page ends once its values' encoded size reaches `data_page_bytes` or it holds
  // `data_page_rows` rows. Pages end at row boundaries.
  int64_t data_page_bytes = 1 << 20;
  int64_t data_page_rows = 20000;
  DataPageVersion page_version = DataPageVersion::kV1;
  // CRC-32 of every page, checked by readers that verify checksums.
  bool page_checksums = true;
  // Timestamps as INT96 (deprecated; for old readers only).
  bool int96_timestamps = false;
  // Store the Arrow schema (base64 IPC message) under "ARROW:schema", so Arrow readers restore
  // types Parquet cannot express (large_string, time zones, durations, ...).
  bool store_arrow_schema = true;
  // Added to the footer's key-value metadata (after ARROW:schema).
  KeyValueMetadata key_value_metadata;
  std::vector<SortingColumn> sorting_columns;
  // Empty: "strata version <version>".
  std::string created_by;
  // Where a row group's column chunks are encoded: one task per top-level field on the
  // executor's pool, up to executor.threads() at once; by default on the calling thread. The
  // file's bytes do not depend on it.
  exec::Executor executor;
  // For a writer fed only through FileWriter::WriteRowGroupByColumn, which encodes a few
  // column chunks at a time rather than every column of a row group: pages then keep
  // data_page_bytes whatever the column count (on a wide schema they otherwise share half of
  // max_row_group_bytes).
  bool column_by_column = false;
  FileSinkOptions sink;
  // Writing to an s3:// URL: endpoint, region, credentials, part size (what is left empty
  // comes from the environment and ~/.aws).
  s3::S3Options s3;
  // Parquet modular encryption (the footer, and every column or the ones with keys).
  std::optional<FileEncryptionOptions> encryption;

  Status Validate() const;
};

struct WriterOptions {
  FileWriteOptions file;
  ColumnWriteOptions columns;
  // Overrides by column: the key is a leaf's dotted Parquet path ("a.b", "tags.list.element")
  // or a prefix of it at a field boundary ("a" covers every leaf under a); the longest match
  // wins.
  std::map<std::string, ColumnWriteOptions> column_overrides;

  Status Validate() const;
  // The options of the leaf at `dotted_path`.
  const ColumnWriteOptions& ForColumn(const std::string& dotted_path) const;
};

// Whether the override key `prefix` covers the leaf at `dotted_path`: the same path, or a prefix
// of it ending at a field boundary ("a" covers "a.b", not "ab").
bool PathCovers(const std::string& prefix, const std::string& dotted_path);

// "strata version 0.1.0".
std::string DefaultCreatedBy();

}  // namespace strata::parquet
