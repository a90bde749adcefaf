// Readers of the Arrow IPC stream format (from any InputStream: a file, a pipe, memory) and
// file format (random access to every record batch through the footer). Every length, offset
// and count read from the input is checked against the input, the message and the schema
// before anything is allocated from it or read through it; arrays are fully validated before
// they are handed out. Errors name the input, the byte offset and, for arrays, the field.
// Uncompressed buffers are zero-copy slices of the message body (or of the mapped file).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/array/record_batch.h"
#include "strata/io/input_stream.h"
#include "strata/io/random_access_source.h"
#include "strata/ipc/ipc_options.h"
#include "strata/memory/memory_pool.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::ipc {

struct IpcReadStats {
  int64_t messages = 0;
  int64_t record_batches = 0;
  int64_t dictionary_batches = 0;
  int64_t dictionary_deltas = 0;
  int64_t bytes_read = 0;
};

// The stream format: the schema message, then dictionary and record batch messages in order,
// until the end-of-stream marker or the end of the input.
class IpcStreamReader {
 public:
  // Reads the schema message at once.
  static Result<std::unique_ptr<IpcStreamReader>> Open(std::unique_ptr<InputStream> input,
                                                       const IpcReadOptions& options, MemoryPool* pool);
  virtual ~IpcStreamReader() = default;

  virtual const SchemaPtr& schema() const = 0;
  // The next record batch (dictionary messages before it are applied), nullptr at the end.
  virtual Result<std::shared_ptr<RecordBatch>> Next() = 0;
  virtual const IpcReadStats& stats() const = 0;
};

// The file format: magic, footer, then record batches read by index in any order.
class IpcFileReader {
 public:
  static Result<std::unique_ptr<IpcFileReader>> Open(std::shared_ptr<RandomAccessSource> source,
                                                     const IpcReadOptions& options, MemoryPool* pool);
  // Opens a local file (memory-mapped when options.memory_map).
  static Result<std::unique_ptr<IpcFileReader>> Open(const std::string& path, const IpcReadOptions& options,
                                                     MemoryPool* pool);
  virtual ~IpcFileReader() = default;

  virtual const SchemaPtr& schema() const = 0;
  virtual int num_record_batches() const = 0;
  // Record batch `i` (0-based), with the dictionaries the file holds (all dictionary batches
  // are read on the first call: the file format allows no replacement, deltas apply in order).
  virtual Result<std::shared_ptr<RecordBatch>> ReadRecordBatch(int i) = 0;
  // The footer's custom metadata.
  virtual const KeyValueMetadata& footer_metadata() const = 0;
  virtual const IpcReadStats& stats() const = 0;
};

// True when `prefix` (at least 6 bytes) starts with the file format's magic "ARROW1".
bool HasIpcFileMagic(std::string_view prefix);

}  // namespace strata::ipc
