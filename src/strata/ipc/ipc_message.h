// IpcMessage: one encapsulated IPC message as read from a stream or file: its verified
// FlatBuffers metadata (Message table, header) and its body. Parsing checks the metadata
// version, the header type and the body length against the limits before the body is read.
// Internal to the ipc layer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/ipc/flatbuffer_format.h"
#include "strata/ipc/flatbuffer_reader.h"
#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::ipc {

struct IpcMessage {
  IpcMessage() = default;
  IpcMessage(const IpcMessage&) = delete;
  IpcMessage& operator=(const IpcMessage&) = delete;

  std::string label;                            // "Arrow IPC <input>": errors start with it
  int64_t offset = 0;                           // where the message starts in the input
  std::shared_ptr<ResizableBuffer> metadata;    // the flatbuffer, 8-aligned
  std::unique_ptr<format::FlatbufferReader> reader;
  int16_t version = 0;                          // MetadataVersion (V4 = 3, V5 = 4)
  uint8_t header_type = 0;
  const format::fb::Table* header = nullptr;
  int64_t body_length = 0;
  std::shared_ptr<Buffer> body;
};

// The continuation marker and the metadata length at the start of a message: `prefix` holds
// 8 bytes (or 4 for writers before Arrow 0.15, which wrote the length alone: then *prefix_size
// is 4). Returns the metadata length; 0 is the end-of-stream marker.
Result<int32_t> ParseMessagePrefix(const uint8_t* prefix, int64_t available, int* prefix_size);

// Parses `metadata` (the flatbuffer after the prefix, read from byte `metadata_offset` of
// `input_name`). Checks the version (V4, V5), the header (Schema, DictionaryBatch or
// RecordBatch) and 0 <= bodyLength <= max_body_bytes.
Result<std::unique_ptr<IpcMessage>> ParseMessage(std::shared_ptr<ResizableBuffer> metadata, int64_t message_offset,
                                                 int64_t metadata_offset, const std::string& input_name,
                                                 int64_t max_body_bytes);

}  // namespace strata::ipc
