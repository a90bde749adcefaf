// The per-leaf kernels of row-level evaluation (evaluate.h): one tight loop per (array
// storage type, operator), comparing typed values against constants converted once, and
// writing the result bitmap eight bits at a time. Internal to the expr layer.
#pragma once

#include <cstdint>

#include "strata/array/array_data.h"
#include "strata/expr/predicate.h"
#include "strata/util/status.h"

namespace strata::expr::internal {

// For elements [start, start + length) of `data` (element indices as in Array, before
// data.offset is applied), sets bit i of `out` when element start + i is non-null and
// satisfies `leaf` (kCompare, kIn, kNotIn) or is non-null (kIsNotNull; kIsNull is the
// caller's complement of that). Bits past `length` in the last byte are zeroed. `data` is
// not a dictionary array; its type may be narrower than the leaf's (same Value kind).
Status EvaluateFlatLeaf(const Leaf& leaf, const ArrayData& data, int64_t start, int64_t length, uint8_t* out);

// out[0, length) &= validity of elements [start, start + length) of `data` (no-op without a
// validity bitmap; all cleared for the null type).
void AndValidity(const ArrayData& data, int64_t start, int64_t length, uint8_t* out);

// dst bits [0, length) &= src bits [src_offset, src_offset + length).
void AndBitsAt(uint8_t* dst, const uint8_t* src, int64_t src_offset, int64_t length);

// Sets bits [0, length) from fn(i) (bool), eight at a time; bits past `length` in the last
// byte become zero.
template <typename Fn>
inline void FillBits(int64_t length, uint8_t* out, Fn&& fn) {
  int64_t i = 0;
  for (; i + 8 <= length; i += 8) {
    uint8_t byte = 0;
    for (int k = 0; k < 8; ++k) byte |= static_cast<uint8_t>(fn(i + k)) << k;
    out[i >> 3] = byte;
  }
  if (i < length) {
    uint8_t byte = 0;
    for (int k = 0; i + k < length; ++k) byte |= static_cast<uint8_t>(fn(i + k)) << k;
    out[i >> 3] = byte;
  }
}

}  // namespace strata::expr::internal
