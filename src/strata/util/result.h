// Result<T>: a value or the Status explaining why there is none.
#pragma once

#include <cassert>
#include <optional>
#include <utility>

#include "strata/util/status.h"

namespace strata {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok() && "a Result built from a Status must carry an error");
    if (status_.ok()) status_ = Status::Invalid("Result constructed from an OK status");
  }

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }

  const T& operator*() const& { return *value_; }
  T& operator*() & { return *value_; }
  T&& operator*() && { return std::move(*value_); }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }

  const T& ValueOrDie() const& { assert(ok()); return *value_; }
  T ValueOrDie() && { assert(ok()); return std::move(*value_); }
  T MoveValueUnsafe() { return std::move(*value_); }

 private:
  Status status_;
  std::optional<T> value_;
};

}  // namespace strata

#define STRATA_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr) \
  auto tmp = (rexpr);                                 \
  if (__builtin_expect(!tmp.ok(), 0)) {               \
    return tmp.status();                              \
  }                                                   \
  lhs = std::move(tmp).MoveValueUnsafe();

// Evaluates `rexpr` (a Result<T>); on error returns its Status, otherwise assigns the value
// to `lhs` (which may be a declaration: `STRATA_ASSIGN_OR_RETURN(auto x, F());`).
#define STRATA_ASSIGN_OR_RETURN(lhs, rexpr) \
  STRATA_ASSIGN_OR_RETURN_IMPL(STRATA_CONCAT(_strata_result_, __COUNTER__), lhs, rexpr)
