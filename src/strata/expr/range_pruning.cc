// LeafMayMatch: one leaf against a unit's min/max and counts. Every doubt answers true: a
// false here skips data, so it must be certain.
#include "strata/expr/range_pruning.h"

#include <cmath>

namespace strata::expr {

namespace {

bool IsNaN(const Value& v) { return v.kind == Value::Kind::kDouble && std::isnan(v.d); }

bool HoldsFor(CompareOp op, int order) {  // order = Compare(value, constant)
  switch (op) {
    case CompareOp::kEq: return order == 0;
    case CompareOp::kNe: return order != 0;
    case CompareOp::kLt: return order < 0;
    case CompareOp::kLe: return order <= 0;
    case CompareOp::kGt: return order > 0;
    case CompareOp::kGe: return order >= 0;
  }
  return true;
}

// What the unit says about its non-null values, after checking that bounds and constants
// are of one kind (anything else is unknown).
struct Bounds {
  const Value* min = nullptr;  // lower bound of the non-NaN values, or unknown
  const Value* max = nullptr;  // upper bound, or unknown
  bool non_nan_possible = true;
  bool nan_possible = false;
};

Bounds ReadBounds(const Leaf& leaf, const ValueRange& range, Value::Kind kind) {
  Bounds out;
  // A NaN bound says nothing useful about the other values; writers should not store one.
  if (range.min && range.min->kind == kind && !IsNaN(*range.min)) out.min = &*range.min;
  if (range.max && range.max->kind == kind) out.max = &*range.max;
  if (kind == Value::Kind::kDouble) {
    out.nan_possible = !range.nan_count.has_value() || *range.nan_count > 0;
    if (range.nan_count && range.row_count && range.null_count &&
        *range.nan_count >= *range.row_count - *range.null_count) {
      out.non_nan_possible = false;  // every non-null value is NaN
    }
  }
  (void)leaf;
  return out;
}

// May some non-NaN value v in [min, max] satisfy v <op> c?
bool RangeAllows(const Bounds& bounds, CompareOp op, const Value& c) {
  if (!bounds.non_nan_possible) return false;
  const Value* lo = bounds.min;
  const Value* hi = bounds.max;
  switch (op) {
    case CompareOp::kEq:
      return (lo == nullptr || lo->Compare(c) <= 0) && (hi == nullptr || hi->Compare(c) >= 0);
    case CompareOp::kNe:
      // Only a unit whose every value equals c is ruled out: min == max == c.
      return lo == nullptr || hi == nullptr || lo->Compare(c) != 0 || hi->Compare(c) != 0;
    case CompareOp::kLt: return lo == nullptr || lo->Compare(c) < 0;
    case CompareOp::kLe: return lo == nullptr || lo->Compare(c) <= 0;
    case CompareOp::kGt: return hi == nullptr || hi->Compare(c) > 0;
    case CompareOp::kGe: return hi == nullptr || hi->Compare(c) >= 0;
  }
  return true;
}

bool CompareMayMatch(const Bounds& bounds, CompareOp op, const Value& c) {
  if (RangeAllows(bounds, op, c)) return true;
  // NaN is greater than every value and equal to itself (Value::Compare's order).
  return bounds.nan_possible && HoldsFor(op, Value::Double(NAN).Compare(c));
}

// Is every integer in [min, max] in the sorted list? Then NOT IN has no candidate.
bool ListCoversIntegerRange(const Bounds& bounds, const std::vector<Value>& list) {
  if (bounds.min == nullptr || bounds.max == nullptr) return false;
  const Value& lo = *bounds.min;
  const Value& hi = *bounds.max;
  unsigned __int128 span = 0;
  if (lo.kind == Value::Kind::kInt) {
    if (hi.i < lo.i) return false;
    span = static_cast<unsigned __int128>(static_cast<__int128>(hi.i) - lo.i) + 1;
  } else if (lo.kind == Value::Kind::kUInt) {
    if (hi.u < lo.u) return false;
    span = static_cast<unsigned __int128>(hi.u - lo.u) + 1;
  } else if (lo.kind == Value::Kind::kBool) {
    if (hi.b < lo.b) return false;
    span = static_cast<unsigned __int128>(hi.b) - lo.b + 1;
  } else {
    return false;
  }
  if (span > list.size()) return false;
  unsigned __int128 covered = 0;
  for (const Value& v : list) {
    if (v.Compare(lo) >= 0 && v.Compare(hi) <= 0) ++covered;
  }
  return covered == span;  // the list is unique, so span distinct members cover the range
}

bool NotInMayMatch(const Bounds& bounds, const std::vector<Value>& list) {
  bool list_has_nan = false;
  for (const Value& v : list) list_has_nan = list_has_nan || IsNaN(v);
  if (bounds.nan_possible && !list_has_nan) return true;
  if (!bounds.non_nan_possible) return false;
  if (bounds.min != nullptr && bounds.max != nullptr && bounds.min->Compare(*bounds.max) == 0) {
    // Every value equals the bound: excluded exactly when the bound is listed.
    for (const Value& v : list) {
      if (v.Compare(*bounds.min) == 0) return false;
    }
    return true;
  }
  return !ListCoversIntegerRange(bounds, list);
}

}  // namespace

bool LeafMayMatch(const Leaf& leaf, const ValueRange& range) {
  if (range.row_count && *range.row_count <= 0) return false;  // no rows, nothing matches
  const bool counts_known = range.row_count.has_value() && range.null_count.has_value();
  const bool all_null = counts_known && *range.null_count >= *range.row_count;
  switch (leaf.kind) {
    case Leaf::Kind::kIsNull: return !range.null_count.has_value() || *range.null_count > 0;
    case Leaf::Kind::kIsNotNull: return !all_null;
    default: break;
  }
  if (all_null) return false;
  if (leaf.values.empty()) return true;  // malformed leaf: no basis to prune
  const Value::Kind kind = leaf.values[0].kind;
  const Bounds bounds = ReadBounds(leaf, range, kind);
  switch (leaf.kind) {
    case Leaf::Kind::kCompare: return CompareMayMatch(bounds, leaf.op, leaf.values[0]);
    case Leaf::Kind::kIn:
      for (const Value& v : leaf.values) {
        if (CompareMayMatch(bounds, CompareOp::kEq, v)) return true;
      }
      return false;
    case Leaf::Kind::kNotIn: return NotInMayMatch(bounds, leaf.values);
    default: return true;
  }
}

}  // namespace strata::expr
