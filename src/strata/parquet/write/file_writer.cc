#include "strata/parquet/write/file_writer.h"

#include "strata/io/location.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "strata/exec/task_group.h"
#include "strata/ipc/schema_message.h"
#include "strata/parquet/write/column_writer.h"
#include "strata/parquet/write/level_builder.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/util/base64.h"

namespace strata::parquet {
namespace {

// Rows handed to the column writers at a time: the row-group byte limit is checked between
// slices, so it is not overshot by more than one slice's pages. A slice is at most an eighth
// of max_row_group_bytes at 8 bytes a value: 64Ki rows of 16 columns at the defaults, fewer
// on a wide schema (at least 256).
constexpr int64_t kMinSliceRows = 256;
constexpr int64_t kMaxSliceRows = 64 * 1024;

// The encryptor's algorithm in the Thrift struct the file stores.
EncryptionAlgorithm AlgorithmOf(const encryption::EncryptionParameters& parameters) {
  EncryptionAlgorithm algorithm;
  algorithm.kind = parameters.ctr_pages ? EncryptionAlgorithm::Kind::kAesGcmCtrV1 : EncryptionAlgorithm::Kind::kAesGcmV1;
  algorithm.aad_prefix = parameters.aad_prefix;
  algorithm.aad_file_unique = parameters.aad_file_unique;
  if (parameters.supply_aad_prefix) algorithm.supply_aad_prefix = true;
  return algorithm;
}

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
  StorageOptions storage;
  storage.file_sink = options.file.sink;
  storage.s3 = options.file.s3;
  STRATA_ASSIGN_OR_RETURN(auto sink, OpenOutputLocation(path, pool, storage));
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
  if (pool_->limit() > 0) {
    // Under a pool limit a row group's pages (which the writer holds until the row group ends)
    // take at most an eighth of it, so that the pages being filled, the writer's per-column
    // buffers and a reader feeding it (convert) fit beside them: row groups end early rather
    // than outgrow the limit.
    options_.file.max_row_group_bytes = std::min(options_.file.max_row_group_bytes,
                                                 std::max<int64_t>(4096, pool_->limit() / 8));
  }
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
  STRATA_RETURN_NOT_OK(InitEncryption());
  for (const WriterColumn& column : schema_.columns) {
    STRATA_ASSIGN_OR_RETURN(auto writer, ColumnChunkWriter::Make(column, options_.file, encryptor_.get(), pool_));
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
  const bool encrypted_footer = encryptor_ != nullptr && !encryptor_->plaintext_footer();
  return sink_->Write(encrypted_footer ? kParquetEncryptedMagic : kParquetMagic, 4);
}

Status FileWriter::InitEncryption() {
  if (!options_.file.encryption) return Status::OK();
  const FileEncryptionOptions& options = *options_.file.encryption;
  std::vector<std::optional<encryption::ColumnEncryptor>> columns;
  std::vector<bool> key_used(options.column_keys.size(), false);
  for (const WriterColumn& column : schema_.columns) {
    // The longest key path covering the column wins, as with column overrides.
    const ColumnEncryptionKey* own = nullptr;
    size_t best_length = 0;
    size_t k = 0;
    for (const auto& [path, key] : options.column_keys) {
      if (PathCovers(path, column.dotted_path) && path.size() >= best_length) {
        own = &key;
        best_length = path.size();
        key_used[k] = true;
      }
      ++k;
    }
    if (own != nullptr) {
      columns.push_back(encryption::ColumnEncryptor{own->key, false, own->key_metadata, column.path});
    } else if (options.column_keys.empty() || options.encrypt_other_columns) {
      columns.push_back(encryption::ColumnEncryptor{options.footer_key, true, std::nullopt, column.path});
    } else {
      columns.push_back(std::nullopt);
    }
  }
  size_t k = 0;
  for (const auto& entry : options.column_keys) {
    if (!key_used[k++]) return Status::Invalid("a column key is given for '{}', which is no column of the file", entry.first);
  }
  STRATA_ASSIGN_OR_RETURN(encryptor_, encryption::FileEncryptor::Make(options, std::move(columns)));
  return Status::OK();
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
  const exec::Executor& executor = options_.file.executor;
  if (!executor.parallel() || count <= 1) {
    for (int i = 0; i < count; ++i) STRATA_RETURN_NOT_OK(fn(i));
    return Status::OK();
  }
  exec::TaskGroup group(executor.pool(), executor.threads());
  for (int i = 0; i < count; ++i) group.Submit([&fn, i]() { return fn(i); });
  return group.Wait();
}

Status FileWriter::EncodeRows(const std::vector<Array>& columns, int64_t offset, int64_t length) {
  // One task per top-level field: its levels, then its leaves (the builder's buffers are the
  // field's own). Each column writes only its own state, so the bytes do not depend on threads.
  return ForEach(static_cast<int>(columns.size()), [&](int field) -> Status {
    return EncodeField(field, columns[static_cast<size_t>(field)].data(), offset, length);
  });
}

Status FileWriter::EncodeField(int field, const ArrayDataPtr& data, int64_t offset, int64_t length) {
  const bool whole = offset == 0 && length == data->length;
  ArrayDataPtr slice = whole ? data : data->Slice(offset, length);
  LevelBuilder& builder = *level_builders_[static_cast<size_t>(field)];
  STRATA_RETURN_NOT_OK(builder.Build(*slice));
  const int first = schema_.field_first_column[static_cast<size_t>(field)];
  for (int leaf = 0; leaf < builder.num_leaves(); ++leaf) {
    STRATA_RETURN_NOT_OK(column_writers_[static_cast<size_t>(first + leaf)]->Write(builder.leaf(leaf)));
  }
  return Status::OK();
}

Status FileWriter::WriteRowGroupByColumn(int64_t rows, const FieldSource& source) {
  if (closed_) return Status::Invalid("'{}': the writer is {}", sink_->name(), failed_ ? "aborted after an error" : "closed");
  STRATA_RETURN_NOT_OK(FlushRowGroup());
  if (rows <= 0) return Status::OK();
  const int fields = schema_.schema->num_fields();
  // Each task encodes one field's rows into that field's own level builder and column writers,
  // so the bytes do not depend on threads. Slices as EncodeRows cuts a batch: the level
  // builders' scratch stays that of a slice.
  auto encode_field = [this, rows, &source](int field) -> Result<int> {
    const FieldPtr& expected = schema_.schema->field(field);
    // Column by column, a slice need not stay small for the row group's sake (it is whole).
    const int64_t slice_rows =
        options_.file.column_by_column
            ? kMaxSliceRows
            : std::clamp<int64_t>(options_.file.max_row_group_bytes / (64 * static_cast<int64_t>(column_writers_.size())),
                                  kMinSliceRows, kMaxSliceRows);
    int64_t got = 0;
    STRATA_RETURN_NOT_OK(source(field, [&](const Array& values) -> Status {
      if (!values.type()->Equals(*expected->type())) {
        return Status::Invalid("field '{}' is {}, the file's is {}", expected->name(), values.type()->ToString(),
                               expected->type()->ToString());
      }
      if (got + values.length() > rows) {
        return Status::Invalid("field '{}' has more than the row group's {} rows", expected->name(), rows);
      }
      for (int64_t offset = 0; offset < values.length(); offset += slice_rows) {
        STRATA_RETURN_NOT_OK(
            EncodeField(field, values.data(), offset, std::min(slice_rows, values.length() - offset)));
      }
      got += values.length();
      return Status::OK();
    }));
    if (got != rows) {
      return Status::Invalid("field '{}' has {} rows; the row group has {}", expected->name(), got, rows);
    }
    const int first = schema_.field_first_column[static_cast<size_t>(field)];
    const int last = schema_.field_first_column[static_cast<size_t>(field) + 1];
    for (int c = first; c < last; ++c) STRATA_RETURN_NOT_OK(column_writers_[static_cast<size_t>(c)]->FinishChunk());
    return field;
  };
  // A few fields in flight (twice the threads), their chunks written in file order as they
  // complete: memory is those fields' columns and chunks.
  const exec::Executor& executor = options_.file.executor;
  exec::OrderedTaskQueue<int> queue(executor.parallel() ? executor.pool() : nullptr, 2 * executor.threads());
  RowGroup row_group = BeginRowGroup(rows);
  int64_t compressed = 0;
  int submitted = 0;
  for (int field = 0; field < fields; ++field) {
    while (submitted < fields && queue.size() < 2 * executor.threads()) {
      queue.Submit([encode_field, f = submitted]() { return encode_field(f); });
      ++submitted;
    }
    auto done = queue.Next();
    if (!done.ok()) return Fail(done.status().WithContext(fmt::format("writing '{}'", sink_->name())));
    const int first = schema_.field_first_column[static_cast<size_t>(field)];
    const int last = schema_.field_first_column[static_cast<size_t>(field) + 1];
    for (int c = first; c < last; ++c) {
      STRATA_RETURN_NOT_OK(AppendChunk(static_cast<size_t>(c), &row_group, &compressed));
      // Only a few columns are in flight: none keeps its buffers for the next row group.
      Status released = column_writers_[static_cast<size_t>(c)]->ReleaseBuffers();
      if (!released.ok()) return Fail(released);
    }
  }
  return EndRowGroup(std::move(row_group), compressed, rows);
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
    const int64_t slice_rows =
        std::clamp<int64_t>(options_.file.max_row_group_bytes / (64 * static_cast<int64_t>(column_writers_.size())),
                            kMinSliceRows, kMaxSliceRows);
    const int64_t take = std::min({rows - offset, room, slice_rows});
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
  RowGroup row_group = BeginRowGroup(row_group_rows_);
  int64_t compressed = 0;
  for (size_t c = 0; c < column_writers_.size(); ++c) STRATA_RETURN_NOT_OK(AppendChunk(c, &row_group, &compressed));
  const int64_t rows = row_group_rows_;
  row_group_rows_ = 0;
  return EndRowGroup(std::move(row_group), compressed, rows);
}

RowGroup FileWriter::BeginRowGroup(int64_t rows) const {
  RowGroup row_group;
  row_group.num_rows = rows;
  row_group.file_offset = sink_->position();
  row_group.ordinal = static_cast<int16_t>(metadata_.row_groups.size());
  if (!options_.file.sorting_columns.empty()) row_group.sorting_columns = options_.file.sorting_columns;
  return row_group;
}

Status FileWriter::AppendChunk(size_t c, RowGroup* row_group, int64_t* compressed) {
  const int row_group_index = static_cast<int>(metadata_.row_groups.size());
  auto written = column_writers_[c]->WriteChunk(sink_.get());
  if (!written.ok()) return Fail(written.status().WithContext(fmt::format("writing '{}'", sink_->name())));
  const ColumnMetaData& meta = *written->chunk.meta_data;
  row_group->total_byte_size += meta.total_uncompressed_size;
  *compressed += meta.total_compressed_size;
  PendingIndex pending{row_group_index, static_cast<int>(c), 0, 0, 0, 0};
  // An encrypted column's indexes are kept as modules.
  const encryption::ColumnEncryptor* encryption = encryptor_ ? encryptor_->column(static_cast<int>(c)) : nullptr;
  auto keep = [&](encryption::ModuleType type, int64_t* offset, int64_t* length) -> Status {
    *offset = index_bytes_->size();
    if (encryption != nullptr) {
      const std::span<const uint8_t> plain(reinterpret_cast<const uint8_t*>(serialize_scratch_.data()),
                                           serialize_scratch_.size());
      STRATA_RETURN_NOT_OK(encryptor_->Encrypt(type, encryption->key, row_group_index, static_cast<int64_t>(c), 0,
                                               plain, index_bytes_.get()));
    } else {
      STRATA_RETURN_NOT_OK(
          index_bytes_->Append(serialize_scratch_.data(), static_cast<int64_t>(serialize_scratch_.size())));
    }
    *length = index_bytes_->size() - *offset;
    return Status::OK();
  };
  Status kept;
  if (written->column_index) {
    serialize_scratch_.clear();
    SerializeColumnIndex(*written->column_index, &serialize_scratch_);
    kept = keep(encryption::ModuleType::kColumnIndex, &pending.column_index_offset, &pending.column_index_length);
  }
  if (kept.ok() && written->offset_index) {
    serialize_scratch_.clear();
    SerializeOffsetIndex(*written->offset_index, &serialize_scratch_);
    kept = keep(encryption::ModuleType::kOffsetIndex, &pending.offset_index_offset, &pending.offset_index_length);
  }
  if (!kept.ok()) return Fail(kept);
  if (pending.column_index_length > 0 || pending.offset_index_length > 0) pending_indexes_.push_back(pending);
  row_group->columns.push_back(std::move(written->chunk));
  return Status::OK();
}

Status FileWriter::EndRowGroup(RowGroup row_group, int64_t compressed, int64_t rows) {
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
  rows_written_ += rows;
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
  const char* magic = kParquetMagic;
  STRATA_RETURN_NOT_OK(SerializeFooter(&footer, &magic));
  if (footer.size() > std::numeric_limits<uint32_t>::max()) {
    return Status::LimitExceeded("a footer of {} bytes does not fit its 4-byte length", footer.size());
  }
  const auto length = static_cast<uint32_t>(footer.size());
  uint8_t tail[8];
  std::memcpy(tail, &length, 4);
  std::memcpy(tail + 4, magic, 4);
  STRATA_RETURN_NOT_OK(sink_->Write(footer.data(), static_cast<int64_t>(footer.size())));
  STRATA_RETURN_NOT_OK(sink_->Write(tail, 8));
  return sink_->Close();
}

Status FileWriter::SerializeFooter(std::string* footer, const char** magic) {
  if (encryptor_ == nullptr) {
    SerializeFileMetaData(metadata_, footer);
    *magic = kParquetMagic;
    return Status::OK();
  }
  // metadata() stays whole for the caller; the stored copy has encrypted columns' metadata as
  // modules (Encryption.md 5.3): always for columns with keys of their own, and for the
  // footer key's columns too under a plaintext footer, which then keeps only the metadata
  // that reveals no values (no statistics) in the clear, for readers without keys.
  const bool plaintext_footer = encryptor_->plaintext_footer();
  FileMetaData stored = metadata_;
  ResizableBuffer module(pool_);
  std::string plain;
  for (size_t r = 0; r < stored.row_groups.size(); ++r) {
    for (size_t c = 0; c < stored.row_groups[r].columns.size(); ++c) {
      const encryption::ColumnEncryptor* encryption = encryptor_->column(static_cast<int>(c));
      if (encryption == nullptr) continue;
      ColumnChunk& chunk = stored.row_groups[r].columns[c];
      ColumnCryptoMetaData crypto;
      crypto.kind = encryption->with_footer_key ? ColumnCryptoMetaData::Kind::kFooterKey
                                                : ColumnCryptoMetaData::Kind::kColumnKey;
      if (!encryption->with_footer_key) {
        crypto.path_in_schema = encryption->path;
        crypto.key_metadata = encryption->key_metadata;
      }
      chunk.crypto_metadata = std::move(crypto);
      if (encryption->with_footer_key && !plaintext_footer) continue;
      plain.clear();
      SerializeColumnMetaData(*chunk.meta_data, &plain);
      module.Clear();
      STRATA_RETURN_NOT_OK(encryptor_->Encrypt(
          encryption::ModuleType::kColumnMetaData, encryption->key, static_cast<int64_t>(r), static_cast<int64_t>(c), 0,
          {reinterpret_cast<const uint8_t*>(plain.data()), plain.size()}, &module));
      chunk.encrypted_column_metadata = std::string(reinterpret_cast<const char*>(module.data()),
                                                    static_cast<size_t>(module.size()));
      if (plaintext_footer) {
        chunk.meta_data->statistics.reset();
        chunk.meta_data->size_statistics.reset();
        chunk.meta_data->geospatial_statistics.reset();
        chunk.meta_data->encoding_stats.reset();
      } else {
        chunk.meta_data.reset();
      }
    }
  }
  const EncryptionAlgorithm algorithm = AlgorithmOf(encryptor_->parameters());
  const std::optional<std::string>& key_metadata = encryptor_->parameters().footer_key_metadata;
  if (plaintext_footer) {
    stored.encryption_algorithm = algorithm;
    stored.footer_signing_key_metadata = key_metadata;
    SerializeFileMetaData(stored, footer);
    std::string signature;
    STRATA_RETURN_NOT_OK(encryptor_->SignFooter(
        {reinterpret_cast<const uint8_t*>(footer->data()), footer->size()}, pool_, &signature));
    footer->append(signature);
    *magic = kParquetMagic;
    return Status::OK();
  }
  // FileCryptoMetaData, then the footer's module.
  FileCryptoMetaData crypto;
  crypto.encryption_algorithm = algorithm;
  crypto.key_metadata = key_metadata;
  SerializeFileCryptoMetaData(crypto, footer);
  plain.clear();
  SerializeFileMetaData(stored, &plain);
  module.Clear();
  STRATA_RETURN_NOT_OK(encryptor_->Encrypt(encryption::ModuleType::kFooter, encryptor_->footer_key(), 0, 0, 0,
                                           {reinterpret_cast<const uint8_t*>(plain.data()), plain.size()}, &module));
  footer->append(reinterpret_cast<const char*>(module.data()), static_cast<size_t>(module.size()));
  *magic = kParquetEncryptedMagic;
  return Status::OK();
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
