// Value-wise equality of arrays: same type, same length, nulls in the same slots, equal
// values in the valid slots. Offsets, slicing, chunking and buffer identity do not matter;
// the bytes under null slots are ignored. Floating-point values compare by bit pattern
// (NaN equals an identical NaN; 0.0 and -0.0 differ), so equality is reflexive.
#pragma once

#include <cstdint>

#include "strata/array/array_data.h"

namespace strata {

class Array;

bool ArrayEquals(const Array& a, const Array& b);
bool ArrayDataEquals(const ArrayData& a, const ArrayData& b);
// Elements [a_start, a_start + length) of a against [b_start, b_start + length) of b
// (indices relative to each array's offset). Types must be equal; ranges in bounds.
bool ArrayRangeEquals(const ArrayData& a, int64_t a_start, const ArrayData& b, int64_t b_start, int64_t length);

}  // namespace strata
