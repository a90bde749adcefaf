// ULEB128 and zigzag varints, as used by the RLE/bit-packing hybrid run headers and the
// DELTA_* encodings. Bounds-checked reads over a byte span.
#pragma once

#include <cstdint>

#include "strata/memory/buffer.h"

namespace strata::parquet {

// Reads a ULEB128 starting at data[*pos] (data has `size` bytes). On success advances *pos and
// returns true; returns false when the varint runs past `size` or does not fit in 64 bits.
inline bool ReadUleb128(const uint8_t* data, int64_t size, int64_t* pos, uint64_t* out) {
  uint64_t value = 0;
  int64_t p = *pos;
  for (int shift = 0; shift < 64; shift += 7) {
    if (p >= size) return false;
    const uint8_t byte = data[p++];
    const uint64_t bits = byte & 0x7F;
    // The tenth byte may only contribute the top bit of a 64-bit value.
    if (shift == 63 && bits > 1) return false;
    value |= bits << shift;
    if ((byte & 0x80) == 0) {
      *out = value;
      *pos = p;
      return true;
    }
  }
  return false;
}

inline int64_t ZigZagDecode(uint64_t v) {
  return static_cast<int64_t>((v >> 1) ^ (~(v & 1) + 1));
}
inline uint64_t ZigZagEncode(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

// Writes `value` as ULEB128 into `out` (at least 10 bytes); returns the bytes written.
inline int WriteUleb128(uint64_t value, uint8_t* out) {
  int n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

inline Status AppendUleb128(ResizableBuffer* out, uint64_t value) {
  uint8_t bytes[10];
  return out->Append(bytes, WriteUleb128(value, bytes));
}

}  // namespace strata::parquet
