#include "strata/codec/decompressing_input_stream.h"

#include "strata/io/location.h"
#include "strata/io/source_input_stream.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_customMem: the context allocates from the pool
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>

#include "strata/codec/pool_allocator.h"
#include "strata/memory/buffer.h"

namespace strata::codec {
namespace {

// What one call into the library did.
struct StepResult {
  size_t consumed = 0;     // compressed bytes taken from the input
  size_t produced = 0;     // decompressed bytes written
  bool unit_ended = false;  // a gzip member or zstd frame ended (and is fully flushed)
};

// The loop shared by both formats: refill the input buffer, run the library, and move from one
// member or frame to the next. Subclasses only wrap the library calls.
class DecompressingInputStream : public InputStream {
 public:
  DecompressingInputStream(std::unique_ptr<InputStream> input, std::shared_ptr<ResizableBuffer> buffer,
                           MemoryPool* pool)
      : allocator_(pool), input_(std::move(input)), buffer_(std::move(buffer)) {}

  Result<int64_t> Read(std::span<uint8_t> out) override {
    size_t produced = 0;
    while (produced < out.size() && !finished_) {
      if (in_position_ == in_size_ && !input_ended_) {
        // Hand back what is decoded rather than wait on a pipe for more input.
        if (produced > 0) break;
        STRATA_RETURN_NOT_OK(Refill());
        continue;
      }
      const bool input_exhausted = in_position_ == in_size_;  // and input_ended_ if so
      if (input_exhausted && !unit_open_) {
        if (units_ == 0) {
          return Status::Corrupt("'{}' is empty: 0 bytes hold no {} {}", name(), format_name(), unit_name());
        }
        finished_ = true;
        break;
      }
      if (!unit_open_) {
        if (units_ > 0) STRATA_RETURN_NOT_OK(BeginNextUnit());
        unit_open_ = true;
      }
      StepResult step;
      const Status status = Step({buffer_->data() + in_position_, in_size_ - in_position_},
                                 out.subspan(produced), &step);
      const int64_t offset = compressed_offset() + static_cast<int64_t>(step.consumed);
      if (!status.ok()) {
        return status.WithContext(fmt::format("'{}' at compressed offset {}", name(), offset));
      }
      in_position_ += step.consumed;
      produced += step.produced;
      decompressed_bytes_ += static_cast<int64_t>(step.produced);
      if (step.unit_ended) {
        unit_open_ = false;
        ++units_;
      } else if (step.consumed == 0 && step.produced == 0) {
        if (!input_exhausted) {
          // Input and output room but no progress: never expected; fail rather than spin.
          return Status::Corrupt("'{}': {} decoder stalled at compressed offset {}", name(), format_name(),
                                 offset);
        }
        if (input_ended_) {
          return Status::Corrupt("'{}' is truncated: it ends inside {} {} {} at compressed offset {}, after "
                                 "{} decompressed bytes",
                                 name(), format_name(), unit_name(), units_ + 1, offset, decompressed_bytes_);
        }
      }
    }
    return static_cast<int64_t>(produced);
  }

  const std::string& name() const override { return input_->name(); }
  int64_t raw_bytes_read() const override { return input_->raw_bytes_read(); }
  int64_t raw_size() const override { return input_->raw_size(); }
  int64_t memory_size() const override {
    return buffer_->capacity() + allocator_.bytes_in_use() + input_->memory_size();
  }

  // Sets the library up; called once, before the first Read().
  virtual Status Init() = 0;

 protected:
  // Runs the library once over `in` into `out` (`out` is never empty). Errors carry no
  // location: Read() adds the stream's name and offset.
  virtual Status Step(std::span<const uint8_t> in, std::span<uint8_t> out, StepResult* result) = 0;
  // Prepares for the member or frame after one that ended.
  virtual Status BeginNextUnit() = 0;
  virtual std::string_view format_name() const = 0;
  virtual std::string_view unit_name() const = 0;

  PoolAllocator allocator_;

 private:
  int64_t compressed_offset() const { return chunk_offset_ + static_cast<int64_t>(in_position_); }

  Status Refill() {
    chunk_offset_ += static_cast<int64_t>(in_size_);
    in_position_ = in_size_ = 0;
    STRATA_ASSIGN_OR_RETURN(
        const int64_t n,
        input_->Read({buffer_->mutable_data(), static_cast<size_t>(kDecompressionChunkBytes)}));
    if (n == 0) input_ended_ = true;
    in_size_ = static_cast<size_t>(n);
    return Status::OK();
  }

  std::unique_ptr<InputStream> input_;
  std::shared_ptr<ResizableBuffer> buffer_;  // kDecompressionChunkBytes of compressed input
  size_t in_position_ = 0;                   // next unread byte in buffer_
  size_t in_size_ = 0;                       // valid bytes in buffer_
  int64_t chunk_offset_ = 0;                 // compressed offset of buffer_[0]
  bool input_ended_ = false;
  bool unit_open_ = false;  // inside a member or frame
  int64_t units_ = 0;       // members or frames completed
  int64_t decompressed_bytes_ = 0;
  bool finished_ = false;
};

class GzipInputStream final : public DecompressingInputStream {
 public:
  using DecompressingInputStream::DecompressingInputStream;
  ~GzipInputStream() override {
    if (initialized_) inflateEnd(&stream_);
  }

  Status Init() override {
    stream_ = z_stream{};
    stream_.zalloc = PoolAllocator::ZlibAllocCallback;
    stream_.zfree = PoolAllocator::FreeCallback;
    stream_.opaque = &allocator_;
    // 15: a 32 KiB window, the largest deflate uses; +32: detect a gzip or a zlib header.
    const int rc = inflateInit2(&stream_, 15 + 32);
    if (rc != Z_OK) return Error(rc);
    initialized_ = true;
    return Status::OK();
  }

 protected:
  Status Step(std::span<const uint8_t> in, std::span<uint8_t> out, StepResult* result) override {
    // zlib counts in uInt; the input is one chunk, the output is capped per call.
    const size_t out_size = std::min<size_t>(out.size(), size_t{1} << 30);
    stream_.next_in = const_cast<Bytef*>(in.data());
    stream_.avail_in = static_cast<uInt>(in.size());
    stream_.next_out = out.data();
    stream_.avail_out = static_cast<uInt>(out_size);
    allocator_.clear_allocation_failed();
    const int rc = inflate(&stream_, Z_NO_FLUSH);
    result->consumed = in.size() - stream_.avail_in;
    result->produced = out_size - stream_.avail_out;
    result->unit_ended = rc == Z_STREAM_END;
    // Z_BUF_ERROR only means no progress was possible: Read() decides whether that is an end.
    if (rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR) return Status::OK();
    return Error(rc);
  }

  Status BeginNextUnit() override {
    // Keeps the window allocated: the next member costs nothing.
    const int rc = inflateReset(&stream_);
    return rc == Z_OK ? Status::OK() : Error(rc);
  }

  std::string_view format_name() const override { return "gzip"; }
  std::string_view unit_name() const override { return "member"; }

 private:
  Status Error(int rc) const {
    if (rc == Z_MEM_ERROR || allocator_.allocation_failed()) {
      return allocator_.OutOfMemoryError("gzip decompression");
    }
    if (rc == Z_NEED_DICT) return Status::Corrupt("the zlib stream needs a preset dictionary");
    return Status::Corrupt("invalid gzip data: {} (zlib code {})",
                           stream_.msg != nullptr ? stream_.msg : "no message", rc);
  }

  z_stream stream_{};
  bool initialized_ = false;
};

class ZstdInputStream final : public DecompressingInputStream {
 public:
  using DecompressingInputStream::DecompressingInputStream;
  ~ZstdInputStream() override { ZSTD_freeDCtx(dctx_); }

  Status Init() override {
    allocator_.clear_allocation_failed();
    dctx_ = ZSTD_createDCtx_advanced(
        ZSTD_customMem{PoolAllocator::AllocCallback, PoolAllocator::FreeCallback, &allocator_});
    if (dctx_ == nullptr) return allocator_.OutOfMemoryError("zstd decompression context");
    const size_t rc = ZSTD_DCtx_setParameter(dctx_, ZSTD_d_windowLogMax, kMaxZstdWindowLog);
    if (ZSTD_isError(rc)) return Status::Invalid("zstd rejects windowLogMax: {}", ZSTD_getErrorName(rc));
    return Status::OK();
  }

 protected:
  Status Step(std::span<const uint8_t> in, std::span<uint8_t> out, StepResult* result) override {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{out.data(), out.size(), 0};
    allocator_.clear_allocation_failed();
    // Returns 0 exactly when a frame is decoded and flushed, stopping there; skippable frames
    // are consumed without output.
    const size_t hint = ZSTD_decompressStream(dctx_, &output, &input);
    result->consumed = input.pos;
    result->produced = output.pos;
    if (ZSTD_isError(hint)) {
      if (ZSTD_getErrorCode(hint) == ZSTD_error_frameParameter_windowTooLarge) {
        return Status::LimitExceeded("the zstd frame needs a window above {} MiB, the limit for streams",
                                     (int64_t{1} << kMaxZstdWindowLog) >> 20);
      }
      if (allocator_.allocation_failed() || ZSTD_getErrorCode(hint) == ZSTD_error_memory_allocation) {
        return allocator_.OutOfMemoryError("zstd decompression");
      }
      return Status::Corrupt("invalid zstd data: {}", ZSTD_getErrorName(hint));
    }
    result->unit_ended = hint == 0;
    return Status::OK();
  }

  // The context moves on to the next frame by itself.
  Status BeginNextUnit() override { return Status::OK(); }
  std::string_view format_name() const override { return "zstd"; }
  std::string_view unit_name() const override { return "frame"; }

 private:
  ZSTD_DCtx* dctx_ = nullptr;
};

// Replays the few bytes read to sniff the format, then reads on from the stream.
class PeekedInputStream final : public InputStream {
 public:
  explicit PeekedInputStream(std::unique_ptr<InputStream> input) : input_(std::move(input)) {}

  // Reads until `peeked()` holds kPeekBytes bytes or the input ends.
  Status Peek() {
    while (peeked_size_ < kPeekBytes) {
      STRATA_ASSIGN_OR_RETURN(const int64_t n,
                              input_->Read(std::span(peeked_).subspan(peeked_size_)));
      if (n == 0) break;
      peeked_size_ += static_cast<size_t>(n);
    }
    return Status::OK();
  }
  std::span<const uint8_t> peeked() const { return std::span(peeked_).first(peeked_size_); }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (replayed_ < peeked_size_ && !out.empty()) {
      const size_t n = std::min(out.size(), peeked_size_ - replayed_);
      std::memcpy(out.data(), peeked_.data() + replayed_, n);
      replayed_ += n;
      return static_cast<int64_t>(n);
    }
    return input_->Read(out);
  }
  const std::string& name() const override { return input_->name(); }
  int64_t raw_bytes_read() const override { return input_->raw_bytes_read(); }
  int64_t raw_size() const override { return input_->raw_size(); }
  int64_t memory_size() const override { return input_->memory_size(); }

  static constexpr size_t kPeekBytes = 4;  // the longer magic, zstd's

 private:
  std::unique_ptr<InputStream> input_;
  std::array<uint8_t, kPeekBytes> peeked_{};
  size_t peeked_size_ = 0;
  size_t replayed_ = 0;
};

StreamCompression SniffCompression(std::span<const uint8_t> head) {
  static constexpr uint8_t kGzipMagic[] = {0x1f, 0x8b};
  static constexpr uint8_t kZstdMagic[] = {0x28, 0xb5, 0x2f, 0xfd};
  if (head.size() >= sizeof(kGzipMagic) && std::memcmp(head.data(), kGzipMagic, sizeof(kGzipMagic)) == 0) {
    return StreamCompression::kGzip;
  }
  if (head.size() >= sizeof(kZstdMagic) && std::memcmp(head.data(), kZstdMagic, sizeof(kZstdMagic)) == 0) {
    return StreamCompression::kZstd;
  }
  return StreamCompression::kNone;
}

bool EndsWithIgnoringCase(std::string_view text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  const std::string_view tail = text.substr(text.size() - suffix.size());
  return std::equal(tail.begin(), tail.end(), suffix.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == b;
  });
}

}  // namespace

std::string_view StreamCompressionName(StreamCompression compression) {
  switch (compression) {
    case StreamCompression::kNone: return "none";
    case StreamCompression::kGzip: return "gzip";
    case StreamCompression::kZstd: return "zstd";
  }
  return "unknown";
}

Result<std::unique_ptr<InputStream>> MakeDecompressingInputStream(std::unique_ptr<InputStream> input,
                                                                  StreamCompression compression,
                                                                  MemoryPool* pool) {
  if (input == nullptr) return Status::Invalid("MakeDecompressingInputStream needs an input stream");
  if (compression == StreamCompression::kNone) return input;
  if (pool == nullptr) return Status::Invalid("MakeDecompressingInputStream needs a memory pool");
  STRATA_ASSIGN_OR_RETURN(auto buffer, AllocateBuffer(pool, kDecompressionChunkBytes));
  std::unique_ptr<DecompressingInputStream> stream;
  switch (compression) {
    case StreamCompression::kGzip:
      stream = std::make_unique<GzipInputStream>(std::move(input), std::move(buffer), pool);
      break;
    case StreamCompression::kZstd:
      stream = std::make_unique<ZstdInputStream>(std::move(input), std::move(buffer), pool);
      break;
    default:
      return Status::Invalid("unknown stream compression {}", static_cast<int>(compression));
  }
  STRATA_RETURN_NOT_OK(stream->Init().WithContext(stream->name()));
  return std::unique_ptr<InputStream>(std::move(stream));
}

StreamCompression CompressionFromPath(std::string_view path) {
  if (EndsWithIgnoringCase(path, ".gz")) return StreamCompression::kGzip;
  if (EndsWithIgnoringCase(path, ".zst") || EndsWithIgnoringCase(path, ".zstd")) {
    return StreamCompression::kZstd;
  }
  return StreamCompression::kNone;
}

Result<std::unique_ptr<InputStream>> OpenInputStream(const std::string& path, MemoryPool* pool,
                                                     const StorageOptions& storage) {
  std::unique_ptr<InputStream> stream;
  if (IsRemoteLocation(path)) {
    STRATA_ASSIGN_OR_RETURN(auto source, OpenInputLocation(path, storage));
    STRATA_ASSIGN_OR_RETURN(stream, MakeSourceInputStream(std::move(source), pool));
  } else {
    STRATA_ASSIGN_OR_RETURN(stream, OpenFileInputStream(path));
  }
  StreamCompression compression = CompressionFromPath(path);
  if (compression == StreamCompression::kNone) {
    auto peeked = std::make_unique<PeekedInputStream>(std::move(stream));
    STRATA_RETURN_NOT_OK(peeked->Peek());
    compression = SniffCompression(peeked->peeked());
    stream = std::move(peeked);
  }
  return MakeDecompressingInputStream(std::move(stream), compression, pool);
}

}  // namespace strata::codec
