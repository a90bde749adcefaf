// Options of the Arrow IPC writer and readers (file and stream formats).
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

#include "strata/types/field.h"
#include "strata/util/result.h"

namespace strata::ipc {

// Message.fbs: BodyCompression.codec. Each buffer of a record batch body is compressed on its
// own, prefixed by its uncompressed length (or -1 when compressing did not make it smaller).
enum class IpcCompression { kNone, kLz4Frame, kZstd };

// "none", "lz4" (or "lz4_frame"), "zstd", case-insensitive.
Result<IpcCompression> ParseIpcCompression(std::string_view name);
std::string_view IpcCompressionName(IpcCompression compression);

struct IpcWriteOptions {
  IpcCompression compression = IpcCompression::kNone;
  // The codec's level; the default asks the codec for its own (ZSTD 3, LZ4 fast).
  int compression_level = std::numeric_limits<int>::min();
  // When a later batch's dictionary extends the one already written (same values first), write
  // only the new values as a delta. Off: the stream format replaces the dictionary; the file
  // format, which cannot replace one, fails with Invalid.
  bool emit_dictionary_deltas = true;
  // Key-value metadata of the file footer (file format only); the schema's own metadata is
  // written with the schema.
  KeyValueMetadata footer_metadata;
  // Write the bodies big-endian (Schema.endianness = Big), as a big-endian host would: for
  // readers on such hosts, and to test the readers' byte swapping.
  bool big_endian = false;
  Status Validate() const;
};

struct IpcReadOptions {
  // Check every array fully before handing it out (offsets, UTF-8 of strings, dictionary
  // indices): a producer may be wrong. Off, only what memory safety needs is checked
  // (buffer sizes against lengths, offsets inside their data).
  bool validate_utf8 = true;
  // Read the whole file into memory with mmap and hand out slices of the mapping (file
  // format from a path only; uncompressed buffers are then never copied).
  bool memory_map = false;
  // Largest message (metadata + body) the reader accepts before it allocates for it; a
  // hostile length beyond the input's size is refused anyway.
  int64_t max_message_bytes = int64_t{1} << 34;
  Status Validate() const;
};

}  // namespace strata::ipc
