// BYTE_STREAM_SPLIT (Encodings.md "BYTE_STREAM_SPLIT = 9") for FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY: K byte streams of N bytes (stream k holds byte k of every value).
// Decoding is a transpose; widths 4 and 8 have their own constant-width loops.
#pragma once

#include <cstdint>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::parquet {

// Counts are in values (non-null values). The span must stay alive while decoding.
class ByteStreamSplitDecoder {
 public:
  // `value_width` is K (4, 8, or the FLBA type_length). Corrupt when `size` is not N * K.
  Status SetData(const uint8_t* data, int64_t size, int value_width, int64_t base_offset = 0);

  // Writes up to `count` values (count * K bytes, each value's bytes in order) to `out`;
  // returns how many, fewer only when the values run out.
  Result<int64_t> DecodeRaw(uint8_t* out, int64_t count);
  template <typename T>
  Result<int64_t> Decode(T* out, int64_t count) {
    if (sizeof(T) != static_cast<size_t>(value_width_)) {
      return Status::Invalid("BYTE_STREAM_SPLIT decode of {}-byte values into a {}-byte type",
                             value_width_, sizeof(T));
    }
    return DecodeRaw(reinterpret_cast<uint8_t*>(out), count);
  }
  Result<int64_t> Skip(int64_t count);

  int64_t values_left() const { return num_values_ - position_; }

 private:
  const uint8_t* data_ = nullptr;
  int value_width_ = 0;
  int64_t num_values_ = 0;  // N, the length of each stream
  int64_t position_ = 0;    // values consumed
};

// Appends the BYTE_STREAM_SPLIT encoding of `count` values of `value_width` bytes.
Status ByteStreamSplitEncode(const uint8_t* values, int64_t count, int value_width,
                             ResizableBuffer* out);

}  // namespace strata::parquet
