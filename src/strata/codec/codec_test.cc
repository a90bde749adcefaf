// Behaviour every codec shares: round trips, size limits, hostile input, steady-state memory.
#include "strata/codec/codec.h"

#include <gtest/gtest.h>

#include <random>

#include "strata/codec/codec_test_util.h"
#include "strata/memory/memory_scope.h"

namespace strata::codec {
namespace {

using testing::AsBytes;
using testing::Int64Sequence;
using testing::RandomBytes;
using testing::RepetitiveBytes;
using testing::ShortStrings;

std::vector<uint8_t> CompressToVector(Codec* codec, std::span<const uint8_t> input, MemoryPool* pool) {
  ResizableBuffer out(pool);
  Status st = codec->Compress(input, &out);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_LE(out.size(), codec->MaxCompressedLength(static_cast<int64_t>(input.size())));
  return std::vector<uint8_t>(out.data(), out.data() + out.size());
}

class CodecTest : public ::testing::TestWithParam<CompressionCodec> {
 protected:
  void SetUp() override {
    pool_ = MakeSystemMemoryPool();
    auto codec = MakeCodec(GetParam(), pool_.get());
    ASSERT_TRUE(codec.ok()) << codec.status().ToString();
    codec_ = std::move(*codec);
  }

  void ExpectRoundTrip(const std::vector<uint8_t>& original) {
    const std::vector<uint8_t> compressed = CompressToVector(codec_.get(), original, pool_.get());
    // Exactly sized output, so ASan sees any write past the end.
    std::vector<uint8_t> decoded(original.size());
    auto written = codec_->Decompress(compressed, decoded);
    ASSERT_TRUE(written.ok()) << written.status().ToString();
    ASSERT_EQ(*written, static_cast<int64_t>(original.size()));
    EXPECT_EQ(decoded, original);
    // A larger buffer: the actual count comes back, the caller judges it.
    std::vector<uint8_t> roomy(original.size() + 100, 0xEE);
    auto written_roomy = codec_->Decompress(compressed, roomy);
    ASSERT_TRUE(written_roomy.ok()) << written_roomy.status().ToString();
    ASSERT_EQ(*written_roomy, static_cast<int64_t>(original.size()));
    EXPECT_TRUE(std::equal(original.begin(), original.end(), roomy.begin()));
  }

  std::unique_ptr<MemoryPool> pool_;
  std::unique_ptr<Codec> codec_;
};

TEST_P(CodecTest, RoundTripsTypicalInputs) {
  EXPECT_EQ(codec_->type(), GetParam());
  ExpectRoundTrip({});
  ExpectRoundTrip({0x42});
  ExpectRoundTrip(RandomBytes(100'000, 1));
  ExpectRoundTrip(RepetitiveBytes(100'000));
  ExpectRoundTrip(Int64Sequence(80'000, 2));
  ExpectRoundTrip(ShortStrings(50'000, 3));
}

TEST_P(CodecTest, EmptyInputFollowsTheFormat) {
  std::vector<uint8_t> out(10);
  auto result = codec_->Decompress({}, out);
  const CompressionCodec type = GetParam();
  if (type == CompressionCodec::kSnappy || type == CompressionCodec::kBrotli || type == CompressionCodec::kLz4Raw) {
    EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
  } else {
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_EQ(*result, 0);
  }
}

TEST_P(CodecTest, RoundTripsAcrossBlockBoundaries) {
  // Over 1 MiB: several Hadoop LZ4 blocks (256 KiB), several snappy blocks (64 KiB).
  ExpectRoundTrip(ShortStrings(1'300'000, 4));
  ExpectRoundTrip(RandomBytes((256 << 10) + 1, 5));
}

TEST_P(CodecTest, RoundTripsRandomSizes) {
  std::mt19937 rng(6);
  for (int trial = 0; trial < 40; ++trial) {
    const size_t n = rng() % 5000;
    ExpectRoundTrip(trial % 2 ? RandomBytes(n, trial) : ShortStrings(n, trial));
  }
}

TEST_P(CodecTest, CompressReusesTheOutputBuffer) {
  const auto input = Int64Sequence(64'000, 7);
  ResizableBuffer out(pool_.get());
  ASSERT_TRUE(codec_->Compress(input, &out).ok());
  const std::vector<uint8_t> first(out.data(), out.data() + out.size());
  const int64_t capacity = out.capacity();
  ASSERT_TRUE(codec_->Compress(input, &out).ok());
  EXPECT_EQ(out.capacity(), capacity);
  EXPECT_EQ(std::vector<uint8_t>(out.data(), out.data() + out.size()), first);
}

TEST_P(CodecTest, OutputLargerThanDeclaredIsCorrupt) {
  for (const auto& original : {ShortStrings(10'000, 8), RandomBytes(3000, 9), std::vector<uint8_t>{7}}) {
    const auto compressed = CompressToVector(codec_.get(), original, pool_.get());
    std::vector<uint8_t> small(original.size() - 1);
    auto result = codec_->Decompress(compressed, small);
    ASSERT_FALSE(result.ok()) << "declared " << small.size() << " bytes";
    EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
    EXPECT_NE(result.status().message().find(std::to_string(small.size())), std::string::npos)
        << result.status().ToString();
  }
}

TEST_P(CodecTest, TruncatedInputIsRejected) {
  const auto original = ShortStrings(3000, 10);
  const auto compressed = CompressToVector(codec_.get(), original, pool_.get());
  for (size_t cut = 0; cut < compressed.size(); ++cut) {
    std::vector<uint8_t> prefix(compressed.begin(), compressed.begin() + cut);  // exact size for ASan
    std::vector<uint8_t> decoded(original.size());
    auto result = codec_->Decompress(prefix, decoded);
    if (result.ok()) {
      // Only a copy (uncompressed), an empty input, or LZ4 may "succeed", with fewer bytes
      // than declared, which the caller reports: an LZ4 block has no end marker, so one cut
      // right after a sequence's literals reads as a shorter valid block.
      const bool may_end_early = GetParam() == CompressionCodec::kUncompressed ||
                                 GetParam() == CompressionCodec::kLz4 || GetParam() == CompressionCodec::kLz4Raw;
      EXPECT_TRUE(may_end_early || cut == 0) << "cut at " << cut;
      EXPECT_LT(*result, static_cast<int64_t>(original.size())) << "cut at " << cut;
    } else {
      EXPECT_TRUE(result.status().IsCorrupt()) << "cut at " << cut << ": " << result.status().ToString();
    }
  }
}

TEST_P(CodecTest, CorruptedInputNeverCrashes) {
  // Snappy and LZ4 carry no checksum, so a flipped byte may decode to other bytes; what must
  // hold is no crash, no out-of-bounds access (ASan), and Corrupt as the only error.
  const auto original = ShortStrings(5000, 11);
  const auto compressed = CompressToVector(codec_.get(), original, pool_.get());
  std::mt19937 rng(12);
  int rejected = 0;
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<uint8_t> damaged = compressed;
    const int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    std::vector<uint8_t> decoded(original.size());
    auto result = codec_->Decompress(damaged, decoded);
    if (!result.ok()) {
      ++rejected;
      EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
    } else {
      EXPECT_LE(*result, static_cast<int64_t>(decoded.size()));
    }
  }
  // GZIP's CRC-32 catches all damage to the data; only its header's time stamp and OS bytes
  // are unchecked.
  if (GetParam() == CompressionCodec::kGzip) {
    EXPECT_GT(rejected, 475);
  }
  if (GetParam() != CompressionCodec::kUncompressed) {
    EXPECT_GT(rejected, 0);
  }
}

TEST_P(CodecTest, RandomInputNeverCrashes) {
  std::mt19937 rng(13);
  for (int trial = 0; trial < 300; ++trial) {
    const auto garbage = RandomBytes(1 + rng() % 2000, 100 + trial);
    std::vector<uint8_t> decoded(rng() % 10'000);
    auto result = codec_->Decompress(garbage, decoded);
    if (!result.ok()) {
      EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
    }
  }
}

TEST_P(CodecTest, DecompressionBombIsStoppedAtTheDeclaredSize) {
  // 64 MiB of zeros compress to a few KiB; a page header declaring 4 KiB must stop the
  // decoder there, without anything sized from the data. Brotli alone keeps a ring buffer
  // of its stream's window (4 MiB for this writer).
  const std::vector<uint8_t> zeros(64 << 20, 0);
  const auto bomb = CompressToVector(codec_.get(), zeros, pool_.get());
  std::vector<uint8_t> out(4096);
  MemoryScope scope(pool_.get());
  auto result = codec_->Decompress(bomb, out);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
  const int64_t allowed = GetParam() == CompressionCodec::kBrotli ? (5 << 20) : (1 << 20);
  EXPECT_LT(scope.delta().peak_above_start, allowed);
}

TEST_P(CodecTest, SteadyStateDecodingAllocatesNothing) {
  const auto original = Int64Sequence(200'000, 14);
  const auto compressed = CompressToVector(codec_.get(), original, pool_.get());
  std::vector<uint8_t> decoded(original.size());
  ASSERT_TRUE(codec_->Decompress(compressed, decoded).ok());  // first page: contexts are made
  const int64_t held = codec_->memory_size();
  MemoryScope scope(pool_.get());
  for (int page = 0; page < 3; ++page) ASSERT_TRUE(codec_->Decompress(compressed, decoded).ok());
  const MemoryDelta delta = scope.delta();
  EXPECT_EQ(delta.bytes_in_use_change, 0);
  EXPECT_EQ(codec_->memory_size(), held);
  if (GetParam() == CompressionCodec::kBrotli) {
    // Brotli cannot reset a decoder: it makes one per page from the pool and frees it.
    EXPECT_GT(delta.num_allocations, 0);
  } else {
    EXPECT_EQ(delta.num_allocations, 0);
    EXPECT_EQ(delta.num_reallocations, 0);
  }
  EXPECT_EQ(decoded, original);
}

TEST_P(CodecTest, SteadyStateCompressionAllocatesNothingFromThePool) {
  const auto input = ShortStrings(100'000, 15);
  ResizableBuffer out(pool_.get());
  ASSERT_TRUE(codec_->Compress(input, &out).ok());
  MemoryScope scope(pool_.get());
  ASSERT_TRUE(codec_->Compress(input, &out).ok());
  if (GetParam() != CompressionCodec::kBrotli) {
    EXPECT_EQ(scope.delta().num_allocations, 0);
  }
  EXPECT_EQ(scope.delta().bytes_in_use_change, 0);
}

TEST_P(CodecTest, CodecMemoryIsReturnedToThePool) {
  const auto input = ShortStrings(100'000, 16);
  {
    ResizableBuffer out(pool_.get());
    ASSERT_TRUE(codec_->Compress(input, &out).ok());
    std::vector<uint8_t> decoded(input.size());
    ASSERT_TRUE(codec_->Decompress(out.span(), decoded).ok());
  }
  codec_.reset();
  EXPECT_EQ(pool_->bytes_in_use(), 0);
}

INSTANTIATE_TEST_SUITE_P(AllCodecs, CodecTest, ::testing::ValuesIn(testing::kAllCodecs),
                         [](const auto& info) { return std::string(CodecName(info.param)); });

TEST(CodecFactoryTest, NamesAndValuesFollowParquet) {
  EXPECT_EQ(CodecName(CompressionCodec::kUncompressed), "UNCOMPRESSED");
  EXPECT_EQ(CodecName(CompressionCodec::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(CodecName(static_cast<CompressionCodec>(42)), "UNKNOWN");
  EXPECT_EQ(static_cast<int>(CompressionCodec::kZstd), 6);
  EXPECT_EQ(*CompressionCodecFromThrift(7), CompressionCodec::kLz4Raw);
  EXPECT_TRUE(CompressionCodecFromThrift(8).status().IsCorrupt());
  EXPECT_TRUE(CompressionCodecFromThrift(-1).status().IsCorrupt());
}

TEST(CodecFactoryTest, LzoHasNoLevels) {
  auto pool = MakeSystemMemoryPool();
  auto codec = MakeCodec(CompressionCodec::kLzo, pool.get());
  ASSERT_TRUE(codec.ok()) << codec.status().ToString();
  EXPECT_EQ((*codec)->compression_level(), 0);
  EXPECT_TRUE(MakeCodec(CompressionCodec::kLzo, pool.get(), 1).status().IsInvalid());
}

TEST(CodecFactoryTest, LevelsAreCheckedAndResolved) {
  auto pool = MakeSystemMemoryPool();
  EXPECT_EQ((*MakeCodec(CompressionCodec::kZstd, pool.get()))->compression_level(), 3);
  EXPECT_EQ((*MakeCodec(CompressionCodec::kZstd, pool.get(), -5))->compression_level(), -5);
  EXPECT_EQ((*MakeCodec(CompressionCodec::kGzip, pool.get()))->compression_level(), 6);
  EXPECT_EQ((*MakeCodec(CompressionCodec::kBrotli, pool.get()))->compression_level(), 8);
  EXPECT_EQ((*MakeCodec(CompressionCodec::kLz4Raw, pool.get()))->compression_level(), 1);
  EXPECT_TRUE(MakeCodec(CompressionCodec::kGzip, pool.get(), 10).status().IsInvalid());
  EXPECT_TRUE(MakeCodec(CompressionCodec::kBrotli, pool.get(), 12).status().IsInvalid());
  EXPECT_TRUE(MakeCodec(CompressionCodec::kZstd, pool.get(), 1000).status().IsInvalid());
  EXPECT_TRUE(MakeCodec(CompressionCodec::kSnappy, pool.get(), 3).status().IsInvalid());
  EXPECT_TRUE(MakeCodec(CompressionCodec::kLz4, pool.get(), 0).status().IsInvalid());
  EXPECT_TRUE(MakeCodec(static_cast<CompressionCodec>(9), pool.get()).status().IsInvalid());
  EXPECT_TRUE(MakeCodec(CompressionCodec::kZstd, nullptr).status().IsInvalid());
}

TEST(CodecLevelTest, EveryLevelRoundTrips) {
  auto pool = MakeSystemMemoryPool();
  const auto input = ShortStrings(20'000, 17);
  struct Range { CompressionCodec codec; int min; int max; };
  for (Range range : {Range{CompressionCodec::kGzip, 0, 9}, Range{CompressionCodec::kBrotli, 0, 11},
                      Range{CompressionCodec::kZstd, -3, 19}, Range{CompressionCodec::kLz4Raw, 1, 12},
                      Range{CompressionCodec::kLz4, 1, 12}}) {
    for (int level = range.min; level <= range.max; ++level) {
      auto codec = *MakeCodec(range.codec, pool.get(), level);
      const auto compressed = CompressToVector(codec.get(), input, pool.get());
      std::vector<uint8_t> decoded(input.size());
      auto written = codec->Decompress(compressed, decoded);
      ASSERT_TRUE(written.ok()) << CodecName(range.codec) << " level " << level;
      EXPECT_EQ(decoded, input) << CodecName(range.codec) << " level " << level;
    }
  }
}

TEST(SnappyCodecTest, DecodesKnownBlock) {
  // From the snappy format description: varint length 11; literal "hello" (tag (5-1)<<2);
  // copy with 1-byte offset, length 4, offset 5 (tag (4-4)<<2 | 0b01, then 5) -> "hellohell";
  // literal "o!" (tag (2-1)<<2).
  const uint8_t block[] = {11, 0x10, 'h', 'e', 'l', 'l', 'o', 0x01, 0x05, 0x04, 'o', '!'};
  auto pool = MakeSystemMemoryPool();
  auto codec = *MakeCodec(CompressionCodec::kSnappy, pool.get());
  std::vector<uint8_t> out(11);
  auto written = codec->Decompress(block, out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(std::string(out.begin(), out.end()), "hellohello!");
}

TEST(SnappyCodecTest, CopyBeforeTheStartIsCorrupt) {
  // A copy with offset 9 when only 5 bytes exist.
  const uint8_t block[] = {9, 0x10, 'h', 'e', 'l', 'l', 'o', 0x01, 0x09};
  auto pool = MakeSystemMemoryPool();
  auto codec = *MakeCodec(CompressionCodec::kSnappy, pool.get());
  std::vector<uint8_t> out(9);
  EXPECT_TRUE(codec->Decompress(block, out).status().IsCorrupt());
}

TEST(CodecMemoryTest, PoolLimitIsReportedAsOutOfMemory) {
  auto pool = MakeSystemMemoryPool();
  const auto input = ShortStrings(50'000, 18);
  for (CompressionCodec type : {CompressionCodec::kZstd, CompressionCodec::kGzip, CompressionCodec::kBrotli}) {
    auto writer = *MakeCodec(type, pool.get());
    const auto compressed = CompressToVector(writer.get(), input, pool.get());
    auto reader = *MakeCodec(type, pool.get());
    pool->set_limit(pool->bytes_in_use() + 1024);  // far less than any context needs
    std::vector<uint8_t> decoded(input.size());
    auto result = reader->Decompress(compressed, decoded);
    pool->set_limit(0);
    ASSERT_FALSE(result.ok()) << CodecName(type);
    EXPECT_TRUE(result.status().IsOutOfMemory()) << result.status().ToString();
    // The pool's own words (the limit and what was asked), behind the codec and operation.
    const std::string message = result.status().ToString();
    EXPECT_NE(message.find(std::string(CodecName(type))), std::string::npos) << message;
    EXPECT_NE(message.find("exceeds the memory limit of"), std::string::npos) << message;
  }
}

}  // namespace
}  // namespace strata::codec
