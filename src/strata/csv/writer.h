// CsvWriter: the entry point of the CSV write path. Opens on a path (written under a temporary
// name and renamed on a successful Close, see OpenFileSink) or any OutputSink, with a schema,
// the pool and WriteOptions; takes record batches or tables and writes their rows as CSV text.
// Rows go a block at a time: each column's ValueWriter turns the block into cells
// (value_writer.h), the cells are interleaved into rows in one output buffer, and that buffer
// goes to the sink once it holds WriteOptions::buffer_bytes. Memory: the output buffer
// (buffer_bytes, taken at the first row) plus one block of cells per column, reused batch
// after batch: after the first batch, batches of the same size and shape allocate nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "strata/array/record_batch.h"
#include "strata/array/table.h"
#include "strata/csv/value_writer.h"
#include "strata/csv/write_options.h"
#include "strata/io/output_sink.h"

namespace strata::csv {

class CsvWriter {
 public:
  // Rows converted per block: large enough that the per-block dispatch is noise, small enough
  // that a block of cells stays in cache-sized buffers.
  static constexpr int64_t kBlockRows = 1024;

  // Writes to `path`: nothing appears there before Close() succeeds, and an existing file stays
  // untouched until then.
  static Result<std::unique_ptr<CsvWriter>> Open(const std::string& path, SchemaPtr schema, MemoryPool* pool,
                                                 const WriteOptions& options = {});
  // Writes to `sink`, which the writer owns from here on (closed by Close, aborted on error).
  // The header line (when options.header) is written here. NotImplemented for a column whose
  // type the options refuse (binary or nested), naming it.
  static Result<std::unique_ptr<CsvWriter>> Open(std::unique_ptr<OutputSink> sink, SchemaPtr schema, MemoryPool* pool,
                                                 const WriteOptions& options = {});
  // Without a successful Close() the output is discarded (Abort).
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // Appends the rows of `batch`, whose fields must match the writer's schema in number, names
  // and types (Invalid otherwise; nullability is not compared). After any other error the
  // writer is aborted and every later call fails.
  Status Write(const RecordBatch& batch);
  Status WriteTable(const Table& table);
  // Writes what is buffered and commits the output.
  Status Close();
  // Discards the output (a file sink removes its temporary file); idempotent.
  void Abort();

  const SchemaPtr& schema() const { return schema_; }
  // Rows of the batches and tables written so far (the header is not a row).
  int64_t rows_written() const { return rows_written_; }
  // Bytes handed to the sink so far.
  int64_t bytes_written() const { return sink_->position(); }
  // Pool bytes held now: the output buffer and every column's cells.
  int64_t memory_size() const;

 private:
  CsvWriter(std::unique_ptr<OutputSink> sink, SchemaPtr schema, MemoryPool* pool, const WriteOptions& options);
  Status Init();
  Status CheckSchema(const Schema& schema) const;
  // Rows [offsets[c], offsets[c] + rows) of each column c, one block at a time.
  Status WriteRows(const std::vector<const ArrayData*>& columns, const std::vector<int64_t>& offsets, int64_t rows);
  // Joins the cells of the current block (`rows` rows) into lines in the output buffer.
  Status InterleaveBlock(int64_t rows);
  Status FlushOutput();
  Status Fail(Status status);
  Status CheckUsable() const;

  std::unique_ptr<OutputSink> sink_;
  SchemaPtr schema_;
  MemoryPool* pool_;
  WriteOptions options_;
  CellQuoting quoting_;
  std::vector<std::unique_ptr<ValueWriter>> writers_;  // per column
  std::vector<std::unique_ptr<CellBlock>> cells_;      // per column, reused block to block
  ResizableBuffer output_;
  std::vector<const ArrayData*> batch_columns_;
  std::vector<int64_t> batch_offsets_;
  int64_t rows_written_ = 0;
  bool closed_ = false;
  bool failed_ = false;
};

}  // namespace strata::csv
