#include "strata/io/s3/s3_source.h"

namespace strata::s3 {

Result<std::shared_ptr<S3Source>> S3Source::Open(std::shared_ptr<S3Client> client, const std::string& url) {
  STRATA_ASSIGN_OR_RETURN(S3Path path, ParseS3Url(url));
  if (path.key.empty() || path.key.back() == '/') {
    return Status::Invalid("'{}' names a prefix, not an object", url);
  }
  S3Request head;
  head.method = "HEAD";
  head.path = path;
  STRATA_ASSIGN_OR_RETURN(S3Response response, client->Send(head));
  if (response.status != 200) {
    // A HEAD's answer has no body, so no error code: a one-byte GET brings S3's explanation
    // (NoSuchBucket against NoSuchKey, SignatureDoesNotMatch...).
    S3Request probe;
    probe.path = path;
    probe.headers = {{"Range", "bytes=0-0"}};
    uint8_t byte = 0;
    probe.out = &byte;
    probe.out_capacity = 1;
    auto explained = client->Send(probe);
    if (explained.ok() && explained->status == response.status && !explained->error_code.empty()) {
      response = *explained;
    }
    return S3Client::ErrorFor("HEAD", path, response);
  }
  if (response.content_length < 0) return Status::IOError("HEAD '{}': the answer gave no Content-Length", url);
  return std::shared_ptr<S3Source>(
      new S3Source(std::move(client), std::move(path), url, response.content_length, response.etag));
}

Status S3Source::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
    return Status::IOError("read of {} bytes at offset {} is outside '{}' ({} bytes)", length, offset, url_, size_);
  }
  if (length == 0) {
    reads_.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  const int64_t last = offset + length - 1;
  S3Request get;
  get.path = path_;
  get.headers = {{"Range", fmt::format("bytes={}-{}", offset, last)}};
  if (!etag_.empty()) get.headers.emplace_back("If-Match", etag_);
  get.out = out;
  get.out_capacity = length;
  STRATA_ASSIGN_OR_RETURN(const S3Response response, client_->Send(get));
  const std::string what = fmt::format("GET bytes {}-{} of", offset, last);
  if (response.status == 412) {
    return Status::IOError("{} '{}': the object changed while it was read (its ETag is no longer {})", what, url_,
                           etag_);
  }
  if (response.overflow) {
    return Status::IOError("{} '{}': the answer held more than the {} bytes asked for (HTTP {})", what, url_, length,
                           response.status);
  }
  if (response.status == 200) {
    if (offset != 0 || length != size_) {
      return Status::IOError("{} '{}': the store ignored the Range header (HTTP 200)", what, url_);
    }
  } else if (response.status != 206) {
    return S3Client::ErrorFor(what, path_, response);
  } else if (response.range_first >= 0 && (response.range_first != offset || response.range_last != last)) {
    return Status::IOError("{} '{}': the store answered with bytes {}-{}", what, url_, response.range_first,
                           response.range_last);
  }
  if (response.received != length) {
    return Status::IOError("{} '{}': short read, received {} of {} bytes", what, url_, response.received, length);
  }
  reads_.fetch_add(1, std::memory_order_relaxed);
  bytes_.fetch_add(length, std::memory_order_relaxed);
  return Status::OK();
}

}  // namespace strata::s3
