// Big-endian IPC bodies: the values of one buffer byte-swapped between the host's little-endian
// order and big-endian, element by element as the buffer's layout says (the same swap both ways).
// The reader swaps into a new pool buffer (a body or a mapping is never written to), the writer
// in its scratch. Internal to the ipc layer (array_loader, body_builder).
#pragma once

#include <cstdint>
#include <memory>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::ipc {

// How a buffer's elements are swapped.
enum class SwapLayout : uint8_t {
  kWhole,          // each element of `width` bytes reversed (integers, floats, decimals)
  kDayTime,        // int32 days, int32 milliseconds
  kMonthDayNano,   // int32 months, int32 days, int64 nanoseconds
  kViews,          // 16-byte views: the length, and for out-of-line values the buffer index and offset
};

// Swaps the first `count` elements of `width` bytes at `data` in place; `to_native` says which
// way (views read their length before or after the swap).
void SwapInPlace(uint8_t* data, SwapLayout layout, int64_t width, int64_t count, bool to_native);

// `buffer` with its first `count` elements of `width` bytes swapped (the rest copied as is).
Result<std::shared_ptr<Buffer>> ByteSwapped(const Buffer& buffer, SwapLayout layout, int64_t width, int64_t count,
                                            MemoryPool* pool);

}  // namespace strata::ipc
