// The RLE/bit-packing hybrid (Encodings.md "RLE = 3"): definition and repetition levels,
// dictionary indices and RLE booleans. A stream of runs, each either one value repeated
// (RLE run) or groups of 8 bit-packed values. The decoder works on a caller-owned byte span and
// writes into caller memory; the encoder appends to a ResizableBuffer.
#pragma once

#include <cstdint>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::parquet {

// Decodes a hybrid stream of fixed bit width (0..32). Counts are in values (levels, indices,
// booleans). The span passed to Reset*() is not copied and must stay alive while decoding.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;

  // `data` holds just the encoded runs (no length prefix). `base_offset` is the offset of
  // data[0] within the page, used only in error messages. Invalid if bit_width is not 0..32.
  Status Reset(const uint8_t* data, int64_t size, int bit_width, int64_t base_offset = 0);
  // Data page v1 levels and RLE booleans: a 4-byte little-endian length, then that many bytes of
  // runs. Returns the bytes consumed from `data` (4 + length), so the caller can find what follows.
  Result<int64_t> ResetWithLengthPrefix(const uint8_t* data, int64_t size, int bit_width,
                                        int64_t base_offset = 0);
  // RLE_DICTIONARY / PLAIN_DICTIONARY data pages: one byte of bit width (at most 32), then runs.
  Status ResetForDictionaryIndices(const uint8_t* data, int64_t size, int64_t base_offset = 0);

  // Decodes up to `count` values into out[0, n) and returns n; n < count only when the encoded
  // data ends. Corrupt on malformed runs (truncated run, RLE value wider than the bit width).
  // T is one of uint8_t, int16_t, uint16_t, int32_t, uint32_t.
  template <typename T>
  Result<int64_t> Decode(T* out, int64_t count);

  // Dictionary indices: like Decode, then checks every index against `dictionary_size` once per
  // batch (a max over the batch, no branch per value). Corrupt names the first bad index.
  Result<int64_t> DecodeIndices(int32_t* out, int64_t count, int64_t dictionary_size);

  // Skips up to `count` values (RLE runs in O(1), bit-packed runs 8 values per step without
  // unpacking); returns how many were skipped.
  Result<int64_t> Skip(int64_t count);

  // Levels to validity (also RLE booleans to a bitmap, with max_value 1): for up to `count` values, sets bit (bitmap_offset + i) of `bitmap` to
  // (value == max_value) and adds the number of such values to *num_at_max. Values above
  // max_value are Corrupt. RLE runs become one SetBitsTo(), so all-valid pages cost almost
  // nothing. Returns the number of values consumed.
  Result<int64_t> DecodeValidity(int64_t count, uint32_t max_value, uint8_t* bitmap,
                                 int64_t bitmap_offset, int64_t* num_at_max);

  int bit_width() const { return bit_width_; }

 private:
  // Parses the next run header; false at the end of the data.
  Result<bool> NextRun();
  // Values of the current bit-packed run ready without parsing a new header.
  int64_t literal_pending() const { return (buffered_count_ - buffered_pos_) + literal_left_; }
  // Checks that `n` more values of the current bit-packed run are present in the data.
  Status CheckLiteralAvailable(int64_t n) const;
  // Refills buffered_ with the next (up to) 8 values of the bit-packed run.
  void BufferNextGroup();
  // Unpacks `n` (a multiple of 8) values of the bit-packed run straight to out.
  template <typename T>
  void UnpackLiteral(T* out, int64_t n);

  // Bytes from the bit-packed read position to the end of the span (all of it may be read).
  int64_t readable() const { return size_ - (literal_ptr_ - data_); }

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;  // next run header
  int64_t base_offset_ = 0;
  int bit_width_ = 0;

  int64_t run_offset_ = 0;  // offset of the current run's header, for messages
  int64_t rle_left_ = 0;
  uint32_t rle_value_ = 0;
  int64_t literal_left_ = 0;       // values of the bit-packed run not yet unpacked
  int64_t literal_available_ = 0;  // of those, values whose bytes are present
  int64_t literal_declared_ = 0;
  const uint8_t* literal_ptr_ = nullptr;  // next group of 8, always byte-aligned
  uint32_t buffered_[8] = {};
  int buffered_pos_ = 0;
  int buffered_count_ = 0;
};

// Encodes values of a fixed bit width as hybrid runs: runs of 8 or more equal values become
// RLE runs, the rest bit-packed groups of 8. Values are held (as uint32) until FlushTo().
class RleBitPackedEncoder {
 public:
  RleBitPackedEncoder(MemoryPool* pool, int bit_width) : bit_width_(bit_width), values_(pool) {}

  template <typename T>
  Status Put(const T* values, int64_t count);
  int64_t num_values() const { return values_.size() / static_cast<int64_t>(sizeof(uint32_t)); }
  int bit_width() const { return bit_width_; }
  // Changes the width for the values put next; only while empty (a writer reuses one encoder,
  // and its buffer, for dictionary pages whose index width grows).
  void set_bit_width(int bit_width) { bit_width_ = bit_width; }
  // Pool bytes held.
  int64_t memory_size() const { return values_.capacity(); }

  // Appends the runs for every value put so far to `out` and clears the encoder. With
  // `length_prefix`, first writes the 4-byte little-endian length (data page v1 levels, RLE
  // booleans).
  Status FlushTo(ResizableBuffer* out, bool length_prefix = false);

 private:
  Status WriteLiteral(ResizableBuffer* out, const uint32_t* values, int64_t count);
  Status WriteRepeated(ResizableBuffer* out, uint32_t value, int64_t count);

  int bit_width_;
  ResizableBuffer values_;
};

// Bit width needed for values in [0, max_value]: 0 for 0, 1 for 1, 2 for 2..3, ...
inline int BitWidthForMaxValue(uint64_t max_value) {
  int width = 0;
  while (max_value != 0) {
    ++width;
    max_value >>= 1;
  }
  return width;
}

}  // namespace strata::parquet
