// GZIP specifics: concatenated members, zlib headers, trailing bytes, checksums.
#include <gtest/gtest.h>
#include <zlib.h>

#include "strata/codec/codec.h"
#include "strata/codec/codec_test_util.h"

namespace strata::codec {
namespace {

using testing::AsBytes;
using testing::ShortStrings;

// One gzip member (windowBits 31) or zlib stream (windowBits 15) made with zlib itself.
std::vector<uint8_t> Deflate(std::span<const uint8_t> input, int window_bits) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  std::vector<uint8_t> out(deflateBound(&stream, input.size()) + 32);
  stream.next_in = const_cast<Bytef*>(input.data());
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

std::vector<uint8_t> Concat(std::initializer_list<std::vector<uint8_t>> parts) {
  std::vector<uint8_t> all;
  for (const auto& p : parts) all.insert(all.end(), p.begin(), p.end());
  return all;
}

class GzipCodecTest : public ::testing::Test {
 protected:
  void SetUp() override { codec_ = *MakeCodec(CompressionCodec::kGzip, pool_.get()); }
  Result<int64_t> Decode(std::span<const uint8_t> input, std::vector<uint8_t>* out) {
    return codec_->Decompress(input, *out);
  }
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::unique_ptr<Codec> codec_;
};

TEST_F(GzipCodecTest, DecodesConcatenatedMembers) {
  const auto first = ShortStrings(7000, 1);
  const auto second = ShortStrings(3000, 2);
  const auto third = AsBytes("the third member");
  const auto stream = Concat({Deflate(first, 31), Deflate(second, 31),
                              Deflate(third, 31)});
  std::vector<uint8_t> expected = Concat({first, second, {third.begin(), third.end()}});
  std::vector<uint8_t> out(expected.size());
  auto written = Decode(stream, &out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(*written, static_cast<int64_t>(expected.size()));
  EXPECT_EQ(out, expected);
}

TEST_F(GzipCodecTest, DecodesEmptyMembersBetweenAndAfter) {
  const auto data = AsBytes("payload");
  const auto stream = Concat({Deflate({}, 31), Deflate(data, 31), Deflate({}, 31)});
  std::vector<uint8_t> out(data.size());  // exactly full before the last (empty) member
  auto written = Decode(stream, &out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(std::string(out.begin(), out.end()), "payload");
}

TEST_F(GzipCodecTest, DecodesZlibStreams) {
  const auto input = ShortStrings(5000, 3);
  std::vector<uint8_t> out(input.size());
  auto written = Decode(Deflate(input, 15), &out);
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  EXPECT_EQ(out, input);
}

TEST_F(GzipCodecTest, WritesGzipMembers) {
  const auto input = ShortStrings(5000, 4);
  ResizableBuffer compressed(pool_.get());
  ASSERT_TRUE(codec_->Compress(input, &compressed).ok());
  ASSERT_GE(compressed.size(), 18);
  EXPECT_EQ(compressed.data()[0], 0x1f);  // gzip magic
  EXPECT_EQ(compressed.data()[1], 0x8b);
  // zlib's own gunzip agrees.
  z_stream stream{};
  ASSERT_EQ(inflateInit2(&stream, 31), Z_OK);
  std::vector<uint8_t> out(input.size());
  stream.next_in = const_cast<Bytef*>(compressed.data());
  stream.avail_in = static_cast<uInt>(compressed.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(inflate(&stream, Z_FINISH), Z_STREAM_END);
  inflateEnd(&stream);
  EXPECT_EQ(out, input);
}

TEST_F(GzipCodecTest, TrailingGarbageIsCorrupt) {
  const auto data = AsBytes("payload");
  auto stream = Deflate(data, 31);
  stream.push_back(0x00);
  stream.push_back(0x17);
  std::vector<uint8_t> out(100);
  auto result = Decode(stream, &out);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
}

TEST_F(GzipCodecTest, ChecksumMismatchIsCorrupt) {
  const auto input = ShortStrings(2000, 5);
  auto stream = Deflate(input, 31);
  stream[stream.size() - 6] ^= 0x01;  // the CRC-32 in the trailer
  std::vector<uint8_t> out(input.size());
  auto result = Decode(stream, &out);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt());
  EXPECT_NE(result.status().message().find("incorrect data check"), std::string::npos)
      << result.status().ToString();
}

TEST_F(GzipCodecTest, SecondMemberOverflowingTheOutputIsCorrupt) {
  const auto stream = Concat({Deflate(AsBytes("abc"), 31), Deflate(AsBytes("def"), 31)});
  std::vector<uint8_t> out(5);
  auto result = Decode(stream, &out);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt());
}

TEST_F(GzipCodecTest, TruncatedSecondMemberIsCorrupt) {
  auto stream = Concat({Deflate(AsBytes("abc"), 31), Deflate(AsBytes("def"), 31)});
  stream.resize(stream.size() - 3);
  std::vector<uint8_t> out(6);
  auto result = Decode(stream, &out);
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsCorrupt());
  EXPECT_NE(result.status().message().find("ends inside a member"), std::string::npos)
      << result.status().ToString();
}

}  // namespace
}  // namespace strata::codec
