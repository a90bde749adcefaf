// SelectValues: the 4- or 8-byte values whose bit is set in a bitmap, packed in order. The
// filter kernel keeps selected rows with it, and the Parquet writer drops nulls with it (the
// validity bitmap as the selection). With AVX-512 (chosen at run time) a group of 16 or 8
// values is one masked load, compress and store; elsewhere a loop over each word's set bits.
#pragma once

#include <cstdint>

namespace strata {

// Copies values[i] for every i in [0, n) whose bit `bit_offset + i` of `bits` (LSB first) is
// set, in order, to `out`, and returns how many. `out` has room for `out_room` values, at least
// as many as are selected: values past the selected ones, within the room, may be overwritten
// (more room is faster: n values' room lets every group be one whole-vector store). Reads no
// value or bitmap byte outside the n elements' range.
int64_t SelectValues32(const uint32_t* values, const uint8_t* bits, int64_t bit_offset, int64_t n, uint32_t* out,
                       int64_t out_room);
int64_t SelectValues64(const uint64_t* values, const uint8_t* bits, int64_t bit_offset, int64_t n, uint64_t* out,
                       int64_t out_room);

}  // namespace strata
