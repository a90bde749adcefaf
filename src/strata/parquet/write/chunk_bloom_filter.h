// The Bloom filter of one column chunk being written: the hashes of values written outside
// the dictionary go into it as they come, the dictionary's entries at the chunk's end (a
// dictionary holds each distinct value once); then, unless a distinct count was given, it is
// folded to the smallest size that meets the target false-positive rate, and written after
// the row group's chunks (encrypted with the column's key when the column is).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "strata/io/output_sink.h"
#include "strata/memory/buffer.h"
#include "strata/parquet/encryption/file_encryptor.h"
#include "strata/parquet/stats/bloom_filter.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/parquet/write/physical_values.h"
#include "strata/parquet/write/writer_options.h"

namespace strata::parquet {

class ChunkBloomFilter {
 public:
  // `value_width`: bytes of one fixed-width physical value (0 for BOOLEAN and BYTE_ARRAY).
  // `max_chunk_values`: the most values a chunk can hold (a flat column's row-group rows; 0
  // when unbounded, as for a nested column), which bounds the filter built before folding.
  ChunkBloomFilter(MemoryPool* pool, const ColumnWriteOptions& options, PhysicalType type, int value_width,
                   int64_t max_chunk_values);

  bool enabled() const { return options_.bloom_filter; }
  // Values written in the fallback encoding (the dictionary's entries come at Build).
  Status AddValues(const GatheredValues& values);
  // The chunk's filter: the values added, and the `entries` entries of the chunk's dictionary
  // from its PLAIN page body (none when the chunk used no dictionary); folded to fit them
  // unless options.bloom_filter_ndv sized it.
  Status Build(std::span<const uint8_t> dictionary_plain, int64_t entries);
  // Bytes the filter is built at before folding (the spec's size for the chunk's most values,
  // capped by bloom_filter_max_bytes and, under a pool limit, a 64th of it).
  int64_t initial_bytes() const { return initial_bytes_; }
  // Writes the filter built last (nothing without one): its offset and stored length.
  // `encryptor`/`encryption`: the file's and the column's, null for a plaintext column;
  // `row_group` and `column` make the module's AAD.
  Result<std::optional<std::pair<int64_t, int32_t>>> Write(OutputSink* sink,
                                                           const encryption::FileEncryptor* encryptor,
                                                           const encryption::ColumnEncryptor* encryption,
                                                           int64_t row_group, int column);
  int64_t memory_size() const;

 private:
  const ColumnWriteOptions& options_;
  MemoryPool* pool_;
  PhysicalType type_;
  int value_width_;
  int64_t initial_bytes_;
  // Allocates the filter on the chunk's first value, at `num_bytes`.
  Status EnsureFilter(int64_t num_bytes);
  Status InsertDictionary(std::span<const uint8_t> dictionary_plain, int64_t entries);
  ResizableBuffer hashes_;  // scratch: one batch's hashes
  ResizableBuffer bytes_;
  ResizableBuffer modules_;  // the encrypted header and bitset
  std::unique_ptr<BloomFilter> bloom_;
};

}  // namespace strata::parquet
