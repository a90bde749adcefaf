// DELTA_BYTE_ARRAY (Encodings.md "DELTA_BYTE_ARRAY = 7"), front coding: prefix lengths as
// DELTA_BINARY_PACKED, then the suffixes as DELTA_LENGTH_BYTE_ARRAY. Value i is the first
// prefix[i] bytes of value i - 1 followed by suffix i, so values must be materialised.
#pragma once

#include <cstdint>

#include "strata/parquet/encoding/delta_length_byte_array.h"

namespace strata::parquet {

// Counts are in values (non-null BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY values; for FLBA the caller
// checks each length against type_length).
class DeltaByteArrayDecoder {
 public:
  explicit DeltaByteArrayDecoder(MemoryPool* pool) : values_(pool), offsets_(pool), last_(pool) {}

  Status SetData(const uint8_t* data, int64_t size, int64_t base_offset = 0);

  // Materialises up to `count` values into decoder-owned memory and returns views of them.
  // The views stay valid until the next Decode(), Skip() or SetData(). Corrupt when a prefix
  // length is negative or longer than the previous value. Note the format lets a small page
  // expand a lot (long shared prefixes); the pool's limit bounds that.
  Result<int64_t> Decode(ByteArrayView* out, int64_t count);
  Result<int64_t> Skip(int64_t count);

  int64_t values_left() const { return prefixes_.values_left(); }
  // Pool bytes held for materialised values.
  int64_t memory_size() const { return values_.capacity() + offsets_.capacity() + last_.capacity(); }

 private:
  // Bytes of the next `count` values, every prefix length checked; decodes nothing for good.
  Result<int64_t> SizeValues(int64_t count) const;

  DeltaBinaryPackedDecoder<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  int64_t base_offset_ = 0;
  ResizableBuffer values_;   // this batch's values, back to back
  ResizableBuffer offsets_;  // int64 start offset of each value of the batch, plus the end
  ResizableBuffer last_;     // the previous batch's last value (the next prefix source)
};

// Appends DELTA_BYTE_ARRAY of values[0, count) to `out`.
Status DeltaByteArrayEncode(MemoryPool* pool, const ByteArrayView* values, int64_t count,
                            ResizableBuffer* out);

}  // namespace strata::parquet
