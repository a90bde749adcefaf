// Evaluate and AnyValueMatches against a per-row reference (typed Array views, Value order)
// on generated arrays of every supported type, sliced, with nulls.
#include "strata/expr/evaluate.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <random>

#include <gtest/gtest.h>

#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"
#include "strata/expr/bind.h"
#include "strata/expr/parser.h"

namespace strata::expr {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

constexpr int64_t kRows = 203;

// Half-precision patterns and their values, decoded independently of the kernel.
const std::vector<std::pair<uint16_t, double>>& HalfTable() {
  static const std::vector<std::pair<uint16_t, double>> table = {
      {0x0000, 0.0},      {0x8000, -0.0},     {0x3c00, 1.0},     {0xc000, -2.0},       {0x3800, 0.5},
      {0x7c00, INFINITY}, {0xfc00, -INFINITY}, {0x7e00, NAN},    {0x0001, std::ldexp(1.0, -24)},
      {0x7bff, 65504.0},  {0x3e00, 1.5}};
  return table;
}

double HalfValue(uint16_t bits) {
  for (const auto& [pattern, value] : HalfTable()) {
    if (pattern == bits) return value;
  }
  ADD_FAILURE() << "unexpected half pattern " << bits;
  return 0;
}

// The element as a Value of `kind`, or nullopt when null.
std::optional<Value> Element(const Array& a, int64_t i, Value::Kind kind) {
  if (a.IsNull(i)) return std::nullopt;
  auto integer = [&](auto v) { return kind == Value::Kind::kUInt ? Value::UInt(v) : Value::Int(v); };
  switch (a.type_id()) {
    case TypeId::kBoolean: return Value::Bool(BooleanArray(a).Value(i));
    case TypeId::kInt8: return integer(Int8Array(a).Value(i));
    case TypeId::kInt16: return integer(Int16Array(a).Value(i));
    case TypeId::kInt32:
    case TypeId::kDate32:
    case TypeId::kTime32: return integer(Int32Array(a).Value(i));
    case TypeId::kInt64:
    case TypeId::kDate64:
    case TypeId::kTime64:
    case TypeId::kTimestamp:
    case TypeId::kDuration: return integer(Int64Array(a).Value(i));
    case TypeId::kUInt8: return integer(UInt8Array(a).Value(i));
    case TypeId::kUInt16: return integer(UInt16Array(a).Value(i));
    case TypeId::kUInt32: return integer(UInt32Array(a).Value(i));
    case TypeId::kUInt64: return integer(UInt64Array(a).Value(i));
    case TypeId::kFloat16: return Value::Double(HalfValue(HalfFloatArray(a).Value(i)));
    case TypeId::kFloat32: return Value::Double(FloatArray(a).Value(i));
    case TypeId::kFloat64: return Value::Double(DoubleArray(a).Value(i));
    case TypeId::kDecimal128: {
      __int128 v;
      std::memcpy(&v, FixedSizeBinaryArray(a).GetValue(i), 16);
      return Value::Decimal(v);
    }
    case TypeId::kString:
    case TypeId::kBinary: return Value::Bytes(StringArray(a).GetString(i));
    case TypeId::kLargeString:
    case TypeId::kLargeBinary: return Value::Bytes(LargeStringArray(a).GetString(i));
    case TypeId::kStringView:
    case TypeId::kBinaryView: return Value::Bytes(BinaryViewArray(a).GetString(i));
    case TypeId::kFixedSizeBinary: return Value::Bytes(std::string(FixedSizeBinaryArray(a).GetView(i)));
    case TypeId::kDictionary: {
      const DictionaryArray d(a);
      return Element(d.dictionary(), d.GetValueIndex(i), kind);
    }
    default: ADD_FAILURE() << "no reference for " << a.type()->ToString(); return std::nullopt;
  }
}

bool Holds(CompareOp op, int order) {
  switch (op) {
    case CompareOp::kEq: return order == 0;
    case CompareOp::kNe: return order != 0;
    case CompareOp::kLt: return order < 0;
    case CompareOp::kLe: return order <= 0;
    case CompareOp::kGt: return order > 0;
    case CompareOp::kGe: return order >= 0;
  }
  return false;
}

bool ReferenceLeaf(const Leaf& leaf, const std::optional<Value>& v) {
  if (leaf.kind == Leaf::Kind::kIsNull) return !v.has_value();
  if (!v.has_value()) return false;
  switch (leaf.kind) {
    case Leaf::Kind::kIsNotNull: return true;
    case Leaf::Kind::kCompare: return Holds(leaf.op, v->Compare(leaf.values[0]));
    case Leaf::Kind::kIn:
    case Leaf::Kind::kNotIn: {
      bool found = false;
      for (const Value& c : leaf.values) found = found || v->Compare(c) == 0;
      return found == (leaf.kind == Leaf::Kind::kIn);
    }
    default: return false;
  }
}

std::vector<Leaf> LeavesFor(const TypePtr& type, const std::vector<Value>& candidates, std::vector<int> path = {0}) {
  std::vector<Leaf> leaves;
  Leaf base;
  base.path = std::move(path);
  base.column = "c";
  base.type = type;
  for (const Leaf::Kind kind : {Leaf::Kind::kIsNull, Leaf::Kind::kIsNotNull}) {
    Leaf leaf = base;
    leaf.kind = kind;
    leaves.push_back(leaf);
  }
  for (const Value& c : candidates) {
    for (const CompareOp op : {CompareOp::kEq, CompareOp::kNe, CompareOp::kLt, CompareOp::kLe, CompareOp::kGt,
                               CompareOp::kGe}) {
      Leaf leaf = base;
      leaf.op = op;
      leaf.values = {c};
      leaves.push_back(leaf);
    }
  }
  std::vector<Value> sorted = candidates;
  std::sort(sorted.begin(), sorted.end(), [](const Value& a, const Value& b) { return a.Compare(b) < 0; });
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  // A short list (linear scan) and the whole list (binary search past 8).
  for (const size_t n : {std::min<size_t>(3, sorted.size()), sorted.size()}) {
    for (const Leaf::Kind kind : {Leaf::Kind::kIn, Leaf::Kind::kNotIn}) {
      Leaf leaf = base;
      leaf.kind = kind;
      leaf.values.assign(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(n));
      leaves.push_back(leaf);
    }
  }
  return leaves;
}

// Distinct candidate constants: values from the array plus `extra`.
std::vector<Value> Candidates(const Array& a, Value::Kind kind, std::vector<Value> extra) {
  std::vector<Value> out = std::move(extra);
  for (int64_t i = 0; i < a.length() && out.size() < 12; i += 7) {
    std::optional<Value> v = Element(a, i, kind);
    if (v && std::none_of(out.begin(), out.end(), [&](const Value& o) { return o.Compare(*v) == 0; })) {
      out.push_back(*v);
    }
  }
  return out;
}

// Runs every leaf over several slices of `array` and compares with the reference row by row.
void CheckAgainstReference(const Array& array, const TypePtr& leaf_type, Value::Kind kind,
                           const std::vector<Value>& extra) {
  const std::vector<Leaf> leaves = LeavesFor(leaf_type, Candidates(array, kind, extra));
  const std::pair<int64_t, int64_t> slices[] = {{0, array.length()}, {3, array.length() - 10}, {17, 64}, {9, 0},
                                                 {array.length() - 5, 5}};
  for (const auto& [offset, length] : slices) {
    const Array sliced = array.Slice(offset, length);
    for (const Leaf& leaf : leaves) {
      Result<Selection> selection = Evaluate(*Predicate::MakeLeaf(leaf), {&sliced}, length, Pool());
      ASSERT_TRUE(selection.ok()) << selection.status().ToString() << " " << leaf.ToString();
      const uint8_t* bits = selection->bits->data();
      int64_t expected_selected = 0;
      bool any = false;
      for (int64_t i = 0; i < length; ++i) {
        const bool expected = ReferenceLeaf(leaf, Element(sliced, i, kind));
        expected_selected += expected;
        any = any || expected;
        ASSERT_EQ(bitmap::GetBit(bits, i), expected)
            << array.type()->ToString() << " slice " << offset << "+" << length << " row " << i << " "
            << leaf.ToString();
      }
      EXPECT_EQ(selection->selected, expected_selected) << leaf.ToString();
      EXPECT_EQ(selection->length, length);
      for (int64_t i = length; i < bitmap::BytesForBits(length) * 8; ++i) {
        ASSERT_FALSE(bitmap::GetBit(bits, i)) << "tail bit " << i;
      }
      Result<bool> any_match = AnyValueMatches(leaf, sliced, Pool());
      ASSERT_TRUE(any_match.ok()) << any_match.status().ToString();
      EXPECT_EQ(*any_match, any) << leaf.ToString();
    }
  }
}

std::mt19937_64& Rng() {
  static std::mt19937_64 rng(20240521);
  return rng;
}
bool IsNullRow() { return Rng()() % 5 == 0; }

template <typename T>
Array BuildPrimitive(const TypePtr& type, const std::vector<T>& pool_of_values) {
  PrimitiveBuilder<T> builder(type, Pool());
  for (int64_t i = 0; i < kRows; ++i) {
    const T value = pool_of_values[Rng()() % pool_of_values.size()];
    const Status st = IsNullRow() ? builder.AppendNull() : builder.Append(value);
    EXPECT_TRUE(st.ok());
  }
  return Array(*builder.Finish());
}

std::string RandomBytes(bool allow_long) {
  const size_t length = allow_long && Rng()() % 2 ? 13 + Rng()() % 8 : Rng()() % 6;
  std::string s;
  for (size_t i = 0; i < length; ++i) s.push_back("ab\xff"[Rng()() % 3]);
  return s;
}

template <typename Builder>
Array BuildBinary(Builder& builder, bool allow_long) {
  for (int64_t i = 0; i < kRows; ++i) {
    const Status st = IsNullRow() ? builder.AppendNull() : builder.Append(RandomBytes(allow_long));
    EXPECT_TRUE(st.ok());
  }
  return Array(*builder.Finish());
}

TEST(EvaluateTest, IntegersAgainstReference) {
  CheckAgainstReference(BuildPrimitive<int8_t>(int8(), {-128, -1, 0, 1, 5, 127}), int8(), Value::Kind::kInt,
                        {Value::Int(-1000), Value::Int(3)});
  CheckAgainstReference(BuildPrimitive<int16_t>(int16(), {-300, 0, 7, 32767}), int16(), Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<int32_t>(int32(), {-5, 0, 1, 2, 3, 100, INT32_MIN}), int32(),
                        Value::Kind::kInt, {Value::Int(INT64_MAX)});
  CheckAgainstReference(BuildPrimitive<int64_t>(int64(), {INT64_MIN, -2, 0, 9, INT64_MAX}), int64(),
                        Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<uint8_t>(uint8(), {0, 1, 128, 255}), uint8(), Value::Kind::kUInt,
                        {Value::UInt(300)});
  CheckAgainstReference(BuildPrimitive<uint16_t>(uint16(), {0, 1000, 65535}), uint16(), Value::Kind::kUInt, {});
  CheckAgainstReference(BuildPrimitive<uint32_t>(uint32(), {0, 7, 4000000000u}), uint32(), Value::Kind::kUInt, {});
  CheckAgainstReference(BuildPrimitive<uint64_t>(uint64(), {0, 1, UINT64_MAX, 1ull << 63}), uint64(),
                        Value::Kind::kUInt, {});
}

TEST(EvaluateTest, NarrowerArraysForWiderLeaves) {
  // int32 data for an int64-bound leaf (datasets widen), uint16 data for an int leaf.
  CheckAgainstReference(BuildPrimitive<int32_t>(int32(), {-5, 0, 1, 2}), int64(), Value::Kind::kInt,
                        {Value::Int(int64_t{1} << 40)});
  CheckAgainstReference(BuildPrimitive<uint16_t>(uint16(), {0, 9, 65535}), int64(), Value::Kind::kInt,
                        {Value::Int(-1)});
  CheckAgainstReference(BuildPrimitive<uint8_t>(uint8(), {0, 9, 255}), uint64(), Value::Kind::kUInt, {});
  CheckAgainstReference(BuildPrimitive<float>(float32(), {0.5f, -1.0f, NAN}), float64(), Value::Kind::kDouble,
                        {Value::Double(0.1)});
}

TEST(EvaluateTest, TemporalAgainstReference) {
  CheckAgainstReference(BuildPrimitive<int32_t>(date32(), {0, 10471, -3, 19782}), date32(), Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<int64_t>(date64(), {0, 86400000, -86400000}), date64(), Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<int32_t>(time32(TimeUnit::kMilli), {0, 3723004, 86399999}),
                        time32(TimeUnit::kMilli), Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<int64_t>(time64(TimeUnit::kNano), {0, 1, 86399999999999}),
                        time64(TimeUnit::kNano), Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<int64_t>(timestamp(TimeUnit::kMicro, "UTC"), {-1, 0, 946684800000000}),
                        timestamp(TimeUnit::kMicro, "UTC"), Value::Kind::kInt, {});
  CheckAgainstReference(BuildPrimitive<int64_t>(duration(TimeUnit::kSecond), {-7, 0, 7}), duration(TimeUnit::kSecond),
                        Value::Kind::kInt, {});
}

TEST(EvaluateTest, FloatsAgainstReference) {
  std::vector<uint16_t> halves;
  for (const auto& [pattern, value] : HalfTable()) halves.push_back(pattern);
  CheckAgainstReference(BuildPrimitive<uint16_t>(float16(), halves), float16(), Value::Kind::kDouble,
                        {Value::Double(NAN), Value::Double(0.0), Value::Double(0.75)});
  CheckAgainstReference(BuildPrimitive<float>(float32(), {-0.0f, 0.0f, 1.5f, NAN, INFINITY, -INFINITY, -3.25f}),
                        float32(), Value::Kind::kDouble, {Value::Double(NAN), Value::Double(-0.0)});
  CheckAgainstReference(BuildPrimitive<double>(float64(), {-0.0, 0.0, 1e300, NAN, -INFINITY, 2.5, -7.0, 1.0, 3.0,
                                                           4.0, 5.0, 6.0, 8.0}),
                        float64(), Value::Kind::kDouble, {Value::Double(NAN), Value::Double(0.0)});
}

TEST(EvaluateTest, BoolAndDecimalAgainstReference) {
  BooleanBuilder bools(Pool());
  for (int64_t i = 0; i < kRows; ++i) {
    ASSERT_TRUE((IsNullRow() ? bools.AppendNull() : bools.Append(Rng()() % 2 == 0)).ok());
  }
  CheckAgainstReference(Array(*bools.Finish()), boolean(), Value::Kind::kBool, {Value::Bool(true), Value::Bool(false)});

  const TypePtr type = decimal128(30, 3);
  FixedSizeBinaryBuilder decimals(type, Pool());
  const __int128 big = static_cast<__int128>(1) << 90;
  const __int128 choices[] = {0, 1, -1, 12500, -12500, big, -big};
  for (int64_t i = 0; i < kRows; ++i) {
    __int128 v = choices[Rng()() % 7];
    uint8_t bytes[16];
    std::memcpy(bytes, &v, 16);
    ASSERT_TRUE((IsNullRow() ? decimals.AppendNull() : decimals.Append(bytes)).ok());
  }
  CheckAgainstReference(Array(*decimals.Finish()), type, Value::Kind::kDecimal, {Value::Decimal(5)});
}

TEST(EvaluateTest, BinaryFamiliesAgainstReference) {
  StringBuilder strings(utf8(), Pool());
  CheckAgainstReference(BuildBinary(strings, true), utf8(), Value::Kind::kBytes, {Value::Bytes(""), Value::Bytes("b")});
  StringBuilder binaries(binary(), Pool());
  CheckAgainstReference(BuildBinary(binaries, false), binary(), Value::Kind::kBytes, {Value::Bytes("\xff")});
  LargeStringBuilder large(large_utf8(), Pool());
  CheckAgainstReference(BuildBinary(large, true), large_utf8(), Value::Kind::kBytes, {});
  // Views: inline (<= 12 bytes) and out-of-line values.
  BinaryViewBuilder views(utf8_view(), Pool());
  CheckAgainstReference(BuildBinary(views, true), utf8_view(), Value::Kind::kBytes,
                        {Value::Bytes("aaaaaaaaaaaaa"), Value::Bytes("ab")});
  BinaryViewBuilder binary_views(binary_view(), Pool());
  CheckAgainstReference(BuildBinary(binary_views, true), binary_view(), Value::Kind::kBytes, {});
  // string data for a large_string-bound leaf.
  StringBuilder narrow(utf8(), Pool());
  CheckAgainstReference(BuildBinary(narrow, false), large_utf8(), Value::Kind::kBytes, {});
  FixedSizeBinaryBuilder fixed(fixed_size_binary(3), Pool());
  const char* const choices[] = {"abc", "ab\xff", "\0\0\0", "zzz"};
  for (int64_t i = 0; i < kRows; ++i) {
    ASSERT_TRUE((IsNullRow() ? fixed.AppendNull() : fixed.Append(std::string_view(choices[Rng()() % 4], 3))).ok());
  }
  CheckAgainstReference(Array(*fixed.Finish()), fixed_size_binary(3), Value::Kind::kBytes, {Value::Bytes("ab")});
}

TEST(EvaluateTest, DictionariesAgainstReference) {
  // String dictionary with a null entry, int8 indices with nulls.
  StringBuilder dict_values(utf8(), Pool());
  for (const char* s : {"x", "yy", "", "zzz"}) ASSERT_TRUE(dict_values.Append(s).ok());
  ASSERT_TRUE(dict_values.AppendNull().ok());
  const ArrayDataPtr dictionary = *dict_values.Finish();
  const Array indices = BuildPrimitive<int8_t>(int8(), {0, 1, 2, 3, 4});
  Result<ArrayDataPtr> dict = MakeDictionaryArray(strata::dictionary(int8(), utf8()), indices.data(), dictionary);
  ASSERT_TRUE(dict.ok()) << dict.status().ToString();
  CheckAgainstReference(Array(*dict), utf8(), Value::Kind::kBytes, {Value::Bytes("x")});

  // int64 dictionary with uint32 indices.
  Int64Builder ints(int64(), Pool());
  for (int64_t v : {5, -5, 0, 70}) ASSERT_TRUE(ints.Append(v).ok());
  const Array indices32 = BuildPrimitive<uint32_t>(uint32(), {0, 1, 2, 3});
  Result<ArrayDataPtr> dict2 =
      MakeDictionaryArray(strata::dictionary(uint32(), int64()), indices32.data(), *ints.Finish());
  ASSERT_TRUE(dict2.ok()) << dict2.status().ToString();
  CheckAgainstReference(Array(*dict2), int64(), Value::Kind::kInt, {Value::Int(1)});
}

// struct<outer: struct<x: int32, s: string>> with nulls at both struct levels and in x; the
// x child array carries its own offset.
TEST(EvaluateTest, StructPathsAgainstReference) {
  const TypePtr inner_type = struct_({field("x", int32()), field("s", utf8())});
  const TypePtr outer_type = struct_({field("pad", int8()), field("inner", inner_type)});
  Result<std::unique_ptr<StructBuilder>> made = StructBuilder::Make(outer_type, Pool());
  ASSERT_TRUE(made.ok());
  StructBuilder& outer = **made;
  auto* pad = static_cast<Int8Builder*>(outer.field_builder(0));
  auto* inner = static_cast<StructBuilder*>(outer.field_builder(1));
  auto* x = static_cast<Int32Builder*>(inner->field_builder(0));
  auto* s = static_cast<StringBuilder*>(inner->field_builder(1));
  for (int64_t i = 0; i < kRows; ++i) {
    const uint64_t r = Rng()() % 10;
    if (r == 0) {
      ASSERT_TRUE(outer.AppendNull().ok());
      continue;
    }
    ASSERT_TRUE(outer.Append().ok());
    ASSERT_TRUE(pad->Append(1).ok());
    if (r == 1) {
      ASSERT_TRUE(inner->AppendNull().ok());
      continue;
    }
    ASSERT_TRUE(inner->Append().ok());
    ASSERT_TRUE((r == 2 ? x->AppendNull() : x->Append(static_cast<int32_t>(Rng()() % 5))).ok());
    ASSERT_TRUE(s->Append(RandomBytes(true)).ok());
  }
  ArrayDataPtr data = *outer.Finish();
  // Rebuild x with 4 leading junk rows and slice them off, so the child has an offset.
  {
    ArrayDataPtr inner_data = std::make_shared<ArrayData>(*data->children[1]);
    const Array old_x(inner_data->children[0]);
    Int32Builder shifted(int32(), Pool());
    for (int k = 0; k < 4; ++k) ASSERT_TRUE(shifted.Append(99).ok());
    for (int64_t i = 0; i < old_x.length(); ++i) {
      ASSERT_TRUE((old_x.IsNull(i) ? shifted.AppendNull() : shifted.Append(Int32Array(old_x).Value(i))).ok());
    }
    inner_data->children[0] = (*shifted.Finish())->Slice(4, old_x.length());
    data = std::make_shared<ArrayData>(*data);
    data->children[1] = inner_data;
  }
  const Array array(data);
  const std::pair<int64_t, int64_t> slices[] = {{0, kRows}, {5, kRows - 11}, {13, 40}};
  for (const auto& [offset, length] : slices) {
    const Array sliced = array.Slice(offset, length);
    const StructArray outer_view(sliced);
    const StructArray inner_view(outer_view.field(1));
    for (int child = 0; child < 2; ++child) {
      const Array leaf_array = inner_view.field(child);
      const TypePtr type = child == 0 ? int32() : utf8();
      const Value::Kind kind = child == 0 ? Value::Kind::kInt : Value::Kind::kBytes;
      const std::vector<Value> extra = child == 0 ? std::vector<Value>{Value::Int(2)} : std::vector<Value>{};
      for (const Leaf& leaf : LeavesFor(type, Candidates(leaf_array, kind, extra), {0, 1, child})) {
        Result<Selection> selection = Evaluate(*Predicate::MakeLeaf(leaf), {&sliced}, length, Pool());
        ASSERT_TRUE(selection.ok()) << selection.status().ToString();
        for (int64_t i = 0; i < length; ++i) {
          std::optional<Value> v;
          if (!sliced.IsNull(i) && !outer_view.field(1).IsNull(i)) v = Element(leaf_array, i, kind);
          ASSERT_EQ(bitmap::GetBit(selection->bits->data(), i), ReferenceLeaf(leaf, v))
              << "row " << i << " slice " << offset << " " << leaf.ToString();
        }
      }
    }
    // IS NULL on the inner struct itself.
    Leaf struct_null;
    struct_null.kind = Leaf::Kind::kIsNull;
    struct_null.path = {0, 1};
    struct_null.column = "o.inner";
    Result<Selection> selection = Evaluate(*Predicate::MakeLeaf(struct_null), {&sliced}, length, Pool());
    ASSERT_TRUE(selection.ok());
    for (int64_t i = 0; i < length; ++i) {
      EXPECT_EQ(bitmap::GetBit(selection->bits->data(), i), sliced.IsNull(i) || outer_view.field(1).IsNull(i));
    }
  }
}

// Random AND / OR trees over several columns against the reference.
TEST(EvaluateTest, TreesAgainstReference) {
  const Array a = BuildPrimitive<int32_t>(int32(), {0, 1, 2, 3, 4});
  StringBuilder sb(utf8(), Pool());
  const Array b = BuildBinary(sb, false);
  const Array c = BuildPrimitive<double>(float64(), {0.5, NAN, -1.0});
  const std::vector<Leaf> la = LeavesFor(int32(), Candidates(a, Value::Kind::kInt, {}), {0});
  const std::vector<Leaf> lb = LeavesFor(utf8(), Candidates(b, Value::Kind::kBytes, {}), {1});
  const std::vector<Leaf> lc = LeavesFor(float64(), Candidates(c, Value::Kind::kDouble, {}), {2});
  const Array* arrays[] = {&a, &b, &c};
  const Value::Kind kinds[] = {Value::Kind::kInt, Value::Kind::kBytes, Value::Kind::kDouble};
  const std::vector<Leaf>* leaf_sets[] = {&la, &lb, &lc};
  std::function<PredicatePtr(int)> random_tree = [&](int depth) -> PredicatePtr {
    if (depth == 0 || Rng()() % 3 == 0) {
      const size_t column = Rng()() % 3;
      const std::vector<Leaf>& set = *leaf_sets[column];
      return Predicate::MakeLeaf(set[Rng()() % set.size()]);
    }
    std::vector<PredicatePtr> children;
    const int n = 2 + static_cast<int>(Rng()() % 3);
    for (int k = 0; k < n; ++k) children.push_back(random_tree(depth - 1));
    if (Rng()() % 10 == 0) children.push_back(Predicate::Constant(Rng()() % 2 == 0));
    return Rng()() % 2 ? Predicate::And(std::move(children)) : Predicate::Or(std::move(children));
  };
  std::function<bool(const Predicate&, int64_t)> reference = [&](const Predicate& p, int64_t row) -> bool {
    switch (p.kind()) {
      case Predicate::Kind::kTrue: return true;
      case Predicate::Kind::kFalse: return false;
      case Predicate::Kind::kLeaf: {
        const int column = p.leaf().path[0];
        return ReferenceLeaf(p.leaf(), Element(*arrays[column], row, kinds[column]));
      }
      case Predicate::Kind::kAnd:
        for (const PredicatePtr& child : p.children()) {
          if (!reference(*child, row)) return false;
        }
        return true;
      case Predicate::Kind::kOr:
        for (const PredicatePtr& child : p.children()) {
          if (reference(*child, row)) return true;
        }
        return false;
    }
    return false;
  };
  for (int trial = 0; trial < 200; ++trial) {
    const PredicatePtr p = random_tree(3);
    Result<Selection> selection = Evaluate(*p, {&a, &b, &c}, kRows, Pool());
    ASSERT_TRUE(selection.ok()) << selection.status().ToString();
    for (int64_t i = 0; i < kRows; ++i) {
      ASSERT_EQ(bitmap::GetBit(selection->bits->data(), i), reference(*p, i)) << p->ToString() << " row " << i;
    }
  }
}

TEST(EvaluateTest, EndToEndFromText) {
  Int32Builder ids(int32(), Pool());
  StringBuilder flags(utf8(), Pool());
  Int32Builder days(date32(), Pool());
  const char* const flag_values[] = {"A", "R", "N", "R", "A", "N"};
  for (int i = 0; i < 6; ++i) {
    ASSERT_TRUE(ids.Append(i).ok());
    ASSERT_TRUE((i == 4 ? flags.AppendNull() : flags.Append(flag_values[i])).ok());
    ASSERT_TRUE(days.Append(10470 + i).ok());
  }
  const Array id_array(*ids.Finish());
  const Array flag_array(*flags.Finish());
  const Array day_array(*days.Finish());
  const Schema schema({field("id", int32()), field("flag", utf8()), field("day", date32())});
  auto selected_rows = [&](std::string_view text) {
    Result<ExpressionPtr> e = ParseFilter(text);
    EXPECT_TRUE(e.ok()) << e.status().ToString();
    Result<PredicatePtr> p = Bind(**e, schema);
    EXPECT_TRUE(p.ok()) << p.status().ToString();
    Result<Selection> s = Evaluate(**p, {&id_array, &flag_array, &day_array}, 6, Pool());
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    std::string rows;
    for (int64_t i = 0; i < 6; ++i) {
      if (bitmap::GetBit(s->bits->data(), i)) rows += std::to_string(i);
    }
    return rows;
  };
  EXPECT_EQ(selected_rows("flag = 'R'"), "13");
  EXPECT_EQ(selected_rows("NOT flag = 'R'"), "025");  // the null row is dropped either way
  EXPECT_EQ(selected_rows("flag IS NULL OR id > 4.5"), "45");
  EXPECT_EQ(selected_rows("day >= '1998-09-02' AND flag IN ('A', 'N')"), "25");
  EXPECT_EQ(selected_rows("NOT (id < 2 OR flag NOT IN ('N'))"), "25");
  EXPECT_EQ(selected_rows("id = 2.5"), "");
  EXPECT_EQ(selected_rows("id < 1000"), "012345");
}

TEST(EvaluateTest, ConstantsAndErrors) {
  const Array a = BuildPrimitive<int32_t>(int32(), {1});
  for (const int64_t length : {int64_t{0}, int64_t{13}, int64_t{64}}) {
    Result<Selection> t = Evaluate(*Predicate::Constant(true), {}, length, Pool());
    ASSERT_TRUE(t.ok());
    EXPECT_EQ(t->selected, length);
    for (int64_t i = length; i < bitmap::BytesForBits(length) * 8; ++i) {
      EXPECT_FALSE(bitmap::GetBit(t->bits->data(), i));
    }
    Result<Selection> f = Evaluate(*Predicate::Constant(false), {}, length, Pool());
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->selected, 0);
  }
  Leaf leaf;
  leaf.kind = Leaf::Kind::kCompare;
  leaf.path = {1};
  leaf.column = "missing";
  leaf.values = {Value::Int(1)};
  Result<Selection> missing = Evaluate(*Predicate::MakeLeaf(leaf), {&a, nullptr}, 10, Pool());
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("\"missing\""), std::string::npos);
  leaf.path = {0};
  leaf.values = {Value::Bytes("x")};
  Result<Selection> mismatch = Evaluate(*Predicate::MakeLeaf(leaf), {&a}, 10, Pool());
  EXPECT_FALSE(mismatch.ok());
  leaf.values = {Value::Int(1)};
  // Temporal units must agree: days are not milliseconds.
  const Array days = BuildPrimitive<int32_t>(date32(), {1});
  leaf.type = date64();
  EXPECT_FALSE(Evaluate(*Predicate::MakeLeaf(leaf), {&days}, 10, Pool()).ok());
  const Array seconds = BuildPrimitive<int64_t>(timestamp(TimeUnit::kSecond), {1});
  leaf.type = timestamp(TimeUnit::kMilli);
  EXPECT_FALSE(Evaluate(*Predicate::MakeLeaf(leaf), {&seconds}, 10, Pool()).ok());
  leaf.type = timestamp(TimeUnit::kSecond, "UTC");
  EXPECT_TRUE(Evaluate(*Predicate::MakeLeaf(leaf), {&seconds}, 10, Pool()).ok());
  leaf.type = int64();
  leaf.path = {0, 1};
  Result<Selection> not_struct = Evaluate(*Predicate::MakeLeaf(leaf), {&a}, 10, Pool());
  EXPECT_FALSE(not_struct.ok());
}

}  // namespace
}  // namespace strata::expr
