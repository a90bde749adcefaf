#include "strata/io/s3/s3_client.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <ctime>

#include "strata/io/curl_internal.h"
#include "strata/io/s3/s3_xml.h"
#include "strata/io/s3/sigv4.h"

namespace strata::s3 {
namespace {

constexpr int64_t kMaxErrorBody = 64 << 10;

// One attempt's state, written by curl's callbacks.
struct Exchange {
  const S3Request* request = nullptr;
  S3Response response;
};

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const size_t n = size * count;
  const std::string_view line(data, n);
  S3Response& response = exchange->response;
  if (line.substr(0, 5) == "HTTP/") {
    // A new answer (after a 100 Continue): its status, and none of the previous headers.
    const size_t space = line.find(' ');
    int64_t status = 0;
    if (space != std::string_view::npos) curl::ParseNonNegative(line.substr(space + 1, 3), &status);
    response.status = static_cast<long>(status);
    response.etag.clear();
    response.content_length = response.range_first = response.range_last = response.range_total = -1;
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  const std::string_view name = line.substr(0, colon);
  const std::string_view value = curl::TrimHeaderValue(line.substr(colon + 1));
  curl::ContentRange range;
  if (curl::HeaderNameIs(name, "etag")) response.etag = std::string(value);
  if (curl::HeaderNameIs(name, "content-length")) curl::ParseNonNegative(value, &response.content_length);
  if (curl::HeaderNameIs(name, "content-range") && curl::ParseContentRange(value, &range)) {
    response.range_first = range.first;
    response.range_last = range.last;
    response.range_total = range.total;
  }
  return n;
}

size_t OnBody(char* data, size_t size, size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const auto n = static_cast<int64_t>(size * count);
  S3Response& response = exchange->response;
  const S3Request& request = *exchange->request;
  if (response.status < 200 || response.status >= 300) {
    // An error's body: kept (bounded) for its <Code> and <Message>.
    const int64_t room = kMaxErrorBody - static_cast<int64_t>(response.body.size());
    response.body.append(data, static_cast<size_t>(std::clamp<int64_t>(n, 0, room)));
    return static_cast<size_t>(n);
  }
  if (request.out != nullptr) {
    if (n > request.out_capacity - response.received) {
      response.overflow = true;
      return 0;  // curl fails the transfer with CURLE_WRITE_ERROR
    }
    std::memcpy(request.out + response.received, data, static_cast<size_t>(n));
  } else {
    if (n > request.max_body - response.received) {
      response.overflow = true;
      return 0;
    }
    response.body.append(data, static_cast<size_t>(n));
  }
  response.received += n;
  return static_cast<size_t>(n);
}

// A store restarting or out of connections refuses them for a moment: retried too.
bool IsTransientCurlCode(CURLcode code) { return curl::IsTransient(code) || code == CURLE_COULDNT_CONNECT; }

bool IsTransientAnswer(const S3Response& response) {
  if (response.status >= 500 || response.status == 429) return true;
  // S3 answers an idle upload with 400 RequestTimeout; throttling may come as 400/403 too.
  return response.error_code == "RequestTimeout" || response.error_code == "SlowDown" ||
         response.error_code == "Throttling" || response.error_code == "RequestTimeTooSkewed";
}

std::string StatusName(long status) {
  switch (status) {
    case 301: return "HTTP 301 (the bucket is in another region)";
    case 403: return "HTTP 403 (forbidden)";
    case 404: return "HTTP 404 (not found)";
    case 412: return "HTTP 412 (precondition failed)";
    case 416: return "HTTP 416 (range not satisfiable)";
    default: return fmt::format("HTTP {}", status);
  }
}

}  // namespace

class S3Client::Impl {
 public:
  explicit Impl(const S3Config& config) : config_(config), handles(config.http.max_idle_handles) {}

  const S3Config& config_;
  curl::HandlePool handles;
  std::atomic<int64_t> requests{0};
  std::atomic<int64_t> retries{0};
};

S3Client::S3Client(S3Config config) : config_(std::move(config)), impl_(std::make_unique<Impl>(config_)) {}
S3Client::~S3Client() = default;

Result<std::shared_ptr<S3Client>> S3Client::Make(const S3Options& options) {
  STRATA_ASSIGN_OR_RETURN(S3Config config, ResolveS3Config(options));
  curl::EnsureInitialized();
  return std::shared_ptr<S3Client>(new S3Client(std::move(config)));
}

int64_t S3Client::request_count() const { return impl_->requests.load(std::memory_order_relaxed); }
int64_t S3Client::retry_count() const { return impl_->retries.load(std::memory_order_relaxed); }

namespace {

// Host and path of a request: virtual-hosted (bucket.host/key) or path style (host/bucket/key).
std::pair<std::string, std::string> HostAndPath(const S3Config& config, const S3Path& path) {
  if (config.path_style) {
    std::string request_path = config.base_path + "/" + path.bucket;
    if (!path.key.empty() || path.bucket.empty()) request_path += "/" + path.key;
    return {config.host, request_path};
  }
  return {path.bucket + "." + config.host, config.base_path + "/" + path.key};
}

}  // namespace

std::string S3Client::UrlFor(const S3Path& path) const {
  const auto [host, request_path] = HostAndPath(config_, path);
  return config_.scheme + "://" + host + UriEncode(request_path, true);
}

Result<S3Response> S3Client::Send(const S3Request& request) {
  const auto [host, request_path] = HostAndPath(config_, request.path);
  // The query in canonical order, so the URL sent is the one signed.
  std::vector<std::pair<std::string, std::string>> query;
  for (const auto& [name, value] : request.query) query.emplace_back(UriEncode(name, false), UriEncode(value, false));
  std::sort(query.begin(), query.end());
  std::string url = config_.scheme + "://" + host + UriEncode(request_path, true);
  for (size_t i = 0; i < query.size(); ++i) url += (i == 0 ? "?" : "&") + query[i].first + "=" + query[i].second;
  const std::string payload_hash =
      request.body_size > 0 ? Sha256Hex(request.body, static_cast<size_t>(request.body_size)) : std::string(kEmptyPayloadHash);

  for (int attempt = 1;; ++attempt) {
    SignableRequest signable;
    signable.method = request.method;
    signable.path = request_path;
    signable.query = request.query;
    signable.payload_hash = payload_hash;
    signable.headers = request.headers;
    signable.headers.emplace_back("host", host);
    signable.headers.emplace_back("x-amz-content-sha256", payload_hash);
    // Signed afresh on each attempt: S3 refuses a signature over 15 minutes old.
    const std::string timestamp = AmzTimestamp(std::time(nullptr));
    signable.headers.emplace_back("x-amz-date", timestamp);
    if (!config_.anonymous && !config_.credentials.session_token.empty()) {
      signable.headers.emplace_back("x-amz-security-token", config_.credentials.session_token);
    }
    curl_slist* headers = nullptr;
    for (const auto& [name, value] : signable.headers) {
      headers = curl_slist_append(headers, (name + ": " + value).c_str());
    }
    if (!config_.anonymous) {
      const Signature signature = Sign(signable, {config_.credentials.access_key_id,
                                                  config_.credentials.secret_access_key, config_.region, "s3",
                                                  timestamp});
      headers = curl_slist_append(headers, ("Authorization: " + signature.authorization).c_str());
    }
    // curl adds these to bodies by itself; S3 needs neither.
    headers = curl_slist_append(headers, "Expect:");
    if (request.body != nullptr || request.method == "POST" || request.method == "PUT") {
      headers = curl_slist_append(headers, "Content-Type: application/octet-stream");
    }

    CURL* handle = impl_->handles.Acquire();
    if (handle == nullptr) {
      curl_slist_free_all(headers);
      return Status::OutOfMemory("cannot create a curl handle for '{}'", request.path.ToString());
    }
    curl_easy_reset(handle);
    Exchange exchange;
    exchange.request = &request;
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(handle, CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle, CURLOPT_PATH_AS_IS, 1L);  // keys may hold "." and ".." segments
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(config_.http.connect_timeout_ms));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(config_.http.request_timeout_ms));
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, config_.http.verify_tls ? 1L : 0L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, config_.http.verify_tls ? 2L : 0L);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &exchange);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, OnBody);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &exchange);
    if (request.method == "HEAD") {
      curl_easy_setopt(handle, CURLOPT_NOBODY, 1L);
    } else if (request.method != "GET") {
      curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      if (request.method == "PUT" || request.method == "POST") {
        curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body_size));
        curl_easy_setopt(handle, CURLOPT_POSTFIELDS, request.body != nullptr ? reinterpret_cast<const char*>(request.body) : "");
      }
    }
    const CURLcode code = curl_easy_perform(handle);
    impl_->requests.fetch_add(1, std::memory_order_relaxed);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, nullptr);
    impl_->handles.Release(handle);
    curl_slist_free_all(headers);

    S3Response& response = exchange.response;
    response.attempts = attempt;
    if (code == CURLE_OK && (response.status < 200 || response.status >= 300) && !response.body.empty()) {
      response.error_code = XmlFirst(response.body, "Code");
      response.error_message = XmlFirst(response.body, "Message");
    }
    const bool transient = code == CURLE_OK ? IsTransientAnswer(response) : IsTransientCurlCode(code);
    if (transient && attempt <= config_.http.max_retries) {
      impl_->retries.fetch_add(1, std::memory_order_relaxed);
      curl::BackOff(attempt, config_.http.initial_backoff_ms, config_.http.max_backoff_ms);
      continue;
    }
    if (code == CURLE_WRITE_ERROR && response.overflow) return response;  // the caller says what was too long
    if (code != CURLE_OK) {
      return Status::IOError("{} '{}' failed: {}{}", request.method, request.path.ToString(),
                             error_buffer[0] != 0 ? error_buffer : curl_easy_strerror(code),
                             attempt > 1 ? fmt::format(" (gave up after {} attempts)", attempt) : "");
    }
    return response;
  }
}

Status S3Client::ErrorFor(std::string_view what, const S3Path& path, const S3Response& response) {
  std::string detail = StatusName(response.status);
  if (!response.error_code.empty()) detail += " " + response.error_code;
  if (!response.error_message.empty()) detail += " (" + response.error_message + ")";
  if (response.attempts > 1) detail += fmt::format(", after {} attempts", response.attempts);
  return Status::IOError("{} '{}': {}", what, path.ToString(), detail);
}

}  // namespace strata::s3
