// DELTA_LENGTH_BYTE_ARRAY (Encodings.md "DELTA_LENGTH_BYTE_ARRAY = 6"): all lengths as one
// DELTA_BINARY_PACKED stream, then all the bytes back to back. Also the suffix section of
// DELTA_BYTE_ARRAY.
#pragma once

#include <cstdint>

#include "strata/parquet/encoding/byte_array.h"
#include "strata/parquet/encoding/delta_binary_packed.h"

namespace strata::parquet {

// Counts are in values (non-null byte arrays). Nothing is allocated: lengths are decoded in
// batches of 256 on the stack, and values are views into the caller's span.
class DeltaLengthByteArrayDecoder {
 public:
  // Finds where the lengths end (walking the miniblocks, no decoding) so the bytes that follow
  // can be read alongside the lengths. The span must stay alive while decoding.
  Status SetData(const uint8_t* data, int64_t size, int64_t base_offset = 0);

  // Views into the span. Each batch of lengths is checked at once (no negative length, sum
  // within the remaining bytes); Corrupt otherwise. Fewer than `count` only when the values end.
  Result<int64_t> Decode(ByteArrayView* out, int64_t count);
  Result<int64_t> Skip(int64_t count);

  // The count the stream declares; callers compare it with the page header's.
  int64_t total_values() const { return lengths_.total_values(); }
  int64_t values_left() const { return lengths_.values_left(); }
  // Bytes of the byte section not yet consumed.
  int64_t bytes_left() const { return size_ - data_pos_; }

 private:
  DeltaBinaryPackedDecoder<int32_t> lengths_;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t data_pos_ = 0;  // next byte of the byte section, relative to data_
  int64_t base_offset_ = 0;
};

// Appends DELTA_LENGTH_BYTE_ARRAY of values[0, count) to `out`.
Status DeltaLengthByteArrayEncode(MemoryPool* pool, const ByteArrayView* values, int64_t count,
                                  ResizableBuffer* out);

}  // namespace strata::parquet
