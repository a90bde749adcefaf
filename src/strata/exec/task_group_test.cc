#include "strata/exec/task_group.h"

#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace strata::exec {
namespace {

std::unique_ptr<ThreadPool> MakePool(int threads) {
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(threads);
  EXPECT_TRUE(pool.ok()) << pool.status().ToString();
  return std::move(pool).MoveValueUnsafe();
}

// Raises `max_seen` to the number of tasks inside the region while one is.
class ConcurrencyCounter {
 public:
  void Enter() {
    const int now = inside_.fetch_add(1) + 1;
    int seen = max_seen_.load();
    while (now > seen && !max_seen_.compare_exchange_weak(seen, now)) {
    }
  }
  void Leave() { inside_.fetch_sub(1); }
  int max_seen() const { return max_seen_.load(); }

 private:
  std::atomic<int> inside_{0};
  std::atomic<int> max_seen_{0};
};

TEST(TaskGroupTest, RunsEveryTaskAndWaits) {
  std::unique_ptr<ThreadPool> pool = MakePool(3);
  TaskGroup group(pool.get());
  EXPECT_EQ(group.max_parallelism(), 3);
  EXPECT_FALSE(group.runs_inline());
  std::atomic<int64_t> sum{0};
  for (int i = 1; i <= 1000; ++i) {
    group.Submit([&sum, i] {
      sum.fetch_add(i);
      return Status::OK();
    });
  }
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(sum.load(), 500500);
  EXPECT_TRUE(group.ok());
  // A group can be reused after Wait().
  group.Submit([&sum] {
    sum.fetch_add(1);
    return Status::OK();
  });
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(sum.load(), 500501);
}

TEST(TaskGroupTest, AcceptsMoveOnlyTasksAndStdFunction) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  TaskGroup group(pool.get());
  std::atomic<int> total{0};
  auto owned = std::make_unique<int>(40);
  group.Submit([&total, owned = std::move(owned)] {
    total.fetch_add(*owned);
    return Status::OK();
  });
  std::function<Status()> copyable = [&total] {
    total.fetch_add(2);
    return Status::OK();
  };
  group.Submit(copyable);
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(total.load(), 42);
}

TEST(TaskGroupTest, ManySubmitterThreadsShareOneGroup) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  TaskGroup group(pool.get());
  std::atomic<int> ran{0};
  std::vector<std::thread> submitters;
  for (int s = 0; s < 4; ++s) {
    submitters.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        group.Submit([&ran] {
          ran.fetch_add(1);
          return Status::OK();
        });
      }
    });
  }
  for (std::thread& t : submitters) t.join();
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(ran.load(), 2000);
}

TEST(TaskGroupTest, WaitConcurrentWithSubmitFromAnotherThreadSeesEveryTask) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  for (int round = 0; round < 20; ++round) {
    TaskGroup group(pool.get());
    std::atomic<int> ran{0};
    std::latch first_submitted(1);
    std::thread submitter([&] {
      for (int i = 0; i < 200; ++i) {
        group.Submit([&ran] {
          ran.fetch_add(1);
          return Status::OK();
        });
        if (i == 0) first_submitted.count_down();
      }
    });
    first_submitted.wait();
    Status waited = group.Wait();  // may return before the submitter is done; must not hang
    EXPECT_TRUE(waited.ok());
    submitter.join();
    EXPECT_TRUE(group.Wait().ok());
    EXPECT_EQ(ran.load(), 200);
  }
}

TEST(TaskGroupTest, FirstErrorWinsAndTasksNotStartedAreSkipped) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  TaskGroup group(pool.get(), /*max_parallelism=*/2);
  std::latch both_running(2);
  std::latch release_first(1);
  std::latch release_second(1);
  std::atomic<int> later_ran{0};
  group.Submit([&] {
    both_running.count_down();
    release_first.wait();
    return Status::Corrupt("column 'a' (row group 3): the first error");
  });
  group.Submit([&] {
    both_running.count_down();
    release_second.wait();
    return Status::IOError("the second error");
  });
  both_running.wait();
  // Both slots of the group are busy, so these wait in the group.
  for (int i = 0; i < 50; ++i) {
    group.Submit([&later_ran] {
      later_ran.fetch_add(1);
      return Status::OK();
    });
  }
  release_first.count_down();
  while (group.ok()) std::this_thread::yield();  // the first task has recorded its error
  group.Submit([&later_ran] {  // after the failure: dropped
    later_ran.fetch_add(1);
    return Status::OK();
  });
  release_second.count_down();
  Status status = group.Wait();
  EXPECT_TRUE(status.IsCorrupt()) << status.ToString();
  EXPECT_EQ(status.message(), "column 'a' (row group 3): the first error");
  EXPECT_EQ(later_ran.load(), 0);
  EXPECT_FALSE(group.ok());
  EXPECT_TRUE(group.Wait().IsCorrupt());  // stays failed
}

TEST(TaskGroupTest, InlineModeWithoutAPoolRunsInSubmitAndStopsAtTheFirstError) {
  TaskGroup group(nullptr);
  EXPECT_TRUE(group.runs_inline());
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<int> ran;
  group.Submit([&] {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    ran.push_back(1);
    return Status::OK();
  });
  EXPECT_EQ(ran, std::vector<int>{1});  // already ran when Submit returned
  group.Submit([&] {
    ran.push_back(2);
    return Status::Invalid("bad value 7");
  });
  group.Submit([&] {
    ran.push_back(3);
    return Status::OK();
  });
  EXPECT_EQ(ran, (std::vector<int>{1, 2}));
  EXPECT_FALSE(group.ok());
  Status status = group.Wait();
  EXPECT_TRUE(status.IsInvalid());
  EXPECT_EQ(status.message(), "bad value 7");
}

TEST(TaskGroupTest, MaxParallelismOneRunsInlineEvenWithAPool) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  TaskGroup group(pool.get(), /*max_parallelism=*/1);
  EXPECT_TRUE(group.runs_inline());
  const std::thread::id caller = std::this_thread::get_id();
  int ran = 0;  // plain int: everything runs on this thread
  for (int i = 0; i < 10; ++i) {
    group.Submit([&] {
      EXPECT_EQ(std::this_thread::get_id(), caller);
      ++ran;
      return Status::OK();
    });
  }
  EXPECT_EQ(ran, 10);
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(pool->num_queued(), 0);
}

TEST(TaskGroupTest, MaxParallelismBoundsConcurrentTasks) {
  std::unique_ptr<ThreadPool> pool = MakePool(4);
  TaskGroup group(pool.get(), /*max_parallelism=*/2);
  ConcurrencyCounter counter;
  // The first two tasks meet inside the group: proves two do run at once.
  std::latch first_two(2);
  for (int i = 0; i < 2; ++i) {
    group.Submit([&] {
      counter.Enter();
      first_two.arrive_and_wait();
      counter.Leave();
      return Status::OK();
    });
  }
  std::atomic<int64_t> spin_sink{0};
  for (int i = 0; i < 400; ++i) {
    group.Submit([&counter, &spin_sink, i] {
      counter.Enter();
      int64_t local = 0;
      for (int k = 0; k < 2000; ++k) local += k ^ i;
      spin_sink.fetch_add(local, std::memory_order_relaxed);
      counter.Leave();
      return Status::OK();
    });
  }
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(counter.max_seen(), 2);
}

TEST(TaskGroupTest, DestructorWaitsForQueuedTasks) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  std::atomic<int> ran{0};
  {
    TaskGroup group(pool.get());
    for (int i = 0; i < 300; ++i) {
      group.Submit([&ran] {
        ran.fetch_add(1);
        return Status::OK();
      });
    }
  }
  EXPECT_EQ(ran.load(), 300);
}

// Each outer task fans out into an inner group on the same pool and waits for it: the waits
// run on the workers, so they must help instead of blocking.
void RunNestedGroups(ThreadPool* pool, int depth, int fan_out, std::atomic<int>* leaves) {
  TaskGroup group(pool);
  for (int i = 0; i < fan_out; ++i) {
    group.Submit([=] {
      if (depth == 0) {
        leaves->fetch_add(1);
      } else {
        RunNestedGroups(pool, depth - 1, fan_out, leaves);
      }
      return Status::OK();
    });
  }
  EXPECT_TRUE(group.Wait().ok());
}

TEST(TaskGroupTest, NestedGroupsOnAOneThreadPoolDoNotDeadlock) {
  std::unique_ptr<ThreadPool> pool = MakePool(1);
  std::atomic<int> leaves{0};
  RunNestedGroups(pool.get(), /*depth=*/3, /*fan_out=*/4, &leaves);
  EXPECT_EQ(leaves.load(), 4 * 4 * 4 * 4);
}

TEST(TaskGroupTest, NestedGroupsOnATwoThreadPoolDoNotDeadlock) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  std::atomic<int> leaves{0};
  RunNestedGroups(pool.get(), /*depth=*/3, /*fan_out=*/5, &leaves);
  EXPECT_EQ(leaves.load(), 5 * 5 * 5 * 5);
}

TEST(TaskGroupTest, WaitOnAWorkerRunsTheInnerTasksItself) {
  std::unique_ptr<ThreadPool> pool = MakePool(1);
  std::atomic<int> inner_on_outer_thread{0};
  std::latch done(1);
  pool->Submit([&] {
    const std::thread::id worker = std::this_thread::get_id();
    TaskGroup inner(pool.get(), /*max_parallelism=*/4);
    for (int i = 0; i < 20; ++i) {
      inner.Submit([&, worker] {
        if (std::this_thread::get_id() == worker) inner_on_outer_thread.fetch_add(1);
        return Status::OK();
      });
    }
    EXPECT_TRUE(inner.Wait().ok());
    done.count_down();
  });
  done.wait();
  EXPECT_EQ(inner_on_outer_thread.load(), 20);  // the pool's only worker ran them all
}

// Off the pool, waiting only waits: the workers (one per core) run every task, so the caller
// never becomes one thread more than cores, nor allocates from a malloc arena of its own.
TEST(TaskGroupTest, WaitOffThePoolLeavesTheTasksToTheWorkers) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> on_caller{0};
  std::atomic<int> ran{0};
  TaskGroup group(pool.get());
  for (int i = 0; i < 200; ++i) {
    group.Submit([&] {
      if (std::this_thread::get_id() == caller) on_caller.fetch_add(1);
      ran.fetch_add(1);
      return Status::OK();
    });
  }
  EXPECT_TRUE(group.Wait().ok());
  EXPECT_EQ(ran.load(), 200);
  EXPECT_EQ(on_caller.load(), 0);

  OrderedTaskQueue<int> queue(pool.get(), /*max_in_flight=*/2);
  for (int i = 0; i < 50; ++i) {
    queue.Submit([&, i]() -> Result<int> {
      if (std::this_thread::get_id() == caller) on_caller.fetch_add(1);
      return i;
    });
  }
  for (int i = 0; i < 50; ++i) {
    Result<int> next = queue.Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, i);
  }
  EXPECT_EQ(on_caller.load(), 0);
  EXPECT_FALSE(pool->HelpWhileWaiting());  // nothing queued, and not a worker anyway
}

TEST(TaskGroupTest, NestedErrorPropagatesOutward) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  TaskGroup outer(pool.get());
  for (int i = 0; i < 4; ++i) {
    outer.Submit([&pool, i] {
      TaskGroup inner(pool.get());
      for (int j = 0; j < 4; ++j) {
        inner.Submit([i, j] {
          if (i == 2 && j == 3) return Status::Corrupt("page {} of chunk {}", j, i);
          return Status::OK();
        });
      }
      return inner.Wait();
    });
  }
  Status status = outer.Wait();
  EXPECT_TRUE(status.IsCorrupt()) << status.ToString();
  EXPECT_EQ(status.message(), "page 3 of chunk 2");
}

TEST(OrderedTaskQueueTest, DeliversResultsInSubmissionOrder) {
  std::unique_ptr<ThreadPool> pool = MakePool(4);
  OrderedTaskQueue<int> queue(pool.get(), /*max_in_flight=*/4);
  std::latch later_done(3);
  std::latch release_oldest(1);
  queue.Submit([&]() -> Result<int> {
    release_oldest.wait();  // finishes last
    return 0;
  });
  for (int i = 1; i < 4; ++i) {
    queue.Submit([&, i]() -> Result<int> {
      later_done.count_down();
      return i;
    });
  }
  later_done.wait();
  release_oldest.count_down();
  for (int i = 0; i < 4; ++i) {
    Result<int> next = queue.Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    EXPECT_EQ(*next, i);
  }
  EXPECT_EQ(queue.size(), 0);
  EXPECT_TRUE(queue.Next().status().IsInvalid());
}

TEST(OrderedTaskQueueTest, BoundsTasksStartedAheadOfTheConsumer) {
  std::unique_ptr<ThreadPool> pool = MakePool(4);
  constexpr int kMaxInFlight = 2;
  OrderedTaskQueue<std::unique_ptr<int>> queue(pool.get(), kMaxInFlight);
  std::atomic<int> started{0};
  for (int i = 0; i < 30; ++i) {
    queue.Submit([&started, i]() -> Result<std::unique_ptr<int>> {
      started.fetch_add(1);
      return std::make_unique<int>(i);
    });
  }
  EXPECT_LE(started.load(), kMaxInFlight);
  for (int consumed = 0; consumed < 30; ++consumed) {
    Result<std::unique_ptr<int>> next = queue.Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(**next, consumed);
    EXPECT_LE(started.load(), consumed + 1 + kMaxInFlight);
  }
  EXPECT_EQ(started.load(), 30);
}

TEST(OrderedTaskQueueTest, DeliversEachErrorAtItsPosition) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  OrderedTaskQueue<std::string> queue(pool.get());
  for (int i = 0; i < 5; ++i) {
    queue.Submit([i]() -> Result<std::string> {
      if (i == 2) return Status::Corrupt("batch {} is bad", i);
      return std::string("batch ") + std::to_string(i);
    });
  }
  for (int i = 0; i < 5; ++i) {
    Result<std::string> next = queue.Next();
    if (i == 2) {
      EXPECT_TRUE(next.status().IsCorrupt());
      EXPECT_EQ(next.status().message(), "batch 2 is bad");
    } else {
      ASSERT_TRUE(next.ok());
      EXPECT_EQ(*next, "batch " + std::to_string(i));
    }
  }
}

TEST(OrderedTaskQueueTest, WithoutAPoolRunsEachTaskInNext) {
  OrderedTaskQueue<int> queue(nullptr);
  int started = 0;
  for (int i = 0; i < 3; ++i) {
    queue.Submit([&started, i]() -> Result<int> {
      ++started;
      return i * 10;
    });
  }
  EXPECT_EQ(started, 0);
  for (int i = 0; i < 3; ++i) {
    Result<int> next = queue.Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, i * 10);
    EXPECT_EQ(started, i + 1);
  }
}

TEST(OrderedTaskQueueTest, DestructionDropsUnstartedTasksAndWaitsForStartedOnes) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  std::atomic<int> started{0};
  std::atomic<int> finished{0};
  {
    OrderedTaskQueue<int> queue(pool.get(), /*max_in_flight=*/2);
    for (int i = 0; i < 10; ++i) {
      queue.Submit([&, i]() -> Result<int> {
        started.fetch_add(1);
        finished.fetch_add(1);
        return i;
      });
    }
    Result<int> first = queue.Next();
    ASSERT_TRUE(first.ok());
  }
  EXPECT_EQ(started.load(), 3);  // two at first, one more after Next()
  EXPECT_EQ(finished.load(), 3);
}

TEST(OrderedTaskQueueTest, TasksMayRunNestedGroupsOnAOneThreadPool) {
  std::unique_ptr<ThreadPool> pool = MakePool(1);
  OrderedTaskQueue<int> queue(pool.get(), /*max_in_flight=*/3);
  for (int i = 0; i < 6; ++i) {
    queue.Submit([&pool, i]() -> Result<int> {
      std::atomic<int> sum{0};
      TaskGroup group(pool.get(), /*max_parallelism=*/2);
      for (int j = 0; j < 4; ++j) {
        group.Submit([&sum, j] {
          sum.fetch_add(j);
          return Status::OK();
        });
      }
      STRATA_RETURN_NOT_OK(group.Wait());
      return i * 100 + sum.load();
    });
  }
  for (int i = 0; i < 6; ++i) {
    Result<int> next = queue.Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, i * 100 + 6);
  }
}

}  // namespace
}  // namespace strata::exec
