// LZ4 frames through lz4frame.h (the codec layer's LZ4 is Parquet's block formats); ZSTD
// through the codec layer.
#include "strata/ipc/body_compression.h"

#include <lz4frame.h>

#include "strata/codec/codec.h"

namespace strata::ipc {
namespace {

class Lz4FrameCodec final : public BodyCodec {
 public:
  explicit Lz4FrameCodec(int level) : BodyCodec(IpcCompression::kLz4Frame), level_(level) {}
  ~Lz4FrameCodec() override {
    if (dctx_ != nullptr) LZ4F_freeDecompressionContext(dctx_);
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    LZ4F_preferences_t preferences{};
    preferences.compressionLevel = level_;
    preferences.frameInfo.contentSize = input.size();  // lets readers check the length
    const size_t bound = LZ4F_compressFrameBound(input.size(), &preferences);
    STRATA_RETURN_NOT_OK(output->ReserveScratch(static_cast<int64_t>(bound)));
    const size_t written =
        LZ4F_compressFrame(output->mutable_data(), output->capacity(), input.data(), input.size(), &preferences);
    if (LZ4F_isError(written)) {
      return Status::Invalid("LZ4 frame compression failed: {}", LZ4F_getErrorName(written));
    }
    output->set_size(static_cast<int64_t>(written));
    return Status::OK();
  }

  Status Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (dctx_ == nullptr) {
      const size_t error = LZ4F_createDecompressionContext(&dctx_, LZ4F_VERSION);
      if (LZ4F_isError(error)) return Status::OutOfMemory("LZ4 frame decompression context: {}", LZ4F_getErrorName(error));
    } else {
      LZ4F_resetDecompressionContext(dctx_);
    }
    size_t in_pos = 0, out_pos = 0;
    // Frames may be concatenated; each call consumes what it can.
    while (in_pos < input.size()) {
      size_t in_size = input.size() - in_pos;
      size_t out_size = output.size() - out_pos;
      const size_t hint = LZ4F_decompress(dctx_, output.data() + out_pos, &out_size, input.data() + in_pos, &in_size,
                                          nullptr);
      if (LZ4F_isError(hint)) return Status::Corrupt("LZ4 frame: {}", LZ4F_getErrorName(hint));
      in_pos += in_size;
      out_pos += out_size;
      if (in_size == 0 && out_size == 0) {
        // No progress: the output is full but the frame goes on.
        return Status::Corrupt("LZ4 frame: decompresses to more than the {} bytes stated", output.size());
      }
      if (hint != 0 && in_pos == input.size()) {
        return Status::Corrupt("LZ4 frame: truncated after {} of {} bytes", out_pos, output.size());
      }
    }
    if (out_pos != output.size()) {
      return Status::Corrupt("LZ4 frame: decompressed to {} bytes, {} stated", out_pos, output.size());
    }
    return Status::OK();
  }

 private:
  int level_;
  LZ4F_dctx* dctx_ = nullptr;
};

class ZstdBodyCodec final : public BodyCodec {
 public:
  explicit ZstdBodyCodec(std::unique_ptr<codec::Codec> codec)
      : BodyCodec(IpcCompression::kZstd), codec_(std::move(codec)) {}

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    return codec_->Compress(input, output);
  }

  Status Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    STRATA_ASSIGN_OR_RETURN(int64_t written, codec_->Decompress(input, output));
    if (written != static_cast<int64_t>(output.size())) {
      return Status::Corrupt("ZSTD: decompressed to {} bytes, {} stated", written, output.size());
    }
    return Status::OK();
  }

 private:
  std::unique_ptr<codec::Codec> codec_;
};

}  // namespace

Result<std::unique_ptr<BodyCodec>> BodyCodec::Make(IpcCompression compression, int level, MemoryPool* pool) {
  switch (compression) {
    case IpcCompression::kLz4Frame: {
      if (level == codec::kDefaultCompressionLevel) level = 0;  // LZ4F's fast default
      if (level < 0 || level > LZ4F_compressionLevel_max()) {
        return Status::Invalid("LZ4 frame compression level {} is outside 0..{}", level, LZ4F_compressionLevel_max());
      }
      return std::unique_ptr<BodyCodec>(new Lz4FrameCodec(level));
    }
    case IpcCompression::kZstd: {
      STRATA_ASSIGN_OR_RETURN(auto zstd, codec::MakeCodec(codec::CompressionCodec::kZstd, pool, level));
      return std::unique_ptr<BodyCodec>(new ZstdBodyCodec(std::move(zstd)));
    }
    case IpcCompression::kNone: break;
  }
  return Status::Invalid("no codec for uncompressed IPC bodies");
}

}  // namespace strata::ipc
