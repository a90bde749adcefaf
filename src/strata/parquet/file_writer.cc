#include "strata/parquet/file_writer.h"

#include <cstring>

#include "strata/exec/task_group.h"
#include "strata/exec/thread_pool.h"
#include "strata/ipc/schema_message.h"
#include "strata/parquet/column_writer.h"
#include "strata/parquet/level_builder.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/util/base64.h"

namespace strata::parquet {
namespace {

// Rows handed to the column writers at a time: the row-group byte limit is checked between
// slices, so it is not overshot by more than one slice's pages.
constexpr int64_t kSliceRows = 64 * 1024;

}  // namespace

FileWriter::FileWriter(std::unique_ptr<OutputSink> sink, MemoryPool* pool, WriterOptions options)
    : sink_(std::move(sink)),
      pool_(pool),
      options_(std::move(options)),
      index_bytes_(std::make_unique<ResizableBuffer>(pool)) {}

FileWriter::~FileWriter() {
  if (!closed_) Abort();
}

Result<std::unique_ptr<FileWriter>> FileWriter::Open(const std::string& path, std::shared_ptr<Schema> schema,
                                                     MemoryPool* pool, const WriterOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  STRATA_ASSIGN_OR_RETURN(auto sink, OpenFileSink(path, pool, options.file.sink));
  return Open(std::move(sink), std::move(schema), pool, options);
}

Result<std::unique_ptr<FileWriter>> FileWriter::Open(std::unique_ptr<OutputSink> sink, std::shared_ptr<Schema> schema,
                                                     MemoryPool* pool, const WriterOptions& options) {
  if (sink == nullptr || schema == nullptr) return Status::Invalid("FileWriter::Open needs a sink and a schema");
  Status valid = options.Validate();
  if (!valid.ok()) {
    sink->Abort();
    return valid;
  }
  std::unique_ptr<FileWriter> writer(new FileWriter(std::move(sink), pool, options));
  Status status = writer->Init(std::move(schema));
  if (!status.ok()) {
    writer->Abort();
    return status.WithContext(fmt::format("writing '{}'", writer->sink_->name()));
  }
  return writer;
}

Status FileWriter::Init(std::shared_ptr<Schema> schema) {
  STRATA_ASSIGN_OR_RETURN(schema_, MakeWriterSchema(std::move(schema), options_));
  for (int i = 0; i < schema_.schema->num_fields(); ++i) {
    STRATA_ASSIGN_OR_RETURN(auto builder, LevelBuilder::Make(*schema_.schema->field(i), pool_));
    if (builder->num_leaves() != schema_.field_first_column[i + 1] - schema_.field_first_column[i]) {
      return Status::Invalid("field '{}': the level builder and the schema disagree on its leaves",
                             schema_.schema->field(i)->name());
    }
    // The column writer encodes a top-level optional leaf's levels from its validity bitmap.
    builder->set_flat_levels_from_validity(true);
    level_builders_.push_back(std::move(builder));
  }
  for (const WriterColumn& column : schema_.columns) {
    STRATA_ASSIGN_OR_RETURN(auto writer, ColumnChunkWriter::Make(column, options_.file, pool_));
    column_writers_.push_back(std::move(writer));
  }
  metadata_.version = 2;
  metadata_.schema = schema_.elements;
  metadata_.created_by = options_.file.created_by.empty() ? DefaultCreatedBy() : options_.file.created_by;
  std::vector<KeyValue> key_values;
  if (options_.file.store_arrow_schema) {
    STRATA_ASSIGN_OR_RETURN(std::string message, ipc::SerializeSchema(*schema_.schema));
    key_values.push_back({"ARROW:schema", Base64Encode(message)});
  }
  for (const auto& [key, value] : options_.file.key_value_metadata.pairs()) key_values.push_back({key, value});
  if (!key_values.empty()) metadata_.key_value_metadata = std::move(key_values);
  metadata_.column_orders = std::vector<ColumnOrder>(schema_.columns.size());  // TYPE_ORDER for every column
  return sink_->Write(kParquetMagic, 4);
}

Status FileWriter::Fail(Status status) {
  if (!status.ok()) {
    failed_ = true;
    Abort();
  }
  return status;
}

void FileWriter::Abort() {
  closed_ = true;
  if (sink_ != nullptr) sink_->Abort();
}

int64_t FileWriter::bytes_written() const { return sink_->position(); }

int64_t FileWriter::memory_size() const {
  int64_t total = index_bytes_->capacity();
  for (const auto& builder : level_builders_) total += builder->memory_size();
  for (const auto& writer : column_writers_) total += writer->memory_size();
  return total;
}

Status FileWriter::CheckSchema(const Schema& schema) const {
  const Schema& expected = *schema_.schema;
  if (schema.num_fields() != expected.num_fields()) {
    return Status::Invalid("the batch has {} columns, the file {}", schema.num_fields(), expected.num_fields());
  }
  for (int i = 0; i < schema.num_fields(); ++i) {
    const Field& got = *schema.field(i);
    const Field& want = *expected.field(i);
    if (got.name() != want.name() || !got.type()->Equals(*want.type()) || got.nullable() != want.nullable()) {
      return Status::Invalid("column {} of the batch is '{}', the file's is '{}'", i, got.ToString(), want.ToString());
    }
  }
  return Status::OK();
}

template <typename Fn>
Status FileWriter::ForEach(int count, Fn&& fn) {
  const int threads = options_.file.threads;
  if (threads == 1 || count <= 1) {
    for (int i = 0; i < count; ++i) STRATA_RETURN_NOT_OK(fn(i));
    return Status::OK();
  }
  exec::ThreadPool* pool = exec::DefaultThreadPool();
  exec::TaskGroup group(pool, threads == 0 ? pool->num_threads() : threads);
  for (int i = 0; i < count; ++i) group.Submit([&fn, i]() { return fn(i); });
  return group.Wait();
}

Status FileWriter::EncodeRows(const std::vector<Array>& columns, int64_t offset, int64_t length) {
  // One task per top-level field: its levels, then its leaves (the builder's buffers are the
  // field's own). Each column writes only its own state, so the bytes do not depend on threads.
  return ForEach(static_cast<int>(columns.size()), [&](int field) -> Status {
    const ArrayDataPtr& data = columns[static_cast<size_t>(field)].data();
    const bool whole = offset == 0 && length == data->length;
    ArrayDataPtr slice = whole ? data : data->Slice(offset, length);
    LevelBuilder& builder = *level_builders_[static_cast<size_t>(field)];
    STRATA_RETURN_NOT_OK(builder.Build(*slice));
    const int first = schema_.field_first_column[static_cast<size_t>(field)];
    for (int leaf = 0; leaf < builder.num_leaves(); ++leaf) {
      STRATA_RETURN_NOT_OK(column_writers_[static_cast<size_t>(first + leaf)]->Write(builder.leaf(leaf)));
    }
    return Status::OK();
  });
}

Status FileWriter::WriteBatch(const RecordBatch& batch) {
  if (closed_) return Status::Invalid("'{}': the writer is {}", sink_->name(), failed_ ? "aborted after an error" : "closed");
  Status status = CheckSchema(*batch.schema());
  if (!status.ok()) return Fail(status.WithContext(fmt::format("writing '{}'", sink_->name())));
  return WriteColumns(batch.columns(), batch.num_rows());
}

Status FileWriter::WriteColumns(const std::vector<Array>& columns, int64_t rows) {
  int64_t offset = 0;
  while (offset < rows) {
    const int64_t room = options_.file.max_row_group_rows - row_group_rows_;
    const int64_t take = std::min({rows - offset, room, kSliceRows});
    Status status = EncodeRows(columns, offset, take);
    if (!status.ok()) return Fail(status.WithContext(fmt::format("writing '{}'", sink_->name())));
    row_group_rows_ += take;
    offset += take;
    int64_t buffered = 0;
    for (const auto& writer : column_writers_) buffered += writer->buffered_bytes();
    if (row_group_rows_ >= options_.file.max_row_group_rows || buffered >= options_.file.max_row_group_bytes) {
      STRATA_RETURN_NOT_OK(FlushRowGroup());
    }
  }
  return Status::OK();
}

Status FileWriter::WriteTable(const Table& table) {
  if (closed_) return Status::Invalid("'{}': the writer is {}", sink_->name(), failed_ ? "aborted after an error" : "closed");
  Status status = CheckSchema(*table.schema());
  if (!status.ok()) return Fail(status.WithContext(fmt::format("writing '{}'", sink_->name())));
  // Columns may be chunked differently: write the runs of rows every column has in one chunk.
  const int n = table.num_columns();
  std::vector<int> chunk(static_cast<size_t>(n), 0);
  std::vector<int64_t> in_chunk(static_cast<size_t>(n), 0);
  std::vector<Array> slices(static_cast<size_t>(n));
  for (int64_t row = 0; row < table.num_rows();) {
    int64_t take = table.num_rows() - row;
    for (int c = 0; c < n; ++c) {
      const ChunkedArray& column = *table.column(c);
      auto& k = chunk[static_cast<size_t>(c)];
      auto& at = in_chunk[static_cast<size_t>(c)];
      while (k < column.num_chunks() && at == column.chunk(k).length()) {
        ++k;
        at = 0;
      }
      if (k == column.num_chunks()) return Fail(Status::Invalid("column {} of the table is shorter than the table", c));
      take = std::min(take, column.chunk(k).length() - at);
    }
    for (int c = 0; c < n; ++c) {
      const Array& current = table.column(c)->chunk(chunk[static_cast<size_t>(c)]);
      auto& at = in_chunk[static_cast<size_t>(c)];
      slices[static_cast<size_t>(c)] = (at == 0 && take == current.length()) ? current : current.Slice(at, take);
      at += take;
    }
    STRATA_RETURN_NOT_OK(WriteColumns(slices, take));
    row += take;
  }
  return Status::OK();
}

Status FileWriter::FlushRowGroup() {
  if (closed_) return Status::Invalid("'{}': the writer is closed", sink_->name());
  if (row_group_rows_ == 0) return Status::OK();
  Status status = ForEach(static_cast<int>(column_writers_.size()),
                          [&](int column) { return column_writers_[static_cast<size_t>(column)]->FinishChunk(); });
  if (!status.ok()) return Fail(status.WithContext(fmt::format("writing '{}'", sink_->name())));
  RowGroup row_group;
  row_group.num_rows = row_group_rows_;
  row_group.file_offset = sink_->position();
  row_group.ordinal = static_cast<int16_t>(metadata_.row_groups.size());
  if (!options_.file.sorting_columns.empty()) row_group.sorting_columns = options_.file.sorting_columns;
  const int row_group_index = static_cast<int>(metadata_.row_groups.size());
  int64_t compressed = 0;
  for (size_t c = 0; c < column_writers_.size(); ++c) {
    auto written = column_writers_[c]->WriteChunk(sink_.get());
    if (!written.ok()) return Fail(written.status().WithContext(fmt::format("writing '{}'", sink_->name())));
    const ColumnMetaData& meta = *written->chunk.meta_data;
    row_group.total_byte_size += meta.total_uncompressed_size;
    compressed += meta.total_compressed_size;
    PendingIndex pending{row_group_index, static_cast<int>(c), 0, 0, 0, 0};
    auto keep = [&](int64_t* offset, int64_t* length) -> Status {
      *offset = index_bytes_->size();
      *length = static_cast<int64_t>(serialize_scratch_.size());
      return index_bytes_->Append(serialize_scratch_.data(), *length);
    };
    Status kept;
    if (written->column_index) {
      serialize_scratch_.clear();
      SerializeColumnIndex(*written->column_index, &serialize_scratch_);
      kept = keep(&pending.column_index_offset, &pending.column_index_length);
    }
    if (kept.ok() && written->offset_index) {
      serialize_scratch_.clear();
      SerializeOffsetIndex(*written->offset_index, &serialize_scratch_);
      kept = keep(&pending.offset_index_offset, &pending.offset_index_length);
    }
    if (!kept.ok()) return Fail(kept);
    if (pending.column_index_length > 0 || pending.offset_index_length > 0) pending_indexes_.push_back(pending);
    row_group.columns.push_back(std::move(written->chunk));
  }
  row_group.total_compressed_size = compressed;
  // Bloom filters right after their row group: they are freed now, not held to the end.
  for (size_t c = 0; c < column_writers_.size(); ++c) {
    auto location = column_writers_[c]->WriteBloomFilter(sink_.get());
    if (!location.ok()) return Fail(location.status().WithContext(fmt::format("writing '{}'", sink_->name())));
    if (*location) {
      row_group.columns[c].meta_data->bloom_filter_offset = (*location)->first;
      row_group.columns[c].meta_data->bloom_filter_length = (*location)->second;
    }
  }
  metadata_.row_groups.push_back(std::move(row_group));
  rows_written_ += row_group_rows_;
  row_group_rows_ = 0;
  return Status::OK();
}

Status FileWriter::WriteFooter() {
  // The page index after every row group, ColumnIndex first, as PageIndex.md lays it out.
  for (const PendingIndex& pending : pending_indexes_) {
    if (pending.column_index_length == 0) continue;
    ColumnChunk& chunk = metadata_.row_groups[static_cast<size_t>(pending.row_group)].columns[static_cast<size_t>(pending.column)];
    chunk.column_index_offset = sink_->position();
    chunk.column_index_length = static_cast<int32_t>(pending.column_index_length);
    STRATA_RETURN_NOT_OK(sink_->Write(index_bytes_->data() + pending.column_index_offset, pending.column_index_length));
  }
  for (const PendingIndex& pending : pending_indexes_) {
    if (pending.offset_index_length == 0) continue;
    ColumnChunk& chunk = metadata_.row_groups[static_cast<size_t>(pending.row_group)].columns[static_cast<size_t>(pending.column)];
    chunk.offset_index_offset = sink_->position();
    chunk.offset_index_length = static_cast<int32_t>(pending.offset_index_length);
    STRATA_RETURN_NOT_OK(sink_->Write(index_bytes_->data() + pending.offset_index_offset, pending.offset_index_length));
  }
  pending_indexes_.clear();
  index_bytes_->Release();
  metadata_.num_rows = rows_written_;
  std::string footer;
  SerializeFileMetaData(metadata_, &footer);
  const auto length = static_cast<uint32_t>(footer.size());
  uint8_t tail[8];
  std::memcpy(tail, &length, 4);
  std::memcpy(tail + 4, kParquetMagic, 4);
  STRATA_RETURN_NOT_OK(sink_->Write(footer.data(), static_cast<int64_t>(footer.size())));
  STRATA_RETURN_NOT_OK(sink_->Write(tail, 8));
  return sink_->Close();
}

Status FileWriter::Close() {
  if (closed_) {
    return failed_ ? Status::Invalid("'{}': the writer was aborted after an error", sink_->name()) : Status::OK();
  }
  STRATA_RETURN_NOT_OK(FlushRowGroup());
  Status status = WriteFooter();
  if (!status.ok()) return Fail(status.WithContext(fmt::format("writing '{}'", sink_->name())));
  closed_ = true;
  return Status::OK();
}

}  // namespace strata::parquet
