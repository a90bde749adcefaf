#include "strata/io/input_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace strata {
namespace {

// Linux transfers at most 0x7ffff000 bytes per read(2); asking for 1 GiB at a time keeps the
// count well inside ssize_t everywhere.
constexpr size_t kMaxReadBytes = size_t{1} << 30;

class FileInputStream final : public InputStream {
 public:
  // `owns_fd`: false for standard input, which outlives the stream.
  FileInputStream(int fd, bool owns_fd, int64_t size, std::string path)
      : fd_(fd), owns_fd_(owns_fd), size_(size), path_(std::move(path)) {}
  ~FileInputStream() override {
    if (owns_fd_) ::close(fd_);
  }

  Result<int64_t> Read(std::span<uint8_t> out) override {
    if (out.empty() || at_end_) return int64_t{0};
    const size_t want = std::min(out.size(), kMaxReadBytes);
    while (true) {
      const ssize_t n = ::read(fd_, out.data(), want);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("reading '{}' after {} bytes: {}", path_, bytes_read_, std::strerror(errno));
      }
      // Once read(2) has reported the end, stay there: a terminal could deliver more after
      // Ctrl-D, but a stream's contract is a single end.
      if (n == 0) at_end_ = true;
      bytes_read_ += n;
      return static_cast<int64_t>(n);
    }
  }

  const std::string& name() const override { return path_; }
  int64_t raw_bytes_read() const override { return bytes_read_; }
  int64_t raw_size() const override { return size_; }

 private:
  int fd_;
  bool owns_fd_;
  int64_t size_;  // -1 unless a regular file
  std::string path_;
  int64_t bytes_read_ = 0;
  bool at_end_ = false;
};

class MemoryInputStream final : public InputStream {
 public:
  MemoryInputStream(std::span<const uint8_t> bytes, std::string name)
      : bytes_(bytes), name_(std::move(name)) {}

  Result<int64_t> Read(std::span<uint8_t> out) override {
    const size_t n = std::min(out.size(), bytes_.size() - position_);
    if (n > 0) std::memcpy(out.data(), bytes_.data() + position_, n);
    position_ += n;
    return static_cast<int64_t>(n);
  }

  const std::string& name() const override { return name_; }
  int64_t raw_bytes_read() const override { return static_cast<int64_t>(position_); }
  int64_t raw_size() const override { return static_cast<int64_t>(bytes_.size()); }

 private:
  std::span<const uint8_t> bytes_;
  std::string name_;
  size_t position_ = 0;
};

}  // namespace

Result<std::unique_ptr<InputStream>> OpenFileInputStream(const std::string& path) {
  const bool is_stdin = path == "-";
  int fd = STDIN_FILENO;
  if (!is_stdin) {
    do {
      fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd < 0 && errno == EINTR);  // opening a FIFO blocks until a writer appears
    if (fd < 0) return Status::IOError("cannot open '{}': {}", path, std::strerror(errno));
  }
  struct stat info;
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    if (!is_stdin) ::close(fd);
    return Status::IOError("cannot stat '{}': {}", path, std::strerror(error));
  }
  if (S_ISDIR(info.st_mode)) {
    if (!is_stdin) ::close(fd);
    return Status::IOError("cannot read '{}': it is a directory", path);
  }
  // Only a regular file has a size worth reporting; a pipe's st_size means nothing. For
  // standard input redirected from a file, the size counts from the current offset.
  int64_t size = -1;
  if (S_ISREG(info.st_mode)) {
    size = static_cast<int64_t>(info.st_size);
    if (is_stdin) {
      const off_t offset = ::lseek(fd, 0, SEEK_CUR);
      if (offset > 0) size = std::max<int64_t>(0, size - static_cast<int64_t>(offset));
    }
  }
  return std::unique_ptr<InputStream>(new FileInputStream(fd, !is_stdin, size, path));
}

std::unique_ptr<InputStream> MakeMemoryInputStream(std::span<const uint8_t> bytes, std::string name) {
  return std::make_unique<MemoryInputStream>(bytes, std::move(name));
}

}  // namespace strata
