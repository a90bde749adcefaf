#include "strata/util/status.h"

namespace strata {

std::string_view StatusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kInvalid: return "Invalid";
    case StatusCode::kCorrupt: return "Corrupt";
    case StatusCode::kIOError: return "IOError";
    case StatusCode::kNotImplemented: return "NotImplemented";
    case StatusCode::kOutOfMemory: return "OutOfMemory";
    case StatusCode::kLimitExceeded: return "LimitExceeded";
    case StatusCode::kChecksumError: return "ChecksumError";
  }
  return "Unknown";
}

Status::Status(StatusCode code, std::string message) {
  if (code != StatusCode::kOk) {
    state_ = std::make_shared<const State>(State{code, std::move(message)});
  }
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return state_ ? state_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  return fmt::format("{}: {}", StatusCodeName(state_->code), state_->message);
}

Status Status::WithContext(std::string_view context) const {
  if (ok()) return *this;
  return Status(state_->code, fmt::format("{}: {}", context, state_->message));
}

}  // namespace strata
