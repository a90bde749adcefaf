#include "strata/memory/memory_charge.h"

#include <gtest/gtest.h>

#include <utility>

namespace strata {
namespace {

TEST(MemoryChargeTest, CountsInBytesInUsePeakAndTotalButNotAllocations) {
  auto pool = MakeSystemMemoryPool();
  uint8_t* block = nullptr;
  ASSERT_TRUE(pool->Allocate(100, &block).ok());
  {
    auto charge = MemoryCharge::Make(pool.get(), 1000);
    ASSERT_TRUE(charge.ok()) << charge.status().ToString();
    ASSERT_TRUE(charge->Grow(500).ok());
    EXPECT_EQ(charge->bytes(), 1500);
    ASSERT_TRUE(charge->Resize(200).ok());  // true-up downwards
    ASSERT_TRUE(charge->Resize(700).ok());  // and up again
    const MemoryStats s = pool->stats();
    EXPECT_EQ(s.bytes_in_use, 800);
    EXPECT_EQ(s.charged_bytes_in_use, 700);
    EXPECT_EQ(s.peak_bytes, 1600);
    EXPECT_EQ(s.total_bytes_allocated, 100 + 1000 + 500 + 500);
    EXPECT_EQ(s.num_allocations, 1);  // the Allocate only: charges are not allocations
    EXPECT_EQ(s.num_frees, 0);
  }
  const MemoryStats s = pool->stats();
  EXPECT_EQ(s.bytes_in_use, 100);
  EXPECT_EQ(s.charged_bytes_in_use, 0);
  EXPECT_EQ(s.num_frees, 0);
  pool->Free(block, 100);
  EXPECT_EQ(pool->bytes_in_use(), 0);
}

TEST(MemoryChargeTest, LimitRefusesLikeAllocateAndChangesNothing) {
  auto pool = MakeSystemMemoryPool();
  pool->set_limit(1000);
  auto charge = MemoryCharge::Make(pool.get(), 600);
  ASSERT_TRUE(charge.ok());
  const MemoryStats before = pool->stats();

  Status grown = charge->Grow(401);
  ASSERT_TRUE(grown.IsOutOfMemory()) << grown.ToString();
  uint8_t* p = nullptr;
  Status allocated = pool->Allocate(401, &p);
  ASSERT_TRUE(allocated.IsOutOfMemory());
  EXPECT_EQ(grown.message(), allocated.message());  // errors read alike
  EXPECT_NE(grown.message().find("exceeds the memory limit of 1000 bytes (600 in use)"), std::string::npos)
      << grown.message();
  EXPECT_TRUE(charge->Resize(1001).IsOutOfMemory());
  EXPECT_TRUE(MemoryCharge::Make(pool.get(), 401).status().IsOutOfMemory());

  const MemoryStats after = pool->stats();
  EXPECT_EQ(charge->bytes(), 600);
  EXPECT_EQ(after.bytes_in_use, before.bytes_in_use);
  EXPECT_EQ(after.peak_bytes, before.peak_bytes);
  EXPECT_EQ(after.total_bytes_allocated, before.total_bytes_allocated);
  EXPECT_EQ(after.charged_bytes_in_use, 600);
  EXPECT_TRUE(charge->Grow(400).ok());  // exactly at the limit is allowed
  EXPECT_EQ(pool->bytes_in_use(), 1000);
}

TEST(MemoryChargeTest, MovesTransferTheChargeAndMoveAssignReleases) {
  auto pool = MakeSystemMemoryPool();
  auto made = MemoryCharge::Make(pool.get(), 300);
  ASSERT_TRUE(made.ok());
  MemoryCharge a = std::move(*made);
  EXPECT_EQ(a.bytes(), 300);
  MemoryCharge b(std::move(a));
  EXPECT_EQ(a.bytes(), 0);  // NOLINT(bugprone-use-after-move): a moved-from charge is empty
  EXPECT_EQ(b.bytes(), 300);
  EXPECT_EQ(pool->bytes_in_use(), 300);

  auto other = MemoryCharge::Make(pool.get(), 50);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(pool->bytes_in_use(), 350);
  b = std::move(*other);  // b's 300 go back
  EXPECT_EQ(b.bytes(), 50);
  EXPECT_EQ(pool->bytes_in_use(), 50);
  b.Release();
  EXPECT_EQ(pool->bytes_in_use(), 0);
  EXPECT_EQ(pool->charged_bytes(), 0);
}

TEST(MemoryChargeTest, WithoutPoolCountsNowhere) {
  MemoryCharge charge;
  EXPECT_TRUE(charge.Grow(1 << 20).ok());
  EXPECT_EQ(charge.bytes(), 1 << 20);
  EXPECT_TRUE(charge.Resize(10).ok());
  EXPECT_TRUE(charge.Grow(-1).IsInvalid());
  EXPECT_TRUE(charge.Resize(-1).IsInvalid());
}

}  // namespace
}  // namespace strata
