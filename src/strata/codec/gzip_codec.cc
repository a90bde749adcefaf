// GZIP: a page holds one or more gzip members (RFC 1952); some writers emit zlib streams
// (RFC 1950) instead, so the header is auto-detected. Concatenated members must all be
// decoded (parquet-testing's concatenated_gzip_members.parquet): after each member ends,
// inflate is reset and continues while input remains. Reset keeps the 32 KiB window, so the
// z_stream allocates only on first use.
#include <zlib.h>

#include <algorithm>
#include <limits>

#include "strata/codec/codec_internal.h"
#include "strata/codec/pool_allocator.h"

namespace strata::codec::internal {
namespace {

// windowBits for inflate: 15 (32 KiB window) + 32 = detect a gzip or a zlib header.
constexpr int kInflateWindowBits = 15 + 32;
// windowBits for deflate: 15 + 16 = write a gzip header and trailer.
constexpr int kDeflateWindowBits = 15 + 16;
// zlib counts in uInt; larger inputs are fed in slices of this size.
constexpr size_t kMaxZlibChunk = std::numeric_limits<uInt>::max();

void InitZStream(z_stream* stream, PoolAllocator* allocator) {
  *stream = z_stream{};
  stream->zalloc = PoolAllocator::ZlibAllocCallback;
  stream->zfree = PoolAllocator::FreeCallback;
  stream->opaque = allocator;
}

// `input_position` counts the input bytes consumed before the failure.
Status ZlibError(int code, const z_stream& stream, const PoolAllocator& allocator, std::string_view what,
                 size_t input_position) {
  if (code == Z_MEM_ERROR || allocator.allocation_failed()) {
    return allocator.OutOfMemoryError(fmt::format("GZIP {}", what));
  }
  return Status::Corrupt("GZIP {} failed at input byte {}: {} (zlib code {})", what, input_position,
                         stream.msg != nullptr ? stream.msg : "no message", code);
}

// An inflater over one input span, shared by the one-shot codec and the streaming
// decompressor. Inflate() fills `out` as far as the data goes.
class Inflater {
 public:
  explicit Inflater(MemoryPool* pool) : allocator_(pool) {}
  ~Inflater() {
    if (initialized_) inflateEnd(&stream_);
  }

  Status Reset(std::span<const uint8_t> input) {
    allocator_.clear_allocation_failed();
    if (!initialized_) {
      InitZStream(&stream_, &allocator_);
      const int rc = inflateInit2(&stream_, kInflateWindowBits);
      if (rc != Z_OK) return ZlibError(rc, stream_, allocator_, "inflate initialisation", 0);
      initialized_ = true;
    } else {
      inflateReset(&stream_);
    }
    input_ = input;
    consumed_ = 0;
    member_open_ = false;
    member_ended_ = false;
    return Status::OK();
  }

  // True once every input byte is consumed and the last member has ended.
  bool finished() const { return consumed_ == input_.size() && !member_open_; }

  // Decompresses into `out` until it is full or the input is finished; returns the number of
  // bytes written. Input ending inside a member, or trailing bytes that are not a member, are
  // Corrupt.
  Result<size_t> Inflate(std::span<uint8_t> out) {
    // zlib rejects a null next_out even with avail_out 0.
    uint8_t dummy;
    uint8_t* out_begin = out.empty() ? &dummy : out.data();
    size_t produced = 0;
    allocator_.clear_allocation_failed();
    // Runs even when `out` is full: headers, trailers and empty members need no output space.
    while (!finished()) {
      if (member_ended_) {
        inflateReset(&stream_);  // the next member of a concatenation
        member_ended_ = false;
      }
      member_open_ = true;
      const size_t in_chunk = std::min(input_.size() - consumed_, kMaxZlibChunk);
      const size_t out_chunk = std::min(out.size() - produced, kMaxZlibChunk);
      stream_.next_in = const_cast<Bytef*>(input_.data() + consumed_);
      stream_.avail_in = static_cast<uInt>(in_chunk);
      stream_.next_out = out_begin + produced;
      stream_.avail_out = static_cast<uInt>(out_chunk);
      const int rc = inflate(&stream_, Z_NO_FLUSH);
      const size_t used_in = in_chunk - stream_.avail_in;
      const size_t used_out = out_chunk - stream_.avail_out;
      consumed_ += used_in;
      produced += used_out;
      if (rc == Z_STREAM_END) {
        member_open_ = false;
        member_ended_ = true;
        continue;
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) return ZlibError(rc, stream_, allocator_, "decompression", consumed_);
      if (used_in == 0 && used_out == 0) {
        if (produced == out.size()) break;  // the caller's window is full
        if (consumed_ == input_.size()) {
          return Status::Corrupt("GZIP data of {} bytes ends inside a member after {} bytes of output",
                                 input_.size(), stream_.total_out);
        }
        return Status::Corrupt("GZIP decompression stalled at input byte {} of {}", consumed_, input_.size());
      }
    }
    return produced;
  }

  const PoolAllocator& allocator() const { return allocator_; }

 private:
  PoolAllocator allocator_;
  z_stream stream_{};
  bool initialized_ = false;
  std::span<const uint8_t> input_;
  size_t consumed_ = 0;
  bool member_open_ = false;   // a member has started and not yet ended
  bool member_ended_ = false;  // inflate must be reset before the next member
};

class GzipCodec final : public Codec {
 public:
  GzipCodec(MemoryPool* pool, int level)
      : Codec(CompressionCodec::kGzip, level), inflater_(pool), deflate_allocator_(pool) {}
  ~GzipCodec() override {
    if (deflate_initialized_) deflateEnd(&deflate_stream_);
  }

  Result<int64_t> Decompress(std::span<const uint8_t> input, std::span<uint8_t> output) override {
    STRATA_RETURN_NOT_OK(inflater_.Reset(input));
    STRATA_ASSIGN_OR_RETURN(size_t written, inflater_.Inflate(output));
    if (!inflater_.finished()) {
      // The output is full and the data goes on: either it really is longer than declared,
      // or the input is cut short or damaged after this point. A few more bytes tell which.
      uint8_t probe[64];
      STRATA_ASSIGN_OR_RETURN(size_t extra, inflater_.Inflate(probe));
      if (extra > 0 || !inflater_.finished()) return OutputOverflow(type(), input.size(), output.size());
    }
    return static_cast<int64_t>(written);
  }

  Status Compress(std::span<const uint8_t> input, ResizableBuffer* output) override {
    deflate_allocator_.clear_allocation_failed();
    if (!deflate_initialized_) {
      InitZStream(&deflate_stream_, &deflate_allocator_);
      const int rc = deflateInit2(&deflate_stream_, compression_level(), Z_DEFLATED, kDeflateWindowBits,
                                  /*memLevel=*/8, Z_DEFAULT_STRATEGY);
      if (rc != Z_OK) return ZlibError(rc, deflate_stream_, deflate_allocator_, "deflate initialisation", 0);
      deflate_initialized_ = true;
    } else {
      deflateReset(&deflate_stream_);
    }
    STRATA_RETURN_NOT_OK(output->Reserve(MaxCompressedLength(static_cast<int64_t>(input.size()))));
    size_t consumed = 0;
    size_t produced = 0;
    const size_t capacity = static_cast<size_t>(output->capacity());
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      const size_t in_chunk = std::min(input.size() - consumed, kMaxZlibChunk);
      const size_t out_chunk = std::min(capacity - produced, kMaxZlibChunk);
      deflate_stream_.next_in = const_cast<Bytef*>(input.data() + consumed);
      deflate_stream_.avail_in = static_cast<uInt>(in_chunk);
      deflate_stream_.next_out = output->mutable_data() + produced;
      deflate_stream_.avail_out = static_cast<uInt>(out_chunk);
      const bool last = consumed + in_chunk == input.size();
      rc = deflate(&deflate_stream_, last ? Z_FINISH : Z_NO_FLUSH);
      consumed += in_chunk - deflate_stream_.avail_in;
      produced += out_chunk - deflate_stream_.avail_out;
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
        return ZlibError(rc, deflate_stream_, deflate_allocator_, "compression", consumed);
      }
      if (rc == Z_BUF_ERROR && produced == capacity) {
        return Status::Invalid("GZIP output exceeded deflateBound for {} input bytes", input.size());
      }
    }
    output->set_size(static_cast<int64_t>(produced));
    return Status::OK();
  }

  int64_t MaxCompressedLength(int64_t input_size) const override {
    // deflateBound's figure for default settings plus the gzip header and trailer (18 bytes,
    // which compressBound leaves out), with room for an empty stored block per 4 GiB slice.
    const uint64_t n = static_cast<uint64_t>(input_size);
    return static_cast<int64_t>(n + (n >> 12) + (n >> 14) + (n >> 25) + 13 + 18 + 5 * (n / kMaxZlibChunk + 1));
  }

  int64_t memory_size() const override {
    return inflater_.allocator().bytes_in_use() + deflate_allocator_.bytes_in_use();
  }

 private:
  Inflater inflater_;
  PoolAllocator deflate_allocator_;
  z_stream deflate_stream_{};
  bool deflate_initialized_ = false;
};

class GzipStreamingDecompressor final : public StreamingDecompressor {
 public:
  explicit GzipStreamingDecompressor(MemoryPool* pool) : inflater_(pool) {}

  Status Reset(std::span<const uint8_t> compressed_input) override {
    total_out_ = 0;
    reset_ = true;
    return inflater_.Reset(compressed_input);
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (!reset_) return Status::Invalid("GZIP streaming decompressor read before Reset()");
    STRATA_ASSIGN_OR_RETURN(size_t written, inflater_.Inflate(out));
    total_out_ += static_cast<int64_t>(written);
    return static_cast<int64_t>(written);
  }

  bool finished() const override { return reset_ && inflater_.finished(); }
  int64_t memory_size() const override { return inflater_.allocator().bytes_in_use(); }

 private:
  Inflater inflater_;
  bool reset_ = false;
};

}  // namespace

Result<std::unique_ptr<Codec>> MakeGzipCodec(MemoryPool* pool, int level) {
  STRATA_ASSIGN_OR_RETURN(int resolved, ResolveLevel(CompressionCodec::kGzip, level, 6, 0, 9));
  return std::unique_ptr<Codec>(new GzipCodec(pool, resolved));
}

std::unique_ptr<StreamingDecompressor> MakeGzipStreamingDecompressor(MemoryPool* pool) {
  return std::make_unique<GzipStreamingDecompressor>(pool);
}

}  // namespace strata::codec::internal
