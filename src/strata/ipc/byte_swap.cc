#include "strata/ipc/byte_swap.h"

#include <algorithm>
#include <cstring>

namespace strata::ipc {
namespace {

void Reverse(uint8_t* p, int64_t n) { std::reverse(p, p + n); }

}  // namespace

void SwapInPlace(uint8_t* data, SwapLayout layout, int64_t width, int64_t count, bool to_native) {
  for (int64_t i = 0; i < count; ++i) {
    uint8_t* e = data + i * width;
    switch (layout) {
      case SwapLayout::kWhole: Reverse(e, width); break;
      case SwapLayout::kDayTime:
        Reverse(e, 4);
        Reverse(e + 4, 4);
        break;
      case SwapLayout::kMonthDayNano:
        Reverse(e, 4);
        Reverse(e + 4, 4);
        Reverse(e + 8, 8);
        break;
      case SwapLayout::kViews: {
        // The length says whether the value is inline (its bytes stay) or a buffer index and
        // offset follow the 4-byte prefix (which stays too: it is bytes of the value).
        int32_t before;
        std::memcpy(&before, e, 4);
        Reverse(e, 4);
        int32_t after;
        std::memcpy(&after, e, 4);
        const int32_t native = to_native ? after : before;
        if (native > 12) {
          Reverse(e + 8, 4);
          Reverse(e + 12, 4);
        }
        break;
      }
    }
  }
}

Result<std::shared_ptr<Buffer>> ByteSwapped(const Buffer& buffer, SwapLayout layout, int64_t width, int64_t count,
                                            MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(auto out, AllocateBuffer(pool, buffer.size()));
  if (buffer.size() > 0) std::memcpy(out->mutable_data(), buffer.data(), static_cast<size_t>(buffer.size()));
  // Only whole elements inside the buffer are swapped (a short buffer fails validation later
  // with its own message).
  const int64_t elements = width > 0 ? std::min(count, buffer.size() / width) : 0;
  SwapInPlace(out->mutable_data(), layout, width, elements, /*to_native=*/true);
  return std::shared_ptr<Buffer>(std::move(out));
}

}  // namespace strata::ipc
