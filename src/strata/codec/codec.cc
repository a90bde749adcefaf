#include "strata/codec/codec.h"

#include <cstring>

#include "strata/codec/codec_internal.h"

namespace strata::codec {

std::string_view CodecName(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed: return "UNCOMPRESSED";
    case CompressionCodec::kSnappy: return "SNAPPY";
    case CompressionCodec::kGzip: return "GZIP";
    case CompressionCodec::kLzo: return "LZO";
    case CompressionCodec::kBrotli: return "BROTLI";
    case CompressionCodec::kLz4: return "LZ4";
    case CompressionCodec::kZstd: return "ZSTD";
    case CompressionCodec::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

Result<CompressionCodec> CompressionCodecFromThrift(int32_t value) {
  if (value < 0 || value > static_cast<int32_t>(CompressionCodec::kLz4Raw)) {
    return Status::Corrupt("unknown compression codec {} (known: 0..7)", value);
  }
  return static_cast<CompressionCodec>(value);
}

namespace internal {

Result<int> ResolveLevel(CompressionCodec codec, int level, int default_level, int min_level,
                         int max_level) {
  if (level == kDefaultCompressionLevel) return default_level;
  if (level < min_level || level > max_level) {
    return Status::Invalid("{} compression level {} is outside {}..{}", CodecName(codec), level,
                           min_level, max_level);
  }
  return level;
}

namespace {

// A copy: pages written without compression still pass through the same interface.
class UncompressedCodec final : public Codec {
 public:
  UncompressedCodec() : Codec(CompressionCodec::kUncompressed, 0) {}

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (input.size() > output.size()) {
      return OutputOverflow(type(), input.size(), output.size());
    }
    if (!input.empty()) std::memcpy(output.data(), input.data(), input.size());
    return static_cast<int64_t>(input.size());
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    STRATA_RETURN_NOT_OK(output->Resize(static_cast<int64_t>(input.size())));
    if (!input.empty()) std::memcpy(output->mutable_data(), input.data(), input.size());
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override { return input_size; }
  int64_t memory_size() const override { return 0; }
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeUncompressedCodec(int level) {
  STRATA_RETURN_NOT_OK(ResolveLevel(CompressionCodec::kUncompressed, level, 0, 0, 0).status());
  return std::unique_ptr<Codec>(new UncompressedCodec());
}

}  // namespace internal

Result<std::unique_ptr<Codec>> MakeCodec(CompressionCodec codec, MemoryPool* pool, int level) {
  if (pool == nullptr) return Status::Invalid("MakeCodec needs a memory pool");
  switch (codec) {
    case CompressionCodec::kUncompressed: return internal::MakeUncompressedCodec(level);
    case CompressionCodec::kSnappy: return internal::MakeSnappyCodec(pool, level);
    case CompressionCodec::kGzip: return internal::MakeGzipCodec(pool, level);
    case CompressionCodec::kLzo: return internal::MakeLzoCodec(pool, level);
    case CompressionCodec::kBrotli: return internal::MakeBrotliCodec(pool, level);
    case CompressionCodec::kLz4: return internal::MakeLz4Codec(pool, level, /*hadoop_framing=*/true);
    case CompressionCodec::kZstd: return internal::MakeZstdCodec(pool, level);
    case CompressionCodec::kLz4Raw: return internal::MakeLz4Codec(pool, level, /*hadoop_framing=*/false);
  }
  return Status::Invalid("unknown compression codec {}", static_cast<int32_t>(codec));
}

}  // namespace strata::codec
