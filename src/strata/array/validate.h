// ValidateFull: checks an ArrayData built from untrusted input (a file, a foreign Arrow
// producer) before anything reads its values: buffer counts and sizes against length and
// offset, bitmap sizes, offsets monotonic and inside the data, child lengths and types,
// map entry shape, dictionary indices, view references, the null count, and optionally UTF-8.
// Every failure is Status::Corrupt naming the array path, the type and the values involved.
#pragma once

#include "strata/array/array_data.h"
#include "strata/util/status.h"

namespace strata {

// Buffers an ArrayData of this type holds (validity first; null keeps one nullptr). Views hold
// at least 2: the views, then their data buffers.
size_t ExpectedBufferCount(TypeId id);

struct ValidateOptions {
  // Check that string / large_string / string_view values are well-formed UTF-8.
  bool check_utf8 = false;
};

// Walks the whole array (children and dictionary included); O(length) for offsets,
// views and dictionary indices. Views and indices are checked for valid slots only.
Status ValidateFull(const ArrayData& data, const ValidateOptions& options = {});

}  // namespace strata
