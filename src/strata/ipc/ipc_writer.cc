#include "strata/ipc/ipc_writer.h"

#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "strata/array/compare.h"
#include "strata/ipc/body_builder.h"
#include "strata/ipc/schema_table.h"

namespace strata::ipc {
namespace {

using namespace format;  // NOLINT: the format's names

// Messages start, and bodies start, at multiples of 64 bytes of the output.
constexpr int64_t kMessageAlignment = 64;

class IpcWriterImpl final : public IpcWriter {
 public:
  IpcWriterImpl(std::unique_ptr<OutputSink> sink, IpcFormat format, SchemaPtr schema, const IpcWriteOptions& options,
                MemoryPool* pool)
      : sink_(std::move(sink)), format_(format), schema_(std::move(schema)), options_(options), pool_(pool) {}

  ~IpcWriterImpl() override {
    if (!closed_) sink_->Abort();
  }

  Status Start() {
    if (options_.compression != IpcCompression::kNone) {
      STRATA_ASSIGN_OR_RETURN(codec_, BodyCodec::Make(options_.compression, options_.compression_level, pool_));
    }
    body_ = std::make_unique<BodyBuilder>(codec_.get(), pool_);
    body_->set_big_endian(options_.big_endian);
    if (format_ == IpcFormat::kFile) {
      const char magic[8] = {'A', 'R', 'R', 'O', 'W', '1', 0, 0};
      STRATA_RETURN_NOT_OK(Emit(magic, 8));
    }
    fbb_.Clear();
    STRATA_ASSIGN_OR_RETURN(auto schema_table, AddSchemaTable(fbb_, *schema_, &ids_, options_.big_endian));
    return WriteMessage(kMessageHeaderSchema, schema_table, /*with_body=*/false, nullptr);
  }

  Status Write(const RecordBatch& batch) override {
    if (failed_) return Status::Invalid("IPC writer for {}: an earlier write failed", sink_->name());
    if (closed_) return Status::Invalid("IPC writer for {}: Write after Close", sink_->name());
    Status status = WriteBatch(batch);
    if (!status.ok()) Fail();
    return status;
  }

  Status Close() override {
    if (failed_) return Status::Invalid("IPC writer for {}: an earlier write failed; nothing was written", sink_->name());
    if (closed_) return Status::OK();
    Status status = Finish();
    if (!status.ok()) {
      Fail();
      return status;
    }
    closed_ = true;
    return Status::OK();
  }

  const IpcWriteStats& stats() const override { return stats_; }

 private:
  void Fail() {
    if (!closed_) sink_->Abort();
    closed_ = true;
    failed_ = true;
  }

  Status Emit(const void* data, int64_t size) {
    STRATA_RETURN_NOT_OK(sink_->Write(data, size));
    position_ += size;
    stats_.bytes_written = position_;
    return Status::OK();
  }

  // Writes fbb_'s header as a message, then body_ when `with_body`; records the block.
  Status WriteMessage(uint8_t header_type, fb::Offset<void> header, bool with_body, std::vector<Block>* blocks) {
    const int64_t body_length = with_body ? body_->body_length() : 0;
    const int64_t start = position_;
    STRATA_ASSIGN_OR_RETURN(std::string metadata,
                            FinishMessage(fbb_, header_type, header, body_length, kMessageAlignment, start));
    STRATA_RETURN_NOT_OK(Emit(metadata.data(), static_cast<int64_t>(metadata.size())));
    if (with_body) {
      STRATA_RETURN_NOT_OK(body_->WriteTo(sink_.get()));
      position_ += body_length;
      stats_.bytes_written = position_;
      stats_.body_bytes_uncompressed += body_->uncompressed_bytes();
      stats_.body_bytes_written += body_->stored_bytes();
    }
    if (blocks != nullptr) {
      blocks->push_back(Block{start, static_cast<int32_t>(metadata.size()), 0, body_length});
    }
    return Status::OK();
  }

  Status WriteBatch(const RecordBatch& batch) {
    if (batch.num_columns() != schema_->num_fields()) {
      return Status::Invalid("IPC writer for {}: a batch of {} columns for a schema of {}", sink_->name(),
                             batch.num_columns(), schema_->num_fields());
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      const Field& field = *schema_->field(i);
      if (!batch.column(i).data()->type->Equals(*field.type())) {
        return Status::Invalid("IPC writer for {}: column '{}' is {}, the schema says {}", sink_->name(), field.name(),
                               batch.column(i).data()->type->ToString(), field.type()->ToString());
      }
    }
    for (int i = 0; i < batch.num_columns(); ++i) {
      STRATA_RETURN_NOT_OK(WriteDictionaries(*schema_->field(i), *batch.column(i).data(), schema_->field(i)->name()));
    }
    body_->Reset();
    for (int i = 0; i < batch.num_columns(); ++i) {
      STRATA_RETURN_NOT_OK(body_->AddArray(*batch.column(i).data(), schema_->field(i)->name()));
    }
    fbb_.Clear();
    const fb::Offset<void> table = body_->AddRecordBatchTable(fbb_, batch.num_rows());
    STRATA_RETURN_NOT_OK(WriteMessage(kMessageHeaderRecordBatch, table, true, &record_blocks_));
    ++stats_.record_batches;
    return Status::OK();
  }

  // Writes the dictionaries under `field` (inner ones first: an outer dictionary's values may
  // need them) that are new or changed since the last batch.
  Status WriteDictionaries(const Field& field, const ArrayData& data, const std::string& path) {
    const DataType& type = *field.type();
    if (type.id() == TypeId::kDictionary) {
      if (data.dictionary == nullptr) return Status::Invalid("column '{}': a dictionary array without values", path);
      const ArrayData& values = *data.dictionary;
      for (int i = 0; i < type.value_type()->num_fields(); ++i) {
        const FieldPtr& child = type.value_type()->fields()[static_cast<size_t>(i)];
        STRATA_RETURN_NOT_OK(WriteDictionaries(*child, *values.children[static_cast<size_t>(i)], path + "." + child->name()));
      }
      return WriteDictionary(ids_.at(&field), data.dictionary, path);
    }
    for (int i = 0; i < type.num_fields(); ++i) {
      const FieldPtr& child = type.fields()[static_cast<size_t>(i)];
      STRATA_RETURN_NOT_OK(WriteDictionaries(*child, *data.children[static_cast<size_t>(i)], path + "." + child->name()));
    }
    return Status::OK();
  }

  Status WriteDictionary(int64_t id, const ArrayDataPtr& values, const std::string& path) {
    auto [entry, inserted] = written_.try_emplace(id, nullptr);
    const ArrayDataPtr previous = entry->second;
    ArrayDataPtr to_write = values;
    bool delta = false;
    if (previous != nullptr) {
      if (previous == values) return Status::OK();
      const bool extends = values->length >= previous->length &&
                           ArrayRangeEquals(*previous, 0, *values, 0, previous->length);
      if (extends && values->length == previous->length) {
        entry->second = values;
        return Status::OK();
      }
      if (extends && options_.emit_dictionary_deltas) {
        to_write = values->Slice(previous->length, values->length - previous->length);
        delta = true;
      } else if (format_ == IpcFormat::kFile) {
        return Status::Invalid("IPC writer for {}: column '{}' changes its dictionary, which the file format cannot "
                               "express{} (write the stream format, or unify the dictionaries)",
                               sink_->name(), path, options_.emit_dictionary_deltas ? "" : " without deltas");
      }
    }
    entry->second = values;
    body_->Reset();
    STRATA_RETURN_NOT_OK(body_->AddArray(*to_write, path + " (dictionary)"));
    fbb_.Clear();
    const fb::Offset<void> data = body_->AddRecordBatchTable(fbb_, to_write->length);
    const fb::uoffset_t start = fbb_.StartTable();
    fbb_.AddElement<int64_t>(kDictionaryBatchId, id, -1);
    fbb_.AddOffset(kDictionaryBatchData, data);
    fbb_.AddElement<uint8_t>(kDictionaryBatchIsDelta, delta ? 1 : 0, 0);
    const fb::Offset<void> header(fbb_.EndTable(start));
    STRATA_RETURN_NOT_OK(WriteMessage(kMessageHeaderDictionaryBatch, header, true, &dictionary_blocks_));
    ++stats_.dictionary_batches;
    if (delta) ++stats_.dictionary_deltas;
    return Status::OK();
  }

  Status Finish() {
    // The end-of-stream marker (files carry it too, for readers that read them as streams).
    const uint32_t eos[2] = {kContinuationMarker, 0};
    STRATA_RETURN_NOT_OK(Emit(eos, 8));
    if (format_ == IpcFormat::kFile) {
      fbb_.Clear();
      STRATA_ASSIGN_OR_RETURN(auto schema_table, AddSchemaTable(fbb_, *schema_, nullptr, options_.big_endian));
      const auto dictionaries = fbb_.CreateVectorOfStructs(dictionary_blocks_.data(), dictionary_blocks_.size());
      const auto batches = fbb_.CreateVectorOfStructs(record_blocks_.data(), record_blocks_.size());
      const fb::Offset<void> metadata = AddKeyValues(fbb_, options_.footer_metadata);
      const fb::uoffset_t start = fbb_.StartTable();
      fbb_.AddElement<int16_t>(kFooterVersion, kMetadataV5, -1);
      fbb_.AddOffset(kFooterSchema, schema_table);
      fbb_.AddOffset(kFooterDictionaries, dictionaries);
      fbb_.AddOffset(kFooterRecordBatches, batches);
      fbb_.AddOffset(kFooterCustomMetadata, metadata);
      fbb_.Finish(fb::Offset<void>(fbb_.EndTable(start)));
      const int64_t footer_size = fbb_.GetSize();
      if (footer_size > INT32_MAX) {
        return Status::LimitExceeded("IPC writer for {}: a footer of {} bytes", sink_->name(), footer_size);
      }
      STRATA_RETURN_NOT_OK(Emit(fbb_.GetBufferPointer(), footer_size));
      const int32_t length = static_cast<int32_t>(footer_size);
      STRATA_RETURN_NOT_OK(Emit(&length, 4));
      STRATA_RETURN_NOT_OK(Emit(kFileMagic.data(), 6));
    }
    return sink_->Close();
  }

  std::unique_ptr<OutputSink> sink_;
  IpcFormat format_;
  SchemaPtr schema_;
  IpcWriteOptions options_;
  MemoryPool* pool_;
  std::unique_ptr<BodyCodec> codec_;
  std::unique_ptr<BodyBuilder> body_;
  fb::FlatBufferBuilder fbb_{1024};
  DictionaryIds ids_;
  std::unordered_map<int64_t, ArrayDataPtr> written_;  // the dictionaries readers hold now
  std::vector<Block> dictionary_blocks_;
  std::vector<Block> record_blocks_;
  int64_t position_ = 0;
  IpcWriteStats stats_;
  bool closed_ = false;
  bool failed_ = false;
};

}  // namespace

Result<std::unique_ptr<IpcWriter>> IpcWriter::Open(std::unique_ptr<OutputSink> sink, IpcFormat format,
                                                   SchemaPtr schema, const IpcWriteOptions& options,
                                                   MemoryPool* pool) {
  if (sink == nullptr || schema == nullptr) return Status::Invalid("IpcWriter::Open: no sink or no schema");
  STRATA_RETURN_NOT_OK(options.Validate());
  auto writer = std::make_unique<IpcWriterImpl>(std::move(sink), format, std::move(schema), options, pool);
  STRATA_RETURN_NOT_OK(writer->Start());
  return std::unique_ptr<IpcWriter>(std::move(writer));
}

Result<IpcFormat> IpcFormatFromPath(std::string_view path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.substr(path.size() - suffix.size()) == suffix;
  };
  if (ends_with(".arrow") || ends_with(".feather") || ends_with(".ipc")) return IpcFormat::kFile;
  if (ends_with(".arrows")) return IpcFormat::kStream;
  return Status::Invalid("'{}' does not name an Arrow IPC file (.arrow, .feather, .ipc) or stream (.arrows)", path);
}

}  // namespace strata::ipc
