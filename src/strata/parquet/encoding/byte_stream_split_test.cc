#include "strata/parquet/encoding/byte_stream_split.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace strata::parquet {
namespace {

TEST(ByteStreamSplitTest, SpecExample) {
  // Three 4-byte values AA BB CC DD | 00 11 22 33 | A3 B4 C5 D6.
  const uint8_t values[] = {0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6};
  const uint8_t encoded[] = {0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6};
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer out(pool.get());
  ASSERT_TRUE(ByteStreamSplitEncode(values, 3, 4, &out).ok());
  ASSERT_EQ(out.size(), 12);
  EXPECT_EQ(std::memcmp(out.data(), encoded, 12), 0);
  ByteStreamSplitDecoder decoder;
  ASSERT_TRUE(decoder.SetData(encoded, 12, 4).ok());
  float floats[3];
  ASSERT_EQ(*decoder.Decode(floats, 3), 3);
  EXPECT_EQ(std::memcmp(floats, values, 12), 0);
}

TEST(ByteStreamSplitTest, RoundTripEveryWidthWithPartialReads) {
  auto pool = MakeSystemMemoryPool();
  std::mt19937 rng(8);
  for (int width : {1, 2, 3, 4, 5, 8, 12, 16, 17}) {
    const int64_t n = 1003;
    std::vector<uint8_t> values(n * width);
    for (auto& b : values) b = static_cast<uint8_t>(rng());
    ResizableBuffer page(pool.get());
    ASSERT_TRUE(ByteStreamSplitEncode(values.data(), n, width, &page).ok());
    ByteStreamSplitDecoder decoder;
    ASSERT_TRUE(decoder.SetData(page.data(), page.size(), width).ok());
    std::vector<uint8_t> out(values.size(), 0);
    ASSERT_EQ(*decoder.DecodeRaw(out.data(), 10), 10);
    ASSERT_EQ(*decoder.Skip(3), 3);
    ASSERT_EQ(*decoder.DecodeRaw(out.data() + 13 * width, 5000), n - 13);
    std::fill(values.begin() + 10 * width, values.begin() + 13 * width, 0);
    EXPECT_EQ(out, values) << width;
  }
}

TEST(ByteStreamSplitTest, TypedDecodeAndBadSizes) {
  std::vector<double> values = {1.5, -2.25, 1e300, 0.0};
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(ByteStreamSplitEncode(reinterpret_cast<const uint8_t*>(values.data()), 4, 8, &page).ok());
  ByteStreamSplitDecoder decoder;
  ASSERT_TRUE(decoder.SetData(page.data(), page.size(), 8).ok());
  float wrong[4];
  EXPECT_TRUE(decoder.Decode(wrong, 4).status().IsInvalid());
  double out[4];
  ASSERT_EQ(*decoder.Decode(out, 4), 4);
  EXPECT_EQ(std::vector<double>(out, out + 4), values);
  EXPECT_TRUE(decoder.SetData(page.data(), 31, 8).IsCorrupt());
  EXPECT_TRUE(decoder.SetData(page.data(), 31, 0).IsInvalid());
}

}  // namespace
}  // namespace strata::parquet
