#include "strata/parquet/encoding/delta_binary_packed.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

namespace strata::parquet {
namespace {

template <typename T>
std::vector<uint8_t> Encode(const std::vector<T>& values) {
  auto pool = MakeSystemMemoryPool();
  DeltaBinaryPackedEncoder<T> encoder(pool.get());
  EXPECT_TRUE(encoder.Put(values.data(), static_cast<int64_t>(values.size())).ok());
  ResizableBuffer out(pool.get());
  EXPECT_TRUE(encoder.FlushTo(&out).ok());
  return {out.data(), out.data() + out.size()};
}

TEST(DeltaBinaryPackedTest, SpecExample1WithRealBlockSize) {
  // Encodings.md example 1 (1..5) with a valid block: 128 values in 4 miniblocks.
  const std::vector<uint8_t> expected = {0x80, 0x01, 0x04, 0x05, 0x02,  // header, first value 1
                                         0x02, 0, 0, 0, 0};             // min delta 1, widths 0
  EXPECT_EQ(Encode<int32_t>({1, 2, 3, 4, 5}), expected);
  DeltaBinaryPackedDecoder<int32_t> decoder;
  ASSERT_TRUE(decoder.SetData(expected.data(), static_cast<int64_t>(expected.size())).ok());
  int32_t out[8];
  ASSERT_EQ(*decoder.Decode(out, 8), 5);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(out[i], i + 1);
  DeltaBinaryPackedDecoder<int32_t> probe;
  ASSERT_TRUE(probe.SetData(expected.data(), static_cast<int64_t>(expected.size())).ok());
  EXPECT_EQ(*probe.SkipToEnd(), static_cast<int64_t>(expected.size()));
}

TEST(DeltaBinaryPackedTest, SpecExample2WithRealBlockSize) {
  // Example 2: 7,5,3,1,2,3,4,5 -> min delta -2, relative deltas 0,0,0,3,3,3,3 on 2 bits, in a
  // 32-value miniblock padded to 8 bytes.
  std::vector<uint8_t> expected = {0x80, 0x01, 0x04, 0x08, 0x0E,  // header, first value 7
                                   0x03, 2, 0, 0, 0,              // min delta -2, widths
                                   0xC0, 0x3F, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(Encode<int64_t>({7, 5, 3, 1, 2, 3, 4, 5}), expected);
  DeltaBinaryPackedDecoder<int64_t> decoder;
  ASSERT_TRUE(decoder.SetData(expected.data(), static_cast<int64_t>(expected.size())).ok());
  int64_t out[8];
  ASSERT_EQ(*decoder.Decode(out, 8), 8);
  EXPECT_EQ(std::vector<int64_t>(out, out + 8), (std::vector<int64_t>{7, 5, 3, 1, 2, 3, 4, 5}));
  // The spec's own examples use block size 8, which real data must not: rejected.
  const uint8_t block8[] = {0x08, 0x01, 0x05, 0x02, 0x02, 0x00};
  EXPECT_TRUE(decoder.SetData(block8, sizeof(block8)).IsCorrupt());
}

template <typename T>
void RandomRoundTrip(uint32_t seed, int64_t n, int mode) {
  std::mt19937_64 rng(seed);
  std::vector<T> values(n);
  T v = 0;
  for (auto& x : values) {
    switch (mode) {
      case 0: x = static_cast<T>(rng()); break;                       // full range: wrapping
      case 1: v = static_cast<T>(v + static_cast<T>(rng() % 100)); x = v; break;  // sorted-ish
      case 2: x = static_cast<T>(rng() % 3 == 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max()); break;
      default: x = 42;
    }
  }
  auto bytes = Encode(values);
  bytes.push_back(0x77);  // whatever follows
  DeltaBinaryPackedDecoder<T> decoder;
  ASSERT_TRUE(decoder.SetData(bytes.data(), static_cast<int64_t>(bytes.size())).ok());
  EXPECT_EQ(decoder.total_values(), n);
  std::vector<T> out(n);
  int64_t pos = 0;
  std::mt19937 batches(seed);
  while (pos < n) {
    const int64_t batch = 1 + batches() % 300;
    if (batches() % 4 == 0) {
      auto skipped = decoder.Skip(batch);
      ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
      for (int64_t i = 0; i < *skipped; ++i) out[pos + i] = values[pos + i];
      pos += *skipped;
    } else {
      auto got = decoder.Decode(out.data() + pos, batch);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      pos += *got;
    }
  }
  ASSERT_EQ(out, values) << "mode " << mode << " n " << n;
  DeltaBinaryPackedDecoder<T> probe;
  ASSERT_TRUE(probe.SetData(bytes.data(), static_cast<int64_t>(bytes.size())).ok());
  EXPECT_EQ(*probe.SkipToEnd(), static_cast<int64_t>(bytes.size()) - 1);
}

TEST(DeltaBinaryPackedTest, RandomRoundTrips) {
  for (int mode = 0; mode < 4; ++mode) {
    for (int64_t n : {0, 1, 2, 31, 32, 33, 129, 1000, 5000}) {
      RandomRoundTrip<int32_t>(static_cast<uint32_t>(n * 10 + mode), n, mode);
      RandomRoundTrip<int64_t>(static_cast<uint32_t>(n * 10 + mode + 5), n, mode);
    }
  }
}

TEST(DeltaBinaryPackedTest, AcceptsGarbageWidthsOfUnusedMiniblocksAndShortLastMiniblock) {
  // 3 values: deltas 1, 1 -> min delta 1, widths {0, 99, 99, 99} (unused ones arbitrary).
  const uint8_t data[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x02, 0, 99, 99, 99};
  DeltaBinaryPackedDecoder<int64_t> decoder;
  ASSERT_TRUE(decoder.SetData(data, sizeof(data)).ok());
  int64_t out[3];
  ASSERT_EQ(*decoder.Decode(out, 3), 3);
  EXPECT_EQ(out[2], 2);
  // Width 8 miniblock cut after the 2 deltas actually needed (not padded to 32 bytes).
  const uint8_t cut[] = {0x80, 0x01, 0x04, 0x03, 0x00, 0x00, 8, 0, 0, 0, 5, 7};
  ASSERT_TRUE(decoder.SetData(cut, sizeof(cut)).ok());
  ASSERT_EQ(*decoder.Decode(out, 3), 3);
  EXPECT_EQ(out[1], 5);
  EXPECT_EQ(out[2], 12);
}

TEST(DeltaBinaryPackedTest, MalformedHeadersAndBlocks) {
  DeltaBinaryPackedDecoder<int32_t> d32;
  DeltaBinaryPackedDecoder<int64_t> d64;
  int32_t out[64];
  int64_t out64[64];
  // Block size 100: not a multiple of 128.
  const uint8_t bad_block[] = {0x64, 0x04, 0x02, 0x00, 0x00, 0, 0, 0, 0};
  EXPECT_TRUE(d32.SetData(bad_block, sizeof(bad_block)).IsCorrupt());
  // 3 miniblocks do not divide 128.
  const uint8_t bad_mini[] = {0x80, 0x01, 0x03, 0x02, 0x00, 0, 0, 0, 0};
  EXPECT_TRUE(d32.SetData(bad_mini, sizeof(bad_mini)).IsCorrupt());
  // 8 miniblocks of 16 values: not a multiple of 32.
  const uint8_t bad_mini16[] = {0x80, 0x01, 0x08, 0x02, 0x00};
  EXPECT_TRUE(d32.SetData(bad_mini16, sizeof(bad_mini16)).IsCorrupt());
  // Huge value count for a few bytes.
  const uint8_t huge[] = {0x80, 0x01, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00, 0x00, 0, 0, 0, 0};
  auto st = d32.SetData(huge, sizeof(huge));
  EXPECT_TRUE(st.IsCorrupt());
  EXPECT_NE(st.message().find("more than"), std::string::npos) << st.ToString();
  // Truncated header.
  const uint8_t cut[] = {0x80, 0x01, 0x04};
  EXPECT_TRUE(d32.SetData(cut, sizeof(cut)).IsCorrupt());
  // Bit width 33 for int32, 65 for int64.
  const uint8_t wide33[] = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 33, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_TRUE(d32.SetData(wide33, sizeof(wide33)).ok());
  EXPECT_TRUE(d32.Decode(out, 2).status().IsCorrupt());
  const uint8_t wide65[] = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  ASSERT_TRUE(d64.SetData(wide65, sizeof(wide65)).ok());
  EXPECT_TRUE(d64.Decode(out64, 2).status().IsCorrupt());
  // Width 32 is legitimate for int32 (wrapped deltas).
  std::vector<int32_t> extremes = {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max(),
                                   std::numeric_limits<int32_t>::min(), 0};
  auto bytes = Encode(extremes);
  ASSERT_TRUE(d32.SetData(bytes.data(), static_cast<int64_t>(bytes.size())).ok());
  ASSERT_EQ(*d32.Decode(out, 4), 4);
  EXPECT_EQ(std::vector<int32_t>(out, out + 4), extremes);
  // Miniblock data cut off.
  const uint8_t no_data[] = {0x80, 0x01, 0x04, 0x21, 0x00, 0x00, 8, 0, 0, 0, 1, 2, 3};
  ASSERT_TRUE(d64.SetData(no_data, sizeof(no_data)).ok());
  EXPECT_TRUE(d64.Decode(out64, 33).status().IsCorrupt());
}

TEST(DeltaBinaryPackedTest, RandomGarbageNeverCrashes) {
  std::mt19937 rng(99);
  std::vector<int64_t> out(400);
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> junk = {0x80, 0x01, static_cast<uint8_t>(1u << (rng() % 3)),
                                 static_cast<uint8_t>(rng() % 128)};
    const size_t extra = rng() % 60;
    for (size_t i = 0; i < extra; ++i) junk.push_back(static_cast<uint8_t>(rng() % 4 == 0 ? rng() : rng() % 70));
    DeltaBinaryPackedDecoder<int64_t> decoder;
    if (!decoder.SetData(junk.data(), static_cast<int64_t>(junk.size())).ok()) continue;
    auto r = decoder.Decode(out.data(), 400);
    if (!r.ok()) {
      EXPECT_TRUE(r.status().IsCorrupt());
    }
    DeltaBinaryPackedDecoder<int64_t> probe;
    ASSERT_TRUE(probe.SetData(junk.data(), static_cast<int64_t>(junk.size())).ok());
    auto end = probe.SkipToEnd();
    if (end.ok()) {
      EXPECT_LE(*end, static_cast<int64_t>(junk.size()));
    }
  }
}

}  // namespace
}  // namespace strata::parquet
