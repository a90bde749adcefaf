// What the libcurl-based sources share (http_source.cc, s3/s3_client.cc): one-time global
// initialisation, a pool of idle easy handles (reusing a handle reuses its connection), the
// transfer errors worth a retry, and the header values they parse. Not installed.
#pragma once

#include <curl/curl.h>

#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

namespace strata::curl {

// curl_global_init is not thread-safe: run once, before the first handle; never cleaned up,
// since sources may live until exit.
void EnsureInitialized();

// Idle handles kept for reuse, at most `max_idle`; the rest are cleaned up on release.
class HandlePool {
 public:
  explicit HandlePool(int max_idle) : max_idle_(max_idle) {}
  ~HandlePool();
  HandlePool(const HandlePool&) = delete;
  HandlePool& operator=(const HandlePool&) = delete;

  CURL* Acquire();  // nullptr when curl cannot make one
  void Release(CURL* handle);

 private:
  int max_idle_;
  std::mutex mutex_;
  std::vector<CURL*> idle_;
};

// Timeouts, resets, connections closed early: worth another attempt.
bool IsTransient(CURLcode code);

// Sleeps before retry number `retry` (1, 2, ...): a random time between half and all of
// initial_ms x 2^(retry-1), at most max_ms ("jitter", so that clients throttled together do
// not all come back at the same moment).
void BackOff(int retry, int64_t initial_ms, int64_t max_ms);

// Leading blanks and trailing blanks and line ends removed.
std::string_view TrimHeaderValue(std::string_view text);
// A non-negative decimal integer filling the whole text.
bool ParseNonNegative(std::string_view text, int64_t* value);
// Case-insensitive comparison with a lowercase header name.
bool HeaderNameIs(std::string_view name, std::string_view lowercase);

struct ContentRange {
  int64_t first = -1;  // -1 when absent ("bytes */total")
  int64_t last = -1;
  int64_t total = -1;
};
// "bytes first-last/total" or "bytes */total"; false when it is neither.
bool ParseContentRange(std::string_view value, ContentRange* out);

}  // namespace strata::curl
