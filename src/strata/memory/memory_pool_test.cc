#include "strata/memory/memory_pool.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "strata/memory/memory_scope.h"

namespace strata {
namespace {

TEST(MemoryPoolTest, CountsExactly) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* a = nullptr;
  uint8_t* b = nullptr;
  ASSERT_TRUE(pool->Allocate(100, &a).ok());
  ASSERT_TRUE(pool->Allocate(1000, &b).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 64, 0u);
  EXPECT_EQ(pool->bytes_in_use(), 1100);
  ASSERT_TRUE(pool->Reallocate(100, 300, &a).ok());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_EQ(pool->bytes_in_use(), 1300);
  pool->Free(b, 1000);
  EXPECT_EQ(pool->bytes_in_use(), 300);
  pool->Free(a, 300);
  const MemoryStats s = pool->stats();
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_EQ(s.peak_bytes, 1300);
  EXPECT_EQ(s.total_bytes_allocated, 1300);  // 100 + 1000 + 200 of growth
  EXPECT_EQ(s.num_allocations, 2);
  EXPECT_EQ(s.num_reallocations, 1);
  EXPECT_EQ(s.num_frees, 2);
}

TEST(MemoryPoolTest, ReallocateKeepsContents) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool->Allocate(64, &p).ok());
  for (int i = 0; i < 64; ++i) p[i] = static_cast<uint8_t>(i);
  ASSERT_TRUE(pool->Reallocate(64, 1 << 20, &p).ok());
  for (int i = 0; i < 64; ++i) ASSERT_EQ(p[i], i);
  ASSERT_TRUE(pool->Reallocate(1 << 20, 32, &p).ok());
  for (int i = 0; i < 32; ++i) ASSERT_EQ(p[i], i);
  pool->Free(p, 32);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(MemoryPoolTest, ZeroSizeIsNotAnAllocation) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool->Allocate(0, &p).ok());
  EXPECT_NE(p, nullptr);
  pool->Free(p, 0);
  EXPECT_EQ(pool->num_allocations(), 0);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(MemoryPoolTest, LimitRefusesAndChangesNothing) {
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(1000);
  uint8_t* a = nullptr;
  ASSERT_TRUE(pool->Allocate(600, &a).ok());
  uint8_t* b = nullptr;
  Status st = pool->Allocate(500, &b);
  ASSERT_TRUE(st.IsOutOfMemory());
  EXPECT_NE(st.message().find("limit of 1000 bytes"), std::string::npos) << st.message();
  EXPECT_EQ(pool->bytes_in_use(), 600);
  EXPECT_EQ(pool->num_allocations(), 1);
  uint8_t* before = a;
  EXPECT_TRUE(pool->Reallocate(600, 2000, &a).IsOutOfMemory());
  EXPECT_EQ(a, before);
  EXPECT_EQ(pool->peak_bytes(), 600);
  pool->Free(a, 600);
}

TEST(MemoryPoolTest, NegativeSizesAreInvalid) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* p = nullptr;
  EXPECT_TRUE(pool->Allocate(-1, &p).IsInvalid());
}

TEST(MemoryPoolTest, CountersAreExactUnderConcurrency) {
  auto pool = MakeSystemMemoryPool();
  constexpr int kThreads = 8;
  constexpr int kRounds = 2000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < kRounds; ++i) {
        const int64_t size = 64 + (i % 7) * 32 + t;
        uint8_t* p = nullptr;
        ASSERT_TRUE(pool->Allocate(size, &p).ok());
        p[0] = 1;
        ASSERT_TRUE(pool->Reallocate(size, size * 2, &p).ok());
        pool->Free(p, size * 2);
      }
    });
  }
  for (auto& th : threads) th.join();
  const MemoryStats s = pool->stats();
  int64_t expected_total = 0;
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kRounds; ++i) expected_total += 2 * (64 + (i % 7) * 32 + t);
  }
  EXPECT_EQ(s.bytes_in_use, 0);
  EXPECT_EQ(s.num_allocations, kThreads * kRounds);
  EXPECT_EQ(s.num_reallocations, kThreads * kRounds);
  EXPECT_EQ(s.num_frees, kThreads * kRounds);
  EXPECT_EQ(s.total_bytes_allocated, expected_total);
  EXPECT_LE(s.peak_bytes, kThreads * 2 * (64 + 6 * 32 + kThreads));
  EXPECT_GT(s.peak_bytes, 0);
}

TEST(MemoryPoolTest, LimitHoldsUnderConcurrency) {
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(10 * 1024);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool] {
      for (int i = 0; i < 5000; ++i) {
        uint8_t* p = nullptr;
        if (pool->Allocate(1024, &p).ok()) pool->Free(p, 1024);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(pool->peak_bytes(), 10 * 1024);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(MemoryScopeTest, MeasuresARegion) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* before = nullptr;
  ASSERT_TRUE(pool->Allocate(5000, &before).ok());
  pool->Free(before, 5000);
  MemoryScope scope(pool.get());
  uint8_t* p = nullptr;
  ASSERT_TRUE(pool->Allocate(100, &p).ok());
  ASSERT_TRUE(pool->Reallocate(100, 200, &p).ok());
  pool->Free(p, 200);
  const MemoryDelta d = scope.delta();
  EXPECT_EQ(d.bytes_allocated, 200);
  EXPECT_EQ(d.num_allocations, 1);
  EXPECT_EQ(d.num_reallocations, 1);
  EXPECT_EQ(d.peak_above_start, 200);
  EXPECT_EQ(d.bytes_in_use_change, 0);
}

}  // namespace
}  // namespace strata
