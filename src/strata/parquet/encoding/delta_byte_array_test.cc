// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
#include "strata/parquet/encoding/delta_byte_array.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "strata/parquet/encoding/delta_length_byte_array.h"

namespace strata::parquet {
namespace {

std::vector<ByteArrayView> Views(const std::vector<std::string>& strings) {
  std::vector<ByteArrayView> views;
  for (auto& s : strings) views.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  return views;
}

std::vector<std::string> SortedishStrings(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::string> out;
  std::string prev;
  for (int64_t i = 0; i < n; ++i) {
    std::string s = prev.substr(0, prev.empty() ? 0 : rng() % (prev.size() + 1));
    const int add = static_cast<int>(rng() % 12);
    for (int k = 0; k < add; ++k) s.push_back(static_cast<char>('a' + rng() % 26));
    out.push_back(s);
    prev = s;
  }
  return out;
}

TEST(DeltaLengthByteArrayTest, SpecExample) {
  auto pool = MakeSystemMemoryPool();
  std::vector<std::string> strings = {"Hello", "World", "Foobar", "ABCDEF"};
  auto in = Views(strings);
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(DeltaLengthByteArrayEncode(pool.get(), in.data(), 4, &page).ok());
  const std::string tail = "HelloWorldFoobarABCDEF";
  ASSERT_GT(page.size(), static_cast<int64_t>(tail.size()));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(page.data()) + page.size() - tail.size(), tail.size()), tail);
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.SetData(page.data(), page.size()).ok());
  ByteArrayView out[4];
  ASSERT_EQ(*decoder.Decode(out, 10), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].view(), strings[i]);
  EXPECT_EQ(decoder.bytes_left(), 0);
}

TEST(DeltaLengthByteArrayTest, RandomRoundTripWithSkips) {
  auto pool = MakeSystemMemoryPool();
  auto strings = SortedishStrings(3000, 1);
  auto in = Views(strings);
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(DeltaLengthByteArrayEncode(pool.get(), in.data(), 3000, &page).ok());
  DeltaLengthByteArrayDecoder decoder;
  ASSERT_TRUE(decoder.SetData(page.data(), page.size()).ok());
  std::vector<ByteArrayView> out(3000);
  ASSERT_EQ(*decoder.Decode(out.data(), 1000), 1000);
  ASSERT_EQ(*decoder.Skip(700), 700);
  ASSERT_EQ(*decoder.Decode(out.data() + 1700, 5000), 1300);
  for (int i = 0; i < 3000; ++i) {
    if (i >= 1000 && i < 1700) continue;
    ASSERT_EQ(out[i].view(), strings[i]) << i;
  }
}

TEST(DeltaLengthByteArrayTest, LengthsPastTheEndOrNegative) {
  auto pool = MakeSystemMemoryPool();
  for (int32_t bad : {-1, 1000}) {
    DeltaBinaryPackedEncoder<int32_t> lengths(pool.get());
    std::vector<int32_t> l = {2, bad, 1};
    ASSERT_TRUE(lengths.Put(l.data(), 3).ok());
    ResizableBuffer page(pool.get());
    ASSERT_TRUE(lengths.FlushTo(&page).ok());
    ASSERT_TRUE(page.Append("abcdefgh", 8).ok());
    DeltaLengthByteArrayDecoder decoder;
    ASSERT_TRUE(decoder.SetData(page.data(), page.size()).ok());
    ByteArrayView out[3];
    auto r = decoder.Decode(out, 3);
    ASSERT_FALSE(r.ok());
    EXPECT_TRUE(r.status().IsCorrupt());
    EXPECT_NE(r.status().message().find("value 1"), std::string::npos) << r.status().ToString();
  }
}

TEST(DeltaByteArrayTest, SpecExample) {
  auto pool = MakeSystemMemoryPool();
  std::vector<std::string> strings = {"axis", "axle", "babble", "babyhood"};
  auto in = Views(strings);
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(DeltaByteArrayEncode(pool.get(), in.data(), 4, &page).ok());
  // Prefix lengths 0,2,0,3 then suffix lengths 4,2,6,5 then "axislebabbleyhood".
  const std::string tail = "axislebabbleyhood";
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(page.data()) + page.size() - tail.size(), tail.size()), tail);
  DeltaBinaryPackedDecoder<int32_t> prefixes;
  ASSERT_TRUE(prefixes.SetData(page.data(), page.size()).ok());
  int32_t p[4];
  ASSERT_EQ(*prefixes.Decode(p, 4), 4);
  EXPECT_EQ(std::vector<int32_t>(p, p + 4), (std::vector<int32_t>{0, 2, 0, 3}));

  DeltaByteArrayDecoder decoder(pool.get());
  ASSERT_TRUE(decoder.SetData(page.data(), page.size()).ok());
  ByteArrayView out[4];
  ASSERT_EQ(*decoder.Decode(out, 4), 4);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i].view(), strings[i]);
}

TEST(DeltaByteArrayTest, RandomRoundTripAcrossBatches) {
  auto pool = MakeSystemMemoryPool();
  auto strings = SortedishStrings(5000, 2);
  auto in = Views(strings);
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(DeltaByteArrayEncode(pool.get(), in.data(), 5000, &page).ok());
  DeltaByteArrayDecoder decoder(pool.get());
  ASSERT_TRUE(decoder.SetData(page.data(), page.size()).ok());
  std::mt19937 rng(3);
  std::vector<ByteArrayView> out(1000);
  int64_t pos = 0;
  while (pos < 5000) {
    const int64_t batch = 1 + rng() % 999;
    if (rng() % 4 == 0) {
      auto n = decoder.Skip(batch);
      ASSERT_TRUE(n.ok());
      pos += *n;
      continue;
    }
    auto n = decoder.Decode(out.data(), batch);
    ASSERT_TRUE(n.ok()) << n.status().ToString();
    for (int64_t i = 0; i < *n; ++i) ASSERT_EQ(out[i].view(), strings[pos + i]) << pos + i;
    pos += *n;
  }
  EXPECT_EQ(pos, 5000);
  EXPECT_EQ(decoder.values_left(), 0);
  EXPECT_GT(decoder.memory_size(), 0);
}

TEST(DeltaByteArrayTest, PrefixLongerThanPreviousValueIsCorrupt) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer page(pool.get());
  DeltaBinaryPackedEncoder<int32_t> prefixes(pool.get());
  std::vector<int32_t> p = {0, 5};  // previous value "ab" has only 2 bytes
  ASSERT_TRUE(prefixes.Put(p.data(), 2).ok());
  ASSERT_TRUE(prefixes.FlushTo(&page).ok());
  std::vector<std::string> suffixes = {"ab", "c"};
  auto sv = Views(suffixes);
  ASSERT_TRUE(DeltaLengthByteArrayEncode(pool.get(), sv.data(), 2, &page).ok());
  DeltaByteArrayDecoder decoder(pool.get());
  ASSERT_TRUE(decoder.SetData(page.data(), page.size()).ok());
  ByteArrayView out[2];
  auto r = decoder.Decode(out, 2);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().IsCorrupt());
  EXPECT_NE(r.status().message().find("prefix length 5"), std::string::npos) << r.status().ToString();

  // Prefix and suffix counts disagree.
  ResizableBuffer page2(pool.get());
  ASSERT_TRUE(prefixes.Put(p.data(), 1).ok());
  ASSERT_TRUE(prefixes.FlushTo(&page2).ok());
  ASSERT_TRUE(DeltaLengthByteArrayEncode(pool.get(), sv.data(), 2, &page2).ok());
  EXPECT_TRUE(decoder.SetData(page2.data(), page2.size()).IsCorrupt());
}

}  // namespace
}  // namespace strata::parquet
