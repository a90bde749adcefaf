// IpcWriter: record batches to the Arrow IPC stream format (schema message, dictionary
// batches, record batches, end-of-stream marker) or file format ("ARROW1" magic, the stream,
// a Footer locating every block, the footer length, the magic again). Buffers are written
// 8-byte aligned and padded, each message body starts 8-aligned (64 in files, as Arrow C++
// aligns its blocks); arrays are written as they are in memory, with no copy unless a slice
// must be rebased (bitmaps at an offset that is not a multiple of 8, offsets that do not start
// at 0) or a buffer is compressed.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/array/record_batch.h"
#include "strata/io/output_sink.h"
#include "strata/ipc/ipc_options.h"
#include "strata/memory/memory_pool.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::ipc {

enum class IpcFormat { kFile, kStream };

struct IpcWriteStats {
  int64_t record_batches = 0;
  int64_t dictionary_batches = 0;  // deltas included
  int64_t dictionary_deltas = 0;
  int64_t bytes_written = 0;
  // Bytes of body buffers before and after compression (equal when uncompressed; after: with
  // the 8-byte length prefixes, without the alignment padding).
  int64_t body_bytes_uncompressed = 0;
  int64_t body_bytes_written = 0;
};

class IpcWriter {
 public:
  // Writes the schema at once. The sink is closed by Close(); on any failure (or when the
  // writer is destroyed without Close) it is aborted, so no half-written file is left behind.
  // NotImplemented for types Arrow IPC cannot carry in strata (dictionaries of dictionaries).
  static Result<std::unique_ptr<IpcWriter>> Open(std::unique_ptr<OutputSink> sink, IpcFormat format,
                                                 SchemaPtr schema, const IpcWriteOptions& options,
                                                 MemoryPool* pool);
  virtual ~IpcWriter() = default;

  // Appends one batch (its schema must equal the writer's, metadata aside). Dictionaries of
  // its dictionary columns are written first when new or changed (see emit_dictionary_deltas).
  virtual Status Write(const RecordBatch& batch) = 0;
  // Ends the stream (or writes the footer) and closes the sink.
  virtual Status Close() = 0;
  virtual const IpcWriteStats& stats() const = 0;
};

// The format a path's extension names: .arrow, .feather, .ipc are the file format, .arrows
// the stream format; anything else is Invalid.
Result<IpcFormat> IpcFormatFromPath(std::string_view path);

}  // namespace strata::ipc
