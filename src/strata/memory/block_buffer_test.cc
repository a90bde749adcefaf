#include "strata/memory/block_buffer.h"

#include <string>

#include <gtest/gtest.h>

namespace strata {
namespace {

std::string Collect(const BlockBuffer& buffer) {
  std::string out;
  Status st = buffer.ForEachPiece([&](std::span<const uint8_t> piece) {
    out.append(reinterpret_cast<const char*>(piece.data()), piece.size());
    return Status::OK();
  });
  EXPECT_TRUE(st.ok());
  return out;
}

TEST(BlockBufferTest, AppendsAcrossBlocksInOrder) {
  auto pool = MakeSystemMemoryPool();
  BlockBuffer buffer(pool.get(), 64);
  std::string expected;
  for (int i = 0; i < 200; ++i) {
    const std::string piece(static_cast<size_t>(i % 150), static_cast<char>('a' + i % 26));
    expected += piece;
    ASSERT_TRUE(buffer.Append(piece.data(), static_cast<int64_t>(piece.size())).ok());
  }
  EXPECT_EQ(buffer.size(), static_cast<int64_t>(expected.size()));
  EXPECT_EQ(Collect(buffer), expected);
  // Never more than one block beyond what is used, and nothing reallocated.
  EXPECT_LT(buffer.capacity() - buffer.size(), 64);
  EXPECT_EQ(pool->num_reallocations(), 0);
  EXPECT_EQ(pool->bytes_in_use(), buffer.capacity());
}

TEST(BlockBufferTest, ClearKeepsBlocksSoTheNextFillAllocatesNothing) {
  auto pool = MakeSystemMemoryPool();
  BlockBuffer buffer(pool.get(), 1024);
  const std::string data(10000, 'x');
  ASSERT_TRUE(buffer.Append(data.data(), 10000).ok());
  const int64_t allocations = pool->num_allocations();
  buffer.Clear();
  EXPECT_EQ(buffer.size(), 0);
  EXPECT_EQ(Collect(buffer), "");
  ASSERT_TRUE(buffer.Append(data.data(), 10000).ok());
  EXPECT_EQ(pool->num_allocations(), allocations);
  EXPECT_EQ(Collect(buffer), data);
  buffer.Release();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(BlockBufferTest, ErrorsStopTheWalkAndAPoolLimitFailsCleanly) {
  auto pool = MakeSystemMemoryPool();
  BlockBuffer buffer(pool.get(), 100);
  const std::string data(250, 'y');
  ASSERT_TRUE(buffer.Append(data.data(), 250).ok());
  int pieces = 0;
  Status st = buffer.ForEachPiece([&](std::span<const uint8_t>) {
    ++pieces;
    return Status::IOError("disk full");
  });
  EXPECT_TRUE(st.IsIOError());
  EXPECT_EQ(pieces, 1);
  pool->set_limit(pool->bytes_in_use() + 50);
  EXPECT_TRUE(buffer.Append(data.data(), 250).IsOutOfMemory() || !buffer.Append(data.data(), 250).ok());
}

}  // namespace
}  // namespace strata
