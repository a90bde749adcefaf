// S3Path: an "s3://bucket/key" URL split into bucket and key. The key is taken as written
// (no percent-decoding: "s3://b/a b.parquet" is the key "a b.parquet", as AWS's CLI reads it).
#pragma once

#include <string>
#include <string_view>

#include "strata/util/result.h"

namespace strata::s3 {

struct S3Path {
  std::string bucket;
  std::string key;  // may be empty (a whole bucket, for listing)
  std::string ToString() const { return "s3://" + bucket + "/" + key; }
};

inline bool IsS3Url(std::string_view location) { return location.substr(0, 5) == "s3://"; }

// Bucket names are 3-63 characters of a-z, 0-9, '.', '-' (S3's rules; "_" and uppercase are
// refused by AWS, but older buckets and other stores have them, so they pass).
Result<S3Path> ParseS3Url(std::string_view url);

}  // namespace strata::s3
