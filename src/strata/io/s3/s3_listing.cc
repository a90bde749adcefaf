#include "strata/io/s3/s3_listing.h"

#include <charconv>

#include "strata/io/s3/s3_xml.h"

namespace strata::s3 {

Result<std::vector<S3Object>> ListObjects(S3Client& client, const std::string& bucket, const std::string& prefix,
                                          const ListOptions& options) {
  std::vector<S3Object> objects;
  std::string token;
  const S3Path where{bucket, ""};
  for (int page = 0;; ++page) {
    S3Request list;
    list.path = where;
    list.query = {{"list-type", "2"}, {"prefix", prefix}};
    if (!options.delimiter.empty()) list.query.emplace_back("delimiter", options.delimiter);
    if (!token.empty()) list.query.emplace_back("continuation-token", token);
    STRATA_ASSIGN_OR_RETURN(const S3Response response, client.Send(list));
    if (response.status != 200) {
      return S3Client::ErrorFor("ListObjectsV2", S3Path{bucket, prefix}, response);
    }
    for (const std::string_view contents : XmlElements(response.body, "Contents")) {
      S3Object object;
      object.key = XmlFirst(contents, "Key");
      object.etag = XmlFirst(contents, "ETag");
      const std::string size = XmlFirst(contents, "Size");
      const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), object.size);
      if (error != std::errc() || end != size.data() + size.size() || object.size < 0) {
        return Status::IOError("ListObjectsV2 's3://{}/{}': object '{}' has no valid <Size> ('{}')", bucket, prefix,
                               object.key, size);
      }
      objects.push_back(std::move(object));
    }
    if (static_cast<int64_t>(objects.size()) > options.max_keys) {
      return Status::LimitExceeded("listing 's3://{}/{}' passed {} keys", bucket, prefix, options.max_keys);
    }
    if (XmlFirst(response.body, "IsTruncated") != "true") return objects;
    std::string next = XmlFirst(response.body, "NextContinuationToken");
    if (next.empty() || next == token) {
      return Status::IOError("ListObjectsV2 's3://{}/{}': a truncated page (number {}) without a new continuation token",
                             bucket, prefix, page + 1);
    }
    token = std::move(next);
  }
}

Status DeleteObject(S3Client& client, const S3Path& path) {
  S3Request request;
  request.method = "DELETE";
  request.path = path;
  STRATA_ASSIGN_OR_RETURN(const S3Response response, client.Send(request));
  if (response.status != 204 && response.status != 200) return S3Client::ErrorFor("DELETE", path, response);
  return Status::OK();
}

}  // namespace strata::s3
