#include "strata/util/bit_unpack.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "strata/util/bit_util.h"

namespace strata::bit_util {
namespace {

constexpr int kGroup = 32;  // values per unrolled group; 32 * width bits is whole bytes

// Value I of a group of width W starting at `in`, as a constant-shift extraction.
template <typename T, int W, int I>
inline T UnpackOne(const uint8_t* in) {
  if constexpr (W == 0) {
    return 0;
  } else {
    constexpr int kBit = I * W;
    constexpr int kByte = kBit / 8;
    constexpr int kShift = kBit % 8;
    const uint64_t word = LoadWord(in + kByte);
    if constexpr (kShift + W <= 64) {
      return static_cast<T>((word >> kShift) & LowBitsMask(W));
    } else {
      // Widths above 56 can straddle nine bytes.
      const uint64_t high = static_cast<uint64_t>(in[kByte + 8]) << (64 - kShift);
      return static_cast<T>(((word >> kShift) | high) & LowBitsMask(W));
    }
  }
}

template <typename T, int W, size_t... I>
inline void UnpackGroup(const uint8_t* in, T* out, std::index_sequence<I...>) {
  ((out[I] = UnpackOne<T, W, static_cast<int>(I)>(in)), ...);
}

template <typename T, int W>
void UnpackWidth(const uint8_t* in, T* out, int64_t count, int64_t readable_bytes) {
  if constexpr (W == 0) {
    std::fill(out, out + count, T{0});
    return;
  } else if constexpr (W == 8 * sizeof(T)) {
    std::memcpy(out, in, static_cast<size_t>(count) * sizeof(T));
    return;
  } else {
    constexpr int64_t kGroupBytes = kGroup * W / 8;
    // A group's last load reads up to 8 bytes past its start byte, so the fast loop runs only
    // while a full word of input lies beyond the group; the rest goes through a padded copy.
    int64_t available = std::max(BytesForBits(count * W), readable_bytes);
    while (count >= kGroup && available >= kGroupBytes + 8) {
      UnpackGroup<T, W>(in, out, std::make_index_sequence<kGroup>{});
      in += kGroupBytes;
      out += kGroup;
      count -= kGroup;
      available -= kGroupBytes;
    }
    while (count > 0) {
      const int64_t n = std::min<int64_t>(count, kGroup);
      const int64_t bytes = BytesForBits(n * W);
      uint8_t padded[kGroupBytes + 16] = {};
      std::memcpy(padded, in, static_cast<size_t>(bytes));
      if (n == kGroup) {
        UnpackGroup<T, W>(padded, out, std::make_index_sequence<kGroup>{});
      } else {
        T tmp[kGroup];
        UnpackGroup<T, W>(padded, tmp, std::make_index_sequence<kGroup>{});
        std::copy(tmp, tmp + n, out);
      }
      in += bytes;
      out += n;
      count -= n;
    }
  }
}

template <typename T, size_t... W>
void Dispatch(const uint8_t* in, T* out, int64_t count, int bit_width, int64_t readable_bytes,
              std::index_sequence<W...>) {
  using Fn = void (*)(const uint8_t*, T*, int64_t, int64_t);
  static constexpr Fn kTable[] = {&UnpackWidth<T, static_cast<int>(W)>...};
  if (bit_width < 0 || bit_width >= static_cast<int>(sizeof...(W)) || count <= 0) return;
  kTable[bit_width](in, out, count, readable_bytes);
}

template <typename T>
void PackImpl(const T* in, int64_t count, int bit_width, uint8_t* out) {
  if (bit_width == 0) return;
  const uint64_t mask = LowBitsMask(bit_width);
  // A 128-bit accumulator (a 64-bit value plus up to 7 pending bits) flushed a byte at a time.
  unsigned __int128 acc = 0;
  int used = 0;
  uint8_t* p = out;
  for (int64_t i = 0; i < count; ++i) {
    acc |= static_cast<unsigned __int128>(static_cast<uint64_t>(in[i]) & mask) << used;
    used += bit_width;
    while (used >= 8) {
      *p++ = static_cast<uint8_t>(acc);
      acc >>= 8;
      used -= 8;
    }
  }
  if (used > 0) *p++ = static_cast<uint8_t>(acc);
}

}  // namespace

void Unpack32(const uint8_t* in, uint32_t* out, int64_t count, int bit_width,
              int64_t readable_bytes) {
  Dispatch<uint32_t>(in, out, count, bit_width, readable_bytes, std::make_index_sequence<33>{});
}

void Unpack64(const uint8_t* in, uint64_t* out, int64_t count, int bit_width,
              int64_t readable_bytes) {
  Dispatch<uint64_t>(in, out, count, bit_width, readable_bytes, std::make_index_sequence<65>{});
}

void Pack32(const uint32_t* in, int64_t count, int bit_width, uint8_t* out) {
  PackImpl(in, count, bit_width, out);
}

void Pack64(const uint64_t* in, int64_t count, int bit_width, uint8_t* out) {
  PackImpl(in, count, bit_width, out);
}

}  // namespace strata::bit_util
