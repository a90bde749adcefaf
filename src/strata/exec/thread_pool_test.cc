#include "strata/exec/thread_pool.h"

#include <gtest/gtest.h>
#include <sched.h>

#include <atomic>
#include <latch>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "strata/exec/process_pool.h"

namespace strata::exec {
namespace {

std::unique_ptr<ThreadPool> MakePool(int threads) {
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(threads);
  EXPECT_TRUE(pool.ok()) << pool.status().ToString();
  return std::move(pool).MoveValueUnsafe();
}

TEST(MoveOnlyFunctionTest, HoldsMoveOnlyCallablesInlineAndOnTheHeap) {
  auto small = std::make_unique<int>(7);
  MoveOnlyFunction<int(int)> add_small = [p = std::move(small)](int x) { return *p + x; };
  EXPECT_EQ(add_small(1), 8);

  struct Big {
    std::unique_ptr<int> value;
    char padding[64] = {};  // too big for the inline buffer
    int operator()(int x) const { return *value * x; }
  };
  MoveOnlyFunction<int(int)> multiply_big = Big{std::make_unique<int>(3)};
  EXPECT_EQ(multiply_big(5), 15);

  MoveOnlyFunction<int(int)> moved = std::move(multiply_big);
  EXPECT_FALSE(static_cast<bool>(multiply_big));
  EXPECT_EQ(moved(2), 6);
  moved = std::move(add_small);
  EXPECT_EQ(moved(2), 9);
  moved = nullptr;
  EXPECT_FALSE(static_cast<bool>(moved));
}

TEST(MoveOnlyFunctionTest, DestroysTheCallableExactlyOnce) {
  auto counted = std::make_shared<int>(0);
  std::weak_ptr<int> watch = counted;
  {
    MoveOnlyTask inline_task = [c = std::move(counted)] { ++*c; };
    MoveOnlyTask moved = std::move(inline_task);
    moved();
    EXPECT_FALSE(watch.expired());
  }
  EXPECT_TRUE(watch.expired());
}

TEST(MoveOnlyFunctionTest, AVoidFunctionDropsTheCallablesResult) {
  int calls = 0;
  MoveOnlyTask task = [&calls] { return ++calls; };
  task();
  EXPECT_EQ(calls, 1);
}

TEST(ThreadPoolTest, MakeRefusesFewerThanOneThread) {
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(0);
  ASSERT_FALSE(pool.ok());
  EXPECT_TRUE(pool.status().IsInvalid());
  EXPECT_NE(pool.status().message().find("got 0"), std::string::npos) << pool.status().message();
}

TEST(ThreadPoolTest, RunsTasksFromManySubmitterThreadsOnItsWorkers) {
  constexpr int kSubmitters = 4;
  constexpr int kTasksEach = 2000;
  std::atomic<int> ran{0};
  std::atomic<int> ran_off_worker{0};
  std::mutex ids_mutex;
  std::set<std::thread::id> worker_ids;
  {
    std::unique_ptr<ThreadPool> pool = MakePool(3);
    ASSERT_EQ(pool->num_threads(), 3);
    ThreadPool* raw = pool.get();
    std::vector<std::thread> submitters;
    for (int s = 0; s < kSubmitters; ++s) {
      submitters.emplace_back([&, raw] {
        for (int i = 0; i < kTasksEach; ++i) {
          raw->Submit([&, raw] {
            if (!raw->OnWorkerThread()) ran_off_worker.fetch_add(1);
            {
              std::lock_guard<std::mutex> lock(ids_mutex);
              worker_ids.insert(std::this_thread::get_id());
            }
            ran.fetch_add(1, std::memory_order_relaxed);
          });
        }
      });
    }
    for (std::thread& t : submitters) t.join();
  }  // the destructor runs whatever is still queued
  EXPECT_EQ(ran.load(), kSubmitters * kTasksEach);
  EXPECT_EQ(ran_off_worker.load(), 0);
  EXPECT_LE(worker_ids.size(), 3u);
  EXPECT_EQ(worker_ids.count(std::this_thread::get_id()), 0u);
}

TEST(ThreadPoolTest, OnePoolOfOneRunsTasksInSubmissionOrder) {
  std::vector<int> order;  // touched by the one worker only, read after the join
  {
    std::unique_ptr<ThreadPool> pool = MakePool(1);
    for (int i = 0; i < 500; ++i) pool->Submit([&order, i] { order.push_back(i); });
  }
  ASSERT_EQ(order.size(), 500u);
  for (int i = 0; i < 500; ++i) EXPECT_EQ(order[static_cast<size_t>(i)], i);
}

TEST(ThreadPoolTest, DestructionRunsQueuedTasksAndTheTasksTheyQueue) {
  std::atomic<int> ran{0};
  std::latch blocker_started(1);
  std::latch release_blocker(1);
  std::unique_ptr<ThreadPool> pool = MakePool(1);
  ThreadPool* raw = pool.get();
  pool->Submit([&] {
    blocker_started.count_down();
    release_blocker.wait();
  });
  blocker_started.wait();
  // The only worker is held, so all of these are still queued when the destructor starts.
  for (int i = 0; i < 100; ++i) {
    pool->Submit([&, raw] {
      ran.fetch_add(1);
      raw->Submit([&] { ran.fetch_add(1); });  // queued while the pool drains
    });
  }
  EXPECT_EQ(pool->num_queued(), 100);
  std::thread destroyer([&] { pool.reset(); });
  release_blocker.count_down();
  destroyer.join();
  EXPECT_EQ(ran.load(), 200);
}

TEST(ThreadPoolTest, RunOneIfQueuedRunsTheOldestTaskOnTheCallingThread) {
  std::unique_ptr<ThreadPool> pool = MakePool(1);
  std::latch worker_held(1);
  std::latch release_worker(1);
  pool->Submit([&] {
    worker_held.count_down();
    release_worker.wait();
  });
  worker_held.wait();

  std::vector<int> ran;
  std::thread::id ran_on;
  bool ran_on_worker = true;
  pool->Submit([&] {
    ran.push_back(1);
    ran_on = std::this_thread::get_id();
    ran_on_worker = pool->OnWorkerThread();
  });
  pool->Submit([&] { ran.push_back(2); });
  EXPECT_TRUE(pool->RunOneIfQueued());
  EXPECT_EQ(ran, std::vector<int>{1});
  EXPECT_EQ(ran_on, std::this_thread::get_id());
  EXPECT_FALSE(ran_on_worker);
  EXPECT_TRUE(pool->RunOneIfQueued());
  EXPECT_EQ(ran, (std::vector<int>{1, 2}));
  EXPECT_FALSE(pool->RunOneIfQueued());
  release_worker.count_down();
}

TEST(ThreadPoolTest, OnWorkerThreadIsTrueOnlyOnThisPoolsWorkers) {
  std::unique_ptr<ThreadPool> pool = MakePool(2);
  std::unique_ptr<ThreadPool> other = MakePool(1);
  EXPECT_FALSE(pool->OnWorkerThread());
  std::atomic<bool> on_own{false};
  std::atomic<bool> on_other{true};
  std::latch done(2);
  pool->Submit([&] {
    on_own = pool->OnWorkerThread();
    done.count_down();
  });
  other->Submit([&] {
    on_other = pool->OnWorkerThread();
    done.count_down();
  });
  done.wait();
  EXPECT_TRUE(on_own.load());
  EXPECT_FALSE(on_other.load());
}

TEST(ThreadPoolTest, UsableCoresIsTheAffinityMaskCount) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  ASSERT_EQ(sched_getaffinity(0, sizeof(mask), &mask), 0);
  EXPECT_EQ(UsableCores(), CPU_COUNT(&mask));
  EXPECT_GE(UsableCores(), 1);
}

TEST(ThreadPoolTest, ProcessThreadPoolIsOneSharedPoolOfUsableCores) {
  ThreadPool* pool = ProcessThreadPool();
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->num_threads(), UsableCores());
  // First use from several threads at once still yields one pool.
  std::vector<ThreadPool*> seen(4, nullptr);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] { seen[i] = ProcessThreadPool(); });
  }
  for (std::thread& t : threads) t.join();
  for (ThreadPool* p : seen) EXPECT_EQ(p, pool);
  std::latch ran(1);
  pool->Submit([&] { ran.count_down(); });
  ran.wait();
}

}  // namespace
}  // namespace strata::exec
