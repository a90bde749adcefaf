// Fuzz target "delta_byte_array": DELTA_BYTE_ARRAY (front coding), which materialises values in
// decoder memory. Memory is bounded by the pool limit (a small page may legitimately expand, so
// the target caps how many values it asks for); a batched decode with skips agrees with a
// batch-of-one reference, and decoded values re-encode and decode back the same.
#include <algorithm>
#include <string>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/delta_byte_array.h"

namespace strata::parquet {
namespace {

// Values and bytes asked for: front coding can expand each byte of a page into a long value.
constexpr int64_t kMaxValues = 1 << 16;
constexpr int64_t kMaxBytes = 64 << 20;

void FuzzDeltaByteArray(fuzz::FuzzInput& input) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  const bool with_skips = input.Bool();
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());
  fuzz::FuzzPool pool;

  std::vector<std::string> expected;
  {
    DeltaByteArrayDecoder reference(pool.get());
    Status st = reference.SetData(data, size);
    if (!st.ok()) {
      fuzz::CheckError(st, "DeltaByteArrayDecoder::SetData");
      return;
    }
    int64_t bytes = 0;
    ByteArrayView view;
    while (static_cast<int64_t>(expected.size()) < kMaxValues && bytes < kMaxBytes) {
      auto k = reference.Decode(&view, 1);
      if (!k.ok()) {
        fuzz::CheckError(k.status(), "DeltaByteArrayDecoder::Decode");
        return;
      }
      if (*k == 0) break;
      expected.emplace_back(view.view());
      bytes += view.length;
    }
  }
  const int64_t wanted = static_cast<int64_t>(expected.size());

  {
    DeltaByteArrayDecoder pieces(pool.get());
    STRATA_FUZZ_CHECK(pieces.SetData(data, size).ok());
    std::vector<ByteArrayView> views(static_cast<size_t>(batch));
    int64_t position = 0;
    for (int step = 0; position < wanted; ++step) {
      const int64_t n = std::min(batch, wanted - position);
      if (with_skips && step % 2 == 1) {
        auto skipped = pieces.Skip(n);
        if (!skipped.ok()) {
          fuzz::CheckError(skipped.status(), "DeltaByteArrayDecoder::Skip");
          return;  // a batch can fail where values one by one stopped at the byte cap
        }
        STRATA_FUZZ_CHECK(*skipped == n, "Skip returned fewer values than Decode");
      } else {
        auto k = pieces.Decode(views.data(), n);
        if (!k.ok()) {
          fuzz::CheckError(k.status(), "DeltaByteArrayDecoder::Decode (batched)");
          return;
        }
        STRATA_FUZZ_CHECK(*k == n, "batched Decode returned fewer values");
        for (int64_t i = 0; i < n; ++i) {
          STRATA_FUZZ_CHECK(views[i].view() == expected[position + i], "batched decode differs");
        }
      }
      position += n;
    }
  }

  std::vector<ByteArrayView> views(expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    views[i] = {reinterpret_cast<const uint8_t*>(expected[i].data()), static_cast<uint32_t>(expected[i].size())};
  }
  ResizableBuffer encoded(pool.get());
  STRATA_FUZZ_CHECK(DeltaByteArrayEncode(pool.get(), views.data(), wanted, &encoded).ok());
  DeltaByteArrayDecoder again(pool.get());
  STRATA_FUZZ_CHECK(again.SetData(encoded.data(), encoded.size()).ok(), "re-encoded stream refused");
  std::vector<ByteArrayView> round(static_cast<size_t>(wanted));
  auto k = again.Decode(round.data(), wanted);
  STRATA_FUZZ_CHECK(k.ok() && *k == wanted, "re-encoded stream fails");
  for (int64_t i = 0; i < wanted; ++i) STRATA_FUZZ_CHECK(round[i].view() == expected[i], "re-encoded values differ");
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(delta_byte_array) {
  strata::fuzz::FuzzInput input(data, size);
  strata::parquet::FuzzDeltaByteArray(input);
  return 0;
}
