#include "strata/parquet/write/chunk_bloom_filter.h"

#include <algorithm>
#include <cstring>

#include "strata/array/bitmap.h"

namespace strata::parquet {

ChunkBloomFilter::ChunkBloomFilter(MemoryPool* pool, const ColumnWriteOptions& options, PhysicalType type,
                                   int value_width)
    : options_(options),
      pool_(pool),
      type_(type),
      value_width_(value_width),
      hashes_(pool),
      bytes_(pool),
      modules_(pool) {}

Status ChunkBloomFilter::AddValues(const GatheredValues& values) {
  if (!enabled()) return Status::OK();
  const int64_t n = values.count;
  const int64_t at = hashes_.size();
  STRATA_RETURN_NOT_OK(hashes_.GrowForAppend(at + n * 8));
  auto* hashes = reinterpret_cast<uint64_t*>(hashes_.mutable_data() + at);
  if (type_ == PhysicalType::kByteArray) {
    BloomFilter::HashByteArrays(values.views, n, hashes);
  } else if (type_ == PhysicalType::kBoolean) {
    for (int64_t i = 0; i < n; ++i) {
      const uint8_t v = bitmap::GetBit(values.bits, values.bit_offset + i) ? 1 : 0;
      hashes[i] = BloomFilter::Hash(&v, 1);
    }
  } else {
    BloomFilter::HashFixed(values.fixed, n, value_width_, hashes);
  }
  hashes_.set_size(at + n * 8);
  return Status::OK();
}

Status ChunkBloomFilter::Build(std::span<const uint8_t> dictionary_plain, int64_t entries) {
  bloom_.reset();
  if (!enabled()) return Status::OK();
  const int64_t fallback_hashes = hashes_.size() / 8;
  int64_t ndv = options_.bloom_filter_ndv;
  if (ndv == 0) ndv = std::max<int64_t>(1, entries + fallback_hashes);
  STRATA_ASSIGN_OR_RETURN(bloom_, BloomFilter::Make(pool_, BloomFilter::OptimalNumBytes(ndv, options_.bloom_filter_fpp)));
  bloom_->InsertHashes(hashes_.data_as<uint64_t>(), fallback_hashes);
  if (entries > 0) {
    STRATA_RETURN_NOT_OK(hashes_.ReserveDiscardingContents(entries * 8));
    auto* hashes = hashes_.mutable_data_as<uint64_t>();
    if (type_ == PhysicalType::kByteArray) {
      const uint8_t* p = dictionary_plain.data();
      for (int64_t i = 0; i < entries; ++i) {
        uint32_t length;
        std::memcpy(&length, p, 4);
        hashes[i] = BloomFilter::Hash(p + 4, length);
        p += 4 + length;
      }
    } else {
      BloomFilter::HashFixed(dictionary_plain.data(), entries, value_width_, hashes);
    }
    bloom_->InsertHashes(hashes, entries);
  }
  hashes_.Clear();
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
