#include "strata/parquet/encoding/byte_stream_split.h"

#include <algorithm>

namespace strata::parquet {

namespace {

// out[i * K + k] = stream k at `first + i`. With K a constant the inner loop unrolls into K
// loads from K sequential streams and one K-byte store.
template <int K>
void Transpose(const uint8_t* streams, int64_t stream_length, int64_t first, int64_t n,
               uint8_t* out) {
  const uint8_t* in[K];
  for (int k = 0; k < K; ++k) in[k] = streams + k * stream_length + first;
  for (int64_t i = 0; i < n; ++i) {
    for (int k = 0; k < K; ++k) out[i * K + k] = in[k][i];
  }
}

void TransposeAnyWidth(const uint8_t* streams, int64_t stream_length, int width, int64_t first,
                       int64_t n, uint8_t* out) {
  // Stream-major so each stream is read sequentially.
  for (int k = 0; k < width; ++k) {
    const uint8_t* in = streams + k * stream_length + first;
    for (int64_t i = 0; i < n; ++i) out[i * width + k] = in[i];
  }
}

}  // namespace

Status ByteStreamSplitDecoder::SetData(const uint8_t* data, int64_t size, int value_width,
                                       int64_t base_offset) {
  if (value_width <= 0) {
    return Status::Invalid("BYTE_STREAM_SPLIT value width {} must be positive", value_width);
  }
  if (size < 0 || size % value_width != 0) {
    return Status::Corrupt("BYTE_STREAM_SPLIT data at offset {} has {} bytes, not a multiple of the {}-byte value width",
                           base_offset, size, value_width);
  }
  data_ = data;
  value_width_ = value_width;
  num_values_ = size / value_width;
  position_ = 0;
  return Status::OK();
}

Result<int64_t> ByteStreamSplitDecoder::DecodeRaw(uint8_t* out, int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left());
  switch (value_width_) {
    case 4:
      Transpose<4>(data_, num_values_, position_, n, out);
      break;
    case 8:
      Transpose<8>(data_, num_values_, position_, n, out);
      break;
    case 2:
      Transpose<2>(data_, num_values_, position_, n, out);
      break;
    case 16:
      Transpose<16>(data_, num_values_, position_, n, out);
      break;
    default:
      TransposeAnyWidth(data_, num_values_, value_width_, position_, n, out);
      break;
  }
  position_ += n;
  return n;
}

Result<int64_t> ByteStreamSplitDecoder::Skip(int64_t count) {
  const int64_t n = std::clamp<int64_t>(count, 0, values_left());
  position_ += n;
  return n;
}

Status ByteStreamSplitEncode(const uint8_t* values, int64_t count, int value_width,
                             ResizableBuffer* out) {
  const int64_t at = out->size();
  STRATA_RETURN_NOT_OK(out->Resize(at + count * value_width));
  uint8_t* streams = out->mutable_data() + at;
  for (int k = 0; k < value_width; ++k) {
    uint8_t* stream = streams + k * count;
    for (int64_t i = 0; i < count; ++i) stream[i] = values[i * value_width + k];
  }
  return Status::OK();
}

}  // namespace strata::parquet
