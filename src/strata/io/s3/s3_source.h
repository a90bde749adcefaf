// S3Source: a RandomAccessSource over one S3 object, read with ranged GETs. The size and
// ETag come from one HEAD at open; every read then carries If-Match with that ETag, so an
// object replaced mid-read fails loudly instead of mixing two versions. Coalescing, caching
// and read-ahead belong to ReadRangeCache, which wraps this source as it wraps HTTP ones.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "strata/io/random_access_source.h"
#include "strata/io/s3/s3_client.h"

namespace strata::s3 {

class S3Source final : public RandomAccessSource {
 public:
  // HEADs `url` (s3://bucket/key). 403, 404 (NoSuchBucket / NoSuchKey) and signature errors
  // fail at once, naming the URL, the status and S3's error code.
  static Result<std::shared_ptr<S3Source>> Open(std::shared_ptr<S3Client> client, const std::string& url);

  Result<int64_t> Size() override { return size_; }
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override;
  const std::string& name() const override { return url_; }
  int64_t read_count() const override { return reads_.load(std::memory_order_relaxed); }
  int64_t bytes_read() const override { return bytes_.load(std::memory_order_relaxed); }
  const std::string& etag() const { return etag_; }
  const std::shared_ptr<S3Client>& client() const { return client_; }

 private:
  S3Source(std::shared_ptr<S3Client> client, S3Path path, std::string url, int64_t size, std::string etag)
      : client_(std::move(client)), path_(std::move(path)), url_(std::move(url)), size_(size), etag_(std::move(etag)) {}

  std::shared_ptr<S3Client> client_;
  S3Path path_;
  std::string url_;
  int64_t size_;
  std::string etag_;
  std::atomic<int64_t> reads_{0};
  std::atomic<int64_t> bytes_{0};
};

}  // namespace strata::s3
