#include "strata/io/curl_internal.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <random>
#include <thread>

namespace strata::curl {

void EnsureInitialized() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

HandlePool::~HandlePool() {
  for (CURL* handle : idle_) curl_easy_cleanup(handle);
}

CURL* HandlePool::Acquire() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!idle_.empty()) {
      CURL* handle = idle_.back();
      idle_.pop_back();
      return handle;
    }
  }
  return curl_easy_init();
}

void HandlePool::Release(CURL* handle) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (static_cast<int>(idle_.size()) < max_idle_) {
      idle_.push_back(handle);
      return;
    }
  }
  curl_easy_cleanup(handle);
}

bool IsTransient(CURLcode code) {
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
      return true;
    default:
      return false;
  }
}

void BackOff(int retry, int64_t initial_ms, int64_t max_ms) {
  int64_t ceiling = initial_ms;
  for (int i = 1; i < retry && ceiling < max_ms; ++i) ceiling *= 2;
  ceiling = std::min(ceiling, max_ms);
  if (ceiling <= 0) return;
  thread_local std::mt19937_64 random{std::random_device{}()};
  const int64_t wait = std::uniform_int_distribution<int64_t>(ceiling / 2, ceiling)(random);
  std::this_thread::sleep_for(std::chrono::milliseconds(wait));
}

std::string_view TrimHeaderValue(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n')) {
    text.remove_suffix(1);
  }
  return text;
}

bool ParseNonNegative(std::string_view text, int64_t* value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return error == std::errc() && end == text.data() + text.size() && *value >= 0;
}

bool HeaderNameIs(std::string_view name, std::string_view lowercase) {
  return name.size() == lowercase.size() &&
         std::equal(name.begin(), name.end(), lowercase.begin(), [](char a, char b) { return (a | 0x20) == b; });
}

bool ParseContentRange(std::string_view value, ContentRange* out) {
  value = TrimHeaderValue(value);
  if (value.substr(0, 6) != "bytes ") return false;
  value.remove_prefix(6);
  const size_t slash = value.find('/');
  if (slash == std::string_view::npos) return false;
  ContentRange range;
  if (!ParseNonNegative(value.substr(slash + 1), &range.total)) return false;
  const std::string_view span = value.substr(0, slash);
  const size_t dash = span.find('-');
  if (dash != std::string_view::npos && ParseNonNegative(span.substr(0, dash), &range.first) &&
      ParseNonNegative(span.substr(dash + 1), &range.last)) {
    *out = range;
    return true;
  }
  range.first = range.last = -1;
  *out = range;
  return span == "*";
}

}  // namespace strata::curl
