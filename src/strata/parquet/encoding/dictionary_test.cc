#include "strata/parquet/encoding/dictionary.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
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

// ---- DictionaryEncoder ------------------------------------------------------------------------

std::unique_ptr<DictionaryEncoder> MakeEncoder(MemoryPool* pool, int value_width) {
  auto encoder = DictionaryEncoder::Make(pool, value_width);
  EXPECT_TRUE(encoder.ok()) << encoder.status().ToString();
  return std::move(encoder).ValueOrDie();
}

// The reference: each distinct value (as bytes) numbered in first-seen order.
struct FirstSeen {
  std::map<std::string, int32_t> index_of;
  std::vector<std::string> entries;
  int32_t Put(const std::string& value) {
    auto [it, inserted] = index_of.emplace(value, static_cast<int32_t>(entries.size()));
    if (inserted) entries.push_back(value);
    return it->second;
  }
};

// Writes the encoder's PLAIN body, decodes it with the reader's Dictionary and checks the
// entries, byte for byte, against `expected`.
void ExpectPlainRoundTrip(MemoryPool* pool, const DictionaryEncoder& encoder,
                          const std::vector<std::string>& expected, int value_width) {
  ResizableBuffer page(pool);
  ASSERT_TRUE(page.Append("xy", 2).ok());  // WritePlain appends after what is there
  ASSERT_TRUE(encoder.WritePlain(&page).ok());
  ASSERT_EQ(page.size(), 2 + encoder.plain_size());
  ASSERT_EQ(encoder.num_entries(), static_cast<int64_t>(expected.size()));
  const int64_t n = encoder.num_entries();
  auto dict = value_width > 0
                  ? Dictionary::MakeFixedWidth(pool, page.data() + 2, page.size() - 2, n, value_width)
                  : Dictionary::MakeByteArray(pool, page.data() + 2, page.size() - 2, n);
  ASSERT_TRUE(dict.ok()) << dict.status().ToString();
  std::vector<int32_t> all(n);
  for (int64_t i = 0; i < n; ++i) all[i] = static_cast<int32_t>(i);
  std::vector<ByteArrayView> views(n);
  (*dict)->GatherViews(all.data(), n, views.data());
  for (int64_t i = 0; i < n; ++i) ASSERT_EQ(views[i].view(), expected[i]) << "entry " << i;
}

std::string Bytes(const void* p, size_t n) { return std::string(static_cast<const char*>(p), n); }

// Fixed-width values drawn from a small pool, put in several calls: indices and first-seen order
// against the reference, then the page decoded back.
void CheckFixedWidth(int width, int distinct, int64_t count, uint32_t seed) {
  SCOPED_TRACE("width " + std::to_string(width));
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), width);
  std::mt19937 rng(seed);
  std::vector<std::string> choices(distinct);
  for (auto& c : choices) {
    c.resize(width);
    for (auto& byte : c) byte = static_cast<char>(rng());
  }
  // Width 1 and 2 cannot hold `distinct` different values: the reference sorts that out.
  std::string values;
  for (int64_t i = 0; i < count; ++i) values += choices[rng() % distinct];
  FirstSeen reference;
  std::vector<int32_t> expected(count);
  for (int64_t i = 0; i < count; ++i) expected[i] = reference.Put(values.substr(i * width, width));
  std::vector<int32_t> indices(count, -7);
  int64_t done = 0;
  for (int64_t batch : {int64_t{1}, int64_t{100}, count}) {
    batch = std::min(batch, count - done);
    ASSERT_TRUE(encoder->PutFixed(values.data() + done * width, batch, indices.data() + done).ok());
    done += batch;
  }
  ASSERT_EQ(indices, expected);
  EXPECT_EQ(encoder->plain_size(), encoder->num_entries() * width);
  ExpectPlainRoundTrip(pool.get(), *encoder, reference.entries, width);
}

TEST(DictionaryEncoderTest, FixedWidthIndicesInFirstSeenOrder) {
  // 4 and 8 take the specialised loops, the rest the generic one (INT96, odd FLBA widths, UUID).
  for (int width : {4, 8, 12, 1, 2, 3, 5, 7, 9, 13, 16, 17, 33}) CheckFixedWidth(width, 300, 5000, width);
}

TEST(DictionaryEncoderTest, Int32AndInt64Exact) {
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), 4);
  std::vector<int32_t> values = {7, -1, 7, 0, -1, 42, 0, 7};
  std::vector<int32_t> indices(values.size());
  ASSERT_TRUE(encoder->PutFixed(values.data(), 8, indices.data()).ok());
  EXPECT_EQ(indices, (std::vector<int32_t>{0, 1, 0, 2, 1, 3, 2, 0}));
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(encoder->WritePlain(&page).ok());
  std::vector<int32_t> entries(4);
  ASSERT_EQ(page.size(), 16);
  std::memcpy(entries.data(), page.data(), 16);
  EXPECT_EQ(entries, (std::vector<int32_t>{7, -1, 0, 42}));

  auto encoder64 = MakeEncoder(pool.get(), 8);
  std::vector<int64_t> values64 = {1LL << 40, 2LL << 40, 1LL << 40, 1, std::numeric_limits<int64_t>::min()};
  std::vector<int32_t> indices64(5);
  ASSERT_TRUE(encoder64->PutFixed(values64.data(), 5, indices64.data()).ok());
  EXPECT_EQ(indices64, (std::vector<int32_t>{0, 1, 0, 2, 3}));
  EXPECT_EQ(encoder64->plain_size(), 32);
}

TEST(DictionaryEncoderTest, FloatsAreComparedByTheirBits) {
  auto pool = MakeSystemMemoryPool();
  const double quiet_nan = std::bit_cast<double>(0x7ff8000000000000ULL);
  const double negative_nan = std::bit_cast<double>(0xfff8000000000000ULL);
  const double payload_nan = std::bit_cast<double>(0x7ff8000000000001ULL);
  std::vector<double> doubles = {0.0, -0.0, quiet_nan, 0.0, negative_nan, quiet_nan, payload_nan, -0.0, 1.0};
  std::vector<int32_t> indices(doubles.size());
  auto encoder = MakeEncoder(pool.get(), 8);
  ASSERT_TRUE(encoder->PutFixed(doubles.data(), 9, indices.data()).ok());
  EXPECT_EQ(indices, (std::vector<int32_t>{0, 1, 2, 0, 3, 2, 4, 1, 5}));
  FirstSeen reference;
  for (double d : doubles) reference.Put(Bytes(&d, 8));
  ExpectPlainRoundTrip(pool.get(), *encoder, reference.entries, 8);

  const float nan_a = std::bit_cast<float>(0x7fc00000U);
  const float nan_b = std::bit_cast<float>(0x7fc00001U);
  std::vector<float> floats = {-0.0f, 0.0f, nan_a, nan_b, nan_a, -0.0f};
  auto encoder32 = MakeEncoder(pool.get(), 4);
  std::vector<int32_t> indices32(floats.size());
  ASSERT_TRUE(encoder32->PutFixed(floats.data(), 6, indices32.data()).ok());
  EXPECT_EQ(indices32, (std::vector<int32_t>{0, 1, 2, 3, 2, 0}));
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(encoder32->WritePlain(&page).ok());
  ASSERT_EQ(page.size(), 16);
  uint32_t bits[4];
  std::memcpy(bits, page.data(), 16);
  EXPECT_EQ(bits[0], 0x80000000U);
  EXPECT_EQ(bits[1], 0U);
  EXPECT_EQ(bits[2], 0x7fc00000U);
  EXPECT_EQ(bits[3], 0x7fc00001U);
}

ByteArrayView View(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), static_cast<uint32_t>(s.size())};
}

TEST(DictionaryEncoderTest, ByteArraysIncludingEmptyAndLengthOnlyDifferences) {
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), 0);
  const std::string nul("\0", 1);
  const std::string nul2("\0\0", 2);
  std::vector<std::string> values = {"", "a", "ab", "abc", "abcdefgh", "abcdefghi", "abcdefgh", "", nul,
                                     nul2, "a", std::string(16, 'z'), std::string(17, 'z'),
                                     std::string(33, 'z'), std::string(16, 'z'), nul};
  std::vector<ByteArrayView> views;
  for (auto& v : values) views.push_back(View(v));
  views.push_back(ByteArrayView{});  // the empty string with a null pointer: same entry as ""
  std::vector<int32_t> indices(views.size(), -7);
  ASSERT_TRUE(encoder->PutByteArrays(views.data(), static_cast<int64_t>(views.size()), indices.data()).ok());
  EXPECT_EQ(indices, (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 4, 0, 6, 7, 1, 8, 9, 10, 8, 6, 0}));
  FirstSeen reference;
  int64_t expected_size = 0;
  for (auto& v : values) {
    if (reference.index_of.count(v) == 0) expected_size += 4 + static_cast<int64_t>(v.size());
    reference.Put(v);
  }
  EXPECT_EQ(encoder->plain_size(), expected_size);
  ExpectPlainRoundTrip(pool.get(), *encoder, reference.entries, 0);
}

TEST(DictionaryEncoderTest, ByteArraysAgainstReference) {
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), 0);
  std::mt19937 rng(11);
  // Strings sharing prefixes and lengths (0..40 bytes over a 3-letter alphabet), so hash
  // buckets and the length and byte comparisons all get exercised, across several table sizes.
  std::vector<std::string> values(50000);
  for (auto& v : values) {
    v.resize(rng() % 41);
    for (auto& c : v) c = static_cast<char>('a' + rng() % 3);
  }
  FirstSeen reference;
  std::vector<int32_t> expected;
  for (auto& v : values) expected.push_back(reference.Put(v));
  std::vector<ByteArrayView> views;
  for (auto& v : values) views.push_back(View(v));
  std::vector<int32_t> indices(values.size());
  ASSERT_TRUE(encoder->PutByteArrays(views.data(), 25000, indices.data()).ok());
  ASSERT_TRUE(encoder->PutByteArrays(views.data() + 25000, 25000, indices.data() + 25000).ok());
  ASSERT_EQ(indices, expected);
  EXPECT_GT(encoder->num_entries(), 10000);
  ExpectPlainRoundTrip(pool.get(), *encoder, reference.entries, 0);
}

TEST(DictionaryEncoderTest, TableGrowsAcrossManyResizes) {
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), 8);
  constexpr int64_t kDistinct = 1 << 20;
  // Keys differing only in high bits, the pattern a weak hash clusters.
  std::vector<int64_t> values(kDistinct);
  for (int64_t i = 0; i < kDistinct; ++i) values[i] = (i << 40) ^ (i * 3);
  std::vector<int32_t> indices(kDistinct);
  ASSERT_TRUE(encoder->PutFixed(values.data(), kDistinct, indices.data()).ok());
  ASSERT_EQ(encoder->num_entries(), kDistinct);
  for (int64_t i = 0; i < kDistinct; ++i) ASSERT_EQ(indices[i], i);
  // Every value again, in reverse: all found, none added.
  std::vector<int64_t> reversed(values.rbegin(), values.rend());
  ASSERT_TRUE(encoder->PutFixed(reversed.data(), kDistinct, indices.data()).ok());
  ASSERT_EQ(encoder->num_entries(), kDistinct);
  for (int64_t i = 0; i < kDistinct; ++i) ASSERT_EQ(indices[i], kDistinct - 1 - i);
  EXPECT_EQ(encoder->index_bit_width(), 20);
  ResizableBuffer page(pool.get());
  ASSERT_TRUE(encoder->WritePlain(&page).ok());
  ASSERT_EQ(page.size(), kDistinct * 8);
  EXPECT_EQ(std::memcmp(page.data(), values.data(), kDistinct * 8), 0);
  // A quarter full: 2^22 slots of 4 bytes, plus the 8 MiB of entries; nothing else.
  EXPECT_EQ(encoder->memory_size(), (16 << 20) + (8 << 20));
  EXPECT_EQ(encoder->memory_size(), pool->bytes_in_use() - page.capacity());
}

TEST(DictionaryEncoderTest, IndexBitWidth) {
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), 4);
  EXPECT_EQ(encoder->index_bit_width(), 0);
  int32_t next = 0;
  int32_t index;
  auto grow_to = [&](int32_t entries) {
    for (; next < entries; ++next) ASSERT_TRUE(encoder->PutFixed(&next, 1, &index).ok());
    ASSERT_EQ(encoder->num_entries(), entries);
  };
  const std::vector<std::pair<int32_t, int>> expected = {{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {256, 8}, {257, 9}};
  for (auto [entries, width] : expected) {
    grow_to(entries);
    EXPECT_EQ(encoder->index_bit_width(), width) << entries << " entries";
  }
}

TEST(DictionaryEncoderTest, ClearKeepsCapacity) {
  auto pool = MakeSystemMemoryPool();
  auto check_pool = MakeSystemMemoryPool();  // for the round trip, apart from the counted pool
  auto ints = MakeEncoder(pool.get(), 8);
  auto strings = MakeEncoder(pool.get(), 0);
  auto flba = MakeEncoder(pool.get(), 12);
  constexpr int64_t kCount = 20000;
  constexpr int64_t kDistinct = 5000;
  // Chunk `salt` holds keys salt * 2500 + [0, 5000): half of them were in the chunk before, so
  // a table that kept stale entries would hand out the old indices.
  auto put_chunk = [&](int64_t salt) {
    std::vector<int64_t> values(kCount);
    std::vector<std::string> texts(kCount);
    std::vector<ByteArrayView> views(kCount);
    std::string wide(kCount * 12, '\0');
    FirstSeen reference;
    std::vector<int32_t> expected(kCount);
    for (int64_t i = 0; i < kCount; ++i) {
      const int64_t key = salt * 2500 + (i * 7919) % kDistinct;
      values[i] = key;
      texts[i] = "key " + std::to_string(100000 + key);  // same lengths in every chunk
      views[i] = View(texts[i]);
      std::memcpy(&wide[i * 12], &key, 8);
      expected[i] = reference.Put(texts[i]);
    }
    std::vector<int32_t> indices(kCount);
    ASSERT_TRUE(ints->PutFixed(values.data(), kCount, indices.data()).ok());
    EXPECT_EQ(indices, expected);
    ASSERT_TRUE(strings->PutByteArrays(views.data(), kCount, indices.data()).ok());
    EXPECT_EQ(indices, expected);
    ASSERT_TRUE(flba->PutFixed(wide.data(), kCount, indices.data()).ok());
    EXPECT_EQ(indices, expected);
    EXPECT_EQ(strings->num_entries(), kDistinct);
    ExpectPlainRoundTrip(check_pool.get(), *strings, reference.entries, 0);
  };
  put_chunk(1);
  const MemoryStats after_first = pool->stats();
  const int64_t memory = ints->memory_size() + strings->memory_size() + flba->memory_size();
  ints->Clear();
  strings->Clear();
  flba->Clear();
  EXPECT_EQ(ints->num_entries(), 0);
  EXPECT_EQ(strings->plain_size(), 0);
  EXPECT_EQ(flba->index_bit_width(), 0);
  EXPECT_EQ(ints->memory_size() + strings->memory_size() + flba->memory_size(), memory);
  put_chunk(2);  // a chunk of the same shape, half its values new
  EXPECT_EQ(pool->num_allocations(), after_first.num_allocations);
  EXPECT_EQ(pool->num_reallocations(), after_first.num_reallocations);
  EXPECT_EQ(pool->bytes_in_use(), after_first.bytes_in_use);
  EXPECT_EQ(ints->memory_size() + strings->memory_size() + flba->memory_size(), memory);
}

TEST(DictionaryEncoderTest, MemorySizeTracksThePool) {
  auto pool = MakeSystemMemoryPool();
  auto encoder = MakeEncoder(pool.get(), 0);
  EXPECT_GT(encoder->memory_size(), 0);  // the initial table
  EXPECT_EQ(encoder->memory_size(), pool->bytes_in_use());
  std::vector<std::string> texts;
  for (int i = 0; i < 3000; ++i) texts.push_back("value number " + std::to_string(i));
  std::vector<ByteArrayView> views;
  for (auto& t : texts) views.push_back(View(t));
  std::vector<int32_t> indices(texts.size());
  for (int64_t done = 0; done < 3000; done += 500) {
    ASSERT_TRUE(encoder->PutByteArrays(views.data() + done, 500, indices.data() + done).ok());
    EXPECT_EQ(encoder->memory_size(), pool->bytes_in_use()) << "after " << done + 500;
  }
  auto other_pool = MakeSystemMemoryPool();
  ResizableBuffer page(other_pool.get());
  ASSERT_TRUE(encoder->WritePlain(&page).ok());
  EXPECT_EQ(other_pool->num_allocations(), 1);  // one exact reservation
  EXPECT_EQ(page.capacity(), RoundUpToMultipleOf64(encoder->plain_size()));
  EXPECT_EQ(encoder->memory_size(), pool->bytes_in_use());
  encoder.reset();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(DictionaryEncoderTest, MisuseIsInvalid) {
  auto pool = MakeSystemMemoryPool();
  EXPECT_TRUE(DictionaryEncoder::Make(pool.get(), -1).status().IsInvalid());
  auto strings = MakeEncoder(pool.get(), 0);
  auto ints = MakeEncoder(pool.get(), 4);
  int32_t value = 1;
  int32_t index = -1;
  EXPECT_TRUE(strings->PutFixed(&value, 1, &index).IsInvalid());
  ByteArrayView view;
  EXPECT_TRUE(ints->PutByteArrays(&view, 1, &index).IsInvalid());
  EXPECT_TRUE(ints->PutFixed(&value, -1, &index).IsInvalid());
  EXPECT_TRUE(ints->PutFixed(nullptr, 0, nullptr).ok());
  EXPECT_EQ(ints->num_entries(), 0);
}

// Pool limits across a range, so that each kind of allocation is the one refused in some run:
// the entry arrays, the arena, and the table rebuild (which frees the old table first).
TEST(DictionaryEncoderTest, OutOfMemoryLeavesTheEncoderUsable) {
  constexpr int64_t kCount = 20000;
  std::vector<std::string> texts(kCount);
  std::vector<ByteArrayView> views(kCount);
  for (int64_t i = 0; i < kCount; ++i) {
    texts[i] = "text " + std::to_string(i);
    views[i] = View(texts[i]);
  }
  int64_t table_lost = 0;
  for (int width : {8, 12, 0}) {
    std::string fixed(kCount * std::max(width, 1), 'q');
    for (int64_t i = 0; i < kCount && width > 0; ++i) std::memcpy(&fixed[i * width], &i, 8);
    for (int64_t limit = 4096; limit <= 96 * 1024; limit += 2752) {
      SCOPED_TRACE("width " + std::to_string(width) + ", limit " + std::to_string(limit));
      auto pool = MakeSystemMemoryPool();
      auto encoder = MakeEncoder(pool.get(), width);
      pool->set_limit(limit);
      std::vector<int32_t> indices(kCount);
      auto put = [&](int64_t from, int64_t n) {
        return width > 0 ? encoder->PutFixed(fixed.data() + from * width, n, indices.data() + from)
                         : encoder->PutByteArrays(views.data() + from, n, indices.data() + from);
      };
      // Value by value until the limit: every accepted value is an entry, the refused one not.
      int64_t accepted = 0;
      int64_t memory_before = 0;
      Status status;
      while (accepted < kCount && (memory_before = encoder->memory_size(), status = put(accepted, 1)).ok()) {
        ++accepted;
      }
      ASSERT_TRUE(status.IsOutOfMemory()) << status.ToString();
      EXPECT_EQ(encoder->num_entries(), accepted);
      EXPECT_LE(pool->bytes_in_use(), limit);
      EXPECT_EQ(encoder->memory_size(), pool->bytes_in_use());
      // Only a failed table rebuild gives memory back (it frees the old table first).
      if (encoder->memory_size() < memory_before) ++table_lost;
      pool->set_limit(0);
      ASSERT_TRUE(put(0, kCount).ok());  // rebuilds a table lost to the failure
      for (int64_t i = 0; i < kCount; ++i) ASSERT_EQ(indices[i], i);
      EXPECT_EQ(encoder->num_entries(), kCount);
    }
  }
  EXPECT_GT(table_lost, 0) << "no limit made a table rebuild fail";
}

}  // namespace
}  // namespace strata::parquet
