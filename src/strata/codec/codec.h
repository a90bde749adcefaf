// Compression codecs of the Parquet format: one Codec object per column reader or writer
// decompresses page after page into caller-sized buffers, keeping its library contexts
// (ZSTD_DCtx, z_stream, LZ4 state) between pages. Sits beside io/: page readers hand it
// compressed page bytes; it never reads files and never sizes an allocation from a length
// claimed inside compressed data.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string_view>

#include "strata/memory/buffer.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::codec {

// Values as in parquet.thrift's CompressionCodec, so a column chunk's `codec` field casts
// directly (after range checking, see CompressionCodecFromThrift).
enum class CompressionCodec : int32_t {
  kUncompressed = 0,
  kSnappy = 1,
  kGzip = 2,
  kLzo = 3,
  kBrotli = 4,
  kLz4 = 5,  // deprecated: Hadoop block framing, or a raw LZ4 block from older writers
  kZstd = 6,
  kLz4Raw = 7,  // one raw LZ4 block, no framing
};

// "UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW" (the thrift
// names), or "UNKNOWN".
std::string_view CodecName(CompressionCodec codec);

// Range-checks a codec value read from a file.
Result<CompressionCodec> CompressionCodecFromThrift(int32_t value);

// Asks the codec for its default level (ZSTD 3, GZIP 6, BROTLI 8, LZ4 fast).
inline constexpr int kDefaultCompressionLevel = std::numeric_limits<int>::min();

// Not thread-safe: the object owns mutable library contexts. Use one per thread.
class Codec {
 public:
  virtual ~Codec() = default;
  Codec(const Codec&) = delete;
  Codec& operator=(const Codec&) = delete;

  CompressionCodec type() const { return type_; }
  // The level compression uses, with kDefaultCompressionLevel resolved to the codec's
  // default; 0 for codecs without levels (uncompressed, snappy).
  int compression_level() const { return level_; }

  // Decompresses all of `input` into `output`, which the caller sizes from the page header's
  // uncompressed size, and returns the number of bytes written. Data that would decompress
  // to more than output.size() bytes is Corrupt; a shorter result is returned as is and the
  // caller decides whether that is an error. Malformed or truncated input is Corrupt. (LZ4
  // blocks have no end marker: one cut right after a sequence's literals decodes as a shorter
  // block, caught by the caller's size check.) Empty input yields 0 bytes for UNCOMPRESSED,
  // GZIP, ZSTD, LZ4 and LZO (no members, frames or blocks) and is Corrupt for SNAPPY, BROTLI and
  // LZ4_RAW, whose formats always carry a header.
  // Nothing is allocated from sizes found inside `input`; after the first call, decoding
  // allocates nothing except for BROTLI (its decoder state cannot be reset; it is created
  // per call from the pool and freed before returning).
  virtual Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) = 0;

  // Replaces the contents of `output` with the compressed form of `input`. The buffer is
  // reserved to MaxCompressedLength(input.size()) when its capacity is smaller, then set to
  // the compressed size; its capacity is kept for the next page.
  virtual Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) = 0;

  // Upper bound of Compress()'s output for `input_size` bytes, in bytes.
  virtual int64_t MaxCompressedLength(int64_t input_size) const = 0;

  // Bytes this codec holds now in library contexts and scratch buffers (all from its pool).
  virtual int64_t memory_size() const = 0;

 protected:
  Codec(CompressionCodec type, int level) : type_(type), level_(level) {}

 private:
  CompressionCodec type_;
  int level_;
};

// Makes a codec whose contexts and scratch memory come from `pool`, which must outlive it.
// `level` is the compression level (ignored by decompression); a level outside the codec's
// range is Invalid; a value outside the enum is Invalid.
//   ZSTD: ZSTD_minCLevel()..ZSTD_maxCLevel() (negative = faster), default 3 (zstd's own).
//   GZIP: 0..9, default 6 (zlib's).  BROTLI: 0..11, default 8 (as Arrow; brotli's own 11
//   is far slower to write).
//   LZ4, LZ4_RAW: 1 = fast (default), 2..12 = LZ4 HC.  SNAPPY, LZO (LZO1X-1), UNCOMPRESSED:
//   default only.
Result<std::unique_ptr<Codec>> MakeCodec(CompressionCodec codec, MemoryPool* pool,
                                         int level = kDefaultCompressionLevel);

}  // namespace strata::codec
