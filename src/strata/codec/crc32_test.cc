#include "strata/codec/crc32.h"

#include <gtest/gtest.h>

#include <random>

#include "strata/codec/codec_test_util.h"

namespace strata::codec {
namespace {

using testing::AsBytes;
using testing::RandomBytes;

// Bit-at-a-time reference: reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF.
uint32_t ReferenceCrc32(std::span<const uint8_t> data, uint32_t seed = 0) {
  uint32_t crc = ~seed;
  for (uint8_t byte : data) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

TEST(Crc32Test, KnownVectors) {
  EXPECT_EQ(Crc32({}), 0u);
  EXPECT_EQ(Crc32(AsBytes("123456789")), 0xCBF43926u);  // the CRC catalogue's check value
  EXPECT_EQ(Crc32(AsBytes("The quick brown fox jumps over the lazy dog")), 0x414FA339u);
  EXPECT_EQ(Crc32(AsBytes("a")), 0xE8B7BE43u);
}

TEST(Crc32Test, MatchesTheBitwiseReference) {
  std::mt19937 rng(1);
  for (int trial = 0; trial < 200; ++trial) {
    const auto data = RandomBytes(rng() % 3000, trial);
    ASSERT_EQ(Crc32(data), ReferenceCrc32(data)) << "length " << data.size();
  }
  const auto large = RandomBytes(1 << 20, 99);
  EXPECT_EQ(Crc32(large), ReferenceCrc32(large));
}

TEST(Crc32Test, ComposesPiecewise) {
  const auto data = RandomBytes(10'000, 2);
  const std::span<const uint8_t> all(data);
  for (size_t cut : {size_t{0}, size_t{1}, size_t{7}, size_t{4096}, size_t{9999}, size_t{10'000}}) {
    EXPECT_EQ(Crc32(all.subspan(cut), Crc32(all.first(cut))), Crc32(all)) << "cut " << cut;
  }
  EXPECT_EQ(Crc32({}, 0x12345678u), 0x12345678u);
}

}  // namespace
}  // namespace strata::codec
