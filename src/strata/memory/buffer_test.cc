#include "strata/memory/buffer.h"

#include <gtest/gtest.h>

#include "strata/memory/memory_scope.h"

namespace strata {
namespace {

TEST(ResizableBufferTest, ReserveWithinCapacityAllocatesNothing) {
  auto pool = MakeSystemMemoryPool();
  auto buffer = *ResizableBuffer::Make(pool.get(), 1000);
  EXPECT_EQ(buffer->capacity(), 1024);  // exact, rounded up to 64
  MemoryScope scope(pool.get());
  for (int64_t n = 0; n <= 1024; n += 16) ASSERT_TRUE(buffer->Reserve(n).ok());
  EXPECT_EQ(scope.delta().num_allocations, 0);
  EXPECT_EQ(scope.delta().num_reallocations, 0);
  EXPECT_EQ(buffer->capacity(), 1024);
}

TEST(ResizableBufferTest, AppendAfterReserveNeverReallocates) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer buffer(pool.get());
  constexpr int64_t kValues = 100000;
  ASSERT_TRUE(buffer.Reserve(kValues * sizeof(int64_t)).ok());
  MemoryScope scope(pool.get());
  for (int64_t i = 0; i < kValues; ++i) ASSERT_TRUE(buffer.Append(&i, sizeof(i)).ok());
  EXPECT_EQ(scope.delta().num_allocations, 0);
  EXPECT_EQ(scope.delta().num_reallocations, 0);
  EXPECT_EQ(buffer.size(), kValues * 8);
  EXPECT_EQ(buffer.data_as<int64_t>()[kValues - 1], kValues - 1);
}

TEST(ResizableBufferTest, ReserveIsExactNotDoubling) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer buffer(pool.get());
  ASSERT_TRUE(buffer.Reserve(1000).ok());
  ASSERT_TRUE(buffer.Reserve(1100).ok());
  EXPECT_EQ(buffer.capacity(), 1152);
  EXPECT_EQ(pool->bytes_in_use(), 1152);
}

TEST(ResizableBufferTest, GrowForAppendDoubles) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer buffer(pool.get());
  ASSERT_TRUE(buffer.Reserve(64).ok());
  ASSERT_TRUE(buffer.GrowForAppend(65).ok());
  EXPECT_EQ(buffer.capacity(), 128);
  ASSERT_TRUE(buffer.GrowForAppend(1000).ok());
  EXPECT_EQ(buffer.capacity(), 1024);
}

TEST(ResizableBufferTest, ResizeZeroedZeroesOnlyNewBytes) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer buffer(pool.get());
  ASSERT_TRUE(buffer.Resize(4).ok());
  std::memset(buffer.mutable_data(), 0xff, 4);
  ASSERT_TRUE(buffer.ResizeZeroed(100).ok());
  EXPECT_EQ(buffer.data()[3], 0xff);
  for (int i = 4; i < 100; ++i) ASSERT_EQ(buffer.data()[i], 0);
}

TEST(ResizableBufferTest, ClearKeepsCapacityAndShrinkReleases) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer buffer(pool.get());
  ASSERT_TRUE(buffer.Resize(5000).ok());
  buffer.Clear();
  EXPECT_EQ(buffer.size(), 0);
  EXPECT_EQ(buffer.capacity(), 5056);
  ASSERT_TRUE(buffer.Resize(10).ok());
  ASSERT_TRUE(buffer.ShrinkToFit().ok());
  EXPECT_EQ(buffer.capacity(), 64);
  EXPECT_EQ(pool->bytes_in_use(), 64);
  buffer.Release();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(BufferTest, SliceKeepsParentAlive) {
  auto pool = MakeSystemMemoryPool();
  std::shared_ptr<Buffer> slice;
  {
    auto buffer = *AllocateBuffer(pool.get(), 16);
    for (int i = 0; i < 16; ++i) buffer->mutable_data()[i] = static_cast<uint8_t>(i);
    slice = Buffer::Slice(buffer, 4, 8);
  }
  EXPECT_EQ(slice->size(), 8);
  EXPECT_EQ(slice->data()[0], 4);
  EXPECT_EQ(pool->bytes_in_use(), 64);
  slice.reset();
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(BufferTest, FreedOnDestruction) {
  auto pool = MakeSystemMemoryPool();
  { auto buffer = *AllocateBuffer(pool.get(), 1 << 16); }
  EXPECT_EQ(pool->bytes_in_use(), 0);
  EXPECT_EQ(pool->stats().num_frees, 1);
}

TEST(BufferTest, FailedReserveUnderLimitKeepsBuffer) {
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(4096);
  ResizableBuffer buffer(pool.get());
  ASSERT_TRUE(buffer.Resize(1000).ok());
  EXPECT_TRUE(buffer.Reserve(1 << 20).IsOutOfMemory());
  EXPECT_EQ(buffer.size(), 1000);
  EXPECT_EQ(buffer.capacity(), 1024);
}

}  // namespace
}  // namespace strata
