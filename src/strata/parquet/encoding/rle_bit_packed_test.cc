#include "strata/parquet/encoding/rle_bit_packed.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "strata/util/bit_util.h"

namespace strata::parquet {
namespace {

// Values with runs of random lengths, so both RLE and bit-packed runs appear.
std::vector<uint32_t> RunnyValues(int64_t n, int width, uint32_t seed) {
  std::mt19937 rng(seed);
  const uint32_t mask = static_cast<uint32_t>(bit_util::LowBitsMask(width));
  std::vector<uint32_t> v;
  while (static_cast<int64_t>(v.size()) < n) {
    const uint32_t value = rng() & mask;
    const int64_t run = (rng() % 4 == 0) ? 1 + rng() % 40 : 1;
    for (int64_t i = 0; i < run && static_cast<int64_t>(v.size()) < n; ++i) v.push_back(value);
  }
  return v;
}

std::vector<uint8_t> Encode(const std::vector<uint32_t>& values, int width, bool prefix = false) {
  auto pool = MakeSystemMemoryPool();
  RleBitPackedEncoder encoder(pool.get(), width);
  EXPECT_TRUE(encoder.Put(values.data(), static_cast<int64_t>(values.size())).ok());
  ResizableBuffer out(pool.get());
  EXPECT_TRUE(encoder.FlushTo(&out, prefix).ok());
  return {out.data(), out.data() + out.size()};
}

TEST(RleBitPackedDecoderTest, SpecBitPackedExample) {
  // Encodings.md: 0..7 at width 3 as one bit-packed run of one group.
  const uint8_t data[] = {0x03, 0b10001000, 0b11000110, 0b11111010};
  RleBitPackedDecoder decoder;
  ASSERT_TRUE(decoder.Reset(data, sizeof(data), 3).ok());
  int16_t out[10];
  auto n = decoder.Decode(out, 10);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], i);
}

TEST(RleBitPackedDecoderTest, RleRunThenBitPackedRun) {
  // 10 x value 5 (header 10 << 1), then one bit-packed group 0..7, width 3.
  const uint8_t data[] = {0x14, 0x05, 0x03, 0b10001000, 0b11000110, 0b11111010};
  RleBitPackedDecoder decoder;
  ASSERT_TRUE(decoder.Reset(data, sizeof(data), 3).ok());
  uint8_t out[18];
  auto n = decoder.Decode(out, 18);
  ASSERT_TRUE(n.ok());
  ASSERT_EQ(*n, 18);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(out[i], 5);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[10 + i], i);
}

TEST(RleBitPackedEncoderTest, UsesRleForLongRuns) {
  std::vector<uint32_t> values(100, 4);
  auto bytes = Encode(values, 3);
  // One RLE run: header 100 << 1 = 200 (ULEB128 0xC8 0x01), value byte 4.
  EXPECT_EQ(bytes, (std::vector<uint8_t>{0xC8, 0x01, 0x04}));
}

template <typename T>
void CheckRoundTrip(int width, int64_t n, uint32_t seed) {
  auto values = RunnyValues(n, width, seed);
  auto bytes = Encode(values, width);
  RleBitPackedDecoder decoder;
  ASSERT_TRUE(decoder.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), width).ok());
  std::vector<T> out(values.size());
  std::mt19937 rng(seed);
  int64_t pos = 0;
  while (pos < n) {
    const int64_t batch = 1 + rng() % 100;
    if (rng() % 5 == 0) {
      auto skipped = decoder.Skip(std::min(batch, n - pos));
      ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
      for (int64_t i = 0; i < *skipped; ++i) out[pos + i] = static_cast<T>(values[pos + i]);
      pos += *skipped;
      if (*skipped == 0) break;
      continue;
    }
    auto got = decoder.Decode(out.data() + pos, std::min(batch, n - pos));
    ASSERT_TRUE(got.ok()) << got.status().ToString();
    ASSERT_GT(*got, 0);
    pos += *got;
  }
  ASSERT_EQ(pos, n);
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<T>(values[i])) << "width " << width << " i " << i;
  T extra;
  auto end = decoder.Decode(&extra, 1);
  ASSERT_TRUE(end.ok());
  // The final bit-packed group may be padded with up to 7 zeros; beyond that the data ends.
  EXPECT_LE(*end, 1);
}

TEST(RleBitPackedDecoderTest, RoundTripEveryWidthAndType) {
  for (int width = 0; width <= 32; ++width) {
    for (int64_t n : {1, 7, 8, 9, 100, 1000, 4099}) {
      CheckRoundTrip<uint32_t>(width, n, static_cast<uint32_t>(width * 1000 + n));
      CheckRoundTrip<int32_t>(width, n, static_cast<uint32_t>(width * 1000 + n + 1));
      if (width <= 15) CheckRoundTrip<int16_t>(width, n, static_cast<uint32_t>(width * 1000 + n + 2));
      if (width <= 8) CheckRoundTrip<uint8_t>(width, n, static_cast<uint32_t>(width * 1000 + n + 3));
    }
  }
}

TEST(RleBitPackedDecoderTest, LengthPrefixedBooleans) {
  std::vector<uint32_t> bools = RunnyValues(333, 1, 9);
  auto bytes = Encode(bools, 1, /*prefix=*/true);
  bytes.push_back(0xEE);  // whatever follows the RLE data
  RleBitPackedDecoder decoder;
  auto consumed = decoder.ResetWithLengthPrefix(bytes.data(), static_cast<int64_t>(bytes.size()), 1);
  ASSERT_TRUE(consumed.ok());
  EXPECT_EQ(*consumed, static_cast<int64_t>(bytes.size()) - 1);
  std::vector<uint8_t> out(bools.size());
  ASSERT_EQ(*decoder.Decode(out.data(), 333), 333);
  for (size_t i = 0; i < bools.size(); ++i) ASSERT_EQ(out[i], bools[i]);
}

TEST(RleBitPackedDecoderTest, DictionaryIndicesCheckedAgainstDictionarySize) {
  std::vector<uint32_t> indices = RunnyValues(500, 5, 10);  // values < 32
  auto runs = Encode(indices, 5);
  std::vector<uint8_t> page = {5};
  page.insert(page.end(), runs.begin(), runs.end());
  {
    RleBitPackedDecoder decoder;
    ASSERT_TRUE(decoder.ResetForDictionaryIndices(page.data(), static_cast<int64_t>(page.size())).ok());
    std::vector<int32_t> out(500);
    auto n = decoder.DecodeIndices(out.data(), 500, 32);
    ASSERT_TRUE(n.ok());
    for (int i = 0; i < 500; ++i) ASSERT_EQ(out[i], static_cast<int32_t>(indices[i]));
  }
  {
    RleBitPackedDecoder decoder;
    ASSERT_TRUE(decoder.ResetForDictionaryIndices(page.data(), static_cast<int64_t>(page.size())).ok());
    std::vector<int32_t> out(500);
    auto n = decoder.DecodeIndices(out.data(), 500, 20);
    ASSERT_FALSE(n.ok());
    EXPECT_TRUE(n.status().IsCorrupt());
    EXPECT_NE(n.status().message().find("out of range"), std::string::npos) << n.status().ToString();
  }
  const uint8_t bad_width[] = {33, 0x02, 0x00};
  RleBitPackedDecoder decoder;
  EXPECT_TRUE(decoder.ResetForDictionaryIndices(bad_width, 3).IsCorrupt());
}

TEST(RleBitPackedDecoderTest, DecodeValidityMatchesLevels) {
  for (int max_level : {1, 2, 3}) {
    const int width = BitWidthForMaxValue(max_level);
    std::vector<uint32_t> levels = RunnyValues(2000, width, 11 + max_level);
    for (auto& l : levels) l = std::min<uint32_t>(l, max_level);
    auto bytes = Encode(levels, width);
    RleBitPackedDecoder decoder;
    ASSERT_TRUE(decoder.Reset(bytes.data(), static_cast<int64_t>(bytes.size()), width).ok());
    std::vector<uint8_t> bitmap(300, 0xAA);
    int64_t valid = 0;
    int64_t pos = 0;
    for (int64_t batch : {1, 13, 500, 1486}) {
      auto n = decoder.DecodeValidity(batch, max_level, bitmap.data(), 3 + pos, &valid);
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      ASSERT_EQ(*n, batch);
      pos += batch;
    }
    int64_t expected_valid = 0;
    for (size_t i = 0; i < levels.size(); ++i) {
      const bool expect = levels[i] == static_cast<uint32_t>(max_level);
      expected_valid += expect;
      ASSERT_EQ(bit_util::GetBit(bitmap.data(), 3 + i), expect) << i;
    }
    EXPECT_EQ(valid, expected_valid);
    EXPECT_TRUE(bit_util::GetBit(bitmap.data(), 1));  // bits before the offset kept (0xAA)
  }
}

TEST(RleBitPackedDecoderTest, MalformedInputIsCorrupt) {
  RleBitPackedDecoder decoder;
  uint32_t out[64];
  // A bit-packed run of 2 groups at width 3 (6 bytes) with only 2 bytes present.
  const uint8_t truncated[] = {0x05, 0xFF, 0xFF};
  ASSERT_TRUE(decoder.Reset(truncated, sizeof(truncated), 3).ok());
  auto r = decoder.Decode(out, 16);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("offset 0"), std::string::npos) << r.status().ToString();
  // The 5 values whose bytes are present are still readable.
  ASSERT_TRUE(decoder.Reset(truncated, sizeof(truncated), 3).ok());
  EXPECT_EQ(*decoder.Decode(out, 5), 5);
  // Header varint cut off.
  const uint8_t cut_header[] = {0x80};
  ASSERT_TRUE(decoder.Reset(cut_header, 1, 3).ok());
  EXPECT_TRUE(decoder.Decode(out, 1).status().IsCorrupt());
  // Varint longer than 64 bits.
  const uint8_t long_header[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
  ASSERT_TRUE(decoder.Reset(long_header, sizeof(long_header), 3).ok());
  EXPECT_TRUE(decoder.Decode(out, 1).status().IsCorrupt());
  // RLE run longer than 2^31 - 1.
  const uint8_t huge_run[] = {0x80, 0x80, 0x80, 0x80, 0x10, 0x01};
  ASSERT_TRUE(decoder.Reset(huge_run, sizeof(huge_run), 1).ok());
  EXPECT_TRUE(decoder.Decode(out, 1).status().IsCorrupt());
  // RLE run whose value byte is missing.
  const uint8_t no_value[] = {0x08};
  ASSERT_TRUE(decoder.Reset(no_value, 1, 3).ok());
  EXPECT_TRUE(decoder.Decode(out, 1).status().IsCorrupt());
  // RLE value 9 does not fit in 3 bits.
  const uint8_t wide_value[] = {0x08, 0x09};
  ASSERT_TRUE(decoder.Reset(wide_value, 2, 3).ok());
  EXPECT_TRUE(decoder.Decode(out, 1).status().IsCorrupt());
  // Length prefix past the end.
  const uint8_t prefix[] = {0x10, 0, 0, 0, 0x02, 0x01};
  EXPECT_TRUE(decoder.ResetWithLengthPrefix(prefix, sizeof(prefix), 1).status().IsCorrupt());
  EXPECT_TRUE(decoder.ResetWithLengthPrefix(prefix, 3, 1).status().IsCorrupt());
  // Invalid width is the caller's mistake.
  EXPECT_TRUE(decoder.Reset(prefix, 1, 33).IsInvalid());
}

TEST(RleBitPackedDecoderTest, RandomGarbageNeverCrashes) {
  std::mt19937 rng(12);
  std::vector<uint32_t> out(512);
  for (int iter = 0; iter < 2000; ++iter) {
    std::vector<uint8_t> junk(1 + rng() % 40);
    for (auto& b : junk) b = static_cast<uint8_t>(rng());
    RleBitPackedDecoder decoder;
    ASSERT_TRUE(decoder.Reset(junk.data(), static_cast<int64_t>(junk.size()), rng() % 33).ok());
    for (int k = 0; k < 4; ++k) {
      auto r = (k % 2) ? decoder.Skip(rng() % 512) : decoder.Decode(out.data(), rng() % 512);
      if (!r.ok()) {
        EXPECT_TRUE(r.status().IsCorrupt());
        break;
      }
    }
  }
}

}  // namespace
}  // namespace strata::parquet
