// ThreadPool: a pool of CPU threads (strata's execution layer, below the formats and above
// util). Parquet encode/decode, the parallel scan and CSV submit to the pool their Executor
// names (executor.h), usually through a TaskGroup (task_group.h); the edges create it (the
// process's one pool: process_pool.h). Blocking I/O has its own pool in io/.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "strata/util/result.h"

namespace strata::exec {

// A type-erased, move-only callable (std::move_only_function is C++23). Callables of up to four
// pointers that move without throwing are stored inline, so the pool's own small closures
// (a shared_ptr and a pointer) cost no allocation per task. Calling an empty one is a bug.
template <typename Signature>
class MoveOnlyFunction;

template <typename R, typename... Args>
class MoveOnlyFunction<R(Args...)> {
 public:
  MoveOnlyFunction() = default;
  MoveOnlyFunction(std::nullptr_t) {}  // NOLINT: mirrors std::function
  template <typename F, typename Fn = std::decay_t<F>,
            typename = std::enable_if_t<!std::is_same_v<Fn, MoveOnlyFunction> &&
                                        std::is_invocable_r_v<R, Fn&, Args...>>>
  MoveOnlyFunction(F&& f) {  // NOLINT: implicit like std::function
    if constexpr (kStoredInline<Fn>) {
      ::new (static_cast<void*>(storage_)) Fn(std::forward<F>(f));
      ops_ = &kInlineOps<Fn>;
    } else {
      *reinterpret_cast<Fn**>(storage_) = new Fn(std::forward<F>(f));
      ops_ = &kHeapOps<Fn>;
    }
  }
  MoveOnlyFunction(MoveOnlyFunction&& other) noexcept { TakeFrom(other); }
  MoveOnlyFunction& operator=(MoveOnlyFunction&& other) noexcept {
    if (this != &other) {
      Reset();
      TakeFrom(other);
    }
    return *this;
  }
  MoveOnlyFunction& operator=(std::nullptr_t) noexcept {
    Reset();
    return *this;
  }
  MoveOnlyFunction(const MoveOnlyFunction&) = delete;
  MoveOnlyFunction& operator=(const MoveOnlyFunction&) = delete;
  ~MoveOnlyFunction() { Reset(); }

  explicit operator bool() const { return ops_ != nullptr; }
  R operator()(Args... args) { return ops_->invoke(storage_, std::forward<Args>(args)...); }

 private:
  static constexpr size_t kInlineBytes = 4 * sizeof(void*);
  template <typename Fn>
  static constexpr bool kStoredInline = sizeof(Fn) <= kInlineBytes &&
                                        alignof(Fn) <= alignof(std::max_align_t) &&
                                        std::is_nothrow_move_constructible_v<Fn>;

  struct Ops {
    R (*invoke)(void* storage, Args&&... args);
    // Moves the callable from `from` into the empty `to` and leaves `from` empty.
    void (*relocate)(void* from, void* to) noexcept;
    void (*destroy)(void* storage) noexcept;
  };

  // std::invoke_r is C++23: a void() function may wrap a callable whose result it drops.
  template <typename Fn>
  static R Invoke(Fn& fn, Args&&... args) {
    if constexpr (std::is_void_v<R>) {
      std::invoke(fn, std::forward<Args>(args)...);
    } else {
      return std::invoke(fn, std::forward<Args>(args)...);
    }
  }

  template <typename Fn>
  static constexpr Ops kInlineOps = {
      [](void* storage, Args&&... args) -> R {
        return Invoke(*static_cast<Fn*>(storage), std::forward<Args>(args)...);
      },
      [](void* from, void* to) noexcept {
        ::new (to) Fn(std::move(*static_cast<Fn*>(from)));
        static_cast<Fn*>(from)->~Fn();
      },
      [](void* storage) noexcept { static_cast<Fn*>(storage)->~Fn(); },
  };
  template <typename Fn>
  static constexpr Ops kHeapOps = {
      [](void* storage, Args&&... args) -> R {
        return Invoke(**static_cast<Fn**>(storage), std::forward<Args>(args)...);
      },
      [](void* from, void* to) noexcept {
        *static_cast<Fn**>(to) = *static_cast<Fn**>(from);
      },
      [](void* storage) noexcept { delete *static_cast<Fn**>(storage); },
  };

  void TakeFrom(MoveOnlyFunction& other) noexcept {
    if (other.ops_ == nullptr) return;
    other.ops_->relocate(other.storage_, storage_);
    ops_ = other.ops_;
    other.ops_ = nullptr;
  }
  void Reset() noexcept {
    if (ops_ == nullptr) return;
    const Ops* ops = ops_;
    ops_ = nullptr;  // cleared first so a callable whose destructor resets us sees it empty
    ops->destroy(storage_);
  }

  alignas(std::max_align_t) unsigned char storage_[kInlineBytes];
  const Ops* ops_ = nullptr;
};

// What the pool runs. A task must not throw (strata reports errors as Status).
using MoveOnlyTask = MoveOnlyFunction<void()>;

// A fixed set of worker threads for CPU work, fed from one FIFO queue. Workers never exit while
// the pool lives. All members are thread-safe.
class ThreadPool {
 public:
  // Starts `threads` workers; Invalid if `threads` < 1, IOError if the system refuses a thread.
  static Result<std::unique_ptr<ThreadPool>> Make(int threads);
  // Runs every task still queued (including tasks those tasks queue), then joins the workers.
  // Must not be called from one of this pool's own workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int num_threads() const { return static_cast<int>(workers_.size()); }

  // Queues `task` (FIFO) for a worker. Never blocks on other tasks; takes only the queue lock.
  void Submit(MoveOnlyTask task);

  // Runs the oldest queued task on the calling thread if one is queued; true if it ran one.
  // Lets a thread that waits for results help instead of blocking (and, on a worker, instead
  // of holding a thread the awaited tasks need).
  bool RunOneIfQueued();

  // What a thread that waits for this pool's tasks does meanwhile. On one of the pool's
  // workers it runs the oldest queued task (true if it ran one), so that a waiting worker never
  // holds a thread the awaited tasks need. On any other thread it does nothing (false): the
  // workers, one per core, take the queue, and a caller that helped would be one thread more
  // than cores. It would also allocate from a malloc arena of its own: a 2-thread lineitem
  // scan whose main thread helped peaked at 57 or 69 MiB from run to run, by whether it had
  // decoded a row group; waiting, it peaks at 57 MiB at the same speed.
  bool HelpWhileWaiting() { return OnWorkerThread() && RunOneIfQueued(); }

  // True when called on one of this pool's workers (not on another pool's, not on a thread
  // merely helping through RunOneIfQueued).
  bool OnWorkerThread() const;

  // Tasks queued and not yet started: a snapshot, for tests and diagnostics.
  int64_t num_queued() const;

 private:
  ThreadPool() = default;
  Status StartWorkers(int threads);
  void WorkerLoop();

  mutable std::mutex mutex_;
  std::condition_variable work_available_;
  std::deque<MoveOnlyTask> queue_;
  bool stopping_ = false;
  // Written only while Make() starts the pool, before it is shared.
  std::vector<std::thread> workers_;
};

// The machine's usable cores: the size of this process's CPU affinity mask (a VM, container or
// taskset may allow fewer than std::thread::hardware_concurrency()), at least 1.
int UsableCores();

}  // namespace strata::exec
