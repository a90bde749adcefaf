// SelectValues: the 4- or 8-byte values whose bit is set in a bitmap, packed in order. The
// filter kernel keeps selected rows with it, and the Parquet writer drops nulls with it (the
// validity bitmap as the selection). With AVX-512 (chosen at run time) a group of 16 or 8
// values is one masked load, compress and store; elsewhere a loop over each word's set bits.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace strata {

// Bits [pos, pos + count) of an LSB-first bitmap as the low bits of a word (1 <= count <= 64),
// reading only the bytes that hold them: the selection word of SelectValues and the filter.
[[gnu::always_inline]] inline uint64_t LoadBitmapWord(const uint8_t* bits, int64_t pos, int count) {
  const uint8_t* p = bits + (pos >> 3);
  const int shift = static_cast<int>(pos & 7);
  const int bytes = (shift + count + 7) >> 3;  // 1..9
  uint64_t lo = 0;
  std::memcpy(&lo, p, static_cast<size_t>(std::min(bytes, 8)));
  uint64_t word = lo >> shift;
  if (bytes == 9) word |= static_cast<uint64_t>(p[8]) << (64 - shift);
  if (count < 64) word &= (uint64_t{1} << count) - 1;
  return word;
}

// Copies values[i] for every i in [0, n) whose bit `bit_offset + i` of `bits` (LSB first) is
// set, in order, to `out`, and returns how many. Writes exactly that many values and reads no
// value or bitmap byte outside the n elements' range.
int64_t SelectValues32(const uint32_t* values, const uint8_t* bits, int64_t bit_offset, int64_t n, uint32_t* out);
int64_t SelectValues64(const uint64_t* values, const uint8_t* bits, int64_t bit_offset, int64_t n, uint64_t* out);

}  // namespace strata
