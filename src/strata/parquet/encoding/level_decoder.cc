#include "strata/parquet/encoding/level_decoder.h"

#include <algorithm>
#include <cstring>

#include "strata/parquet/encoding/varint.h"
#include "strata/util/bit_util.h"

namespace strata::parquet {

Status LevelDecoder::Start(int16_t max_level, int64_t num_levels, int64_t base_offset) {
  if (max_level < 0) return Status::Invalid("maximum level {} is negative", max_level);
  if (num_levels < 0) return Status::Corrupt("page declares {} levels", num_levels);
  max_level_ = max_level;
  bit_width_ = BitWidthForMaxValue(static_cast<uint64_t>(max_level));
  remaining_ = num_levels;
  base_offset_ = base_offset;
  // A column without levels of this kind: every level is 0, and the page holds no bytes of them.
  kind_ = max_level == 0 ? Kind::kZero : Kind::kRle;
  return Status::OK();
}

Result<int64_t> LevelDecoder::SetDataV1(Encoding encoding, int16_t max_level, int64_t num_levels,
                                        const uint8_t* data, int64_t size, int64_t base_offset) {
  STRATA_RETURN_NOT_OK(Start(max_level, num_levels, base_offset));
  if (kind_ == Kind::kZero) return 0;
  switch (encoding) {
    case Encoding::kRle: {
      kind_ = Kind::kRle;
      return rle_.ResetWithLengthPrefix(data, size, bit_width_, base_offset);
    }
    case Encoding::kBitPacked: {
      kind_ = Kind::kBitPacked;
      // num_levels * bit_width cannot overflow: bit_width <= 15 and num_levels comes from an
      // int32 field, but check against the bytes first anyway.
      if (num_levels > size * 8 / bit_width_) {
        return Status::Corrupt("BIT_PACKED levels at offset {}: {} levels of {} bits need more than the {} bytes that remain",
                               base_offset, num_levels, bit_width_, size);
      }
      packed_ = data;
      packed_bit_ = 0;
      return bit_util::BytesForBits(num_levels * bit_width_);
    }
    default:
      return Status::NotImplemented("level encoding {} (only RLE and BIT_PACKED are defined)",
                                    EncodingName(encoding));
  }
}

Status LevelDecoder::SetDataV2(int16_t max_level, int64_t num_levels, const uint8_t* data,
                               int64_t size, int64_t base_offset) {
  STRATA_RETURN_NOT_OK(Start(max_level, num_levels, base_offset));
  if (kind_ == Kind::kZero) return Status::OK();
  return rle_.Reset(data, size, bit_width_, base_offset);
}

Status LevelDecoder::CheckCount(int64_t count) const {
  if (count < 0 || count > remaining_) {
    return Status::Corrupt("asked for {} levels but the page has {} left", count, remaining_);
  }
  return Status::OK();
}

Status LevelDecoder::DecodeBitPacked(int16_t* levels, int64_t count) {
  // Deprecated and rare: a simple loop over big-endian bit order (the first value is in the most
  // significant bits of the first byte). Bounds were checked in SetDataV1.
  for (int64_t i = 0; i < count; ++i) {
    int v = 0;
    for (int b = 0; b < bit_width_; ++b, ++packed_bit_) {
      v = (v << 1) | ((packed_[packed_bit_ >> 3] >> (7 - (packed_bit_ & 7))) & 1);
    }
    levels[i] = static_cast<int16_t>(v);
  }
  return Status::OK();
}

Status LevelDecoder::Decode(int16_t* levels, int64_t count) {
  STRATA_RETURN_NOT_OK(CheckCount(count));
  switch (kind_) {
    case Kind::kZero:
      std::fill(levels, levels + count, int16_t{0});
      break;
    case Kind::kRle: {
      STRATA_ASSIGN_OR_RETURN(int64_t got, rle_.Decode(levels, count));
      if (got < count) {
        return Status::Corrupt("level data at offset {} ends after {} of {} levels",
                               base_offset_, got, count);
      }
      break;
    }
    case Kind::kBitPacked:
      STRATA_RETURN_NOT_OK(DecodeBitPacked(levels, count));
      break;
  }
  remaining_ -= count;
  // One max over the batch instead of a compare per value.
  int16_t batch_max = 0;
  for (int64_t i = 0; i < count; ++i) batch_max = std::max(batch_max, levels[i]);
  if (batch_max > max_level_) {
    return Status::Corrupt("level {} in data at offset {} is above the maximum {}", batch_max,
                           base_offset_, max_level_);
  }
  return Status::OK();
}

Status LevelDecoder::Skip(int64_t count) {
  STRATA_RETURN_NOT_OK(CheckCount(count));
  if (kind_ == Kind::kRle) {
    STRATA_ASSIGN_OR_RETURN(int64_t got, rle_.Skip(count));
    if (got < count) {
      return Status::Corrupt("level data at offset {} ends after {} of {} levels", base_offset_,
                             got, count);
    }
  } else if (kind_ == Kind::kBitPacked) {
    packed_bit_ += count * bit_width_;
  }
  remaining_ -= count;
  return Status::OK();
}

Result<int64_t> LevelDecoder::DecodeValidity(int64_t count, uint8_t* validity,
                                             int64_t bitmap_offset) {
  STRATA_RETURN_NOT_OK(CheckCount(count));
  int64_t valid = 0;
  switch (kind_) {
    case Kind::kZero:
      // max_level == 0: every slot is defined.
      bit_util::SetBitsTo(validity, bitmap_offset, count, true);
      valid = count;
      break;
    case Kind::kRle: {
      STRATA_ASSIGN_OR_RETURN(
          int64_t got, rle_.DecodeValidity(count, static_cast<uint32_t>(max_level_), validity,
                                           bitmap_offset, &valid));
      if (got < count) {
        return Status::Corrupt("level data at offset {} ends after {} of {} levels",
                               base_offset_, got, count);
      }
      break;
    }
    case Kind::kBitPacked: {
      int16_t scratch[256];
      for (int64_t done = 0; done < count;) {
        const int64_t n = std::min<int64_t>(256, count - done);
        STRATA_RETURN_NOT_OK(Decode(scratch, n));
        remaining_ += n;  // Decode() counted them; counted once below
        bit_util::BitmapWriter writer(validity, bitmap_offset + done);
        for (int64_t i = 0; i < n; ++i) {
          writer.Append(scratch[i] == max_level_);
          valid += scratch[i] == max_level_;
        }
        writer.Finish();
        done += n;
      }
      break;
    }
  }
  remaining_ -= count;
  return valid;
}

int64_t CountLevelsEqual(const int16_t* levels, int64_t n, int16_t level) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += levels[i] == level;
  return count;
}

Status EncodeLevelsRle(MemoryPool* pool, const int16_t* levels, int64_t n, int16_t max_level,
                       bool length_prefix, ResizableBuffer* out) {
  RleBitPackedEncoder encoder(pool, BitWidthForMaxValue(static_cast<uint64_t>(max_level)));
  STRATA_RETURN_NOT_OK(encoder.Put(levels, n));
  return encoder.FlushTo(out, length_prefix);
}

namespace {
// Whether some byte of `v` is 0 (exact: a borrow can only start at a zero byte).
bool HasZeroByte(uint64_t v) { return ((v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull) != 0; }
}  // namespace

Status EncodeBitmapLevels(const uint8_t* bits, int64_t n, bool length_prefix, ResizableBuffer* out) {
  const int64_t prefix_at = out->size();
  // Worst case: all literal (one header per run, a byte per 8 levels) plus RLE headers.
  STRATA_RETURN_NOT_OK(out->GrowForAppend(out->size() + 4 + n / 8 + 2 * (n / 256) + 32));
  if (length_prefix) STRATA_RETURN_NOT_OK(out->Append("\0\0\0\0", 4));
  const int64_t start = out->size();
  const int64_t full_bytes = n / 8;
  const int tail = static_cast<int>(n % 8);
  constexpr int64_t kMinRunBytes = 4;  // 32 levels: shorter runs stay in the literal
  auto literal = [&](int64_t from, int64_t to, bool with_tail) -> Status {
    const int64_t groups = (to - from) + (with_tail ? 1 : 0);
    if (groups == 0) return Status::OK();
    STRATA_RETURN_NOT_OK(AppendUleb128(out, static_cast<uint64_t>(groups) << 1 | 1));
    STRATA_RETURN_NOT_OK(out->Append(bits + from, to - from));
    if (with_tail) {
      const auto last = static_cast<uint8_t>(bits[to] & ((1u << tail) - 1));
      STRATA_RETURN_NOT_OK(out->Append(&last, 1));
    }
    return Status::OK();
  };
  int64_t literal_start = 0;
  int64_t i = 0;
  int64_t scan_until = 0;  // bytes before this are looked at one by one
  while (i < full_bytes) {
    if (i >= scan_until && i + 8 <= full_bytes) {
      // Eight bytes at once: does a run of 4 equal 0x00 or 0xFF bytes start at byte 0..4?
      // (all_ones byte k is 0xFF when bytes k..k+3 are; any_ones byte k is 0 when they are
      // all 0; bytes 5..7 are masked off.) Mostly not, with nulls scattered: skip 5 bytes.
      uint64_t w;
      std::memcpy(&w, bits + i, 8);
      const uint64_t all_ones = w & (w >> 8) & (w >> 16) & (w >> 24);
      const uint64_t any_ones = w | (w >> 8) | (w >> 16) | (w >> 24);
      constexpr uint64_t kHighBytes = 0xFFFFFF0000000000ull;
      if (!HasZeroByte(~all_ones | kHighBytes) && !HasZeroByte(any_ones | kHighBytes)) {
        i += 5;
        continue;
      }
      scan_until = i + 5;
    }
    const uint8_t b = bits[i];
    if (b != 0x00 && b != 0xFF) {
      ++i;
      continue;
    }
    int64_t j = i + 1;
    while (j < full_bytes && bits[j] == b) ++j;
    if (j - i >= kMinRunBytes) {
      STRATA_RETURN_NOT_OK(literal(literal_start, i, false));
      STRATA_RETURN_NOT_OK(AppendUleb128(out, static_cast<uint64_t>((j - i) * 8) << 1));
      const uint8_t value = b & 1;
      STRATA_RETURN_NOT_OK(out->Append(&value, 1));
      literal_start = j;
    }
    i = j;
  }
  STRATA_RETURN_NOT_OK(literal(literal_start, full_bytes, tail > 0));
  if (length_prefix) {
    const auto length = static_cast<uint32_t>(out->size() - start);
    std::memcpy(out->mutable_data() + prefix_at, &length, 4);
  }
  return Status::OK();
}

Status EncodeLevelsBitPacked(const int16_t* levels, int64_t n, int16_t max_level,
                             ResizableBuffer* out) {
  const int width = BitWidthForMaxValue(static_cast<uint64_t>(max_level));
  const int64_t bytes = bit_util::BytesForBits(n * width);
  const int64_t at = out->size();
  STRATA_RETURN_NOT_OK(out->ResizeZeroed(at + bytes));
  uint8_t* p = out->mutable_data() + at;
  int64_t bit = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int b = width - 1; b >= 0; --b, ++bit) {
      if ((levels[i] >> b) & 1) p[bit >> 3] |= static_cast<uint8_t>(0x80 >> (bit & 7));
    }
  }
  return Status::OK();
}

}  // namespace strata::parquet
