// HeapBytes: the heap memory a decoded parquet.thrift struct holds through its std::vector and
// std::string members, counted as the standard library requests it (vector capacity times
// element size; a string's capacity plus its terminator when it does not fit in place). The
// footer reader charges this to the pool (MemoryCharge) for as long as the metadata lives.
// Not counted: the struct itself (inline in its owner) and the allocator's own per-block
// overhead.
#pragma once

#include <cstdint>

#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {

int64_t HeapBytes(const FileMetaData& metadata);
int64_t HeapBytes(const ColumnMetaData& metadata);
int64_t HeapBytes(const ColumnIndex& index);
int64_t HeapBytes(const OffsetIndex& index);
// A std::string's heap block: 0 while it fits in the string's in-place buffer.
int64_t HeapBytes(const std::string& value);

}  // namespace strata::parquet
