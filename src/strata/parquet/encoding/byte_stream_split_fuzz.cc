// Fuzz target "byte_stream_split": BYTE_STREAM_SPLIT for widths 4, 8 and FLBA widths. The
// decoded values must be the transpose of the streams (checked against a byte-by-byte
// reference), batched decodes with skips agree, and values re-encode to the input bytes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/byte_stream_split.h"

namespace strata::parquet {
namespace {

void FuzzByteStreamSplit(fuzz::FuzzInput& input) {
  const uint8_t kind = input.U8();
  const int width = (kind & 3) == 0 ? 4 : (kind & 3) == 1 ? 8 : 1 + (kind >> 2) % 20;
  const int64_t batch = fuzz::BatchSize(input.U8());
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  ByteStreamSplitDecoder decoder;
  Status st = decoder.SetData(data, size, width);
  if (!st.ok()) {
    STRATA_FUZZ_CHECK(size % width != 0, "a whole number of values was refused");
    fuzz::CheckError(st, "ByteStreamSplitDecoder::SetData");
    return;
  }
  const int64_t n = size / width;
  STRATA_FUZZ_CHECK(decoder.values_left() == n);
  std::vector<uint8_t> out(static_cast<size_t>(batch * width));
  int64_t position = 0;
  for (int step = 0; position < n; ++step) {
    const int64_t k = std::min(batch, n - position);
    if (step % 3 == 2) {
      auto skipped = decoder.Skip(batch);
      STRATA_FUZZ_CHECK(skipped.ok() && *skipped == k);
    } else {
      auto got = decoder.DecodeRaw(out.data(), batch);
      STRATA_FUZZ_CHECK(got.ok() && *got == k);
      for (int64_t i = 0; i < k; ++i) {
        for (int b = 0; b < width; ++b) {
          STRATA_FUZZ_CHECK(out[i * width + b] == data[b * n + position + i], "value is not the streams' transpose");
        }
      }
    }
    position += k;
  }
  STRATA_FUZZ_CHECK(decoder.values_left() == 0);

  fuzz::FuzzPool pool;
  std::vector<uint8_t> values(static_cast<size_t>(size));
  ByteStreamSplitDecoder all;
  STRATA_FUZZ_CHECK(all.SetData(data, size, width).ok());
  STRATA_FUZZ_CHECK(*all.DecodeRaw(values.data(), n) == n);
  ResizableBuffer encoded(pool.get());
  STRATA_FUZZ_CHECK(ByteStreamSplitEncode(values.data(), n, width, &encoded).ok());
  STRATA_FUZZ_CHECK(encoded.size() == size && (size == 0 || std::memcmp(encoded.data(), data, size) == 0),
                    "re-encoding differs from the input");
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(byte_stream_split) {
  strata::fuzz::FuzzInput input(data, size);
  strata::parquet::FuzzByteStreamSplit(input);
  return 0;
}
