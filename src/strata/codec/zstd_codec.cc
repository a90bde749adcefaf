// ZSTD: Parquet pages hold one or more zstd frames (a writer may stream a page as several
// frames, and frames may omit the content size). One-shot decoding uses the caller's buffer
// as the window, so only the context itself is allocated, once.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_customMem: contexts allocate from the pool
#include <zstd.h>
#include <zstd_errors.h>

#include "strata/codec/codec_internal.h"
#include "strata/codec/pool_allocator.h"

namespace strata::codec::internal {
namespace {

ZSTD_customMem CustomMem(PoolAllocator* allocator) {
  return ZSTD_customMem{PoolAllocator::AllocCallback, PoolAllocator::FreeCallback, allocator};
}

// Turns a zstd error code into a Status; `what` names the operation for the message.
Status ZstdError(size_t code, const PoolAllocator& allocator, std::string_view what,
                 size_t input_size) {
  if (allocator.allocation_failed()) {
    return allocator.OutOfMemoryError(fmt::format("ZSTD {}", what));
  }
  return Status::Corrupt("ZSTD {} failed on {} compressed bytes: {}", what, input_size,
                         ZSTD_getErrorName(code));
}

Result<ZSTD_DCtx*> CreateDCtx(PoolAllocator* allocator) {
  allocator->clear_allocation_failed();
  ZSTD_DCtx* dctx = ZSTD_createDCtx_advanced(CustomMem(allocator));
  if (dctx == nullptr) return allocator->OutOfMemoryError("ZSTD decompression context");
  return dctx;
}

class ZstdCodec final : public Codec {
 public:
  ZstdCodec(MemoryPool* pool, int level) : Codec(CompressionCodec::kZstd, level), allocator_(pool) {}
  ~ZstdCodec() override {
    ZSTD_freeDCtx(dctx_);
    ZSTD_freeCCtx(cctx_);
  }

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    if (dctx_ == nullptr) {
      STRATA_ASSIGN_OR_RETURN(dctx_, CreateDCtx(&allocator_));
    }
    allocator_.clear_allocation_failed();
    // Decodes every frame in `input` (skippable frames included) and fails on trailing bytes.
    const size_t written = ZSTD_decompressDCtx(dctx_, output.data(), output.size(), input.data(), input.size());
    if (ZSTD_isError(written)) {
      if (ZSTD_getErrorCode(written) == ZSTD_error_dstSize_tooSmall) {
        return OutputOverflow(type(), input.size(), output.size());
      }
      return ZstdError(written, allocator_, "decompression", input.size());
    }
    return static_cast<int64_t>(written);
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    if (cctx_ == nullptr) {
      allocator_.clear_allocation_failed();
      cctx_ = ZSTD_createCCtx_advanced(CustomMem(&allocator_));
      if (cctx_ == nullptr) return allocator_.OutOfMemoryError("ZSTD compression context");
    }
    STRATA_RETURN_NOT_OK(output->Reserve(MaxCompressedLength(static_cast<int64_t>(input.size()))));
    allocator_.clear_allocation_failed();
    const size_t written = ZSTD_compressCCtx(cctx_, output->mutable_data(),
                                             static_cast<size_t>(output->capacity()), input.data(),
                                             input.size(), compression_level());
    if (ZSTD_isError(written)) return ZstdError(written, allocator_, "compression", input.size());
    output->set_size(static_cast<int64_t>(written));
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    return static_cast<int64_t>(ZSTD_compressBound(static_cast<size_t>(input_size)));
  }

  int64_t memory_size() const override { return allocator_.bytes_in_use(); }

 private:
  PoolAllocator allocator_;
  ZSTD_DCtx* dctx_ = nullptr;  // made on first use: a writer never needs one
  ZSTD_CCtx* cctx_ = nullptr;
};

class ZstdStreamingDecompressor final : public StreamingDecompressor {
 public:
  explicit ZstdStreamingDecompressor(MemoryPool* pool) : allocator_(pool) {}
  ~ZstdStreamingDecompressor() override { ZSTD_freeDCtx(dctx_); }

  Status Reset(std::span<const uint8_t> compressed_input) override {
    if (dctx_ == nullptr) {
      STRATA_ASSIGN_OR_RETURN(dctx_, CreateDCtx(&allocator_));
    }
    // Keeps the window buffer, so the next page of a similar window allocates nothing.
    ZSTD_DCtx_reset(dctx_, ZSTD_reset_session_only);
    input_ = ZSTD_inBuffer{compressed_input.data(), compressed_input.size(), 0};
    frame_complete_ = true;
    total_out_ = 0;
    return Status::OK();
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (dctx_ == nullptr) return Status::Invalid("ZSTD streaming decompressor read before Reset()");
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    allocator_.clear_allocation_failed();
    while (output.pos < output.size && !finished()) {
      const size_t in_before = input_.pos;
      const size_t out_before = output.pos;
      // Returns 0 when a frame is fully decoded and flushed; the next call starts the next
      // frame of the input, if any.
      const size_t hint = ZSTD_decompressStream(dctx_, &output, &input_);
      if (ZSTD_isError(hint)) {
        if (ZSTD_getErrorCode(hint) == ZSTD_error_frameParameter_windowTooLarge) {
          return Status::LimitExceeded("ZSTD frame needs a window above {} bytes, the streaming limit",
                                       int64_t{1} << ZSTD_WINDOWLOG_LIMIT_DEFAULT);
        }
        return ZstdError(hint, allocator_, "streaming decompression", input_.size);
      }
      frame_complete_ = hint == 0;
      if (input_.pos == in_before && output.pos == out_before) {
        // No progress with room left in the output: the input ended inside a frame.
        return Status::Corrupt("ZSTD data of {} bytes ends inside a frame after {} decompressed bytes",
                               input_.size, total_out_ + static_cast<int64_t>(output.pos));
      }
    }
    total_out_ += static_cast<int64_t>(output.pos);
    return static_cast<int64_t>(output.pos);
  }

  bool finished() const override { return frame_complete_ && input_.pos == input_.size; }
  int64_t memory_size() const override { return allocator_.bytes_in_use(); }

 private:
  PoolAllocator allocator_;
  ZSTD_DCtx* dctx_ = nullptr;
  ZSTD_inBuffer input_{nullptr, 0, 0};
  bool frame_complete_ = true;  // no frame is open (before the first one, or between frames)
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeZstdCodec(MemoryPool* pool, int level) {
  STRATA_ASSIGN_OR_RETURN(int resolved, ResolveLevel(CompressionCodec::kZstd, level, ZSTD_CLEVEL_DEFAULT,
                                                     ZSTD_minCLevel(), ZSTD_maxCLevel()));
  return std::unique_ptr<Codec>(new ZstdCodec(pool, resolved));
}

std::unique_ptr<StreamingDecompressor> MakeZstdStreamingDecompressor(MemoryPool* pool) {
  return std::make_unique<ZstdStreamingDecompressor>(pool);
}

}  // namespace strata::codec::internal
