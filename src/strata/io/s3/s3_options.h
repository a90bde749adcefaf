// S3Options: what a caller may say about an S3 connection, and ResolveS3Config, which fills
// the rest from the environment the way AWS's tools do: explicit options, then
// AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, then the profile
// (AWS_PROFILE, else "default") in ~/.aws/credentials and ~/.aws/config
// (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE); the region from AWS_REGION,
// AWS_DEFAULT_REGION or the profile; the endpoint from AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "strata/io/http_source.h"
#include "strata/util/result.h"

namespace strata::s3 {

struct S3Options {
  // "http://127.0.0.1:9000" or "https://minio.example.com" for an S3-compatible store; empty:
  // the environment's, else AWS (https://s3.<region>.amazonaws.com).
  std::string endpoint_url;
  std::string region;  // empty: the environment's or the profile's, else us-east-1
  // Explicit credentials win over every other source; the secret is never printed.
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  std::string profile;  // empty: AWS_PROFILE, else "default"
  // Unsigned requests, for public buckets.
  bool anonymous = false;
  // Unset: path style (endpoint/bucket/key) for an explicit endpoint, virtual-hosted style
  // (bucket.endpoint/key) for AWS.
  std::optional<bool> path_style;
  // Timeouts and retries (HTTP 5xx, 429, 503 SlowDown, resets), as for http(s) sources.
  HttpOptions http;
  // Writes: objects up to part_size go up in one PUT; larger ones in parts of part_size
  // (S3's minimum is 5 MiB), at most max_parts_in_flight uploading at once. Memory held by a
  // writer is at most (max_parts_in_flight + 1) x part_size.
  int64_t part_size = int64_t{8} << 20;
  int max_parts_in_flight = 4;

  Status Validate() const;
};

struct S3Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;
  std::string source;  // where they came from, for messages: "options", "environment", "profile 'x'"
};

// Everything a request needs, resolved once per client.
struct S3Config {
  std::string scheme;  // "http" or "https"
  std::string host;    // "s3.us-east-1.amazonaws.com" or "127.0.0.1:9000"
  std::string base_path;  // a path prefix of the endpoint ("" for most)
  std::string region;
  bool path_style = false;
  bool anonymous = false;
  S3Credentials credentials;
  HttpOptions http;
  int64_t part_size = 0;
  int max_parts_in_flight = 0;
};

// Reads a variable of the environment (tests pass their own).
using GetEnv = std::function<std::optional<std::string>(const char* name)>;
std::optional<std::string> ProcessEnv(const char* name);

Result<S3Config> ResolveS3Config(const S3Options& options, const GetEnv& env = ProcessEnv);

}  // namespace strata::s3
