// Bit-packed integers in Parquet's order (RLE/bit-packing hybrid runs, DELTA_BINARY_PACKED
// miniblocks, PLAIN booleans): values packed back to back from the least significant bit of each
// byte, each value little-endian. The decoders in parquet/encoding call these per run.
#pragma once

#include <cstdint>

namespace strata::bit_util {

// Unpacks `count` values of `bit_width` bits from `in` into out[0, count).
// Reads exactly BytesForBits(count * bit_width) bytes of `in`, never more, so callers need no
// padding; `in` may be unaligned. bit_width must be in [0, 32] (Unpack32) or [0, 64] (Unpack64);
// callers validate it (the function does nothing for an out-of-range width).
// `readable_bytes`, when larger than BytesForBits(count * bit_width), says how many bytes at `in`
// may be read (the rest of a page, say): the last groups can then be unpacked in place instead
// of through a padded copy. Pass -1 (the default) when only the packed bytes exist.
// Values are unpacked 32 at a time with the width a compile-time constant, so each value is one
// unaligned 8-byte load, a constant shift and a mask.
void Unpack32(const uint8_t* in, uint32_t* out, int64_t count, int bit_width,
              int64_t readable_bytes = -1);
void Unpack64(const uint8_t* in, uint64_t* out, int64_t count, int bit_width,
              int64_t readable_bytes = -1);

// The inverse: packs the low `bit_width` bits of `count` values into exactly
// BytesForBits(count * bit_width) bytes at `out` (the last byte's unused high bits are zero).
// Bits of values above `bit_width` are ignored.
void Pack32(const uint32_t* in, int64_t count, int bit_width, uint8_t* out);
void Pack64(const uint64_t* in, int64_t count, int bit_width, uint8_t* out);

}  // namespace strata::bit_util
