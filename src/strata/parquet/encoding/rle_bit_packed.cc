#include "strata/parquet/encoding/rle_bit_packed.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "strata/parquet/encoding/varint.h"
#include "strata/util/bit_unpack.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {

namespace {
// Values per scratch batch when a bit-packed run is unpacked for a narrower output type or for
// validity: 1 KiB of uint32 on the stack.
constexpr int64_t kScratchValues = 256;
constexpr uint64_t kMaxRunLength = std::numeric_limits<int32_t>::max();  // Encodings.md note 3
}  // namespace

Status RleBitPackedDecoder::Reset(const uint8_t* data, int64_t size, int bit_width,
                                  int64_t base_offset) {
  if (bit_width < 0 || bit_width > 32) {
    return Status::Invalid("RLE/bit-packed bit width {} is outside 0..32", bit_width);
  }
  if (size < 0) return Status::Invalid("RLE/bit-packed data size {} is negative", size);
  data_ = data;
  size_ = size;
  pos_ = 0;
  base_offset_ = base_offset;
  bit_width_ = bit_width;
  run_offset_ = 0;
  rle_left_ = 0;
  literal_left_ = 0;
  literal_available_ = 0;
  literal_declared_ = 0;
  literal_ptr_ = nullptr;
  buffered_pos_ = buffered_count_ = 0;
  return Status::OK();
}

Result<int64_t> RleBitPackedDecoder::ResetWithLengthPrefix(const uint8_t* data, int64_t size,
                                                           int bit_width, int64_t base_offset) {
  if (size < 4) {
    return Status::Corrupt("RLE data at offset {} needs a 4-byte length prefix but only {} bytes remain",
                           base_offset, size);
  }
  uint32_t length;
  std::memcpy(&length, data, 4);
  if (static_cast<int64_t>(length) > size - 4) {
    return Status::Corrupt("RLE data at offset {} declares {} bytes but only {} remain after the length prefix",
                           base_offset, length, size - 4);
  }
  STRATA_RETURN_NOT_OK(Reset(data + 4, length, bit_width, base_offset + 4));
  return 4 + static_cast<int64_t>(length);
}

Status RleBitPackedDecoder::ResetForDictionaryIndices(const uint8_t* data, int64_t size,
                                                      int64_t base_offset) {
  if (size < 1) {
    return Status::Corrupt("dictionary index data at offset {} is empty (no bit width byte)", base_offset);
  }
  if (data[0] > 32) {
    return Status::Corrupt("dictionary index bit width {} at offset {} is above 32", data[0], base_offset);
  }
  return Reset(data + 1, size - 1, data[0], base_offset + 1);
}

Result<bool> RleBitPackedDecoder::NextRun() {
  if (pos_ >= size_) return false;
  run_offset_ = pos_;
  uint64_t header;
  if (!ReadUleb128(data_, size_, &pos_, &header)) {
    return Status::Corrupt("RLE/bit-packed run header at offset {} is truncated or too long",
                           base_offset_ + run_offset_);
  }
  const uint64_t length = header >> 1;
  if (header & 1) {
    // Bit-packed run: `length` groups of 8 values, `length * bit_width` bytes.
    if (length > kMaxRunLength / 8) {
      return Status::Corrupt("bit-packed run at offset {} declares {} groups of 8 values (limit {})",
                             base_offset_ + run_offset_, length, kMaxRunLength / 8);
    }
    const int64_t values = static_cast<int64_t>(length) * 8;
    const int64_t bytes = static_cast<int64_t>(length) * bit_width_;
    const int64_t remaining = size_ - pos_;
    literal_declared_ = values;
    literal_left_ = values;
    literal_ptr_ = data_ + pos_;
    if (bytes <= remaining) {
      literal_available_ = values;
      pos_ += bytes;
    } else {
      // Truncated run: keep the values whose bytes are present; asking for more is Corrupt.
      literal_available_ = remaining * 8 / bit_width_;
      pos_ = size_;
    }
  } else {
    if (length > kMaxRunLength) {
      return Status::Corrupt("RLE run at offset {} declares {} values (limit {})",
                             base_offset_ + run_offset_, length, kMaxRunLength);
    }
    const int value_bytes = (bit_width_ + 7) / 8;
    if (value_bytes > size_ - pos_) {
      return Status::Corrupt("RLE run at offset {} needs a {}-byte value but only {} bytes remain",
                             base_offset_ + run_offset_, value_bytes, size_ - pos_);
    }
    uint32_t value = 0;
    if (value_bytes > 0) std::memcpy(&value, data_ + pos_, static_cast<size_t>(value_bytes));
    pos_ += value_bytes;
    if (bit_width_ < 32 && (value >> bit_width_) != 0) {
      return Status::Corrupt("RLE run at offset {} repeats value {} which does not fit in bit width {}",
                             base_offset_ + run_offset_, value, bit_width_);
    }
    rle_value_ = value;
    rle_left_ = static_cast<int64_t>(length);
  }
  return true;
}

Status RleBitPackedDecoder::CheckLiteralAvailable(int64_t n) const {
  if (n <= literal_available_) return Status::OK();
  return Status::Corrupt(
      "bit-packed run at offset {} declares {} values of {} bits but the data ends after {} bytes",
      base_offset_ + run_offset_, literal_declared_, bit_width_, size_ - run_offset_);
}

void RleBitPackedDecoder::BufferNextGroup() {
  // Normally a whole group; fewer at the end of a run whose bytes are cut short (nothing past
  // those is ever readable, CheckLiteralAvailable() stops the caller).
  const int64_t n = std::min<int64_t>({8, literal_left_, literal_available_});
  bit_util::Unpack32(literal_ptr_, buffered_, n, bit_width_);
  literal_ptr_ += bit_util::BytesForBits(n * bit_width_);
  literal_left_ -= n;
  literal_available_ -= n;
  buffered_pos_ = 0;
  buffered_count_ = static_cast<int>(n);
}

template <typename T>
void RleBitPackedDecoder::UnpackLiteral(T* out, int64_t n) {
  if constexpr (sizeof(T) == sizeof(uint32_t)) {
    bit_util::Unpack32(literal_ptr_, reinterpret_cast<uint32_t*>(out), n, bit_width_, readable());
    literal_ptr_ += n / 8 * bit_width_;
  } else {
    uint32_t scratch[kScratchValues];
    for (int64_t done = 0; done < n;) {
      const int64_t chunk = std::min(n - done, kScratchValues);
      bit_util::Unpack32(literal_ptr_, scratch, chunk, bit_width_, readable());
      literal_ptr_ += chunk / 8 * bit_width_;
      for (int64_t i = 0; i < chunk; ++i) out[done + i] = static_cast<T>(scratch[i]);
      done += chunk;
    }
  }
  literal_left_ -= n;
  literal_available_ -= n;
}

template <typename T>
Result<int64_t> RleBitPackedDecoder::Decode(T* out, int64_t count) {
  int64_t done = 0;
  while (done < count) {
    if (buffered_pos_ < buffered_count_) {
      const int64_t n = std::min<int64_t>(count - done, buffered_count_ - buffered_pos_);
      for (int64_t i = 0; i < n; ++i) out[done + i] = static_cast<T>(buffered_[buffered_pos_ + i]);
      buffered_pos_ += static_cast<int>(n);
      done += n;
    } else if (rle_left_ > 0) {
      const int64_t n = std::min(count - done, rle_left_);
      std::fill(out + done, out + done + n, static_cast<T>(rle_value_));
      rle_left_ -= n;
      done += n;
    } else if (literal_left_ > 0) {
      const int64_t wanted = std::min(count - done, literal_left_);
      STRATA_RETURN_NOT_OK(CheckLiteralAvailable(wanted));
      const int64_t whole = wanted & ~int64_t{7};
      if (whole > 0) {
        UnpackLiteral(out + done, whole);
        done += whole;
      }
      if (wanted > whole) BufferNextGroup();  // the rest comes from the buffer next iteration
    } else {
      STRATA_ASSIGN_OR_RETURN(bool more, NextRun());
      if (!more) break;
    }
  }
  return done;
}

template Result<int64_t> RleBitPackedDecoder::Decode(uint8_t*, int64_t);
template Result<int64_t> RleBitPackedDecoder::Decode(int16_t*, int64_t);
template Result<int64_t> RleBitPackedDecoder::Decode(uint16_t*, int64_t);
template Result<int64_t> RleBitPackedDecoder::Decode(int32_t*, int64_t);
template Result<int64_t> RleBitPackedDecoder::Decode(uint32_t*, int64_t);

Result<int64_t> RleBitPackedDecoder::DecodeIndices(int32_t* out, int64_t count,
                                                   int64_t dictionary_size) {
  auto* values = reinterpret_cast<uint32_t*>(out);
  STRATA_ASSIGN_OR_RETURN(int64_t n, Decode(values, count));
  // One vectorised max over the batch; only on failure look for the culprit.
  uint32_t max_index = 0;
  for (int64_t i = 0; i < n; ++i) max_index = std::max(max_index, values[i]);
  if (n > 0 && static_cast<int64_t>(max_index) >= dictionary_size) {
    const int64_t bad = std::find_if(values, values + n, [&](uint32_t v) {
                          return static_cast<int64_t>(v) >= dictionary_size;
                        }) - values;
    return Status::Corrupt("dictionary index {} (value {} of this batch) is out of range for a dictionary of {} entries",
                           values[bad], bad, dictionary_size);
  }
  return n;
}

Result<int64_t> RleBitPackedDecoder::Skip(int64_t count) {
  int64_t done = 0;
  while (done < count) {
    if (buffered_pos_ < buffered_count_) {
      const int64_t n = std::min<int64_t>(count - done, buffered_count_ - buffered_pos_);
      buffered_pos_ += static_cast<int>(n);
      done += n;
    } else if (rle_left_ > 0) {
      const int64_t n = std::min(count - done, rle_left_);
      rle_left_ -= n;
      done += n;
    } else if (literal_left_ > 0) {
      const int64_t wanted = std::min(count - done, literal_left_);
      STRATA_RETURN_NOT_OK(CheckLiteralAvailable(wanted));
      const int64_t whole = wanted & ~int64_t{7};
      literal_ptr_ += whole / 8 * bit_width_;
      literal_left_ -= whole;
      literal_available_ -= whole;
      done += whole;
      if (wanted > whole) BufferNextGroup();
    } else {
      STRATA_ASSIGN_OR_RETURN(bool more, NextRun());
      if (!more) break;
    }
  }
  return done;
}

Result<int64_t> RleBitPackedDecoder::DecodeValidity(int64_t count, uint32_t max_value,
                                                    uint8_t* bitmap, int64_t bitmap_offset,
                                                    int64_t* num_at_max) {
  int64_t done = 0;
  int64_t at_max = 0;
  uint32_t scratch[kScratchValues];
  while (done < count) {
    if (buffered_pos_ == buffered_count_ && rle_left_ > 0) {
      if (rle_value_ > max_value) {
        return Status::Corrupt("RLE run at offset {} repeats level {} above the maximum {}",
                               base_offset_ + run_offset_, rle_value_, max_value);
      }
      const int64_t n = std::min(count - done, rle_left_);
      const bool valid = rle_value_ == max_value;
      bit_util::SetBitsTo(bitmap, bitmap_offset + done, n, valid);
      at_max += valid ? n : 0;
      rle_left_ -= n;
      done += n;
    } else if (bit_width_ == 1 && max_value == 1 && buffered_pos_ == buffered_count_ &&
               std::min(count - done, literal_left_) >= 8) {
      // Width 1, maximum 1 (a flat nullable column): the packed levels are the validity bits.
      const int64_t n = std::min(count - done, literal_left_) & ~int64_t{7};
      STRATA_RETURN_NOT_OK(CheckLiteralAvailable(n));
      bit_util::CopyBitmap(literal_ptr_, 0, n, bitmap, bitmap_offset + done);
      at_max += bit_util::CountSetBits(literal_ptr_, 0, n);
      literal_ptr_ += n / 8;
      literal_left_ -= n;
      literal_available_ -= n;
      done += n;
    } else if (literal_pending() > 0) {
      // Only values of the current bit-packed run, so Decode() parses no header.
      const int64_t n = std::min({count - done, literal_pending(), kScratchValues});
      STRATA_ASSIGN_OR_RETURN(int64_t got, Decode(scratch, n));
      uint32_t batch_max = 0;
      for (int64_t i = 0; i < got; ++i) batch_max = std::max(batch_max, scratch[i]);
      if (batch_max > max_value) {
        return Status::Corrupt("bit-packed run at offset {} holds level {} above the maximum {}",
                               base_offset_ + run_offset_, batch_max, max_value);
      }
      // Pack 8 comparisons per byte locally, then one bitmap copy at the destination's offset.
      uint8_t packed[kScratchValues / 8] = {};
      for (int64_t b = 0; b < got; b += 8) {
        const int64_t end = std::min<int64_t>(8, got - b);
        unsigned byte = 0;
        for (int64_t j = 0; j < end; ++j) byte |= static_cast<unsigned>(scratch[b + j] == max_value) << j;
        packed[b >> 3] = static_cast<uint8_t>(byte);
      }
      at_max += bit_util::CountSetBits(packed, 0, got);
      bit_util::CopyBitmap(packed, 0, got, bitmap, bitmap_offset + done);
      done += got;
    } else {
      STRATA_ASSIGN_OR_RETURN(bool more, NextRun());
      if (!more) break;
    }
  }
  *num_at_max += at_max;
  return done;
}

// ---------------------------------------------------------------------------------------------
// Encoder

template <typename T>
Status RleBitPackedEncoder::Put(const T* values, int64_t count) {
  const int64_t start = values_.size();
  STRATA_RETURN_NOT_OK(values_.GrowForAppend(start + count * 4));
  auto* out = reinterpret_cast<uint32_t*>(values_.mutable_data() + start);
  for (int64_t i = 0; i < count; ++i) out[i] = static_cast<uint32_t>(values[i]);
  values_.set_size(start + count * 4);
  return Status::OK();
}

template Status RleBitPackedEncoder::Put(const uint8_t*, int64_t);
template Status RleBitPackedEncoder::Put(const bool*, int64_t);
template Status RleBitPackedEncoder::Put(const int16_t*, int64_t);
template Status RleBitPackedEncoder::Put(const uint16_t*, int64_t);
template Status RleBitPackedEncoder::Put(const int32_t*, int64_t);
template Status RleBitPackedEncoder::Put(const uint32_t*, int64_t);

Status RleBitPackedEncoder::WriteLiteral(ResizableBuffer* out, const uint32_t* values,
                                         int64_t count) {
  // Bit-packed runs are limited to 2^31 - 1 values: longer ones are split at a group boundary.
  constexpr int64_t kMaxLiteral = static_cast<int64_t>(kMaxRunLength / 8 * 8);
  for (; count > kMaxLiteral; count -= kMaxLiteral, values += kMaxLiteral) {
    STRATA_RETURN_NOT_OK(WriteLiteral(out, values, kMaxLiteral));
  }
  if (count == 0) return Status::OK();
  const int64_t groups = (count + 7) / 8;
  STRATA_RETURN_NOT_OK(AppendUleb128(out, static_cast<uint64_t>(groups) << 1 | 1));
  const int64_t bytes = groups * bit_width_;
  const int64_t at = out->size();
  STRATA_RETURN_NOT_OK(out->GrowForAppend(at + bytes));
  const int64_t whole = count & ~int64_t{7};
  bit_util::Pack32(values, whole, bit_width_, out->mutable_data() + at);
  if (whole < count) {
    // The last group is padded with zeros; the reader stops by its value count.
    uint32_t last[8] = {};
    std::copy(values + whole, values + count, last);
    bit_util::Pack32(last, 8, bit_width_, out->mutable_data() + at + whole / 8 * bit_width_);
  }
  out->set_size(at + bytes);
  return Status::OK();
}

Status RleBitPackedEncoder::WriteRepeated(ResizableBuffer* out, uint32_t value, int64_t count) {
  STRATA_RETURN_NOT_OK(AppendUleb128(out, static_cast<uint64_t>(count) << 1));
  const int value_bytes = (bit_width_ + 7) / 8;
  return value_bytes == 0 ? Status::OK() : out->Append(&value, value_bytes);
}

Status RleBitPackedEncoder::FlushTo(ResizableBuffer* out, bool length_prefix) {
  const auto* v = reinterpret_cast<const uint32_t*>(values_.data());
  const int64_t n = num_values();
  const int64_t prefix_at = out->size();
  if (length_prefix) STRATA_RETURN_NOT_OK(out->Append("\0\0\0\0", 4));
  const int64_t start = out->size();
  // Walk runs of equal values. A run becomes an RLE run when, after lending up to 7 of its values
  // to the pending bit-packed run so that run stays a multiple of 8, 8 or more are left.
  int64_t literal_start = 0;
  int64_t i = 0;
  while (i < n) {
    int64_t run_end = i + 1;
    while (run_end < n && v[run_end] == v[i]) ++run_end;
    const int64_t run = run_end - i;
    const int64_t pad = (8 - (i - literal_start) % 8) % 8;
    if (run - pad >= 8) {
      STRATA_RETURN_NOT_OK(WriteLiteral(out, v + literal_start, i + pad - literal_start));
      for (int64_t left = run - pad; left > 0;) {
        const int64_t piece = std::min<int64_t>(left, kMaxRunLength);
        STRATA_RETURN_NOT_OK(WriteRepeated(out, v[i], piece));
        left -= piece;
      }
      literal_start = run_end;
    }
    i = run_end;
  }
  STRATA_RETURN_NOT_OK(WriteLiteral(out, v + literal_start, n - literal_start));
  if (length_prefix) {
    const uint32_t length = static_cast<uint32_t>(out->size() - start);
    std::memcpy(out->mutable_data() + prefix_at, &length, 4);
  }
  values_.Clear();
  return Status::OK();
}

}  // namespace strata::parquet
