// Widen / CanWiden: round trips for every supported pair (values compared against the
// source row by row, outputs validated), refusals for lossy pairs, overflow errors.
#include "strata/array/widen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "strata/array/binary_builder.h"
#include "strata/array/dictionary_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/validate.h"
#include "strata/array/value_text.h"
#include "strata/types/field.h"

namespace strata {
namespace {

MemoryPool* Pool() { return SystemMemoryPool(); }

template <typename T>
Array Make(TypePtr type, const std::vector<T>& values, const std::vector<bool>& valid) {
  PrimitiveBuilder<T> builder(std::move(type), Pool());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE((valid[i] ? builder.Append(values[i]) : builder.AppendNull()).ok());
  }
  return Array(*builder.Finish());
}

Array Strings(TypePtr type, const std::vector<std::string>& values, const std::vector<bool>& valid) {
  StringBuilder builder(std::move(type), Pool());
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE((valid[i] ? builder.Append(values[i]) : builder.AppendNull()).ok());
  }
  return Array(*builder.Finish());
}

Array Validated(Result<Array> result) {
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  if (!result.ok()) return Array();
  EXPECT_TRUE(ValidateFull(*result->data()).ok()) << ValidateFull(*result->data()).ToString();
  return *result;
}

const std::vector<bool> kValid = {true, false, true, true, true, false, true, true, true, true, false};

// Every integer source against every wider target: values equal as int64 / double.
template <typename In>
void CheckIntegers(TypePtr from, const std::vector<TypePtr>& targets) {
  std::vector<In> values;
  for (int i = 0; i < 11; ++i) values.push_back(i % 2 ? std::numeric_limits<In>::max() - i : std::numeric_limits<In>::min() + i);
  Array whole = Make<In>(from, values, kValid);
  Array input = whole.Slice(3, 8);  // offset not byte-aligned: validity is copied
  for (const TypePtr& to : targets) {
    SCOPED_TRACE(from->ToString() + " -> " + to->ToString());
    ASSERT_TRUE(CanWiden(*from, *to));
    Array out = Validated(Widen(input, to, Pool()));
    ASSERT_TRUE(out.type()->Equals(*to));
    ASSERT_EQ(out.length(), input.length());
    EXPECT_EQ(out.null_count(), input.null_count());
    PrimitiveArray<In> in(input);
    for (int64_t i = 0; i < input.length(); ++i) {
      ASSERT_EQ(out.IsNull(i), input.IsNull(i));
      if (input.IsNull(i)) continue;
      const double want = static_cast<double>(in.Value(i));
      double got = 0;
      switch (to->id()) {
        case TypeId::kInt16: got = Int16Array(out).Value(i); break;
        case TypeId::kInt32: got = Int32Array(out).Value(i); break;
        case TypeId::kInt64: got = static_cast<double>(Int64Array(out).Value(i)); break;
        case TypeId::kUInt16: got = UInt16Array(out).Value(i); break;
        case TypeId::kUInt32: got = UInt32Array(out).Value(i); break;
        case TypeId::kUInt64: got = static_cast<double>(UInt64Array(out).Value(i)); break;
        case TypeId::kFloat32: got = FloatArray(out).Value(i); break;
        case TypeId::kFloat64: got = DoubleArray(out).Value(i); break;
        default: FAIL();
      }
      EXPECT_EQ(got, want) << "row " << i;
    }
  }
}

TEST(WidenTest, Integers) {
  CheckIntegers<int8_t>(int8(), {int16(), int32(), int64(), float32(), float64()});
  CheckIntegers<int16_t>(int16(), {int32(), int64(), float32(), float64()});
  CheckIntegers<int32_t>(int32(), {int64(), float64()});
  CheckIntegers<uint8_t>(uint8(), {uint16(), uint32(), uint64(), int16(), int32(), int64(), float32(), float64()});
  CheckIntegers<uint16_t>(uint16(), {uint32(), uint64(), int32(), int64(), float32(), float64()});
  CheckIntegers<uint32_t>(uint32(), {uint64(), int64(), float64()});
}

TEST(WidenTest, ByteAlignedValiditySharedZeroCopy) {
  std::vector<int16_t> values(40, 7);
  std::vector<bool> valid(40, true);
  valid[9] = valid[30] = false;
  Array whole = Make<int16_t>(int16(), values, valid);
  Array out = Validated(Widen(whole.Slice(8, 30), int64(), Pool()));
  ASSERT_NE(out.data()->buffers[0], nullptr);
  EXPECT_EQ(out.data()->buffers[0]->parent(), whole.data()->buffers[0]);
  EXPECT_EQ(out.null_count(), 2);  // rows 9 and 30
  EXPECT_TRUE(out.IsNull(1));
  EXPECT_TRUE(out.IsNull(22));
}

TEST(WidenTest, Refusals) {
  EXPECT_FALSE(CanWiden(*int64(), *int32()));
  EXPECT_FALSE(CanWiden(*float64(), *float32()));
  EXPECT_FALSE(CanWiden(*int64(), *float64()));
  EXPECT_FALSE(CanWiden(*int32(), *float32()));
  EXPECT_FALSE(CanWiden(*int8(), *uint16()));
  EXPECT_FALSE(CanWiden(*uint32(), *int32()));
  EXPECT_FALSE(CanWiden(*timestamp(TimeUnit::kNano), *timestamp(TimeUnit::kSecond)));
  EXPECT_FALSE(CanWiden(*timestamp(TimeUnit::kSecond, "UTC"), *timestamp(TimeUnit::kMilli)));
  EXPECT_FALSE(CanWiden(*timestamp(TimeUnit::kSecond, "UTC"), *timestamp(TimeUnit::kMilli, "Europe/Paris")));
  EXPECT_FALSE(CanWiden(*date64(), *date32()));
  EXPECT_FALSE(CanWiden(*large_utf8(), *utf8()));
  EXPECT_FALSE(CanWiden(*utf8(), *binary()));
  EXPECT_FALSE(CanWiden(*decimal128(10, 2), *decimal128(9, 2)));
  EXPECT_FALSE(CanWiden(*decimal128(10, 2), *decimal128(12, 3)));
  EXPECT_FALSE(CanWiden(*decimal256(10, 2), *decimal128(12, 2)));
  EXPECT_FALSE(CanWiden(*large_list(int32()), *list(int64())));
  EXPECT_FALSE(CanWiden(*list(int64()), *list(int32())));
  EXPECT_FALSE(CanWiden(*list(int32()), *list(std::make_shared<Field>("item", int64(), false))));
  EXPECT_TRUE(CanWiden(*int64(), *int64()));
  Array ints = Make<int64_t>(int64(), {1, 2}, {true, true});
  auto refused = Widen(ints, int32(), Pool());
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsInvalid()) << refused.status().ToString();
  // Identical types: the input itself.
  EXPECT_EQ(Widen(ints, int64(), Pool())->data(), ints.data());
}

TEST(WidenTest, Floats) {
  Array halves = Make<uint16_t>(float16(), {value_text::DoubleToHalf(1.5), 0, value_text::DoubleToHalf(-65504), 0x7C00},
                                {true, false, true, true});
  Array f32 = Validated(Widen(halves, float32(), Pool()));
  EXPECT_EQ(FloatArray(f32).Value(0), 1.5f);
  EXPECT_EQ(FloatArray(f32).Value(2), -65504.0f);
  EXPECT_TRUE(std::isinf(FloatArray(f32).Value(3)));
  EXPECT_TRUE(f32.IsNull(1));
  Array f64 = Validated(Widen(halves, float64(), Pool()));
  EXPECT_EQ(DoubleArray(f64).Value(0), 1.5);
  Array d = Validated(Widen(Make<float>(float32(), {0.1f, 3.0f}, {true, true}), float64(), Pool()));
  EXPECT_EQ(DoubleArray(d).Value(0), static_cast<double>(0.1f));
}

TEST(WidenTest, Strings) {
  std::vector<std::string> values = {"a", "", "a value longer than twelve", "xyz", "another long string value!", "q"};
  std::vector<bool> valid = {true, false, true, true, true, true};
  Array input = Strings(utf8(), values, valid).Slice(1, 5);
  for (const TypePtr& to : {large_utf8(), utf8_view()}) {
    Array out = Validated(Widen(input, to, Pool()));
    ASSERT_TRUE(out.type()->Equals(*to));
    EXPECT_EQ(out.null_count(), 1);
    for (int64_t i = 0; i < out.length(); ++i) {
      ASSERT_EQ(out.IsNull(i), input.IsNull(i));
      if (out.IsNull(i)) continue;
      std::string got = to->id() == TypeId::kLargeString ? LargeStringArray(out).GetString(i)
                                                           : BinaryViewArray(out).GetString(i);
      EXPECT_EQ(got, values[static_cast<size_t>(i + 1)]);
    }
  }
  // large_string -> string_view.
  Array large = Validated(Widen(input, large_utf8(), Pool()));
  Array view = Validated(Widen(large, utf8_view(), Pool()));
  EXPECT_EQ(BinaryViewArray(view).GetString(1), values[2]);
  Array bin = Strings(binary(), values, valid);
  EXPECT_EQ(LargeBinaryArray(Validated(Widen(bin, large_binary(), Pool()))).GetString(4), values[4]);
  EXPECT_EQ(BinaryViewArray(Validated(Widen(bin, binary_view(), Pool()))).GetString(4), values[4]);
}

TEST(WidenTest, Temporal) {
  Array days = Make<int32_t>(date32(), {0, 1, -1, 19000}, {true, true, false, true});
  Array ms = Validated(Widen(days, date64(), Pool()));
  EXPECT_EQ(Int64Array(ms).Value(1), 86400000);
  EXPECT_EQ(Int64Array(ms).Value(3), int64_t{19000} * 86400000);
  EXPECT_TRUE(ms.IsNull(2));

  Array seconds = Make<int64_t>(timestamp(TimeUnit::kSecond, "UTC"), {1, -2, 3}, {true, true, false});
  for (auto [unit, factor] : {std::pair{TimeUnit::kMilli, int64_t{1000}}, std::pair{TimeUnit::kMicro, int64_t{1000000}},
                              std::pair{TimeUnit::kNano, int64_t{1000000000}}}) {
    Array out = Validated(Widen(seconds, timestamp(unit, "UTC"), Pool()));
    EXPECT_EQ(Int64Array(out).Value(0), factor);
    EXPECT_EQ(Int64Array(out).Value(1), -2 * factor);
    EXPECT_TRUE(out.IsNull(2));
  }
  // Overflow: a valid value past int64 in nanoseconds names the value.
  Array big = Make<int64_t>(timestamp(TimeUnit::kSecond), {1, int64_t{10000000000}}, {true, true});
  auto overflow = Widen(big, timestamp(TimeUnit::kNano), Pool());
  ASSERT_FALSE(overflow.ok());
  EXPECT_TRUE(overflow.status().IsInvalid());
  EXPECT_NE(overflow.status().message().find("10000000000"), std::string::npos) << overflow.status().ToString();
  // ... but a null slot holding the same value is not checked.
  Array big_null = Make<int64_t>(timestamp(TimeUnit::kSecond), {1, int64_t{10000000000}}, {true, false});
  EXPECT_TRUE(Widen(big_null, timestamp(TimeUnit::kNano), Pool()).ok());

  Array t32 = Make<int32_t>(time32(TimeUnit::kSecond), {3600, 7}, {true, true});
  EXPECT_EQ(Int32Array(Validated(Widen(t32, time32(TimeUnit::kMilli), Pool()))).Value(0), 3600000);
  EXPECT_EQ(Int64Array(Validated(Widen(t32, time64(TimeUnit::kNano), Pool()))).Value(1), 7000000000);
  Array dur = Make<int64_t>(duration(TimeUnit::kMilli), {5}, {true});
  EXPECT_EQ(Int64Array(Validated(Widen(dur, duration(TimeUnit::kMicro), Pool()))).Value(0), 5000);
}

TEST(WidenTest, Decimals) {
  FixedSizeBinaryBuilder builder(decimal128(10, 2), Pool());
  uint8_t minus_one[16], seven[16] = {7};
  std::memset(minus_one, 0xFF, 16);
  ASSERT_TRUE(builder.Append(minus_one).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.Append(seven).ok());
  Array input(*builder.Finish());
  Array wider = Validated(Widen(input, decimal128(20, 2), Pool()));
  EXPECT_EQ(wider.data()->buffers[1], input.data()->buffers[1]);  // same bytes, new type
  EXPECT_EQ(wider.type()->precision(), 20);
  Array d256 = Validated(Widen(input, decimal256(40, 2), Pool()));
  FixedSizeBinaryArray out(d256);
  for (int b = 0; b < 32; ++b) EXPECT_EQ(out.GetValue(0)[b], 0xFF);
  EXPECT_EQ(out.GetValue(2)[0], 7);
  for (int b = 1; b < 32; ++b) EXPECT_EQ(out.GetValue(2)[b], 0);
  EXPECT_TRUE(d256.IsNull(1));
}

TEST(WidenTest, Dictionaries) {
  Array dictionary = Strings(utf8(), {"red", "", "a rather long colour name"}, {true, false, true});
  Int8Builder indices(int8(), Pool());
  for (int v : {0, 2, -1, 1, 2, 0}) ASSERT_TRUE((v < 0 ? indices.AppendNull() : indices.Append(static_cast<int8_t>(v))).ok());
  Array input(*MakeDictionaryArray(strata::dictionary(int8(), utf8()), *indices.Finish(), dictionary.data()));
  Array decoded = Validated(Widen(input, utf8(), Pool()));
  StringArray strings(decoded);
  EXPECT_EQ(decoded.null_count(), 2);  // a null index and an index to a null value
  EXPECT_EQ(strings.GetString(0), "red");
  EXPECT_EQ(strings.GetString(1), "a rather long colour name");
  EXPECT_TRUE(decoded.IsNull(2));
  EXPECT_TRUE(decoded.IsNull(3));
  Array sliced = Validated(Widen(input.Slice(4, 2), large_utf8(), Pool()));
  EXPECT_EQ(LargeStringArray(sliced).GetString(0), "a rather long colour name");
  EXPECT_EQ(LargeStringArray(sliced).GetString(1), "red");
  Array redict = Validated(Widen(input, strata::dictionary(int8(), large_utf8()), Pool()));
  EXPECT_EQ(redict.data()->buffers[1], input.data()->buffers[1]);  // indices shared
  EXPECT_FALSE(CanWiden(*strata::dictionary(int8(), utf8()), *strata::dictionary(int16(), utf8())));

  Array int_dictionary = Make<int16_t>(int16(), {10, -20}, {true, true});
  Int32Builder int_indices(int32(), Pool());
  for (int v : {1, 0, 1}) ASSERT_TRUE(int_indices.Append(v).ok());
  Array ints(*MakeDictionaryArray(strata::dictionary(int32(), int16()), *int_indices.Finish(), int_dictionary.data()));
  Array wide = Validated(Widen(ints, int64(), Pool()));
  EXPECT_EQ(Int64Array(wide).Value(0), -20);
  EXPECT_EQ(Int64Array(wide).Value(1), 10);
}

TEST(WidenTest, Nested) {
  // list<int32> with a sliced parent -> list<int64> and large_list<int64>.
  Array child = Make<int32_t>(int32(), {1, 2, 3, 4, 5, 6}, {true, true, false, true, true, true});
  auto offsets = *AllocateBuffer(Pool(), 5 * 4);
  int32_t* o = offsets->mutable_data_as<int32_t>();
  o[0] = 0, o[1] = 2, o[2] = 2, o[3] = 5, o[4] = 6;
  auto list_data = ArrayData::Make(list(int32()), 4, {nullptr, std::move(offsets)}, 0);
  list_data->children = {child.data()};
  Array input = Array(list_data).Slice(1, 3);
  for (const TypePtr& to : {list(int64()), large_list(int64())}) {
    Array out = Validated(Widen(input, to, Pool()));
    ASSERT_TRUE(out.type()->Equals(*to));
    ASSERT_EQ(out.length(), 3);
    Array values = to->id() == TypeId::kList ? ListArray<int32_t>(out).value_slice(1) : LargeListArray(out).value_slice(1);
    ASSERT_EQ(values.length(), 3);
    EXPECT_TRUE(values.IsNull(0));  // child row 2
    EXPECT_EQ(Int64Array(values).Value(1), 4);
    EXPECT_EQ(Int64Array(values).Value(2), 5);
  }
  // struct fields by position.
  Array a = Make<int8_t>(int8(), {1, 2, 3}, {true, false, true});
  Array s = Strings(utf8(), {"x", "y", "z"}, {true, true, true});
  auto struct_data = ArrayData::Make(struct_({std::make_shared<Field>("a", int8()), std::make_shared<Field>("s", utf8())}),
                                     3, {nullptr}, 0);
  struct_data->children = {a.data(), s.data()};
  auto to = struct_({std::make_shared<Field>("a", int32()), std::make_shared<Field>("s", large_utf8())});
  Array out = Validated(Widen(Array(struct_data).Slice(1, 2), to, Pool()));
  StructArray st(out);
  EXPECT_TRUE(st.field(0).IsNull(0));
  EXPECT_EQ(Int32Array(st.field(0)).Value(1), 3);
  EXPECT_EQ(LargeStringArray(st.field(1)).GetString(1), "z");
  EXPECT_FALSE(CanWiden(*struct_data->type, *struct_({std::make_shared<Field>("a", int32())})));
}

}  // namespace
}  // namespace strata
