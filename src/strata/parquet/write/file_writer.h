// FileWriter: the entry point of the Parquet write path. Opens on a path (written under a
// temporary name and renamed on a successful Close) or any OutputSink, with a schema, the pool
// and options; takes record batches or tables; cuts them into row groups; and writes the Bloom
// filters, the page index and the footer, encrypting them when asked (Parquet modular
// encryption). Memory: one row group's encoded (compressed) pages plus each column's dictionary
// and current page, whatever the input's size (see FileWriteOptions::max_row_group_bytes).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/array/table.h"
#include "strata/io/output_sink.h"
#include "strata/parquet/encryption/file_encryptor.h"
#include "strata/parquet/thrift/parquet_types.h"
#include "strata/parquet/write/writer_options.h"
#include "strata/parquet/write/writer_schema.h"

namespace strata::parquet {

class ColumnChunkWriter;
class LevelBuilder;

class FileWriter {
 public:
  // Writes to `path`, a local path or an s3:// URL (io/location.h: nothing appears at `path`
  // before Close succeeds).
  static Result<std::unique_ptr<FileWriter>> Open(const std::string& path, std::shared_ptr<Schema> schema,
                                                  MemoryPool* pool, const WriterOptions& options = {});
  // Writes to `sink`, which the writer owns from here on (closed by Close, aborted on error).
  static Result<std::unique_ptr<FileWriter>> Open(std::unique_ptr<OutputSink> sink, std::shared_ptr<Schema> schema,
                                                  MemoryPool* pool, const WriterOptions& options = {});
  // Without a successful Close() the output is discarded (Abort).
  ~FileWriter();
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;

  // Appends the rows of `batch`, whose schema must match the writer's (field names, types and
  // nullability). After any error the writer is aborted and every later call fails.
  Status WriteBatch(const RecordBatch& batch);
  Status WriteTable(const Table& table);
  // Ends the current row group (a no-op when it holds no rows).
  Status FlushRowGroup();

  // A row group of `rows` rows written column chunk by column chunk: `source(field, emit)`
  // hands every row of top-level field `field`, in order, to `emit`, one array (of the
  // schema's type) at a time. Fields are encoded on the writer's threads, a few at a time, and
  // each column chunk goes to the sink once it and every chunk before it is encoded: the
  // writer holds a few column chunks, not the row group (a Parquet rewrite of a wide file;
  // FileWriteOptions::column_by_column keeps its pages whole-sized). The current row group is
  // flushed first. `source` runs on the writer's threads, for different fields at once.
  using EmitColumn = std::function<Status(const Array& values)>;
  using FieldSource = std::function<Status(int field, const EmitColumn& emit)>;
  Status WriteRowGroupByColumn(int64_t rows, const FieldSource& source);
  // Ends the last row group, writes the page index and footer, and commits the output.
  Status Close();
  // Discards the output (a file sink removes its temporary file); idempotent.
  void Abort();

  const std::shared_ptr<Schema>& schema() const { return schema_.schema; }
  const WriterSchema& writer_schema() const { return schema_; }
  // The footer: complete after Close().
  const FileMetaData& metadata() const { return metadata_; }
  int64_t num_rows() const { return rows_written_ + row_group_rows_; }
  // Bytes written to the sink so far.
  int64_t bytes_written() const;
  // Pool bytes held now: column writers (pages, dictionaries, scratch), level builders, pending
  // page index.
  int64_t memory_size() const;
  OutputSink* sink() const { return sink_.get(); }

 private:
  FileWriter(std::unique_ptr<OutputSink> sink, MemoryPool* pool, WriterOptions options);
  Status Init(std::shared_ptr<Schema> schema);
  Status CheckSchema(const Schema& schema) const;
  // Appends `rows` rows of `columns` (checked against the schema), cutting row groups.
  Status WriteColumns(const std::vector<Array>& columns, int64_t rows);
  // Encodes rows [offset, offset + length) of `columns` into the current row group.
  Status EncodeRows(const std::vector<Array>& columns, int64_t offset, int64_t length);
  // Encodes rows [offset, offset + length) of `data` into top-level field `field`'s leaves.
  Status EncodeField(int field, const ArrayDataPtr& data, int64_t offset, int64_t length);
  // Writes leaf `column`'s finished chunk to the sink and adds it to `row_group`, keeping its
  // page index for the footer; then, once every chunk is in, the Bloom filters and the row
  // group's metadata.
  Status AppendChunk(size_t column, RowGroup* row_group, int64_t* compressed);
  Status EndRowGroup(RowGroup row_group, int64_t compressed, int64_t rows);
  RowGroup BeginRowGroup(int64_t rows) const;
  // Runs fn(i) for i in [0, count) on the writer's threads; the first error wins.
  template <typename Fn>
  Status ForEach(int count, Fn&& fn);
  // Resolves each leaf's encryption from the options' column keys.
  Status InitEncryption();
  // The footer as stored: the file's metadata, with encrypted columns' metadata as modules
  // when encrypting, serialized, then encrypted or signed; and the magic that ends the file.
  Status SerializeFooter(std::string* footer, const char** magic);
  Status WriteFooter();
  Status Fail(Status status);

  std::unique_ptr<OutputSink> sink_;
  MemoryPool* pool_;
  WriterOptions options_;
  WriterSchema schema_;
  std::vector<std::unique_ptr<LevelBuilder>> level_builders_;    // per top-level field
  std::vector<std::unique_ptr<ColumnChunkWriter>> column_writers_;  // per leaf
  FileMetaData metadata_;
  std::shared_ptr<const encryption::FileEncryptor> encryptor_;  // nullptr: not encrypted
  // Serialized ColumnIndex / OffsetIndex per row group and column, in `index_bytes_` (pool
  // memory), written before the footer.
  struct PendingIndex {
    int row_group;
    int column;
    int64_t column_index_offset, column_index_length;  // length 0: none
    int64_t offset_index_offset, offset_index_length;
  };
  std::vector<PendingIndex> pending_indexes_;
  std::unique_ptr<ResizableBuffer> index_bytes_;
  std::string serialize_scratch_;
  int64_t row_group_rows_ = 0;
  int64_t rows_written_ = 0;
  bool closed_ = false;
  bool failed_ = false;
};

}  // namespace strata::parquet
