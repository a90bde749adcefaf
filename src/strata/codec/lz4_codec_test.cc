// LZ4 specifics: Hadoop framing, the raw-block fallback, LZ4_RAW known blocks.
#include <gtest/gtest.h>
#include <lz4.h>

#include "strata/codec/codec.h"
#include "strata/codec/codec_test_util.h"

namespace strata::codec {
namespace {

using testing::AsBytes;
using testing::RandomBytes;
using testing::ShortStrings;

std::vector<uint8_t> RawBlock(std::span<const uint8_t> input) {
  std::vector<uint8_t> out(LZ4_compressBound(static_cast<int>(input.size())));
  const int n = LZ4_compress_default(reinterpret_cast<const char*>(input.data()), reinterpret_cast<char*>(out.data()),
                                     static_cast<int>(input.size()), static_cast<int>(out.size()));
  EXPECT_GT(n, 0);
  out.resize(n);
  return out;
}

void AppendBigEndian32(uint32_t v, std::vector<uint8_t>* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<uint8_t>(v >> shift));
}

// Hadoop framing, one chunk per block, blocks of `block_size` input bytes.
std::vector<uint8_t> HadoopFrame(std::span<const uint8_t> input, size_t block_size) {
  std::vector<uint8_t> out;
  for (size_t start = 0; start < input.size(); start += block_size) {
    const auto block = input.subspan(start, std::min(block_size, input.size() - start));
    const auto compressed = RawBlock(block);
    AppendBigEndian32(static_cast<uint32_t>(block.size()), &out);
    AppendBigEndian32(static_cast<uint32_t>(compressed.size()), &out);
    out.insert(out.end(), compressed.begin(), compressed.end());
  }
  return out;
}

class Lz4CodecTest : public ::testing::Test {
 protected:
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::unique_ptr<Codec> lz4_ = *MakeCodec(CompressionCodec::kLz4, pool_.get());
  std::unique_ptr<Codec> lz4_raw_ = *MakeCodec(CompressionCodec::kLz4Raw, pool_.get());
};

TEST_F(Lz4CodecTest, DecodesKnownRawBlocks) {
  // Token 0x50: 5 literals, no match.
  const uint8_t literals[] = {0x50, 'h', 'e', 'l', 'l', 'o'};
  // Token 0x35: 3 literals "abc", match of 4 + 5 = 9 at offset 3; token 0x50: "defgh".
  const uint8_t with_match[] = {0x35, 'a', 'b', 'c', 0x03, 0x00, 0x50, 'd', 'e', 'f', 'g', 'h'};
  std::vector<uint8_t> out(32);
  auto n = lz4_raw_->Decompress(literals, out);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string(out.begin(), out.begin() + *n), "hello");
  n = lz4_raw_->Decompress(with_match, out);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string(out.begin(), out.begin() + *n), "abcabcabcabcdefgh");
  // A match reaching before the start of the output.
  const uint8_t bad_offset[] = {0x35, 'a', 'b', 'c', 0x09, 0x00, 0x50, 'd', 'e', 'f', 'g', 'h'};
  EXPECT_TRUE(lz4_raw_->Decompress(bad_offset, out).status().IsCorrupt());
}

TEST_F(Lz4CodecTest, DecodesHadoopFramingWithSeveralBlocks) {
  const auto input = ShortStrings(100'000, 1);
  const auto framed = HadoopFrame(input, 30'000);  // 4 blocks
  std::vector<uint8_t> out(input.size());
  auto n = lz4_->Decompress(framed, out);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(*n, static_cast<int64_t>(input.size()));
  EXPECT_EQ(out, input);
}

TEST_F(Lz4CodecTest, DecodesHadoopBlockOfSeveralChunks) {
  // Hadoop's BlockCompressorStream may split one block into several compressed chunks.
  const auto input = ShortStrings(10'000, 2);
  std::vector<uint8_t> framed;
  AppendBigEndian32(static_cast<uint32_t>(input.size()), &framed);
  for (size_t start = 0; start < input.size(); start += 4000) {
    const auto chunk = RawBlock(std::span(input).subspan(start, std::min<size_t>(4000, input.size() - start)));
    AppendBigEndian32(static_cast<uint32_t>(chunk.size()), &framed);
    framed.insert(framed.end(), chunk.begin(), chunk.end());
  }
  std::vector<uint8_t> out(input.size());
  auto n = lz4_->Decompress(framed, out);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(out, input);
}

TEST_F(Lz4CodecTest, RawBlockLabelledLz4DecodesThroughTheFallback) {
  const auto input = ShortStrings(20'000, 3);
  const auto raw = RawBlock(input);
  std::vector<uint8_t> out(input.size());
  auto n = lz4_->Decompress(raw, out);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(out, input);
  // A tiny raw block too (shorter than one Hadoop prefix).
  const uint8_t literals[] = {0x30, 'x', 'y', 'z'};
  std::vector<uint8_t> small(3);
  n = lz4_->Decompress(literals, small);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(std::string(small.begin(), small.end()), "xyz");
}

TEST_F(Lz4CodecTest, HadoopFramingIsNotAcceptedAsLz4Raw) {
  const auto input = ShortStrings(5000, 4);
  const auto framed = HadoopFrame(input, 5000);
  std::vector<uint8_t> out(input.size());
  auto n = lz4_raw_->Decompress(framed, out);
  EXPECT_TRUE(!n.ok() || out != input);
}

TEST_F(Lz4CodecTest, HadoopBlockClaimingMoreThanTheOutputIsCorrupt) {
  const auto input = RandomBytes(3000, 5);
  auto framed = HadoopFrame(input, 3000);
  std::vector<uint8_t> out(2999);
  auto n = lz4_->Decompress(framed, out);
  ASSERT_FALSE(n.ok());
  EXPECT_TRUE(n.status().IsCorrupt());
  EXPECT_NE(n.status().message().find("neither Hadoop-framed"), std::string::npos) << n.status().ToString();
}

TEST_F(Lz4CodecTest, HadoopChunkSizePastTheInputIsCorrupt) {
  const auto input = ShortStrings(3000, 6);
  auto framed = HadoopFrame(input, 3000);
  framed[4] = 0x7f;  // compressed size now ~2 GiB
  std::vector<uint8_t> out(input.size());
  EXPECT_TRUE(lz4_->Decompress(framed, out).status().IsCorrupt());
}

TEST_F(Lz4CodecTest, WritesHadoopFramingInBlocksOf256KiB) {
  const auto input = ShortStrings((256 << 10) * 2 + 1000, 7);
  ResizableBuffer compressed(pool_.get());
  ASSERT_TRUE(lz4_->Compress(input, &compressed).ok());
  // Walk the prefixes: three blocks of 256 KiB, 256 KiB and 1000 bytes, each one chunk.
  const uint8_t* p = compressed.data();
  const uint8_t* end = p + compressed.size();
  std::vector<uint32_t> block_sizes;
  while (p < end) {
    ASSERT_GE(end - p, 8);
    const uint32_t uncompressed = (uint32_t{p[0]} << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
    const uint32_t size = (uint32_t{p[4]} << 24) | (p[5] << 16) | (p[6] << 8) | p[7];
    block_sizes.push_back(uncompressed);
    p += 8;
    ASSERT_LE(size, static_cast<uint32_t>(end - p));
    std::vector<uint8_t> block(uncompressed);
    ASSERT_EQ(LZ4_decompress_safe(reinterpret_cast<const char*>(p), reinterpret_cast<char*>(block.data()),
                                  static_cast<int>(size), static_cast<int>(block.size())),
              static_cast<int>(uncompressed));
    p += size;
  }
  EXPECT_EQ(block_sizes, (std::vector<uint32_t>{256 << 10, 256 << 10, 1000}));
}

TEST_F(Lz4CodecTest, EmptyInputHasNoHadoopBlocks) {
  ResizableBuffer compressed(pool_.get());
  ASSERT_TRUE(lz4_->Compress({}, &compressed).ok());
  EXPECT_EQ(compressed.size(), 0);
  ASSERT_TRUE(lz4_raw_->Compress({}, &compressed).ok());
  EXPECT_EQ(compressed.size(), 1);  // a raw block always has a token
}

}  // namespace
}  // namespace strata::codec
