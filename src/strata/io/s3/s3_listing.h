// Listing S3 objects under a prefix (ListObjectsV2, following continuation tokens), for
// folders and globs of datasets on S3; and deleting one (a dataset writer replacing its parts).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/io/s3/s3_client.h"

namespace strata::s3 {

struct S3Object {
  std::string key;
  int64_t size = 0;
  std::string etag;
};

struct ListOptions {
  // With a delimiter ("/"), keys below the next '/' after the prefix are left out (one folder
  // level); empty: every key under the prefix.
  std::string delimiter;
  // A guard against listing a whole huge bucket by mistake.
  int64_t max_keys = 10'000'000;
};

// Every object whose key starts with `prefix`, in S3's (UTF-8 binary) key order.
Result<std::vector<S3Object>> ListObjects(S3Client& client, const std::string& bucket, const std::string& prefix,
                                          const ListOptions& options = {});

// Deletes one object; deleting an absent key succeeds (as S3 answers it).
Status DeleteObject(S3Client& client, const S3Path& path);

}  // namespace strata::s3
