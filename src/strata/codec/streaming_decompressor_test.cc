// Streaming decompression: windows of 1, 7 and 64 KiB give the one-shot result.
#include "strata/codec/streaming_decompressor.h"

#include <gtest/gtest.h>

#include "strata/codec/codec_test_util.h"
#include "strata/memory/memory_scope.h"

namespace strata::codec {
namespace {

using testing::Int64Sequence;
using testing::RandomBytes;
using testing::ShortStrings;

// Reads everything through windows of `window` bytes.
Result<std::vector<uint8_t>> ReadAll(StreamingDecompressor* stream, std::span<const uint8_t> input, size_t window) {
  STRATA_RETURN_NOT_OK(stream->Reset(input));
  std::vector<uint8_t> all;
  std::vector<uint8_t> buffer(window);  // exact size: ASan catches writes past the window
  while (!stream->finished()) {
    STRATA_ASSIGN_OR_RETURN(int64_t n, stream->Read(buffer));
    if (n == 0 && !stream->finished()) return Status::Invalid("no progress before the end");
    EXPECT_LE(n, static_cast<int64_t>(window));
    all.insert(all.end(), buffer.begin(), buffer.begin() + n);
  }
  STRATA_ASSIGN_OR_RETURN(int64_t after_end, stream->Read(buffer));
  EXPECT_EQ(after_end, 0);
  EXPECT_EQ(stream->total_out(), static_cast<int64_t>(all.size()));
  return all;
}

class StreamingTest : public ::testing::TestWithParam<CompressionCodec> {
 protected:
  void SetUp() override {
    codec_ = *MakeCodec(GetParam(), pool_.get());
    stream_ = *MakeStreamingDecompressor(GetParam(), pool_.get());
  }
  std::vector<uint8_t> Compress(std::span<const uint8_t> input) {
    ResizableBuffer out(pool_.get());
    EXPECT_TRUE(codec_->Compress(input, &out).ok());
    return std::vector<uint8_t>(out.data(), out.data() + out.size());
  }
  std::vector<uint8_t> OneShot(std::span<const uint8_t> compressed, size_t size) {
    std::vector<uint8_t> out(size);
    auto n = codec_->Decompress(compressed, out);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    return out;
  }
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::unique_ptr<Codec> codec_;
  std::unique_ptr<StreamingDecompressor> stream_;
};

TEST_P(StreamingTest, WindowsMatchOneShotDecompression) {
  const std::vector<std::vector<uint8_t>> inputs = {
      {}, {0x42}, ShortStrings(200'000, 1), RandomBytes(70'000, 2), Int64Sequence(160'000, 3)};
  for (const auto& input : inputs) {
    const auto compressed = Compress(input);
    const auto expected = OneShot(compressed, input.size());
    ASSERT_EQ(expected, input);
    for (size_t window : {size_t{1}, size_t{7}, size_t{64} << 10}) {
      if (window == 1 && input.size() > 100'000) continue;  // a million calls adds nothing
      auto decoded = ReadAll(stream_.get(), compressed, window);
      ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
      EXPECT_EQ(*decoded, expected) << "window " << window << ", " << input.size() << " bytes";
    }
  }
}

TEST_P(StreamingTest, OnePageThroughASmallWindowKeepsMemoryBounded) {
  // 8 MiB of output through a 64 KiB window: the decompressor holds its context and window
  // (4 MiB at most for these writers' settings), never the page.
  const auto input = ShortStrings(8 << 20, 4);
  const auto compressed = Compress(input);
  MemoryScope scope(pool_.get());
  auto decoded = ReadAll(stream_.get(), compressed, 64 << 10);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_TRUE(*decoded == input);
  EXPECT_LT(scope.delta().peak_above_start, 5 << 20) << "peak " << scope.delta().peak_above_start;
}

TEST_P(StreamingTest, ResetReusesTheContext) {
  const auto input = Int64Sequence(300'000, 5);
  const auto compressed = Compress(input);
  ASSERT_TRUE(ReadAll(stream_.get(), compressed, 4096).ok());
  const int64_t held = stream_->memory_size();
  MemoryScope scope(pool_.get());
  for (int page = 0; page < 3; ++page) {
    auto decoded = ReadAll(stream_.get(), compressed, 4096);
    ASSERT_TRUE(decoded.ok());
    EXPECT_TRUE(*decoded == input);
  }
  if (GetParam() == CompressionCodec::kBrotli) {
    EXPECT_GT(scope.delta().num_allocations, 0);  // a new decoder per page, old one freed
    EXPECT_EQ(scope.delta().bytes_in_use_change, 0);
  } else {
    EXPECT_EQ(scope.delta().num_allocations, 0);
  }
  EXPECT_EQ(stream_->memory_size(), held);
}

TEST_P(StreamingTest, TruncatedInputIsCorrupt) {
  const auto input = ShortStrings(20'000, 6);
  const auto compressed = Compress(input);
  for (size_t cut : {size_t{1}, compressed.size() / 2, compressed.size() - 1}) {
    std::vector<uint8_t> prefix(compressed.begin(), compressed.begin() + cut);
    auto decoded = ReadAll(stream_.get(), prefix, 1000);
    if (GetParam() == CompressionCodec::kUncompressed) {
      ASSERT_TRUE(decoded.ok());
      EXPECT_EQ(decoded->size(), cut);
    } else {
      ASSERT_FALSE(decoded.ok()) << "cut " << cut;
      EXPECT_TRUE(decoded.status().IsCorrupt()) << decoded.status().ToString();
    }
  }
}

TEST_P(StreamingTest, CorruptedInputNeverCrashes) {
  const auto input = ShortStrings(20'000, 7);
  const auto compressed = Compress(input);
  std::mt19937 rng(8);
  for (int trial = 0; trial < 200; ++trial) {
    auto damaged = compressed;
    damaged[rng() % damaged.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    auto decoded = ReadAll(stream_.get(), damaged, 777);
    if (!decoded.ok()) {
      EXPECT_TRUE(decoded.status().IsCorrupt()) << decoded.status().ToString();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(StreamingCodecs, StreamingTest,
                         ::testing::Values(CompressionCodec::kUncompressed, CompressionCodec::kGzip,
                                           CompressionCodec::kZstd, CompressionCodec::kBrotli),
                         [](const auto& info) { return std::string(CodecName(info.param)); });

TEST(StreamingFactoryTest, OtherCodecsAreNotImplemented) {
  auto pool = MakeSystemMemoryPool();
  for (CompressionCodec codec : {CompressionCodec::kSnappy, CompressionCodec::kLz4, CompressionCodec::kLz4Raw,
                                 CompressionCodec::kLzo}) {
    EXPECT_TRUE(MakeStreamingDecompressor(codec, pool.get()).status().IsNotImplemented()) << CodecName(codec);
  }
}

TEST(StreamingGzipTest, WindowsCrossMemberBoundaries) {
  auto pool = MakeSystemMemoryPool();
  auto codec = *MakeCodec(CompressionCodec::kGzip, pool.get());
  std::vector<uint8_t> stream_bytes;
  std::vector<uint8_t> expected;
  for (int member = 0; member < 4; ++member) {
    const auto part = ShortStrings(1000 + 3000 * member, 10 + member);
    ResizableBuffer compressed(pool.get());
    ASSERT_TRUE(codec->Compress(part, &compressed).ok());
    stream_bytes.insert(stream_bytes.end(), compressed.data(), compressed.data() + compressed.size());
    expected.insert(expected.end(), part.begin(), part.end());
  }
  auto stream = *MakeStreamingDecompressor(CompressionCodec::kGzip, pool.get());
  for (size_t window : {size_t{1}, size_t{7}, size_t{64} << 10}) {
    auto decoded = ReadAll(stream.get(), stream_bytes, window);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(*decoded, expected) << "window " << window;
  }
}

TEST(StreamingZstdTest, WindowsCrossFrameBoundaries) {
  auto pool = MakeSystemMemoryPool();
  auto codec = *MakeCodec(CompressionCodec::kZstd, pool.get());
  std::vector<uint8_t> stream_bytes;
  std::vector<uint8_t> expected;
  for (int frame = 0; frame < 4; ++frame) {
    const auto part = Int64Sequence(800 + 4000 * frame, 20 + frame);
    ResizableBuffer compressed(pool.get());
    ASSERT_TRUE(codec->Compress(part, &compressed).ok());
    stream_bytes.insert(stream_bytes.end(), compressed.data(), compressed.data() + compressed.size());
    expected.insert(expected.end(), part.begin(), part.end());
  }
  auto stream = *MakeStreamingDecompressor(CompressionCodec::kZstd, pool.get());
  for (size_t window : {size_t{1}, size_t{7}, size_t{64} << 10}) {
    auto decoded = ReadAll(stream.get(), stream_bytes, window);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_EQ(*decoded, expected) << "window " << window;
  }
}

TEST(StreamingZstdTest, HugeDeclaredWindowIsRefusedWithoutAllocating) {
  // A frame without content size declaring a 2 GiB window (descriptor exponent 21 -> 2^31),
  // then one raw block "hello". One-shot decoding uses the caller's buffer as the window and
  // succeeds; streaming would need the window, and refuses it instead of allocating.
  const uint8_t frame[] = {0x28, 0xB5, 0x2F, 0xFD, 0x00, 21 << 3, 0x29, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'};
  auto pool = MakeSystemMemoryPool();
  auto stream = *MakeStreamingDecompressor(CompressionCodec::kZstd, pool.get());
  MemoryScope scope(pool.get());
  auto decoded = ReadAll(stream.get(), frame, 4096);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsLimitExceeded()) << decoded.status().ToString();
  EXPECT_NE(decoded.status().message().find("window"), std::string::npos) << decoded.status().ToString();
  EXPECT_LT(scope.delta().peak_above_start, 1 << 20);
  auto codec = *MakeCodec(CompressionCodec::kZstd, pool.get());
  std::vector<uint8_t> out(5);
  auto n = codec->Decompress(frame, out);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(std::string(out.begin(), out.end()), "hello");
}

TEST(StreamingTest, ReadBeforeResetIsInvalid) {
  auto pool = MakeSystemMemoryPool();
  for (CompressionCodec codec : {CompressionCodec::kGzip, CompressionCodec::kZstd, CompressionCodec::kBrotli}) {
    auto stream = *MakeStreamingDecompressor(codec, pool.get());
    uint8_t byte;
    EXPECT_TRUE(stream->Read({&byte, 1}).status().IsInvalid()) << CodecName(codec);
  }
}

}  // namespace
}  // namespace strata::codec
