// Concatenate: one array holding the values of two arrays of the same flat type, in new pool
// memory sized once (what an IPC dictionary delta needs: the dictionary read so far, then the
// delta's values).
#pragma once

#include "strata/array/array_data.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata {

// Types: null, boolean, fixed-width (integers, floats, decimals, temporal, fixed_size_binary),
// binary, string, large_binary, large_string; NotImplemented for the others. Invalid when the
// types differ or the result would exceed the offsets' range.
Result<ArrayDataPtr> Concatenate(const ArrayData& a, const ArrayData& b, MemoryPool* pool);

}  // namespace strata
