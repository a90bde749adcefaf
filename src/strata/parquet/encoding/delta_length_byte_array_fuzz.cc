// Fuzz target "delta_length_byte_array": DELTA_LENGTH_BYTE_ARRAY. Views must lie inside the
// page and follow each other; a batched decode with skips agrees with a whole decode; what
// decodes re-encodes to values that decode back the same.
#include <algorithm>
#include <string>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/delta_length_byte_array.h"

namespace strata::parquet {
namespace {

constexpr int64_t kMaxValues = 1 << 18;

void FuzzDeltaLength(fuzz::FuzzInput& input) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  const bool with_skips = input.Bool();
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  DeltaLengthByteArrayDecoder whole;
  Status st = whole.SetData(data, size);
  if (!st.ok()) {
    fuzz::CheckError(st, "DeltaLengthByteArrayDecoder::SetData");
    return;
  }
  const int64_t wanted = std::min(whole.total_values(), kMaxValues);
  std::vector<ByteArrayView> expected(static_cast<size_t>(wanted));
  auto got = whole.Decode(expected.data(), wanted);
  if (!got.ok()) {
    fuzz::CheckError(got.status(), "DeltaLengthByteArrayDecoder::Decode");
    return;
  }
  STRATA_FUZZ_CHECK(*got == wanted, "a stream that decodes returned fewer values than it declares");
  const uint8_t* previous_end = nullptr;
  for (const ByteArrayView& v : expected) {
    STRATA_FUZZ_CHECK(v.length == 0 || (v.data >= data && v.data + v.length <= data + size), "view outside the page");
    if (previous_end != nullptr && v.length != 0) STRATA_FUZZ_CHECK(v.data == previous_end, "values are not back to back");
    if (v.length != 0) previous_end = v.data + v.length;
  }

  DeltaLengthByteArrayDecoder pieces;
  STRATA_FUZZ_CHECK(pieces.SetData(data, size).ok());
  const auto same = [](const ByteArrayView& a, const ByteArrayView& b) { return a.view() == b.view(); };
  fuzz::CheckBatchedDecode<ByteArrayView>(pieces, expected, batch, with_skips, same);

  fuzz::FuzzPool pool;
  {
    ResizableBuffer encoded(pool.get());
    STRATA_FUZZ_CHECK(DeltaLengthByteArrayEncode(pool.get(), expected.data(), wanted, &encoded).ok());
    DeltaLengthByteArrayDecoder again;
    STRATA_FUZZ_CHECK(again.SetData(encoded.data(), encoded.size()).ok(), "re-encoded stream refused");
    std::vector<ByteArrayView> round(static_cast<size_t>(wanted));
    auto k = again.Decode(round.data(), wanted);
    STRATA_FUZZ_CHECK(k.ok() && *k == wanted, "re-encoded stream fails");
    for (int64_t i = 0; i < wanted; ++i) STRATA_FUZZ_CHECK(round[i].view() == expected[i].view(), "re-encoded values differ");
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(delta_length_byte_array) {
  strata::fuzz::FuzzInput input(data, size);
  strata::parquet::FuzzDeltaLength(input);
  return 0;
}
