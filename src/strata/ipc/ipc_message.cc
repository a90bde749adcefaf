#include "strata/ipc/ipc_message.h"

#include <cstring>

namespace strata::ipc {

using namespace format;  // NOLINT: the format's names

Result<int32_t> ParseMessagePrefix(const uint8_t* prefix, int64_t available, int* prefix_size) {
  uint32_t first = 0;
  std::memcpy(&first, prefix, 4);
  int32_t length = 0;
  if (first == kContinuationMarker) {
    if (available < 8) return Status::Corrupt("the message prefix is cut after the continuation marker");
    std::memcpy(&length, prefix + 4, 4);
    *prefix_size = 8;
  } else {
    std::memcpy(&length, prefix, 4);
    *prefix_size = 4;
  }
  if (length < 0) return Status::Corrupt("negative metadata length {}", length);
  return length;
}

Result<std::unique_ptr<IpcMessage>> ParseMessage(std::shared_ptr<ResizableBuffer> metadata, int64_t message_offset,
                                                 int64_t metadata_offset, const std::string& input_name,
                                                 int64_t max_body_bytes) {
  auto message = std::make_unique<IpcMessage>();
  message->label = "Arrow IPC " + input_name;
  message->offset = message_offset;
  message->metadata = std::move(metadata);
  message->reader = std::make_unique<FlatbufferReader>(message->metadata->data(),
                                                       static_cast<size_t>(message->metadata->size()),
                                                       static_cast<size_t>(metadata_offset), message->label);
  FlatbufferReader& reader = *message->reader;
  const std::string& label = message->label;
  STRATA_ASSIGN_OR_RETURN(const fb::Table* root, reader.Root());
  STRATA_ASSIGN_OR_RETURN(int16_t version, reader.Scalar<int16_t>(root, kMessageVersion, 0, "Message.version"));
  if (version != kMetadataV4 && version != kMetadataV5) {
    return Status::NotImplemented("{}: the message at byte {} has metadata version V{} (V4 and V5 are read)", label,
                                  message_offset, static_cast<int>(version) + 1);
  }
  message->version = version;
  STRATA_ASSIGN_OR_RETURN(message->header_type,
                          reader.Scalar<uint8_t>(root, kMessageHeaderType, 0, "Message.header_type"));
  if (message->header_type != kMessageHeaderSchema && message->header_type != kMessageHeaderDictionaryBatch &&
      message->header_type != kMessageHeaderRecordBatch) {
    if (message->header_type == 4 || message->header_type == 5) {
      return Status::NotImplemented("{}: the message at byte {} is a tensor, which strata does not read", label,
                                    message_offset);
    }
    return Status::Corrupt("{}: the message at byte {} has header type {}", label, message_offset,
                           message->header_type);
  }
  STRATA_ASSIGN_OR_RETURN(message->header, reader.Table(root, kMessageHeader, "Message.header"));
  if (message->header == nullptr) {
    return Status::Corrupt("{}: the message at byte {} has no header", label, message_offset);
  }
  STRATA_ASSIGN_OR_RETURN(message->body_length,
                          reader.Scalar<int64_t>(root, kMessageBodyLength, 0, "Message.bodyLength"));
  if (message->body_length < 0 || message->body_length > max_body_bytes) {
    return Status::Corrupt("{}: the message at byte {} claims a body of {} bytes (at most {} accepted)", label,
                           message_offset, message->body_length, max_body_bytes);
  }
  if (message->header_type == kMessageHeaderSchema && message->body_length != 0) {
    return Status::Corrupt("{}: the schema message at byte {} has a body of {} bytes", label, message_offset,
                           message->body_length);
  }
  return message;
}

}  // namespace strata::ipc
