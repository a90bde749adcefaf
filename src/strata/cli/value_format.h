// Text forms of values as `strata scan` and `strata cat` print them. These follow the scan
// summary contract (SCAN-SUMMARY.md) so that strata's output can be compared with other
// engines' byte for byte: JavaScript-style shortest floats, ISO dates and timestamps with
// the fraction only when non-zero, exact decimals, and `len=N;sha256=HEX` for binary.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strata/types/data_type.h"

namespace strata::cli {

enum class FormatTimeUnit { kSecond, kMilli, kMicro, kNano };
FormatTimeUnit ToFormatUnit(TimeUnit unit);

// Shortest text that round-trips, spelled as JavaScript's Number#toString does (fixed notation
// for 1e-7 <= |x| < 1e21, else d.ddde+N); NaN, Infinity, -Infinity; -0 is written 0.
std::string FormatFloat64(double value);
// The same for float32: the shortest text that reads back as the same float32.
std::string FormatFloat32(float value);
// IEEE half-precision bits converted exactly to float32.
float Float16ToFloat32(uint16_t bits);

// Days since 1970-01-01 -> YYYY-MM-DD (proleptic Gregorian, at least 4 year digits, '-' for
// years before 0).
std::string FormatDate(int64_t days_since_epoch);
// An instant in `unit` since the epoch -> YYYY-MM-DDTHH:MM:SS[.fraction], no trailing zeros.
std::string FormatTimestamp(int64_t value, FormatTimeUnit unit);
// Time of day in `unit` -> HH:MM:SS[.fraction]; a negative value is its magnitude after a
// minus sign (-00:00:01.5).
std::string FormatTime(int64_t value, FormatTimeUnit unit);
// INT96 (8 bytes nanoseconds of day, 4 bytes Julian day, little-endian) -> nanoseconds since
// the epoch, in wrapping 64-bit arithmetic.
int64_t Int96ToNanoseconds(const uint8_t bytes[12]);

// Exact decimal text of an unscaled integer with `scale` fraction digits: -12.50.
std::string FormatDecimal128(__int128 unscaled, int32_t scale);
// The same for a big-endian two's-complement integer (FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY
// decimals, decimal256) of any width whose value fits in 256 bits.
std::string FormatDecimalBigEndian(const uint8_t* bytes, int64_t length, int32_t scale);

// "len=N;sha256=<64 lowercase hex digits>".
std::string FormatBinaryDigest(std::string_view bytes);

}  // namespace strata::cli
