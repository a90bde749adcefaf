// Binding: an Expression against a schema, giving the Predicate every consumer reads.
#pragma once

#include "strata/expr/expression.h"
#include "strata/expr/predicate.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::expr {

// Resolves every column (top-level names, then struct members along dotted paths) and reads
// every literal as the column's type:
//   integers and unsigned integers: integer literals (a decimal or float literal rounds the
//     comparison: x < 3.5 -> x <= 3, x = 3.5 -> false; out-of-range literals fold: int8 < 1000
//     -> IS NOT NULL);
//   floats: any number; decimals: integer/decimal literals at the column's scale (finer
//     digits round the comparison as for integers), floats refused;
//   date32/date64: 'YYYY-MM-DD'; timestamp: 'YYYY-MM-DD[ T]HH:MM[:SS[.fraction]][Z|+HH:MM]'
//     (no offset: UTC; fractions finer than the unit round the comparison), a date string
//     meaning midnight; time32/time64: 'HH:MM[:SS[.fraction]]'; duration and every temporal
//     type also take an integer in the column's unit;
//   strings / binary / fixed_size_binary: string literals (bytes as given; a fixed_size_binary
//     literal of another length never equals);
//   boolean: true / false;
//   null literal: comparisons with null are never true (fold to false).
// Fails (Invalid) naming the column and the literal: an unknown column ("no column
// \"l_shipdat\" in the schema; columns: ..."), a path through a non-struct, a list/map/struct
// column compared with a value, or a literal the type cannot take.
Result<PredicatePtr> Bind(const Expression& expression, const Schema& schema);

}  // namespace strata::expr
