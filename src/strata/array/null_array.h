// Arrays synthesised without source data: an all-null column of any type (a dataset column
// missing from one file) and one value repeated (a hive partition column). Sits in the array
// layer beside the builders; every buffer is allocated once at its exact size.
#pragma once

#include <cstdint>

#include "strata/array/array.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata {

// `length` null slots of `type`: zeroed validity, zeroed values of the exact size, offsets
// all 0, zeroed views; struct children all-null of the same length, list children empty,
// fixed_size_list children all-null of length * list_size, dictionaries empty. Passes
// ValidateFull. Null type: no buffers.
Result<Array> MakeNullArray(const TypePtr& type, int64_t length, MemoryPool* pool);

// `value` (a length-1 array of a flat type: null, boolean, integers, floats, decimals,
// temporal, fixed_size_binary, binary/string and their large and view variants) repeated
// `length` times. A null value gives MakeNullArray. View data buffers are shared.
Result<Array> MakeRepeatedArray(const Array& value, int64_t length, MemoryPool* pool);

}  // namespace strata
