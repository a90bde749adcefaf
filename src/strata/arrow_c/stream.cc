#include "strata/arrow_c/stream.h"

#include <cerrno>
#include <cstring>
#include <new>
#include <string>

#include "strata/arrow_c/export.h"
#include "strata/arrow_c/import.h"

namespace strata::arrow_c {

int ErrnoFromStatus(const Status& status) {
  switch (status.code()) {
    case StatusCode::kOk: return 0;
    case StatusCode::kOutOfMemory: return ENOMEM;
    case StatusCode::kIOError:
    case StatusCode::kChecksumError: return EIO;
    case StatusCode::kNotImplemented: return ENOSYS;
    default: return EINVAL;
  }
}

namespace {

// ---- export ----------------------------------------------------------------------------

struct StreamPrivate {
  std::shared_ptr<RecordBatchStream> stream;
  std::string last_error;
  bool finished = false;
};

StreamPrivate* PrivateOf(ArrowArrayStream* s) { return static_cast<StreamPrivate*>(s->private_data); }

// Keeps the message for get_last_error and returns the code.
int Fail(StreamPrivate* p, const Status& status) {
  if (status.ok()) return 0;
  try {
    p->last_error = status.ToString();
  } catch (...) {
    p->last_error.clear();
  }
  return ErrnoFromStatus(status);
}

int StreamGetSchema(ArrowArrayStream* s, ArrowSchema* out) {
  StreamPrivate* p = PrivateOf(s);
  p->last_error.clear();
  try {
    SchemaPtr schema = p->stream->schema();
    if (schema == nullptr) return Fail(p, Status::Invalid("the stream has no schema"));
    return Fail(p, ExportSchema(*schema, out));
  } catch (const std::bad_alloc&) {
    return Fail(p, Status::OutOfMemory("out of memory exporting the stream's schema"));
  } catch (...) {
    return Fail(p, Status::IOError("unexpected exception exporting the stream's schema"));
  }
}

void MarkReleased(ArrowArray* out) {
  std::memset(out, 0, sizeof(*out));  // release == NULL: the end of the stream
}

int StreamGetNext(ArrowArrayStream* s, ArrowArray* out) {
  StreamPrivate* p = PrivateOf(s);
  p->last_error.clear();
  if (p->finished) {
    MarkReleased(out);
    return 0;
  }
  try {
    Result<std::shared_ptr<RecordBatch>> batch = p->stream->Next();
    if (!batch.ok()) return Fail(p, batch.status());
    if (*batch == nullptr) {
      p->finished = true;
      MarkReleased(out);
      return 0;
    }
    return Fail(p, ExportRecordBatch(**batch, out));
  } catch (const std::bad_alloc&) {
    return Fail(p, Status::OutOfMemory("out of memory reading the next batch"));
  } catch (...) {
    return Fail(p, Status::IOError("unexpected exception reading the next batch"));
  }
}

const char* StreamGetLastError(ArrowArrayStream* s) {
  StreamPrivate* p = PrivateOf(s);
  return p->last_error.empty() ? nullptr : p->last_error.c_str();
}

void StreamRelease(ArrowArrayStream* s) {
  if (s == nullptr || s->release == nullptr) return;
  delete PrivateOf(s);
  s->release = nullptr;
  s->private_data = nullptr;
}

// ---- import ----------------------------------------------------------------------------

class ImportedStream final : public RecordBatchStream {
 public:
  ImportedStream(const ArrowArrayStream& stream, SchemaPtr schema) : stream_(stream), schema_(std::move(schema)) {}
  ~ImportedStream() override {
    if (stream_.release != nullptr) stream_.release(&stream_);
  }

  SchemaPtr schema() const override { return schema_; }

  Result<std::shared_ptr<RecordBatch>> Next() override {
    if (finished_) return std::shared_ptr<RecordBatch>();
    ArrowArray array{};
    const int code = stream_.get_next(&stream_, &array);
    if (code != 0) return ErrorFromCode(&stream_, code, "get_next");
    if (array.release == nullptr) {
      finished_ = true;
      return std::shared_ptr<RecordBatch>();
    }
    return ImportRecordBatch(&array, schema_);
  }

  static Status ErrorFromCode(ArrowArrayStream* stream, int code, const char* call) {
    const char* message = stream->get_last_error != nullptr ? stream->get_last_error(stream) : nullptr;
    const std::string text = message != nullptr ? message : std::strerror(code);
    if (code == ENOMEM) return Status::OutOfMemory("ArrowArrayStream {}: {}", call, text);
    if (code == EINVAL) return Status::Invalid("ArrowArrayStream {}: {}", call, text);
    if (code == ENOSYS) return Status::NotImplemented("ArrowArrayStream {}: {}", call, text);
    return Status::IOError("ArrowArrayStream {} (errno {}): {}", call, code, text);
  }

 private:
  ArrowArrayStream stream_;
  SchemaPtr schema_;
  bool finished_ = false;
};

}  // namespace

Status ExportBatchStream(std::shared_ptr<RecordBatchStream> stream, ArrowArrayStream* out) {
  if (stream == nullptr) return Status::Invalid("cannot export a null stream");
  auto* p = new StreamPrivate;
  p->stream = std::move(stream);
  out->get_schema = &StreamGetSchema;
  out->get_next = &StreamGetNext;
  out->get_last_error = &StreamGetLastError;
  out->release = &StreamRelease;
  out->private_data = p;
  return Status::OK();
}

Result<std::unique_ptr<RecordBatchStream>> ImportBatchStream(ArrowArrayStream* stream) {
  if (stream == nullptr) return Status::Invalid("ArrowArrayStream pointer is null");
  if (stream->release == nullptr) return Status::Invalid("ArrowArrayStream is released");
  ArrowArrayStream taken = *stream;
  stream->release = nullptr;
  if (taken.get_schema == nullptr || taken.get_next == nullptr) {
    taken.release(&taken);
    return Status::Invalid("ArrowArrayStream lacks get_schema or get_next");
  }
  ArrowSchema c_schema{};
  const int code = taken.get_schema(&taken, &c_schema);
  if (code != 0) {
    Status status = ImportedStream::ErrorFromCode(&taken, code, "get_schema");
    taken.release(&taken);
    return status;
  }
  Result<SchemaPtr> schema = ImportSchema(&c_schema);
  if (!schema.ok()) {
    taken.release(&taken);
    return schema.status();
  }
  return std::unique_ptr<RecordBatchStream>(std::make_unique<ImportedStream>(taken, *schema));
}

}  // namespace strata::arrow_c
