// What a unit's statistics (a row group's or a page's min/max and counts, a partition's
// value) say about one column, and whether a leaf may then match any of the unit's rows.
// The Parquet reader fills ValueRange from its statistics and page index, datasets from a
// partition value; both ask LeafMayMatch and combine the answers with MayMatch.
#pragma once

#include <cstdint>
#include <optional>

#include "strata/expr/predicate.h"

namespace strata::expr {

struct ValueRange {
  // Every non-null value (NaNs excepted, see nan_count) lies in [min, max]. Unset: unknown.
  // A bound that is not exact (a truncated string statistic) still bounds the values: min is
  // <= every value and max >= every value; `min_exact` / `max_exact` say whether some value
  // equals it (only then can an equality on the bound itself be ruled in or out exactly; the
  // pruning here only needs the bound property).
  std::optional<Value> min;
  std::optional<Value> max;
  bool min_exact = true;
  bool max_exact = true;
  // Rows of the unit, and how many of them are null; unset: unknown.
  std::optional<int64_t> row_count;
  std::optional<int64_t> null_count;
  // kDouble columns: NaN values, which min/max leave out. Unset: unknown, so NaNs may be
  // present (and NaN is greater than every value, equal to itself).
  std::optional<int64_t> nan_count;
};

// False only when no row of a unit whose `leaf.path` column has `range` can satisfy `leaf`.
// IS NULL needs null_count > 0 (or unknown); IS NOT NULL needs a non-null row; comparisons
// need a non-null value the bounds allow (NaN considered when nan_count is not known to be 0);
// IN / NOT IN likewise for some listed value, or some value outside the list.
bool LeafMayMatch(const Leaf& leaf, const ValueRange& range);

}  // namespace strata::expr
