// ColumnChunkWriter: one leaf column of the row group being written. It takes each batch's
// levels and values (from LevelBuilder), cuts them into data pages at row boundaries, encodes
// (dictionary with fallback, PLAIN or the chosen encoding), compresses and checksums each page
// into a chunk buffer, and keeps page statistics for the page index. The file writer then
// writes the chunk (dictionary page first) and its metadata. Every buffer comes from the pool
// and keeps its capacity from page to page and row group to row group.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "strata/io/output_sink.h"
#include "strata/parquet/encryption/file_encryptor.h"
#include "strata/parquet/write/level_builder.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/write/writer_options.h"
#include "strata/parquet/write/writer_schema.h"

namespace strata::parquet {

// What a written chunk leaves for the footer and the page index.
struct WrittenChunk {
  ColumnChunk chunk;                       // offsets are absolute file offsets
  std::optional<ColumnIndex> column_index;  // when the page index is on and can be written
  std::optional<OffsetIndex> offset_index;
};

class ColumnChunkWriter {
 public:
  // `column` (and `encryptor`, nullptr for a plaintext file) must outlive the writer. An
  // encrypted column's pages, headers and Bloom filters are written as modules.
  static Result<std::unique_ptr<ColumnChunkWriter>> Make(const WriterColumn& column, const FileWriteOptions& options,
                                                         const encryption::FileEncryptor* encryptor, MemoryPool* pool);
  ~ColumnChunkWriter();

  // Appends one batch of this leaf. May run concurrently with other columns' writers.
  Status Write(const ShreddedLeaf& leaf);
  // Ends the chunk's last page and prepares the dictionary page and the Bloom filter (may run
  // concurrently with other columns' writers).
  Status FinishChunk();
  // Writes the finished chunk to `sink` (dictionary page, then the data pages) and returns its
  // metadata, then readies the writer for the next row group. Sequential, in column order.
  Result<WrittenChunk> WriteChunk(OutputSink* sink);
  // Appends the chunk's Bloom filter (header and bitset) to `sink` and returns its offset and
  // length, or nullopt without one. Call after WriteChunk, before the next Write.
  Result<std::optional<std::pair<int64_t, int32_t>>> WriteBloomFilter(OutputSink* sink);

  // Encoded bytes this chunk holds so far (pages done, the current page's values, the
  // dictionary): what the row-group byte limit counts.
  // After WriteChunk: frees the buffers the next chunk would reuse (the Bloom filter stays).
  Status ReleaseBuffers();
  int64_t buffered_bytes() const;
  // Rows written to this chunk so far.
  int64_t num_rows() const;
  // Pool bytes held (buffers' capacity, dictionary, statistics, Bloom filter).
  int64_t memory_size() const;

 private:
  class Impl;
  explicit ColumnChunkWriter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::parquet
