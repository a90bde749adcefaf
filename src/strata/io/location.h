// Opening bytes by location, whatever holds them: a local path, an http(s):// URL (read
// only) or an s3:// URL (read, write, list). Every reader and writer that takes a path goes
// through here, so each of them takes every kind of location.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/io/http_source.h"
#include "strata/io/output_sink.h"
#include "strata/io/random_access_source.h"
#include "strata/io/s3/s3_options.h"

namespace strata {

struct StorageOptions {
  LocalFileOptions local;
  FileSinkOptions file_sink;
  HttpOptions http;
  s3::S3Options s3;
};

enum class LocationKind { kLocal, kHttp, kS3 };
LocationKind KindOfLocation(std::string_view location);
// http(s):// and s3:// locations: high latency, so readers pre-buffer by default.
inline bool IsRemoteLocation(std::string_view location) { return KindOfLocation(location) != LocationKind::kLocal; }

Result<std::shared_ptr<RandomAccessSource>> OpenInputLocation(const std::string& location,
                                                              const StorageOptions& options = {});
// A local file (through a temporary file renamed at Close) or an S3 object (a PUT or a
// multipart upload completed at Close); an http(s) URL is refused.
Result<std::unique_ptr<OutputSink>> OpenOutputLocation(const std::string& location, MemoryPool* pool,
                                                       const StorageOptions& options = {});

struct LocationEntry {
  std::string location;  // a path, or "s3://bucket/key"
  int64_t size = 0;
};
// Every object under an s3:// prefix ("s3://bucket/dir/"), in key order, with its size.
Result<std::vector<LocationEntry>> ListObjectsUnder(const std::string& prefix_location,
                                                    const StorageOptions& options = {});
// Removes a local file or an S3 object (absent: nothing to do, not an error).
Status DeleteLocation(const std::string& location, const StorageOptions& options = {});

}  // namespace strata
