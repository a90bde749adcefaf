// HttpSource: a RandomAccessSource over an HTTP(S) URL, read with byte-range requests
// (libcurl). Each ReadAt is one `Range: bytes=a-b` GET; coalescing and caching belong to
// ReadRangeCache, which wraps this source.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/io/random_access_source.h"

namespace strata {

struct HttpOptions {
  // Time allowed to establish a connection, and for a whole request (connect + transfer), in
  // milliseconds. 0 means no limit.
  int64_t connect_timeout_ms = 10'000;
  int64_t request_timeout_ms = 60'000;
  // Transient failures (HTTP 5xx and 429, connection reset or closed early, timeouts) are
  // retried up to max_retries times, waiting about initial_backoff_ms, then twice as long each
  // time, at most max_backoff_ms (each wait a random time between half and all of that: jitter).
  // Other failures (404, 416, refused connections, unknown hosts) fail
  // at once.
  int max_retries = 3;
  int64_t initial_backoff_ms = 100;
  int64_t max_backoff_ms = 5'000;
  // Verify the server's TLS certificate (https).
  bool verify_tls = true;
  // Idle connections kept for reuse (one per thread reading at once is enough).
  int max_idle_handles = 8;

  Status Validate() const;
};

class HttpSource final : public RandomAccessSource {
 public:
  ~HttpSource() override;

  // Size from the Content-Length of a HEAD request (or, when the server gives none, from the
  // Content-Range of a one-byte ranged GET).
  Result<int64_t> Size() override { return size_; }
  // One ranged GET. Errors name the URL and the range: 404 and other HTTP errors, a server
  // that ignores the Range header (200 instead of 206), a body shorter or longer than asked,
  // a Content-Range for other bytes, and ranges outside the size are all IOError.
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override;
  const std::string& name() const override { return url_; }
  // ReadAt/ReadBufferAt calls that succeeded.
  int64_t read_count() const override;
  // Body bytes received by successful reads.
  int64_t bytes_read() const override;
  // HTTP requests sent, including the size probe and every retry.
  int64_t request_count() const;
  // Requests that were retried after a transient failure.
  int64_t retry_count() const;

 private:
  friend Result<std::shared_ptr<HttpSource>> OpenHttpSource(const std::string& url, const HttpOptions& options);
  class Impl;
  explicit HttpSource(std::unique_ptr<Impl> impl, std::string url, int64_t size);

  std::unique_ptr<Impl> impl_;
  std::string url_;
  int64_t size_;
};

// Opens `url` (http:// or https://) and learns its size. Fails with IOError for unreachable
// hosts, missing resources (404) and other HTTP errors, after retries for transient ones.
Result<std::shared_ptr<HttpSource>> OpenHttpSource(const std::string& url, const HttpOptions& options = {});

}  // namespace strata
