// Filter: keeps the rows of an array (or of every column of a record batch) whose bit is set
// in a selection bitmap, in order. Used by readers and scans after a predicate has produced
// the selection. Every output buffer is allocated once at its exact final size; value data
// that can be shared (view data buffers, dictionaries) is shared, not copied.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/array/array.h"
#include "strata/array/record_batch.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata {

// Rows of `array` whose bit is set in `selection`: element i of the array <-> bit
// selection_offset + i (LSB-first). The selection must hold array.length() bits from there.
// `selected` is the number of set bits among those (pass -1 to have it counted); a wrong
// count is the caller's bug. The result has offset 0 and an exact null count. When every row
// is selected the input itself is returned (zero-copy).
Result<Array> Filter(const Array& array, const uint8_t* selection, int64_t selection_offset, int64_t selected,
                     MemoryPool* pool);

// The same selection applied to every column (the bitmap covers batch.num_rows() bits).
Result<std::shared_ptr<RecordBatch>> FilterRecordBatch(const RecordBatch& batch, const uint8_t* selection,
                                                       int64_t selection_offset, int64_t selected,
                                                       MemoryPool* pool);

// ArrayData-level entry (the Array overloads wrap it).
Result<ArrayDataPtr> FilterData(const ArrayDataPtr& data, const uint8_t* selection, int64_t selection_offset,
                                int64_t selected, MemoryPool* pool);

}  // namespace strata
