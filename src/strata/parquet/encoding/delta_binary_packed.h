// DELTA_BINARY_PACKED (Encodings.md "DELTA_BINARY_PACKED = 5") for INT32 and INT64: a header
// (block size, miniblocks per block, value count, first value), then blocks of a zigzag min
// delta, one bit width per miniblock and the bit-packed deltas. Also the length streams of
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY.
#pragma once

#include <cstdint>
#include <type_traits>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::parquet {

// T is int32_t or int64_t. Counts are in values (non-null values; the stream stores no nulls).
// Arithmetic wraps in two's complement, as the spec requires. The span given to SetData() is
// not copied and must stay alive while decoding.
template <typename T>
class DeltaBinaryPackedDecoder {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>);

 public:
  // Parses the header. Corrupt when the block size is not a positive multiple of 128 (up to 2^31),
  // the miniblock count does not divide it into multiples of 32 values, or the value count
  // is more than the remaining bytes could possibly hold.
  Status SetData(const uint8_t* data, int64_t size, int64_t base_offset = 0);

  // Decodes up to `count` values; returns how many (fewer only when the values run out).
  // Decodes a group of 32 deltas at a time with Unpack32/Unpack64 into a stack scratch.
  Result<int64_t> Decode(T* out, int64_t count);
  Result<int64_t> Skip(int64_t count);

  // Walks past every remaining value without computing them (O(1) per miniblock) and returns
  // the offset, relative to the span, where the encoded stream ends; what follows belongs to
  // the next section (DELTA_LENGTH_BYTE_ARRAY's bytes, DELTA_BYTE_ARRAY's suffixes).
  Result<int64_t> SkipToEnd();

  int64_t total_values() const { return total_values_; }
  int64_t values_left() const { return values_left_; }

 private:
  using U = std::make_unsigned_t<T>;
  static constexpr int kMaxWidth = 8 * sizeof(T);
  static constexpr int64_t kGroup = 32;  // deltas unpacked per step (a whole number of bytes)

  Status StartMiniblock();
  // Unpacks the next `n` (<= 32) deltas of the current miniblock and writes the running values.
  void DecodeGroup(U* out, int64_t n);

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;  // next unread byte (block header or miniblock)
  int64_t base_offset_ = 0;

  uint64_t block_size_ = 0;
  uint64_t miniblocks_per_block_ = 0;
  int64_t values_per_miniblock_ = 0;
  int64_t total_values_ = 0;
  int64_t values_left_ = 0;  // not yet returned to the caller
  int64_t deltas_left_ = 0;  // not yet unpacked
  bool first_pending_ = false;
  U last_value_ = 0;

  U min_delta_ = 0;
  const uint8_t* bit_widths_ = nullptr;
  uint64_t miniblock_index_ = 0;  // next miniblock of the current block
  int bit_width_ = 0;
  int64_t miniblock_left_ = 0;           // deltas of the current miniblock not yet unpacked
  int64_t miniblock_bytes_left_ = 0;     // bytes of the current miniblock present in the span
  const uint8_t* miniblock_ptr_ = nullptr;

  U buffered_[kGroup] = {};
  int buffered_pos_ = 0;
  int buffered_count_ = 0;
};

// Encodes with blocks of 128 values in 4 miniblocks of 32 (what parquet-java and Arrow write).
// Values are held until FlushTo(), because the header carries the total count.
template <typename T>
class DeltaBinaryPackedEncoder {
 public:
  explicit DeltaBinaryPackedEncoder(MemoryPool* pool) : values_(pool) {}
  Status Put(const T* values, int64_t count) {
    if (count <= 0) return Status::OK();  // an empty append may see a null buffer
    return values_.Append(values, count * static_cast<int64_t>(sizeof(T)));
  }
  int64_t num_values() const { return values_.size() / static_cast<int64_t>(sizeof(T)); }
  // Appends the encoding of every value put so far and clears the encoder.
  Status FlushTo(ResizableBuffer* out);

 private:
  ResizableBuffer values_;
};

extern template class DeltaBinaryPackedDecoder<int32_t>;
extern template class DeltaBinaryPackedDecoder<int64_t>;
extern template class DeltaBinaryPackedEncoder<int32_t>;
extern template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace strata::parquet
