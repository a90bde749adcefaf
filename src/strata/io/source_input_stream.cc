#include "strata/io/source_input_stream.h"

#include <algorithm>
#include <cstring>
#include <future>

#include "strata/memory/buffer.h"

namespace strata {
namespace {

class SourceInputStream final : public InputStream {
 public:
  SourceInputStream(std::shared_ptr<RandomAccessSource> source, int64_t size, int64_t chunk_bytes, MemoryPool* pool)
      : source_(std::move(source)), size_(size), chunk_bytes_(chunk_bytes), current_(std::make_unique<ResizableBuffer>(pool)),
        next_(std::make_unique<ResizableBuffer>(pool)) {}

  ~SourceInputStream() override {
    if (pending_.valid()) (void)pending_.get();  // the fetch writes into next_: let it finish
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (out.empty()) return int64_t{0};
    if (position_ == current_->size()) {
      if (fetched_ == size_ && !pending_.valid()) return int64_t{0};
      STRATA_RETURN_NOT_OK(Advance());
      if (current_->size() == 0) return int64_t{0};
    }
    const int64_t n = std::min<int64_t>(static_cast<int64_t>(out.size()), current_->size() - position_);
    std::memcpy(out.data(), current_->data() + position_, static_cast<size_t>(n));
    position_ += n;
    consumed_ += n;
    return n;
  }

  const std::string& name() const override { return source_->name(); }
  int64_t raw_bytes_read() const override { return consumed_; }
  int64_t raw_size() const override { return size_; }
  int64_t memory_size() const override { return current_->capacity() + next_->capacity(); }

 private:
  // Starts fetching the next range into next_ on another thread.
  Status StartFetch() {
    const int64_t length = std::min(chunk_bytes_, size_ - fetched_);
    if (length <= 0) return Status::OK();
    STRATA_RETURN_NOT_OK(next_->Resize(length));
    uint8_t* target = next_->mutable_data();
    const int64_t offset = fetched_;
    fetched_ += length;
    pending_ = std::async(std::launch::async,
                          [source = source_.get(), offset, length, target] { return source->ReadAt(offset, length, target); });
    return Status::OK();
  }

  // Makes the fetched range current and starts the one after it.
  Status Advance() {
    if (!pending_.valid()) STRATA_RETURN_NOT_OK(StartFetch());  // the first read
    if (!pending_.valid()) {
      current_->Clear();
      position_ = 0;
      return Status::OK();
    }
    STRATA_RETURN_NOT_OK(pending_.get());
    std::swap(current_, next_);
    position_ = 0;
    return StartFetch();
  }

  std::shared_ptr<RandomAccessSource> source_;
  int64_t size_;
  int64_t chunk_bytes_;
  std::unique_ptr<ResizableBuffer> current_;
  std::unique_ptr<ResizableBuffer> next_;
  std::future<Status> pending_;
  int64_t position_ = 0;  // in current_
  int64_t fetched_ = 0;   // bytes of the source asked for so far
  int64_t consumed_ = 0;
};

}  // namespace

Result<std::unique_ptr<InputStream>> MakeSourceInputStream(std::shared_ptr<RandomAccessSource> source,
                                                           MemoryPool* pool, int64_t chunk_bytes) {
  if (source == nullptr || pool == nullptr || chunk_bytes <= 0) {
    return Status::Invalid("MakeSourceInputStream needs a source, a pool and a positive chunk size");
  }
  STRATA_ASSIGN_OR_RETURN(const int64_t size, source->Size());
  return std::unique_ptr<InputStream>(new SourceInputStream(std::move(source), size, chunk_bytes, pool));
}

}  // namespace strata
