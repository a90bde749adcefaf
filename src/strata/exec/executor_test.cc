#include "strata/exec/executor.h"

#include <gtest/gtest.h>

#include <memory>

#include "strata/exec/process_pool.h"
#include "strata/exec/thread_pool.h"

namespace strata::exec {
namespace {

std::unique_ptr<ThreadPool> MakePool(int threads) {
  Result<std::unique_ptr<ThreadPool>> pool = ThreadPool::Make(threads);
  EXPECT_TRUE(pool.ok()) << pool.status().ToString();
  return std::move(pool).MoveValueUnsafe();
}

TEST(ExecutorTest, DefaultRunsOnTheCaller) {
  const Executor serial;
  EXPECT_EQ(serial.pool(), nullptr);
  EXPECT_EQ(serial.threads(), 1);
  EXPECT_FALSE(serial.parallel());
}

TEST(ExecutorTest, ZeroThreadsIsThePoolsSize) {
  auto pool = MakePool(3);
  const Executor all(pool.get(), 0);
  EXPECT_EQ(all.pool(), pool.get());
  EXPECT_EQ(all.threads(), 3);
  EXPECT_TRUE(all.parallel());
  const Executor two(pool.get(), 2);
  EXPECT_EQ(two.threads(), 2);
  // More than the pool has: kept, as asked.
  EXPECT_EQ(Executor(pool.get(), 8).threads(), 8);
}

TEST(ExecutorTest, OneThreadOrNoPoolRunsOnTheCaller) {
  auto pool = MakePool(2);
  EXPECT_EQ(Executor(pool.get(), 1), Executor());
  EXPECT_EQ(Executor(nullptr, 4), Executor());
  EXPECT_EQ(Executor(nullptr, 0), Executor());
  EXPECT_EQ(Executor(pool.get(), -1), Executor());
  auto single = MakePool(1);
  EXPECT_EQ(Executor(single.get(), 0), Executor());  // a 1-core pool: the caller's thread
  EXPECT_EQ(Executor(single.get(), 2).threads(), 2);
}

TEST(ExecutorTest, ProcessExecutorUsesTheProcessPool) {
  EXPECT_EQ(ProcessExecutor(1), Executor());
  ThreadPool* pool = ProcessThreadPool();
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(pool->num_threads(), UsableCores());
  EXPECT_EQ(ProcessExecutor(0), Executor(pool, 0));
  EXPECT_EQ(ProcessExecutor(3), Executor(pool, 3));
}

}  // namespace
}  // namespace strata::exec
