#include "strata/parquet/encoding/plain.h"

#include <algorithm>
#include <cstring>

#include "strata/util/bit_util.h"

namespace strata::parquet {

Status PlainFixedDecoder::SetData(const uint8_t* data, int64_t size, int value_width,
                                  int64_t base_offset) {
  if (value_width <= 0) return Status::Invalid("PLAIN value width {} must be positive", value_width);
  if (size < 0 || size % value_width != 0) {
    return Status::Corrupt("PLAIN values at offset {} span {} bytes, not a whole number of {}-byte values",
                           base_offset, size, value_width);
  }
  data_ = data;
  pos_ = 0;
  value_width_ = value_width;
  values_left_ = size / value_width;
  return Status::OK();
}

Result<int64_t> PlainFixedDecoder::DecodeRaw(void* out, int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left_);
  const int64_t bytes = n * value_width_;
  if (bytes > 0) std::memcpy(out, data_ + pos_, static_cast<size_t>(bytes));
  pos_ += bytes;
  values_left_ -= n;
  return n;
}

Result<int64_t> PlainFixedDecoder::DecodeViews(ByteArrayView* out, int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left_);
  for (int64_t i = 0; i < n; ++i) {
    out[i] = {data_ + pos_ + i * value_width_, static_cast<uint32_t>(value_width_)};
  }
  pos_ += n * value_width_;
  values_left_ -= n;
  return n;
}

Result<int64_t> PlainFixedDecoder::Skip(int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left_);
  pos_ += n * value_width_;
  values_left_ -= n;
  return n;
}

void PlainBooleanDecoder::SetData(const uint8_t* data, int64_t size) {
  data_ = data;
  bit_pos_ = 0;
  bits_left_ = std::max<int64_t>(size, 0) * 8;
}

Result<int64_t> PlainBooleanDecoder::Decode(uint8_t* out, int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, bits_left_);
  int64_t i = 0;
  // Leading bits up to a byte boundary, then 8 values per input byte.
  for (; i < n && (bit_pos_ & 7) != 0; ++i, ++bit_pos_) out[i] = bit_util::GetBit(data_, bit_pos_);
  for (; i + 8 <= n; i += 8, bit_pos_ += 8) {
    const uint8_t byte = data_[bit_pos_ >> 3];
    for (int b = 0; b < 8; ++b) out[i + b] = (byte >> b) & 1;
  }
  for (; i < n; ++i, ++bit_pos_) out[i] = bit_util::GetBit(data_, bit_pos_);
  bits_left_ -= n;
  return n;
}

Result<int64_t> PlainBooleanDecoder::DecodeBits(uint8_t* bitmap, int64_t bitmap_offset,
                                                int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, bits_left_);
  bit_util::CopyBitmap(data_, bit_pos_, n, bitmap, bitmap_offset);
  bit_pos_ += n;
  bits_left_ -= n;
  return n;
}

Result<int64_t> PlainBooleanDecoder::Skip(int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, bits_left_);
  bit_pos_ += n;
  bits_left_ -= n;
  return n;
}

void PlainByteArrayDecoder::SetData(const uint8_t* data, int64_t size, int64_t base_offset) {
  data_ = data;
  size_ = std::max<int64_t>(size, 0);
  pos_ = 0;
  base_offset_ = base_offset;
}

Result<int64_t> PlainByteArrayDecoder::Measure(int64_t count, int64_t* payload_bytes) const {
  int64_t pos = pos_;
  int64_t n = 0;
  int64_t total = 0;
  for (; n < count && pos < size_; ++n) {
    if (size_ - pos < 4) {
      return Status::Corrupt("PLAIN BYTE_ARRAY length at offset {} is cut off ({} bytes remain)",
                             base_offset_ + pos, size_ - pos);
    }
    uint32_t length;
    std::memcpy(&length, data_ + pos, 4);
    pos += 4;
    if (static_cast<int64_t>(length) > size_ - pos) {
      return Status::Corrupt("PLAIN BYTE_ARRAY at offset {} declares {} bytes but only {} remain",
                             base_offset_ + pos - 4, length, size_ - pos);
    }
    pos += length;
    total += length;
  }
  *payload_bytes = total;
  return n;
}

Result<int64_t> PlainByteArrayDecoder::Decode(ByteArrayView* out, int64_t count) {
  int64_t n = 0;
  for (; n < count && pos_ < size_; ++n) {
    if (size_ - pos_ < 4) {
      return Status::Corrupt("PLAIN BYTE_ARRAY length at offset {} is cut off ({} bytes remain)",
                             base_offset_ + pos_, size_ - pos_);
    }
    uint32_t length;
    std::memcpy(&length, data_ + pos_, 4);
    if (static_cast<int64_t>(length) > size_ - pos_ - 4) {
      return Status::Corrupt("PLAIN BYTE_ARRAY at offset {} declares {} bytes but only {} remain",
                             base_offset_ + pos_, length, size_ - pos_ - 4);
    }
    out[n] = {data_ + pos_ + 4, length};
    pos_ += 4 + static_cast<int64_t>(length);
  }
  return n;
}

template <typename Offset>
Result<int64_t> PlainByteArrayDecoder::DecodeInto(int64_t count, Offset* offsets_out,
                                                  ResizableBuffer* data) {
  int64_t payload = 0;
  STRATA_ASSIGN_OR_RETURN(int64_t n, Measure(count, &payload));
  const int64_t start = data->size();
  if (start + payload > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::LimitExceeded("{} bytes of byte arrays do not fit {}-bit offsets",
                                 start + payload, 8 * sizeof(Offset));
  }
  STRATA_RETURN_NOT_OK(data->Reserve(start + payload));
  // Lengths were validated by Measure(): this pass runs without checks.
  uint8_t* out = data->mutable_data();
  int64_t out_pos = start;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t length;
    std::memcpy(&length, data_ + pos_, 4);
    if (length != 0) std::memcpy(out + out_pos, data_ + pos_ + 4, length);
    pos_ += 4 + static_cast<int64_t>(length);
    out_pos += length;
    offsets_out[i] = static_cast<Offset>(out_pos);
  }
  data->set_size(out_pos);
  return n;
}

template Result<int64_t> PlainByteArrayDecoder::DecodeInto(int64_t, int32_t*, ResizableBuffer*);
template Result<int64_t> PlainByteArrayDecoder::DecodeInto(int64_t, int64_t*, ResizableBuffer*);

Result<int64_t> PlainByteArrayDecoder::Skip(int64_t count) {
  int64_t payload = 0;
  STRATA_ASSIGN_OR_RETURN(int64_t n, Measure(count, &payload));
  pos_ += 4 * n + payload;
  return n;
}

Status PlainEncodeFixed(const void* values, int64_t count, int value_width, ResizableBuffer* out) {
  if (count <= 0) return Status::OK();  // an empty append may see a null buffer
  return out->Append(values, count * value_width);
}

Status PlainEncodeBooleans(const uint8_t* values, int64_t count, ResizableBuffer* out) {
  const int64_t at = out->size();
  STRATA_RETURN_NOT_OK(out->ResizeZeroed(at + bit_util::BytesForBits(count)));
  uint8_t* bits = out->mutable_data() + at;
  for (int64_t i = 0; i < count; ++i) {
    bits[i >> 3] = static_cast<uint8_t>(bits[i >> 3] | ((values[i] != 0) << (i & 7)));
  }
  return Status::OK();
}

Status PlainEncodeByteArrays(const ByteArrayView* values, int64_t count, ResizableBuffer* out) {
  int64_t total = 0;
  for (int64_t i = 0; i < count; ++i) total += 4 + values[i].length;
  STRATA_RETURN_NOT_OK(out->Reserve(out->size() + total));
  for (int64_t i = 0; i < count; ++i) {
    out->UnsafeAppend(&values[i].length, 4);
    if (values[i].length != 0) out->UnsafeAppend(values[i].data, values[i].length);
  }
  return Status::OK();
}

}  // namespace strata::parquet
