#include "strata/io/s3/s3_sink.h"

#include <deque>
#include <future>
#include <vector>

#include "strata/io/s3/s3_xml.h"

namespace strata::s3 {
namespace {

class S3Sink final : public OutputSink {
 public:
  S3Sink(std::shared_ptr<S3Client> client, S3Path path, MemoryPool* pool)
      : client_(std::move(client)), path_(std::move(path)), name_(path_.ToString()), pool_(pool),
        part_size_(client_->config().part_size), max_in_flight_(client_->config().max_parts_in_flight) {}

  ~S3Sink() override { Abort(); }

  Status Write(const void* data, int64_t size) override {
    if (closed_) return Status::IOError("'{}' is closed", name_);
    Status status = Append(static_cast<const uint8_t*>(data), size);
    if (!status.ok()) Abort();
    return status;
  }

  Status Close() override {
    if (closed_) return Status::IOError("'{}' is closed", name_);
    Status status = Finish();
    if (!status.ok()) Abort();
    closed_ = true;
    return status;
  }

  void Abort() override {
    closed_ = true;
    WaitAll();  // parts in flight finish (or fail) before their upload goes away
    if (!upload_id_.empty()) {
      S3Request abort;
      abort.method = "DELETE";
      abort.path = path_;
      abort.query = {{"uploadId", upload_id_}};
      (void)client_->Send(abort);  // best effort: a lifecycle rule cleans up what this misses
      upload_id_.clear();
    }
    current_.reset();
    free_.clear();
  }

  const std::string& name() const override { return name_; }

 private:
  struct InFlight {
    std::future<Result<std::string>> etag;
    std::shared_ptr<ResizableBuffer> buffer;
  };

  Status Append(const uint8_t* data, int64_t size) {
    while (size > 0) {
      if (current_ == nullptr) {
        STRATA_ASSIGN_OR_RETURN(current_, TakeBuffer());
      }
      const int64_t room = part_size_ - current_->size();
      const int64_t n = std::min(room, size);
      if (current_->size() + n > current_->capacity()) {
        // Small outputs stay small: 1 MiB first, then the whole part at once.
        STRATA_RETURN_NOT_OK(current_->Reserve(current_->size() + n <= (1 << 20) ? (1 << 20) : part_size_));
      }
      current_->UnsafeAppend(data, n);
      data += n;
      size -= n;
      position_ += n;
      if (current_->size() == part_size_) STRATA_RETURN_NOT_OK(SendPart());
    }
    return Status::OK();
  }

  Result<std::shared_ptr<ResizableBuffer>> TakeBuffer() {
    if (!free_.empty()) {
      auto buffer = std::move(free_.back());
      free_.pop_back();
      buffer->Clear();
      return buffer;
    }
    return std::make_shared<ResizableBuffer>(pool_);
  }

  Status StartUpload() {
    S3Request create;
    create.method = "POST";
    create.path = path_;
    create.query = {{"uploads", ""}};
    STRATA_ASSIGN_OR_RETURN(const S3Response response, client_->Send(create));
    if (response.status != 200) return S3Client::ErrorFor("CreateMultipartUpload", path_, response);
    upload_id_ = XmlFirst(response.body, "UploadId");
    if (upload_id_.empty()) return Status::IOError("CreateMultipartUpload '{}': the answer has no UploadId", name_);
    return Status::OK();
  }

  // Sends the current buffer as the next part, in the background.
  Status SendPart() {
    if (upload_id_.empty()) STRATA_RETURN_NOT_OK(StartUpload());
    while (static_cast<int>(in_flight_.size()) >= max_in_flight_) STRATA_RETURN_NOT_OK(WaitOldest());
    const int number = static_cast<int>(etags_.size() + in_flight_.size()) + 1;
    if (number > 10'000) return Status::LimitExceeded("'{}': over 10,000 parts (S3's limit); raise the part size", name_);
    std::shared_ptr<ResizableBuffer> buffer = std::move(current_);
    current_.reset();
    auto task = [client = client_, path = path_, upload = upload_id_, number, buffer]() -> Result<std::string> {
      S3Request put;
      put.method = "PUT";
      put.path = path;
      put.query = {{"partNumber", std::to_string(number)}, {"uploadId", upload}};
      put.body = buffer->data();
      put.body_size = buffer->size();
      STRATA_ASSIGN_OR_RETURN(const S3Response response, client->Send(put));
      if (response.status != 200) return S3Client::ErrorFor(fmt::format("UploadPart {} of", number), path, response);
      if (response.etag.empty()) return Status::IOError("UploadPart {} of '{}': the answer has no ETag", number, path.ToString());
      return response.etag;
    };
    in_flight_.push_back({std::async(std::launch::async, std::move(task)), std::move(buffer)});
    return Status::OK();
  }

  Status WaitOldest() {
    InFlight oldest = std::move(in_flight_.front());
    in_flight_.pop_front();
    Result<std::string> etag = oldest.etag.get();
    free_.push_back(std::move(oldest.buffer));
    if (!etag.ok()) return etag.status();
    etags_.push_back(std::move(*etag));
    return Status::OK();
  }

  void WaitAll() {
    while (!in_flight_.empty()) (void)WaitOldest();
  }

  Status Finish() {
    if (upload_id_.empty()) {
      // Small output: one PUT of the whole object.
      S3Request put;
      put.method = "PUT";
      put.path = path_;
      if (current_ != nullptr) {
        put.body = current_->data();
        put.body_size = current_->size();
      }
      STRATA_ASSIGN_OR_RETURN(const S3Response response, client_->Send(put));
      if (response.status != 200) return S3Client::ErrorFor("PUT", path_, response);
      current_.reset();
      return Status::OK();
    }
    if (current_ != nullptr && current_->size() > 0) STRATA_RETURN_NOT_OK(SendPart());
    while (!in_flight_.empty()) STRATA_RETURN_NOT_OK(WaitOldest());
    std::string body = "<CompleteMultipartUpload>";
    for (size_t i = 0; i < etags_.size(); ++i) {
      body += fmt::format("<Part><PartNumber>{}</PartNumber><ETag>{}</ETag></Part>", i + 1, XmlEscape(etags_[i]));
    }
    body += "</CompleteMultipartUpload>";
    S3Request complete;
    complete.method = "POST";
    complete.path = path_;
    complete.query = {{"uploadId", upload_id_}};
    complete.body = reinterpret_cast<const uint8_t*>(body.data());
    complete.body_size = static_cast<int64_t>(body.size());
    STRATA_ASSIGN_OR_RETURN(S3Response response, client_->Send(complete));
    // S3 may answer 200 and still fail the completion in the body.
    if (response.status == 200 && response.body.find("<Error>") != std::string::npos) {
      response.error_code = XmlFirst(response.body, "Code");
      response.error_message = XmlFirst(response.body, "Message");
      response.status = 500;
    }
    if (response.status != 200) return S3Client::ErrorFor("CompleteMultipartUpload", path_, response);
    upload_id_.clear();
    free_.clear();
    return Status::OK();
  }

  std::shared_ptr<S3Client> client_;
  S3Path path_;
  std::string name_;
  MemoryPool* pool_;
  int64_t part_size_;
  int max_in_flight_;
  bool closed_ = false;
  std::string upload_id_;
  std::shared_ptr<ResizableBuffer> current_;
  std::deque<InFlight> in_flight_;
  std::vector<std::shared_ptr<ResizableBuffer>> free_;
  std::vector<std::string> etags_;  // of the parts finished, in part order
};

}  // namespace

Result<std::unique_ptr<OutputSink>> OpenS3Sink(std::shared_ptr<S3Client> client, const std::string& url,
                                               MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(S3Path path, ParseS3Url(url));
  if (path.key.empty() || path.key.back() == '/') return Status::Invalid("'{}' names a prefix, not an object", url);
  return std::unique_ptr<OutputSink>(new S3Sink(std::move(client), std::move(path), pool));
}

}  // namespace strata::s3
