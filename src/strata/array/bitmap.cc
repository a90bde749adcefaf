#include "strata/array/bitmap.h"

#include <bit>
#include <cstring>

namespace strata::bitmap {

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  if (length <= 0) return;
  int64_t i = offset;
  const int64_t end = offset + length;
  // Leading bits up to a byte boundary.
  while (i < end && (i & 7) != 0) SetBitTo(bits, i++, value);
  const int64_t whole_bytes = (end - i) >> 3;
  if (whole_bytes > 0) {
    std::memset(bits + (i >> 3), value ? 0xff : 0, static_cast<size_t>(whole_bytes));
    i += whole_bytes * 8;
  }
  while (i < end) SetBitTo(bits, i++, value);
}

int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  if (length <= 0) return 0;
  int64_t count = 0;
  int64_t i = offset;
  const int64_t end = offset + length;
  while (i < end && (i & 7) != 0) count += GetBit(bits, i++);
  const uint8_t* p = bits + (i >> 3);
  int64_t bytes = (end - i) >> 3;
  // Eight bytes at a time through popcount; memcpy keeps the load alignment-safe.
  while (bytes >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    count += std::popcount(word);
    p += 8;
    bytes -= 8;
    i += 64;
  }
  while (bytes > 0) {
    count += std::popcount(static_cast<unsigned>(*p++));
    --bytes;
    i += 8;
  }
  while (i < end) count += GetBit(bits, i++);
  return count;
}

void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst, int64_t dst_offset) {
  if (length <= 0) return;
  // Bring the destination to a byte boundary bit by bit.
  while (length > 0 && (dst_offset & 7) != 0) {
    SetBitTo(dst, dst_offset++, GetBit(src, src_offset++));
    --length;
  }
  const int64_t whole_bytes = length >> 3;
  const uint8_t* s = src + (src_offset >> 3);
  uint8_t* d = dst + (dst_offset >> 3);
  const int shift = static_cast<int>(src_offset & 7);
  if (shift == 0) {
    std::memcpy(d, s, static_cast<size_t>(whole_bytes));
  } else {
    // Byte k of the output takes the high bits of s[k] and the low bits of s[k + 1]; both
    // bytes hold bits of the copied range, so the reads stay in bounds.
    for (int64_t k = 0; k < whole_bytes; ++k) {
      d[k] = static_cast<uint8_t>((s[k] >> shift) | (s[k + 1] << (8 - shift)));
    }
  }
  src_offset += whole_bytes * 8;
  dst_offset += whole_bytes * 8;
  length -= whole_bytes * 8;
  while (length-- > 0) SetBitTo(dst, dst_offset++, GetBit(src, src_offset++));
}

void PackBools(const uint8_t* bytes, int64_t length, uint8_t* dst, int64_t dst_offset) {
  int64_t i = 0;
  while (i < length && ((dst_offset + i) & 7) != 0) {
    SetBitTo(dst, dst_offset + i, bytes[i] != 0);
    ++i;
  }
  uint8_t* d = dst + ((dst_offset + i) >> 3);
  for (; i + 8 <= length; i += 8) {
    uint8_t b = 0;
    for (int k = 0; k < 8; ++k) b |= static_cast<uint8_t>((bytes[i + k] != 0) << k);
    *d++ = b;
  }
  for (; i < length; ++i) SetBitTo(dst, dst_offset + i, bytes[i] != 0);
}

bool BitmapEquals(const uint8_t* a, int64_t a_offset, const uint8_t* b, int64_t b_offset, int64_t length) {
  if ((a_offset & 7) == 0 && (b_offset & 7) == 0) {
    const int64_t whole = length >> 3;
    if (std::memcmp(a + (a_offset >> 3), b + (b_offset >> 3), static_cast<size_t>(whole)) != 0) return false;
    for (int64_t i = whole * 8; i < length; ++i) {
      if (GetBit(a, a_offset + i) != GetBit(b, b_offset + i)) return false;
    }
    return true;
  }
  for (int64_t i = 0; i < length; ++i) {
    if (GetBit(a, a_offset + i) != GetBit(b, b_offset + i)) return false;
  }
  return true;
}

}  // namespace strata::bitmap
