// Sequential input streams: files in odd-sized reads, pipes, standard input, memory, errors.
#include "strata/io/input_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace strata {
namespace {

std::string TempPath(const std::string& stem) {
  return (std::filesystem::temp_directory_path() /
          ("strata_input_stream_test_" + std::to_string(::getpid()) + "_" + stem)).string();
}

std::vector<uint8_t> PatternBytes(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>((i * 7 + i / 251) % 256);
  return bytes;
}

void WriteFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Reads to the end in reads of the sizes in `read_sizes`, cycling. A 0 before the end shows
// as missing bytes in the comparison with the expected contents.
std::vector<uint8_t> ReadAll(InputStream* stream, const std::vector<size_t>& read_sizes) {
  std::vector<std::vector<uint8_t>> buffers;  // exact sizes: ASan catches writes past a read
  for (size_t size : read_sizes) buffers.emplace_back(size);
  std::vector<uint8_t> all;
  for (size_t i = 0;; ++i) {
    std::vector<uint8_t>& chunk = buffers[i % buffers.size()];
    auto n = stream->Read(chunk);
    EXPECT_TRUE(n.ok()) << n.status().ToString();
    if (!n.ok() || *n == 0) break;
    EXPECT_LE(*n, static_cast<int64_t>(chunk.size()));
    all.insert(all.end(), chunk.begin(), chunk.begin() + *n);
  }
  return all;
}

class FileInputStreamTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const auto& path : paths_) std::remove(path.c_str());
  }
  std::string MakeFile(const std::string& stem, const std::vector<uint8_t>& bytes) {
    paths_.push_back(TempPath(stem));
    WriteFile(paths_.back(), bytes);
    return paths_.back();
  }
  std::vector<std::string> paths_;
};

TEST_F(FileInputStreamTest, OddSizedReadsReturnTheFileBytes) {
  const auto bytes = PatternBytes(1'000'003);
  const std::string path = MakeFile("odd.bin", bytes);
  auto stream = *OpenFileInputStream(path);
  EXPECT_EQ(stream->name(), path);
  EXPECT_EQ(stream->raw_size(), static_cast<int64_t>(bytes.size()));
  EXPECT_EQ(stream->raw_bytes_read(), 0);
  EXPECT_EQ(ReadAll(stream.get(), {1, 7, 4093, 65'537, 3}), bytes);
  EXPECT_EQ(stream->raw_bytes_read(), static_cast<int64_t>(bytes.size()));
  uint8_t byte;
  EXPECT_EQ(*stream->Read({&byte, 1}), 0);  // the end stays the end
  EXPECT_EQ(*stream->Read({}), 0);
}

TEST_F(FileInputStreamTest, EmptyFileReadsNothing) {
  auto stream = *OpenFileInputStream(MakeFile("empty.bin", {}));
  EXPECT_EQ(stream->raw_size(), 0);
  EXPECT_TRUE(ReadAll(stream.get(), {16}).empty());
}

TEST_F(FileInputStreamTest, MissingFileIsAnIOErrorNamingThePath) {
  const std::string path = TempPath("does_not_exist.csv");
  auto result = OpenFileInputStream(path);
  ASSERT_TRUE(result.status().IsIOError()) << result.status().ToString();
  EXPECT_NE(result.status().message().find(path), std::string::npos);
}

TEST_F(FileInputStreamTest, DirectoryIsAnIOError) {
  const std::string path = std::filesystem::temp_directory_path().string();
  auto result = OpenFileInputStream(path);
  ASSERT_TRUE(result.status().IsIOError()) << result.status().ToString();
  EXPECT_NE(result.status().message().find("directory"), std::string::npos);
}

TEST_F(FileInputStreamTest, PipeHasNoSizeAndReadsToTheEnd) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const auto bytes = PatternBytes(10'000);  // below the pipe's capacity: no writer thread needed
  ASSERT_EQ(::write(fds[1], bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fds[1]);
  auto stream = OpenFileInputStream("/dev/fd/" + std::to_string(fds[0]));
  ::close(fds[0]);  // the stream opened the pipe again
  ASSERT_TRUE(stream.ok()) << stream.status().ToString();
  EXPECT_EQ((*stream)->raw_size(), -1);
  EXPECT_EQ(ReadAll(stream->get(), {333}), bytes);
  EXPECT_EQ((*stream)->raw_bytes_read(), static_cast<int64_t>(bytes.size()));
}

TEST_F(FileInputStreamTest, DashReadsStandardInputAndLeavesItOpen) {
  const auto bytes = PatternBytes(5'000);
  const std::string path = MakeFile("stdin.bin", bytes);
  const int saved_stdin = ::dup(STDIN_FILENO);
  ASSERT_GE(saved_stdin, 0);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::dup2(fd, STDIN_FILENO), STDIN_FILENO);
  ::close(fd);
  {
    auto stream = *OpenFileInputStream("-");
    EXPECT_EQ(stream->name(), "-");
    EXPECT_EQ(stream->raw_size(), static_cast<int64_t>(bytes.size()));
    EXPECT_EQ(ReadAll(stream.get(), {1000}), bytes);
  }
  EXPECT_NE(::fcntl(STDIN_FILENO, F_GETFD), -1);  // not closed by the stream
  ::dup2(saved_stdin, STDIN_FILENO);
  ::close(saved_stdin);
}

TEST(MemoryInputStreamTest, ReadsTheBytesAndCountsThem) {
  const auto bytes = PatternBytes(100'000);
  auto stream = MakeMemoryInputStream(bytes);
  EXPECT_EQ(stream->name(), "<memory>");
  EXPECT_EQ(stream->raw_size(), 100'000);
  EXPECT_EQ(*stream->Read({}), 0);
  EXPECT_EQ(ReadAll(stream.get(), {1, 7, 4096}), bytes);
  EXPECT_EQ(stream->raw_bytes_read(), 100'000);
  EXPECT_EQ(MakeMemoryInputStream({}, "empty")->name(), "empty");
}

}  // namespace
}  // namespace strata
