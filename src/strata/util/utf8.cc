#include "strata/util/utf8.h"

#include <cstring>

namespace strata {

namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ULL;

}  // namespace

int Utf8SequenceLength(const uint8_t* p, int64_t remaining) {
  const uint8_t b0 = p[0];
  if (b0 < 0x80) return 1;
  auto cont = [&](int k) { return remaining > k && (p[k] & 0xC0) == 0x80; };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (remaining < 3) return 0;
    const uint8_t b1 = p[1];
    // E0 needs A0..BF (no overlongs), ED needs 80..9F (no surrogates).
    const uint8_t lo = b0 == 0xE0 ? 0xA0 : 0x80;
    const uint8_t hi = b0 == 0xED ? 0x9F : 0xBF;
    if (b1 < lo || b1 > hi) return 0;
    return cont(2) ? 3 : 0;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (remaining < 4) return 0;
    const uint8_t b1 = p[1];
    // F0 needs 90..BF (no overlongs), F4 needs 80..8F (at most U+10FFFF).
    const uint8_t lo = b0 == 0xF0 ? 0x90 : 0x80;
    const uint8_t hi = b0 == 0xF4 ? 0x8F : 0xBF;
    if (b1 < lo || b1 > hi) return 0;
    return cont(2) && cont(3) ? 4 : 0;
  }
  return 0;  // 80..C1 (continuation or overlong lead), F5..FF
}

int64_t FindInvalidUtf8(const uint8_t* data, int64_t size) {
  int64_t i = 0;
  while (i < size) {
    // ASCII fast path: eight bytes per step while no byte has its high bit set.
    while (i + 8 <= size) {
      uint64_t word;
      std::memcpy(&word, data + i, 8);
      if ((word & kHighBits) != 0) break;
      i += 8;
    }
    if (i >= size) break;
    if (data[i] < 0x80) {
      ++i;
      continue;
    }
    const int n = Utf8SequenceLength(data + i, size - i);
    if (n == 0) return i;
    i += n;
  }
  return -1;
}

bool ValidateUtf8(const uint8_t* data, int64_t size) { return FindInvalidUtf8(data, size) < 0; }

}  // namespace strata
