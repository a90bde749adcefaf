// Status: the one error model of strata. Every fallible function returns a Status or a
// Result<T>; no exception escapes the library. Messages carry the context a user needs
// (file, offset, row group, column, values involved).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace strata {

enum class StatusCode : unsigned char {
  kOk = 0,
  kInvalid,         // the caller asked for something that makes no sense
  kCorrupt,         // the data (file, page, buffer) is malformed
  kIOError,         // the byte source failed
  kNotImplemented,  // valid input that strata does not support yet
  kOutOfMemory,     // the allocator or the pool's limit refused an allocation
  kLimitExceeded,   // a configured or safety limit (sizes, depth, counts) was passed
  kChecksumError,   // a page checksum did not match
};

std::string_view StatusCodeName(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK; carries no allocation
  Status(StatusCode code, std::string message);

  static Status OK() { return {}; }
  template <typename... Args>
  static Status Invalid(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kInvalid, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status Corrupt(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kCorrupt, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status IOError(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kIOError, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status NotImplemented(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kNotImplemented, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status OutOfMemory(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kOutOfMemory, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status LimitExceeded(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kLimitExceeded, fmt::format(f, std::forward<Args>(args)...));
  }
  template <typename... Args>
  static Status ChecksumError(fmt::format_string<Args...> f, Args&&... args) {
    return Status(StatusCode::kChecksumError, fmt::format(f, std::forward<Args>(args)...));
  }

  bool ok() const { return state_ == nullptr; }
  StatusCode code() const { return state_ ? state_->code : StatusCode::kOk; }
  const std::string& message() const;
  // "Corrupt: <message>", or "OK".
  std::string ToString() const;

  // Returns a copy whose message is "<context>: <message>"; OK stays OK.
  Status WithContext(std::string_view context) const;

  bool IsInvalid() const { return code() == StatusCode::kInvalid; }
  bool IsCorrupt() const { return code() == StatusCode::kCorrupt; }
  bool IsIOError() const { return code() == StatusCode::kIOError; }
  bool IsNotImplemented() const { return code() == StatusCode::kNotImplemented; }
  bool IsOutOfMemory() const { return code() == StatusCode::kOutOfMemory; }
  bool IsLimitExceeded() const { return code() == StatusCode::kLimitExceeded; }
  bool IsChecksumError() const { return code() == StatusCode::kChecksumError; }

 private:
  struct State {
    StatusCode code;
    std::string message;
  };
  // Shared so copying an error is cheap; errors are immutable once made.
  std::shared_ptr<const State> state_;
};

}  // namespace strata

#define STRATA_CONCAT_INNER(a, b) a##b
#define STRATA_CONCAT(a, b) STRATA_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function when `expr` is not OK.
#define STRATA_RETURN_NOT_OK(expr)                    \
  do {                                                \
    ::strata::Status _strata_st = (expr);             \
    if (__builtin_expect(!_strata_st.ok(), 0)) {      \
      return _strata_st;                              \
    }                                                 \
  } while (false)
