#include "strata/array/binary_builder.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/binary_view_builder.h"
#include "strata/array/validate.h"
#include "strata/memory/memory_scope.h"

namespace strata {
namespace {

std::vector<std::string> RandomStrings(int n, int max_length, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) {
    std::string s(rng() % (max_length + 1), ' ');
    for (auto& c : s) c = static_cast<char>('a' + rng() % 26);
    out.push_back(std::move(s));
  }
  return out;
}

template <typename OffsetT>
void CheckRoundTrip(TypePtr type) {
  auto pool = MakeSystemMemoryPool();
  BinaryBuilder<OffsetT> builder(type, pool.get());
  auto strings = RandomStrings(500, 30, 5);
  for (size_t i = 0; i < strings.size(); ++i) {
    ASSERT_TRUE((i % 7 == 3 ? builder.AppendNull() : builder.Append(strings[i])).ok());
  }
  auto data = *builder.Finish();
  ASSERT_TRUE(ValidateFull(*data, {.check_utf8 = true}).ok());
  BinaryArray<OffsetT> array(data);
  ASSERT_EQ(array.length(), 500);
  for (size_t i = 0; i < strings.size(); ++i) {
    const auto j = static_cast<int64_t>(i);
    if (i % 7 == 3) {
      ASSERT_TRUE(array.IsNull(j));
      ASSERT_EQ(array.value_length(j), 0);
    } else {
      ASSERT_EQ(array.GetView(j), strings[i]) << i;
    }
  }
  auto slice = array.Slice(100, 50);
  for (int64_t i = 0; i < 50; ++i) {
    ASSERT_EQ(slice.IsNull(i), array.IsNull(100 + i));
    ASSERT_EQ(slice.GetView(i), array.GetView(100 + i));
  }
  EXPECT_TRUE(ValidateFull(*slice.data()).ok());
  EXPECT_EQ(data->buffers[1]->size(), 501 * static_cast<int64_t>(sizeof(OffsetT)));
}

TEST(BinaryBuilderTest, StringRoundTrip) { CheckRoundTrip<int32_t>(utf8()); }
TEST(BinaryBuilderTest, LargeStringRoundTrip) { CheckRoundTrip<int64_t>(large_utf8()); }
TEST(BinaryBuilderTest, BinaryRoundTrip) { CheckRoundTrip<int32_t>(binary()); }
TEST(BinaryBuilderTest, LargeBinaryRoundTrip) { CheckRoundTrip<int64_t>(large_binary()); }

TEST(BinaryBuilderTest, EmptyArrayHasOneOffset) {
  auto pool = MakeSystemMemoryPool();
  StringBuilder builder(utf8(), pool.get());
  auto data = *builder.Finish();
  EXPECT_EQ(data->length, 0);
  EXPECT_EQ(data->buffers[1]->size(), 4);
  EXPECT_EQ(data->buffers[1]->data_as<int32_t>()[0], 0);
  EXPECT_TRUE(ValidateFull(*data).ok());
  EXPECT_EQ(Array(data).ToString(), "[]");
}

TEST(BinaryBuilderTest, ReserveAndReserveDataThenAppendMakesNoAllocation) {
  auto pool = MakeSystemMemoryPool();
  auto strings = RandomStrings(2000, 40, 9);
  int64_t bytes = 0;
  for (const auto& s : strings) bytes += static_cast<int64_t>(s.size());
  StringBuilder builder(utf8(), pool.get());
  ASSERT_TRUE(builder.Reserve(2000).ok());
  ASSERT_TRUE(builder.ReserveData(bytes).ok());
  {
    MemoryScope scope(pool.get());
    for (const auto& s : strings) ASSERT_TRUE(builder.Append(s).ok());
    EXPECT_EQ(scope.delta().num_allocations, 0);
    EXPECT_EQ(scope.delta().num_reallocations, 0);
  }
  EXPECT_EQ(builder.data_length(), bytes);
  {
    MemoryScope scope(pool.get());
    ASSERT_TRUE(builder.Reserve(0).ok());
    ASSERT_TRUE(builder.ReserveData(0).ok());
    EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
  }
  // Reset keeps both capacities: a second batch of the same shape allocates nothing, even
  // through the unchecked path.
  builder.Reset();
  {
    MemoryScope scope(pool.get());
    for (const auto& s : strings) builder.UnsafeAppend(s.data(), static_cast<int64_t>(s.size()));
    EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
  }
  StringArray array(*builder.Finish());
  for (size_t i = 0; i < strings.size(); ++i) ASSERT_EQ(array.GetView(static_cast<int64_t>(i)), strings[i]);
}

TEST(BinaryBuilderTest, AppendValuesWithValidity) {
  auto pool = MakeSystemMemoryPool();
  StringBuilder builder(utf8(), pool.get());
  std::string_view values[] = {"a", "garbage", "ccc", "", "e"};
  const uint8_t validity = 0b11101 << 1;
  ASSERT_TRUE(builder.AppendValues(values, 5, &validity, 1).ok());
  StringArray array(*builder.Finish());
  EXPECT_EQ(array.ToString(), R"(["a", null, "ccc", "", "e"])");
  EXPECT_EQ(array.value_length(1), 0);  // null slot's bytes are not stored
  EXPECT_EQ(array.total_values_length(), 5);
}

TEST(BinaryBuilderTest, AppendConcatenated) {
  auto pool = MakeSystemMemoryPool();
  LargeStringBuilder builder(large_utf8(), pool.get());
  const std::string data = "helloworld!";
  const int32_t lengths[] = {5, 0, 5, 1};
  const uint8_t validity = 0b1101;
  ASSERT_TRUE(builder.AppendConcatenated(reinterpret_cast<const uint8_t*>(data.data()), 11, lengths, 4, &validity).ok());
  EXPECT_EQ(Array(*builder.Finish()).ToString(), R"(["hello", null, "world", "!"])");
  const int32_t bad_lengths[] = {5, 3};
  EXPECT_TRUE(builder.AppendConcatenated(reinterpret_cast<const uint8_t*>(data.data()), 11, bad_lengths, 2).IsInvalid());
  const int32_t negative[] = {12, -1};
  EXPECT_TRUE(builder.AppendConcatenated(reinterpret_cast<const uint8_t*>(data.data()), 11, negative, 2).IsInvalid());
  EXPECT_EQ(builder.length(), 0);
}

TEST(BinaryBuilderTest, AppendUninitializedAssemblesInPlace) {
  auto pool = MakeSystemMemoryPool();
  BinaryBuilder<int32_t> builder(binary(), pool.get());
  auto out = builder.AppendUninitialized(4);
  ASSERT_TRUE(out.ok());
  std::memcpy(*out, "\xde\xad\xbe\xef", 4);
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.AppendEmptyValue().ok());
  EXPECT_EQ(Array(*builder.Finish()).ToString(), "[DEADBEEF, null, ]");
}

TEST(BinaryViewBuilderTest, InlineAndOutOfLineRoundTrip) {
  auto pool = MakeSystemMemoryPool();
  for (TypePtr type : {utf8_view(), binary_view()}) {
    BinaryViewBuilder builder(type, pool.get());
    auto strings = RandomStrings(400, 40, 21);  // about a third fit inline
    for (size_t i = 0; i < strings.size(); ++i) {
      ASSERT_TRUE((i % 9 == 4 ? builder.AppendNull() : builder.Append(strings[i])).ok());
    }
    auto data = *builder.Finish();
    ASSERT_TRUE(ValidateFull(*data, {.check_utf8 = true}).ok());
    BinaryViewArray array(data);
    EXPECT_EQ(array.num_data_buffers(), 1);
    for (size_t i = 0; i < strings.size(); ++i) {
      const auto j = static_cast<int64_t>(i);
      if (i % 9 == 4) {
        ASSERT_TRUE(array.IsNull(j));
      } else {
        ASSERT_EQ(array.GetView(j), strings[i]) << i;
      }
    }
    // Inline layout: length, then the bytes zero-padded to 12.
    const uint8_t* view = array.raw_views();
    EXPECT_EQ(view_layout::Length(view), static_cast<int32_t>(strings[0].size()));
    auto slice = array.Slice(33, 100);
    for (int64_t i = 0; i < 100; ++i) ASSERT_EQ(slice.GetView(i), array.GetView(33 + i));
  }
}

TEST(BinaryViewBuilderTest, ViewFieldsFollowArrowLayout) {
  auto pool = MakeSystemMemoryPool();
  BinaryViewBuilder builder(utf8_view(), pool.get());
  ASSERT_TRUE(builder.Append("short").ok());
  ASSERT_TRUE(builder.Append("exactly12byt").ok());
  ASSERT_TRUE(builder.Append("a string longer than twelve").ok());
  ASSERT_TRUE(builder.Append("another long string!").ok());
  auto data = *builder.Finish();
  const uint8_t* views = data->buffers[1]->data();
  EXPECT_EQ(view_layout::Length(views), 5);
  EXPECT_EQ(std::memcmp(views + 4, "short\0\0\0\0\0\0\0", 12), 0);
  EXPECT_EQ(view_layout::Length(views + 16), 12);
  const uint8_t* third = views + 32;
  EXPECT_EQ(view_layout::Length(third), 27);
  EXPECT_EQ(std::memcmp(third + 4, "a st", 4), 0);
  EXPECT_EQ(view_layout::BufferIndex(third), 0);
  EXPECT_EQ(view_layout::Offset(third), 0);
  EXPECT_EQ(view_layout::Offset(views + 48), 27);
  ASSERT_EQ(data->buffers.size(), 3u);
  EXPECT_EQ(data->buffers[2]->size(), 27 + 20);
  EXPECT_EQ(Array(data).ToString(), R"(["short", "exactly12byt", "a string longer than twelve", "another long string!"])");
}

TEST(BinaryViewBuilderTest, ReserveDataThenAppendMakesNoAllocation) {
  auto pool = MakeSystemMemoryPool();
  auto strings = RandomStrings(1000, 50, 4);
  int64_t out_of_line = 0;
  for (const auto& s : strings) out_of_line += s.size() > 12 ? static_cast<int64_t>(s.size()) : 0;
  BinaryViewBuilder builder(utf8_view(), pool.get());
  ASSERT_TRUE(builder.Reserve(1000).ok());
  ASSERT_TRUE(builder.ReserveData(out_of_line).ok());
  MemoryScope scope(pool.get());
  for (const auto& s : strings) ASSERT_TRUE(builder.Append(s).ok());
  EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
  EXPECT_EQ(builder.data_length(), out_of_line);
}

}  // namespace
}  // namespace strata
