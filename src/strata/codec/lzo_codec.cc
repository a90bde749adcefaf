// LZO (Parquet codec 3), through liblzo2's LZO1X. parquet-mr compresses with hadoop-lzo's
// LzoCodec, whose stream is the Hadoop block framing also used for LZ4 (lz4_codec.cc):
//   [4-byte big-endian uncompressed size] then chunks [4-byte big-endian compressed size][LZO1X stream]
// until the block's uncompressed size is reached. Other writers store one raw LZO1X stream,
// so data that is not exactly Hadoop-framed is decoded again as raw LZO1X.
#include <lzo/lzo1x.h>

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>

#include "strata/codec/codec_internal.h"

namespace strata::codec::internal {
namespace {

constexpr int64_t kHadoopPrefixBytes = 4;
// LZO1X-1's worst case grows a block by 1/16 plus 67 bytes (LZO's FAQ); lzo1x_1_compress does
// not check its output bounds, so MaxCompressedLength reserves that for every block.
// hadoop-lzo's BlockCompressorStream takes at most buffersize (256 KiB) minus that overhead
// per block, and its decompressor holds no more than 256 KiB of output: blocks that fit it.
constexpr int64_t kHadoopBufferBytes = 256 * 1024;
constexpr int64_t kHadoopBlockBytes = kHadoopBufferBytes - (kHadoopBufferBytes / 16 + 64 + 3);

// What is wrong with a stream, worded to follow "is".
std::string_view LzoErrorName(int code) {
  switch (code) {
    case LZO_E_INPUT_OVERRUN: return "truncated";
    case LZO_E_OUTPUT_OVERRUN: return "decompressing to more bytes than allowed";
    case LZO_E_LOOKBEHIND_OVERRUN: return "malformed: a match reaches before the start of the output";
    case LZO_E_INPUT_NOT_CONSUMED: return "followed by bytes after its end-of-stream marker";
    case LZO_E_EOF_NOT_FOUND: return "without an end-of-stream marker";
    default: return "malformed";
  }
}

// Decodes one whole LZO1X stream (it must end exactly at its end-of-stream marker) into at
// most `capacity` bytes. Returns the bytes written or a negative LZO_E_* code.
// lzo1x_decompress_safe checks every read against the input and every write and match
// against the output, so hostile data stays in bounds.
int64_t DecodeStream(const uint8_t* input, int64_t input_size, uint8_t* output, int64_t capacity) {
  lzo_uint written = static_cast<lzo_uint>(capacity);
  const int rc = lzo1x_decompress_safe(input, static_cast<lzo_uint>(input_size), output, &written, nullptr);
  if (rc != LZO_E_OK) return rc < 0 ? rc : LZO_E_ERROR;
  return static_cast<int64_t>(written);
}

// The outcome of a Hadoop-framed decode: the bytes written, or -1 with `framed` telling
// whether the first block's lengths were consistent with the input and output (the data
// looked like the framing) and, when asked for, why it stopped.
struct HadoopResult {
  int64_t written = -1;
  bool framed = false;
};

template <typename... Args>
HadoopResult Fail(HadoopResult result, std::string* error, fmt::format_string<Args...> format, Args&&... args) {
  if (error != nullptr) *error = fmt::format(format, std::forward<Args>(args)...);
  return result;
}

// The Hadoop framing, exactly: every length checked against the bytes left of the input
// and of the output before use, every block complete, no byte left over. `error`, when not
// null, receives the reason for a failure; the caller asks only once it reports one, so raw
// streams (which always fail here first) cost no formatting.
HadoopResult TryDecodeHadoop(std::span<const uint8_t> input, std::span<uint8_t> output, std::string* error) {
  const int64_t input_size = static_cast<int64_t>(input.size());
  const int64_t output_size = static_cast<int64_t>(output.size());
  HadoopResult result;
  int64_t in = 0;
  int64_t out = 0;
  while (in < input_size) {
    if (input_size - in < 2 * kHadoopPrefixBytes) {
      return Fail(result, error, "{} bytes at offset {} are too few for a block header", input_size - in, in);
    }
    const int64_t block_offset = in;
    const int64_t block_size = LoadBigEndian32(input.data() + in);
    in += kHadoopPrefixBytes;
    if (block_size > output_size - out) {
      return Fail(result, error, "block at offset {} declares {} bytes, {} remain of the declared {}",
                  block_offset, block_size, output_size - out, output_size);
    }
    int64_t block_done = 0;
    // A block of 0 bytes may carry one chunk holding an empty stream, or none.
    bool first_chunk = true;
    while (block_done < block_size || (block_size == 0 && first_chunk)) {
      first_chunk = false;
      if (input_size - in < kHadoopPrefixBytes) {
        if (block_size == 0) break;
        return Fail(result, error, "block at offset {} ends after {} of its {} bytes", block_offset,
                    block_done, block_size);
      }
      const int64_t chunk_size = LoadBigEndian32(input.data() + in);
      if (chunk_size == 0 || chunk_size > input_size - in - kHadoopPrefixBytes) {
        if (block_size == 0) break;  // not a chunk: the next block's header
        return Fail(result, error, "chunk at offset {} declares {} bytes, {} remain in the page", in,
                    chunk_size, input_size - in - kHadoopPrefixBytes);
      }
      if (block_offset == 0 && block_done == 0) result.framed = true;
      const int64_t written = DecodeStream(input.data() + in + kHadoopPrefixBytes, chunk_size,
                                           output.data() + out + block_done, block_size - block_done);
      if (written < 0 || (block_size == 0 && written != 0)) {
        if (block_size == 0) break;
        return Fail(result, error, "chunk at offset {} ({} bytes, for {} bytes of its block) is {}", in,
                    chunk_size, block_size - block_done, LzoErrorName(static_cast<int>(written)));
      }
      in += kHadoopPrefixBytes + chunk_size;
      block_done += written;
    }
    out += block_done;
  }
  result.written = out;
  return result;
}

class LzoCodec final : public Codec {
 public:
  explicit LzoCodec(MemoryPool* pool) : Codec(CompressionCodec::kLzo, 0), work_memory_(pool) {}

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    const HadoopResult hadoop = TryDecodeHadoop(input, output, nullptr);
    if (hadoop.written >= 0) return hadoop.written;
    // Not Hadoop framing (or damaged framing): a raw stream from another writer.
    const int64_t written = DecodeStream(input.data(), static_cast<int64_t>(input.size()), output.data(),
                                         static_cast<int64_t>(output.size()));
    if (written >= 0) return written;
    std::string hadoop_error;
    TryDecodeHadoop(input, output, &hadoop_error);
    if (hadoop.framed) {
      return Status::Corrupt("LZO data of {} bytes (declared {} bytes uncompressed) is Hadoop-framed but damaged: {}",
                             input.size(), output.size(), hadoop_error);
    }
    if (written == LZO_E_OUTPUT_OVERRUN) return OutputOverflow(type(), input.size(), output.size());
    return Status::Corrupt("LZO data of {} bytes (declared {} bytes uncompressed) is neither Hadoop-framed LZO "
                           "({}) nor a raw LZO1X stream (it is {})",
                           input.size(), output.size(), hadoop_error, LzoErrorName(static_cast<int>(written)));
  }

  // Hadoop framing, one chunk per block, as parquet-mr's reader expects. Empty input is
  // written as no block at all (and read back as 0 bytes).
  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    const int64_t input_size = static_cast<int64_t>(input.size());
    STRATA_RETURN_NOT_OK(work_memory_.Reserve(LZO1X_1_MEM_COMPRESS));
    STRATA_RETURN_NOT_OK(output->Reserve(MaxCompressedLength(input_size)));
    int64_t out = 0;
    for (int64_t in = 0; in < input_size; in += kHadoopBlockBytes) {
      const int64_t block_size = std::min(kHadoopBlockBytes, input_size - in);
      uint8_t* prefix = output->mutable_data() + out;
      out += 2 * kHadoopPrefixBytes;
      lzo_uint written = 0;
      const int rc = lzo1x_1_compress(input.data() + in, static_cast<lzo_uint>(block_size),
                                      output->mutable_data() + out, &written, work_memory_.mutable_data());
      if (rc != LZO_E_OK) {
        return Status::Invalid("LZO compression of {} bytes failed (liblzo2 error {})", block_size, rc);
      }
      StoreBigEndian32(static_cast<uint32_t>(block_size), prefix);
      StoreBigEndian32(static_cast<uint32_t>(written), prefix + kHadoopPrefixBytes);
      out += static_cast<int64_t>(written);
    }
    output->set_size(out);
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    // Per block: the LZO1X worst case plus two prefixes; the 1/16 terms add up to at most
    // input_size / 16.
    const int64_t blocks = (input_size + kHadoopBlockBytes - 1) / kHadoopBlockBytes;
    return input_size + input_size / 16 + blocks * (64 + 3 + 2 * kHadoopPrefixBytes);
  }

  int64_t memory_size() const override { return work_memory_.capacity(); }

 private:
  // LZO1X-1's dictionary (128 KiB on 64-bit), from the pool on the first Compress and kept.
  ResizableBuffer work_memory_;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeLzoCodec(MemoryPool* pool, int level) {
  STRATA_RETURN_NOT_OK(ResolveLevel(CompressionCodec::kLzo, level, 0, 0, 0).status());
  // lzo_init checks that the library was built with this program's type sizes; once is enough.
  static const int init_result = lzo_init();
  if (init_result != LZO_E_OK) return Status::Invalid("liblzo2 failed to initialise (lzo_init returned {})", init_result);
  return std::unique_ptr<Codec>(new LzoCodec(pool));
}

}  // namespace strata::codec::internal
