#include "strata/io/read_range_cache.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "strata/io/io_thread_pool.h"

namespace strata {

// One coalesced range and its fetch. Every field is guarded by the cache's mutex_; the buffer
// is immutable once state is kDone, so slices of it are read without the lock.
struct ReadRangeCache::Entry {
  enum class State { kQueued, kFetching, kDone, kCancelled };

  explicit Entry(ReadRange r) : range(r) {}

  ReadRange range;
  // Groups holding this entry; the entry is released when the last one is evicted.
  std::vector<int> groups;
  State state = State::kQueued;
  // No group holds the entry any more (or the cache is shutting down): a queued fetch is skipped.
  bool released = false;
  Status status;                   // the fetch's outcome, once kDone
  std::shared_ptr<Buffer> buffer;  // the bytes, once kDone and OK
};

Status ReadRangeCacheOptions::Validate() const {
  STRATA_RETURN_NOT_OK(coalesce.Validate());
  if (io_threads < 1 || io_threads > 64) {
    return Status::Invalid("io_threads must be between 1 and 64 (got {})", io_threads);
  }
  return Status::OK();
}

Result<std::shared_ptr<ReadRangeCache>> ReadRangeCache::Make(std::shared_ptr<RandomAccessSource> source,
                                                             MemoryPool* pool, ReadRangeCacheOptions options) {
  if (source == nullptr) return Status::Invalid("ReadRangeCache needs a source");
  if (pool == nullptr) return Status::Invalid("ReadRangeCache needs a memory pool");
  STRATA_RETURN_NOT_OK(options.Validate());
  STRATA_ASSIGN_OR_RETURN(const int64_t size, source->Size());
  return std::shared_ptr<ReadRangeCache>(new ReadRangeCache(std::move(source), pool, options, size));
}

ReadRangeCache::ReadRangeCache(std::shared_ptr<RandomAccessSource> source, MemoryPool* pool,
                               ReadRangeCacheOptions options, int64_t source_size)
    : source_(std::move(source)),
      pool_(pool),
      options_(options),
      source_size_(source_size),
      io_pool_(std::make_unique<IoThreadPool>(options.io_threads)) {}

ReadRangeCache::~ReadRangeCache() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [offset, entry] : entries_) entry->released = true;
  }
  io_pool_.reset();  // queued fetches see `released` and return at once; running ones finish
}

Status ReadRangeCache::Cache(std::vector<ReadRange> ranges, int group) {
  for (const ReadRange& range : ranges) {
    if (range.offset < 0 || range.length < 0 || range.offset > source_size_ ||
        range.length > source_size_ - range.offset) {
      return Status::IOError("cannot cache {} bytes at offset {} for group {}: outside '{}' ({} bytes)",
                             range.length, range.offset, group, source_->name(), source_size_);
    }
  }

  std::vector<std::shared_ptr<Entry>> to_fetch;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& group_entries = entries_by_group_[group];
    std::vector<ReadRange> uncovered;
    uncovered.reserve(ranges.size());
    for (const ReadRange& range : ranges) {
      if (range.length == 0) continue;
      std::shared_ptr<Entry> entry = FindEntryLocked(range.offset, range.length);
      // A failed entry is not shared: the new group fetches its range again.
      if (entry == nullptr || (entry->state == Entry::State::kDone && !entry->status.ok())) {
        uncovered.push_back(range);
        continue;
      }
      if (std::find(entry->groups.begin(), entry->groups.end(), group) == entry->groups.end()) {
        entry->groups.push_back(group);
        group_entries.push_back(std::move(entry));
      }
    }
    STRATA_ASSIGN_OR_RETURN(auto merged, CoalesceReadRanges(std::move(uncovered), options_.coalesce));
    to_fetch.reserve(merged.size());
    for (const ReadRange& range : merged) {
      auto entry = std::make_shared<Entry>(range);
      entry->groups.push_back(group);
      entries_.emplace(range.offset, entry);
      group_entries.push_back(entry);
      memory_size_ += range.length;
      max_entry_length_ = std::max(max_entry_length_, range.length);
      to_fetch.push_back(std::move(entry));
    }
    if (group_entries.empty()) entries_by_group_.erase(group);
  }
  for (auto& entry : to_fetch) {
    io_pool_->Submit([this, entry = std::move(entry)]() mutable { Fetch(std::move(entry)); });
  }
  return Status::OK();
}

void ReadRangeCache::Fetch(std::shared_ptr<Entry> entry) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entry->released) {
      entry->state = Entry::State::kCancelled;
      fetched_.notify_all();
      return;
    }
    entry->state = Entry::State::kFetching;
  }
  // Outside the lock: the fetch is the slow part, and other entries' readers must not wait.
  auto result = source_->ReadBufferAt(entry->range.offset, entry->range.length, pool_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (result.ok()) {
      entry->buffer = std::move(result).ValueOrDie();
    } else {
      entry->status = result.status().WithContext(
          fmt::format("prefetching bytes [{}, {}) of '{}'", entry->range.offset, entry->range.end(), source_->name()));
    }
    entry->state = Entry::State::kDone;
  }
  // Let go of the entry before waking readers: one that evicts it right away must see its
  // memory freed, not held by this finished task (that doubled the peak in the benchmark).
  entry.reset();
  fetched_.notify_all();
}

void ReadRangeCache::Evict(int group) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_by_group_.find(group);
  if (it == entries_by_group_.end()) return;
  for (const auto& entry : it->second) {
    std::erase(entry->groups, group);
    if (entry->groups.empty()) ReleaseEntryLocked(entry);
  }
  entries_by_group_.erase(it);
}

void ReadRangeCache::ReleaseEntryLocked(const std::shared_ptr<Entry>& entry) {
  entry->released = true;
  auto [first, last] = entries_.equal_range(entry->range.offset);
  for (auto it = first; it != last; ++it) {
    if (it->second == entry) {
      entries_.erase(it);
      break;
    }
  }
  memory_size_ -= entry->range.length;
  if (entries_.empty()) max_entry_length_ = 0;
  // The buffer itself is freed when the last reference goes: here, in a running fetch, or in
  // a buffer ReadBufferAt handed out.
}

Status ReadRangeCache::Wait(int group) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = entries_by_group_.find(group);
  if (it == entries_by_group_.end()) return Status::OK();
  const std::vector<std::shared_ptr<Entry>> entries = it->second;  // Evict may run while we wait
  Status first_error;
  for (const auto& entry : entries) {
    auto ready = WaitForEntry(entry, lock);
    if (!ready.ok() && first_error.ok()) first_error = ready.status();
  }
  return first_error;
}

std::shared_ptr<ReadRangeCache::Entry> ReadRangeCache::FindEntryLocked(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || length > std::numeric_limits<int64_t>::max() - offset) return nullptr;
  const ReadRange wanted{offset, length};
  // Entries starting at or before `offset`, latest first. None that starts more than
  // max_entry_length_ bytes before the wanted end can reach it, so the scan stops there.
  auto it = entries_.upper_bound(offset);
  while (it != entries_.begin()) {
    --it;
    if (it->first < wanted.end() - max_entry_length_) break;
    if (it->second->range.Contains(wanted)) return it->second;
  }
  return nullptr;
}

Result<bool> ReadRangeCache::WaitForEntry(const std::shared_ptr<Entry>& entry, std::unique_lock<std::mutex>& lock) {
  ++waiting_readers_;
  fetched_.wait(lock, [&] { return entry->state == Entry::State::kDone || entry->state == Entry::State::kCancelled; });
  --waiting_readers_;
  if (entry->state == Entry::State::kCancelled) return false;
  STRATA_RETURN_NOT_OK(entry->status);
  return true;
}

Result<ReadRangeCache::Hit> ReadRangeCache::CachedRange(int64_t offset, int64_t length) {
  std::unique_lock<std::mutex> lock(mutex_);
  std::shared_ptr<Entry> entry = FindEntryLocked(offset, length);
  if (entry == nullptr) return Hit{};
  STRATA_ASSIGN_OR_RETURN(const bool ready, WaitForEntry(entry, lock));
  if (!ready) return Hit{};
  Hit hit{entry->buffer, offset - entry->range.offset};
  lock.unlock();
  hits_.fetch_add(1, std::memory_order_relaxed);
  bytes_served_.fetch_add(length, std::memory_order_relaxed);
  return hit;
}

Result<std::shared_ptr<Buffer>> ReadRangeCache::ReadBufferAt(int64_t offset, int64_t length, MemoryPool* pool) {
  STRATA_ASSIGN_OR_RETURN(Hit hit, CachedRange(offset, length));
  if (hit.buffer != nullptr) return Buffer::Slice(std::move(hit.buffer), hit.start, length);
  misses_.fetch_add(1, std::memory_order_relaxed);
  STRATA_ASSIGN_OR_RETURN(auto buffer, source_->ReadBufferAt(offset, length, pool));
  bytes_served_.fetch_add(length, std::memory_order_relaxed);
  return buffer;
}

Status ReadRangeCache::ReadAt(int64_t offset, int64_t length, uint8_t* out) {
  STRATA_ASSIGN_OR_RETURN(Hit hit, CachedRange(offset, length));
  if (hit.buffer != nullptr) {
    // Copied straight from the entry: no slice Buffer made per read.
    if (length > 0) std::memcpy(out, hit.buffer->data() + hit.start, static_cast<size_t>(length));
    return Status::OK();
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  STRATA_RETURN_NOT_OK(source_->ReadAt(offset, length, out));
  bytes_served_.fetch_add(length, std::memory_order_relaxed);
  return Status::OK();
}

Result<int64_t> ReadRangeCache::Size() { return source_size_; }
const std::string& ReadRangeCache::name() const { return source_->name(); }
int64_t ReadRangeCache::read_count() const { return cache_hits() + cache_misses(); }
int64_t ReadRangeCache::bytes_read() const { return bytes_served_.load(std::memory_order_relaxed); }
int64_t ReadRangeCache::cache_hits() const { return hits_.load(std::memory_order_relaxed); }

int64_t ReadRangeCache::waiting_readers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_readers_;
}
int64_t ReadRangeCache::cache_misses() const { return misses_.load(std::memory_order_relaxed); }

int64_t ReadRangeCache::memory_size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return memory_size_;
}

int64_t ReadRangeCache::num_entries() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int64_t>(entries_.size());
}

}  // namespace strata
