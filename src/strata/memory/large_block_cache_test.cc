#include "strata/memory/large_block_cache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

#include "strata/memory/memory_pool.h"

namespace strata {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(LargeBlockCacheTest, ReusesAFreedBlockOfAboutTheSameSize) {
  LargeBlockCache cache;
  uint8_t* a = cache.Allocate(70 * kMiB);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % LargeBlockCache::kAlignment, 0u);
  EXPECT_GE(LargeBlockCache::Capacity(a), 70 * kMiB);
  std::memset(a, 0x5a, 70 * kMiB);  // every byte asked for is writable
  cache.Free(a);
  EXPECT_EQ(cache.num_retained(), 1);
  EXPECT_GE(cache.retained_bytes(), 70 * kMiB);

  // A little smaller still fits the kept block: the same pages come back, contents and all.
  uint8_t* b = cache.Allocate(66 * kMiB);
  EXPECT_EQ(b, a);
  EXPECT_EQ(b[66 * kMiB - 1], 0x5a);
  EXPECT_EQ(cache.num_retained(), 0);
  EXPECT_EQ(cache.retained_bytes(), 0);
  cache.Free(b);
}

TEST(LargeBlockCacheTest, AMissEmptiesTheCacheBeforeMapping) {
  LargeBlockCache cache;
  uint8_t* a = cache.Allocate(10 * kMiB);
  uint8_t* b = cache.Allocate(12 * kMiB);
  cache.Free(a);
  cache.Free(b);
  EXPECT_EQ(cache.num_retained(), 2);
  // Far larger than either: both go back to the system, none is stacked under the new one.
  uint8_t* c = cache.Allocate(64 * kMiB);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(cache.num_retained(), 0);
  cache.Free(c);
  // Far smaller than the kept block is a miss too: a quarter of slack at most.
  uint8_t* d = cache.Allocate(16 * kMiB);
  EXPECT_LT(LargeBlockCache::Capacity(d), 20 * kMiB);
  EXPECT_EQ(cache.num_retained(), 0);
  cache.Free(d);
}

TEST(LargeBlockCacheTest, PicksTheBestFitAndKeepsAtMostFourBlocks) {
  LargeBlockCache cache;
  std::vector<uint8_t*> blocks;
  for (int64_t mib : {20, 17, 18, 19, 30}) blocks.push_back(cache.Allocate(mib * kMiB));
  for (uint8_t* p : blocks) cache.Free(p);
  EXPECT_EQ(cache.num_retained(), LargeBlockCache::kMaxBlocks);
  // 17 MiB fits the 17, 18 and 19 MiB blocks (and the 20); the closest comes back.
  EXPECT_EQ(cache.Allocate(17 * kMiB), blocks[1]);
  EXPECT_EQ(cache.num_retained(), LargeBlockCache::kMaxBlocks - 1);
  cache.Free(blocks[1]);
  cache.Release();
  EXPECT_EQ(cache.num_retained(), 0);
  EXPECT_EQ(cache.retained_bytes(), 0);
}

TEST(LargeBlockCacheTest, ConcurrentUseKeepsBlocksDistinct) {
  LargeBlockCache cache;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int i = 0; i < 20; ++i) {
        uint8_t* p = cache.Allocate((9 + t) * kMiB);
        ASSERT_NE(p, nullptr);
        // Each thread stamps its block; a block handed to two threads at once would mix stamps.
        std::memset(p, t, 4096);
        std::memset(p + (9 + t) * kMiB - 4096, t, 4096);
        std::this_thread::yield();
        EXPECT_EQ(p[0], t);
        EXPECT_EQ(p[(9 + t) * kMiB - 1], t);
        cache.Free(p);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_LE(cache.num_retained(), LargeBlockCache::kMaxBlocks);
}

#if !defined(__SANITIZE_ADDRESS__)
TEST(SystemPoolLargeBlocksTest, ReuseLeavesTheCountersExact) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* a = nullptr;
  ASSERT_TRUE(pool->Allocate(40 * kMiB, &a).ok());
  pool->Free(a, 40 * kMiB);
  EXPECT_EQ(pool->bytes_in_use(), 0);
  EXPECT_GE(pool->stats().retained_bytes, 40 * kMiB);

  uint8_t* b = nullptr;
  ASSERT_TRUE(pool->Allocate(38 * kMiB, &b).ok());
  EXPECT_EQ(b, a);
  EXPECT_EQ(pool->stats().retained_bytes, 0);
  EXPECT_EQ(pool->bytes_in_use(), 38 * kMiB);
  EXPECT_EQ(pool->num_allocations(), 2);
  pool->Free(b, 38 * kMiB);
  pool->ReleaseRetained();
  EXPECT_EQ(pool->retained_bytes(), 0);
}

TEST(SystemPoolLargeBlocksTest, ReallocationCrossesTheLargeBoundaryBothWays) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool->Allocate(4 * kMiB, &p).ok());
  for (int64_t i = 0; i < 4 * kMiB; ++i) p[i] = static_cast<uint8_t>(i * 7);
  // Small to large moves the bytes into a mapped block.
  ASSERT_TRUE(pool->Reallocate(4 * kMiB, 9 * kMiB, &p).ok());
  // Within the mapping's capacity a large block grows in place.
  uint8_t* before = p;
  ASSERT_TRUE(pool->Reallocate(9 * kMiB, 9 * kMiB + 4096, &p).ok());
  EXPECT_EQ(p, before);
  // Large to small moves them back to malloc's heap.
  ASSERT_TRUE(pool->Reallocate(9 * kMiB + 4096, 1 * kMiB, &p).ok());
  for (int64_t i = 0; i < 1 * kMiB; ++i) ASSERT_EQ(p[i], static_cast<uint8_t>(i * 7)) << i;
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % MemoryPool::kAlignment, 0u);
  pool->Free(p, 1 * kMiB);
  EXPECT_EQ(pool->bytes_in_use(), 0);
  EXPECT_EQ(pool->stats().num_reallocations, 3);
}
#endif

}  // namespace
}  // namespace strata
