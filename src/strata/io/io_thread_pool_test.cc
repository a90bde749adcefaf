#include "strata/io/io_thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

namespace strata {
namespace {

TEST(IoThreadPoolTest, RunsEveryTaskOnItsThreadsAndDrainsOnDestruction) {
  std::atomic<int> ran{0};
  std::mutex mutex;
  std::set<std::thread::id> thread_ids;
  {
    IoThreadPool pool(3);
    EXPECT_EQ(pool.num_threads(), 3);
    for (int i = 0; i < 200; ++i) {
      pool.Submit([&] {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
        std::lock_guard<std::mutex> lock(mutex);
        thread_ids.insert(std::this_thread::get_id());
        ran.fetch_add(1);
      });
    }
  }  // the destructor runs what is queued, then joins
  EXPECT_EQ(ran.load(), 200);
  EXPECT_LE(thread_ids.size(), 3u);
  EXPECT_EQ(thread_ids.count(std::this_thread::get_id()), 0u);
}

TEST(IoThreadPoolTest, AtLeastOneThread) {
  IoThreadPool pool(0);
  EXPECT_EQ(pool.num_threads(), 1);
  std::atomic<bool> ran{false};
  pool.Submit([&] { ran = true; });
  while (!ran.load()) std::this_thread::yield();
}

}  // namespace
}  // namespace strata
