// Options of the Parquet read path, by concern: how pages are read, and what batches look like.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "strata/exec/executor.h"
#include "strata/util/status.h"

namespace strata::parquet {

struct PageReadOptions {
  // Verify CRC-32 page checksums when the writer stored them. On by default: zlib's crc32 runs
  // at several GB/s, a small cost beside decompression and decoding (codec_benchmark's
  // BM_Crc32), and a corrupt page then fails instead of yielding wrong values.
  bool verify_checksums = true;
  // Column chunks up to this size are fetched with one read; larger chunks are read page by
  // page, so memory stays at one page rather than the whole chunk.
  int64_t whole_chunk_read_limit = 8 << 20;
  // A page whose header declares more than this (compressed or uncompressed) is refused
  // before anything is allocated for it. By default only the format's own bound (page sizes
  // are 32-bit): a hostile header cannot make the reader allocate much regardless, since its
  // compressed bytes must lie within the column chunk and its uncompressed size within what
  // the codec can expand them to (PageReader checks both), and a limit on the memory pool
  // refuses whatever else the user will not hold. Valid files with pages past 1 GiB exist
  // (large strings in a map): a fixed lower limit would refuse them.
  int64_t max_page_bytes = std::numeric_limits<int32_t>::max();
  // A page header larger than this is refused (statistics can make headers large, not this).
  int64_t max_page_header_bytes = 16 << 20;
  // PLAIN data pages whose values exceed `stream_window_bytes` are decoded through a window of
  // that size, refilled a window at a time, instead of being decompressed whole: decode memory
  // per column is then the window (plus the codec's own window), not the page. Applies to
  // uncompressed pages read from the source and to ZSTD, GZIP and BROTLI pages, and to SNAPPY
  // pages of more than `snappy_stream_windows` windows (strata's streaming SNAPPY decoder is
  // slower than the library's: lineitem's 3.7 MB pages streamed through 1 MiB windows cost a
  // scan 0.71 -> 0.88 s; 1 under a pool limit, where memory comes first; a block reaching back
  // past 64 KiB, which no known writer makes, is decompressed whole); LZ4 and LZO pages are
  // decompressed whole.
  bool stream_large_pages = true;
  int64_t stream_window_bytes = 1 << 20;
  int64_t snappy_stream_windows = 8;
  // What all the columns a batch reader reads together may hold: with more columns than this
  // over `stream_window_bytes`, each column's stream window and whole_chunk_read_limit shrink
  // to this over the column count (32 KiB at least), so the pages of a wide row group stream
  // from the file (SNAPPY and uncompressed ones without being held whole) instead of being
  // held decompressed. 64 MiB: up to 64 columns keep the defaults; 2,000 get 32 KiB.
  int64_t column_windows_total_bytes = 64 << 20;

  Status Validate() const;
};

struct BatchReadOptions {
  // Rows per record batch (a batch never spans row groups, so the last batch of a row group
  // may be shorter).
  int64_t batch_rows = 64 * 1024;
  // Decoded bytes a batch may hold, about (0: no bound): batch_rows shrinks to fit, for the
  // widest selected row group, estimated from the footer (memory_limit_fit.h). A pool with a
  // limit bounds batches to an eighth of it as well.
  int64_t max_batch_bytes = 0;
  // Top-level field indices to read, in output order; empty = all.
  std::vector<int> columns;
  // Row groups to read, in order; empty = all.
  std::vector<int> row_groups;
  // Validate UTF-8 of string columns.
  bool validate_utf8 = false;
  // Return string and binary columns with 64-bit offsets (large_string, large_binary).
  bool large_binary = false;
  // Flat string and binary columns come back as dictionary<values=string|binary, indices=int32>
  // (large_string / large_binary values with `large_binary`): the indices of dictionary-encoded
  // pages are decoded straight into the batch, and the chunk's dictionary page becomes one
  // dictionary array per row group, shared (zero-copy) by every batch of it. Values of pages
  // that are not dictionary-encoded (a writer's fallback to PLAIN when its dictionary grew too
  // large, or a chunk without a dictionary) go to a batch-local dictionary: such a batch's
  // dictionary is the chunk's dictionary followed by those values when the batch also holds
  // dictionary-encoded values (the fallback batch: a copy), else those values alone (indices
  // 0, 1, 2, ...). Takes precedence over `string_views`. Nested fields are not affected.
  bool read_dictionary = false;
  // With read_dictionary: only these top-level fields (by name); empty = every flat string or
  // binary field.
  std::vector<std::string> dictionary_fields;
  // Flat string and binary columns come back as string_view / binary_view (Arrow's 16-byte
  // views; values of up to 12 bytes inline). Longer values point into the dictionary's bytes
  // (dictionary-encoded pages) or, without a copy, into the decoded page itself (PLAIN and
  // DELTA_LENGTH_BYTE_ARRAY pages), which the batch keeps alive: the decompressed page, the
  // page as read (on memory and memory-mapped sources, the file's own bytes), or, for an
  // uncompressed chunk read in one go, that chunk (at most
  // PageReadOptions::whole_chunk_read_limit bytes, kept until its last batch is released).
  // Such a chunk read from a pre-buffered range is copied a page at a time instead (keeping
  // the range would keep other columns' bytes). DELTA_BYTE_ARRAY values are copied into a
  // batch-local buffer. No 2 GiB limit applies (several data buffers). Large PLAIN
  // pages are then decoded whole rather than streamed through a window (the array refers to
  // them). Nested fields are not affected.
  bool string_views = false;
  // Where a batch is decoded: one task per selected field on the executor's pool, so a
  // batch's columns are decoded at once, and a row group's column readers (chunk reads, first
  // pages decompressed) are opened at once too, up to executor.threads() at a time. Batches,
  // their contents and errors do not depend on it. On the calling thread by default: callers that already read several files at once on a pool (or want one
  // core per reader) keep that, and a reader's memory stays one row group's.
  exec::Executor executor;
  // With a parallel executor: the following row groups' column readers are opened ahead on
  // the pool (chunks read, first pages decompressed) while the current row group is decoded, as
  // long as the row groups opened ahead hold at most this many bytes of (compressed) selected
  // column chunks; a row group larger than this is not opened ahead (an exec::ByteBudget that
  // refuses what does not fit). Memory grows by up to this much plus their first decompressed
  // pages (not counted in BatchReader::memory_size()). 0: none.
  // Small: from a local file (page cache) a larger budget measured no faster, only bigger.
  int64_t read_ahead_bytes = 8 << 20;
  // BatchReader::ForEachBatch with a parallel executor: row groups are decoded at once, at most
  // executor.threads() of them, while they hold at most this many bytes of (compressed)
  // selected column chunks together (one always runs: an exec::ByteBudget that admits an
  // oversized row group alone); a row group too large to share it with another decodes its
  // fields at once instead. Memory:
  // about this, plus the running row groups' decompressed pages and batches. From the
  // benchmark files: DuckDB's 122,880-row groups are 3-8 MB, so two run at once; 70 MB row
  // groups of large values run one at a time, at the memory of one thread.
  int64_t row_groups_at_once_bytes = 32 << 20;

  Status Validate() const;
};

}  // namespace strata::parquet
