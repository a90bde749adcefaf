#include "strata/io/output_sink.h"

#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace strata {
namespace {

class OutputSinkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/strata_sink_test_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    path_ = dir_ + "/out.bin";
  }
  void TearDown() override {
    for (const std::string& name : Files()) std::remove((dir_ + "/" + name).c_str());
    rmdir(dir_.c_str());
  }
  std::vector<std::string> Files() const {
    std::vector<std::string> names;
    DIR* d = opendir(dir_.c_str());
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string Read(const std::string& path) const {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  std::string dir_;
  std::string path_;
};

TEST_F(OutputSinkTest, WritesGoToATemporaryFileRenamedOnClose) {
  FileSinkOptions options;
  options.buffer_bytes = 4096;
  auto sink = OpenFileSink(path_, SystemMemoryPool(), options);
  ASSERT_TRUE(sink.ok()) << sink.status().ToString();
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    const std::string piece = std::to_string(i) + std::string(static_cast<size_t>(i % 17), 'x');
    expected += piece;
    ASSERT_TRUE((*sink)->Write(piece.data(), static_cast<int64_t>(piece.size())).ok());
  }
  const std::string big(10000, 'y');  // larger than the buffer: written around it
  expected += big;
  ASSERT_TRUE((*sink)->Write(big.data(), static_cast<int64_t>(big.size())).ok());
  EXPECT_EQ((*sink)->position(), static_cast<int64_t>(expected.size()));
  ASSERT_EQ(Files().size(), 1u);
  EXPECT_NE(Files()[0], "out.bin");
  EXPECT_EQ(Files()[0].rfind(".out.bin.strata-", 0), 0u) << Files()[0];
  ASSERT_TRUE((*sink)->Close().ok());
  EXPECT_EQ(Files(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(Read(path_), expected);
  EXPECT_FALSE((*sink)->Write("z", 1).ok());
  (*sink)->Abort();  // after a successful close: a no-op
  EXPECT_EQ(Read(path_), expected);
}

TEST_F(OutputSinkTest, AbortAndDestructionLeaveNothingAndKeepAnExistingFile) {
  { std::ofstream(path_) << "before"; }
  {
    auto sink = OpenFileSink(path_, SystemMemoryPool());
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE((*sink)->Write("after", 5).ok());
    (*sink)->Abort();
    (*sink)->Abort();
  }
  EXPECT_EQ(Files(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(Read(path_), "before");
  {
    auto sink = OpenFileSink(path_, SystemMemoryPool());
    ASSERT_TRUE(sink.ok());
    ASSERT_TRUE((*sink)->Write("after", 5).ok());
  }  // destroyed unclosed
  EXPECT_EQ(Files(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(Read(path_), "before");
}

TEST_F(OutputSinkTest, BadPathsFailClearly) {
  auto sink = OpenFileSink(dir_ + "/missing/out.bin", SystemMemoryPool());
  ASSERT_FALSE(sink.ok());
  EXPECT_TRUE(sink.status().IsIOError());
  EXPECT_NE(sink.status().message().find("missing/out.bin"), std::string::npos) << sink.status().ToString();
  EXPECT_FALSE(OpenFileSink(dir_ + "/", SystemMemoryPool()).ok());
  FileSinkOptions tiny;
  tiny.buffer_bytes = 1;
  EXPECT_FALSE(OpenFileSink(path_, SystemMemoryPool(), tiny).ok());
}

// A file-size limit (ulimit -f) makes write(2) fail with EFBIG once SIGXFSZ is ignored: the
// sink reports it and removes its temporary file. Run in a child, which owns the limit.
TEST_F(OutputSinkTest, AFileSizeLimitFailsTheWriteAndLeavesNoFile) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    signal(SIGXFSZ, SIG_IGN);
    rlimit limit{64 * 1024, 64 * 1024};
    setrlimit(RLIMIT_FSIZE, &limit);
    FileSinkOptions options;
    options.buffer_bytes = 4096;
    auto sink = OpenFileSink(path_, SystemMemoryPool(), options);
    if (!sink.ok()) _exit(2);
    const std::string block(8192, 'q');
    Status status;
    for (int i = 0; i < 64 && status.ok(); ++i) status = (*sink)->Write(block.data(), 8192);
    if (status.ok()) status = (*sink)->Close();
    const bool named = status.message().find("out.bin") != std::string::npos;
    _exit(status.IsIOError() && named ? 0 : 3);
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFEXITED(wstatus));
  EXPECT_EQ(WEXITSTATUS(wstatus), 0);
  EXPECT_TRUE(Files().empty());
}

// Ctrl-C during a write: the tool's handler removes the temporary file, then the process dies
// of the signal as it would have.
TEST_F(OutputSinkTest, AnInterruptedWriteLeavesNoTemporaryFile) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    RemoveTemporaryFilesOnSignals();
    auto sink = OpenFileSink(path_, SystemMemoryPool());
    if (!sink.ok()) _exit(2);
    const std::string block(100000, 'q');
    if (!(*sink)->Write(block.data(), 100000).ok()) _exit(3);
    raise(SIGINT);
    _exit(4);  // not reached
  }
  int wstatus = 0;
  ASSERT_EQ(waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFSIGNALED(wstatus)) << "exit code " << WEXITSTATUS(wstatus);
  EXPECT_EQ(WTERMSIG(wstatus), SIGINT);
  EXPECT_TRUE(Files().empty());
}

TEST(BufferSinkTest, CollectsBytesInPoolMemory) {
  auto pool = MakeSystemMemoryPool();
  BufferSink sink(pool.get());
  ASSERT_TRUE(sink.Write("abc", 3).ok());
  ASSERT_TRUE(sink.Write("defg", 4).ok());
  EXPECT_FALSE(sink.Finish().ok());  // before Close
  ASSERT_TRUE(sink.Close().ok());
  auto bytes = sink.Finish();
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ((*bytes)->view(), "abcdefg");
  EXPECT_GT(pool->bytes_in_use(), 0);
  EXPECT_FALSE(sink.Write("h", 1).ok());
}

}  // namespace
}  // namespace strata
