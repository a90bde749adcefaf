#include "strata/io/s3/sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <ctime>
#include <map>

#include <fmt/format.h>

namespace strata::s3 {
namespace {

constexpr char kHex[] = "0123456789abcdef";

std::string Hex(const unsigned char* bytes, size_t size) {
  std::string out(size * 2, '\0');
  for (size_t i = 0; i < size; ++i) {
    out[2 * i] = kHex[bytes[i] >> 4];
    out[2 * i + 1] = kHex[bytes[i] & 15];
  }
  return out;
}

std::string Hmac(std::string_view key, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), digest, &length);
  return std::string(reinterpret_cast<const char*>(digest), length);
}

bool IsUnreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.' || c == '~';
}

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// Leading and trailing blanks dropped, inner runs of spaces made one (SigV4's "Trimall").
std::string TrimAll(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  bool pending_space = false;
  for (const char c : value) {
    if (c == ' ' || c == '\t') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

// Lowercase name -> values joined with ',' in the order given; std::map sorts the names.
std::map<std::string, std::string> CanonicalHeaders(const SignableRequest& request) {
  std::map<std::string, std::string> headers;
  for (const auto& [name, value] : request.headers) {
    auto [it, inserted] = headers.try_emplace(Lower(name), TrimAll(value));
    if (!inserted) {
      it->second += ',';
      it->second += TrimAll(value);
    }
  }
  return headers;
}

}  // namespace

std::string UriEncode(std::string_view text, bool keep_slash) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out += ch;
    } else {
      out += '%';
      out += "0123456789ABCDEF"[c >> 4];
      out += "0123456789ABCDEF"[c & 15];
    }
  }
  return out;
}

std::string Sha256Hex(const void* data, size_t size) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(static_cast<const unsigned char*>(data), size, digest);
  return Hex(digest, sizeof(digest));
}

std::string DeriveSigningKey(const SigningKeyInput& input) {
  const std::string date_key = Hmac("AWS4" + input.secret_access_key, input.date);
  const std::string region_key = Hmac(date_key, input.region);
  const std::string service_key = Hmac(region_key, input.service);
  return Hmac(service_key, "aws4_request");
}

std::string SignedHeaderNames(const SignableRequest& request) {
  std::string names;
  for (const auto& [name, value] : CanonicalHeaders(request)) {
    if (!names.empty()) names += ';';
    names += name;
  }
  return names;
}

std::string CanonicalRequest(const SignableRequest& request) {
  std::vector<std::pair<std::string, std::string>> query;
  query.reserve(request.query.size());
  for (const auto& [name, value] : request.query) query.emplace_back(UriEncode(name, false), UriEncode(value, false));
  std::sort(query.begin(), query.end());
  std::string canonical_query;
  for (const auto& [name, value] : query) {
    if (!canonical_query.empty()) canonical_query += '&';
    canonical_query += name + "=" + value;
  }
  std::string headers;
  std::string names;
  for (const auto& [name, value] : CanonicalHeaders(request)) {
    headers += name + ":" + value + "\n";
    if (!names.empty()) names += ';';
    names += name;
  }
  const std::string path = request.path.empty() ? "/" : UriEncode(request.path, true);
  return fmt::format("{}\n{}\n{}\n{}\n{}\n{}", request.method, path, canonical_query, headers, names,
                     request.payload_hash);
}

std::string CredentialScope(std::string_view date, std::string_view region, std::string_view service) {
  return fmt::format("{}/{}/{}/aws4_request", date, region, service);
}

std::string StringToSign(std::string_view timestamp, std::string_view scope, std::string_view canonical_request) {
  return fmt::format("AWS4-HMAC-SHA256\n{}\n{}\n{}", timestamp, scope, Sha256Hex(canonical_request));
}

Signature Sign(const SignableRequest& request, const SigningContext& context) {
  Signature out;
  const std::string date = context.timestamp.substr(0, 8);
  const std::string scope = CredentialScope(date, context.region, context.service);
  out.canonical_request = CanonicalRequest(request);
  out.string_to_sign = StringToSign(context.timestamp, scope, out.canonical_request);
  const std::string key = DeriveSigningKey({context.secret_access_key, date, context.region, context.service});
  const std::string mac = Hmac(key, out.string_to_sign);
  out.signature = Hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size());
  // The signed header names are the canonical request's next-to-last line.
  const size_t names_end = out.canonical_request.rfind('\n');
  const size_t names_begin = out.canonical_request.rfind('\n', names_end - 1) + 1;
  const std::string_view names = std::string_view(out.canonical_request).substr(names_begin, names_end - names_begin);
  out.authorization = fmt::format("AWS4-HMAC-SHA256 Credential={}/{}, SignedHeaders={}, Signature={}",
                                  context.access_key_id, scope, names, out.signature);
  return out;
}

std::string AmzTimestamp(int64_t unix_seconds) {
  const auto seconds = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof(text), "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

}  // namespace strata::s3
