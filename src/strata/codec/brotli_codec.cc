// BROTLI: one brotli stream (RFC 7932) per page. Brotli 1.0 has no way to reset a decoder,
// so each page creates one from the pool and frees it before returning: its ring buffer is
// at most the stream's window (16 MiB at lgwin 24; large windows are refused), usually far
// less, as the decoder shrinks it when the stream says it is short, and the writer below
// picks the smallest window that holds the page.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <algorithm>
#include <memory>

#include "strata/codec/codec_internal.h"
#include "strata/codec/pool_allocator.h"

namespace strata::codec::internal {
namespace {

// Arrow's default too; brotli's own default, 11, is far slower to write.
constexpr int kBrotliDefaultQuality = 8;

// The window a page needs: no larger than the page (rounded up to a power of two) and at most
// brotli's default of 4 MiB. A small window shrinks the encoder's tables and every reader's
// ring buffer: for a 1 MiB page, lgwin 20 instead of 22 lowers the encoder's peak from 31 to
// 25 MB at quality 8 with the same ratio (BM_Compress).
uint32_t WindowBitsFor(size_t input_size) {
  uint32_t bits = BROTLI_MIN_WINDOW_BITS;
  while (bits < BROTLI_DEFAULT_WINDOW && (size_t{1} << bits) < input_size) ++bits;
  return bits;
}

Status DecoderError(BrotliDecoderState* state, const PoolAllocator& allocator, size_t input_size,
                    size_t position) {
  if (allocator.allocation_failed()) {
    return allocator.OutOfMemoryError("BROTLI decompression");
  }
  return Status::Corrupt("BROTLI data of {} bytes is malformed at byte {}: {}", input_size, position,
                         BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state)));
}

// Destroys a decoder on scope exit.
struct DecoderDeleter {
  void operator()(BrotliDecoderState* state) const { BrotliDecoderDestroyInstance(state); }
};
using DecoderPtr = std::unique_ptr<BrotliDecoderState, DecoderDeleter>;

Result<DecoderPtr> CreateDecoder(PoolAllocator* allocator) {
  allocator->clear_allocation_failed();
  DecoderPtr state(BrotliDecoderCreateInstance(PoolAllocator::AllocCallback, PoolAllocator::FreeCallback, allocator));
  if (state == nullptr) return allocator->OutOfMemoryError("BROTLI decoder");
  return state;
}

class BrotliCodec final : public Codec {
 public:
  BrotliCodec(MemoryPool* pool, int level) : Codec(CompressionCodec::kBrotli, level), allocator_(pool) {}

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    STRATA_ASSIGN_OR_RETURN(DecoderPtr state, CreateDecoder(&allocator_));
    const uint8_t* next_in = input.data();
    size_t avail_in = input.size();
    uint8_t* next_out = output.data();
    size_t avail_out = output.size();
    const BrotliDecoderResult result =
        BrotliDecoderDecompressStream(state.get(), &avail_in, &next_in, &avail_out, &next_out, nullptr);
    switch (result) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        if (avail_in != 0) {
          return Status::Corrupt("BROTLI data of {} bytes has {} bytes after the end of the stream",
                                 input.size(), avail_in);
        }
        return static_cast<int64_t>(output.size() - avail_out);
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        return OutputOverflow(type(), input.size(), output.size());
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        return Status::Corrupt("BROTLI data of {} bytes ends inside the stream", input.size());
      case BROTLI_DECODER_RESULT_ERROR:
        break;
    }
    return DecoderError(state.get(), allocator_, input.size(), input.size() - avail_in);
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    allocator_.clear_allocation_failed();
    BrotliEncoderState* state =
        BrotliEncoderCreateInstance(PoolAllocator::AllocCallback, PoolAllocator::FreeCallback, &allocator_);
    if (state == nullptr) return allocator_.OutOfMemoryError("BROTLI encoder");
    BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, static_cast<uint32_t>(compression_level()));
    BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, WindowBitsFor(input.size()));
    BrotliEncoderSetParameter(state, BROTLI_PARAM_SIZE_HINT,
                              static_cast<uint32_t>(std::min<size_t>(input.size(), 1u << 30)));
    Status status = output->Reserve(MaxCompressedLength(static_cast<int64_t>(input.size())));
    const uint8_t* next_in = input.data();
    size_t avail_in = input.size();
    uint8_t* next_out = output->mutable_data();
    size_t avail_out = static_cast<size_t>(output->capacity());
    while (status.ok() && !BrotliEncoderIsFinished(state)) {
      const size_t out_before = avail_out;
      const size_t in_before = avail_in;
      if (!BrotliEncoderCompressStream(state, BROTLI_OPERATION_FINISH, &avail_in, &next_in, &avail_out,
                                       &next_out, nullptr)) {
        status = allocator_.allocation_failed()
                     ? allocator_.OutOfMemoryError("BROTLI compression")
                     : Status::Invalid("BROTLI compression of {} bytes failed", input.size());
      } else if (avail_out == out_before && avail_in == in_before && !BrotliEncoderHasMoreOutput(state) &&
                 !BrotliEncoderIsFinished(state)) {
        status = Status::Invalid("BROTLI compression of {} bytes made no progress", input.size());
      } else if (avail_out == 0 && !BrotliEncoderIsFinished(state)) {
        status = Status::Invalid("BROTLI output exceeded its bound for {} input bytes", input.size());
      }
    }
    BrotliEncoderDestroyInstance(state);
    STRATA_RETURN_NOT_OK(status);
    output->set_size(output->capacity() - static_cast<int64_t>(avail_out));
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    const size_t bound = BrotliEncoderMaxCompressedSize(static_cast<size_t>(input_size));
    // 0 means the library has no bound for this size; brotli's empty stream is 1 byte.
    if (bound == 0) return input_size + (input_size >> 3) + 1024;
    return static_cast<int64_t>(std::max<size_t>(bound, 16));
  }

  int64_t memory_size() const override { return allocator_.bytes_in_use(); }

 private:
  PoolAllocator allocator_;
};

// Brotli decoders cannot be reset: Reset() replaces the decoder, so each page allocates one
// (about 50 KiB) plus a ring buffer of up to the stream's window.
class BrotliStreamingDecompressor final : public StreamingDecompressor {
 public:
  explicit BrotliStreamingDecompressor(MemoryPool* pool) : allocator_(pool) {}

  Status Reset(std::span<const uint8_t> compressed_input) override {
    state_.reset();  // free the old ring buffer before the new decoder allocates
    STRATA_ASSIGN_OR_RETURN(state_, CreateDecoder(&allocator_));
    input_ = compressed_input;
    next_in_ = input_.data();
    avail_in_ = input_.size();
    done_ = false;
    total_out_ = 0;
    return Status::OK();
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (state_ == nullptr) return Status::Invalid("BROTLI streaming decompressor read before Reset()");
    if (done_ || out.empty()) return 0;
    uint8_t* next_out = out.data();
    size_t avail_out = out.size();
    allocator_.clear_allocation_failed();
    const BrotliDecoderResult result =
        BrotliDecoderDecompressStream(state_.get(), &avail_in_, &next_in_, &avail_out, &next_out, nullptr);
    const int64_t produced = static_cast<int64_t>(out.size() - avail_out);
    switch (result) {
      case BROTLI_DECODER_RESULT_SUCCESS:
        if (avail_in_ != 0) {
          return Status::Corrupt("BROTLI data of {} bytes has {} bytes after the end of the stream",
                                 input_.size(), avail_in_);
        }
        done_ = true;
        break;
      case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT:
        break;  // the window is full
      case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
        return Status::Corrupt("BROTLI data of {} bytes ends inside the stream after {} decompressed bytes",
                               input_.size(), total_out_ + produced);
      case BROTLI_DECODER_RESULT_ERROR:
        return DecoderError(state_.get(), allocator_, input_.size(), input_.size() - avail_in_);
    }
    total_out_ += produced;
    return produced;
  }

  bool finished() const override { return done_; }
  int64_t memory_size() const override { return allocator_.bytes_in_use(); }

 private:
  PoolAllocator allocator_;
  DecoderPtr state_;
  std::span<const uint8_t> input_;
  const uint8_t* next_in_ = nullptr;
  size_t avail_in_ = 0;
  bool done_ = false;
};

}  // namespace

std::unique_ptr<StreamingDecompressor> MakeBrotliStreamingDecompressor(MemoryPool* pool) {
  return std::make_unique<BrotliStreamingDecompressor>(pool);
}

Result<std::unique_ptr<Codec>> MakeBrotliCodec(MemoryPool* pool, int level) {
  STRATA_ASSIGN_OR_RETURN(int resolved, ResolveLevel(CompressionCodec::kBrotli, level, kBrotliDefaultQuality,
                                                     BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY));
  return std::unique_ptr<Codec>(new BrotliCodec(pool, resolved));
}

}  // namespace strata::codec::internal
