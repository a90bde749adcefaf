#include "strata/array/primitive_builder.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/boolean_builder.h"
#include "strata/array/fixed_size_binary_builder.h"
#include "strata/array/validate.h"
#include "strata/memory/memory_scope.h"

namespace strata {
namespace {

TEST(PrimitiveBuilderTest, AppendAndReadBack) {
  auto pool = MakeSystemMemoryPool();
  Int64Builder builder(int64(), pool.get());
  ASSERT_TRUE(builder.Append(1).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.Append(3).ok());
  ASSERT_TRUE(builder.AppendNulls(2).ok());
  ASSERT_TRUE(builder.Append(-6).ok());
  EXPECT_EQ(builder.length(), 6);
  EXPECT_EQ(builder.null_count(), 3);
  auto data = *builder.Finish();
  ASSERT_TRUE(ValidateFull(*data).ok());
  Int64Array array(data);
  ASSERT_EQ(array.length(), 6);
  EXPECT_EQ(array.null_count(), 3);
  EXPECT_EQ(array.Value(0), 1);
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.Value(1), 0);  // null slots are zeroed
  EXPECT_EQ(array.Value(2), 3);
  EXPECT_TRUE(array.IsNull(3) && array.IsNull(4));
  EXPECT_EQ(array.Value(5), -6);
  EXPECT_EQ(array.ToString(), "[1, null, 3, null, null, -6]");
  // Arrow layout: 64-byte aligned buffers, LSB-first validity 0b100101.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data->buffers[1]->data()) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(data->buffers[0]->data()) % 64, 0u);
  EXPECT_EQ(data->buffers[0]->data()[0], 0b100101);
  EXPECT_EQ(data->buffers[0]->size(), 1);
  EXPECT_EQ(data->buffers[1]->size(), 48);
  // The builder is empty and reusable after Finish.
  EXPECT_EQ(builder.length(), 0);
  EXPECT_EQ(builder.null_count(), 0);
  ASSERT_TRUE(builder.Append(42).ok());
  auto again = *builder.Finish();
  EXPECT_EQ(Int64Array(again).Value(0), 42);
  EXPECT_EQ(again->buffers[0], nullptr);
}

TEST(PrimitiveBuilderTest, NoBitmapWithoutNulls) {
  auto pool = MakeSystemMemoryPool();
  Int32Builder builder(int32(), pool.get());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(builder.Append(i).ok());
  EXPECT_FALSE(builder.has_validity_bitmap());
  auto data = *builder.Finish();
  EXPECT_EQ(data->buffers[0], nullptr);
  EXPECT_EQ(data->null_count, 0);
  EXPECT_EQ(pool->bytes_in_use(), data->buffers[1]->capacity());
}

TEST(PrimitiveBuilderTest, BitmapBackfilledOnFirstNull) {
  auto pool = MakeSystemMemoryPool();
  Int16Builder builder(int16(), pool.get());
  for (int i = 0; i < 21; ++i) ASSERT_TRUE(builder.Append(static_cast<int16_t>(i)).ok());
  EXPECT_FALSE(builder.has_validity_bitmap());
  ASSERT_TRUE(builder.AppendNull().ok());
  EXPECT_TRUE(builder.has_validity_bitmap());
  ASSERT_TRUE(builder.Append(99).ok());
  Int16Array array(*builder.Finish());
  for (int i = 0; i < 21; ++i) {
    ASSERT_TRUE(array.IsValid(i)) << i;
    ASSERT_EQ(array.Value(i), i);
  }
  EXPECT_TRUE(array.IsNull(21));
  EXPECT_EQ(array.Value(22), 99);
  EXPECT_EQ(array.null_count(), 1);
}

TEST(PrimitiveBuilderTest, BulkAppendWithValidityOffsetMatchesReference) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(3);
  DoubleBuilder builder(float64(), pool.get());
  std::vector<double> expected;
  std::vector<bool> expected_valid;
  for (int round = 0; round < 50; ++round) {
    const int64_t n = rng() % 100;
    const int64_t offset = rng() % 13;
    std::vector<double> values(static_cast<size_t>(n));
    for (auto& v : values) v = static_cast<double>(rng() % 1000) / 7.0;
    std::vector<uint8_t> bits(static_cast<size_t>(bitmap::BytesForBits(n + offset)) + 1);
    for (auto& b : bits) b = static_cast<uint8_t>(rng());
    const bool with_validity = rng() % 3 != 0;
    ASSERT_TRUE(builder.AppendValues(values.data(), n, with_validity ? bits.data() : nullptr, offset).ok());
    for (int64_t i = 0; i < n; ++i) {
      const bool valid = !with_validity || bitmap::GetBit(bits.data(), offset + i);
      expected_valid.push_back(valid);
      expected.push_back(valid ? values[static_cast<size_t>(i)] : 0.0);
    }
  }
  DoubleArray array(*builder.Finish());
  ASSERT_EQ(array.length(), static_cast<int64_t>(expected.size()));
  int64_t nulls = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(array.IsValid(static_cast<int64_t>(i)), expected_valid[i]) << i;
    ASSERT_EQ(array.Value(static_cast<int64_t>(i)), expected[i]) << i;
    nulls += !expected_valid[i];
  }
  EXPECT_EQ(array.null_count(), nulls);
  EXPECT_TRUE(ValidateFull(*array.data()).ok());
}

TEST(PrimitiveBuilderTest, ReserveThenAppendMakesNoAllocation) {
  auto pool = MakeSystemMemoryPool();
  constexpr int64_t kRows = 10000;
  Int64Builder builder(int64(), pool.get());
  ASSERT_TRUE(builder.Reserve(kRows).ok());
  EXPECT_EQ(pool->bytes_in_use(), kRows * 8);  // exact (80000 is a multiple of 64)
  {
    MemoryScope scope(pool.get());
    for (int64_t i = 0; i < kRows; ++i) ASSERT_TRUE(builder.Append(i).ok());
    EXPECT_EQ(scope.delta().num_allocations, 0);
    EXPECT_EQ(scope.delta().num_reallocations, 0);
  }
  {
    // Reserve within capacity allocates nothing.
    MemoryScope scope(pool.get());
    ASSERT_TRUE(builder.Reserve(0).ok());
    EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
  }
  builder.Reset();
  {
    MemoryScope scope(pool.get());
    ASSERT_TRUE(builder.Reserve(kRows).ok());
    std::vector<int64_t> values(kRows, 5);
    ASSERT_TRUE(builder.AppendValues(values.data(), kRows).ok());
    EXPECT_EQ(scope.delta().num_allocations, 0);
    EXPECT_EQ(scope.delta().num_reallocations, 0);
  }
}

TEST(PrimitiveBuilderTest, ReservedBuilderAllocatesOnlyTheBitmapForNulls) {
  auto pool = MakeSystemMemoryPool();
  Int32Builder builder(int32(), pool.get());
  ASSERT_TRUE(builder.Reserve(4096).ok());
  MemoryScope scope(pool.get());
  for (int i = 0; i < 4096; ++i) {
    ASSERT_TRUE((i % 3 == 0 ? builder.AppendNull() : builder.Append(i)).ok());
  }
  EXPECT_EQ(scope.delta().num_allocations, 1);  // the bitmap, sized to the reservation
  EXPECT_EQ(scope.delta().num_reallocations, 0);
  EXPECT_EQ(scope.delta().bytes_allocated, 512);
}

TEST(PrimitiveBuilderTest, ResetKeepsCapacity) {
  auto pool = MakeSystemMemoryPool();
  Int64Builder builder(int64(), pool.get());
  ASSERT_TRUE(builder.Reserve(1000).ok());
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE((i == 7 ? builder.AppendNull() : builder.Append(i)).ok());
  const int64_t held = builder.memory_size();
  builder.Reset();
  EXPECT_EQ(builder.length(), 0);
  EXPECT_EQ(builder.null_count(), 0);
  EXPECT_EQ(builder.memory_size(), held);
  MemoryScope scope(pool.get());
  for (int batch = 0; batch < 5; ++batch) {
    for (int i = 0; i < 1000; ++i) ASSERT_TRUE((i % 10 == 0 ? builder.AppendNull() : builder.Append(i)).ok());
    builder.Reset();
  }
  EXPECT_EQ(scope.delta().num_allocations, 0);
  EXPECT_EQ(scope.delta().num_reallocations, 0);
  // After a Reset the first batch without nulls carries no bitmap.
  ASSERT_TRUE(builder.Append(1).ok());
  EXPECT_EQ((*builder.Finish())->buffers[0], nullptr);
}

TEST(PrimitiveBuilderTest, UnknownSizeAppendsGrowByDoubling) {
  auto pool = MakeSystemMemoryPool();
  Int64Builder builder(int64(), pool.get());
  MemoryScope scope(pool.get());
  for (int64_t i = 0; i < (1 << 16); ++i) ASSERT_TRUE(builder.Append(i).ok());
  // 64 bytes doubling to 512 KiB: 1 allocation + 13 reallocations, not one per append.
  EXPECT_EQ(scope.delta().num_allocations, 1);
  EXPECT_EQ(scope.delta().num_reallocations, 13);
}

TEST(PrimitiveBuilderTest, AppendUninitializedForDecoders) {
  auto pool = MakeSystemMemoryPool();
  Int32Builder builder(date32(), pool.get());
  uint8_t validity = 0b1011;
  auto out = builder.AppendUninitialized(4, &validity);
  ASSERT_TRUE(out.ok());
  (*out)[0] = 19000;
  (*out)[1] = 19001;
  (*out)[2] = 0;
  (*out)[3] = 19003;
  auto data = *builder.Finish();
  EXPECT_EQ(data->type->id(), TypeId::kDate32);
  EXPECT_EQ(data->null_count, 1);
  EXPECT_EQ(Array(data).ToString(), "[2022-01-08, 2022-01-09, null, 2022-01-11]");
}

TEST(PrimitiveBuilderTest, SliceIsZeroCopyAndRespectsOffset) {
  auto pool = MakeSystemMemoryPool();
  UInt8Builder builder(uint8(), pool.get());
  for (int i = 0; i < 20; ++i) ASSERT_TRUE((i % 4 == 1 ? builder.AppendNull() : builder.Append(static_cast<uint8_t>(i))).ok());
  UInt8Array array(*builder.Finish());
  const int64_t before = pool->bytes_in_use();
  UInt8Array slice = array.Slice(5, 10);
  EXPECT_EQ(pool->bytes_in_use(), before);
  EXPECT_EQ(slice.length(), 10);
  EXPECT_EQ(slice.offset(), 5);
  EXPECT_EQ(slice.raw_values(), array.raw_values() + 5);
  EXPECT_EQ(slice.null_count(), 3);  // rows 5, 9 and 13 of the original
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(slice.IsNull(i), array.IsNull(5 + i));
    if (slice.IsValid(i)) {
      EXPECT_EQ(slice.Value(i), 5 + i);
    }
  }
  EXPECT_TRUE(ValidateFull(*slice.data()).ok());
  EXPECT_EQ(slice.Slice(1, 2).ToString(), "[6, 7]");
}

TEST(BooleanBuilderTest, RoundTrip) {
  auto pool = MakeSystemMemoryPool();
  BooleanBuilder builder(pool.get());
  std::mt19937 rng(11);
  std::vector<int> expected;  // -1 null
  for (int i = 0; i < 300; ++i) {
    const int r = static_cast<int>(rng() % 3);
    if (r == 2) {
      ASSERT_TRUE(builder.AppendNull().ok());
    } else {
      ASSERT_TRUE(builder.Append(r == 1).ok());
    }
    expected.push_back(r == 2 ? -1 : r);
  }
  const uint8_t bytes[5] = {1, 0, 3, 0, 1};
  const uint8_t validity = 0b11011;
  ASSERT_TRUE(builder.AppendValues(bytes, 5, &validity).ok());
  for (int v : {1, 0, -1, 0, 1}) expected.push_back(v);
  const uint8_t packed = 0b0110;
  ASSERT_TRUE(builder.AppendBitmap(&packed, 1, 3).ok());
  for (int v : {1, 1, 0}) expected.push_back(v);
  BooleanArray array(*builder.Finish());
  ASSERT_EQ(array.length(), static_cast<int64_t>(expected.size()));
  int64_t trues = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto j = static_cast<int64_t>(i);
    if (expected[i] < 0) {
      ASSERT_TRUE(array.IsNull(j)) << i;
    } else {
      ASSERT_TRUE(array.IsValid(j)) << i;
      ASSERT_EQ(array.Value(j), expected[i] == 1) << i;
      trues += expected[i];
    }
  }
  EXPECT_EQ(array.TrueCount(), trues);
  EXPECT_TRUE(ValidateFull(*array.data()).ok());
  EXPECT_EQ(array.Slice(300, 5).ToString(), "[true, false, null, false, true]");
}

TEST(BooleanBuilderTest, ReserveThenAppendMakesNoAllocation) {
  auto pool = MakeSystemMemoryPool();
  BooleanBuilder builder(pool.get());
  ASSERT_TRUE(builder.Reserve(10000).ok());
  MemoryScope scope(pool.get());
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(builder.Append(i % 3 == 0).ok());
  EXPECT_EQ(scope.delta().num_allocations + scope.delta().num_reallocations, 0);
}

TEST(FixedSizeBinaryBuilderTest, RoundTripAndWrongWidth) {
  auto pool = MakeSystemMemoryPool();
  FixedSizeBinaryBuilder builder(fixed_size_binary(3), pool.get());
  ASSERT_TRUE(builder.Append(std::string_view("abc")).ok());
  ASSERT_TRUE(builder.AppendNull().ok());
  ASSERT_TRUE(builder.Append(std::string_view("\x01\x02\xff", 3)).ok());
  EXPECT_TRUE(builder.Append(std::string_view("toolong")).IsInvalid());
  const uint8_t more[6] = {'x', 'y', 'z', 'q', 'r', 's'};
  const uint8_t validity = 0b10;
  ASSERT_TRUE(builder.AppendValues(more, 2, &validity).ok());
  FixedSizeBinaryArray array(*builder.Finish());
  ASSERT_EQ(array.length(), 5);
  EXPECT_EQ(array.GetView(0), "abc");
  EXPECT_TRUE(array.IsNull(1));
  EXPECT_EQ(array.GetView(2), std::string_view("\x01\x02\xff", 3));
  EXPECT_TRUE(array.IsNull(3));
  EXPECT_EQ(array.GetView(3), std::string_view("\0\0\0", 3));  // null slot bytes zeroed
  EXPECT_EQ(array.GetView(4), "qrs");
  EXPECT_EQ(array.ToString(), "[616263, null, 0102FF, null, 717273]");
  EXPECT_EQ(array.Slice(2, 2).GetView(0), std::string_view("\x01\x02\xff", 3));
}

TEST(FixedSizeBinaryBuilderTest, DecimalsPrintWithScale) {
  auto pool = MakeSystemMemoryPool();
  FixedSizeBinaryBuilder builder(decimal128(10, 2), pool.get());
  for (__int128 v : {__int128{12345}, __int128{-5}, __int128{0}, -(__int128{1} << 100)}) {
    uint8_t bytes[16];
    std::memcpy(bytes, &v, 16);
    ASSERT_TRUE(builder.Append(bytes).ok());
  }
  ASSERT_TRUE(builder.AppendNull().ok());
  EXPECT_EQ(Array(*builder.Finish()).ToString(),
            "[123.45, -0.05, 0.00, -12676506002282294014967032053.76, null]");
  FixedSizeBinaryBuilder wide(decimal256(76, 0), pool.get());
  uint8_t bytes[32];
  std::memset(bytes, 0xff, 32);  // -1
  ASSERT_TRUE(wide.Append(bytes).ok());
  std::memset(bytes, 0, 32);
  bytes[24] = 1;  // 2^192
  ASSERT_TRUE(wide.Append(bytes).ok());
  EXPECT_EQ(Array(*wide.Finish()).ToString(), "[-1, 6277101735386680763835789423207666416102355444464034512896]");
}

}  // namespace
}  // namespace strata
