#include "strata/parquet/encoding/delta_binary_packed.h"

#include <algorithm>
#include <bit>
#include <limits>

#include "strata/parquet/encoding/varint.h"
#include "strata/util/bit_unpack.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {

namespace {
constexpr uint64_t kMaxBlockSize = uint64_t{1} << 31;
}  // namespace

template <typename T>
Status DeltaBinaryPackedDecoder<T>::SetData(const uint8_t* data, int64_t size,
                                            int64_t base_offset) {
  data_ = data;
  size_ = std::max<int64_t>(size, 0);
  pos_ = 0;
  base_offset_ = base_offset;
  buffered_pos_ = buffered_count_ = 0;
  miniblock_left_ = 0;
  miniblock_bytes_left_ = 0;
  bit_width_ = 0;
  uint64_t block_size, miniblocks, total, first;
  if (!ReadUleb128(data_, size_, &pos_, &block_size) ||
      !ReadUleb128(data_, size_, &pos_, &miniblocks) ||
      !ReadUleb128(data_, size_, &pos_, &total) || !ReadUleb128(data_, size_, &pos_, &first)) {
    return Status::Corrupt("DELTA_BINARY_PACKED header at offset {} is truncated or malformed",
                           base_offset);
  }
  if (block_size == 0 || block_size % 128 != 0 || block_size > kMaxBlockSize) {
    return Status::Corrupt("DELTA_BINARY_PACKED header at offset {}: block size {} is not a positive multiple of 128 (up to 2^31)",
                           base_offset, block_size);
  }
  if (miniblocks == 0 || block_size % miniblocks != 0 || (block_size / miniblocks) % 32 != 0) {
    return Status::Corrupt("DELTA_BINARY_PACKED header at offset {}: {} miniblocks do not split a block of {} into multiples of 32 values",
                           base_offset, miniblocks, block_size);
  }
  // Every block needs at least a min delta byte and its bit width bytes, whatever the widths.
  const uint64_t deltas = total == 0 ? 0 : total - 1;
  const uint64_t blocks = deltas / block_size + (deltas % block_size != 0);
  const uint64_t remaining = static_cast<uint64_t>(size_ - pos_);
  if (total > (uint64_t{1} << 62) || blocks > remaining / (1 + miniblocks)) {
    return Status::Corrupt("DELTA_BINARY_PACKED header at offset {} declares {} values, more than the {} bytes that follow can hold",
                           base_offset, total, remaining);
  }
  block_size_ = block_size;
  miniblocks_per_block_ = miniblocks;
  values_per_miniblock_ = static_cast<int64_t>(block_size / miniblocks);
  total_values_ = static_cast<int64_t>(total);
  values_left_ = total_values_;
  deltas_left_ = static_cast<int64_t>(deltas);
  first_pending_ = total > 0;
  last_value_ = static_cast<U>(ZigZagDecode(first));
  miniblock_index_ = miniblocks_per_block_;  // the first miniblock starts a block
  return Status::OK();
}

template <typename T>
Status DeltaBinaryPackedDecoder<T>::StartMiniblock() {
  if (miniblock_index_ == miniblocks_per_block_) {
    const int64_t block_offset = pos_;
    uint64_t min_delta;
    if (!ReadUleb128(data_, size_, &pos_, &min_delta)) {
      return Status::Corrupt("DELTA_BINARY_PACKED block at offset {}: min delta is truncated or malformed",
                             base_offset_ + block_offset);
    }
    if (static_cast<uint64_t>(size_ - pos_) < miniblocks_per_block_) {
      return Status::Corrupt("DELTA_BINARY_PACKED block at offset {}: {} miniblock bit widths but only {} bytes remain",
                             base_offset_ + block_offset, miniblocks_per_block_, size_ - pos_);
    }
    min_delta_ = static_cast<U>(ZigZagDecode(min_delta));
    bit_widths_ = data_ + pos_;
    pos_ += static_cast<int64_t>(miniblocks_per_block_);
    miniblock_index_ = 0;
  }
  const int width = bit_widths_[miniblock_index_];
  if (width > kMaxWidth) {
    return Status::Corrupt("DELTA_BINARY_PACKED miniblock {} at offset {} has bit width {} (at most {} for {}-bit values)",
                           miniblock_index_, base_offset_ + pos_, width, kMaxWidth, kMaxWidth);
  }
  ++miniblock_index_;
  // The miniblock is padded to its full size, except that a writer may cut the very last one
  // short; accept that when the deltas still needed are all present.
  const int64_t full_bytes = values_per_miniblock_ / 8 * width;
  const int64_t needed = std::min(values_per_miniblock_, deltas_left_);
  const int64_t available = size_ - pos_;
  if (full_bytes > available && bit_util::BytesForBits(needed * width) > available) {
    return Status::Corrupt("DELTA_BINARY_PACKED miniblock at offset {} needs {} bytes for {} deltas of {} bits but only {} remain",
                           base_offset_ + pos_, bit_util::BytesForBits(needed * width), needed, width, available);
  }
  bit_width_ = width;
  miniblock_ptr_ = data_ + pos_;
  miniblock_bytes_left_ = std::min(full_bytes, available);
  pos_ += miniblock_bytes_left_;
  miniblock_left_ = values_per_miniblock_;
  return Status::OK();
}

template <typename T>
void DeltaBinaryPackedDecoder<T>::DecodeGroup(U* out, int64_t n) {
  U deltas[kGroup];
  // Everything up to the end of the span may be read, so full groups unpack in place.
  const int64_t readable = size_ - (miniblock_ptr_ - data_);
  if constexpr (sizeof(T) == 4) {
    bit_util::Unpack32(miniblock_ptr_, deltas, n, bit_width_, readable);
  } else {
    bit_util::Unpack64(miniblock_ptr_, deltas, n, bit_width_, readable);
  }
  const int64_t bytes = bit_util::BytesForBits(n * bit_width_);
  miniblock_ptr_ += bytes;
  miniblock_bytes_left_ -= bytes;
  miniblock_left_ -= n;
  deltas_left_ -= n;
  // Unsigned arithmetic: wrapping is defined and is what the format requires.
  U value = last_value_;
  const U min_delta = min_delta_;
  for (int64_t i = 0; i < n; ++i) {
    value += min_delta + deltas[i];
    out[i] = value;
  }
  last_value_ = value;
}

template <typename T>
Result<int64_t> DeltaBinaryPackedDecoder<T>::Decode(T* out_signed, int64_t count) {
  U* out = reinterpret_cast<U*>(out_signed);
  const int64_t n = std::clamp<int64_t>(count, 0, values_left_);
  int64_t done = 0;
  if (n > 0 && first_pending_) {
    out[done++] = last_value_;
    first_pending_ = false;
  }
  while (done < n) {
    if (buffered_pos_ < buffered_count_) {
      const int64_t k = std::min<int64_t>(n - done, buffered_count_ - buffered_pos_);
      std::copy(buffered_ + buffered_pos_, buffered_ + buffered_pos_ + k, out + done);
      buffered_pos_ += static_cast<int>(k);
      done += k;
      continue;
    }
    if (miniblock_left_ == 0) STRATA_RETURN_NOT_OK(StartMiniblock());
    // Deltas still to unpack from this miniblock, never past the last real value.
    const int64_t group = std::min({kGroup, miniblock_left_, deltas_left_});
    if (n - done >= group) {
      DecodeGroup(out + done, group);
      done += group;
    } else {
      DecodeGroup(buffered_, group);
      buffered_pos_ = 0;
      buffered_count_ = static_cast<int>(group);
    }
  }
  values_left_ -= n;
  return n;
}

template <typename T>
Result<int64_t> DeltaBinaryPackedDecoder<T>::Skip(int64_t count) {
  T scratch[256];
  int64_t done = 0;
  while (done < count && values_left_ > 0) {
    STRATA_ASSIGN_OR_RETURN(int64_t got, Decode(scratch, std::min<int64_t>(256, count - done)));
    done += got;
  }
  return done;
}

template <typename T>
Result<int64_t> DeltaBinaryPackedDecoder<T>::SkipToEnd() {
  buffered_pos_ = buffered_count_ = 0;
  first_pending_ = false;
  // The rest of the current miniblock was already accounted for in pos_.
  deltas_left_ -= std::min(deltas_left_, miniblock_left_);
  miniblock_left_ = 0;
  while (deltas_left_ > 0) {
    STRATA_RETURN_NOT_OK(StartMiniblock());
    const int64_t k = std::min(deltas_left_, miniblock_left_);
    deltas_left_ -= k;
    miniblock_left_ = 0;
  }
  values_left_ = 0;
  return pos_;
}

template <typename T>
Status DeltaBinaryPackedEncoder<T>::FlushTo(ResizableBuffer* out) {
  using U = std::make_unsigned_t<T>;
  constexpr int64_t kBlock = 128;
  constexpr int64_t kMiniblocks = 4;
  constexpr int64_t kPerMiniblock = kBlock / kMiniblocks;
  const T* values = reinterpret_cast<const T*>(values_.data());
  const int64_t n = num_values();
  STRATA_RETURN_NOT_OK(AppendUleb128(out, kBlock));
  STRATA_RETURN_NOT_OK(AppendUleb128(out, kMiniblocks));
  STRATA_RETURN_NOT_OK(AppendUleb128(out, static_cast<uint64_t>(n)));
  STRATA_RETURN_NOT_OK(AppendUleb128(out, ZigZagEncode(n > 0 ? values[0] : 0)));
  for (int64_t start = 1; start < n; start += kBlock) {
    const int64_t count = std::min(kBlock, n - start);
    U deltas[kBlock] = {};
    T min_delta = std::numeric_limits<T>::max();
    for (int64_t i = 0; i < count; ++i) {
      deltas[i] = static_cast<U>(static_cast<U>(values[start + i]) - static_cast<U>(values[start + i - 1]));
      min_delta = std::min(min_delta, static_cast<T>(deltas[i]));
    }
    uint8_t widths[kMiniblocks] = {};
    for (int64_t i = 0; i < count; ++i) {
      deltas[i] = static_cast<U>(deltas[i] - static_cast<U>(min_delta));
      const int w = std::bit_width(deltas[i]);
      widths[i / kPerMiniblock] = static_cast<uint8_t>(std::max<int>(widths[i / kPerMiniblock], w));
    }
    STRATA_RETURN_NOT_OK(AppendUleb128(out, ZigZagEncode(min_delta)));
    STRATA_RETURN_NOT_OK(out->Append(widths, kMiniblocks));
    const int64_t used = (count + kPerMiniblock - 1) / kPerMiniblock;
    for (int64_t m = 0; m < used; ++m) {
      const int64_t bytes = kPerMiniblock / 8 * widths[m];
      const int64_t at = out->size();
      STRATA_RETURN_NOT_OK(out->GrowForAppend(at + bytes));
      // Unused tail deltas are zero, so the padding is zero as the spec recommends.
      if constexpr (sizeof(T) == 4) {
        bit_util::Pack32(deltas + m * kPerMiniblock, kPerMiniblock, widths[m], out->mutable_data() + at);
      } else {
        bit_util::Pack64(deltas + m * kPerMiniblock, kPerMiniblock, widths[m], out->mutable_data() + at);
      }
      out->set_size(at + bytes);
    }
  }
  values_.Clear();
  return Status::OK();
}

template class DeltaBinaryPackedDecoder<int32_t>;
template class DeltaBinaryPackedDecoder<int64_t>;
template class DeltaBinaryPackedEncoder<int32_t>;
template class DeltaBinaryPackedEncoder<int64_t>;

}  // namespace strata::parquet
