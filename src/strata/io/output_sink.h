// OutputSink: where writers put their bytes (a local file, memory). Writes are sequential and
// buffered by the sink; Close() commits, Abort() discards. The file sink never leaves a partial
// file behind: it writes to a temporary name in the target's folder and renames it over the
// target only when Close() succeeds, so an existing file stays untouched until then.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata {

class OutputSink {
 public:
  virtual ~OutputSink() = default;

  // Appends `size` bytes. After an error the sink is unusable (a file sink has already removed
  // its temporary file; Abort() is still safe).
  virtual Status Write(const void* data, int64_t size) = 0;
  // Flushes and commits. The sink is closed afterwards whatever the outcome; on failure it has
  // discarded its output as Abort() does.
  virtual Status Close() = 0;
  // Discards everything written (a file sink removes its temporary file). Safe to call twice,
  // and after Close().
  virtual void Abort() = 0;

  // Bytes written so far.
  int64_t position() const { return position_; }
  // The path (or "<memory>"), for error messages.
  virtual const std::string& name() const = 0;

 protected:
  int64_t position_ = 0;
};

struct FileSinkOptions {
  // Bytes collected before each write(2) call.
  int64_t buffer_bytes = 1 << 20;
  // fsync() the file before renaming it, so a crash cannot leave a renamed but empty file.
  // Off by default (as other writers): it costs a disk flush per file.
  bool sync = false;
  Status Validate() const;
};

// Opens `path` for writing through a temporary file "<dir>/.<name>.strata-<random>.tmp" created
// exclusively beside it. The write buffer comes from `pool`. Destroying the sink without a
// successful Close() removes the temporary file.
Result<std::unique_ptr<OutputSink>> OpenFileSink(const std::string& path, MemoryPool* pool,
                                                 const FileSinkOptions& options = {});

// For command-line tools: on SIGINT, SIGTERM or SIGHUP (where their disposition is the
// default), removes every file sink's temporary file, then dies of the signal as before. Safe
// to call more than once. Libraries do not call it: signal dispositions are the program's.
void RemoveTemporaryFilesOnSignals();

// Collects the bytes in pool memory; Finish() hands them over after Close().
class BufferSink final : public OutputSink {
 public:
  explicit BufferSink(MemoryPool* pool) : buffer_(std::make_shared<ResizableBuffer>(pool)) {}
  Status Write(const void* data, int64_t size) override;
  Status Close() override;
  void Abort() override;
  const std::string& name() const override { return name_; }
  // The bytes written; valid after a successful Close().
  Result<std::shared_ptr<Buffer>> Finish();

 private:
  std::shared_ptr<ResizableBuffer> buffer_;
  bool closed_ = false;
  std::string name_ = "<memory>";
};

}  // namespace strata
