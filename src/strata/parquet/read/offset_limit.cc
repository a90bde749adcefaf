#include "strata/parquet/read/offset_limit.h"

#include <atomic>
#include <limits>

namespace strata::parquet {
namespace {

constexpr int64_t kOffsetLimit = std::numeric_limits<int32_t>::max();
std::atomic<int64_t> offset_limit_for_testing{0};

}  // namespace

int64_t OffsetLimit() {
  const int64_t lowered = offset_limit_for_testing.load(std::memory_order_relaxed);
  return lowered > 0 ? lowered : kOffsetLimit;
}

void SetOffsetLimitForTesting(int64_t bytes) { offset_limit_for_testing.store(bytes); }

Status OneRowPastOffsetLimit(int64_t limit, int64_t bytes) {
  if (bytes >= 0) {
    return Status::LimitExceeded(
        "one row holds {} bytes of values, past the {} bytes 32-bit offsets can hold; read with large_binary (or "
        "large_string)",
        bytes, limit);
  }
  return Status::LimitExceeded(
      "one row's values pass the {} bytes 32-bit offsets can hold (the chunk's metadata did not tell); read with "
      "large_binary (or large_string)",
      limit);
}

}  // namespace strata::parquet
