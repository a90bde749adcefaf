// ZSTD specifics: hand-built frames from the format spec (RFC 8878), frames without a
// content size, several frames, skippable frames.
#include <gtest/gtest.h>
#include <zstd.h>

#include "strata/codec/codec.h"
#include "strata/codec/codec_test_util.h"

namespace strata::codec {
namespace {

using testing::ShortStrings;

// Magic 0xFD2FB528 (little-endian), frame header descriptor, optional window descriptor and
// content size, then one last raw block of `payload`.
std::vector<uint8_t> RawBlockFrame(std::string_view payload, bool with_content_size) {
  std::vector<uint8_t> frame = {0x28, 0xB5, 0x2F, 0xFD};
  if (with_content_size) {
    frame.push_back(0x20);  // single segment, 1-byte content size
    frame.push_back(static_cast<uint8_t>(payload.size()));
  } else {
    frame.push_back(0x00);  // no content size, window descriptor follows
    frame.push_back(0x00);  // window of 1 KiB
  }
  const uint32_t block_header = 1u | (0u << 1) | (static_cast<uint32_t>(payload.size()) << 3);  // last, raw
  frame.push_back(static_cast<uint8_t>(block_header));
  frame.push_back(static_cast<uint8_t>(block_header >> 8));
  frame.push_back(static_cast<uint8_t>(block_header >> 16));
  frame.insert(frame.end(), payload.begin(), payload.end());
  return frame;
}

// A frame made by zstd's streaming API, which writes no content size.
std::vector<uint8_t> StreamedFrame(std::span<const uint8_t> input) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::vector<uint8_t> out(ZSTD_compressBound(input.size()) + 64);
  ZSTD_inBuffer in{input.data(), input.size(), 0};
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  // Feeding with e_continue first: an e_end first call would record the content size.
  EXPECT_FALSE(ZSTD_isError(ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_continue)));
  size_t remaining;
  do {
    remaining = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end);
  } while (remaining != 0 && !ZSTD_isError(remaining));
  ZSTD_freeCCtx(cctx);
  out.resize(o.pos);
  return out;
}

class ZstdCodecTest : public ::testing::Test {
 protected:
  std::string Decode(std::span<const uint8_t> input, size_t capacity) {
    std::vector<uint8_t> out(capacity);
    auto n = codec_->Decompress(input, out);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok()) return "";
    return std::string(out.begin(), out.begin() + *n);
  }
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::unique_ptr<Codec> codec_ = *MakeCodec(CompressionCodec::kZstd, pool_.get());
};

TEST_F(ZstdCodecTest, DecodesHandBuiltFrames) {
  EXPECT_EQ(Decode(RawBlockFrame("hello", true), 5), "hello");
  EXPECT_EQ(Decode(RawBlockFrame("hello", false), 5), "hello");
  EXPECT_EQ(Decode(RawBlockFrame("hello", false), 64), "hello");
}

TEST_F(ZstdCodecTest, DecodesSeveralFramesAndSkippableFrames) {
  auto input = RawBlockFrame("hello ", false);
  // A skippable frame: magic 0x184D2A50, 4-byte size, ignored payload.
  const uint8_t skippable[] = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 'x', 'y', 'z'};
  input.insert(input.end(), std::begin(skippable), std::end(skippable));
  const auto second = RawBlockFrame("world", true);
  input.insert(input.end(), second.begin(), second.end());
  EXPECT_EQ(Decode(input, 11), "hello world");
}

TEST_F(ZstdCodecTest, DecodesStreamedFramesWithoutContentSize) {
  const auto first = ShortStrings(300'000, 1);
  const auto second = ShortStrings(1000, 2);
  auto input = StreamedFrame(first);
  ASSERT_EQ(ZSTD_getFrameContentSize(input.data(), input.size()), ZSTD_CONTENTSIZE_UNKNOWN);
  const auto more = StreamedFrame(second);
  input.insert(input.end(), more.begin(), more.end());
  std::vector<uint8_t> expected = first;
  expected.insert(expected.end(), second.begin(), second.end());
  std::vector<uint8_t> out(expected.size());
  auto n = codec_->Decompress(input, out);
  ASSERT_TRUE(n.ok()) << n.status().ToString();
  EXPECT_EQ(out, expected);
  // One byte short of the output: Corrupt, without a content size to check up front.
  std::vector<uint8_t> short_out(expected.size() - 1);
  EXPECT_TRUE(codec_->Decompress(input, short_out).status().IsCorrupt());
}

TEST_F(ZstdCodecTest, TrailingBytesAreCorrupt) {
  auto input = RawBlockFrame("hello", true);
  input.push_back(0x01);
  input.push_back(0x02);
  std::vector<uint8_t> out(16);
  auto n = codec_->Decompress(input, out);
  ASSERT_FALSE(n.ok());
  EXPECT_TRUE(n.status().IsCorrupt());
  EXPECT_NE(n.status().message().find("ZSTD"), std::string::npos);
}

TEST_F(ZstdCodecTest, ContentSizeLargerThanTheOutputIsCorrupt) {
  std::vector<uint8_t> out(4);
  auto n = codec_->Decompress(RawBlockFrame("hello", true), out);
  ASSERT_FALSE(n.ok());
  EXPECT_TRUE(n.status().IsCorrupt());
  EXPECT_NE(n.status().message().find("more than the declared 4 bytes"), std::string::npos)
      << n.status().ToString();
}

}  // namespace
}  // namespace strata::codec
