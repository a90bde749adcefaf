// LZ4_RAW: one raw LZ4 block per page. LZ4 (deprecated in Parquet): the Hadoop framing that
// parquet-mr wrote, a sequence of blocks
//   [4-byte big-endian uncompressed size] then chunks [4-byte big-endian compressed size][raw LZ4 block]
// until the block's uncompressed size is reached (writers emit one chunk per block). Older
// writers labelled a bare raw block LZ4, so when the framing does not parse exactly the
// data is decoded again as one raw block (parquet-testing: hadoop_lz4_compressed.parquet,
// non_hadoop_lz4_compressed.parquet).
#include <lz4.h>
#include <lz4hc.h>

#include <algorithm>
#include <limits>

#include "strata/codec/codec_internal.h"

namespace strata::codec::internal {
namespace {

constexpr int kLz4FastLevel = 1;  // LZ4_compress_fast with acceleration 1; 2..12 use LZ4 HC
constexpr int64_t kHadoopPrefixBytes = 4;
// Hadoop's Lz4Codec buffer (io.compression.codec.lz4.buffersize): Java readers expect blocks
// of at most this size, so the writer cuts input into such blocks.
constexpr int64_t kHadoopBlockBytes = 256 * 1024;

// Decodes one raw block; -1 when it is malformed or needs more than `capacity` bytes (LZ4
// does not tell the two apart). LZ4_decompress_safe never reads or writes out of bounds.
int64_t DecodeRawBlock(const uint8_t* input, int64_t input_size, uint8_t* output, int64_t capacity) {
  if (input_size > std::numeric_limits<int>::max()) return -1;
  const int capped = static_cast<int>(std::min<int64_t>(capacity, std::numeric_limits<int>::max()));
  const int written = LZ4_decompress_safe(reinterpret_cast<const char*>(input), reinterpret_cast<char*>(output),
                                          static_cast<int>(input_size), capped);
  return written < 0 ? -1 : written;
}

// The Hadoop framing, exactly: every block complete, every size consistent, no byte left
// over. Returns the bytes written, or -1 when the input is not (valid) Hadoop-framed LZ4.
int64_t TryDecodeHadoop(std::span<const uint8_t> input, std::span<uint8_t> output) {
  const int64_t input_size = static_cast<int64_t>(input.size());
  const int64_t output_size = static_cast<int64_t>(output.size());
  int64_t in = 0;
  int64_t out = 0;
  while (in < input_size) {
    if (input_size - in < 2 * kHadoopPrefixBytes) return -1;
    const int64_t block_size = LoadBigEndian32(input.data() + in);
    in += kHadoopPrefixBytes;
    if (block_size > output_size - out) return -1;
    int64_t block_done = 0;
    do {
      if (input_size - in < kHadoopPrefixBytes) return -1;
      const int64_t chunk_size = LoadBigEndian32(input.data() + in);
      in += kHadoopPrefixBytes;
      if (chunk_size == 0 || chunk_size > input_size - in) return -1;
      const int64_t written = DecodeRawBlock(input.data() + in, chunk_size, output.data() + out + block_done,
                                             block_size - block_done);
      if (written < 0) return -1;
      in += chunk_size;
      block_done += written;
    } while (block_done < block_size);
    out += block_done;
  }
  return out;
}

class Lz4Codec final : public Codec {
 public:
  Lz4Codec(MemoryPool* pool, int level, bool hadoop_framing)
      : Codec(hadoop_framing ? CompressionCodec::kLz4 : CompressionCodec::kLz4Raw, level),
        hadoop_framing_(hadoop_framing),
        state_(pool) {}

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (hadoop_framing_) {
      const int64_t written = TryDecodeHadoop(input, output);
      if (written >= 0) return written;
      // Not Hadoop framing: a raw block from an older writer, tried below.
    }
    if (input.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
      return Status::LimitExceeded("{} block of {} bytes exceeds LZ4's 2 GiB limit", CodecName(type()),
                                   input.size());
    }
    const int64_t written = DecodeRawBlock(input.data(), static_cast<int64_t>(input.size()), output.data(),
                                           static_cast<int64_t>(output.size()));
    if (written < 0) {
      return Status::Corrupt("{} data of {} bytes is {}malformed or decompresses to more than the declared {} bytes",
                             CodecName(type()), input.size(),
                             hadoop_framing_ ? "neither Hadoop-framed LZ4 nor a raw LZ4 block: " : "",
                             output.size());
    }
    return written;
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    STRATA_RETURN_NOT_OK(EnsureState());
    const int64_t input_size = static_cast<int64_t>(input.size());
    STRATA_RETURN_NOT_OK(output->Reserve(MaxCompressedLength(input_size)));
    if (!hadoop_framing_) {
      if (input_size > LZ4_MAX_INPUT_SIZE) {
        return Status::LimitExceeded("LZ4_RAW cannot compress {} bytes in one block (at most {})", input_size,
                                     LZ4_MAX_INPUT_SIZE);
      }
      STRATA_ASSIGN_OR_RETURN(int64_t written, CompressBlock(input.data(), input_size, output->mutable_data(),
                                                             output->capacity()));
      output->set_size(written);
      return Status::OK();
    }
    int64_t out = 0;
    for (int64_t in = 0; in < input_size; in += kHadoopBlockBytes) {
      const int64_t block_size = std::min(kHadoopBlockBytes, input_size - in);
      uint8_t* prefix = output->mutable_data() + out;
      out += 2 * kHadoopPrefixBytes;
      STRATA_ASSIGN_OR_RETURN(int64_t written, CompressBlock(input.data() + in, block_size,
                                                             output->mutable_data() + out, output->capacity() - out));
      StoreBigEndian32(static_cast<uint32_t>(block_size), prefix);
      StoreBigEndian32(static_cast<uint32_t>(written), prefix + kHadoopPrefixBytes);
      out += written;
    }
    output->set_size(out);
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    // LZ4_compressBound(n) = n + n/255 + 16, per block; plus 8 prefix bytes per Hadoop block.
    if (!hadoop_framing_) return input_size + input_size / 255 + 16;
    const int64_t blocks = (input_size + kHadoopBlockBytes - 1) / kHadoopBlockBytes;
    return input_size + input_size / 255 + blocks * (16 + 2 * kHadoopPrefixBytes);
  }

  int64_t memory_size() const override { return state_.capacity(); }

 private:
  // The compression state (16 KiB fast, 256 KiB HC) is allocated once from the pool.
  Status EnsureState() {
    const int64_t needed = compression_level() <= kLz4FastLevel ? LZ4_sizeofState() : LZ4_sizeofStateHC();
    return state_.Reserve(needed);
  }

  Result<int64_t> CompressBlock(const uint8_t* input, int64_t input_size, uint8_t* output, int64_t capacity) {
    const int capped = static_cast<int>(std::min<int64_t>(capacity, std::numeric_limits<int>::max()));
    const char* src = reinterpret_cast<const char*>(input);
    char* dst = reinterpret_cast<char*>(output);
    const int written =
        compression_level() <= kLz4FastLevel
            ? LZ4_compress_fast_extState(state_.mutable_data(), src, dst, static_cast<int>(input_size), capped, 1)
            : LZ4_compress_HC_extStateHC(state_.mutable_data(), src, dst, static_cast<int>(input_size), capped,
                                         compression_level());
    if (written <= 0) return Status::Invalid("{} compression of {} bytes failed", CodecName(type()), input_size);
    return static_cast<int64_t>(written);
  }

  bool hadoop_framing_;
  ResizableBuffer state_;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeLz4Codec(MemoryPool* pool, int level, bool hadoop_framing) {
  const CompressionCodec codec = hadoop_framing ? CompressionCodec::kLz4 : CompressionCodec::kLz4Raw;
  STRATA_ASSIGN_OR_RETURN(int resolved, ResolveLevel(codec, level, kLz4FastLevel, 1, LZ4HC_CLEVEL_MAX));
  return std::unique_ptr<Codec>(new Lz4Codec(pool, resolved, hadoop_framing));
}

}  // namespace strata::codec::internal
