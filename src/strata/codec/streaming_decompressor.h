// StreamingDecompressor: decodes one compressed page a window at a time, so a reader can
// walk a 32 MiB page through a 1 MiB buffer. Available for ZSTD, GZIP, BROTLI, SNAPPY and
// UNCOMPRESSED; LZ4, LZ4_RAW and LZO return NotImplemented: no library of theirs decodes a
// block in parts. SNAPPY keeps 64 KiB of history, which every known writer's blocks fit;
// Reset() returns NotImplemented for a block that reaches further back (decompress it whole).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "strata/codec/codec.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::codec {

// Not thread-safe. Reusable: Reset() starts a new input and keeps the library context, so
// decoding page after page allocates nothing in steady state (except BROTLI, see below).
class StreamingDecompressor {
 public:
  virtual ~StreamingDecompressor() = default;
  StreamingDecompressor(const StreamingDecompressor&) = delete;
  StreamingDecompressor& operator=(const StreamingDecompressor&) = delete;

  // Starts decoding `compressed_input`, which must stay valid and unchanged until the next
  // Reset() or the destruction of this object.
  virtual Status Reset(std::span<const uint8_t> compressed_input) = 0;

  // Fills `out` with the compressed bytes at `offset` of the input (offset + out.size() is
  // within the input); an error stops the decoding with it.
  using InputReader = std::function<Status(int64_t offset, std::span<uint8_t> out)>;
  // Starts decoding `input_size` compressed bytes that `read` hands out a piece at a time
  // (a page read from its file a window at a time, never held whole). Codecs that cannot
  // return NotImplemented (supports_input_reader()). SNAPPY walks the input while
  // ResetWithReader() validates it, then reads it again as Read() decodes it; with
  // `read_every_byte` the walk reads every byte from offset 0 to the end, each piece starting
  // at or before the end of the one before (a caller can checksum it), else it skips literals.
  virtual Status ResetWithReader(int64_t input_size, InputReader read, bool read_every_byte) {
    (void)input_size;
    (void)read;
    (void)read_every_byte;
    return Status::NotImplemented("this codec's streaming decompressor takes its input whole");
  }
  virtual bool supports_input_reader() const { return false; }

  // The decompressed size the input declares (SNAPPY's length header), -1 when it declares none.
  virtual int64_t declared_size() const { return -1; }

  // Writes the next decompressed bytes into `out` and returns how many (at most out.size();
  // fewer only at the end of the data). Returns 0 once finished(). Input that ends before the
  // compressed stream does, or is malformed, is Corrupt. An empty `out` returns 0.
  virtual Result<int64_t> Read(std::span<uint8_t> out) = 0;

  // True once every byte of the input has been consumed and every byte produced.
  virtual bool finished() const = 0;

  // Decompressed bytes produced since Reset().
  int64_t total_out() const { return total_out_; }

  // Bytes held in library contexts (window buffers), all from the pool.
  virtual int64_t memory_size() const = 0;

 protected:
  StreamingDecompressor() = default;
  int64_t total_out_ = 0;
};

// Window memory comes from `pool`, which must outlive the object. ZSTD keeps a window of the
// frame's window size (LimitExceeded above 128 MiB, zstd's default limit; typical writers use
// 1-8 MiB, or the page size when it is smaller); GZIP 32 KiB; BROTLI up to the stream's
// window (at most 16 MiB), allocated again on every Reset() as brotli decoders cannot reset;
// SNAPPY 96 KiB (history and the slice being decoded), plus 32 KiB of input when it reads its
// input in pieces, after checking the whole block.
Result<std::unique_ptr<StreamingDecompressor>> MakeStreamingDecompressor(CompressionCodec codec,
                                                                          MemoryPool* pool);

}  // namespace strata::codec
