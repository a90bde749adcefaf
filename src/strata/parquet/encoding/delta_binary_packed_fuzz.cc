// Fuzz target "delta_binary_packed": DELTA_BINARY_PACKED for INT32 and INT64. A whole decode,
// a batched decode mixed with skips, and SkipToEnd must agree on the values and on where the
// stream ends; the decoded values re-encode and decode back to themselves.
#include <algorithm>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/delta_binary_packed.h"

namespace strata::parquet {
namespace {

constexpr int64_t kMaxValues = 1 << 20;

template <typename T>
void FuzzDelta(fuzz::FuzzInput& input) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  const bool with_skips = input.Bool();
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  DeltaBinaryPackedDecoder<T> whole;
  Status st = whole.SetData(data, size);
  if (!st.ok()) {
    fuzz::CheckError(st, "DeltaBinaryPackedDecoder::SetData");
    return;
  }
  const int64_t total = whole.total_values();
  STRATA_FUZZ_CHECK(total >= 0 && whole.values_left() == total);
  const int64_t wanted = std::min(total, kMaxValues);
  std::vector<T> expected(static_cast<size_t>(wanted));
  auto got = whole.Decode(expected.data(), wanted);
  if (!got.ok()) {
    fuzz::CheckError(got.status(), "DeltaBinaryPackedDecoder::Decode");
    return;
  }
  STRATA_FUZZ_CHECK(*got == wanted, "a stream that decodes returned fewer values than it declares");

  DeltaBinaryPackedDecoder<T> pieces;
  STRATA_FUZZ_CHECK(pieces.SetData(data, size).ok());
  fuzz::CheckBatchedDecode<T>(pieces, expected, batch, with_skips, [](T a, T b) { return a == b; });
  if (wanted < total) return;

  DeltaBinaryPackedDecoder<T> skipper;
  STRATA_FUZZ_CHECK(skipper.SetData(data, size).ok());
  auto end = skipper.SkipToEnd();
  if (end.ok()) STRATA_FUZZ_CHECK(*end >= 0 && *end <= size, "stream end outside the span");

  // Re-encode what was decoded; it must decode to the same values.
  fuzz::FuzzPool pool;
  {
    DeltaBinaryPackedEncoder<T> encoder(pool.get());
    STRATA_FUZZ_CHECK(encoder.Put(expected.data(), wanted).ok());
    ResizableBuffer encoded(pool.get());
    STRATA_FUZZ_CHECK(encoder.FlushTo(&encoded).ok());
    DeltaBinaryPackedDecoder<T> again;
    STRATA_FUZZ_CHECK(again.SetData(encoded.data(), encoded.size()).ok(), "re-encoded stream refused");
    STRATA_FUZZ_CHECK(again.total_values() == wanted);
    std::vector<T> round(static_cast<size_t>(wanted));
    auto k = again.Decode(round.data(), wanted);
    STRATA_FUZZ_CHECK(k.ok() && *k == wanted && round == expected, "re-encoded values differ");
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(delta_binary_packed) {
  strata::fuzz::FuzzInput input(data, size);
  if (input.U8() & 1) {
    strata::parquet::FuzzDelta<int64_t>(input);
  } else {
    strata::parquet::FuzzDelta<int32_t>(input);
  }
  return 0;
}
