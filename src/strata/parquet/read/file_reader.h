// FileReader: the entry point of the Parquet read path. Opens a file (footer, schema) from a
// path or any RandomAccessSource, and reads record batches of chosen columns and row groups.
// The batches stream through a BatchReader (batch_reader.h), one row group's column readers at
// a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/array/table.h"
#include "strata/io/random_access_source.h"
#include "strata/io/read_range_cache.h"
#include "strata/io/s3/s3_options.h"
#include "strata/parquet/read/arrow_schema_restore.h"
#include "strata/parquet/read/batch_reader.h"
#include "strata/parquet/read/reader_options.h"
#include "strata/parquet/schema.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/stats/page_index.h"
#include "strata/parquet/thrift/footer.h"

namespace strata::parquet {

struct FileReaderOptions {
  FooterReadOptions footer;
  PageReadOptions pages;
  // How the schema maps to strata types (INT96's unit).
  SchemaOptions schema;
  // Types the Parquet schema cannot express restored from the ARROW:schema that Arrow writers
  // store (arrow_schema_restore.h), in every batch: time zones and durations (relabelled,
  // zero-copy) and string dictionaries (read dictionary-encoded). Off: the Parquet types stand.
  bool restore_arrow_schema = true;
  // Pre-buffering: the column chunks a row group needs are coalesced into few large reads,
  // fetched ahead on a small I/O pool, and released as soon as the row group is decoded
  // (ranges merged across row groups when the last of them is). Unset: on for remote sources
  // (names starting http://, https:// or s3://), where requests are expensive, off for local files,
  // where the OS page cache already reads ahead (see read_range_cache_benchmark).
  std::optional<bool> pre_buffer;
  // Row groups fetched ahead of the one being decoded (pre-buffering only).
  int read_ahead_row_groups = 1;
  ReadRangeCacheOptions cache;
  // The cache's fetch threads for a remote source (http(s)://, s3://), in place of
  // cache.io_threads: a request there waits on the network's latency, not on a disk or the
  // CPU. scripts/bench-s3, lineitem's two-column projection at 50 ms per request: 2.98 s with
  // 2 threads, 1.75 s with 4, 0.83 s with 16. The pool's peak does not change (the threads
  // fetch only the ranges the pre-buffer window registered), but each fetching thread gets a
  // malloc arena of its own that keeps freed entries: a full scan's RSS was 66 MB with 2,
  // about 95 MB with 4 and 146 MB with 16. 4 until entries are allocated by the registering
  // thread instead.
  int remote_io_threads = 4;
  // OpenFile of an s3:// URL: endpoint, region and credentials (what is left empty comes from
  // the environment and ~/.aws, as AWS's tools do).
  s3::S3Options s3;
  // The columns this reader will read: top-level field names or dotted paths (a struct's
  // field, a leaf); empty: all. Only their column chunks' metadata is decoded from the footer;
  // the others are skipped on the wire, so opening 10 columns of a 10,000-column file costs
  // what those 10 columns' metadata costs (footer.decode.column_indices, when set, wins). A
  // name the schema lacks selects nothing; reading a column outside the selection fails naming
  // it. The schema is always whole.
  std::vector<std::string> columns;
  // When set, every batch this reader makes (ReadBatches, ReadTable, FilteredBatchReader) ends
  // with an int64 column of this name holding each row's position in the file: 0-based over
  // all its row groups, whatever row groups, pages or rows are pruned, filtered or skipped,
  // at every thread count (DuckDB's file_row_number). Table formats apply deletion vectors
  // with it. Must not be the name of a field read.
  std::string row_number_column;
};

class FileReader {
 public:
  // The footer's metadata and the schema descriptor live on the C++ heap but stay charged to
  // `pool` (bytes in use, peak, limit) while the reader lives; past the pool's limit, Open
  // fails with OutOfMemory naming the file.
  static Result<std::unique_ptr<FileReader>> Open(std::shared_ptr<RandomAccessSource> source, MemoryPool* pool,
                                                  const FileReaderOptions& options = {});
  static Result<std::unique_ptr<FileReader>> OpenFile(const std::string& path, MemoryPool* pool,
                                                      const FileReaderOptions& options = {});

  const FileMetaData& metadata() const { return footer_.metadata; }
  const FileFooter& footer() const { return footer_; }
  const SchemaDescriptor& descriptor() const { return *descriptor_; }
  // The Parquet schema's types: what filters bind to and statistics decode to.
  const std::shared_ptr<Schema>& schema() const { return descriptor_->schema(); }
  // schema() with the ARROW:schema's restorations batches carry (equal to it when
  // restore_arrow_schema is off or the file has none), before BatchReadOptions' own changes
  // (large_binary, string_views, read_dictionary).
  const std::shared_ptr<Schema>& restored_schema() const { return restored_schema_; }
  // Per top-level field: what restoration does (all empty when off or absent); numbers to
  // dictionary-encode are left to the caller (RestoreColumn over a whole column).
  const std::vector<FieldRestore>& arrow_schema_restore() const { return restore_; }
  int num_row_groups() const { return static_cast<int>(footer_.metadata.row_groups.size()); }
  // Rows stored in the row groups (the footer's num_rows can disagree; this is what is read).
  int64_t num_rows() const;
  RandomAccessSource& source() const { return *source_; }
  const std::shared_ptr<RandomAccessSource>& shared_source() const { return source_; }
  MemoryPool* pool() const { return pool_; }
  const FileReaderOptions& options() const { return options_; }

  // Batches of the chosen fields and row groups; see BatchReadOptions.
  Result<std::unique_ptr<BatchReader>> ReadBatches(const BatchReadOptions& options = {});
  // Every batch of ReadBatches(options), as one table chunked along the batches.
  Result<std::shared_ptr<Table>> ReadTable(const BatchReadOptions& options = {});

  // Whether the footer's metadata holds every column chunk of top-level field `field`: always,
  // unless FileReaderOptions::columns left some of its columns out.
  bool has_field_metadata(int field) const;

  // The chunk of `column` in `row_group`, checked against the schema and the file's size.
  Result<ColumnChunkLocation> ChunkLocation(int row_group, int column) const;

  // What lies beyond the pages of `column`'s chunk in `row_group` (leaf column index, as in
  // ChunkLocation): its page index and Bloom filter, read from the source now (nothing is
  // cached), decrypted with the column's key when the chunk is encrypted. nullopt / nullptr
  // when the chunk has none. Invalid for a row group or column out of range, or an encrypted
  // column whose key was not given; the readers' errors otherwise (stats/page_index.h,
  // stats/bloom_filter.h). Temporary buffers and the filter's bitset come from pool(); the
  // filter must not outlive the pool.
  Result<std::optional<ColumnIndex>> ReadColumnIndex(int row_group, int column) const;
  Result<std::optional<OffsetIndex>> ReadOffsetIndex(int row_group, int column) const;
  Result<std::unique_ptr<BloomFilter>> ReadBloomFilter(int row_group, int column) const;

 private:
  FileReader() = default;
  Status CheckRowGroups() const;
  // The error for a chunk the footer has no metadata for: a column left out by
  // FileReaderOptions::columns, or a row group short of chunks.
  Status NotDecoded(int row_group, int column) const;
  // The chunk the page index and Bloom filter accessors read, and its decryption (null when
  // the chunk is plaintext).
  struct ChunkExtrasSource {
    const ColumnChunk* chunk = nullptr;
    std::shared_ptr<const ColumnDecryption> decryption;
  };
  Result<ChunkExtrasSource> ChunkExtras(int row_group, int column) const;

  std::shared_ptr<RandomAccessSource> source_;
  MemoryPool* pool_ = nullptr;
  FileReaderOptions options_;
  FileFooter footer_;  // its metadata's heap bytes stay charged to pool_ (metadata_charge)
  std::shared_ptr<SchemaDescriptor> descriptor_;
  MemoryCharge descriptor_charge_;  // descriptor_->heap_bytes(), charged to pool_
  std::vector<FieldRestore> restore_;
  std::shared_ptr<Schema> restored_schema_;
};

}  // namespace strata::parquet
