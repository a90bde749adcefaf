// Bitmap helpers for Arrow's LSB-first bit layout (validity bitmaps, boolean values): bit i
// lives in byte i / 8 at position i % 8. Offsets and lengths here count bits.
#pragma once

#include <cstdint>

namespace strata::bitmap {

constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) { bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7))); }
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  // Branch-free: clear the bit, then or in the value.
  const uint8_t mask = static_cast<uint8_t>(1u << (i & 7));
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~mask) | (-static_cast<uint8_t>(value) & mask));
}

// Sets bits [offset, offset + length) to `value`; other bits are untouched.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);

// Number of set bits in [offset, offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length);

// Copies `length` bits from src[src_offset...] to dst[dst_offset...]; other dst bits are
// untouched. Byte-aligned ranges go through memcpy, others through a shift per byte.
void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst, int64_t dst_offset);

// Packs one bool per byte (nonzero = set) into bits [dst_offset, dst_offset + length).
void PackBools(const uint8_t* bytes, int64_t length, uint8_t* dst, int64_t dst_offset);

// True when bits [a_offset, +length) of a equal bits [b_offset, +length) of b.
bool BitmapEquals(const uint8_t* a, int64_t a_offset, const uint8_t* b, int64_t b_offset, int64_t length);

}  // namespace strata::bitmap
