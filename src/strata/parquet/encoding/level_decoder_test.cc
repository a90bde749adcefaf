#include "strata/parquet/encoding/level_decoder.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

std::vector<int16_t> RandomLevels(int64_t n, int16_t max_level, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int16_t> levels;
  while (static_cast<int64_t>(levels.size()) < n) {
    // Mostly max (non-null) runs, some mixed stretches.
    const int16_t level = (rng() % 3 == 0) ? static_cast<int16_t>(rng() % (max_level + 1)) : max_level;
    const int64_t run = 1 + rng() % 30;
    for (int64_t i = 0; i < run && static_cast<int64_t>(levels.size()) < n; ++i) {
      levels.push_back(rng() % 4 == 0 ? static_cast<int16_t>(rng() % (max_level + 1)) : level);
    }
  }
  return levels;
}

TEST(LevelDecoderTest, SpecBitPackedExample) {
  // Encodings.md deprecated BIT_PACKED: 0..7 at width 3 -> 00000101 00111001 01110111.
  const uint8_t data[] = {0b00000101, 0b00111001, 0b01110111};
  LevelDecoder decoder;
  auto used = decoder.SetDataV1(Encoding::kBitPacked, 7, 8, data, sizeof(data));
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, 3);
  int16_t levels[8];
  ASSERT_TRUE(decoder.Decode(levels, 8).ok());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(levels[i], i);
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer encoded(pool.get());
  ASSERT_TRUE(EncodeLevelsBitPacked(levels, 8, 7, &encoded).ok());
  ASSERT_EQ(encoded.size(), 3);
  EXPECT_EQ(std::memcmp(encoded.data(), data, 3), 0);
}

TEST(LevelDecoderTest, RoundTripsV1V2AndBitPacked) {
  auto pool = MakeSystemMemoryPool();
  for (int16_t max_level : {1, 2, 3, 7, 100}) {
    const int64_t n = 3001;
    auto levels = RandomLevels(n, max_level, max_level);
    for (int variant = 0; variant < 3; ++variant) {
      ResizableBuffer encoded(pool.get());
      if (variant == 2) {
        ASSERT_TRUE(EncodeLevelsBitPacked(levels.data(), n, max_level, &encoded).ok());
      } else {
        ASSERT_TRUE(EncodeLevelsRle(pool.get(), levels.data(), n, max_level, variant == 0, &encoded).ok());
      }
      const int64_t levels_size = encoded.size();
      ASSERT_TRUE(encoded.Append("tail", 4).ok());  // the values that follow
      LevelDecoder decoder;
      if (variant == 1) {
        ASSERT_TRUE(decoder.SetDataV2(max_level, n, encoded.data(), levels_size).ok());
      } else {
        auto used = decoder.SetDataV1(variant == 0 ? Encoding::kRle : Encoding::kBitPacked, max_level,
                                      n, encoded.data(), encoded.size());
        ASSERT_TRUE(used.ok()) << used.status().ToString();
        EXPECT_EQ(*used, levels_size);
      }
      std::vector<int16_t> out(n);
      ASSERT_TRUE(decoder.Decode(out.data(), 1000).ok());
      ASSERT_TRUE(decoder.Skip(1).ok());
      out[1000] = levels[1000];
      std::vector<uint8_t> validity(bit_util::BytesForBits(2000) + 1, 0);
      auto valid = decoder.DecodeValidity(2000, validity.data(), 0);
      ASSERT_TRUE(valid.ok()) << valid.status().ToString();
      for (int64_t i = 0; i < 1000; ++i) ASSERT_EQ(out[i], levels[i]) << i;
      int64_t expected_valid = 0;
      for (int64_t i = 0; i < 2000; ++i) {
        const bool is_max = levels[1001 + i] == max_level;
        expected_valid += is_max;
        ASSERT_EQ(bit_util::GetBit(validity.data(), i), is_max) << i;
      }
      EXPECT_EQ(*valid, expected_valid);
      EXPECT_EQ(decoder.levels_remaining(), 0);
      EXPECT_TRUE(decoder.Decode(out.data(), 1).IsCorrupt());  // past the page's count
      EXPECT_EQ(CountLevelsEqual(levels.data(), n, max_level),
                std::count(levels.begin(), levels.end(), max_level));
    }
  }
}

TEST(LevelDecoderTest, MaxLevelZeroStoresNothing) {
  LevelDecoder decoder;
  auto used = decoder.SetDataV1(Encoding::kRle, 0, 10, nullptr, 0);
  ASSERT_TRUE(used.ok());
  EXPECT_EQ(*used, 0);
  uint8_t validity[2] = {0, 0};
  EXPECT_EQ(*decoder.DecodeValidity(10, validity, 0), 10);
  EXPECT_EQ(validity[0], 0xFF);
  EXPECT_EQ(validity[1], 0x03);
}

TEST(LevelDecoderTest, RejectsLevelsAboveMaxAndShortData) {
  auto pool = MakeSystemMemoryPool();
  std::vector<int16_t> levels = {0, 1, 2, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  ResizableBuffer encoded(pool.get());
  ASSERT_TRUE(EncodeLevelsRle(pool.get(), levels.data(), 13, 3, true, &encoded).ok());
  LevelDecoder decoder;
  // Declared maximum 2 but a level 3 is present (width is still 2 bits).
  ASSERT_TRUE(decoder.SetDataV1(Encoding::kRle, 2, 13, encoded.data(), encoded.size()).ok());
  std::vector<int16_t> out(13);
  EXPECT_TRUE(decoder.Decode(out.data(), 13).IsCorrupt());
  ASSERT_TRUE(decoder.SetDataV1(Encoding::kRle, 2, 13, encoded.data(), encoded.size()).ok());
  std::vector<uint8_t> validity(2);
  EXPECT_TRUE(decoder.DecodeValidity(13, validity.data(), 0).status().IsCorrupt());
  // The page claims more levels than the data holds.
  ASSERT_TRUE(decoder.SetDataV1(Encoding::kRle, 3, 100, encoded.data(), encoded.size()).ok());
  out.resize(100);
  EXPECT_TRUE(decoder.Decode(out.data(), 100).IsCorrupt());
  // BIT_PACKED with too few bytes for the declared count.
  EXPECT_TRUE(decoder.SetDataV1(Encoding::kBitPacked, 3, 100, encoded.data(), 4).status().IsCorrupt());
  EXPECT_TRUE(decoder.SetDataV1(Encoding::kPlain, 3, 10, encoded.data(), 4).status().IsNotImplemented());
}

}  // namespace
}  // namespace strata::parquet

namespace strata::parquet {
namespace {

// Definition levels written straight from a validity bitmap decode to that bitmap, for every
// density (long runs of nulls or values become RLE runs, the rest literal bytes) and length.
TEST(BitmapLevelsTest, DecodeToTheBitmapTheyCameFrom) {
  std::mt19937_64 random(7);
  for (double density : {0.0, 0.02, 0.5, 0.9, 0.999, 1.0}) {
    for (int64_t n : {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{9}, int64_t{255}, int64_t{1000}, int64_t{20001}}) {
      std::vector<uint8_t> bits(static_cast<size_t>((n + 7) / 8) + 1, 0xA5);  // garbage past n
      std::vector<int16_t> expected(static_cast<size_t>(n));
      std::bernoulli_distribution valid(density);
      for (int64_t i = 0; i < n; ++i) {
        const bool v = (i / 300) % 3 == 0 ? true : valid(random);  // stretches of runs too
        expected[static_cast<size_t>(i)] = v ? 1 : 0;
        if (v) {
          bits[static_cast<size_t>(i / 8)] |= static_cast<uint8_t>(1u << (i % 8));
        } else {
          bits[static_cast<size_t>(i / 8)] &= static_cast<uint8_t>(~(1u << (i % 8)));
        }
      }
      for (bool v1 : {true, false}) {
        ResizableBuffer out(SystemMemoryPool());
        ASSERT_TRUE(EncodeBitmapLevels(bits.data(), n, v1, &out).ok());
        LevelDecoder decoder;
        if (v1) {
          auto used = decoder.SetDataV1(Encoding::kRle, 1, n, out.data(), out.size());
          ASSERT_TRUE(used.ok()) << used.status().ToString();
          EXPECT_EQ(*used, out.size());
        } else {
          ASSERT_TRUE(decoder.SetDataV2(1, n, out.data(), out.size()).ok());
        }
        std::vector<int16_t> got(static_cast<size_t>(n));
        ASSERT_TRUE(decoder.Decode(got.data(), n).ok()) << density << " " << n;
        EXPECT_EQ(got, expected) << density << " " << n << " v1=" << v1;
        // Never larger than the general encoder's output by more than a few header bytes.
        ResizableBuffer general(SystemMemoryPool());
        ASSERT_TRUE(EncodeLevelsRle(SystemMemoryPool(), expected.data(), n, 1, v1, &general).ok());
        EXPECT_LE(out.size(), general.size() + 8 + n / 64) << density << " " << n;
      }
    }
  }
}

// A run of 4 or more 0x00 / 0xFF bytes becomes an RLE run wherever it starts (the encoder looks
// at eight bytes at a time); shorter ones stay in the literal.
TEST(BitmapLevelsTest, RunsOfFourBytesAreFoundAtEveryOffset) {
  constexpr int64_t kBytes = 40;
  for (uint8_t run_byte : {uint8_t{0x00}, uint8_t{0xFF}}) {
    for (int64_t at = 0; at + 7 <= kBytes; ++at) {
      for (int64_t length = 1; length <= 7; ++length) {
        std::vector<uint8_t> bits(kBytes, 0x5A);
        std::fill_n(bits.begin() + at, length, run_byte);
        ResizableBuffer out(SystemMemoryPool());
        ASSERT_TRUE(EncodeBitmapLevels(bits.data(), kBytes * 8, /*length_prefix=*/false, &out).ok());
        // One-byte headers: a literal of k bytes is 1 + k, a run of up to 7 bytes is 2.
        const int64_t rest = kBytes - at - length;
        const int64_t expected = length >= 4 ? (at > 0 ? 1 + at : 0) + 2 + (rest > 0 ? 1 + rest : 0) : 1 + kBytes;
        EXPECT_EQ(out.size(), expected) << "run of " << length << " at " << at;
      }
    }
  }
}

}  // namespace
}  // namespace strata::parquet
