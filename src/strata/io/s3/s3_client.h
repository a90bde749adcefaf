// S3Client: signed S3 requests over libcurl, with the retry policy of the http(s) source
// (5xx, 429, 503 SlowDown, RequestTimeout, resets and timeouts retried with exponential
// backoff and full jitter, bounded in count). The source, sink and listing (s3_source.h,
// s3_sink.h, s3_listing.h) are built on it. Thread-safe: requests may be sent from several
// threads at once; idle connections are kept for reuse.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "strata/io/s3/s3_options.h"
#include "strata/io/s3/s3_path.h"
#include "strata/util/result.h"

namespace strata::s3 {

struct S3Request {
  std::string method = "GET";  // GET, HEAD, PUT, POST, DELETE
  S3Path path;
  std::vector<std::pair<std::string, std::string>> query;    // not encoded
  std::vector<std::pair<std::string, std::string>> headers;  // Range, If-Match, Content-Type...
  const uint8_t* body = nullptr;
  int64_t body_size = 0;
  // A successful (2xx) answer's body goes into `out` when set (more than out_capacity bytes
  // fail the transfer), else into S3Response::body, up to max_body bytes.
  uint8_t* out = nullptr;
  int64_t out_capacity = 0;
  int64_t max_body = int64_t{64} << 20;
};

struct S3Response {
  long status = 0;
  std::string etag;             // as sent, with its quotes
  int64_t content_length = -1;  // of the answer (HEAD: of the object)
  int64_t range_first = -1;     // from Content-Range
  int64_t range_last = -1;
  int64_t range_total = -1;
  std::string body;             // the collected body (non-2xx answers' too, up to 64 KiB)
  int64_t received = 0;         // body bytes of a 2xx answer
  bool overflow = false;        // the answer was longer than out_capacity / max_body
  std::string error_code;       // S3's <Code> of an error answer ("NoSuchKey"), else ""
  std::string error_message;    // its <Message>
  int attempts = 0;
};

class S3Client {
 public:
  static Result<std::shared_ptr<S3Client>> Make(const S3Options& options = {});
  ~S3Client();

  // Sends `request`, retrying transient failures. Any HTTP answer is returned (the caller
  // judges the status); an error means no answer came (after the retries).
  Result<S3Response> Send(const S3Request& request);

  // "<what> 's3://b/k': HTTP 404 NoSuchKey (The specified key does not exist.)": an IOError
  // for a failed answer. Never contains credentials.
  static Status ErrorFor(std::string_view what, const S3Path& path, const S3Response& response);

  const S3Config& config() const { return config_; }
  // The URL a request for `path` goes to (for messages and tests).
  std::string UrlFor(const S3Path& path) const;

  int64_t request_count() const;
  int64_t retry_count() const;

 private:
  class Impl;
  explicit S3Client(S3Config config);
  S3Config config_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace strata::s3
