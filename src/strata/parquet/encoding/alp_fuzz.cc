// Fuzz target "alp": ALP pages for FLOAT and DOUBLE. A page the decoder accepts must decode
// the same in batches with skips as in one call, and decode -> re-encode -> decode must give
// the same bits. The same bytes read as raw values must survive encode -> decode bit for bit.
#include <algorithm>
#include <cstring>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/alp.h"

namespace strata::parquet {
namespace {

template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

template <typename T>
std::vector<T> DecodeAll(AlpDecoder<T>& decoder, const uint8_t* data, int64_t size, const char* what) {
  STRATA_FUZZ_CHECK(decoder.SetData(data, size).ok(), what);
  std::vector<T> out(static_cast<size_t>(decoder.total_values()));
  auto got = decoder.Decode(out.data(), decoder.total_values());
  STRATA_FUZZ_CHECK(got.ok() && *got == decoder.total_values(), what);
  return out;
}

template <typename T>
void FuzzAlp(fuzz::FuzzInput& input, fuzz::FuzzPool& pool) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  const int log_vector_size = kAlpMinLogVectorSize + input.U8() % (kAlpMaxLogVectorSize - kAlpMinLogVectorSize + 1);
  const uint8_t* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  // The bytes as a page.
  AlpDecoder<T> decoder(pool.get());
  Status st = decoder.SetData(data, size);
  if (!st.ok()) {
    fuzz::CheckError(st, "AlpDecoder::SetData");
  } else {
    // Pages of hostile input may declare many values in few bytes (bit width 0); cap the work.
    const int64_t n = std::min<int64_t>(decoder.total_values(), 1 << 20);
    std::vector<T> whole(static_cast<size_t>(n));
    auto got = decoder.Decode(whole.data(), n);
    if (!got.ok()) {
      fuzz::CheckError(got.status(), "AlpDecoder::Decode");
    } else {
      STRATA_FUZZ_CHECK(*got == n);
      AlpDecoder<T> batched(pool.get());
      STRATA_FUZZ_CHECK(batched.SetData(data, size).ok(), "a second SetData of an accepted page failed");
      std::vector<T> part(static_cast<size_t>(batch));
      for (int64_t position = 0, step = 0; position < n; ++step) {
        const int64_t k = std::min(batch, n - position);
        if (step % 3 == 2) {
          auto skipped = batched.Skip(k);
          STRATA_FUZZ_CHECK(skipped.ok() && *skipped == k);
        } else {
          auto r = batched.Decode(part.data(), k);
          STRATA_FUZZ_CHECK(r.ok() && *r == k, "a batch failed where the whole page decoded");
          STRATA_FUZZ_CHECK(std::memcmp(part.data(), whole.data() + position, k * sizeof(T)) == 0,
                            "batched decode differs from the whole decode");
        }
        position += k;
      }
      // decode -> re-encode -> decode.
      AlpEncoder<T> encoder(pool.get(), decoder.log_vector_size());
      ResizableBuffer page(pool.get());
      STRATA_FUZZ_CHECK(encoder.Encode(whole.data(), n, &page).ok());
      AlpDecoder<T> again(pool.get());
      STRATA_FUZZ_CHECK(SameBits(DecodeAll(again, page.data(), page.size(), "re-encoded page"), whole),
                        "decode -> encode -> decode changed the values");
    }
  }

  // The bytes as values.
  std::vector<T> values(static_cast<size_t>(size) / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), data, values.size() * sizeof(T));
  AlpEncoder<T> encoder(pool.get(), log_vector_size);
  ResizableBuffer page(pool.get());
  STRATA_FUZZ_CHECK(encoder.Encode(values.data(), static_cast<int64_t>(values.size()), &page).ok());
  AlpDecoder<T> round(pool.get());
  STRATA_FUZZ_CHECK(SameBits(DecodeAll(round, page.data(), page.size(), "encoded values"), values),
                    "encode -> decode changed the values");
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(alp) {
  strata::fuzz::FuzzInput input(data, size);
  strata::fuzz::FuzzPool pool;
  if (input.U8() & 1) {
    strata::parquet::FuzzAlp<double>(input, pool);
  } else {
    strata::parquet::FuzzAlp<float>(input, pool);
  }
  return 0;
}
