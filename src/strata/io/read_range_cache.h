// ReadRangeCache: a RandomAccessSource that prefetches the byte ranges a row group will need
// (coalesced, on a small I/O thread pool) and serves reads from them, zero-copy. It sits
// between a source (local file, HTTP) and the Parquet reader, which needs no change to use it:
//   auto cache = *ReadRangeCache::Make(source, pool);
//   cache->Cache(ranges_of_row_group_0, 0);   // fetches start in the background
//   cache->Cache(ranges_of_row_group_1, 1);   // read ahead
//   ... read row group 0 through `cache` ...
//   cache->Evict(0);                          // its memory goes back to the pool
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "strata/io/random_access_source.h"
#include "strata/io/read_range.h"

namespace strata {

class IoThreadPool;

struct ReadRangeCacheOptions {
  CoalesceOptions coalesce;
  // Threads fetching ranges in the background (1..64). Two to four keep a local disk or a
  // remote server busy without competing with decoding for the CPU.
  int io_threads = 2;

  Status Validate() const;
};

class ReadRangeCache final : public RandomAccessSource {
 public:
  // Entry buffers are allocated from `pool`, which must outlive the cache and every buffer
  // ReadBufferAt returned. `source` is shared: the cache keeps it alive.
  static Result<std::shared_ptr<ReadRangeCache>> Make(std::shared_ptr<RandomAccessSource> source, MemoryPool* pool,
                                                      ReadRangeCacheOptions options = {});
  // Cancels fetches not yet started and waits for the running ones.
  ~ReadRangeCache() override;
  ReadRangeCache(const ReadRangeCache&) = delete;
  ReadRangeCache& operator=(const ReadRangeCache&) = delete;

  // Registers the ranges row group `group` will read and starts fetching them in the
  // background. A range lying wholly inside an entry the cache holds already (for any group)
  // shares that entry; the rest are coalesced into new entries. Ranges must lie inside the
  // source (IOError otherwise, and nothing is registered). May be called several times for
  // the same group; `group` is any caller-chosen id (the row group index).
  Status Cache(std::vector<ReadRange> ranges, int group);

  // Releases `group`'s hold on its entries. An entry used by several groups (coalescing merged
  // their ranges, or a later group's range lay inside it) is released with the LAST of them.
  // A released entry whose fetch has not started is never fetched. The memory returns to the
  // pool once no buffer returned by ReadBufferAt still points into it. Unknown groups are a
  // no-op.
  void Evict(int group);

  // Waits until every fetch for `group` has finished; returns the first fetch error.
  Status Wait(int group);

  // Bytes held by the cache's entries (fetched or being fetched), not counting entries that
  // were evicted while a returned buffer still points into them.
  int64_t memory_size() const;
  // Number of entries (coalesced ranges) held.
  int64_t num_entries() const;
  // Reads served from an entry, and reads passed through to the source (not cached).
  int64_t cache_hits() const;
  int64_t cache_misses() const;
  // Reads waiting now for an entry's fetch to finish (tests synchronise on it).
  int64_t waiting_readers() const;

  // RandomAccessSource. A read lying wholly inside one entry is served from it (waiting for
  // its fetch if needed; ReadBufferAt returns a zero-copy slice that keeps the entry's memory
  // alive); any other read goes to the source directly. An entry whose fetch failed returns
  // that error, with the entry's range as context.
  Result<int64_t> Size() override;
  Status ReadAt(int64_t offset, int64_t length, uint8_t* out) override;
  Result<std::shared_ptr<Buffer>> ReadBufferAt(int64_t offset, int64_t length, MemoryPool* pool) override;
  // No: a kept slice would keep its whole entry (other chunks' bytes too) past Evict().
  bool read_buffers_keepable() const override { return false; }
  const std::string& name() const override;
  // Reads served by the cache (hits plus misses); the source's own read_count() counts the
  // requests that actually reached it.
  int64_t read_count() const override;
  int64_t bytes_read() const override;

  RandomAccessSource& source() const { return *source_; }

 private:
  struct Entry;

  ReadRangeCache(std::shared_ptr<RandomAccessSource> source, MemoryPool* pool, ReadRangeCacheOptions options,
                 int64_t source_size);
  // The entry containing [offset, offset + length), or nullptr. Caller holds mutex_.
  std::shared_ptr<Entry> FindEntryLocked(int64_t offset, int64_t length) const;
  // Waits for `entry`'s fetch; false when it was cancelled (the caller reads directly).
  Result<bool> WaitForEntry(const std::shared_ptr<Entry>& entry, std::unique_lock<std::mutex>& lock);
  // The prefetched range holding all of [offset, offset + length), waited for (a hit, counted),
  // and where the range starts in it; a null buffer when none does.
  struct Hit {
    std::shared_ptr<Buffer> buffer;
    int64_t start = 0;
  };
  Result<Hit> CachedRange(int64_t offset, int64_t length);
  // Runs on an I/O thread; takes the task's reference so it can drop it early.
  void Fetch(std::shared_ptr<Entry> entry);
  void ReleaseEntryLocked(const std::shared_ptr<Entry>& entry);

  std::shared_ptr<RandomAccessSource> source_;
  MemoryPool* pool_;
  ReadRangeCacheOptions options_;
  int64_t source_size_;

  mutable std::mutex mutex_;
  std::condition_variable fetched_;  // signalled whenever an entry's fetch ends
  // Entries by offset. Entries may overlap (a later group's range that straddled an existing
  // entry got its own), so lookups scan back at most max_entry_length_ bytes.
  std::multimap<int64_t, std::shared_ptr<Entry>> entries_;
  int64_t max_entry_length_ = 0;
  std::map<int, std::vector<std::shared_ptr<Entry>>> entries_by_group_;
  int64_t memory_size_ = 0;
  std::atomic<int64_t> hits_{0};
  int64_t waiting_readers_ = 0;  // guarded by mutex_
  std::atomic<int64_t> misses_{0};
  std::atomic<int64_t> bytes_served_{0};

  // Last member: destroyed (joined) first, while everything its tasks touch is alive.
  std::unique_ptr<IoThreadPool> io_pool_;
};

}  // namespace strata
