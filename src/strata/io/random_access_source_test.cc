#include "strata/io/random_access_source.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace strata {
namespace {

class LocalFileSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("strata_io_test_" + std::to_string(::getpid()) + ".bin")).string();
    std::ofstream out(path_, std::ios::binary);
    for (int i = 0; i < 1000; ++i) out.put(static_cast<char>(i % 251));
  }
  void TearDown() override { std::remove(path_.c_str()); }
  std::string path_;
};

TEST_F(LocalFileSourceTest, ReadsRanges) {
  auto source = *OpenLocalFile(path_);
  EXPECT_EQ(*source->Size(), 1000);
  uint8_t bytes[10];
  ASSERT_TRUE(source->ReadAt(500, 10, bytes).ok());
  for (int i = 0; i < 10; ++i) EXPECT_EQ(bytes[i], (500 + i) % 251);
  auto pool = MakeSystemMemoryPool();
  auto buffer = *source->ReadBufferAt(990, 10, pool.get());
  EXPECT_EQ(buffer->size(), 10);
  EXPECT_EQ(buffer->data()[9], 999 % 251);
  EXPECT_EQ(source->read_count(), 2);
}

TEST_F(LocalFileSourceTest, ShortReadIsAnError) {
  auto source = *OpenLocalFile(path_);
  uint8_t bytes[20];
  Status st = source->ReadAt(990, 20, bytes);
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find(path_), std::string::npos);
  EXPECT_TRUE(source->ReadAt(-1, 1, bytes).IsIOError());
}

TEST_F(LocalFileSourceTest, MemoryMappedReadsEqualPreadReads) {
  auto pread_source = *OpenLocalFile(path_);
  auto mapped = *OpenLocalFile(path_, LocalFileOptions{.memory_map = true});
  EXPECT_EQ(*mapped->Size(), 1000);
  EXPECT_EQ(mapped->name(), path_);
  for (int64_t offset : {0, 1, 499, 990}) {
    uint8_t expected[10], actual[10];
    ASSERT_TRUE(pread_source->ReadAt(offset, 10, expected).ok());
    ASSERT_TRUE(mapped->ReadAt(offset, 10, actual).ok());
    EXPECT_EQ(std::memcmp(expected, actual, 10), 0) << offset;
  }
  EXPECT_EQ(mapped->read_count(), 4);
  EXPECT_EQ(mapped->bytes_read(), 40);
  EXPECT_EQ(pread_source->bytes_read(), 40);
  uint8_t bytes[20];
  Status st = mapped->ReadAt(990, 20, bytes);
  ASSERT_TRUE(st.IsIOError());
  EXPECT_NE(st.message().find(path_), std::string::npos);
  EXPECT_TRUE(mapped->ReadAt(-1, 1, bytes).IsIOError());
  EXPECT_TRUE(mapped->ReadBufferAt(1000, 1, nullptr).status().IsIOError());
}

TEST_F(LocalFileSourceTest, MemoryMappedSlicesAreZeroCopyAndOutliveTheSource) {
  auto pool = MakeSystemMemoryPool();
  auto mapped = *OpenLocalFile(path_, LocalFileOptions{.memory_map = true});
  auto first = *mapped->ReadBufferAt(100, 50, pool.get());
  auto second = *mapped->ReadBufferAt(300, 50, pool.get());
  EXPECT_EQ(second->data() - first->data(), 200);  // both point into the one mapping
  EXPECT_EQ(pool->num_allocations(), 0);
  mapped.reset();  // the slices keep the mapping alive
  for (int i = 0; i < 50; ++i) EXPECT_EQ(second->data()[i], (300 + i) % 251);
}

TEST(LocalFileTest, EmptyFileMapsAndReadsNothing) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("strata_io_empty_" + std::to_string(::getpid()) + ".bin")).string();
  std::ofstream(path, std::ios::binary).flush();
  for (bool memory_map : {false, true}) {
    auto source = OpenLocalFile(path, LocalFileOptions{.memory_map = memory_map});
    ASSERT_TRUE(source.ok()) << source.status().ToString();
    EXPECT_EQ(*(*source)->Size(), 0);
    auto empty = (*source)->ReadBufferAt(0, 0, SystemMemoryPool());
    ASSERT_TRUE(empty.ok());
    EXPECT_EQ((*empty)->size(), 0);
    uint8_t byte;
    EXPECT_TRUE((*source)->ReadAt(0, 1, &byte).IsIOError());
  }
  std::remove(path.c_str());
}

TEST(LocalFileTest, DirectoryIsRejected) {
  auto result = OpenLocalFile(std::filesystem::temp_directory_path().string(), LocalFileOptions{.memory_map = true});
  ASSERT_FALSE(result.ok());
  EXPECT_TRUE(result.status().IsIOError());
}

TEST(LocalFileTest, MissingFileNamesThePath) {
  auto result = OpenLocalFile("/nonexistent/strata.parquet");
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("/nonexistent/strata.parquet"), std::string::npos);
}

TEST(BufferSourceTest, SlicesWithoutCopy) {
  std::string text = "hello parquet";
  auto source = MakeBufferSource(std::make_shared<Buffer>(text));
  auto pool = MakeSystemMemoryPool();
  auto slice = *source->ReadBufferAt(6, 7, pool.get());
  EXPECT_EQ(slice->view(), "parquet");
  EXPECT_EQ(pool->num_allocations(), 0);
}

}  // namespace
}  // namespace strata
