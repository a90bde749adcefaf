#include "strata/util/bit_unpack.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "strata/util/bit_util.h"

namespace strata::bit_util {
namespace {

// The reference: value i is bits [i * width, (i + 1) * width) of the input, LSB first.
uint64_t ReferenceValue(const uint8_t* in, int64_t i, int width) {
  uint64_t v = 0;
  for (int b = 0; b < width; ++b) v |= static_cast<uint64_t>(GetBit(in, i * width + b)) << b;
  return v;
}

// Copies `bytes` into a heap block of exactly that size at an odd address, so ASan reports any
// read past BytesForBits(count * width) and the loads are unaligned.
struct ExactInput {
  ExactInput(const std::vector<uint8_t>& bytes, int misalign)
      : storage(new uint8_t[bytes.size() + misalign]) {
    data = storage.get() + misalign;
    std::copy(bytes.begin(), bytes.end(), data);
  }
  std::unique_ptr<uint8_t[]> storage;
  uint8_t* data;
};

class UnpackTest : public ::testing::TestWithParam<int> {};

TEST_P(UnpackTest, MatchesReferenceForManyCounts) {
  const int width = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(width) * 7919);
  for (int64_t count : {0, 1, 2, 7, 8, 9, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 1000, 1029}) {
    const int64_t bytes = BytesForBits(count * width);
    std::vector<uint8_t> raw(static_cast<size_t>(bytes));
    for (auto& b : raw) b = static_cast<uint8_t>(rng());
    for (int misalign : {0, 1, 3}) {
      ExactInput input(raw, misalign);
      std::vector<uint64_t> out64(static_cast<size_t>(count) + 1, 0xDEADBEEF);
      Unpack64(input.data, out64.data(), count, width);
      for (int64_t i = 0; i < count; ++i) {
        ASSERT_EQ(out64[i], ReferenceValue(input.data, i, width)) << "width " << width << " count " << count << " i " << i;
      }
      EXPECT_EQ(out64[count], 0xDEADBEEFu);  // nothing written past count
      if (width <= 32) {
        std::vector<uint32_t> out32(static_cast<size_t>(count) + 1, 0xDEADBEEF);
        Unpack32(input.data, out32.data(), count, width);
        for (int64_t i = 0; i < count; ++i) {
          ASSERT_EQ(out32[i], ReferenceValue(input.data, i, width)) << "width " << width << " count " << count << " i " << i;
        }
        EXPECT_EQ(out32[count], 0xDEADBEEFu);
      }
    }
  }
}

TEST_P(UnpackTest, PackRoundTrip) {
  const int width = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(width) + 11);
  const int64_t count = 517;
  std::vector<uint64_t> values(count);
  for (auto& v : values) v = rng() & LowBitsMask(width);
  std::vector<uint8_t> packed(static_cast<size_t>(BytesForBits(count * width)));
  Pack64(values.data(), count, width, packed.data());
  std::vector<uint64_t> back(count);
  Unpack64(packed.data(), back.data(), count, width);
  EXPECT_EQ(back, values);
  if (width <= 32) {
    std::vector<uint32_t> v32(values.begin(), values.end());
    std::vector<uint8_t> packed32(packed.size());
    Pack32(v32.data(), count, width, packed32.data());
    EXPECT_EQ(packed32, packed);
  }
}

TEST_P(UnpackTest, ReadableBytesHintGivesSameValues) {
  const int width = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(width) + 3);
  for (int64_t count : {8, 32, 40, 100}) {
    // Packed values followed by unrelated bytes that may be read but must not leak into values.
    const int64_t bytes = BytesForBits(count * width);
    std::vector<uint8_t> raw(static_cast<size_t>(bytes + 16));
    for (auto& b : raw) b = static_cast<uint8_t>(rng());
    std::vector<uint64_t> exact(count), hinted(count);
    Unpack64(raw.data(), exact.data(), count, width);
    Unpack64(raw.data(), hinted.data(), count, width, bytes + 16);
    ASSERT_EQ(exact, hinted) << width << " " << count;
    for (int64_t i = 0; i < count; ++i) ASSERT_EQ(exact[i], ReferenceValue(raw.data(), i, width));
  }
}

INSTANTIATE_TEST_SUITE_P(AllWidths, UnpackTest, ::testing::Range(0, 65));

TEST(UnpackTest, SpecExampleWidth3) {
  // Encodings.md: 0..7 with bit width 3 packs to 10001000 11000110 11111010.
  const uint8_t packed[] = {0b10001000, 0b11000110, 0b11111010};
  uint32_t out[8];
  Unpack32(packed, out, 8, 3);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
  uint32_t values[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  uint8_t repacked[3];
  Pack32(values, 8, 3, repacked);
  EXPECT_EQ(repacked[0], packed[0]);
  EXPECT_EQ(repacked[1], packed[1]);
  EXPECT_EQ(repacked[2], packed[2]);
}

}  // namespace
}  // namespace strata::bit_util
