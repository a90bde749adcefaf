// Definition and repetition levels of a data page: RLE hybrid with a 4-byte length prefix (data
// page v1), the deprecated BIT_PACKED encoding (v1, most-significant bit first, no header), or
// RLE hybrid of a length given by the page header (data page v2). Validates every level against
// the column's maximum, once per batch.
#pragma once

#include <cstdint>

#include "strata/parquet/encoding/encoding.h"
#include "strata/parquet/encoding/rle_bit_packed.h"

namespace strata::parquet {

// Counts are in levels (one per value slot of the page, nulls included). The span given to
// SetData*() is not copied and must stay alive while decoding.
class LevelDecoder {
 public:
  // Data page v1: `data` starts at the levels. `num_levels` is the page's value count.
  // Returns the bytes the levels occupy, so the caller finds the next section. With
  // max_level == 0 no levels are stored: consumes 0 bytes and decodes zeros.
  Result<int64_t> SetDataV1(Encoding encoding, int16_t max_level, int64_t num_levels,
                            const uint8_t* data, int64_t size, int64_t base_offset = 0);
  // Data page v2: exactly `size` bytes of RLE hybrid (the header's level byte length).
  Status SetDataV2(int16_t max_level, int64_t num_levels, const uint8_t* data, int64_t size,
                   int64_t base_offset = 0);

  // Decodes the next `count` levels. Corrupt when fewer remain in the page, when the encoded
  // data ends early, or when a level exceeds max_level.
  Status Decode(int16_t* levels, int64_t count);
  Status Skip(int64_t count);

  // For the next `count` levels, sets bit (bitmap_offset + i) of `validity` when the level equals
  // max_level (a non-null leaf of a flat column) and returns how many did. RLE runs are filled
  // whole, without materialising levels.
  Result<int64_t> DecodeValidity(int64_t count, uint8_t* validity, int64_t bitmap_offset);

  int16_t max_level() const { return max_level_; }
  int64_t levels_remaining() const { return remaining_; }

 private:
  // What both SetData calls begin with: checks and the level width; kZero when max_level is 0.
  Status Start(int16_t max_level, int64_t num_levels, int64_t base_offset);
  Status CheckCount(int64_t count) const;
  Status DecodeBitPacked(int16_t* levels, int64_t count);

  enum class Kind { kZero, kRle, kBitPacked } kind_ = Kind::kZero;
  int16_t max_level_ = 0;
  int bit_width_ = 0;
  int64_t remaining_ = 0;
  int64_t base_offset_ = 0;
  RleBitPackedDecoder rle_;
  // BIT_PACKED (deprecated) state: big-endian bit order, position in bits.
  const uint8_t* packed_ = nullptr;
  int64_t packed_bit_ = 0;
};

// Number of levels in levels[0, n) equal to `level` (for the nested path, where levels are
// materialised anyway). Vectorises.
int64_t CountLevelsEqual(const int16_t* levels, int64_t n, int16_t level);

// Encodes levels for tests and the writer: RLE hybrid (v1 with the length prefix when
// `length_prefix`) or the deprecated BIT_PACKED order.
Status EncodeLevelsRle(MemoryPool* pool, const int16_t* levels, int64_t n, int16_t max_level,
                       bool length_prefix, ResizableBuffer* out);
// Definition levels of a flat optional column (max level 1) straight from its validity bitmap:
// bit i (LSB first from bits[0]) is level i. Runs of 32 or more equal levels become RLE runs;
// the rest are bit-packed groups, whose bytes at width 1 are the bitmap's own bytes, so
// encoding is mostly copying. The bits past n in the last byte need not be zero.
Status EncodeBitmapLevels(const uint8_t* bits, int64_t n, bool length_prefix, ResizableBuffer* out);
Status EncodeLevelsBitPacked(const int16_t* levels, int64_t n, int16_t max_level,
                             ResizableBuffer* out);

}  // namespace strata::parquet
