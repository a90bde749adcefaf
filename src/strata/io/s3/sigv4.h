// AWS Signature Version 4 (the "AWS4-HMAC-SHA256" Authorization header) for S3 requests:
// canonical request -> string to sign -> signature, each step exposed so tests can check it
// against AWS's published vectors. Pure computation (OpenSSL's SHA-256 and HMAC); the client
// (s3_client.h) decides what to sign.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::s3 {

// Hex SHA-256 of the empty payload, and the marker for a payload left out of the signature.
inline constexpr std::string_view kEmptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
inline constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";

// Percent-encodes every byte but the unreserved ones (A-Z a-z 0-9 - _ . ~), as SigV4 and S3
// expect (uppercase hex). '/' is kept when `keep_slash` (paths), encoded otherwise (query).
std::string UriEncode(std::string_view text, bool keep_slash);

// Lowercase hex of SHA-256(data).
std::string Sha256Hex(const void* data, size_t size);
inline std::string Sha256Hex(std::string_view data) { return Sha256Hex(data.data(), data.size()); }

struct SigningKeyInput {
  std::string secret_access_key;
  std::string date;     // YYYYMMDD
  std::string region;   // "us-east-1"
  std::string service;  // "s3"
};
// kSigning = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request").
std::string DeriveSigningKey(const SigningKeyInput& input);

struct SignableRequest {
  std::string method;  // "GET", "PUT", ...
  // The path as sent, before encoding ("/bucket/dir/a b.parquet"); every byte but '/' and the
  // unreserved ones is percent-encoded once (S3 neither normalizes nor encodes twice).
  std::string path;
  // Query parameters, not encoded; an empty value is "name=" in the canonical query.
  std::vector<std::pair<std::string, std::string>> query;
  // The headers to sign, as sent (any case; repeated names are joined with ',' in order).
  // Must include "host" and "x-amz-date".
  std::vector<std::pair<std::string, std::string>> headers;
  // Hex SHA-256 of the body, or kUnsignedPayload.
  std::string payload_hash = std::string(kEmptyPayloadHash);
};

// The canonical request: method, encoded path, sorted encoded query, lowercase sorted headers
// with trimmed values (inner runs of spaces become one), signed header names, payload hash.
std::string CanonicalRequest(const SignableRequest& request);
// "host;range;x-amz-date": the lowercase, sorted, de-duplicated header names.
std::string SignedHeaderNames(const SignableRequest& request);
// "20150830/us-east-1/s3/aws4_request".
std::string CredentialScope(std::string_view date, std::string_view region, std::string_view service);
// "AWS4-HMAC-SHA256\n<timestamp>\n<scope>\n<hex sha256 of the canonical request>".
std::string StringToSign(std::string_view timestamp, std::string_view scope, std::string_view canonical_request);

struct SigningContext {
  std::string access_key_id;
  std::string secret_access_key;
  std::string region;
  std::string service = "s3";
  std::string timestamp;  // ISO 8601 basic, UTC: "20150830T123600Z"
};

struct Signature {
  std::string canonical_request;
  std::string string_to_sign;
  std::string signature;  // lowercase hex
  std::string authorization;  // the Authorization header's value
};
Signature Sign(const SignableRequest& request, const SigningContext& context);

// "20150830T123600Z" for a time in seconds since the epoch (UTC).
std::string AmzTimestamp(int64_t unix_seconds);

}  // namespace strata::s3
