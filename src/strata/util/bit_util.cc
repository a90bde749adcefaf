#include "strata/util/bit_util.h"

#include <algorithm>

namespace strata::bit_util {

int64_t CountSetBits(const uint8_t* bits, int64_t bit_offset, int64_t length) {
  if (length <= 0) return 0;
  int64_t count = 0;
  // Leading bits up to a byte boundary.
  const int lead = static_cast<int>(std::min<int64_t>((8 - (bit_offset & 7)) & 7, length));
  if (lead > 0) {
    count += std::popcount(ReadBits(bits, bit_offset, lead));
    bit_offset += lead;
    length -= lead;
  }
  const uint8_t* p = bits + (bit_offset >> 3);
  // Whole words, four at a time so the popcounts can overlap.
  int64_t words = length >> 6;
  for (; words >= 4; words -= 4, p += 32) {
    count += std::popcount(LoadWord(p)) + std::popcount(LoadWord(p + 8)) +
             std::popcount(LoadWord(p + 16)) + std::popcount(LoadWord(p + 24));
  }
  for (; words > 0; --words, p += 8) count += std::popcount(LoadWord(p));
  const int tail = static_cast<int>(length & 63);
  if (tail > 0) count += std::popcount(ReadBits(p, 0, tail));
  return count;
}

namespace {

// Merges the low `n` bits (n <= 64) of `value` into dst at bit `offset`, touching only the
// bytes that hold them; used only for the ragged edges of a copy or fill.
void WriteBitsSlow(uint8_t* dst, int64_t offset, int n, uint64_t value) {
  while (n > 0) {
    uint8_t* byte = dst + (offset >> 3);
    const int shift = static_cast<int>(offset & 7);
    const int take = std::min(n, 8 - shift);
    const unsigned mask = static_cast<unsigned>(LowBitsMask(take)) << shift;
    *byte = static_cast<uint8_t>((*byte & ~mask) | ((static_cast<unsigned>(value) << shift) & mask));
    value >>= take;
    offset += take;
    n -= take;
  }
}

}  // namespace

void CopyBitmap(const uint8_t* src, int64_t src_offset, int64_t length, uint8_t* dst,
                int64_t dst_offset) {
  if (length <= 0) return;
  // Align the destination to a byte so the body can store whole words.
  const int lead = static_cast<int>(std::min<int64_t>((8 - (dst_offset & 7)) & 7, length));
  if (lead > 0) {
    WriteBitsSlow(dst, dst_offset, lead, ReadBits(src, src_offset, lead));
    src_offset += lead;
    dst_offset += lead;
    length -= lead;
  }
  uint8_t* out = dst + (dst_offset >> 3);
  if ((src_offset & 7) == 0) {
    // Both byte-aligned: a plain byte copy for the body.
    const int64_t whole_bytes = length >> 3;
    std::memcpy(out, src + (src_offset >> 3), static_cast<size_t>(whole_bytes));
    out += whole_bytes;
    src_offset += whole_bytes * 8;
    length &= 7;
  } else {
    // Source unaligned: each output word is two shifted source loads (ReadBits reads the
    // ninth byte only when it holds copied bits, so nothing past the source range is read).
    for (; length >= 64; length -= 64, src_offset += 64, out += 8) {
      StoreWord(out, ReadBits(src, src_offset, 64));
    }
    for (; length >= 8; length -= 8, src_offset += 8) *out++ = static_cast<uint8_t>(ReadBits(src, src_offset, 8));
  }
  if (length > 0) WriteBitsSlow(out, 0, static_cast<int>(length), ReadBits(src, src_offset, static_cast<int>(length)));
}

void SetBitsTo(uint8_t* bits, int64_t offset, int64_t length, bool value) {
  if (length <= 0) return;
  const uint64_t fill = value ? ~uint64_t{0} : 0;
  const int lead = static_cast<int>(std::min<int64_t>((8 - (offset & 7)) & 7, length));
  if (lead > 0) {
    WriteBitsSlow(bits, offset, lead, fill);
    offset += lead;
    length -= lead;
  }
  std::memset(bits + (offset >> 3), value ? 0xff : 0, static_cast<size_t>(length >> 3));
  offset += length & ~int64_t{7};
  if ((length & 7) != 0) WriteBitsSlow(bits, offset, static_cast<int>(length & 7), fill);
}

}  // namespace strata::bit_util
