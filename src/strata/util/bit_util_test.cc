#include "strata/util/bit_util.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace strata::bit_util {
namespace {

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

TEST(BitUtilTest, GetSetClearLsbFirst) {
  uint8_t bits[2] = {0, 0};
  SetBit(bits, 0);
  SetBit(bits, 9);
  EXPECT_EQ(bits[0], 0x01);
  EXPECT_EQ(bits[1], 0x02);
  EXPECT_TRUE(GetBit(bits, 9));
  EXPECT_FALSE(GetBit(bits, 8));
  ClearBit(bits, 0);
  EXPECT_EQ(bits[0], 0);
  SetBitTo(bits, 7, true);
  EXPECT_EQ(bits[0], 0x80);
  SetBitTo(bits, 7, false);
  EXPECT_EQ(bits[0], 0);
  EXPECT_EQ(BytesForBits(0), 0);
  EXPECT_EQ(BytesForBits(1), 1);
  EXPECT_EQ(BytesForBits(8), 1);
  EXPECT_EQ(BytesForBits(9), 2);
}

TEST(BitUtilTest, CountSetBitsMatchesBitByBit) {
  auto bytes = RandomBytes(300, 1);
  for (int64_t offset = 0; offset < 70; offset += 3) {
    for (int64_t length : {0, 1, 5, 7, 8, 63, 64, 65, 200, 1000, 2300 - 70}) {
      int64_t expected = 0;
      for (int64_t i = 0; i < length; ++i) expected += GetBit(bytes.data(), offset + i);
      ASSERT_EQ(CountSetBits(bytes.data(), offset, length), expected)
          << "offset " << offset << " length " << length;
    }
  }
}

TEST(BitUtilTest, CopyBitmapAllOffsets) {
  auto src = RandomBytes(64, 2);
  for (int64_t src_off = 0; src_off < 17; ++src_off) {
    for (int64_t dst_off = 0; dst_off < 17; ++dst_off) {
      for (int64_t length : {0, 1, 3, 8, 9, 63, 64, 65, 129, 300}) {
        // Exactly-sized buffers so ASan catches any read or write past the ranges.
        std::vector<uint8_t> exact_src(src.begin(), src.begin() + BytesForBits(src_off + length));
        auto dst = RandomBytes(static_cast<size_t>(BytesForBits(dst_off + length)), 3);
        auto expected = dst;
        for (int64_t i = 0; i < length; ++i) {
          SetBitTo(expected.data(), dst_off + i, GetBit(exact_src.data(), src_off + i));
        }
        CopyBitmap(exact_src.data(), src_off, length, dst.data(), dst_off);
        ASSERT_EQ(dst, expected) << src_off << " " << dst_off << " " << length;
      }
    }
  }
}

TEST(BitUtilTest, SetBitsToPreservesNeighbours) {
  for (int64_t offset = 0; offset < 20; ++offset) {
    for (int64_t length : {0, 1, 6, 8, 13, 64, 77}) {
      for (bool value : {true, false}) {
        auto bits = RandomBytes(static_cast<size_t>(BytesForBits(offset + length) + 2), 4);
        auto expected = bits;
        for (int64_t i = 0; i < length; ++i) SetBitTo(expected.data(), offset + i, value);
        SetBitsTo(bits.data(), offset, length, value);
        ASSERT_EQ(bits, expected) << offset << " " << length << " " << value;
      }
    }
  }
}

TEST(BitUtilTest, ReadBitsAtEndOfBuffer) {
  std::vector<uint8_t> bytes = {0xAB, 0xCD, 0xEF};
  EXPECT_EQ(ReadBits(bytes.data(), 4, 20), 0xEFCDAu);
  EXPECT_EQ(ReadBits(bytes.data(), 23, 1), 1u);
  auto nine = RandomBytes(9, 5);
  uint64_t expected = 0;
  for (int i = 0; i < 64; ++i) expected |= static_cast<uint64_t>(GetBit(nine.data(), 3 + i)) << i;
  EXPECT_EQ(ReadBits(nine.data(), 3, 64), expected);
}

TEST(BitUtilTest, WriterAndReaderRoundTrip) {
  std::mt19937 rng(6);
  std::vector<bool> values(1000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = rng() & 1;
  std::vector<uint8_t> bits(200, 0xFF);
  BitmapWriter writer(bits.data(), 5);
  for (bool v : values) writer.Append(v);
  writer.Finish();
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(GetBit(bits.data(), i));  // preserved
  BitmapReader reader(bits.data(), 5);
  for (size_t i = 0; i < values.size(); ++i) ASSERT_EQ(reader.Next(), values[i]) << i;
}

}  // namespace
}  // namespace strata::bit_util
