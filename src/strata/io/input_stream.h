// InputStream: a sequential byte source read front to back once (a file, a pipe or standard
// input, bytes in memory, or a decompressing wrapper from the codec layer). The CSV reader
// reads through one; random-access readers (Parquet) use RandomAccessSource instead.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "strata/util/result.h"

namespace strata {

// Not thread-safe: one reader at a time.
class InputStream {
 public:
  virtual ~InputStream() = default;

  // Reads up to out.size() bytes into `out` and returns how many. Returns 0 only at the end of
  // the input (never before it for a non-empty `out`), and 0 again on every later call; an
  // empty `out` returns 0. May return fewer bytes than asked before the end (a pipe, a
  // decompressor flushing a block). Errors are IOError (the source failed) or Corrupt
  // (malformed compressed data), naming name().
  virtual Result<int64_t> Read(std::span<uint8_t> out) = 0;

  // The path, or "<memory>", for error messages. Valid for the stream's lifetime.
  virtual const std::string& name() const = 0;

  // Bytes of the underlying input consumed so far: compressed bytes for a decompressing
  // stream, so that raw_bytes_read() / raw_size() is a progress fraction.
  virtual int64_t raw_bytes_read() const = 0;

  // Size of the underlying input in bytes when known (a regular file, memory), else -1.
  virtual int64_t raw_size() const = 0;

  // Bytes this stream holds from a memory pool (buffers, decompression windows).
  virtual int64_t memory_size() const { return 0; }
};

// Opens a regular file, or a pipe / FIFO / character device, for sequential reads; "-" means
// standard input (which the stream reads but does not close). A missing or unreadable path,
// or a directory, is an IOError naming the path. Reads are read(2) calls, retried on EINTR.
Result<std::unique_ptr<InputStream>> OpenFileInputStream(const std::string& path);

// A stream over `bytes`, which the caller keeps alive and unchanged for the stream's lifetime.
std::unique_ptr<InputStream> MakeMemoryInputStream(std::span<const uint8_t> bytes,
                                                   std::string name = "<memory>");

}  // namespace strata
