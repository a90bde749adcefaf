#include "strata/csv/writer.h"

#include "strata/io/location.h"

#include <algorithm>
#include <cstring>

namespace strata::csv {

CsvWriter::CsvWriter(std::unique_ptr<OutputSink> sink, SchemaPtr schema, MemoryPool* pool, const WriteOptions& options)
    : sink_(std::move(sink)),
      schema_(std::move(schema)),
      pool_(pool),
      options_(options),
      quoting_(options),
      output_(pool) {}

CsvWriter::~CsvWriter() {
  if (!closed_) Abort();
}

Result<std::unique_ptr<CsvWriter>> CsvWriter::Open(const std::string& path, SchemaPtr schema, MemoryPool* pool,
                                                   const WriteOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  // The writer hands the sink whole buffers of text, which pass the sink's own buffer by:
  // the smallest one is enough for the last, short write.
  FileSinkOptions sink_options;
  sink_options.buffer_bytes = 4096;
  StorageOptions storage;
  storage.file_sink = sink_options;
  storage.s3 = options.s3;
  STRATA_ASSIGN_OR_RETURN(auto sink, OpenOutputLocation(path, pool, storage));
  return Open(std::move(sink), std::move(schema), pool, options);
}

Result<std::unique_ptr<CsvWriter>> CsvWriter::Open(std::unique_ptr<OutputSink> sink, SchemaPtr schema,
                                                   MemoryPool* pool, const WriteOptions& options) {
  if (sink == nullptr || schema == nullptr || pool == nullptr) {
    if (sink != nullptr) sink->Abort();
    return Status::Invalid("CsvWriter::Open needs a sink, a schema and a pool");
  }
  Status valid = options.Validate();
  if (!valid.ok()) {
    sink->Abort();
    return valid;
  }
  std::unique_ptr<CsvWriter> writer(new CsvWriter(std::move(sink), std::move(schema), pool, options));
  Status status = writer->Init();
  if (!status.ok()) {
    writer->Abort();
    return status.WithContext(fmt::format("writing '{}'", writer->sink_->name()));
  }
  return writer;
}

Status CsvWriter::Init() {
  for (const FieldPtr& field : schema_->fields()) {
    STRATA_ASSIGN_OR_RETURN(auto writer, MakeValueWriter(field->name(), field->type(), options_, &quoting_));
    writers_.push_back(std::move(writer));
    cells_.push_back(std::make_unique<CellBlock>(pool_));
  }
  if (!options_.header) return Status::OK();
  // Names are quoted by the rules of string values.
  int64_t size = static_cast<int64_t>(options_.line_ending.size()) + schema_->num_fields();
  for (const FieldPtr& field : schema_->fields()) size += quoting_.QuotedLength(field->name());
  STRATA_RETURN_NOT_OK(output_.Reserve(size));
  char* out = reinterpret_cast<char*>(output_.mutable_data());
  for (int i = 0; i < schema_->num_fields(); ++i) {
    const std::string& name = schema_->field(i)->name();
    if (i > 0) *out++ = options_.delimiter;
    if (quoting_.NeedsQuotes(name)) {
      out = quoting_.WriteQuoted(name, out);
    } else {
      std::memcpy(out, name.data(), name.size());
      out += name.size();
    }
  }
  std::memcpy(out, options_.line_ending.data(), options_.line_ending.size());
  out += options_.line_ending.size();
  output_.set_size(out - reinterpret_cast<char*>(output_.mutable_data()));
  return Status::OK();
}

Status CsvWriter::Fail(Status status) {
  if (!status.ok()) {
    failed_ = true;
    Abort();
  }
  return status;
}

void CsvWriter::Abort() {
  closed_ = true;
  if (sink_ != nullptr) sink_->Abort();
  output_.Release();
  cells_.clear();
}

Status CsvWriter::CheckUsable() const {
  if (failed_) return Status::Invalid("the CSV writer of '{}' failed earlier; its output was discarded", sink_->name());
  if (closed_) return Status::Invalid("the CSV writer of '{}' is closed", sink_->name());
  return Status::OK();
}

int64_t CsvWriter::memory_size() const {
  int64_t total = output_.capacity();
  for (const auto& cells : cells_) total += cells->memory_size();
  return total;
}

Status CsvWriter::CheckSchema(const Schema& schema) const {
  if (schema.num_fields() != schema_->num_fields()) {
    return Status::Invalid("the batch has {} columns, the CSV writer {}", schema.num_fields(), schema_->num_fields());
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& got = *schema.field(i);
    const Field& want = *schema_->field(i);
    if (got.name() != want.name() || !got.type()->Equals(*want.type())) {
      return Status::Invalid("column {} of the batch is '{}', the CSV writer's is '{}'", i, got.ToString(),
                             want.ToString());
    }
  }
  return Status::OK();
}

Status CsvWriter::Write(const RecordBatch& batch) {
  STRATA_RETURN_NOT_OK(CheckUsable());
  STRATA_RETURN_NOT_OK(CheckSchema(*batch.schema()));
  // Member scratch: a batch allocates nothing once the writer has run a first one.
  batch_columns_.clear();
  for (const Array& column : batch.columns()) batch_columns_.push_back(column.data().get());
  batch_offsets_.assign(batch_columns_.size(), 0);
  return Fail(WriteRows(batch_columns_, batch_offsets_, batch.num_rows()));
}

Status CsvWriter::WriteTable(const Table& table) {
  STRATA_RETURN_NOT_OK(CheckUsable());
  STRATA_RETURN_NOT_OK(CheckSchema(*table.schema()));
  const auto num_columns = static_cast<size_t>(table.num_columns());
  std::vector<const ArrayData*> columns(num_columns);
  std::vector<int64_t> offsets(num_columns, 0);
  std::vector<int> chunk(num_columns, 0);
  // Columns may be chunked differently: each step takes the rows that lie in one chunk of
  // every column.
  for (int64_t done = 0; done < table.num_rows();) {
    int64_t step = table.num_rows() - done;
    for (size_t c = 0; c < num_columns; ++c) {
      const ChunkedArray& column = *table.column(static_cast<int>(c));
      while (chunk[c] < column.num_chunks() && offsets[c] == column.chunk(chunk[c]).length()) {
        ++chunk[c];
        offsets[c] = 0;
      }
      if (chunk[c] == column.num_chunks()) {
        return Status::Invalid("column '{}' of the table has fewer than {} rows", schema_->field(static_cast<int>(c))->name(),
                               table.num_rows());
      }
      columns[c] = column.chunk(chunk[c]).data().get();
      step = std::min(step, column.chunk(chunk[c]).length() - offsets[c]);
    }
    STRATA_RETURN_NOT_OK(Fail(WriteRows(columns, offsets, step)));
    for (int64_t& offset : offsets) offset += step;
    done += step;
  }
  return Status::OK();
}

Status CsvWriter::WriteRows(const std::vector<const ArrayData*>& columns, const std::vector<int64_t>& offsets,
                            int64_t rows) {
  for (int64_t block = 0; block < rows; block += kBlockRows) {
    const int64_t block_rows = std::min(kBlockRows, rows - block);
    for (size_t c = 0; c < columns.size(); ++c) {
      cells_[c]->Clear();
      Status status = writers_[c]->Append(*columns[c], offsets[c] + block, block_rows, cells_[c].get());
      if (!status.ok()) return status.WithContext(fmt::format("writing '{}'", sink_->name()));
    }
    STRATA_RETURN_NOT_OK(InterleaveBlock(block_rows));
    rows_written_ += block_rows;
    if (output_.size() >= options_.buffer_bytes) STRATA_RETURN_NOT_OK(FlushOutput());
  }
  return Status::OK();
}

Status CsvWriter::InterleaveBlock(int64_t rows) {
  const size_t num_columns = cells_.size();
  const std::string& line_ending = options_.line_ending;
  const auto line_ending_size = static_cast<int64_t>(line_ending.size());
  int64_t size = rows * (line_ending_size + std::max<int64_t>(0, static_cast<int64_t>(num_columns) - 1));
  for (const auto& cells : cells_) size += cells->text_size();
  // The padding lets short cells go as one fixed-size copy: a memcpy of unknown small length
  // costs a call and branches per cell, and most cells are short.
  const int64_t needed = size + CellBlock::kPadding;
  // The buffer takes its full size once, and a block that does not fit flushes what is there
  // rather than grow it: so after the first batch, batches like it allocate nothing.
  if (output_.capacity() < options_.buffer_bytes) STRATA_RETURN_NOT_OK(output_.Reserve(options_.buffer_bytes));
  if (output_.size() + needed > output_.capacity()) STRATA_RETURN_NOT_OK(FlushOutput());
  STRATA_RETURN_NOT_OK(output_.GrowForAppend(output_.size() + needed));  // a block larger than the buffer
  char* const base = reinterpret_cast<char*>(output_.mutable_data());
  char* out = base + output_.size();
  const char delimiter = options_.delimiter;
  for (int64_t row = 0; row < rows; ++row) {
    for (size_t c = 0; c < num_columns; ++c) {
      const CellBlock& cells = *cells_[c];
      const int64_t* ends = cells.ends();
      const int64_t start = row == 0 ? 0 : ends[row - 1];
      const int64_t length = ends[row] - start;
      const char* text = cells.text() + start;
      if (length <= CellBlock::kPadding) {
        std::memcpy(out, text, CellBlock::kPadding);  // one fixed-size copy: two vector moves
      } else {
        std::memcpy(out, text, static_cast<size_t>(length));
      }
      out += length;
      if (c + 1 < num_columns) *out++ = delimiter;
    }
    out[0] = line_ending[0];
    if (line_ending_size == 2) out[1] = line_ending[1];
    out += line_ending_size;
  }
  output_.set_size(out - base);
  return Status::OK();
}

Status CsvWriter::FlushOutput() {
  if (output_.size() == 0) return Status::OK();
  STRATA_RETURN_NOT_OK(sink_->Write(output_.data(), output_.size()));
  output_.Clear();
  return Status::OK();
}

Status CsvWriter::Close() {
  STRATA_RETURN_NOT_OK(CheckUsable());
  STRATA_RETURN_NOT_OK(Fail(FlushOutput()));
  closed_ = true;
  Status status = sink_->Close();
  output_.Release();
  cells_.clear();
  if (!status.ok()) {
    failed_ = true;
    return status;
  }
  return Status::OK();
}

}  // namespace strata::csv
