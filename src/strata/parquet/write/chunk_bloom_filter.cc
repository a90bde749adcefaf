#include "strata/parquet/write/chunk_bloom_filter.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "strata/array/bitmap.h"

namespace strata::parquet {

namespace {

// Values hashed at a time: the scratch stays at 32 KiB whatever a batch or dictionary holds.
constexpr int64_t kHashBatch = 4096;

}  // namespace

ChunkBloomFilter::ChunkBloomFilter(MemoryPool* pool, const ColumnWriteOptions& options, PhysicalType type,
                                   int value_width, int64_t max_chunk_values)
    : options_(options),
      pool_(pool),
      type_(type),
      value_width_(value_width),
      hashes_(pool),
      bytes_(pool),
      modules_(pool) {
  // Large enough that folding, not the first guess, decides the size: the spec's bytes for
  // every value of a full chunk being distinct, when that is bounded.
  int64_t bytes = std::bit_floor(static_cast<uint64_t>(
      std::clamp<int64_t>(options.bloom_filter_max_bytes, BloomFilter::kMinBytes, BloomFilter::kMaxBytes)));
  if (max_chunk_values > 0) bytes = std::min(bytes, BloomFilter::OptimalNumBytes(max_chunk_values, options.bloom_filter_fpp));
  // Under a pool limit, each filter takes at most a 64th of it (row groups take an eighth).
  if (pool->limit() > 0) {
    bytes = std::min<int64_t>(
        bytes, std::bit_floor(static_cast<uint64_t>(std::max<int64_t>(BloomFilter::kMinBytes, pool->limit() / 64))));
  }
  initial_bytes_ = options.bloom_filter_ndv > 0 ? BloomFilter::OptimalNumBytes(options.bloom_filter_ndv,
                                                                                 options.bloom_filter_fpp)
                                                : bytes;
}

Status ChunkBloomFilter::EnsureFilter(int64_t num_bytes) {
  if (bloom_ != nullptr) return Status::OK();
  STRATA_ASSIGN_OR_RETURN(bloom_, BloomFilter::Make(pool_, num_bytes));
  return Status::OK();
}

Status ChunkBloomFilter::AddValues(const GatheredValues& values) {
  if (!enabled() || values.count == 0) return Status::OK();
  STRATA_RETURN_NOT_OK(EnsureFilter(initial_bytes_));
  STRATA_RETURN_NOT_OK(hashes_.ReserveScratch(std::min(values.count, kHashBatch) * 8));
  auto* hashes = hashes_.mutable_data_as<uint64_t>();
  for (int64_t at = 0; at < values.count; at += kHashBatch) {
    const int64_t n = std::min(kHashBatch, values.count - at);
    if (type_ == PhysicalType::kByteArray) {
      BloomFilter::HashByteArrays(values.views + at, n, hashes);
    } else if (type_ == PhysicalType::kBoolean) {
      for (int64_t i = 0; i < n; ++i) {
        const uint8_t v = bitmap::GetBit(values.bits, values.bit_offset + at + i) ? 1 : 0;
        hashes[i] = BloomFilter::Hash(&v, 1);
      }
    } else {
      BloomFilter::HashFixed(values.fixed + at * value_width_, n, value_width_, hashes);
    }
    bloom_->InsertHashes(hashes, n);
  }
  return Status::OK();
}

Status ChunkBloomFilter::InsertDictionary(std::span<const uint8_t> dictionary_plain, int64_t entries) {
  STRATA_RETURN_NOT_OK(hashes_.ReserveScratch(std::min(entries, kHashBatch) * 8));
  auto* hashes = hashes_.mutable_data_as<uint64_t>();
  const uint8_t* p = dictionary_plain.data();
  for (int64_t at = 0; at < entries; at += kHashBatch) {
    const int64_t n = std::min(kHashBatch, entries - at);
    if (type_ == PhysicalType::kByteArray) {
      for (int64_t i = 0; i < n; ++i) {
        uint32_t length;
        std::memcpy(&length, p, 4);
        hashes[i] = BloomFilter::Hash(p + 4, length);
        p += 4 + length;
      }
    } else {
      BloomFilter::HashFixed(p, n, value_width_, hashes);
      p += n * value_width_;
    }
    bloom_->InsertHashes(hashes, n);
  }
  return Status::OK();
}

Status ChunkBloomFilter::Build(std::span<const uint8_t> dictionary_plain, int64_t entries) {
  if (!enabled()) return Status::OK();
  // A chunk of dictionary pages only: its distinct count is known, so start nearer the answer
  // (four times the spec's bytes for it leaves folding room to undo the formula's rounding).
  int64_t num_bytes = initial_bytes_;
  if (options_.bloom_filter_ndv == 0) {
    num_bytes = std::min(num_bytes, std::clamp<int64_t>(4 * BloomFilter::OptimalNumBytes(entries, options_.bloom_filter_fpp),
                                                        BloomFilter::kMinBytes, BloomFilter::kMaxBytes));
  }
  STRATA_RETURN_NOT_OK(EnsureFilter(num_bytes));  // also for a chunk of nulls only: an empty filter
  if (entries > 0) STRATA_RETURN_NOT_OK(InsertDictionary(dictionary_plain, entries));
  if (options_.bloom_filter_ndv == 0) bloom_->FoldToFalsePositiveRate(options_.bloom_filter_fpp);
  return Status::OK();
}

Result<std::optional<std::pair<int64_t, int32_t>>> ChunkBloomFilter::Write(OutputSink* sink,
                                                                           const encryption::FileEncryptor* encryptor,
                                                                           const encryption::ColumnEncryptor* encryption,
                                                                           int64_t row_group, int column) {
  if (bloom_ == nullptr) return std::optional<std::pair<int64_t, int32_t>>();
  bytes_.Clear();
  STRATA_RETURN_NOT_OK(bloom_->WriteTo(&bytes_));
  std::span<const uint8_t> stored = bytes_.span();
  if (encryption != nullptr) {
    modules_.Clear();
    STRATA_RETURN_NOT_OK(
        encryptor->EncryptBloomFilter(encryption->key, row_group, column, stored, bloom_->num_bytes(), &modules_));
    stored = modules_.span();
  }
  const int64_t offset = sink->position();
  STRATA_RETURN_NOT_OK(sink->Write(stored.data(), static_cast<int64_t>(stored.size())));
  bloom_.reset();
  return std::optional(std::pair<int64_t, int32_t>(offset, static_cast<int32_t>(stored.size())));
}

int64_t ChunkBloomFilter::memory_size() const {
  return hashes_.capacity() + bytes_.capacity() + modules_.capacity() + (bloom_ ? bloom_->memory_size() : 0);
}

}  // namespace strata::parquet
