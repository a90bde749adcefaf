#include "strata/array/compare.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/binary_builder.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/list_builder.h"
#include "strata/array/primitive_builder.h"
#include "strata/array/struct_builder.h"

namespace strata {
namespace {

Array Ints(std::vector<std::optional<int32_t>> values, MemoryPool* pool) {
  Int32Builder b(int32(), pool);
  for (auto v : values) EXPECT_TRUE((v ? b.Append(*v) : b.AppendNull()).ok());
  return Array(*b.Finish());
}

TEST(CompareTest, PrimitiveEqualityRespectsNullsAndOffsets) {
  auto pool = MakeSystemMemoryPool();
  auto a = Ints({1, std::nullopt, 3, 4}, pool.get());
  auto b = Ints({1, std::nullopt, 3, 4}, pool.get());
  EXPECT_TRUE(a.Equals(b));
  EXPECT_FALSE(a.Equals(Ints({1, 2, 3, 4}, pool.get())));
  EXPECT_FALSE(a.Equals(Ints({1, std::nullopt, 3, 5}, pool.get())));
  EXPECT_FALSE(a.Equals(Ints({1, std::nullopt, 3}, pool.get())));
  // Slices compare by value, not by offset.
  auto c = Ints({9, 9, 1, std::nullopt, 3, 4}, pool.get());
  EXPECT_TRUE(c.Slice(2).Equals(a));
  EXPECT_TRUE(c.Slice(3, 2).Equals(a.Slice(1, 2)));
  // Bytes under a null slot do not matter.
  auto garbage = std::make_shared<ArrayData>(*a.data());
  auto values = *AllocateBuffer(pool.get(), 16);
  std::memcpy(values->mutable_data(), garbage->buffers[1]->data(), 16);
  reinterpret_cast<int32_t*>(values->mutable_data())[1] = 12345;
  garbage->buffers[1] = values;
  EXPECT_TRUE(Array(garbage).Equals(a));
  // Different type, same bytes.
  auto as_date = std::make_shared<ArrayData>(*a.data());
  as_date->type = date32();
  EXPECT_FALSE(Array(as_date).Equals(a));
}

TEST(CompareTest, StringsAcrossLayouts) {
  auto pool = MakeSystemMemoryPool();
  StringBuilder s1(utf8(), pool.get());
  StringBuilder s2(utf8(), pool.get());
  for (auto v : {"alpha", "", "gamma"}) ASSERT_TRUE(s1.Append(v).ok());
  for (auto v : {"zzz", "alpha", "", "gamma"}) ASSERT_TRUE(s2.Append(v).ok());
  Array a(*s1.Finish());
  Array b(*s2.Finish());
  EXPECT_FALSE(a.Equals(b));
  EXPECT_TRUE(a.Equals(b.Slice(1)));
  BinaryViewBuilder v1(utf8_view(), pool.get());
  BinaryViewBuilder v2(utf8_view(), pool.get());
  for (auto v : {"a long string value, out of line", "tiny"}) {
    ASSERT_TRUE(v1.Append(v).ok());
    ASSERT_TRUE(v2.Append(v).ok());
  }
  ASSERT_TRUE(v2.AppendNull().ok());
  Array va(*v1.Finish());
  Array vb(*v2.Finish());
  EXPECT_TRUE(va.Equals(vb.Slice(0, 2)));
  EXPECT_FALSE(va.Equals(vb.Slice(1, 2)));
}

TEST(CompareTest, NestedRandomizedAgainstRebuiltCopy) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(5);
  auto type = list(struct_({field("x", int64()), field("s", utf8())}));
  auto build = [&](uint32_t seed, int mutate_at) {
    std::mt19937 r(seed);
    auto builder = *ListBuilder<int32_t>::Make(type, pool.get());
    auto* structs = static_cast<StructBuilder*>(builder->value_builder());
    auto* xs = static_cast<Int64Builder*>(structs->field_builder(0));
    auto* ss = static_cast<StringBuilder*>(structs->field_builder(1));
    int element = 0;
    for (int i = 0; i < 200; ++i) {
      if (r() % 5 == 0) {
        EXPECT_TRUE(builder->AppendNull().ok());
        continue;
      }
      EXPECT_TRUE(builder->Append().ok());
      const int n = static_cast<int>(r() % 4);
      for (int k = 0; k < n; ++k, ++element) {
        if (r() % 6 == 0) {
          EXPECT_TRUE(structs->AppendNull().ok());
          continue;
        }
        EXPECT_TRUE(structs->Append().ok());
        const int64_t x = static_cast<int64_t>(r() % 100) + (element == mutate_at ? 1000 : 0);
        EXPECT_TRUE(xs->Append(x).ok());
        EXPECT_TRUE(ss->Append(std::string(r() % 3, 'q')).ok());
      }
    }
    return Array(*builder->Finish());
  };
  auto a = build(42, -1);
  auto b = build(42, -1);
  EXPECT_TRUE(a.Equals(b));
  for (int i = 0; i < 20; ++i) {
    const int64_t start = rng() % 150;
    const int64_t length = rng() % 50;
    EXPECT_TRUE(a.Slice(start, length).Equals(b.Slice(start, length)));
  }
  // Changing one x makes them differ, unless it sits under a null struct (not counted then).
  bool found_difference = false;
  for (int at = 0; at < 40 && !found_difference; ++at) found_difference = !a.Equals(build(42, at));
  EXPECT_TRUE(found_difference);
}

TEST(CompareTest, FloatsCompareByBits) {
  auto pool = MakeSystemMemoryPool();
  DoubleBuilder b1(float64(), pool.get());
  DoubleBuilder b2(float64(), pool.get());
  ASSERT_TRUE(b1.Append(std::numeric_limits<double>::quiet_NaN()).ok());
  ASSERT_TRUE(b2.Append(std::numeric_limits<double>::quiet_NaN()).ok());
  Array a(*b1.Finish());
  Array b(*b2.Finish());
  EXPECT_TRUE(a.Equals(b));
  EXPECT_TRUE(a.Equals(a));
}

}  // namespace
}  // namespace strata
