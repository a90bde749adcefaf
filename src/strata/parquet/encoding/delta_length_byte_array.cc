#include "strata/parquet/encoding/delta_length_byte_array.h"

#include <algorithm>
#include <cstring>

namespace strata::parquet {

namespace {
constexpr int64_t kBatch = 256;
}  // namespace

Status DeltaLengthByteArrayDecoder::SetData(const uint8_t* data, int64_t size,
                                            int64_t base_offset) {
  STRATA_RETURN_NOT_OK(lengths_.SetData(data, size, base_offset));
  // A copy walks to the end of the lengths; the original decodes them alongside the bytes.
  DeltaBinaryPackedDecoder<int32_t> probe = lengths_;
  STRATA_ASSIGN_OR_RETURN(int64_t lengths_end, probe.SkipToEnd());
  data_ = data;
  size_ = size;
  data_pos_ = lengths_end;
  base_offset_ = base_offset;
  return Status::OK();
}

Result<int64_t> DeltaLengthByteArrayDecoder::Decode(ByteArrayView* out, int64_t count) {
  int64_t done = 0;
  int32_t lengths[kBatch];
  while (done < count && lengths_.values_left() > 0) {
    STRATA_ASSIGN_OR_RETURN(int64_t n, lengths_.Decode(lengths, std::min(kBatch, count - done)));
    // Validate the whole batch at once: min for negatives, sum against the bytes left.
    int32_t min_length = 0;
    int64_t total = 0;
    for (int64_t i = 0; i < n; ++i) {
      min_length = std::min(min_length, lengths[i]);
      total += lengths[i];
    }
    if (min_length < 0 || total > size_ - data_pos_) {
      // Find the first culprit for the message.
      int64_t pos = data_pos_;
      for (int64_t i = 0; i < n; ++i) {
        if (lengths[i] < 0 || lengths[i] > size_ - pos) {
          return Status::Corrupt("DELTA_LENGTH_BYTE_ARRAY value {} declares length {} at byte offset {} with {} bytes left",
                                 lengths_.total_values() - lengths_.values_left() - n + i, lengths[i],
                                 base_offset_ + pos, size_ - pos);
        }
        pos += lengths[i];
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      out[done + i] = {data_ + data_pos_, static_cast<uint32_t>(lengths[i])};
      data_pos_ += lengths[i];
    }
    done += n;
  }
  return done;
}

Result<int64_t> DeltaLengthByteArrayDecoder::Skip(int64_t count) {
  // A value's position is the sum of the lengths before it.
  return SkipByDecoding(this, count);
}

Status DeltaLengthByteArrayEncode(MemoryPool* pool, const ByteArrayView* values, int64_t count,
                                  ResizableBuffer* out) {
  DeltaBinaryPackedEncoder<int32_t> lengths(pool);
  int64_t total = 0;
  for (int64_t i = 0; i < count; ++i) {
    const int32_t length = static_cast<int32_t>(values[i].length);
    STRATA_RETURN_NOT_OK(lengths.Put(&length, 1));
    total += values[i].length;
  }
  STRATA_RETURN_NOT_OK(lengths.FlushTo(out));
  STRATA_RETURN_NOT_OK(out->Reserve(out->size() + total));
  for (int64_t i = 0; i < count; ++i) {
    if (values[i].length != 0) out->UnsafeAppend(values[i].data, values[i].length);
  }
  return Status::OK();
}

}  // namespace strata::parquet
