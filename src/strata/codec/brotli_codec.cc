// BROTLI: one brotli stream (RFC 7932) per page. Brotli 1.0 has no way to reset a decoder,
// so each page creates one from the pool and frees it before returning: its ring buffer is
// at most the stream's window (16 MiB at lgwin 24; large windows are refused) and usually
// far less, as the decoder shrinks it to the stream's size when the stream says it is short.
#include <brotli/decode.h>
#include <brotli/encode.h>

#include <algorithm>

#include "strata/codec/codec_internal.h"
#include "strata/codec/pool_allocator.h"

namespace strata::codec::internal {
namespace {

// Arrow's default too; brotli's own default, 11, is far slower to write.
constexpr int kBrotliDefaultQuality = 8;

class BrotliCodec final : public Codec {
 public:
  BrotliCodec(MemoryPool* pool, int level) : Codec(CompressionCodec::kBrotli, level), allocator_(pool) {}

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    allocator_.clear_allocation_failed();
    BrotliDecoderState* state =
        BrotliDecoderCreateInstance(PoolAllocator::AllocCallback, PoolAllocator::FreeCallback, &allocator_);
    if (state == nullptr) return Status::OutOfMemory("cannot allocate a BROTLI decoder");
    const uint8_t* next_in = input.data();
    size_t avail_in = input.size();
    uint8_t* next_out = output.data();
    size_t avail_out = output.size();
    const BrotliDecoderResult result =
        BrotliDecoderDecompressStream(state, &avail_in, &next_in, &avail_out, &next_out, nullptr);
    const BrotliDecoderErrorCode error = BrotliDecoderGetErrorCode(state);
    BrotliDecoderDestroyInstance(state);
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
    if (allocator_.allocation_failed()) {
      return Status::OutOfMemory("BROTLI decompression: the memory pool refused an allocation");
    }
    return Status::Corrupt("BROTLI data of {} bytes is malformed at byte {}: {}", input.size(),
                           input.size() - avail_in, BrotliDecoderErrorString(error));
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    allocator_.clear_allocation_failed();
    BrotliEncoderState* state =
        BrotliEncoderCreateInstance(PoolAllocator::AllocCallback, PoolAllocator::FreeCallback, &allocator_);
    if (state == nullptr) return Status::OutOfMemory("cannot allocate a BROTLI encoder");
    BrotliEncoderSetParameter(state, BROTLI_PARAM_QUALITY, static_cast<uint32_t>(compression_level()));
    BrotliEncoderSetParameter(state, BROTLI_PARAM_LGWIN, BROTLI_DEFAULT_WINDOW);
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
                     ? Status::OutOfMemory("BROTLI compression: the memory pool refused an allocation")
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

}  // namespace

Result<std::unique_ptr<Codec>> MakeBrotliCodec(MemoryPool* pool, int level) {
  STRATA_ASSIGN_OR_RETURN(int resolved, ResolveLevel(CompressionCodec::kBrotli, level, kBrotliDefaultQuality,
                                                     BROTLI_MIN_QUALITY, BROTLI_MAX_QUALITY));
  return std::unique_ptr<Codec>(new BrotliCodec(pool, resolved));
}

}  // namespace strata::codec::internal
