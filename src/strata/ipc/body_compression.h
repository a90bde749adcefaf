// BodyCodec: compresses and decompresses one record batch body buffer the way Arrow IPC
// stores it (Message.fbs, BodyCompression): LZ4 in the frame format, or ZSTD. The caller adds
// the 8-byte uncompressed-length prefix. Not thread-safe: one per writer or reader.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "strata/ipc/ipc_options.h"
#include "strata/memory/buffer.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::ipc {

class BodyCodec {
 public:
  // `compression` must not be kNone.
  static Result<std::unique_ptr<BodyCodec>> Make(IpcCompression compression, int level, MemoryPool* pool);
  virtual ~BodyCodec() = default;

  IpcCompression compression() const { return compression_; }
  // Replaces `output`'s contents with the compressed form of `input` (its capacity is kept
  // for the next buffer).
  virtual Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) = 0;
  // Decompresses `input` into exactly output.size() bytes; anything else (shorter, longer,
  // malformed) is Corrupt.
  virtual Status Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) = 0;

 protected:
  explicit BodyCodec(IpcCompression compression) : compression_(compression) {}

 private:
  IpcCompression compression_;
};

}  // namespace strata::ipc
