#include "strata/ipc/ipc_reader.h"

#include "strata/io/location.h"

#include <cstring>
#include <vector>

#include "strata/array/concatenate.h"
#include "strata/array/validate.h"
#include "strata/ipc/array_loader.h"
#include "strata/ipc/ipc_message.h"
#include "strata/ipc/schema_table.h"

namespace strata::ipc {
namespace {

using namespace format;  // NOLINT: the format's names

// Bodies and metadata up to this size are allocated at once; larger claims grow with the bytes
// that actually arrive, so a hostile length in a stream cannot allocate more than twice the
// input.
constexpr int64_t kTrustedAllocation = int64_t{64} << 20;

// What both readers share: the schema with its dictionary ids, the dictionaries read so far,
// the codecs, and turning a RecordBatch or DictionaryBatch message into arrays.
class BatchDecoder {
 public:
  BatchDecoder(const IpcReadOptions& options, MemoryPool* pool) : options_(options), pool_(pool) {}

  Status SetSchema(const IpcMessage& message, const fb::Table* schema_table) {
    auto schema = ParseSchemaTable(*message.reader, schema_table, &ids_, &big_endian_);
    if (!schema.ok()) {
      // The schema parser names the field; this names the input.
      return Status(schema.status().code(), fmt::format("{}: {}", message.label, schema.status().message()));
    }
    schema_ = std::move(*schema);
    for (const auto& [field, id] : ids_) {
      if (!value_fields_.try_emplace(id, field).second) {
        // Fields may share a dictionary (the same id) only with the same value type.
        if (!value_fields_.at(id)->type()->value_type()->Equals(*field->type()->value_type())) {
          return Status::Corrupt("{}: dictionary id {} is given to fields of different value types", message.label, id);
        }
      }
    }
    return Status::OK();
  }

  const SchemaPtr& schema() const { return schema_; }

  // Applies a DictionaryBatch message; `allow_replacement` is false for the file format.
  Status ApplyDictionary(const IpcMessage& message, bool allow_replacement, IpcReadStats* stats) {
    FlatbufferReader& reader = *message.reader;
    STRATA_ASSIGN_OR_RETURN(int64_t id, reader.Scalar<int64_t>(message.header, kDictionaryBatchId, 0, "DictionaryBatch.id"));
    STRATA_ASSIGN_OR_RETURN(uint8_t is_delta,
                            reader.Scalar<uint8_t>(message.header, kDictionaryBatchIsDelta, 0, "DictionaryBatch.isDelta"));
    STRATA_ASSIGN_OR_RETURN(const fb::Table* data, reader.Table(message.header, kDictionaryBatchData, "DictionaryBatch.data"));
    if (data == nullptr) return Status::Corrupt("{}: the dictionary batch at byte {} has no data", message.label, message.offset);
    const auto field = value_fields_.find(id);
    if (field == value_fields_.end()) {
      return Status::Corrupt("{}: the dictionary batch at byte {} has id {}, which no field of the schema uses",
                             message.label, message.offset, id);
    }
    STRATA_ASSIGN_OR_RETURN(RecordBatchTable batch, ParseRecordBatchTable(message, data));
    STRATA_ASSIGN_OR_RETURN(BodyCodec * codec, CodecFor(batch.compression));
    const Field values_field("dictionary " + std::to_string(id), field->second->type()->value_type(), true);
    ArrayLoader loader(message, batch, codec, ids_, dictionaries_, pool_, big_endian_);
    STRATA_ASSIGN_OR_RETURN(ArrayDataPtr values, loader.Load(values_field));
    if (values->length != batch.length) {
      return Status::Corrupt("{}: the dictionary batch at byte {} has length {} but {} values", message.label,
                             message.offset, batch.length, values->length);
    }
    STRATA_RETURN_NOT_OK(Validate(*values, message, values_field.name()));
    auto [entry, inserted] = dictionaries_.try_emplace(id, nullptr);
    if (is_delta) {
      if (inserted) {
        return Status::Corrupt("{}: the dictionary batch at byte {} is a delta of dictionary {}, not read before",
                               message.label, message.offset, id);
      }
      STRATA_ASSIGN_OR_RETURN(entry->second, Concatenate(*entry->second, *values, pool_));
      ++stats->dictionary_deltas;
    } else {
      if (!inserted && !allow_replacement) {
        return Status::Corrupt("{}: the dictionary batch at byte {} replaces dictionary {}, which the file format "
                               "does not allow",
                               message.label, message.offset, id);
      }
      entry->second = std::move(values);
    }
    ++stats->dictionary_batches;
    return Status::OK();
  }

  Result<std::shared_ptr<RecordBatch>> DecodeRecordBatch(const IpcMessage& message, IpcReadStats* stats) {
    STRATA_ASSIGN_OR_RETURN(RecordBatchTable batch, ParseRecordBatchTable(message, message.header));
    STRATA_ASSIGN_OR_RETURN(BodyCodec * codec, CodecFor(batch.compression));
    ArrayLoader loader(message, batch, codec, ids_, dictionaries_, pool_, big_endian_);
    std::vector<Array> columns;
    columns.reserve(static_cast<size_t>(schema_->num_fields()));
    for (const FieldPtr& field : schema_->fields()) {
      STRATA_ASSIGN_OR_RETURN(ArrayDataPtr data, loader.Load(*field));
      if (data->length != batch.length) {
        return Status::Corrupt("{}: record batch at byte {}: column '{}' has {} values, the batch {} rows",
                               message.label, message.offset, field->name(), data->length, batch.length);
      }
      STRATA_RETURN_NOT_OK(Validate(*data, message, field->name()));
      columns.emplace_back(std::move(data));
    }
    ++stats->record_batches;
    return std::make_shared<RecordBatch>(schema_, batch.length, std::move(columns));
  }

 private:
  Status Validate(const ArrayData& data, const IpcMessage& message, const std::string& column) {
    ValidateOptions validate;
    validate.check_utf8 = options_.validate_utf8;
    Status status = ValidateFull(data, validate);
    if (!status.ok()) {
      return Status::Corrupt("{}: batch at byte {}, column '{}': {}", message.label, message.offset, column,
                             status.message());
    }
    return Status::OK();
  }

  Result<BodyCodec*> CodecFor(const std::optional<IpcCompression>& compression) {
    if (!compression) return static_cast<BodyCodec*>(nullptr);
    auto& codec = *compression == IpcCompression::kZstd ? zstd_ : lz4_;
    if (codec == nullptr) {
      STRATA_ASSIGN_OR_RETURN(codec, BodyCodec::Make(*compression, std::numeric_limits<int>::min(), pool_));
    }
    return codec.get();
  }

  IpcReadOptions options_;
  MemoryPool* pool_;
  SchemaPtr schema_;
  bool big_endian_ = false;  // the schema says the bodies are big-endian: swapped on load
  DictionaryIds ids_;
  std::unordered_map<int64_t, const Field*> value_fields_;  // a dictionary field per id
  DictionaryMemo dictionaries_;
  std::unique_ptr<BodyCodec> lz4_, zstd_;
};

// ---------------------------------------------------------------------------------------------
// The stream format.

class StreamReaderImpl final : public IpcStreamReader {
 public:
  StreamReaderImpl(std::unique_ptr<InputStream> input, const IpcReadOptions& options, MemoryPool* pool)
      : input_(std::move(input)), options_(options), pool_(pool), decoder_(options, pool) {}

  Status Start() {
    STRATA_ASSIGN_OR_RETURN(auto message, ReadMessage());
    if (message == nullptr) return Status::Corrupt("Arrow IPC {}: the stream holds no schema message", input_->name());
    if (message->header_type != kMessageHeaderSchema) {
      return Status::Corrupt("Arrow IPC {}: the stream starts with a message of type {}, not a schema",
                             input_->name(), message->header_type);
    }
    return decoder_.SetSchema(*message, message->header);
  }

  const SchemaPtr& schema() const override { return decoder_.schema(); }
  const IpcReadStats& stats() const override { return stats_; }

  Result<std::shared_ptr<RecordBatch>> Next() override {
    while (!finished_) {
      STRATA_ASSIGN_OR_RETURN(auto message, ReadMessage());
      if (message == nullptr) break;
      switch (message->header_type) {
        case kMessageHeaderDictionaryBatch:
          STRATA_RETURN_NOT_OK(decoder_.ApplyDictionary(*message, /*allow_replacement=*/true, &stats_));
          break;
        case kMessageHeaderRecordBatch:
          return decoder_.DecodeRecordBatch(*message, &stats_);
        default:
          return Status::Corrupt("{}: a second schema message at byte {}", message->label, message->offset);
      }
    }
    finished_ = true;
    return std::shared_ptr<RecordBatch>();
  }

 private:
  // Fills `out` up to its size; returns how many bytes came (fewer only at the end).
  Result<int64_t> ReadFully(uint8_t* out, int64_t size) {
    int64_t done = 0;
    while (done < size) {
      STRATA_ASSIGN_OR_RETURN(int64_t n, input_->Read({out + done, static_cast<size_t>(size - done)}));
      if (n == 0) break;
      done += n;
    }
    position_ += done;
    stats_.bytes_read = position_;
    return done;
  }

  // `size` bytes into a new buffer; claims beyond kTrustedAllocation grow with the input.
  Result<std::shared_ptr<ResizableBuffer>> ReadBytes(int64_t size, const char* what, int64_t message_offset) {
    STRATA_ASSIGN_OR_RETURN(auto buffer, ResizableBuffer::Make(pool_));
    int64_t done = 0;
    while (done < size) {
      const int64_t target = std::min(size, std::max(kTrustedAllocation, 2 * done));
      STRATA_RETURN_NOT_OK(buffer->Reserve(target));
      STRATA_RETURN_NOT_OK(buffer->Resize(target));
      STRATA_ASSIGN_OR_RETURN(int64_t n, ReadFully(buffer->mutable_data() + done, target - done));
      done += n;
      if (done < target) {
        return Status::Corrupt("Arrow IPC {}: the message at byte {} is cut: its {} needs {} bytes, {} remain",
                               input_->name(), message_offset, what, size, done);
      }
    }
    return buffer;
  }

  // The next message with its body, or nullptr at the end-of-stream marker or the input's end.
  Result<std::unique_ptr<IpcMessage>> ReadMessage() {
    const int64_t start = position_;
    uint8_t prefix[8];
    STRATA_ASSIGN_OR_RETURN(int64_t got, ReadFully(prefix, 4));
    if (got == 0) return std::unique_ptr<IpcMessage>();  // the end, without a marker
    if (got < 4) return Status::Corrupt("Arrow IPC {}: {} stray bytes at byte {}", input_->name(), got, start);
    int prefix_size = 8;
    uint32_t first = 0;
    std::memcpy(&first, prefix, 4);
    int64_t available = 4;
    if (first == kContinuationMarker) {
      STRATA_ASSIGN_OR_RETURN(got, ReadFully(prefix + 4, 4));
      available += got;
    }
    auto length = ParseMessagePrefix(prefix, available, &prefix_size);
    if (!length.ok()) return Status::Corrupt("Arrow IPC {}: at byte {}: {}", input_->name(), start, length.status().message());
    if (*length == 0) {
      finished_ = true;
      return std::unique_ptr<IpcMessage>();
    }
    if (*length > options_.max_message_bytes) {
      return Status::Corrupt("Arrow IPC {}: the message at byte {} claims {} bytes of metadata", input_->name(), start,
                             *length);
    }
    STRATA_ASSIGN_OR_RETURN(auto metadata, ReadBytes(*length, "metadata", start));
    STRATA_ASSIGN_OR_RETURN(auto message, ParseMessage(std::move(metadata), start, start + prefix_size, input_->name(),
                                                       options_.max_message_bytes));
    STRATA_ASSIGN_OR_RETURN(auto body, ReadBytes(message->body_length, "body", start));
    message->body = std::move(body);
    ++stats_.messages;
    return message;
  }

  std::unique_ptr<InputStream> input_;
  IpcReadOptions options_;
  MemoryPool* pool_;
  BatchDecoder decoder_;
  IpcReadStats stats_;
  int64_t position_ = 0;
  bool finished_ = false;
};

// ---------------------------------------------------------------------------------------------
// The file format.

class FileReaderImpl final : public IpcFileReader {
 public:
  FileReaderImpl(std::shared_ptr<RandomAccessSource> source, const IpcReadOptions& options, MemoryPool* pool)
      : source_(std::move(source)), options_(options), pool_(pool), decoder_(options, pool) {}

  Status Start() {
    const std::string& name = source_->name();
    STRATA_ASSIGN_OR_RETURN(const int64_t size, source_->Size());
    // "ARROW1" + 2 bytes of padding, at least an end-of-stream or schema, the footer, its
    // int32 length, "ARROW1".
    if (size < 8 + 10) return Status::Corrupt("Arrow IPC {}: {} bytes are too few for an IPC file", name, size);
    uint8_t head[8], tail[10];
    STRATA_RETURN_NOT_OK(source_->ReadAt(0, 8, head));
    STRATA_RETURN_NOT_OK(source_->ReadAt(size - 10, 10, tail));
    if (std::memcmp(head, kFileMagic.data(), 6) != 0) {
      return Status::Corrupt("Arrow IPC {}: the file does not start with the magic ARROW1", name);
    }
    if (std::memcmp(tail + 4, kFileMagic.data(), 6) != 0) {
      return Status::Corrupt("Arrow IPC {}: the file does not end with the magic ARROW1 (truncated?)", name);
    }
    int32_t footer_length = 0;
    std::memcpy(&footer_length, tail, 4);
    footer_start_ = size - 10 - footer_length;
    if (footer_length <= 0 || footer_start_ < 8) {
      return Status::Corrupt("Arrow IPC {}: footer length {} at byte {} does not fit the {}-byte file", name,
                             footer_length, size - 10, size);
    }
    STRATA_ASSIGN_OR_RETURN(footer_bytes_, AllocateBuffer(pool_, footer_length));
    STRATA_RETURN_NOT_OK(source_->ReadAt(footer_start_, footer_length, footer_bytes_->mutable_data()));
    label_ = "Arrow IPC " + name;
    footer_reader_ = std::make_unique<FlatbufferReader>(footer_bytes_->data(), static_cast<size_t>(footer_length),
                                                        static_cast<size_t>(footer_start_), label_);
    FlatbufferReader& reader = *footer_reader_;
    STRATA_ASSIGN_OR_RETURN(const fb::Table* footer, reader.Root("Footer"));
    STRATA_ASSIGN_OR_RETURN(int16_t version, reader.Scalar<int16_t>(footer, kFooterVersion, 0, "Footer.version"));
    if (version != kMetadataV4 && version != kMetadataV5) {
      return Status::NotImplemented("{}: the footer at byte {} has metadata version V{} (V4 and V5 are read)", label_,
                                    footer_start_, static_cast<int>(version) + 1);
    }
    STRATA_ASSIGN_OR_RETURN(const fb::Table* schema, reader.Table(footer, kFooterSchema, "Footer.schema"));
    if (schema == nullptr) return Status::Corrupt("{}: the footer has no schema", label_);
    // The decoder parses the schema through a message-like view of the footer.
    footer_message_.label = label_;
    footer_message_.offset = footer_start_;
    footer_message_.reader = std::move(footer_reader_);
    STRATA_RETURN_NOT_OK(decoder_.SetSchema(footer_message_, schema));
    FlatbufferReader& footer_fields = *footer_message_.reader;
    STRATA_ASSIGN_OR_RETURN(dictionary_blocks_,
                            footer_fields.Structs<Block>(footer, kFooterDictionaries, "Footer.dictionaries"));
    STRATA_ASSIGN_OR_RETURN(record_blocks_,
                            footer_fields.Structs<Block>(footer, kFooterRecordBatches, "Footer.recordBatches"));
    STRATA_ASSIGN_OR_RETURN(footer_metadata_,
                            ParseKeyValues(footer_fields, footer, kFooterCustomMetadata, "Footer.custom_metadata"));
    if (record_blocks_.size() > static_cast<size_t>(INT32_MAX)) {
      return Status::Corrupt("{}: {} record batches", label_, record_blocks_.size());
    }
    return Status::OK();
  }

  const SchemaPtr& schema() const override { return decoder_.schema(); }
  int num_record_batches() const override { return static_cast<int>(record_blocks_.size()); }
  const KeyValueMetadata& footer_metadata() const override { return footer_metadata_; }
  const IpcReadStats& stats() const override { return stats_; }

  Result<std::shared_ptr<RecordBatch>> ReadRecordBatch(int i) override {
    if (i < 0 || i >= num_record_batches()) {
      return Status::Invalid("{}: record batch {} of {}", label_, i, num_record_batches());
    }
    if (!dictionaries_read_) {
      for (size_t d = 0; d < dictionary_blocks_.size(); ++d) {
        STRATA_ASSIGN_OR_RETURN(auto message, ReadBlock(dictionary_blocks_[d], "dictionary", static_cast<int64_t>(d)));
        if (message->header_type != kMessageHeaderDictionaryBatch) {
          return Status::Corrupt("{}: dictionary block {} at byte {} holds a message of type {}", label_, d,
                                 message->offset, message->header_type);
        }
        STRATA_RETURN_NOT_OK(decoder_.ApplyDictionary(*message, /*allow_replacement=*/false, &stats_));
      }
      dictionaries_read_ = true;
    }
    STRATA_ASSIGN_OR_RETURN(auto message, ReadBlock(record_blocks_[static_cast<size_t>(i)], "record batch", i));
    if (message->header_type != kMessageHeaderRecordBatch) {
      return Status::Corrupt("{}: record batch block {} at byte {} holds a message of type {}", label_, i,
                             message->offset, message->header_type);
    }
    return decoder_.DecodeRecordBatch(*message, &stats_);
  }

 private:
  Result<std::unique_ptr<IpcMessage>> ReadBlock(const Block& block, const char* what, int64_t index) {
    if (block.offset < 8 || block.metadata_length < 8 || block.body_length < 0 || block.offset > footer_start_ ||
        block.metadata_length > footer_start_ - block.offset ||
        block.body_length > footer_start_ - block.offset - block.metadata_length) {
      return Status::Corrupt("{}: {} block {} (offset {}, metadata {} bytes, body {} bytes) lies outside the data "
                             "before the footer at byte {}",
                             label_, what, index, block.offset, block.metadata_length, block.body_length,
                             footer_start_);
    }
    uint8_t prefix[8];
    STRATA_RETURN_NOT_OK(source_->ReadAt(block.offset, 8, prefix));
    int prefix_size = 8;
    auto length = ParseMessagePrefix(prefix, 8, &prefix_size);
    if (!length.ok()) return Status::Corrupt("{}: at byte {}: {}", label_, block.offset, length.status().message());
    if (*length == 0 || *length > block.metadata_length - prefix_size) {
      return Status::Corrupt("{}: the {} at byte {} has {} bytes of metadata; its block gives {}", label_, what,
                             block.offset, *length, block.metadata_length - prefix_size);
    }
    STRATA_ASSIGN_OR_RETURN(auto metadata, AllocateBuffer(pool_, *length));
    STRATA_RETURN_NOT_OK(source_->ReadAt(block.offset + prefix_size, *length, metadata->mutable_data()));
    STRATA_ASSIGN_OR_RETURN(auto message, ParseMessage(std::move(metadata), block.offset, block.offset + prefix_size,
                                                       source_->name(), block.body_length));
    STRATA_ASSIGN_OR_RETURN(message->body, source_->ReadBufferAt(block.offset + block.metadata_length,
                                                                 message->body_length, pool_));
    ++stats_.messages;
    stats_.bytes_read += block.metadata_length + message->body_length;
    return message;
  }

  std::shared_ptr<RandomAccessSource> source_;
  IpcReadOptions options_;
  MemoryPool* pool_;
  BatchDecoder decoder_;
  std::string label_;
  int64_t footer_start_ = 0;
  std::shared_ptr<ResizableBuffer> footer_bytes_;
  std::unique_ptr<FlatbufferReader> footer_reader_;
  IpcMessage footer_message_;
  std::vector<Block> dictionary_blocks_;
  std::vector<Block> record_blocks_;
  KeyValueMetadata footer_metadata_;
  bool dictionaries_read_ = false;
  IpcReadStats stats_;
};

}  // namespace

Result<std::unique_ptr<IpcStreamReader>> IpcStreamReader::Open(std::unique_ptr<InputStream> input,
                                                               const IpcReadOptions& options, MemoryPool* pool) {
  STRATA_RETURN_NOT_OK(options.Validate());
  auto reader = std::make_unique<StreamReaderImpl>(std::move(input), options, pool);
  STRATA_RETURN_NOT_OK(reader->Start());
  return std::unique_ptr<IpcStreamReader>(std::move(reader));
}

Result<std::unique_ptr<IpcFileReader>> IpcFileReader::Open(std::shared_ptr<RandomAccessSource> source,
                                                           const IpcReadOptions& options, MemoryPool* pool) {
  STRATA_RETURN_NOT_OK(options.Validate());
  auto reader = std::make_unique<FileReaderImpl>(std::move(source), options, pool);
  STRATA_RETURN_NOT_OK(reader->Start());
  return std::unique_ptr<IpcFileReader>(std::move(reader));
}

Result<std::unique_ptr<IpcFileReader>> IpcFileReader::Open(const std::string& path, const IpcReadOptions& options,
                                                           MemoryPool* pool) {
  StorageOptions storage;
  storage.local.memory_map = options.memory_map;
  STRATA_ASSIGN_OR_RETURN(auto source, OpenInputLocation(path, storage));
  return Open(std::move(source), options, pool);
}

bool HasIpcFileMagic(std::string_view prefix) { return prefix.size() >= 6 && prefix.substr(0, 6) == kFileMagic; }

}  // namespace strata::ipc
