#include "strata/array/bitmap.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace strata::bitmap {
namespace {

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

TEST(BitmapTest, LsbFirstLayout) {
  uint8_t bits[2] = {0, 0};
  SetBit(bits, 0);
  SetBit(bits, 3);
  SetBit(bits, 9);
  EXPECT_EQ(bits[0], 0b00001001);
  EXPECT_EQ(bits[1], 0b00000010);
  ClearBit(bits, 3);
  EXPECT_EQ(bits[0], 0b00000001);
  SetBitTo(bits, 7, true);
  EXPECT_EQ(bits[0], 0b10000001);
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(1), 1);
  EXPECT_EQ(BytesForBits(8), 1);
  EXPECT_EQ(BytesForBits(9), 2);
}

TEST(BitmapTest, RandomizedAgainstBitByBitReference) {
  std::mt19937 rng(7);
  for (int round = 0; round < 500; ++round) {
    auto src = RandomBytes(40, static_cast<uint32_t>(round));
    auto dst = RandomBytes(40, static_cast<uint32_t>(round + 1000));
    auto expected = dst;
    const int64_t src_offset = rng() % 64;
    const int64_t dst_offset = rng() % 64;
    const int64_t length = rng() % 250;
    int64_t expected_count = 0;
    for (int64_t i = 0; i < length; ++i) {
      const bool bit = GetBit(src.data(), src_offset + i);
      expected_count += bit;
      SetBitTo(expected.data(), dst_offset + i, bit);
    }
    EXPECT_EQ(CountSetBits(src.data(), src_offset, length), expected_count);
    CopyBitmap(src.data(), src_offset, length, dst.data(), dst_offset);
    ASSERT_EQ(dst, expected) << "src_offset " << src_offset << " dst_offset " << dst_offset << " length " << length;
    EXPECT_TRUE(BitmapEquals(src.data(), src_offset, dst.data(), dst_offset, length));

    auto filled = RandomBytes(40, static_cast<uint32_t>(round + 2000));
    auto filled_expected = filled;
    const bool value = rng() & 1;
    for (int64_t i = 0; i < length; ++i) SetBitTo(filled_expected.data(), dst_offset + i, value);
    SetBitsTo(filled.data(), dst_offset, length, value);
    ASSERT_EQ(filled, filled_expected);
  }
}

TEST(BitmapTest, PackBools) {
  std::vector<uint8_t> bools = {1, 0, 0, 1, 1, 0, 1, 0, 1, 1, 0, 7};
  uint8_t bits[3] = {0xff, 0xff, 0xff};
  PackBools(bools.data(), static_cast<int64_t>(bools.size()), bits, 3);
  for (size_t i = 0; i < bools.size(); ++i) EXPECT_EQ(GetBit(bits, 3 + static_cast<int64_t>(i)), bools[i] != 0) << i;
  EXPECT_TRUE(GetBit(bits, 0));
  EXPECT_TRUE(GetBit(bits, 15));
}

TEST(BitmapTest, BitmapEqualsDetectsDifference) {
  auto a = RandomBytes(16, 1);
  auto b = a;
  EXPECT_TRUE(BitmapEquals(a.data(), 0, b.data(), 0, 128));
  SetBitTo(b.data(), 77, !GetBit(b.data(), 77));
  EXPECT_FALSE(BitmapEquals(a.data(), 0, b.data(), 0, 128));
  EXPECT_TRUE(BitmapEquals(a.data(), 0, b.data(), 0, 77));
  EXPECT_FALSE(BitmapEquals(a.data(), 3, b.data(), 3, 100));
}

}  // namespace
}  // namespace strata::bitmap
