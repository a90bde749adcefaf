// Reading literals exactly in a column's integer-valued domain (integers, decimals at their
// scale, temporal values in their unit), and folding a comparison whose literal falls
// between or outside the domain's values. Used by Bind; exposed for tests.
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/expr/predicate.h"
#include "strata/util/result.h"

namespace strata::expr {

// Magnitudes beyond every domain Bind handles (int64, uint64, decimal128 unscaled values all
// lie far inside): larger literals saturate to +-kSaturated.
inline constexpr __int128 kSaturated = static_cast<__int128>(1) << 120;

// A literal r read as floor(r) in some unit, and whether r was exactly that integer.
struct ScaledNumber {
  __int128 floor = 0;
  bool exact = true;
};

// [+-]digits[.digits][(e|E)[+-]digits] (".5" allowed) times 10^scale, exactly. Invalid for
// anything else (inf / nan included).
Result<ScaledNumber> ParseScaledNumber(std::string_view text, int32_t scale);

// x <op> r over the integers in [lo, hi], with r given as a ScaledNumber: either a leaf on an
// integer constant, or a constant answer for every non-null x (false / IS NOT NULL).
struct FoldedComparison {
  enum class Kind : uint8_t { kFalse, kNotNull, kCompare };
  Kind kind = Kind::kCompare;
  CompareOp op = CompareOp::kEq;
  __int128 value = 0;  // kCompare: within [lo, hi]
};
FoldedComparison FoldIntegerComparison(CompareOp op, const ScaledNumber& r, __int128 lo, __int128 hi);

}  // namespace strata::expr
