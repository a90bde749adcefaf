// Variable-length values as the decoders hand them out: views into page (or decoder) memory,
// plus the one helper that turns a batch of views into Arrow-style offsets + data with a single
// exact reservation ("measure, then copy").
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"
#include "strata/util/status.h"

namespace strata::parquet {

// One BYTE_ARRAY (or FIXED_LEN_BYTE_ARRAY) value. Does not own its bytes: each decoder says what
// the pointer refers to and how long it stays valid.
struct ByteArrayView {
  const uint8_t* data = nullptr;
  uint32_t length = 0;

  std::string_view view() const {
    return {reinterpret_cast<const char*>(data), static_cast<size_t>(length)};
  }
};

// Appends the bytes of views[0, n) to `data` (one exact Reserve for the whole batch, then
// memcpy) and writes offsets_out[i] = data->size() after value i, i.e. the end offset of each
// value (the caller's offsets array already holds the start of the first). Offset is int32_t
// (LimitExceeded when the data would pass 2^31 - 1 bytes) or int64_t.
template <typename Offset>
Status AppendByteArrays(const ByteArrayView* views, int64_t n, Offset* offsets_out,
                        ResizableBuffer* data) {
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) total += views[i].length;
  const int64_t start = data->size();
  if (start + total > static_cast<int64_t>(std::numeric_limits<Offset>::max())) {
    return Status::LimitExceeded("{} bytes of byte arrays do not fit {}-bit offsets", start + total,
                                 8 * sizeof(Offset));
  }
  STRATA_RETURN_NOT_OK(data->Reserve(start + total));
  uint8_t* out = data->mutable_data();
  int64_t pos = start;
  for (int64_t i = 0; i < n; ++i) {
    if (views[i].length != 0) std::memcpy(out + pos, views[i].data, views[i].length);
    pos += views[i].length;
    offsets_out[i] = static_cast<Offset>(pos);
  }
  data->set_size(pos);
  return Status::OK();
}

// Skips `count` values of a byte-array decoder that has no cheaper way forward (a value's
// position or bytes depend on its predecessors) by decoding them into scratch, a batch at a
// time; returns how many it skipped (fewer at the page's end).
template <typename Decoder>
Result<int64_t> SkipByDecoding(Decoder* decoder, int64_t count) {
  constexpr int64_t kSkipBatch = 256;
  ByteArrayView scratch[kSkipBatch];
  int64_t done = 0;
  while (done < count && decoder->values_left() > 0) {
    STRATA_ASSIGN_OR_RETURN(const int64_t n, decoder->Decode(scratch, std::min(kSkipBatch, count - done)));
    if (n == 0) break;
    done += n;
  }
  return done;
}

}  // namespace strata::parquet
