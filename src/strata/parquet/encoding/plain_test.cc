#include "strata/parquet/encoding/plain.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

template <typename T>
void FixedRoundTrip(int width_override = 0) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937_64 rng(sizeof(T));
  std::vector<T> values(1001);
  for (auto& v : values) {
    uint64_t bits[2] = {rng(), rng()};
    std::memcpy(&v, bits, sizeof(T));
  }
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(PlainEncodeFixed(values.data(), 1001, sizeof(T), &page).ok());
  ASSERT_EQ(page.size(), 1001 * static_cast<int64_t>(sizeof(T)));
  PlainFixedDecoder decoder;
  ASSERT_TRUE(decoder.SetData(page.data(), page.size(), sizeof(T)).ok());
  std::vector<T> out(1001);
  ASSERT_EQ(*decoder.Decode(out.data(), 500), 500);
  ASSERT_EQ(*decoder.Skip(1), 1);
  ASSERT_EQ(*decoder.Decode(out.data() + 501, 1000), 500);  // short: the data ends
  EXPECT_EQ(decoder.values_left(), 0);
  EXPECT_EQ(std::memcmp(out.data(), values.data(), 500 * sizeof(T)), 0);
  EXPECT_EQ(std::memcmp(out.data() + 501, values.data() + 501, 500 * sizeof(T)), 0);
}

TEST(PlainTest, FixedWidthRoundTrips) {
  FixedRoundTrip<int32_t>();
  FixedRoundTrip<int64_t>();
  FixedRoundTrip<float>();
  FixedRoundTrip<double>();
  FixedRoundTrip<Int96>();
  static_assert(sizeof(Int96) == 12);
}

TEST(PlainTest, KnownInt32Bytes) {
  const uint8_t page[] = {0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF};
  PlainFixedDecoder decoder;
  ASSERT_TRUE(decoder.SetData(page, 8, 4).ok());
  int32_t out[2];
  ASSERT_EQ(*decoder.Decode(out, 2), 2);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], -1);
  int64_t wrong[1];
  EXPECT_TRUE(decoder.Decode(wrong, 1).status().IsInvalid());
}

TEST(PlainTest, FixedLenByteArrayViewsAndRaggedSize) {
  const std::string page = "abcdefghi";
  PlainFixedDecoder decoder;
  ASSERT_TRUE(decoder.SetData(reinterpret_cast<const uint8_t*>(page.data()), 9, 3).ok());
  ByteArrayView views[3];
  ASSERT_EQ(*decoder.DecodeViews(views, 3), 3);
  EXPECT_EQ(views[0].view(), "abc");
  EXPECT_EQ(views[2].view(), "ghi");
  auto st = decoder.SetData(reinterpret_cast<const uint8_t*>(page.data()), 8, 3);
  EXPECT_TRUE(st.IsCorrupt());
}

TEST(PlainTest, BooleansRoundTripAsBytesAndBits) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(3);
  std::vector<uint8_t> values(777);
  for (auto& v : values) v = rng() & 1;
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(PlainEncodeBooleans(values.data(), 777, &page).ok());
  ASSERT_EQ(page.size(), 98);
  PlainBooleanDecoder decoder;
  decoder.SetData(page.data(), page.size());
  std::vector<uint8_t> out(777);
  ASSERT_EQ(*decoder.Decode(out.data(), 3), 3);
  ASSERT_EQ(*decoder.Decode(out.data() + 3, 400), 400);
  std::vector<uint8_t> bitmap(60, 0);
  ASSERT_EQ(*decoder.DecodeBits(bitmap.data(), 5, 374), 374);
  for (int i = 0; i < 403; ++i) ASSERT_EQ(out[i], values[i]) << i;
  for (int i = 0; i < 374; ++i) ASSERT_EQ(bit_util::GetBit(bitmap.data(), 5 + i), values[403 + i] != 0) << i;
  // Padding bits of the last byte read as values, up to the byte boundary.
  EXPECT_EQ(*decoder.Skip(100), 784 - 777);
}

TEST(PlainTest, ByteArraysViewsAndInto) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(4);
  std::vector<std::string> strings(500);
  for (auto& s : strings) s.assign(rng() % 20, static_cast<char>('a' + rng() % 26));
  std::vector<ByteArrayView> in;
  for (auto& s : strings) in.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(PlainEncodeByteArrays(in.data(), 500, &page).ok());

  PlainByteArrayDecoder decoder;
  decoder.SetData(page.data(), page.size());
  std::vector<ByteArrayView> views(200);
  ASSERT_EQ(*decoder.Decode(views.data(), 200), 200);
  for (int i = 0; i < 200; ++i) ASSERT_EQ(views[i].view(), strings[i]);
  ASSERT_EQ(*decoder.Skip(50), 50);
  ResizableBuffer data(pool.get());
  std::vector<int32_t> offsets(301, 0);
  const int64_t allocations_before = pool->num_allocations() + pool->num_reallocations();
  ASSERT_EQ(*decoder.DecodeInto(500, offsets.data() + 1, &data), 250);
  EXPECT_EQ(pool->num_allocations() + pool->num_reallocations(), allocations_before + 1);  // one exact reserve
  for (int i = 0; i < 250; ++i) {
    std::string got(reinterpret_cast<const char*>(data.data()) + offsets[i], offsets[i + 1] - offsets[i]);
    ASSERT_EQ(got, strings[250 + i]) << i;
  }
  EXPECT_EQ(decoder.bytes_left(), 0);
}

TEST(PlainTest, ByteArrayMalformedLengths) {
  // Length 100 with 3 bytes behind it; a cut-off length; a "negative" length (0xFFFFFFFF).
  const uint8_t too_long[] = {100, 0, 0, 0, 'a', 'b', 'c'};
  const uint8_t cut_length[] = {1, 0, 0, 0, 'a', 2, 0};
  const uint8_t negative[] = {0xFF, 0xFF, 0xFF, 0xFF, 'a'};
  for (auto [data, size] : {std::pair{too_long, sizeof(too_long)}, std::pair{cut_length, sizeof(cut_length)},
                            std::pair{negative, sizeof(negative)}}) {
    PlainByteArrayDecoder decoder;
    decoder.SetData(data, static_cast<int64_t>(size), 1000);
    ByteArrayView views[4];
    auto r = decoder.Decode(views, 4);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsCorrupt());
    EXPECT_NE(r.status().message().find("offset 100"), std::string::npos) << r.status().ToString();
    decoder.SetData(data, static_cast<int64_t>(size), 1000);
    EXPECT_TRUE(decoder.Skip(4).status().IsCorrupt());
    auto pool = MakeSystemMemoryPool();
    ResizableBuffer out(pool.get());
    int64_t offsets[4];
    decoder.SetData(data, static_cast<int64_t>(size), 1000);
    EXPECT_TRUE(decoder.DecodeInto(4, offsets, &out).status().IsCorrupt());
    EXPECT_EQ(pool->num_allocations(), 0);  // rejected before anything was allocated
  }
}

}  // namespace
}  // namespace strata::parquet
