#include "strata/io/random_access_source.h"

#include <gtest/gtest.h>

#include <cstdio>
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
