// Random arrays of any strata type, for property-style tests of the writer (write, read back,
// compare): nulls at a chosen rate at every level, empty and null lists, strings of varied
// lengths (valid UTF-8), decimals within their precision. Deterministic for a seed.
#pragma once

#include <cstdint>

#include "strata/array/array.h"
#include "strata/array/record_batch.h"

namespace strata::parquet::testing {

struct RandomArrayOptions {
  double null_fraction = 0.1;  // per nullable level; 0 writes no validity bitmaps
  int max_list_length = 4;
  int max_string_length = 20;
  // Distinct values drawn from (0: unbounded): small values make dictionary encoding kick in.
  int64_t distinct_values = 0;
};

// `length` elements of `type`. Non-nullable `field`s (struct members, list items) get no nulls.
Result<Array> RandomArray(const TypePtr& type, int64_t length, uint64_t seed, MemoryPool* pool,
                          const RandomArrayOptions& options = {});
// A batch of `schema` (fields marked non-nullable get no nulls).
Result<std::shared_ptr<RecordBatch>> RandomBatch(const std::shared_ptr<Schema>& schema, int64_t rows, uint64_t seed,
                                                 MemoryPool* pool, const RandomArrayOptions& options = {});

}  // namespace strata::parquet::testing
