#include "strata/io/location.h"

#include <filesystem>

#if STRATA_WITH_HTTP
#include "strata/io/s3/s3_listing.h"
#include "strata/io/s3/s3_sink.h"
#include "strata/io/s3/s3_source.h"
#endif

namespace strata {

namespace {

Status RemoveLocalFile(const std::string& path) {
  std::error_code error;
  std::filesystem::remove(path, error);
  if (error) return Status::IOError("cannot remove '{}': {}", path, error.message());
  return Status::OK();
}

}  // namespace

LocationKind KindOfLocation(std::string_view location) {
  if (location.substr(0, 7) == "http://" || location.substr(0, 8) == "https://") return LocationKind::kHttp;
  if (location.substr(0, 5) == "s3://") return LocationKind::kS3;
  return LocationKind::kLocal;
}

#if STRATA_WITH_HTTP

Result<std::shared_ptr<RandomAccessSource>> OpenInputLocation(const std::string& location,
                                                              const StorageOptions& options) {
  switch (KindOfLocation(location)) {
    case LocationKind::kHttp: {
      STRATA_ASSIGN_OR_RETURN(auto source, OpenHttpSource(location, options.http));
      return std::shared_ptr<RandomAccessSource>(std::move(source));
    }
    case LocationKind::kS3: {
      STRATA_ASSIGN_OR_RETURN(auto client, s3::S3Client::Make(options.s3));
      STRATA_ASSIGN_OR_RETURN(auto source, s3::S3Source::Open(std::move(client), location));
      return std::shared_ptr<RandomAccessSource>(std::move(source));
    }
    case LocationKind::kLocal:
      break;
  }
  return OpenLocalFile(location, options.local);
}

Result<std::unique_ptr<OutputSink>> OpenOutputLocation(const std::string& location, MemoryPool* pool,
                                                       const StorageOptions& options) {
  switch (KindOfLocation(location)) {
    case LocationKind::kHttp:
      return Status::NotImplemented("cannot write to '{}': http(s) URLs are read-only (write to s3:// or a path)",
                                    location);
    case LocationKind::kS3: {
      STRATA_ASSIGN_OR_RETURN(auto client, s3::S3Client::Make(options.s3));
      return s3::OpenS3Sink(std::move(client), location, pool);
    }
    case LocationKind::kLocal:
      break;
  }
  return OpenFileSink(location, pool, options.file_sink);
}

Result<std::vector<LocationEntry>> ListObjectsUnder(const std::string& prefix_location, const StorageOptions& options) {
  STRATA_ASSIGN_OR_RETURN(const s3::S3Path path, s3::ParseS3Url(prefix_location));
  STRATA_ASSIGN_OR_RETURN(auto client, s3::S3Client::Make(options.s3));
  STRATA_ASSIGN_OR_RETURN(auto objects, s3::ListObjects(*client, path.bucket, path.key));
  std::vector<LocationEntry> entries;
  entries.reserve(objects.size());
  for (auto& object : objects) entries.push_back({"s3://" + path.bucket + "/" + object.key, object.size});
  return entries;
}

Status DeleteLocation(const std::string& location, const StorageOptions& options) {
  switch (KindOfLocation(location)) {
    case LocationKind::kHttp:
      return Status::NotImplemented("cannot delete '{}': http(s) URLs are read-only", location);
    case LocationKind::kS3: {
      STRATA_ASSIGN_OR_RETURN(const s3::S3Path path, s3::ParseS3Url(location));
      STRATA_ASSIGN_OR_RETURN(auto client, s3::S3Client::Make(options.s3));
      return s3::DeleteObject(*client, path);
    }
    case LocationKind::kLocal:
      break;
  }
  return RemoveLocalFile(location);
}

#else

Status DeleteLocation(const std::string& location, const StorageOptions&) {
  if (IsRemoteLocation(location)) {
    return Status::NotImplemented("this strata was built without libcurl: cannot delete '{}'", location);
  }
  return RemoveLocalFile(location);
}

Result<std::shared_ptr<RandomAccessSource>> OpenInputLocation(const std::string& location,
                                                              const StorageOptions& options) {
  if (IsRemoteLocation(location)) {
    return Status::NotImplemented("this strata was built without libcurl: cannot read '{}'", location);
  }
  return OpenLocalFile(location, options.local);
}

Result<std::unique_ptr<OutputSink>> OpenOutputLocation(const std::string& location, MemoryPool* pool,
                                                       const StorageOptions& options) {
  if (IsRemoteLocation(location)) {
    return Status::NotImplemented("this strata was built without libcurl: cannot write '{}'", location);
  }
  return OpenFileSink(location, pool, options.file_sink);
}

Result<std::vector<LocationEntry>> ListObjectsUnder(const std::string& prefix_location, const StorageOptions&) {
  return Status::NotImplemented("this strata was built without libcurl: cannot list '{}'", prefix_location);
}

#endif

}  // namespace strata
