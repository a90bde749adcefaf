#include "strata/dataset/ipc_batch_source.h"

#include <cstdio>
#include <vector>

#include "strata/io/input_stream.h"
#include "strata/ipc/ipc_reader.h"
#include "strata/io/location.h"
#include "strata/io/source_input_stream.h"

namespace strata::dataset {
namespace {

class IpcBatchSource final : public BatchSource {
 public:
  static Result<std::unique_ptr<BatchSource>> Open(const std::string& path, bool stream, const BatchSourceOptions& options,
                                                   MemoryPool* pool) {
    auto out = std::make_unique<IpcBatchSource>();
    ipc::IpcReadOptions read;
    SchemaPtr schema;
    if (!stream && path != "-") {
      read.memory_map = true;
      StorageOptions storage;
      storage.local.memory_map = true;  // local files; remote ones are read in ranges
      STRATA_ASSIGN_OR_RETURN(out->source_, OpenInputLocation(path, storage));
      STRATA_ASSIGN_OR_RETURN(out->size_, out->source_->Size());
      uint8_t magic[6] = {};
      if (out->size_ >= 6) STRATA_RETURN_NOT_OK(out->source_->ReadAt(0, 6, magic));
      stream = !ipc::HasIpcFileMagic({reinterpret_cast<const char*>(magic), 6});
      if (!stream) {
        STRATA_ASSIGN_OR_RETURN(out->file_, ipc::IpcFileReader::Open(out->source_, read, pool));
        schema = out->file_->schema();
      }
    }
    if (stream) {
      std::unique_ptr<InputStream> input;
      if (IsRemoteLocation(path)) {
        if (out->source_ == nullptr) {
          STRATA_ASSIGN_OR_RETURN(out->source_, OpenInputLocation(path));
        }
        STRATA_ASSIGN_OR_RETURN(input, MakeSourceInputStream(out->source_, pool));
      } else {
        STRATA_ASSIGN_OR_RETURN(input, OpenFileInputStream(path));  // "-": stdin
      }
      out->stream_input_ = input.get();
      STRATA_ASSIGN_OR_RETURN(out->stream_, ipc::IpcStreamReader::Open(std::move(input), read, pool));
      schema = out->stream_->schema();
    }
    out->full_schema_ = schema;
    if (options.columns.empty()) {
      out->schema_ = schema;
    } else {
      std::vector<FieldPtr> fields;
      for (const auto& name : options.columns) {
        const int index = schema->GetFieldIndex(name);
        if (index < 0) return Status::Invalid("'{}' has no top-level column '{}'", path, name);
        out->projection_.push_back(index);
        fields.push_back(schema->field(index));
      }
      out->schema_ = std::make_shared<Schema>(std::move(fields), schema->metadata());
    }
    return std::unique_ptr<BatchSource>(std::move(out));
  }

  const SchemaPtr& schema() const override { return schema_; }

  Result<std::shared_ptr<RecordBatch>> Next() override {
    std::shared_ptr<RecordBatch> batch;
    if (file_ != nullptr) {
      if (next_ >= file_->num_record_batches()) return batch;
      STRATA_ASSIGN_OR_RETURN(batch, file_->ReadRecordBatch(next_++));
      bytes_read_ = file_->stats().bytes_read;
    } else {
      STRATA_ASSIGN_OR_RETURN(batch, stream_->Next());
      bytes_read_ = stream_->stats().bytes_read;
    }
    if (batch == nullptr || projection_.empty()) return batch;
    std::vector<Array> columns;
    columns.reserve(projection_.size());
    for (int index : projection_) columns.push_back(batch->column(index));
    return std::make_shared<RecordBatch>(schema_, batch->num_rows(), std::move(columns));
  }

  int64_t raw_bytes_read() const override { return bytes_read_; }
  int64_t raw_size() const override { return file_ != nullptr ? size_ : stream_input_->raw_size(); }
  std::string format_name() const override { return file_ != nullptr ? "arrow" : "arrows"; }

 private:
  std::shared_ptr<RandomAccessSource> source_;
  std::unique_ptr<ipc::IpcFileReader> file_;
  std::unique_ptr<ipc::IpcStreamReader> stream_;
  InputStream* stream_input_ = nullptr;  // owned by stream_
  SchemaPtr full_schema_;
  SchemaPtr schema_;
  std::vector<int> projection_;
  int next_ = 0;
  int64_t size_ = -1;
  int64_t bytes_read_ = 0;
};

}  // namespace

Result<std::unique_ptr<BatchSource>> OpenIpcBatchSource(const std::string& path, bool stream,
                                                        const BatchSourceOptions& options, MemoryPool* pool) {
  return IpcBatchSource::Open(path, stream, options, pool);
}

}  // namespace strata::dataset
