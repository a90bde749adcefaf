// PLAIN (Encodings.md "PLAIN = 0"): values back to back. Fixed-width types are little-endian
// (INT32, INT64, INT96 as 12 bytes, FLOAT, DOUBLE, FIXED_LEN_BYTE_ARRAY as type_length bytes),
// BOOLEAN is bit-packed LSB first, BYTE_ARRAY is a 4-byte little-endian length then the bytes.
// Decoders read a caller-owned span (the page's value section); nothing is copied until asked.
// All counts are in values (non-null values: PLAIN stores no nulls).
#pragma once

#include <cstdint>

#include "strata/parquet/encoding/byte_array.h"
#include "strata/util/result.h"

namespace strata::parquet {

// INT96 as stored: 12 little-endian bytes (deprecated nanosecond timestamps).
struct Int96 {
  uint32_t value[3];
};

// INT32, INT64, INT96, FLOAT, DOUBLE and FIXED_LEN_BYTE_ARRAY: decode is a bounds check + memcpy.
class PlainFixedDecoder {
 public:
  // `value_width` is 4, 8, 12 or the FLBA type_length (> 0). Corrupt when `size` is not a whole
  // number of values.
  Status SetData(const uint8_t* data, int64_t size, int value_width, int64_t base_offset = 0);

  // Copies up to `count` values (count * value_width bytes) to `out`; returns how many, fewer
  // only when the data ends.
  Result<int64_t> DecodeRaw(void* out, int64_t count);
  template <typename T>
  Result<int64_t> Decode(T* out, int64_t count) {
    if (sizeof(T) != static_cast<size_t>(value_width_)) {
      return Status::Invalid("PLAIN decode of {}-byte values into a {}-byte type", value_width_, sizeof(T));
    }
    return DecodeRaw(out, count);
  }
  // FIXED_LEN_BYTE_ARRAY as views into the span (valid while the span is).
  Result<int64_t> DecodeViews(ByteArrayView* out, int64_t count);
  Result<int64_t> Skip(int64_t count);

  int64_t values_left() const { return values_left_; }

 private:
  const uint8_t* data_ = nullptr;
  int64_t pos_ = 0;
  int value_width_ = 0;
  int64_t values_left_ = 0;
};

// BOOLEAN: one bit per value, LSB first.
class PlainBooleanDecoder {
 public:
  void SetData(const uint8_t* data, int64_t size);
  // One byte (0 or 1) per value.
  Result<int64_t> Decode(uint8_t* out, int64_t count);
  // Straight into a bitmap at any bit offset (a word-at-a-time bitmap copy).
  Result<int64_t> DecodeBits(uint8_t* bitmap, int64_t bitmap_offset, int64_t count);
  Result<int64_t> Skip(int64_t count);
  int64_t values_left() const { return bits_left_; }

 private:
  const uint8_t* data_ = nullptr;
  int64_t bit_pos_ = 0;
  int64_t bits_left_ = 0;
};

// BYTE_ARRAY: every length is checked against the bytes that remain before it is used.
class PlainByteArrayDecoder {
 public:
  void SetData(const uint8_t* data, int64_t size, int64_t base_offset = 0);

  // Views into the span (no copy; valid while the span is). Returns how many were decoded, fewer
  // only when the data ends; Corrupt for a length that runs past the end.
  Result<int64_t> Decode(ByteArrayView* out, int64_t count);
  // Appends up to `count` values to `data` and their end offsets to offsets_out[0, n): a first
  // pass validates lengths and sums them, then one exact Reserve, then the copy pass.
  template <typename Offset>
  Result<int64_t> DecodeInto(int64_t count, Offset* offsets_out, ResizableBuffer* data);
  Result<int64_t> Skip(int64_t count);

  // Bytes of the span not yet consumed.
  int64_t bytes_left() const { return size_ - pos_; }

 private:
  // Validates up to `count` values from pos_ without consuming them: returns how many there are
  // and their total payload bytes.
  Result<int64_t> Measure(int64_t count, int64_t* payload_bytes) const;

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int64_t base_offset_ = 0;
};

// Encoders append to `out`.
Status PlainEncodeFixed(const void* values, int64_t count, int value_width, ResizableBuffer* out);
// `values` holds one byte (0 / non-zero) per value; encodes a whole page's booleans.
Status PlainEncodeBooleans(const uint8_t* values, int64_t count, ResizableBuffer* out);
Status PlainEncodeByteArrays(const ByteArrayView* values, int64_t count, ResizableBuffer* out);

}  // namespace strata::parquet
