#include "strata/io/s3/s3_path.h"

namespace strata::s3 {

Result<S3Path> ParseS3Url(std::string_view url) {
  if (!IsS3Url(url)) return Status::Invalid("'{}' is not an s3:// URL", url);
  std::string_view rest = url.substr(5);
  const size_t slash = rest.find('/');
  S3Path path;
  path.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) path.key = std::string(rest.substr(slash + 1));
  if (path.bucket.empty()) return Status::Invalid("'{}' names no bucket (s3://bucket/key)", url);
  if (path.bucket.size() > 255) return Status::Invalid("'{}': the bucket name is over 255 characters", url);
  for (const char c : path.bucket) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                    c == '-' || c == '_';
    if (!ok) return Status::Invalid("'{}': '{}' is not a valid bucket name", url, path.bucket);
  }
  if (path.key.size() > 1024) return Status::Invalid("'{}': the key is over 1024 bytes (S3's limit)", url);
  return path;
}

}  // namespace strata::s3
