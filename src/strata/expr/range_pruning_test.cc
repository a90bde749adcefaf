#include "strata/expr/range_pruning.h"

#include <cmath>

#include <gtest/gtest.h>

namespace strata::expr {
namespace {

Leaf Cmp(CompareOp op, Value v) {
  Leaf leaf;
  leaf.kind = Leaf::Kind::kCompare;
  leaf.op = op;
  leaf.path = {0};
  leaf.column = "x";
  leaf.values = {std::move(v)};
  return leaf;
}

Leaf List(Leaf::Kind kind, std::vector<Value> values) {
  Leaf leaf;
  leaf.kind = kind;
  leaf.path = {0};
  leaf.column = "x";
  leaf.values = std::move(values);
  return leaf;
}

Leaf NullCheck(bool is_null) {
  Leaf leaf;
  leaf.kind = is_null ? Leaf::Kind::kIsNull : Leaf::Kind::kIsNotNull;
  leaf.path = {0};
  leaf.column = "x";
  return leaf;
}

ValueRange IntRange(int64_t lo, int64_t hi) {
  ValueRange r;
  r.min = Value::Int(lo);
  r.max = Value::Int(hi);
  r.row_count = 100;
  r.null_count = 0;
  return r;
}

TEST(LeafMayMatchTest, IntegerComparisons) {
  const ValueRange r = IntRange(10, 20);
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Int(10)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Int(20)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Int(9)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Int(21)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Int(10)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Int(11)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kLe, Value::Int(10)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLe, Value::Int(9)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Int(20)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Int(19)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGe, Value::Int(20)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kGe, Value::Int(21)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Int(10)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Int(7)), IntRange(7, 7)));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Int(8)), IntRange(7, 7)));
}

TEST(LeafMayMatchTest, UnknownBoundsAreConservative) {
  ValueRange r;
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Int(1)), r));
  EXPECT_TRUE(LeafMayMatch(NullCheck(true), r));
  EXPECT_TRUE(LeafMayMatch(NullCheck(false), r));
  r.max = Value::Int(5);
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Int(-100)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Int(5)), r));
  // A bound of another kind says nothing.
  r.max = Value::Bytes("zz");
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Int(5)), r));
}

TEST(LeafMayMatchTest, NullCounts) {
  ValueRange all_null;
  all_null.row_count = 10;
  all_null.null_count = 10;
  EXPECT_TRUE(LeafMayMatch(NullCheck(true), all_null));
  EXPECT_FALSE(LeafMayMatch(NullCheck(false), all_null));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Int(1)), all_null));
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Int(1)}), all_null));
  ValueRange none_null = IntRange(1, 2);
  EXPECT_FALSE(LeafMayMatch(NullCheck(true), none_null));
  EXPECT_TRUE(LeafMayMatch(NullCheck(false), none_null));
  ValueRange only_nulls_known;
  only_nulls_known.null_count = 3;
  EXPECT_TRUE(LeafMayMatch(NullCheck(false), only_nulls_known));
  ValueRange empty;
  empty.row_count = 0;
  EXPECT_FALSE(LeafMayMatch(NullCheck(true), empty));
  EXPECT_FALSE(LeafMayMatch(NullCheck(false), empty));
}

TEST(LeafMayMatchTest, InAndNotIn) {
  const ValueRange r = IntRange(10, 20);
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kIn, {Value::Int(1), Value::Int(25)}), r));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kIn, {Value::Int(1), Value::Int(15)}), r));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Int(10), Value::Int(20)}), r));
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Int(7)}), IntRange(7, 7)));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Int(8)}), IntRange(7, 7)));
  // Every integer of [1, 3] is listed.
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Int(1), Value::Int(2), Value::Int(3)}), IntRange(1, 3)));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Int(1), Value::Int(3)}), IntRange(1, 3)));
}

TEST(LeafMayMatchTest, NaNWhenNanCountUnknownOrPositive) {
  ValueRange r;
  r.min = Value::Double(1);
  r.max = Value::Double(2);
  r.row_count = 10;
  r.null_count = 0;
  // nan_count unknown: NaN may be present.
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Double(NAN)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Double(5)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGe, Value::Double(5)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Double(1.5)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Double(0)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Double(5)), r));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kIn, {Value::Double(7), Value::Double(NAN)}), r));
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kIn, {Value::Double(7), Value::Double(8)}), r));
  // No NaN: bounds decide.
  r.nan_count = 0;
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Double(NAN)), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Double(5)), r));
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kIn, {Value::Double(7), Value::Double(NAN)}), r));
  // Every value below NaN.
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Double(NAN)), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Double(NAN)), r));
  // Only NaNs.
  ValueRange only_nan;
  only_nan.row_count = 4;
  only_nan.null_count = 1;
  only_nan.nan_count = 3;
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Double(NAN)), only_nan));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Double(1e300)), only_nan));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Double(1e300)), only_nan));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Double(NAN)), only_nan));
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Double(NAN)}), only_nan));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Double(1)}), only_nan));
  // -0.0 and +0.0 are one value.
  ValueRange zero;
  zero.min = Value::Double(-0.0);
  zero.max = Value::Double(-0.0);
  zero.nan_count = 0;
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Double(0.0)), zero));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Double(0.0)), zero));
}

TEST(LeafMayMatchTest, TruncatedStringBoundsStillBound) {
  ValueRange r;
  r.min = Value::Bytes("abc");  // a prefix of the true minimum
  r.min_exact = false;
  r.max = Value::Bytes("abd");  // the true maximum "abcz..." rounded up
  r.max_exact = false;
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Bytes("abcq")), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Bytes("abe")), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kGt, Value::Bytes("abd")), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kGe, Value::Bytes("abd")), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Bytes("abc")), r));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Bytes("ab")), r));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kLe, Value::Bytes("abc")), r));
  // Unsigned byte order: 0xff sorts after 'z'.
  ValueRange high;
  high.min = Value::Bytes("\xff");
  high.max = Value::Bytes("\xff\xff");
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLt, Value::Bytes("z")), high));
}

TEST(LeafMayMatchTest, BoolAndUnsigned) {
  ValueRange both;
  both.min = Value::Bool(false);
  both.max = Value::Bool(true);
  EXPECT_FALSE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Bool(false), Value::Bool(true)}), both));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::Bool(false)}), both));
  ValueRange only_true;
  only_true.min = Value::Bool(true);
  only_true.max = Value::Bool(true);
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kEq, Value::Bool(false)), only_true));
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kNe, Value::Bool(true)), only_true));
  ValueRange big;
  big.min = Value::UInt(1ull << 63);
  big.max = Value::UInt(UINT64_MAX);
  EXPECT_FALSE(LeafMayMatch(Cmp(CompareOp::kLt, Value::UInt(5)), big));
  EXPECT_TRUE(LeafMayMatch(Cmp(CompareOp::kEq, Value::UInt(UINT64_MAX)), big));
  EXPECT_TRUE(LeafMayMatch(List(Leaf::Kind::kNotIn, {Value::UInt(UINT64_MAX)}), big));
}

TEST(LeafMayMatchTest, WorksThroughMayMatch) {
  const PredicatePtr p = Predicate::And({Predicate::MakeLeaf(Cmp(CompareOp::kGt, Value::Int(15))),
                                         Predicate::MakeLeaf(NullCheck(false))});
  EXPECT_TRUE(MayMatch(*p, [](const Leaf& leaf) { return LeafMayMatch(leaf, IntRange(10, 20)); }));
  EXPECT_FALSE(MayMatch(*p, [](const Leaf& leaf) { return LeafMayMatch(leaf, IntRange(0, 15)); }));
}

}  // namespace
}  // namespace strata::expr
