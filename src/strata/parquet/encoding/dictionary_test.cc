#include "strata/parquet/encoding/dictionary.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "strata/parquet/encoding/plain.h"
#include "strata/parquet/encoding/rle_bit_packed.h"

namespace strata::parquet {
namespace {

TEST(DictionaryTest, FixedWidthGatherFromEncodedIndices) {
  auto pool = MakeSystemMemoryPool();
  std::vector<int64_t> entries = {10, -20, 30, 1LL << 40, 50};
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(PlainEncodeFixed(entries.data(), 5, 8, &page).ok());
  auto dict = Dictionary::MakeFixedWidth(pool.get(), page.data(), page.size(), 5, 8);
  ASSERT_TRUE(dict.ok());
  page.Release();  // the dictionary owns a copy

  std::mt19937 rng(5);
  std::vector<int32_t> indices(1000);
  for (auto& i : indices) i = static_cast<int32_t>(rng() % 5);
  ResizableBuffer data_page(pool.get());
  ASSERT_TRUE(data_page.Append("\x03", 1).ok());  // bit width byte
  RleBitPackedEncoder encoder(pool.get(), 3);
  ASSERT_TRUE(encoder.Put(indices.data(), 1000).ok());
  ASSERT_TRUE(encoder.FlushTo(&data_page).ok());

  RleBitPackedDecoder decoder;
  ASSERT_TRUE(decoder.ResetForDictionaryIndices(data_page.data(), data_page.size()).ok());
  std::vector<int32_t> decoded(1000);
  ASSERT_EQ(*decoder.DecodeIndices(decoded.data(), 1000, (*dict)->size()), 1000);
  std::vector<int64_t> out(1000);
  (*dict)->Gather(decoded.data(), 1000, out.data());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(out[i], entries[indices[i]]);
  std::vector<uint8_t> bytes(8000);
  (*dict)->GatherFixedBytes(decoded.data(), 1000, bytes.data());
  EXPECT_EQ(std::memcmp(bytes.data(), out.data(), 8000), 0);
  EXPECT_GE((*dict)->memory_size(), 40);
}

TEST(DictionaryTest, ByteArrayViewsAndOffsets) {
  auto pool = MakeSystemMemoryPool();
  std::vector<std::string> entries = {"", "apple", "banana", "cherry pie"};
  std::vector<ByteArrayView> in;
  for (auto& s : entries) in.push_back({reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())});
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(PlainEncodeByteArrays(in.data(), 4, &page).ok());
  auto dict = Dictionary::MakeByteArray(pool.get(), page.data(), page.size(), 4);
  ASSERT_TRUE(dict.ok()) << dict.status().ToString();
  std::memset(page.mutable_data(), 0, page.size());  // views must not point into the page
  std::vector<int32_t> indices = {3, 0, 1, 2, 2, 1, 3};
  std::vector<ByteArrayView> views(7);
  (*dict)->GatherViews(indices.data(), 7, views.data());
  for (int i = 0; i < 7; ++i) EXPECT_EQ(views[i].view(), entries[indices[i]]);
  ResizableBuffer data(pool.get());
  std::vector<int64_t> offsets(8, 0);
  ASSERT_TRUE((*dict)->GatherInto(indices.data(), 7, offsets.data() + 1, &data).ok());
  std::string all(reinterpret_cast<const char*>(data.data()), data.size());
  EXPECT_EQ(all, "cherry pieapplebananabananaapplecherry pie");
  EXPECT_EQ(offsets[1], 10);
  EXPECT_EQ(offsets[2], 10);
  EXPECT_EQ(offsets[7], static_cast<int64_t>(all.size()));
}

TEST(DictionaryTest, MalformedPagesAreCorrupt) {
  auto pool = MakeSystemMemoryPool();
  const uint8_t page[] = {5, 0, 0, 0, 'a', 'b'};
  EXPECT_TRUE(Dictionary::MakeByteArray(pool.get(), page, 6, 1).status().IsCorrupt());
  // A huge declared count is rejected before allocating.
  EXPECT_TRUE(Dictionary::MakeByteArray(pool.get(), page, 6, 1LL << 40).status().IsCorrupt());
  EXPECT_TRUE(Dictionary::MakeFixedWidth(pool.get(), page, 6, 2, 4).status().IsCorrupt());
  EXPECT_TRUE(Dictionary::MakeFixedWidth(pool.get(), page, 6, -1, 4).status().IsCorrupt());
  EXPECT_EQ(pool->num_allocations(), 0);
}

}  // namespace
}  // namespace strata::parquet
