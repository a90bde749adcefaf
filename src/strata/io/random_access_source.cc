#include "strata/io/random_access_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace strata {

Result<std::shared_ptr<Buffer>> RandomAccessSource::ReadBufferAt(int64_t offset, int64_t length,
                                                                  MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto buffer, AllocateBuffer(pool, length));
  STRATA_RETURN_NOT_OK(ReadAt(offset, length, buffer->mutable_data()));
  return std::shared_ptr<Buffer>(std::move(buffer));
}

namespace {

Status CheckRange(const std::string& name, int64_t offset, int64_t length, int64_t size) {
  if (offset < 0 || length < 0 || offset > size || length > size - offset) {
    return Status::IOError("read of {} bytes at offset {} is outside '{}' ({} bytes)", length, offset,
                           name, size);
  }
  return Status::OK();
}

class LocalFileSource final : public RandomAccessSource {
 public:
  LocalFileSource(int fd, int64_t size, std::string path) : fd_(fd), size_(size), path_(std::move(path)) {}
  ~LocalFileSource() override { ::close(fd_); }

  Result<int64_t> Size() override { return size_; }
  const std::string& name() const override { return path_; }
  int64_t read_count() const override { return reads_.load(std::memory_order_relaxed); }

  int64_t bytes_read() const override { return bytes_.load(std::memory_order_relaxed); }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override {
    STRATA_RETURN_NOT_OK(CheckRange(path_, offset, length, size_));
    reads_.fetch_add(1, std::memory_order_relaxed);
    bytes_.fetch_add(length, std::memory_order_relaxed);
    while (length > 0) {
      const ssize_t n = ::pread(fd_, out, static_cast<size_t>(length), offset);
      if (n < 0) {
        if (errno == EINTR) continue;
        return Status::IOError("reading {} bytes at offset {} of '{}': {}", length, offset, path_,
                               std::strerror(errno));
      }
      if (n == 0) {
        return Status::IOError("'{}' ended at offset {} while {} more bytes were expected", path_, offset,
                               length);
      }
      out += n;
      offset += n;
      length -= n;
    }
    return Status::OK();
  }

 private:
  int fd_;
  int64_t size_;
  std::string path_;
  std::atomic<int64_t> reads_{0};
  std::atomic<int64_t> bytes_{0};
};

// A read-only mapping of a whole file; unmapped when the last slice of it goes.
class MappedBuffer final : public Buffer {
 public:
  MappedBuffer(void* address, int64_t size) : address_(address) {
    data_ = static_cast<const uint8_t*>(address);
    size_ = size;
    capacity_ = size;
  }
  ~MappedBuffer() override {
    if (address_ != nullptr) ::munmap(address_, static_cast<size_t>(size_));
  }

 private:
  void* address_;  // nullptr for an empty file (nothing mapped)
};

// Reads from a memory map: ReadAt is a memcpy, ReadBufferAt a zero-copy slice.
class MemoryMappedSource final : public RandomAccessSource {
 public:
  MemoryMappedSource(std::shared_ptr<Buffer> mapping, std::string path)
      : mapping_(std::move(mapping)), path_(std::move(path)) {}

  Result<int64_t> Size() override { return mapping_->size(); }
  const std::string& name() const override { return path_; }
  int64_t read_count() const override { return reads_.load(std::memory_order_relaxed); }
  int64_t bytes_read() const override { return bytes_.load(std::memory_order_relaxed); }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override {
    STRATA_RETURN_NOT_OK(CheckRange(path_, offset, length, mapping_->size()));
    Count(length);
    if (length > 0) std::memcpy(out, mapping_->data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

  Result<std::shared_ptr<Buffer>> ReadBufferAt(int64_t offset, int64_t length, MemoryPool*) override {
    STRATA_RETURN_NOT_OK(CheckRange(path_, offset, length, mapping_->size()));
    Count(length);
    return Buffer::Slice(mapping_, offset, length);
  }

 private:
  void Count(int64_t length) {
    reads_.fetch_add(1, std::memory_order_relaxed);
    bytes_.fetch_add(length, std::memory_order_relaxed);
  }

  std::shared_ptr<Buffer> mapping_;
  std::string path_;
  std::atomic<int64_t> reads_{0};
  std::atomic<int64_t> bytes_{0};
};

class BufferSource final : public RandomAccessSource {
 public:
  BufferSource(std::shared_ptr<Buffer> buffer, std::string name)
      : buffer_(std::move(buffer)), name_(std::move(name)) {}

  Result<int64_t> Size() override { return buffer_->size(); }
  const std::string& name() const override { return name_; }
  int64_t read_count() const override { return reads_.load(std::memory_order_relaxed); }

  int64_t bytes_read() const override { return bytes_.load(std::memory_order_relaxed); }

  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override {
    STRATA_RETURN_NOT_OK(CheckRange(name_, offset, length, buffer_->size()));
    reads_.fetch_add(1, std::memory_order_relaxed);
    bytes_.fetch_add(length, std::memory_order_relaxed);
    if (length > 0) std::memcpy(out, buffer_->data() + offset, static_cast<size_t>(length));
    return Status::OK();
  }

  Result<std::shared_ptr<Buffer>> ReadBufferAt(int64_t offset, int64_t length, MemoryPool*) override {
    STRATA_RETURN_NOT_OK(CheckRange(name_, offset, length, buffer_->size()));
    reads_.fetch_add(1, std::memory_order_relaxed);
    bytes_.fetch_add(length, std::memory_order_relaxed);
    return Buffer::Slice(buffer_, offset, length);
  }

 private:
  std::shared_ptr<Buffer> buffer_;
  std::string name_;
  std::atomic<int64_t> reads_{0};
  std::atomic<int64_t> bytes_{0};
};

}  // namespace

Result<std::shared_ptr<RandomAccessSource>> OpenLocalFile(const std::string& path, const LocalFileOptions& options) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError("cannot open '{}': {}", path, std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    return Status::IOError("cannot stat '{}': {}", path, std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::IOError("'{}' is a directory, not a file", path);
  }
  if (options.memory_map) {
    const int64_t size = st.st_size;
    void* address = nullptr;
    if (size > 0) {  // mmap of zero bytes is an error; an empty file maps to an empty buffer
      address = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (address == MAP_FAILED) {
        const int err = errno;
        ::close(fd);
        return Status::IOError("cannot memory-map '{}' ({} bytes): {}", path, size, std::strerror(err));
      }
    }
    ::close(fd);  // the mapping stays valid without the descriptor
    auto mapping = std::make_shared<MappedBuffer>(address, size);
    return std::shared_ptr<RandomAccessSource>(std::make_shared<MemoryMappedSource>(std::move(mapping), path));
  }
  return std::shared_ptr<RandomAccessSource>(std::make_shared<LocalFileSource>(fd, st.st_size, path));
}

std::shared_ptr<RandomAccessSource> MakeBufferSource(std::shared_ptr<Buffer> buffer, std::string name) {
  return std::make_shared<BufferSource>(std::move(buffer), std::move(name));
}

}  // namespace strata
