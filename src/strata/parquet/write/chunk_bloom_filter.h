// The Bloom filter of one column chunk being written: the hashes of values written outside
// the dictionary as they come, the dictionary's entries at the chunk's end (a dictionary
// holds each distinct value once), then the filter, written after the row group's chunks
// (encrypted with the column's key when the column is).
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
  ChunkBloomFilter(MemoryPool* pool, const ColumnWriteOptions& options, PhysicalType type, int value_width);

  bool enabled() const { return options_.bloom_filter; }
  // Values written in the fallback encoding (the dictionary's entries come at Build).
  Status AddValues(const GatheredValues& values);
  // The chunk's filter: the values added, and the `entries` entries of the chunk's dictionary
  // from its PLAIN page body (none when the chunk used no dictionary). The filter is sized for
  // options.bloom_filter_ndv, or for the distinct values these give.
  Status Build(std::span<const uint8_t> dictionary_plain, int64_t entries);
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
  ResizableBuffer hashes_;  // of values not in the dictionary
  ResizableBuffer bytes_;
  ResizableBuffer modules_;  // the encrypted header and bitset
  std::unique_ptr<BloomFilter> bloom_;
};

}  // namespace strata::parquet
