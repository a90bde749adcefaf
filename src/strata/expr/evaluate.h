// Row-level evaluation: a bound predicate over a batch's columns, giving the rows it keeps.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "strata/array/array.h"
#include "strata/expr/predicate.h"
#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::expr {

// Which rows of a batch a predicate keeps: bit i set = row i kept (true; false and null are
// dropped). `bits` has at least BytesForBits(length) bytes, from the pool given; bits past
// `length` are zero.
struct Selection {
  std::shared_ptr<Buffer> bits;
  int64_t length = 0;
  int64_t selected = 0;  // set bits
};

// Evaluates `predicate` over `length` rows. `columns[i]` is the array of the bound schema's
// top-level field i (its type as bound, or a dictionary of it, or a narrower type of the same
// Value kind: int32 for an int64-bound field, float for double, string for large_string...;
// date, time, timestamp and duration arrays must have the bound type and unit, decimals the
// bound scale, or Evaluate fails with Invalid);
// fields the predicate does not reference may be nullptr. Struct paths read the child arrays,
// a row being null when any struct on the path is null. Dictionary arrays are evaluated once
// per dictionary value, then gathered through the indices. Allocations come from `pool`.
Result<Selection> Evaluate(const Predicate& predicate, const std::vector<const Array*>& columns, int64_t length,
                           MemoryPool* pool);

// Does some element of `values` (an array of the leaf column's type: a Parquet dictionary
// page's values, say) satisfy `leaf`? Nulls in `values` count for IS NULL only.
Result<bool> AnyValueMatches(const Leaf& leaf, const Array& values, MemoryPool* pool);

}  // namespace strata::expr
