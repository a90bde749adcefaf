// LZO specifics: Hadoop framing (what parquet-mr writes and reads), the raw LZO1X fallback,
// lengths in the framing checked before use, the declared size enforced.
#include <gtest/gtest.h>
#include <lzo/lzo1x.h>

#include <random>

#include "strata/codec/codec.h"
#include "strata/codec/codec_test_util.h"
#include "strata/memory/memory_scope.h"

namespace strata::codec {
namespace {

using testing::RandomBytes;
using testing::RepetitiveBytes;
using testing::ShortStrings;

// Hadoop's block size for LZO: 256 KiB less LZO1X's worst-case growth (lzo_codec.cc).
constexpr size_t kWriterBlockBytes = 256 * 1024 - (256 * 1024 / 16 + 64 + 3);

// One raw LZO1X stream, made by liblzo2 directly (level 1, or 999 for the slow compressor
// other writers may use).
std::vector<uint8_t> RawStream(std::span<const uint8_t> input, bool best = false) {
  EXPECT_EQ(lzo_init(), LZO_E_OK);
  std::vector<uint8_t> work(best ? LZO1X_999_MEM_COMPRESS : LZO1X_1_MEM_COMPRESS);
  std::vector<uint8_t> out(input.size() + input.size() / 16 + 64 + 3);
  lzo_uint n = 0;
  const int rc = best ? lzo1x_999_compress(input.data(), input.size(), out.data(), &n, work.data())
                      : lzo1x_1_compress(input.data(), input.size(), out.data(), &n, work.data());
  EXPECT_EQ(rc, LZO_E_OK);
  out.resize(n);
  return out;
}

void AppendBigEndian32(uint32_t v, std::vector<uint8_t>* out) {
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<uint8_t>(v >> shift));
}

// Hadoop framing: blocks of `block_size` input bytes, each cut into chunks of `chunk_size`.
std::vector<uint8_t> HadoopFrame(std::span<const uint8_t> input, size_t block_size, size_t chunk_size = 0) {
  if (chunk_size == 0) chunk_size = block_size;
  std::vector<uint8_t> out;
  for (size_t start = 0; start < input.size(); start += block_size) {
    const auto block = input.subspan(start, std::min(block_size, input.size() - start));
    AppendBigEndian32(static_cast<uint32_t>(block.size()), &out);
    for (size_t at = 0; at < block.size(); at += chunk_size) {
      const auto chunk = RawStream(block.subspan(at, std::min(chunk_size, block.size() - at)));
      AppendBigEndian32(static_cast<uint32_t>(chunk.size()), &out);
      out.insert(out.end(), chunk.begin(), chunk.end());
    }
  }
  return out;
}

class LzoCodecTest : public ::testing::Test {
 protected:
  std::vector<uint8_t> Compress(std::span<const uint8_t> input) {
    ResizableBuffer out(pool_.get());
    Status st = lzo_->Compress(input, &out);
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_LE(out.size(), lzo_->MaxCompressedLength(static_cast<int64_t>(input.size())));
    return std::vector<uint8_t>(out.data(), out.data() + out.size());
  }

  // Decodes into exactly `size` bytes (so ASan sees any write past the end).
  Result<std::vector<uint8_t>> Decode(std::span<const uint8_t> compressed, size_t size) {
    std::vector<uint8_t> out(size);
    STRATA_ASSIGN_OR_RETURN(int64_t n, lzo_->Decompress(compressed, out));
    out.resize(static_cast<size_t>(n));
    return out;
  }

  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::unique_ptr<Codec> lzo_ = *MakeCodec(CompressionCodec::kLzo, pool_.get());
};

TEST_F(LzoCodecTest, RoundTripsEmptySmallLargeAndIncompressible) {
  const std::vector<std::vector<uint8_t>> inputs = {
      {}, {0x42}, ShortStrings(1000, 1), ShortStrings(5 << 20, 2), RepetitiveBytes(3 << 20), RandomBytes(3 << 20, 3),
      RandomBytes(kWriterBlockBytes, 4), RandomBytes(kWriterBlockBytes + 1, 5)};
  for (const auto& input : inputs) {
    const auto compressed = Compress(input);
    auto decoded = Decode(compressed, input.size());
    ASSERT_TRUE(decoded.ok()) << input.size() << " bytes: " << decoded.status().ToString();
    EXPECT_TRUE(*decoded == input) << input.size() << " bytes";
  }
  EXPECT_TRUE(Compress({}).empty());  // no block at all
}

TEST_F(LzoCodecTest, WritesHadoopFramingOneChunkPerBlock) {
  const auto input = ShortStrings(2 * kWriterBlockBytes + 1000, 6);
  const auto compressed = Compress(input);
  // Walk the prefixes: each block's chunk is a whole LZO1X stream of the block's size.
  const uint8_t* p = compressed.data();
  const uint8_t* end = p + compressed.size();
  std::vector<uint32_t> block_sizes;
  std::vector<uint8_t> joined;
  while (p < end) {
    ASSERT_GE(end - p, 8);
    const uint32_t uncompressed = (uint32_t{p[0]} << 24) | (p[1] << 16) | (p[2] << 8) | p[3];
    const uint32_t size = (uint32_t{p[4]} << 24) | (p[5] << 16) | (p[6] << 8) | p[7];
    block_sizes.push_back(uncompressed);
    p += 8;
    ASSERT_LE(size, static_cast<uint32_t>(end - p));
    std::vector<uint8_t> block(uncompressed);
    lzo_uint n = block.size();
    ASSERT_EQ(lzo1x_decompress_safe(p, size, block.data(), &n, nullptr), LZO_E_OK);
    ASSERT_EQ(n, uncompressed);
    joined.insert(joined.end(), block.begin(), block.end());
    p += size;
  }
  EXPECT_EQ(block_sizes, (std::vector<uint32_t>{kWriterBlockBytes, kWriterBlockBytes, 1000}));
  EXPECT_EQ(joined, input);
  EXPECT_EQ(lzo_->memory_size(), static_cast<int64_t>(LZO1X_1_MEM_COMPRESS));
}

TEST_F(LzoCodecTest, DecodesAKnownRawStream) {
  // Literal run of 3 (17 + 3), "abc", then the end-of-stream marker (an M4 match of distance 0).
  const uint8_t stream[] = {0x14, 'a', 'b', 'c', 0x11, 0x00, 0x00};
  auto decoded = Decode(stream, 3);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(std::string(decoded->begin(), decoded->end()), "abc");
  // Bytes after the marker are not part of any stream.
  const uint8_t trailing[] = {0x14, 'a', 'b', 'c', 0x11, 0x00, 0x00, 0x00};
  auto bad = Decode(trailing, 3);
  ASSERT_FALSE(bad.ok());
  EXPECT_TRUE(bad.status().IsCorrupt());
  EXPECT_NE(bad.status().message().find("end-of-stream marker"), std::string::npos) << bad.status().ToString();
}

TEST_F(LzoCodecTest, DecodesRawStreamsFromOtherWriters) {
  for (bool best : {false, true}) {
    for (const auto& input : {ShortStrings(20'000, 7), RandomBytes(5000, 8), RepetitiveBytes(1 << 20)}) {
      const auto raw = RawStream(input, best);
      auto decoded = Decode(raw, input.size());
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      EXPECT_TRUE(*decoded == input);
    }
  }
  // The empty stream is its end marker alone.
  auto empty = Decode(RawStream({}), 0);
  ASSERT_TRUE(empty.ok()) << empty.status().ToString();
  EXPECT_TRUE(empty->empty());
}

TEST_F(LzoCodecTest, DecodesHadoopBlocksOfSeveralChunks) {
  // hadoop-lzo's BlockCompressorStream may split a block into several compressed chunks.
  const auto input = ShortStrings(100'000, 9);
  const auto framed = HadoopFrame(input, 30'000, 7'000);
  auto decoded = Decode(framed, input.size());
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, input);
}

TEST_F(LzoCodecTest, DecodesAnEmptyHadoopBlock) {
  // A zero-length block, with or without a chunk holding an empty stream, then a real block.
  const auto input = ShortStrings(500, 10);
  const auto empty_stream = RawStream({});
  for (bool with_chunk : {false, true}) {
    std::vector<uint8_t> framed;
    AppendBigEndian32(0, &framed);
    if (with_chunk) {
      AppendBigEndian32(static_cast<uint32_t>(empty_stream.size()), &framed);
      framed.insert(framed.end(), empty_stream.begin(), empty_stream.end());
    }
    const auto rest = HadoopFrame(input, input.size());
    framed.insert(framed.end(), rest.begin(), rest.end());
    auto decoded = Decode(framed, input.size());
    ASSERT_TRUE(decoded.ok()) << with_chunk << ": " << decoded.status().ToString();
    EXPECT_EQ(*decoded, input);
  }
}

TEST_F(LzoCodecTest, TheDeclaredSizeIsEnforced) {
  const auto input = ShortStrings(10'000, 11);
  for (const auto& compressed : {Compress(input), RawStream(input), HadoopFrame(input, 3000)}) {
    auto exact = Decode(compressed, input.size());
    ASSERT_TRUE(exact.ok()) << exact.status().ToString();
    for (size_t declared : {input.size() - 1, input.size() / 2, size_t{0}}) {
      auto short_output = Decode(compressed, declared);
      ASSERT_FALSE(short_output.ok()) << declared;
      EXPECT_TRUE(short_output.status().IsCorrupt());
      EXPECT_NE(short_output.status().message().find(std::to_string(declared)), std::string::npos)
          << short_output.status().ToString();
    }
  }
}

TEST_F(LzoCodecTest, HostileLengthsAreCheckedBeforeUse) {
  const auto input = ShortStrings(3000, 12);
  const auto framed = HadoopFrame(input, 3000);
  MemoryScope scope(pool_.get());
  // A block claiming 4 GiB - 1, a chunk reaching past the page, a chunk of length 0.
  for (auto [at, value] : {std::pair<size_t, uint8_t>{0, 0xff}, {4, 0x7f}, {4, 0}}) {
    auto damaged = framed;
    for (size_t i = at; i < at + 4; ++i) damaged[i] = value;
    auto decoded = Decode(damaged, input.size());
    ASSERT_FALSE(decoded.ok()) << at;
    EXPECT_TRUE(decoded.status().IsCorrupt()) << decoded.status().ToString();
  }
  EXPECT_EQ(scope.delta().num_allocations, 0);  // nothing sized from the data
  // A chunk cut short: the error names the framing's own reason, not only the raw decoder's.
  auto cut = framed;
  cut.resize(cut.size() - 10);
  auto decoded = Decode(cut, input.size());
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("offset 4 declares"), std::string::npos) << decoded.status().ToString();
}

TEST_F(LzoCodecTest, TruncatedAndDamagedInputsNeverCrash) {
  const auto input = ShortStrings(40'000, 13);
  for (const auto& compressed : {HadoopFrame(input, 10'000), RawStream(input)}) {
    for (size_t cut = 0; cut < compressed.size(); cut += 1 + cut / 64) {
      std::vector<uint8_t> prefix(compressed.begin(), compressed.begin() + cut);  // exact size for ASan
      auto decoded = Decode(prefix, input.size());
      // A cut at a block boundary is a shorter valid page; the caller's size check refuses it.
      if (decoded.ok()) {
        EXPECT_LT(decoded->size(), input.size()) << cut;
      } else {
        EXPECT_TRUE(decoded.status().IsCorrupt()) << cut << ": " << decoded.status().ToString();
      }
    }
    std::mt19937 rng(14);
    for (int trial = 0; trial < 300; ++trial) {
      auto damaged = compressed;
      for (int f = 0; f < 1 + trial % 3; ++f) damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1 << (rng() % 8));
      auto decoded = Decode(damaged, input.size());
      if (!decoded.ok()) {
        EXPECT_TRUE(decoded.status().IsCorrupt()) << decoded.status().ToString();
      }
    }
  }
}

}  // namespace
}  // namespace strata::codec
