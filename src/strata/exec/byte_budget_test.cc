#include "strata/exec/byte_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "strata/exec/task_group.h"
#include "strata/exec/thread_pool.h"

namespace strata::exec {
namespace {

TEST(ByteBudgetTest, AdmitsWhileTheBytesFit) {
  ByteBudget budget(100);
  EXPECT_TRUE(budget.TryAcquire(60));
  EXPECT_TRUE(budget.TryAcquire(40));  // exactly the limit
  EXPECT_FALSE(budget.TryAcquire(1));
  EXPECT_TRUE(budget.TryAcquire(0));  // an empty item still fits
  budget.Release(0);
  EXPECT_EQ(budget.held_bytes(), 100);
  EXPECT_EQ(budget.held_items(), 2);
  budget.Release(60);
  EXPECT_FALSE(budget.TryAcquire(61));
  EXPECT_TRUE(budget.TryAcquire(60));
  budget.Release(60);
  budget.Release(40);
  EXPECT_EQ(budget.held_bytes(), 0);
  EXPECT_EQ(budget.held_items(), 0);
}

TEST(ByteBudgetTest, AnItemLargerThanTheBudgetIsAdmittedAlone) {
  ByteBudget budget(100);
  EXPECT_TRUE(budget.TryAcquire(500));  // nothing held: progress
  EXPECT_FALSE(budget.TryAcquire(0));   // nothing beside it
  budget.Release(500);
  EXPECT_TRUE(budget.TryAcquire(10));
  EXPECT_FALSE(budget.TryAcquire(500));  // not beside another item
  budget.Release(10);
}

TEST(ByteBudgetTest, RefusingBudgetNeverPassesItsBytes) {
  ByteBudget budget(100, ByteBudget::kNoItemLimit, ByteBudget::Oversize::kRefuse);
  EXPECT_FALSE(budget.TryAcquire(101));
  EXPECT_EQ(budget.held_items(), 0);
  EXPECT_TRUE(budget.TryAcquire(100));
  budget.Release(100);
  ByteBudget none(0, ByteBudget::kNoItemLimit, ByteBudget::Oversize::kRefuse);
  EXPECT_FALSE(none.TryAcquire(1));
  EXPECT_TRUE(none.TryAcquire(0));
  none.Release(0);
}

TEST(ByteBudgetTest, LimitsTheItemsAtOnce) {
  ByteBudget budget(1000, 2);
  EXPECT_TRUE(budget.TryAcquire(1));
  EXPECT_TRUE(budget.TryAcquire(1));
  EXPECT_FALSE(budget.TryAcquire(1));  // bytes to spare, but two items are in
  budget.Release(1);
  EXPECT_TRUE(budget.TryAcquire(1));
  budget.Release(1);
  budget.Release(1);
  ByteBudget one(1000, 1);
  EXPECT_TRUE(one.TryAcquire(5000));  // alone, past the bytes
  EXPECT_FALSE(one.TryAcquire(0));
  one.Release(5000);
}

TEST(ByteBudgetTest, AdjustReplacesAnEstimate) {
  ByteBudget budget(100);
  ASSERT_TRUE(budget.TryAcquire(10));
  ASSERT_TRUE(budget.TryAcquire(10));
  budget.Adjust(10, 150);  // the real figure: past the limit, never refused
  EXPECT_EQ(budget.held_bytes(), 160);
  EXPECT_FALSE(budget.TryAcquire(0));
  budget.Release(150);
  EXPECT_TRUE(budget.TryAcquire(90));
  budget.Adjust(90, 20);
  EXPECT_TRUE(budget.TryAcquire(70));
  EXPECT_EQ(budget.held_bytes(), 100);
  budget.Release(70);
  budget.Release(20);
  budget.Release(10);
  EXPECT_EQ(budget.held_bytes(), 0);
}

TEST(ByteBudgetTest, AcquireAdmitsAtOnceWhenItFits) {
  ByteBudget budget(100);
  EXPECT_TRUE(budget.Acquire(50));
  EXPECT_TRUE(budget.Acquire(50));
  budget.Release(50);
  budget.Release(50);
  EXPECT_TRUE(budget.Acquire(500));  // alone
  budget.Release(500);
  EXPECT_EQ(budget.held_items(), 0);
}

TEST(ByteBudgetTest, AcquireWaitsForARelease) {
  ByteBudget budget(100);
  ASSERT_TRUE(budget.TryAcquire(80));
  std::atomic<bool> admitted{false};
  std::thread waiter([&] {
    EXPECT_TRUE(budget.Acquire(30));
    admitted = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(admitted.load());
  budget.Release(80);
  waiter.join();
  EXPECT_TRUE(admitted.load());
  EXPECT_EQ(budget.held_bytes(), 30);
  budget.Release(30);
}

TEST(ByteBudgetTest, AcquireStopsWhenCancelled) {
  ByteBudget budget(100, 1);
  ASSERT_TRUE(budget.TryAcquire(10));
  std::atomic<bool> cancelled{false};
  std::thread waiter([&] { EXPECT_FALSE(budget.Acquire(10, nullptr, [&] { return cancelled.load(); })); });
  cancelled = true;
  budget.Release(10);  // wakes the waiter, which sees the cancellation before the room
  waiter.join();
  EXPECT_EQ(budget.held_items(), 0);
  EXPECT_FALSE(budget.Acquire(1, nullptr, [] { return true; }));  // asked first
  EXPECT_EQ(budget.held_items(), 0);
}

// Labelled tsan: tasks on a pool acquire and release at once; the bytes and items held never
// pass the limits, and every waiter gets in.
TEST(ByteBudgetTest, ConcurrentTasksStayWithinTheBudget) {
  auto made = ThreadPool::Make(4);
  ASSERT_TRUE(made.ok());
  std::unique_ptr<ThreadPool> pool = std::move(made).MoveValueUnsafe();
  ByteBudget budget(100, 3);
  std::atomic<int64_t> bytes_in{0};
  std::atomic<int> items_in{0};
  std::atomic<bool> over{false};
  TaskGroup group(pool.get(), 8);
  for (int i = 0; i < 400; ++i) {
    const int64_t bytes = (i * 37) % 61;  // 0 .. 60: at most one alone past nothing
    group.Submit([&, bytes]() -> Status {
      // Acquired from a pool task: the wait helps run the queue, so 8 waiters on 4 workers
      // cannot stall it.
      if (!budget.Acquire(bytes, pool.get())) return Status::Invalid("not admitted");
      const int64_t now_bytes = bytes_in.fetch_add(bytes) + bytes;
      const int now_items = items_in.fetch_add(1) + 1;
      if (now_bytes > 100 || now_items > 3) over = true;
      std::this_thread::yield();
      items_in.fetch_sub(1);
      bytes_in.fetch_sub(bytes);
      budget.Release(bytes);
      return Status::OK();
    });
  }
  ASSERT_TRUE(group.Wait().ok());
  EXPECT_FALSE(over.load());
  EXPECT_EQ(budget.held_bytes(), 0);
  EXPECT_EQ(budget.held_items(), 0);
}

}  // namespace
}  // namespace strata::exec
