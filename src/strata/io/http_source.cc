#include "strata/io/http_source.h"

#include "strata/io/curl_internal.h"


#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace strata {

namespace {

// What one request produced: the body goes straight into the caller's memory, bounded by
// `capacity`; a server sending more (a 200 with the whole file) aborts the transfer.
struct Transfer {
  uint8_t* out = nullptr;
  int64_t capacity = 0;
  int64_t received = 0;
  bool overflow = false;
  // From the Content-Range header: "bytes first-last/total" or "bytes */total"; -1 if absent.
  int64_t range_first = -1;
  int64_t range_last = -1;
  int64_t range_total = -1;
};

size_t WriteBody(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const auto n = static_cast<int64_t>(size * count);
  if (n > transfer->capacity - transfer->received) {
    transfer->overflow = true;
    return 0;  // fewer bytes than offered: curl aborts with CURLE_WRITE_ERROR
  }
  if (n > 0) std::memcpy(transfer->out + transfer->received, data, static_cast<size_t>(n));
  transfer->received += n;
  return static_cast<size_t>(n);
}

size_t OnHeader(char* data, size_t size, size_t count, void* user) {
  auto* transfer = static_cast<Transfer*>(user);
  const size_t n = size * count;
  const std::string_view line(data, n);
  if (line.substr(0, 5) == "HTTP/") {
    // A new response (after a redirect or a 100 Continue): forget the previous one's headers.
    transfer->range_first = transfer->range_last = transfer->range_total = -1;
    return n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return n;
  curl::ContentRange range;
  if (curl::HeaderNameIs(line.substr(0, colon), "content-range") && curl::ParseContentRange(line.substr(colon + 1), &range)) {
    transfer->range_first = range.first;
    transfer->range_last = range.last;
    transfer->range_total = range.total;
  }
  return n;
}

bool IsTransientStatus(long status) { return status >= 500 || status == 429; }

// One finished request: curl's outcome and the HTTP status.
struct Outcome {
  CURLcode code = CURLE_OK;
  long status = 0;
  // curl's message when code != CURLE_OK; " (gave up after N attempts)" after retries.
  std::string detail;
};

}  // namespace

Status HttpOptions::Validate() const {
  if (connect_timeout_ms < 0 || request_timeout_ms < 0) {
    return Status::Invalid("HTTP timeouts must not be negative (connect {} ms, request {} ms)", connect_timeout_ms,
                           request_timeout_ms);
  }
  if (max_retries < 0 || max_retries > 100) return Status::Invalid("max_retries must be 0..100 (got {})", max_retries);
  if (initial_backoff_ms < 0 || max_backoff_ms < 0) return Status::Invalid("HTTP backoff must not be negative");
  if (max_idle_handles < 0) return Status::Invalid("max_idle_handles must not be negative");
  return Status::OK();
}

class HttpSource::Impl {
 public:
  Impl(std::string url, HttpOptions options)
      : url_(std::move(url)), options_(options), handles_(options.max_idle_handles) {}

  // Sends one request, retrying transient failures with exponential backoff. `range` is "a-b"
  // or empty; `head` sends HEAD. Returns the last attempt's outcome.
  Result<Outcome> Perform(const std::string& range, bool head, Transfer* transfer) {
    for (int attempt = 0;; ++attempt) {
      Transfer fresh = *transfer;  // each attempt writes the body from the start
      fresh.received = 0;
      fresh.overflow = false;
      STRATA_ASSIGN_OR_RETURN(Outcome outcome, PerformOnce(range, head, &fresh));
      const bool transient = outcome.code == CURLE_OK ? IsTransientStatus(outcome.status) : curl::IsTransient(outcome.code);
      if (!transient || attempt >= options_.max_retries) {
        *transfer = fresh;
        if (transient && attempt > 0) {
          outcome.detail += fmt::format(" (gave up after {} attempts)", attempt + 1);
        }
        return outcome;
      }
      retries_.fetch_add(1, std::memory_order_relaxed);
      curl::BackOff(attempt + 1, options_.initial_backoff_ms, options_.max_backoff_ms);
    }
  }

  const std::string& url() const { return url_; }
  std::atomic<int64_t> reads{0};
  std::atomic<int64_t> bytes{0};
  std::atomic<int64_t> requests{0};
  std::atomic<int64_t> retries_{0};

 private:
  Result<Outcome> PerformOnce(const std::string& range, bool head, Transfer* transfer) {
    CURL* handle = handles_.Acquire();
    if (handle == nullptr) return Status::OutOfMemory("cannot create a curl handle for '{}'", url_);
    // Reset clears the previous request's options but keeps the connection cache.
    curl_easy_reset(handle);
    char error_buffer[CURL_ERROR_SIZE] = {0};
    curl_easy_setopt(handle, CURLOPT_URL, url_.c_str());
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // required with threads and timeouts
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout_ms));
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.request_timeout_ms));
    curl_easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(handle, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, options_.verify_tls ? 1L : 0L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, options_.verify_tls ? 2L : 0L);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_buffer);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, OnHeader);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, transfer);
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, WriteBody);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, transfer);
    if (head) curl_easy_setopt(handle, CURLOPT_NOBODY, 1L);
    if (!range.empty()) curl_easy_setopt(handle, CURLOPT_RANGE, range.c_str());

    Outcome outcome;
    outcome.code = curl_easy_perform(handle);
    requests.fetch_add(1, std::memory_order_relaxed);
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &outcome.status);
    if (head && outcome.code == CURLE_OK) {
      curl_off_t length = -1;
      curl_easy_getinfo(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length);
      transfer->capacity = length;  // the HEAD's Content-Length, -1 if none
    }
    if (outcome.code != CURLE_OK) {
      outcome.detail = error_buffer[0] != 0 ? std::string(error_buffer) : curl_easy_strerror(outcome.code);
    }
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, nullptr);  // error_buffer is about to go
    handles_.Release(handle);
    return outcome;
  }

  std::string url_;
  HttpOptions options_;
  curl::HandlePool handles_;
};

namespace {

std::string StatusText(long status) {
  switch (status) {
    case 403: return "forbidden (HTTP 403)";
    case 404: return "not found (HTTP 404)";
    case 410: return "gone (HTTP 410)";
    case 416: return "range not satisfiable (HTTP 416)";
    default: return fmt::format("HTTP status {}", status);
  }
}

}  // namespace

HttpSource::HttpSource(std::unique_ptr<Impl> impl, std::string url, int64_t size)
    : impl_(std::move(impl)), url_(std::move(url)), size_(size) {}

HttpSource::~HttpSource() = default;

int64_t HttpSource::read_count() const { return impl_->reads.load(std::memory_order_relaxed); }
int64_t HttpSource::bytes_read() const { return impl_->bytes.load(std::memory_order_relaxed); }
int64_t HttpSource::request_count() const { return impl_->requests.load(std::memory_order_relaxed); }
int64_t HttpSource::retry_count() const { return impl_->retries_.load(std::memory_order_relaxed); }

Status HttpSource::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset) {
    return Status::IOError("read of {} bytes at offset {} is outside '{}' ({} bytes)", length, offset, url_, size_);
  }
  if (length == 0) {
    impl_->reads.fetch_add(1, std::memory_order_relaxed);
    return Status::OK();
  }
  const int64_t last = offset + length - 1;
  const std::string describe = fmt::format("GET bytes {}-{} of '{}'", offset, last, url_);
  Transfer transfer;
  transfer.out = out;
  transfer.capacity = length;
  STRATA_ASSIGN_OR_RETURN(const Outcome outcome,
                          impl_->Perform(fmt::format("{}-{}", offset, last), /*head=*/false, &transfer));
  if (outcome.code != CURLE_OK) {
    if (transfer.overflow) {
      if (outcome.status == 200) {
        return Status::IOError("{}: the server ignored the Range header (HTTP 200 with the whole resource instead "
                               "of 206 Partial Content)", describe);
      }
      return Status::IOError("{}: the server sent more than the {} bytes asked for (HTTP {})", describe, length,
                             outcome.status);
    }
    return Status::IOError("{} failed: {}", describe, outcome.detail);
  }
  if (outcome.status == 200) {
    // A whole-resource answer is right only when the whole resource was asked for.
    if (offset != 0 || length != size_) {
      return Status::IOError("{}: the server ignored the Range header (HTTP 200 instead of 206 Partial Content)",
                             describe);
    }
  } else if (outcome.status != 206) {
    return Status::IOError("{}: {}{}", describe, StatusText(outcome.status), outcome.detail);
  } else if (transfer.range_first >= 0 && (transfer.range_first != offset || transfer.range_last > last)) {
    return Status::IOError("{}: the server answered with bytes {}-{} instead", describe, transfer.range_first,
                           transfer.range_last);
  }
  if (transfer.received != length) {
    return Status::IOError("{}: short read, received {} of {} bytes", describe, transfer.received, length);
  }
  impl_->reads.fetch_add(1, std::memory_order_relaxed);
  impl_->bytes.fetch_add(length, std::memory_order_relaxed);
  return Status::OK();
}

Result<std::shared_ptr<HttpSource>> OpenHttpSource(const std::string& url, const HttpOptions& options) {
  STRATA_RETURN_NOT_OK(options.Validate());
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    return Status::Invalid("'{}' is not an http:// or https:// URL", url);
  }
  curl::EnsureInitialized();
  auto impl = std::make_unique<HttpSource::Impl>(url, options);

  // The size: HEAD's Content-Length, else the total of a one-byte range's Content-Range.
  Transfer head;
  STRATA_ASSIGN_OR_RETURN(const Outcome head_outcome, impl->Perform("", /*head=*/true, &head));
  if (head_outcome.code != CURLE_OK) {
    return Status::IOError("HEAD '{}' failed: {}", url, head_outcome.detail);
  }
  if (head_outcome.status == 200 && head.capacity >= 0) {
    return std::shared_ptr<HttpSource>(new HttpSource(std::move(impl), url, head.capacity));
  }
  if (head_outcome.status == 404 || head_outcome.status == 410 || head_outcome.status == 403 ||
      IsTransientStatus(head_outcome.status)) {
    return Status::IOError("HEAD '{}': {}{}", url, StatusText(head_outcome.status), head_outcome.detail);
  }
  uint8_t first_byte = 0;
  Transfer probe;
  probe.out = &first_byte;
  probe.capacity = 1;
  STRATA_ASSIGN_OR_RETURN(const Outcome outcome, impl->Perform("0-0", /*head=*/false, &probe));
  if (outcome.code != CURLE_OK && !probe.overflow) {
    return Status::IOError("GET bytes 0-0 of '{}' failed: {}", url, outcome.detail);
  }
  // 206 "bytes 0-0/N", or 416 "bytes */0" for an empty resource.
  if ((outcome.status == 206 || outcome.status == 416) && probe.range_total >= 0) {
    return std::shared_ptr<HttpSource>(new HttpSource(std::move(impl), url, probe.range_total));
  }
  if (outcome.status == 200) {
    return Status::IOError("'{}' does not support byte ranges (HTTP 200 to a ranged GET) and gave no size", url);
  }
  return Status::IOError("cannot learn the size of '{}': {}", url, StatusText(outcome.status));
}

}  // namespace strata
