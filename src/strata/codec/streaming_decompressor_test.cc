// Streaming decompression: windows of 1, 7 and 64 KiB give the one-shot result.
#include "strata/codec/streaming_decompressor.h"

#include <gtest/gtest.h>

#include <cstring>

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
                                           CompressionCodec::kZstd, CompressionCodec::kBrotli,
                                           CompressionCodec::kSnappy),
                         [](const auto& info) { return std::string(CodecName(info.param)); });

TEST(StreamingFactoryTest, OtherCodecsAreNotImplemented) {
  auto pool = MakeSystemMemoryPool();
  for (CompressionCodec codec : {CompressionCodec::kLz4, CompressionCodec::kLz4Raw, CompressionCodec::kLzo}) {
    EXPECT_TRUE(MakeStreamingDecompressor(codec, pool.get()).status().IsNotImplemented()) << CodecName(codec);
  }
}

// A snappy block written by hand: the length header, then each element as given.
std::vector<uint8_t> SnappyBlock(uint32_t length, std::initializer_list<std::vector<uint8_t>> elements) {
  std::vector<uint8_t> block;
  for (uint32_t v = length;; v >>= 7) {
    block.push_back(static_cast<uint8_t>((v & 0x7f) | (v >= 0x80 ? 0x80 : 0)));
    if (v < 0x80) break;
  }
  for (const auto& element : elements) block.insert(block.end(), element.begin(), element.end());
  return block;
}
// A literal element of `bytes` (a 4-byte length operand: any size).
std::vector<uint8_t> SnappyLiteral(const std::vector<uint8_t>& bytes) {
  const auto n = static_cast<uint32_t>(bytes.size() - 1);
  std::vector<uint8_t> element = {static_cast<uint8_t>(63 << 2), static_cast<uint8_t>(n), static_cast<uint8_t>(n >> 8),
                                  static_cast<uint8_t>(n >> 16), static_cast<uint8_t>(n >> 24)};
  element.insert(element.end(), bytes.begin(), bytes.end());
  return element;
}
// A copy element with a 4-byte offset, 1..64 bytes long.
std::vector<uint8_t> SnappyCopy(uint32_t offset, int length) {
  return {static_cast<uint8_t>(((length - 1) << 2) | 3), static_cast<uint8_t>(offset), static_cast<uint8_t>(offset >> 8),
          static_cast<uint8_t>(offset >> 16), static_cast<uint8_t>(offset >> 24)};
}

TEST(StreamingSnappyTest, OverlappingCopiesAndLongLiteralsCrossSlices) {
  // Short-offset copies (a repeating pattern of 1..7 bytes), copies just inside the 64 KiB
  // history, and a literal longer than a slice: each decoded as the library decodes them.
  auto pool = MakeSystemMemoryPool();
  auto stream = *MakeStreamingDecompressor(CompressionCodec::kSnappy, pool.get());
  auto codec = *MakeCodec(CompressionCodec::kSnappy, pool.get());
  const auto literal = RandomBytes(200'000, 9);
  std::vector<std::vector<uint8_t>> elements = {SnappyLiteral(literal)};
  int64_t length = static_cast<int64_t>(literal.size());
  for (int round = 0; round < 3000; ++round) {
    const uint32_t offset = round % 3 == 0 ? 1 + round % 7 : (round % 3 == 1 ? 65'536 - round % 5 : 8 + round % 300);
    const int n = 1 + round % 64;
    elements.push_back(SnappyCopy(offset, n));
    length += n;
  }
  std::vector<uint8_t> block = SnappyBlock(static_cast<uint32_t>(length), {});
  for (const auto& element : elements) block.insert(block.end(), element.begin(), element.end());
  std::vector<uint8_t> expected(static_cast<size_t>(length));
  ASSERT_TRUE(codec->Decompress(block, expected).ok());
  for (size_t window : {size_t{5}, size_t{4096}, size_t{1} << 20}) {
    auto decoded = ReadAll(stream.get(), block, window);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_TRUE(*decoded == expected) << "window " << window;
  }
  EXPECT_LE(stream->memory_size(), 160 << 10);
}

TEST(StreamingSnappyTest, InputReadInPiecesGivesTheSameBytes) {
  auto pool = MakeSystemMemoryPool();
  auto stream = *MakeStreamingDecompressor(CompressionCodec::kSnappy, pool.get());
  ASSERT_TRUE(stream->supports_input_reader());
  auto codec = *MakeCodec(CompressionCodec::kSnappy, pool.get());
  for (const auto& input : {ShortStrings(300'000, 15), RandomBytes(200'000, 16), Int64Sequence(100'000, 17)}) {
    ResizableBuffer packed(pool.get());
    ASSERT_TRUE(codec->Compress(input, &packed).ok());
    const std::span<const uint8_t> compressed = packed.span();
    // The validation pass reads every byte in order (a checksum can follow it), then decoding
    // reads them again.
    int64_t next = 0;
    int64_t bytes_read = 0;
    auto read = [&](int64_t offset, std::span<uint8_t> out) -> Status {
      EXPECT_LE(offset, next);
      EXPECT_LE(offset + static_cast<int64_t>(out.size()), static_cast<int64_t>(compressed.size()));
      std::memcpy(out.data(), compressed.data() + offset, out.size());
      next = std::max(next, offset + static_cast<int64_t>(out.size()));
      bytes_read += static_cast<int64_t>(out.size());
      return Status::OK();
    };
    MemoryScope scope(pool.get());
    ASSERT_TRUE(stream->ResetWithReader(static_cast<int64_t>(compressed.size()), read, /*read_every_byte=*/true).ok());
    EXPECT_EQ(next, static_cast<int64_t>(compressed.size()));
    std::vector<uint8_t> decoded;
    std::vector<uint8_t> window(10'000);
    while (!stream->finished()) {
      auto n = stream->Read(window);
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      decoded.insert(decoded.end(), window.begin(), window.begin() + *n);
    }
    EXPECT_TRUE(decoded == input);
    EXPECT_LE(bytes_read, 2 * static_cast<int64_t>(compressed.size()) + 4096);
    EXPECT_LE(stream->memory_size(), 160 << 10);  // history, slice and input window: not the page
  }
  // The reader's error stops the decoding with it.
  const auto input = ShortStrings(100'000, 18);
  ResizableBuffer packed(pool.get());
  ASSERT_TRUE(codec->Compress(input, &packed).ok());
  Status st = stream->ResetWithReader(packed.size(), [](int64_t, std::span<uint8_t>) {
    return Status::IOError("disk gone");
  }, /*read_every_byte=*/false);
  EXPECT_TRUE(st.IsIOError()) << st.ToString();
}

TEST(StreamingSnappyTest, CopiesPastTheHistoryAreNotImplementedAndBadOnesCorrupt) {
  auto pool = MakeSystemMemoryPool();
  auto stream = *MakeStreamingDecompressor(CompressionCodec::kSnappy, pool.get());
  const auto literal = RandomBytes(70'000, 10);
  // Valid snappy (the library decodes it), but no 64 KiB-fragment writer makes it.
  const auto far = SnappyBlock(70'010, {SnappyLiteral(literal), SnappyCopy(65'537, 10)});
  auto codec = *MakeCodec(CompressionCodec::kSnappy, pool.get());
  std::vector<uint8_t> out(70'010);
  ASSERT_TRUE(codec->Decompress(far, out).ok());
  EXPECT_TRUE(stream->Reset(far).IsNotImplemented());
  EXPECT_TRUE(stream->Read(out).status().IsInvalid());  // no reading after a refused Reset
  // Before the start of the output, a zero offset, lengths that disagree, a cut operand.
  const std::vector<std::vector<uint8_t>> corrupt = {
      SnappyBlock(20, {SnappyLiteral(RandomBytes(10, 11)), SnappyCopy(11, 10)}),
      SnappyBlock(20, {SnappyLiteral(RandomBytes(10, 12)), SnappyCopy(0, 10)}),
      SnappyBlock(21, {SnappyLiteral(RandomBytes(10, 13)), SnappyCopy(5, 10)}),
      SnappyBlock(19, {SnappyLiteral(RandomBytes(10, 14)), SnappyCopy(5, 10)}),
      SnappyBlock(10, {std::vector<uint8_t>{static_cast<uint8_t>(63 << 2), 9, 0}}),
      {0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
  };
  for (size_t i = 0; i < corrupt.size(); ++i) {
    const Status st = stream->Reset(corrupt[i]);
    EXPECT_TRUE(st.IsCorrupt()) << i << ": " << st.ToString();
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
