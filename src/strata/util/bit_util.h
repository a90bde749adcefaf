// Bit and bitmap utilities: LSB-first bit addressing (bit i of a bitmap is bit i % 8 of byte
// i / 8, as in Arrow validity bitmaps and Parquet's bit-packed booleans), popcount and copies
// over arbitrary bit ranges, done a 64-bit word at a time. Used by the array layer and the
// Parquet decoders.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace strata::bit_util {

static_assert(std::endian::native == std::endian::little,
              "strata's bit utilities and decoders assume a little-endian host");

// Bytes needed to hold `bits` bits (bits >= 0).
constexpr int64_t BytesForBits(int64_t bits) { return (bits + 7) >> 3; }

inline bool GetBit(const uint8_t* bits, int64_t i) { return (bits[i >> 3] >> (i & 7)) & 1; }
inline void SetBit(uint8_t* bits, int64_t i) { bits[i >> 3] |= static_cast<uint8_t>(1u << (i & 7)); }
inline void ClearBit(uint8_t* bits, int64_t i) {
  bits[i >> 3] &= static_cast<uint8_t>(~(1u << (i & 7)));
}
inline void SetBitTo(uint8_t* bits, int64_t i, bool value) {
  // Branch-free: clear the bit, then or in the value.
  bits[i >> 3] = static_cast<uint8_t>((bits[i >> 3] & ~(1u << (i & 7))) |
                                      (static_cast<unsigned>(value) << (i & 7)));
}

// Unaligned little-endian loads and stores through memcpy (compiles to one mov).
inline uint64_t LoadWord(const uint8_t* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof(w));
  return w;
}
inline void StoreWord(uint8_t* p, uint64_t w) { std::memcpy(p, &w, sizeof(w)); }

// A mask of the low `n` bits, n in [0, 64].
constexpr uint64_t LowBitsMask(int n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

// Reads `n` bits (1..64) starting at bit `bit_offset` of `bits`, returned in the low bits.
// Touches only the bytes that hold those bits, so it is safe at the very end of a buffer.
inline uint64_t ReadBits(const uint8_t* bits, int64_t bit_offset, int n) {
  const uint8_t* p = bits + (bit_offset >> 3);
  const int shift = static_cast<int>(bit_offset & 7);
  const int bytes = (shift + n + 7) >> 3;  // 1..9
  uint64_t word = 0;
  if (bytes >= 8) {
    word = LoadWord(p);
  } else {
    std::memcpy(&word, p, static_cast<size_t>(bytes));
  }
  uint64_t v = word >> shift;
  if (bytes == 9) v |= static_cast<uint64_t>(p[8]) << (64 - shift);
  return v & LowBitsMask(n);
}

// Number of set bits in [bit_offset, bit_offset + length).
int64_t CountSetBits(const uint8_t* bits, int64_t bit_offset, int64_t length);

// Copies `length` bits from `src` at `src_offset` to `dst` at `dst_offset`; the bits of `dst`
// outside the destination range are preserved. The ranges must not overlap.
void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                int64_t dst_offset);

// Sets bits [offset, offset + length) to `value`; other bits are preserved.
void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value);

// Writes bits one after another from a starting bit offset, a byte at a time (the current byte
// is kept in a register). Call Finish() before reading the bitmap. Preserves the bits of the
// first byte below `offset`; the bits of the last byte above the written range are cleared.
class BitmapWriter {
 public:
  BitmapWriter(uint8_t* bits, int64_t offset)
      : byte_(bits + (offset >> 3)), bit_(static_cast<int>(offset & 7)),
        current_(static_cast<uint8_t>(*byte_ & LowBitsMask(bit_))) {}

  void Append(bool value) {
    current_ = static_cast<uint8_t>(current_ | (static_cast<unsigned>(value) << bit_));
    if (++bit_ == 8) {
      *byte_++ = current_;
      current_ = 0;
      bit_ = 0;
    }
  }
  void Finish() {
    if (bit_ != 0) *byte_ = current_;
  }

 private:
  uint8_t* byte_;
  int bit_;
  uint8_t current_;
};

// Reads bits one after another from a starting bit offset.
class BitmapReader {
 public:
  BitmapReader(const uint8_t* bits, int64_t offset)
      : byte_(bits + (offset >> 3)), bit_(static_cast<int>(offset & 7)) {}
  bool Next() {
    const bool v = (*byte_ >> bit_) & 1;
    if (++bit_ == 8) {
      ++byte_;
      bit_ = 0;
    }
    return v;
  }

 private:
  const uint8_t* byte_;
  int bit_;
};

}  // namespace strata::bit_util
