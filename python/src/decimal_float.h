// Decimal values (little-endian two's-complement unscaled integers of 4 to 32 bytes) as the
// nearest double, without Python objects: decimals="float" converts whole columns with it.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "strata/array/value_text.h"

namespace strata::python {

// The low 16 bytes as __int128 when the value fits (the higher bytes only repeat the sign).
inline bool DecimalFitsInt128(const uint8_t* bytes, int byte_width, __int128* out) {
  if (byte_width == 4 || byte_width == 8) {  // decimal32 / decimal64: always fits
    int64_t narrow = 0;
    if (byte_width == 4) {
      int32_t v;
      std::memcpy(&v, bytes, 4);
      narrow = v;
    } else {
      std::memcpy(&narrow, bytes, 8);
    }
    *out = narrow;
    return true;
  }
  __int128 low;
  std::memcpy(&low, bytes, sizeof(low));
  const uint8_t sign = low < 0 ? 0xff : 0x00;
  for (int b = 16; b < byte_width; ++b) {
    if (bytes[b] != sign) return false;
  }
  *out = low;
  return true;
}

// Exact text -> strtod: correctly rounded for any unscaled value and scale.
inline double DecimalToDoubleSlow(const uint8_t* bytes, int byte_width, int32_t scale) {
  value_text::DecimalDigits digits;
  value_text::ToDecimalDigits(bytes, byte_width, &digits);
  std::string text(static_cast<size_t>(value_text::DecimalTextLength(digits, scale)), '\0');
  value_text::WriteDecimal(digits, scale, text.data());
  return std::strtod(text.c_str(), nullptr);
}

// unscaled * 10^-scale, correctly rounded. When |unscaled| < 2^53 and |scale| <= 22 both
// operands are exact doubles, so one IEEE division (or multiplication, for a negative scale)
// rounds the exact quotient once; anything else goes through the exact text.
inline double DecimalToDouble(const uint8_t* bytes, int byte_width, int32_t scale) {
  static constexpr double kPow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  constexpr __int128 kExact = __int128{1} << 53;
  __int128 v;
  if (DecimalFitsInt128(bytes, byte_width, &v) && v < kExact && v > -kExact && scale >= -22 && scale <= 22) {
    const double d = static_cast<double>(static_cast<int64_t>(v));
    return scale >= 0 ? d / kPow10[scale] : d * kPow10[-scale];
  }
  return DecimalToDoubleSlow(bytes, byte_width, scale);
}

}  // namespace strata::python
