#include "strata/expr/predicate.h"

#include <algorithm>
#include <cmath>
#include <map>

#include <gtest/gtest.h>

namespace strata::expr {
namespace {

Leaf MakeCompare(int field, CompareOp op, Value v, std::string name = "") {
  Leaf leaf;
  leaf.kind = Leaf::Kind::kCompare;
  leaf.op = op;
  leaf.path = {field};
  leaf.column = name.empty() ? "c" + std::to_string(field) : name;
  leaf.type = int64();
  leaf.values = {std::move(v)};
  return leaf;
}

PredicatePtr L(int field, int64_t v) { return Predicate::MakeLeaf(MakeCompare(field, CompareOp::kEq, Value::Int(v))); }

TEST(ValueTest, DoubleOrderPutsNaNLastAndEqualToItself) {
  const Value nan = Value::Double(NAN);
  EXPECT_EQ(nan.Compare(Value::Double(NAN)), 0);
  EXPECT_EQ(nan.Compare(Value::Double(INFINITY)), 1);
  EXPECT_EQ(Value::Double(INFINITY).Compare(nan), -1);
  EXPECT_EQ(Value::Double(-0.0).Compare(Value::Double(0.0)), 0);
  EXPECT_EQ(Value::Double(-1).Compare(Value::Double(2)), -1);
  EXPECT_TRUE(nan == Value::Double(NAN));
}

TEST(ValueTest, BytesCompareUnsignedAndPrefixFirst) {
  EXPECT_EQ(Value::Bytes("\x80").Compare(Value::Bytes("\x7f")), 1);
  EXPECT_EQ(Value::Bytes("ab").Compare(Value::Bytes("abc")), -1);
  EXPECT_EQ(Value::Bytes("").Compare(Value::Bytes("")), 0);
  EXPECT_EQ(Value::Bytes("b").Compare(Value::Bytes("abc")), 1);
}

TEST(ValueTest, OtherKindsAndToString) {
  EXPECT_EQ(Value::Int(-3).Compare(Value::Int(2)), -1);
  EXPECT_EQ(Value::UInt(UINT64_MAX).Compare(Value::UInt(1)), 1);
  EXPECT_EQ(Value::Bool(false).Compare(Value::Bool(true)), -1);
  const __int128 big = static_cast<__int128>(1) << 100;
  EXPECT_EQ(Value::Decimal(-big).Compare(Value::Decimal(big)), -1);
  EXPECT_EQ(Value::Decimal(-12345).ToString(), "-12345");
  EXPECT_EQ(Value::Bytes("R\"x").ToString(), "\"R\\\"x\"");
  EXPECT_EQ(Value::Double(NAN).ToString(), "nan");
  EXPECT_EQ(Value::Double(2.5).ToString(), "2.5");
  EXPECT_EQ(Value::Bool(true).ToString(), "true");
  EXPECT_FALSE(Value::Int(1) == Value::UInt(1));
}

TEST(PredicateTest, AndOrFoldConstantsAndFlatten) {
  const PredicatePtr a = L(0, 1);
  const PredicatePtr b = L(1, 2);
  const PredicatePtr c = L(2, 3);
  EXPECT_EQ(Predicate::And({a, Predicate::Constant(true)}), a);
  EXPECT_EQ(Predicate::And({a, Predicate::Constant(false), b})->kind(), Predicate::Kind::kFalse);
  EXPECT_EQ(Predicate::Or({a, Predicate::Constant(true)})->kind(), Predicate::Kind::kTrue);
  EXPECT_EQ(Predicate::Or({Predicate::Constant(false), b}), b);
  EXPECT_EQ(Predicate::And({})->kind(), Predicate::Kind::kTrue);
  EXPECT_EQ(Predicate::Or({})->kind(), Predicate::Kind::kFalse);
  const PredicatePtr nested = Predicate::And({a, Predicate::And({b, c})});
  ASSERT_EQ(nested->kind(), Predicate::Kind::kAnd);
  EXPECT_EQ(nested->children().size(), 3u);
  const PredicatePtr mixed = Predicate::And({a, Predicate::Or({b, c})});
  EXPECT_EQ(mixed->children().size(), 2u);
  EXPECT_EQ(mixed->ToString(), "((c0 = 1) AND ((c1 = 2) OR (c2 = 3)))");
}

TEST(PredicateTest, ToStringAndReferencedFields) {
  Leaf in;
  in.kind = Leaf::Kind::kIn;
  in.path = {4, 1};
  in.column = "s.x";
  in.type = utf8();
  in.values = {Value::Bytes("A"), Value::Bytes("R")};
  Leaf null_leaf;
  null_leaf.kind = Leaf::Kind::kIsNull;
  null_leaf.path = {2};
  null_leaf.column = "n";
  Leaf dec = MakeCompare(3, CompareOp::kGe, Value::Decimal(-1250), "d");
  dec.type = decimal128(10, 3);
  const PredicatePtr p = Predicate::Or(
      {Predicate::MakeLeaf(in), Predicate::MakeLeaf(null_leaf), Predicate::MakeLeaf(dec), L(2, 7)});
  EXPECT_EQ(p->ToString(), "((s.x IN (\"A\", \"R\")) OR (n IS NULL) OR (d >= -1.250) OR (c2 = 7))");
  EXPECT_EQ(p->ReferencedFields(), (std::vector<int>{2, 3, 4}));
  int leaves = 0;
  p->ForEachLeaf([&](const Leaf&) { ++leaves; });
  EXPECT_EQ(leaves, 4);
  Leaf not_null = null_leaf;
  not_null.kind = Leaf::Kind::kIsNotNull;
  EXPECT_EQ(not_null.ToString(), "(n IS NOT NULL)");
  Leaf not_in = in;
  not_in.kind = Leaf::Kind::kNotIn;
  EXPECT_EQ(not_in.ToString(), "(s.x NOT IN (\"A\", \"R\"))");
  Leaf small = MakeCompare(0, CompareOp::kLt, Value::Decimal(5), "d");
  small.type = decimal128(5, 3);
  EXPECT_EQ(small.ToString(), "(d < 0.005)");
}

TEST(PredicateTest, MayMatchCombinesLeafAnswers) {
  const PredicatePtr p = Predicate::And({L(0, 1), Predicate::Or({L(1, 2), L(2, 3)})});
  auto only = [](std::vector<int> fields) {
    return [fields](const Leaf& leaf) {
      return std::find(fields.begin(), fields.end(), leaf.path[0]) != fields.end();
    };
  };
  EXPECT_TRUE(MayMatch(*p, only({0, 1})));
  EXPECT_TRUE(MayMatch(*p, only({0, 2})));
  EXPECT_FALSE(MayMatch(*p, only({0})));
  EXPECT_FALSE(MayMatch(*p, only({1, 2})));
  EXPECT_FALSE(MayMatch(*Predicate::Constant(false), only({0})));
  EXPECT_TRUE(MayMatch(*Predicate::Constant(true), only({})));
}

TEST(PredicateTest, ReplaceLeavesFolds) {
  const PredicatePtr p = Predicate::And({L(0, 1), Predicate::Or({L(1, 2), L(2, 3)})});
  auto known = [](std::map<int, bool> values) {
    return [values](const Leaf& leaf) -> std::optional<bool> {
      auto it = values.find(leaf.path[0]);
      if (it == values.end()) return std::nullopt;
      return it->second;
    };
  };
  EXPECT_EQ(ReplaceLeaves(p, known({{0, false}}))->kind(), Predicate::Kind::kFalse);
  const PredicatePtr r = ReplaceLeaves(p, known({{0, true}, {1, false}}));
  ASSERT_EQ(r->kind(), Predicate::Kind::kLeaf);
  EXPECT_EQ(r->leaf().path[0], 2);
  EXPECT_EQ(ReplaceLeaves(p, known({{0, true}, {2, true}}))->kind(), Predicate::Kind::kTrue);
  EXPECT_EQ(ReplaceLeaves(p, known({}))->ToString(), p->ToString());
}

TEST(PredicateTest, RemapFields) {
  Leaf nested = MakeCompare(1, CompareOp::kEq, Value::Int(5));
  nested.path = {1, 3};
  const PredicatePtr p = Predicate::Or({L(0, 1), Predicate::MakeLeaf(nested)});
  const PredicatePtr r = RemapFields(p, {2, 0});
  ASSERT_EQ(r->children().size(), 2u);
  EXPECT_EQ(r->children()[0]->leaf().path, (std::vector<int>{2}));
  EXPECT_EQ(r->children()[1]->leaf().path, (std::vector<int>{0, 3}));
  EXPECT_EQ(r->ReferencedFields(), (std::vector<int>{0, 2}));
}

}  // namespace
}  // namespace strata::expr
