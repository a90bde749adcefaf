#include "strata/io/output_sink.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>

#include <cerrno>
#include <cstring>
#include <random>

#include <fmt/format.h>

namespace strata {
namespace {

// Temporary files of open file sinks, for the signal handler: fixed storage, claimed and
// released with atomics, read with nothing but unlink() (async-signal-safe).
constexpr int kMaxTrackedFiles = 64;
constexpr size_t kMaxTrackedPath = 4096;
std::atomic<bool> tracked_used[kMaxTrackedFiles];
std::atomic<bool> tracked_ready[kMaxTrackedFiles];
char tracked_paths[kMaxTrackedFiles][kMaxTrackedPath];

int TrackTemporaryFile(const std::string& path) {
  if (path.size() >= kMaxTrackedPath) return -1;
  for (int i = 0; i < kMaxTrackedFiles; ++i) {
    bool expected = false;
    if (tracked_used[i].compare_exchange_strong(expected, true)) {
      std::memcpy(tracked_paths[i], path.c_str(), path.size() + 1);
      tracked_ready[i].store(true, std::memory_order_release);
      return i;
    }
  }
  return -1;  // more open sinks than slots: those are not cleaned up on a signal
}

void UntrackTemporaryFile(int slot) {
  if (slot < 0) return;
  tracked_ready[slot].store(false, std::memory_order_release);
  tracked_used[slot].store(false, std::memory_order_release);
}

void RemoveTrackedFilesAndDie(int signal_number) {
  for (int i = 0; i < kMaxTrackedFiles; ++i) {
    if (tracked_ready[i].load(std::memory_order_acquire)) ::unlink(tracked_paths[i]);
  }
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

class FileSink final : public OutputSink {
 public:
  FileSink(std::string path, std::string temp_path, int fd, MemoryPool* pool, const FileSinkOptions& options)
      : path_(std::move(path)), temp_path_(std::move(temp_path)), fd_(fd), buffer_(pool), options_(options) {
    tracked_slot_ = TrackTemporaryFile(temp_path_);
  }

  ~FileSink() override {
    Abort();
    UntrackTemporaryFile(tracked_slot_);
  }

  Status Init() { return buffer_.Reserve(options_.buffer_bytes); }

  Status Write(const void* data, int64_t size) override {
    if (fd_ < 0) return Status::IOError("'{}' is closed", path_);
    if (size <= 0) return Status::OK();
    Status status = Append(static_cast<const uint8_t*>(data), size);
    if (!status.ok()) Abort();  // a failed write leaves no temporary file behind
    return status;
  }

  Status Append(const uint8_t* data, int64_t size) {
    const uint8_t* bytes = data;
    if (buffer_.size() + size <= buffer_.capacity()) {
      buffer_.UnsafeAppend(bytes, size);
    } else {
      STRATA_RETURN_NOT_OK(Flush());
      if (size >= buffer_.capacity()) {
        STRATA_RETURN_NOT_OK(WriteAll(bytes, size));  // large writes skip the copy
      } else {
        buffer_.UnsafeAppend(bytes, size);
      }
    }
    position_ += size;
    return Status::OK();
  }

  Status Close() override {
    if (fd_ < 0) return committed_ ? Status::OK() : Status::IOError("'{}' is closed", path_);
    Status status = Flush();
    if (status.ok() && options_.sync && ::fsync(fd_) != 0) {
      status = Status::IOError("syncing '{}': {}", temp_path_, std::strerror(errno));
    }
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0 && status.ok()) {
      status = Status::IOError("closing '{}': {}", temp_path_, std::strerror(errno));
    }
    if (status.ok() && ::rename(temp_path_.c_str(), path_.c_str()) != 0) {
      status = Status::IOError("renaming '{}' to '{}': {}", temp_path_, path_, std::strerror(errno));
    }
    if (!status.ok()) {
      ::unlink(temp_path_.c_str());
      buffer_.Release();
      UntrackTemporaryFile(tracked_slot_);
      tracked_slot_ = -1;
      return status;
    }
    UntrackTemporaryFile(tracked_slot_);  // renamed: nothing of ours left to remove
    tracked_slot_ = -1;
    committed_ = true;
    buffer_.Release();
    return Status::OK();
  }

  void Abort() override {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
      ::unlink(temp_path_.c_str());
    }
    UntrackTemporaryFile(tracked_slot_);
    tracked_slot_ = -1;
    buffer_.Release();
  }

  const std::string& name() const override { return path_; }

 private:
  Status Flush() {
    if (buffer_.size() == 0) return Status::OK();
    STRATA_RETURN_NOT_OK(WriteAll(buffer_.data(), buffer_.size()));
    buffer_.Clear();
    return Status::OK();
  }

  Status WriteAll(const uint8_t* data, int64_t size) {
    int64_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd_, data + done, static_cast<size_t>(size - done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("writing {} bytes at offset {} of '{}': {}", size - done, written_ + done, path_,
                               std::strerror(errno));
      }
      done += n;
    }
    written_ += size;
    return Status::OK();
  }

  std::string path_;
  std::string temp_path_;
  int fd_;
  ResizableBuffer buffer_;
  FileSinkOptions options_;
  int64_t written_ = 0;  // bytes handed to write(2)
  bool committed_ = false;
  int tracked_slot_ = -1;  // in the signal handler's table
};

// "<dir>/.<name>.strata-<16 hex digits>.tmp": hidden, beside the target (so rename() stays
// within one file system), unique per attempt.
std::string TemporaryPathFor(const std::string& path, uint64_t nonce) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return fmt::format("{}.{}.strata-{:016x}.tmp", dir, base, nonce);
}

}  // namespace

void RemoveTemporaryFilesOnSignals() {
  for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = RemoveTrackedFilesAndDie;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

Status FileSinkOptions::Validate() const {
  if (buffer_bytes < 4096 || buffer_bytes > (int64_t{1} << 30)) {
    return Status::Invalid("file sink buffer_bytes must be in [4096, 1 GiB], got {}", buffer_bytes);
  }
  return Status::OK();
}

Result<std::unique_ptr<OutputSink>> OpenFileSink(const std::string& path, MemoryPool* pool,
                                                 const FileSinkOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  if (path.empty() || path.back() == '/') return Status::Invalid("'{}' is not a file path", path);
  std::random_device random;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const uint64_t nonce = (uint64_t{random()} << 32) ^ random() ^ static_cast<uint64_t>(::getpid());
    std::string temp_path = TemporaryPathFor(path, nonce);
    const int fd = ::open(temp_path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) {
      if (errno == EEXIST) continue;
      return Status::IOError("cannot create '{}' (for '{}'): {}", temp_path, path, std::strerror(errno));
    }
    auto sink = std::make_unique<FileSink>(path, std::move(temp_path), fd, pool, options);
    STRATA_RETURN_NOT_OK(sink->Init());
    return std::unique_ptr<OutputSink>(std::move(sink));
  }
  return Status::IOError("cannot create a temporary file beside '{}'", path);
}

Status BufferSink::Write(const void* data, int64_t size) {
  if (closed_) return Status::IOError("the memory sink is closed");
  STRATA_RETURN_NOT_OK(buffer_->Append(data, size));
  position_ += size;
  return Status::OK();
}

Status BufferSink::Close() {
  closed_ = true;
  return Status::OK();
}

void BufferSink::Abort() {
  closed_ = true;
  buffer_->Release();
}

Result<std::shared_ptr<Buffer>> BufferSink::Finish() {
  if (!closed_) return Status::Invalid("BufferSink::Finish before Close");
  return std::static_pointer_cast<Buffer>(buffer_);
}

}  // namespace strata
