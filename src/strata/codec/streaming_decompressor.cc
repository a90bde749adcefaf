#include "strata/codec/streaming_decompressor.h"

#include <algorithm>
#include <cstring>

#include "strata/codec/codec_internal.h"

namespace strata::codec {
namespace internal {
namespace {

class UncompressedStreamingDecompressor final : public StreamingDecompressor {
 public:
  Status Reset(std::span<const uint8_t> compressed_input) override {
    input_ = compressed_input;
    position_ = 0;
    total_out_ = 0;
    return Status::OK();
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    const size_t n = std::min(out.size(), input_.size() - position_);
    if (n > 0) std::memcpy(out.data(), input_.data() + position_, n);
    position_ += n;
    total_out_ += static_cast<int64_t>(n);
    return static_cast<int64_t>(n);
  }

  bool finished() const override { return position_ == input_.size(); }
  int64_t memory_size() const override { return 0; }

 private:
  std::span<const uint8_t> input_;
  size_t position_ = 0;
};

}  // namespace

std::unique_ptr<StreamingDecompressor> MakeUncompressedStreamingDecompressor() {
  return std::make_unique<UncompressedStreamingDecompressor>();
}

}  // namespace internal

Result<std::unique_ptr<StreamingDecompressor>> MakeStreamingDecompressor(CompressionCodec codec,
                                                                          MemoryPool* pool) {
  if (pool == nullptr) return Status::Invalid("MakeStreamingDecompressor needs a memory pool");
  switch (codec) {
    case CompressionCodec::kUncompressed: return internal::MakeUncompressedStreamingDecompressor();
    case CompressionCodec::kGzip: return internal::MakeGzipStreamingDecompressor(pool);
    case CompressionCodec::kZstd: return internal::MakeZstdStreamingDecompressor(pool);
    case CompressionCodec::kBrotli: return internal::MakeBrotliStreamingDecompressor(pool);
    case CompressionCodec::kSnappy: return internal::MakeSnappyStreamingDecompressor(pool);
    case CompressionCodec::kLzo:
    case CompressionCodec::kLz4:
    case CompressionCodec::kLz4Raw:
      return Status::NotImplemented("streaming decompression of {} is not supported; decompress the "
                                    "whole page with Codec::Decompress",
                                    CodecName(codec));
  }
  return Status::Invalid("unknown compression codec {}", static_cast<int32_t>(codec));
}

}  // namespace strata::codec
