// Decompressing input streams: gzip and zstd round trips at every read size, concatenated
// members and frames, truncated, malformed and empty input, bounded memory, and OpenInputStream
// on files (by extension and by sniffing) and pipes. Inputs come from zlib's and zstd's own
// compressors.
#include "strata/codec/decompressing_input_stream.h"

#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_getFrameHeader
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "strata/memory/memory_scope.h"

namespace strata::codec {
namespace {

using Bytes = std::vector<uint8_t>;

// CSV-like text: numbers, words and quoted comments, compressible as real CSV is.
Bytes GenerateCsv(size_t size, uint64_t seed) {
  static const char* kWords[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"};
  std::string text;
  text.reserve(size + 128);
  uint64_t state = seed;
  for (int64_t row = 0; text.size() < size; ++row) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    text += std::to_string(row) + "," + kWords[(state >> 40) % 8] + std::to_string((state >> 20) % 1000) + "," +
            std::to_string((state >> 8) % 100000) + ".25,\"a comment about " + kWords[(state >> 50) % 8] + "\"\n";
  }
  text.resize(size);
  return Bytes(text.begin(), text.end());
}

Bytes Concat(std::initializer_list<Bytes> parts) {
  Bytes all;
  for (const auto& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

// One deflate stream with a gzip header (window_bits 31) or a zlib one (15).
Bytes Deflate(const Bytes& input, int window_bits = 15 + 16, int level = 6) {
  z_stream stream{};
  EXPECT_EQ(deflateInit2(&stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY), Z_OK);
  Bytes out(deflateBound(&stream, static_cast<uLong>(input.size())) + 32);
  stream.next_in = const_cast<Bytef*>(input.data());
  stream.avail_in = static_cast<uInt>(input.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&stream, Z_FINISH), Z_STREAM_END);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

// One zstd frame, with a content checksum so that the last bytes matter too.
Bytes ZstdFrame(const Bytes& input, int level = 3) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
  Bytes out(ZSTD_compressBound(input.size()));
  const size_t n = ZSTD_compress2(cctx, out.data(), out.size(), input.data(), input.size());
  EXPECT_FALSE(ZSTD_isError(n)) << ZSTD_getErrorName(n);
  ZSTD_freeCCtx(cctx);
  out.resize(n);
  return out;
}

// A skippable frame (magic 0x184D2A5?, little-endian payload size, payload).
Bytes SkippableFrame(size_t payload_size) {
  Bytes frame = {0x5a, 0x2a, 0x4d, 0x18};
  for (int i = 0; i < 4; ++i) frame.push_back(static_cast<uint8_t>(payload_size >> (8 * i)));
  frame.resize(frame.size() + payload_size, 0xab);
  return frame;
}

// Reads to the end through reads of exactly `read_size` bytes (a 0 before the end shows as
// missing bytes); the status of the first failed read otherwise.
Result<Bytes> ReadAll(InputStream* stream, size_t read_size) {
  Bytes buffer(read_size);  // exact size: ASan catches writes past the read
  Bytes all;
  while (true) {
    STRATA_ASSIGN_OR_RETURN(const int64_t n, stream->Read(buffer));
    EXPECT_LE(n, static_cast<int64_t>(read_size));
    if (n == 0) break;
    all.insert(all.end(), buffer.begin(), buffer.begin() + n);
  }
  STRATA_ASSIGN_OR_RETURN(const int64_t after_end, stream->Read(buffer));
  EXPECT_EQ(after_end, 0);
  return all;
}

class DecompressingInputStreamTest : public ::testing::Test {
 protected:
  // A decompressing stream over `compressed`, which must outlive it.
  std::unique_ptr<InputStream> Open(const Bytes& compressed, StreamCompression compression,
                                    std::string name = "test.csv.gz") {
    auto stream = MakeDecompressingInputStream(MakeMemoryInputStream(compressed, std::move(name)),
                                               compression, pool_.get());
    EXPECT_TRUE(stream.ok()) << stream.status().ToString();
    return stream.ok() ? std::move(*stream) : nullptr;
  }
  Result<Bytes> Decompress(const Bytes& compressed, StreamCompression compression, size_t read_size = 4096) {
    return ReadAll(Open(compressed, compression).get(), read_size);
  }
  // Expects reading `compressed` to fail with `code`, naming the stream and an offset.
  void ExpectFailure(const Bytes& compressed, StreamCompression compression, StatusCode code,
                     const std::string& label) {
    auto result = ReadAll(Open(compressed, compression, "bad.input").get(), 1000);
    ASSERT_FALSE(result.ok()) << label;
    EXPECT_EQ(result.status().code(), code) << label << ": " << result.status().ToString();
    EXPECT_NE(result.status().message().find("'bad.input'"), std::string::npos) << result.status().ToString();
    EXPECT_NE(result.status().message().find("offset"), std::string::npos) << result.status().ToString();
  }

  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
};

TEST_F(DecompressingInputStreamTest, GzipAndZstdRoundTripAtEveryReadSize) {
  const Bytes text = GenerateCsv(3 << 20, 1);
  const Bytes gzip = Deflate(text);
  const Bytes zstd = ZstdFrame(text);
  for (size_t read_size : {size_t{1}, size_t{7}, size_t{4096}, size_t{1} << 20}) {
    for (auto [compressed, compression] : {std::pair{&gzip, StreamCompression::kGzip},
                                           std::pair{&zstd, StreamCompression::kZstd}}) {
      auto stream = Open(*compressed, compression);
      auto result = ReadAll(stream.get(), read_size);
      ASSERT_TRUE(result.ok()) << result.status().ToString();
      EXPECT_TRUE(*result == text) << StreamCompressionName(compression) << " at reads of " << read_size;
      EXPECT_EQ(stream->raw_bytes_read(), static_cast<int64_t>(compressed->size()));
      EXPECT_EQ(stream->raw_size(), static_cast<int64_t>(compressed->size()));
      EXPECT_EQ(stream->name(), "test.csv.gz");
    }
  }
}

TEST_F(DecompressingInputStreamTest, ZlibHeaderIsDetected) {
  const Bytes text = GenerateCsv(100'000, 2);
  auto result = Decompress(Deflate(text, 15), StreamCompression::kGzip);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(*result == text);
}

TEST_F(DecompressingInputStreamTest, ConcatenatedGzipMembersAreAllRead) {
  const Bytes a = GenerateCsv(400'000, 3), b = GenerateCsv(10, 4), c = GenerateCsv(700'000, 5);
  // An empty member in the middle, as `gzip < /dev/null` makes.
  const Bytes members = Concat({Deflate(a), Deflate({}), Deflate(b, 31, 1), Deflate(c)});
  for (size_t read_size : {size_t{7}, size_t{1} << 20}) {
    auto result = Decompress(members, StreamCompression::kGzip, read_size);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_TRUE(*result == Concat({a, b, c}));
  }
}

TEST_F(DecompressingInputStreamTest, ConcatenatedZstdFramesAreAllReadAndSkippableFramesSkipped) {
  const Bytes a = GenerateCsv(500'000, 6), b = GenerateCsv(300'000, 7);
  const Bytes frames = Concat({SkippableFrame(16), ZstdFrame(a), ZstdFrame({}), SkippableFrame(0),
                               ZstdFrame(b, 1), SkippableFrame(300'000)});
  for (size_t read_size : {size_t{7}, size_t{1} << 20}) {
    auto result = Decompress(frames, StreamCompression::kZstd, read_size);
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_TRUE(*result == Concat({a, b}));
  }
}

TEST_F(DecompressingInputStreamTest, TruncatedInputIsCorrupt) {
  const Bytes text = GenerateCsv(600'000, 8);
  for (auto [compressed, compression] : {std::pair{Deflate(text), StreamCompression::kGzip},
                                         std::pair{ZstdFrame(text), StreamCompression::kZstd}}) {
    for (size_t keep : {size_t{1}, size_t{3}, size_t{11}, compressed.size() / 2, compressed.size() - 1}) {
      const Bytes cut(compressed.begin(), compressed.begin() + static_cast<std::ptrdiff_t>(keep));
      ExpectFailure(cut, compression, StatusCode::kCorrupt,
                    std::string(StreamCompressionName(compression)) + " cut to " + std::to_string(keep));
    }
  }
  // Truncated in the second member: the offset counts from the start of the whole input.
  const Bytes two = Concat({Deflate(text), Deflate(text)});
  auto result = Decompress(Bytes(two.begin(), two.end() - 4), StreamCompression::kGzip);
  ASSERT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
  EXPECT_NE(result.status().message().find("member 2"), std::string::npos) << result.status().ToString();
  EXPECT_NE(result.status().message().find(std::to_string(two.size() - 4)), std::string::npos)
      << result.status().ToString();
}

TEST_F(DecompressingInputStreamTest, GarbageIsCorrupt) {
  const Bytes garbage = GenerateCsv(5000, 9);  // text, not compressed data
  ExpectFailure(garbage, StreamCompression::kGzip, StatusCode::kCorrupt, "gzip garbage");
  ExpectFailure(garbage, StreamCompression::kZstd, StatusCode::kCorrupt, "zstd garbage");
  // A valid header followed by noise.
  Bytes gzip = Deflate(garbage);
  for (size_t i = 10; i < gzip.size(); ++i) gzip[i] = static_cast<uint8_t>(i * 131);
  ExpectFailure(gzip, StreamCompression::kGzip, StatusCode::kCorrupt, "gzip noise");
  Bytes zstd = ZstdFrame(garbage);
  for (size_t i = 12; i < zstd.size(); ++i) zstd[i] = static_cast<uint8_t>(i * 131);
  ExpectFailure(zstd, StreamCompression::kZstd, StatusCode::kCorrupt, "zstd noise");
  // Bytes after the last member or frame must start another one.
  const Bytes trailer = {'j', 'u', 'n', 'k', '\n', 0, 0, 0};
  ExpectFailure(Concat({Deflate(garbage), trailer}), StreamCompression::kGzip, StatusCode::kCorrupt, "gzip trailer");
  ExpectFailure(Concat({ZstdFrame(garbage), trailer}), StreamCompression::kZstd, StatusCode::kCorrupt,
                "zstd trailer");
}

TEST_F(DecompressingInputStreamTest, EmptyInputIsCorruptButAnEmptyMemberReadsAsEmpty) {
  // 0 bytes hold no member or frame: a truncated file, refused as gzip(1) and zstd(1) do.
  for (auto compression : {StreamCompression::kGzip, StreamCompression::kZstd}) {
    auto result = Decompress({}, compression);
    ASSERT_TRUE(result.status().IsCorrupt()) << result.status().ToString();
    EXPECT_NE(result.status().message().find("is empty"), std::string::npos) << result.status().ToString();
  }
  auto gzip = Decompress(Deflate({}), StreamCompression::kGzip);
  ASSERT_TRUE(gzip.ok()) << gzip.status().ToString();
  EXPECT_TRUE(gzip->empty());
  auto zstd = Decompress(ZstdFrame({}), StreamCompression::kZstd);
  ASSERT_TRUE(zstd.ok()) << zstd.status().ToString();
  EXPECT_TRUE(zstd->empty());
}

TEST_F(DecompressingInputStreamTest, ZstdWindowAboveTheLimitIsLimitExceeded) {
  // A frame header declaring a 256 MiB window (exponent 18: 2^(10 + 18)), then an empty last block.
  const Bytes frame = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 18 << 3, 0x01, 0x00, 0x00};
  ExpectFailure(frame, StreamCompression::kZstd, StatusCode::kLimitExceeded, "256 MiB window");
}

TEST_F(DecompressingInputStreamTest, PoolLimitIsOutOfMemory) {
  const Bytes zstd = ZstdFrame(GenerateCsv(4 << 20, 10));
  pool_->set_limit(100 * 1024);  // below the input buffer
  auto refused = MakeDecompressingInputStream(MakeMemoryInputStream(zstd), StreamCompression::kZstd, pool_.get());
  EXPECT_TRUE(refused.status().IsOutOfMemory()) << refused.status().ToString();
  pool_->set_limit(kDecompressionChunkBytes + 200 * 1024);  // the buffer and context, not the window
  ExpectFailure(zstd, StreamCompression::kZstd, StatusCode::kOutOfMemory, "window over the limit");
  // The pool's own words, behind what was being decompressed.
  auto result = ReadAll(Open(zstd, StreamCompression::kZstd, "bad.input").get(), 1000);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("zstd decompression: allocation of"), std::string::npos)
      << result.status().ToString();
  EXPECT_NE(result.status().message().find("exceeds the memory limit of"), std::string::npos)
      << result.status().ToString();
}

TEST_F(DecompressingInputStreamTest, PeakMemoryStaysBoundedOver50MB) {
  const Bytes text = GenerateCsv(50 << 20, 11);
  for (auto [compressed, compression] : {std::pair{Deflate(text, 31, 1), StreamCompression::kGzip},
                                         std::pair{ZstdFrame(text, 1), StreamCompression::kZstd}}) {
    int64_t window = 0;
    if (compression == StreamCompression::kZstd) {
      ZSTD_frameHeader header;
      ASSERT_EQ(ZSTD_getFrameHeader(&header, compressed.data(), compressed.size()), 0u);
      window = static_cast<int64_t>(header.windowSize);
    }
    const int64_t bound = (2 << 20) + window;
    MemoryScope scope(pool_.get());
    auto stream = Open(compressed, compression);
    Bytes buffer(1 << 20);
    size_t position = 0;
    bool equal = true;
    while (true) {
      auto n = stream->Read(buffer);
      ASSERT_TRUE(n.ok()) << n.status().ToString();
      if (*n == 0) break;
      // Everything this pool holds is the stream's, and it says so.
      EXPECT_EQ(stream->memory_size(), pool_->bytes_in_use());
      equal = equal && position + *n <= text.size() &&
              std::memcmp(buffer.data(), text.data() + position, static_cast<size_t>(*n)) == 0;
      position += static_cast<size_t>(*n);
    }
    EXPECT_TRUE(equal && position == text.size()) << StreamCompressionName(compression);
    const MemoryDelta delta = scope.delta();
    EXPECT_LT(delta.peak_above_start, bound) << StreamCompressionName(compression) << ", window " << window;
    EXPECT_GE(delta.peak_above_start, kDecompressionChunkBytes);
    std::printf("%s: peak %lld bytes in %lld allocations (window %lld)\n",
                std::string(StreamCompressionName(compression)).c_str(),
                static_cast<long long>(delta.peak_above_start), static_cast<long long>(delta.num_allocations),
                static_cast<long long>(window));
    stream.reset();
    EXPECT_EQ(pool_->bytes_in_use(), 0);
  }
}

TEST(CompressionFromPathTest, ReadsTheExtension) {
  EXPECT_EQ(CompressionFromPath("data.csv.gz"), StreamCompression::kGzip);
  EXPECT_EQ(CompressionFromPath("/tmp/DATA.CSV.GZ"), StreamCompression::kGzip);
  EXPECT_EQ(CompressionFromPath("data.csv.zst"), StreamCompression::kZstd);
  EXPECT_EQ(CompressionFromPath("data.zstd"), StreamCompression::kZstd);
  EXPECT_EQ(CompressionFromPath("data.csv"), StreamCompression::kNone);
  EXPECT_EQ(CompressionFromPath("data.gzip"), StreamCompression::kNone);
  EXPECT_EQ(CompressionFromPath("gz"), StreamCompression::kNone);
  EXPECT_EQ(CompressionFromPath("-"), StreamCompression::kNone);
}

class OpenInputStreamTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const auto& path : paths_) std::remove(path.c_str());
  }
  std::string WriteFile(const std::string& name, const Bytes& bytes) {
    paths_.push_back((std::filesystem::temp_directory_path() /
                      ("strata_open_input_stream_" + std::to_string(::getpid()) + "_" + name)).string());
    std::ofstream out(paths_.back(), std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return paths_.back();
  }
  Result<Bytes> ReadPath(const std::string& path) {
    STRATA_ASSIGN_OR_RETURN(auto stream, OpenInputStream(path, pool_.get()));
    return ReadAll(stream.get(), 1000);
  }
  std::unique_ptr<MemoryPool> pool_ = MakeSystemMemoryPool();
  std::vector<std::string> paths_;
};

TEST_F(OpenInputStreamTest, DecompressesByExtensionAndBySniffing) {
  const Bytes text = GenerateCsv(700'000, 12);
  for (const auto& [name, bytes] : std::vector<std::pair<std::string, Bytes>>{
           {"a.csv.gz", Deflate(text)}, {"a.csv.zst", ZstdFrame(text)}, {"a.CSV.ZSTD", ZstdFrame(text)},
           {"gzip_without_extension.csv", Deflate(text)}, {"zstd_without_extension", ZstdFrame(text)},
           {"plain.csv", text}}) {
    const std::string path = WriteFile(name, bytes);
    auto stream = OpenInputStream(path, pool_.get());
    ASSERT_TRUE(stream.ok()) << stream.status().ToString();
    EXPECT_EQ((*stream)->name(), path);
    EXPECT_EQ((*stream)->raw_size(), static_cast<int64_t>(bytes.size()));
    auto result = ReadAll(stream->get(), 4096);
    ASSERT_TRUE(result.ok()) << name << ": " << result.status().ToString();
    EXPECT_TRUE(*result == text) << name;
    EXPECT_EQ((*stream)->raw_bytes_read(), static_cast<int64_t>(bytes.size())) << name;
  }
}

TEST_F(OpenInputStreamTest, ShortPlainFilesAreNotMistakenForCompressedOnes) {
  for (const Bytes& bytes : {Bytes{}, Bytes{'x'}, Bytes{0x1f}, Bytes{0x28, 0xb5, 0x2f}, Bytes{'a', ',', 'b', '\n'}}) {
    auto result = ReadPath(WriteFile("short_" + std::to_string(bytes.size()), bytes));
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_TRUE(*result == bytes);
  }
}

TEST_F(OpenInputStreamTest, ErrorsNameThePath) {
  const std::string missing = (std::filesystem::temp_directory_path() / "strata_no_such_file.csv.gz").string();
  auto result = OpenInputStream(missing, pool_.get());
  ASSERT_TRUE(result.status().IsIOError()) << result.status().ToString();
  EXPECT_NE(result.status().message().find(missing), std::string::npos);
  const std::string empty = WriteFile("empty.csv.gz", {});
  auto empty_result = ReadPath(empty);
  ASSERT_TRUE(empty_result.status().IsCorrupt()) << empty_result.status().ToString();
  EXPECT_NE(empty_result.status().message().find(empty), std::string::npos);
}

TEST_F(OpenInputStreamTest, SniffsAPipe) {
  const Bytes text = GenerateCsv(100'000, 13);
  const Bytes gzip = Deflate(text, 31, 9);
  ASSERT_LT(gzip.size(), 60'000u);  // fits in the pipe: no writer thread needed
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  ASSERT_EQ(::write(fds[1], gzip.data(), gzip.size()), static_cast<ssize_t>(gzip.size()));
  ::close(fds[1]);
  auto result = ReadPath("/dev/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_TRUE(*result == text);
}

}  // namespace
}  // namespace strata::codec
