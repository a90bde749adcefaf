// RandomAccessSource: the byte source every reader reads from (local file, memory, HTTP).
// Reads are positional and safe to issue from several threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata {

class RandomAccessSource {
 public:
  virtual ~RandomAccessSource() = default;

  // Total size in bytes.
  virtual Result<int64_t> Size() = 0;

  // Reads exactly `length` bytes at `offset` into `out`. A range past the end is an IOError
  // naming the source, offset and length (a short read never passes silently).
  virtual Status ReadAt(int64_t offset, int64_t length, uint8_t* out) = 0;

  // Reads a range into a buffer from `pool`. Sources that hold the bytes already (memory,
  // memory-mapped) return a zero-copy slice that keeps them alive.
  virtual Result<std::shared_ptr<Buffer>> ReadBufferAt(int64_t offset, int64_t length, MemoryPool* pool);
  // Whether a buffer ReadBufferAt returned may be kept by arrays that outlive the read at no
  // cost beyond its own bytes: it was allocated for the read, or its bytes live as long as the
  // source anyway (memory, memory map). False when it is a slice of a larger block that the
  // source would otherwise free soon (ReadRangeCache: a coalesced range of many chunks).
  virtual bool read_buffers_keepable() const { return true; }

  // The path or URL, for error messages.
  virtual const std::string& name() const = 0;

  // Number of ReadAt/ReadBufferAt calls served so far (requests, for remote sources).
  virtual int64_t read_count() const = 0;

  // Bytes returned by ReadAt/ReadBufferAt calls so far (0 for sources that do not count).
  virtual int64_t bytes_read() const { return 0; }
};

struct LocalFileOptions {
  // Map the whole file into memory (mmap) instead of reading with pread. ReadBufferAt then
  // returns zero-copy slices that keep the mapping alive (after the source is gone, too), and
  // allocates nothing from the pool. The file must not shrink while mapped: reading a page
  // past its new end raises SIGBUS.
  bool memory_map = false;
};

// Opens a local file for positional reads (pread, or a memory map; see LocalFileOptions).
Result<std::shared_ptr<RandomAccessSource>> OpenLocalFile(const std::string& path,
                                                          const LocalFileOptions& options = {});

// A source over bytes in memory; `buffer` is kept alive by the source.
std::shared_ptr<RandomAccessSource> MakeBufferSource(std::shared_ptr<Buffer> buffer, std::string name = "<memory>");

}  // namespace strata
