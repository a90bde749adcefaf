// Dictionary pages (PLAIN-encoded entries) and the gather that turns dictionary indices (from
// RleBitPackedDecoder::DecodeIndices) into values. The dictionary copies what it needs out of
// the page, so the page buffer can be released once the dictionary is built.
#pragma once

#include <cstdint>
#include <memory>

#include "strata/parquet/encoding/byte_array.h"
#include "strata/util/result.h"

namespace strata::parquet {

class Dictionary {
 public:
  // `num_values` PLAIN values of `value_width` bytes (INT32, INT64, INT96, FLOAT, DOUBLE, FLBA).
  // Corrupt when the page holds fewer bytes than num_values * value_width.
  static Result<std::unique_ptr<Dictionary>> MakeFixedWidth(MemoryPool* pool, const uint8_t* page,
                                                            int64_t size, int64_t num_values,
                                                            int value_width,
                                                            int64_t base_offset = 0);
  // `num_values` PLAIN BYTE_ARRAY values. Every length is checked against the page.
  static Result<std::unique_ptr<Dictionary>> MakeByteArray(MemoryPool* pool, const uint8_t* page,
                                                           int64_t size, int64_t num_values,
                                                           int64_t base_offset = 0);

  // Entries in the dictionary.
  int64_t size() const { return num_values_; }
  bool is_byte_array() const { return value_width_ == 0; }
  // Bytes per entry for fixed-width dictionaries; 0 for BYTE_ARRAY.
  int value_width() const { return value_width_; }
  // Fixed-width entries back to back.
  const uint8_t* fixed_values() const { return values_.data(); }
  // BYTE_ARRAY entries, pointing into memory owned by this dictionary.
  const ByteArrayView* views() const {
    return reinterpret_cast<const ByteArrayView*>(views_.data());
  }
  // Pool bytes held.
  int64_t memory_size() const { return values_.capacity() + views_.capacity(); }

  // The gathers below require every index in indices[0, n) to be in [0, size()):
  // RleBitPackedDecoder::DecodeIndices guarantees it, once per batch.

  // out[i] = entry indices[i], for fixed-width dictionaries with sizeof(T) == value_width().
  template <typename T>
  void Gather(const int32_t* indices, int64_t n, T* out) const {
    const T* dict = reinterpret_cast<const T*>(values_.data());
    for (int64_t i = 0; i < n; ++i) out[i] = dict[indices[i]];
  }
  // Any fixed width (INT96, FLBA): value_width() bytes per output value.
  void GatherFixedBytes(const int32_t* indices, int64_t n, uint8_t* out) const;
  // BYTE_ARRAY (or FLBA) as views into the dictionary, valid while it lives.
  void GatherViews(const int32_t* indices, int64_t n, ByteArrayView* out) const;
  // BYTE_ARRAY appended to offsets + data: one pass sums lengths, one exact Reserve, one copy.
  // offsets_out[i] is the end offset of value i.
  template <typename Offset>
  Status GatherInto(const int32_t* indices, int64_t n, Offset* offsets_out,
                    ResizableBuffer* data) const;

 private:
  explicit Dictionary(MemoryPool* pool) : values_(pool), views_(pool) {}

  int64_t num_values_ = 0;
  int value_width_ = 0;
  ResizableBuffer values_;  // fixed-width entries, or the BYTE_ARRAY payload bytes
  ResizableBuffer views_;   // ByteArrayView per BYTE_ARRAY entry
};

}  // namespace strata::parquet
