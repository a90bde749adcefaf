// Fuzz target "plain": PLAIN decoders for fixed-width values (INT32/INT64/INT96/FLBA widths),
// booleans and byte arrays. Batched decodes with skips must agree with one whole decode, views
// must point inside the page, and the copying byte-array path must give the same bytes as the
// views.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/plain.h"

namespace strata::parquet {
namespace {

constexpr int64_t kMaxValues = 1 << 20;

void FuzzFixed(fuzz::FuzzInput& input, int width) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());
  PlainFixedDecoder whole;
  Status st = whole.SetData(data, size, width);
  if (!st.ok()) {
    STRATA_FUZZ_CHECK(size % width != 0, "a whole number of values was refused");
    fuzz::CheckError(st, "PlainFixedDecoder::SetData");
    return;
  }
  const int64_t n = size / width;
  STRATA_FUZZ_CHECK(whole.values_left() == n);
  std::vector<uint8_t> out(static_cast<size_t>(size));
  auto got = whole.DecodeRaw(out.data(), n + 5);
  STRATA_FUZZ_CHECK(got.ok() && *got == n);
  STRATA_FUZZ_CHECK(size == 0 || std::memcmp(out.data(), data, static_cast<size_t>(size)) == 0);

  PlainFixedDecoder pieces;
  STRATA_FUZZ_CHECK(pieces.SetData(data, size, width).ok());
  std::vector<uint8_t> value(static_cast<size_t>(batch * width));
  std::vector<ByteArrayView> views(static_cast<size_t>(batch));
  int64_t position = 0;
  for (int step = 0; position < n; ++step) {
    if (step % 3 == 2) {
      auto skipped = pieces.Skip(batch);
      STRATA_FUZZ_CHECK(skipped.ok() && *skipped == std::min(batch, n - position));
      position += *skipped;
    } else if (step % 3 == 1) {
      auto k = pieces.DecodeViews(views.data(), batch);
      STRATA_FUZZ_CHECK(k.ok() && *k == std::min(batch, n - position));
      for (int64_t i = 0; i < *k; ++i) {
        STRATA_FUZZ_CHECK(views[i].data == data + (position + i) * width && views[i].length == static_cast<uint32_t>(width));
      }
      position += *k;
    } else {
      auto k = pieces.DecodeRaw(value.data(), batch);
      STRATA_FUZZ_CHECK(k.ok() && *k == std::min(batch, n - position));
      STRATA_FUZZ_CHECK(*k == 0 || std::memcmp(value.data(), data + position * width, static_cast<size_t>(*k * width)) == 0);
      position += *k;
    }
  }
  STRATA_FUZZ_CHECK(pieces.values_left() == 0);
}

void FuzzBooleans(fuzz::FuzzInput& input) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  const int64_t bit_offset = input.U8() % 64;
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());
  const int64_t n = std::min<int64_t>(size * 8, kMaxValues);
  PlainBooleanDecoder bytes_decoder;
  bytes_decoder.SetData(data, size);
  std::vector<uint8_t> values(static_cast<size_t>(n));
  auto got = bytes_decoder.Decode(values.data(), n);
  STRATA_FUZZ_CHECK(got.ok() && *got == n);
  for (int64_t i = 0; i < n; ++i) STRATA_FUZZ_CHECK(values[i] == ((data[i >> 3] >> (i & 7)) & 1));

  PlainBooleanDecoder bits_decoder;
  bits_decoder.SetData(data, size);
  std::vector<uint8_t> bitmap(static_cast<size_t>((n + bit_offset) / 8 + 1), 0xA5);
  int64_t position = 0;
  while (position < n) {
    auto k = bits_decoder.DecodeBits(bitmap.data(), bit_offset + position, batch);
    STRATA_FUZZ_CHECK(k.ok() && *k == std::min(batch, n - position));
    position += *k;
  }
  for (int64_t i = 0; i < n; ++i) {
    const int64_t bit = bit_offset + i;
    STRATA_FUZZ_CHECK(((bitmap[bit >> 3] >> (bit & 7)) & 1) == values[i], "DecodeBits disagrees with Decode");
  }
  // Bits before the offset are untouched.
  for (int64_t bit = 0; bit < bit_offset; ++bit) {
    STRATA_FUZZ_CHECK(((bitmap[bit >> 3] >> (bit & 7)) & 1) == ((0xA5 >> (bit & 7)) & 1), "DecodeBits wrote before its offset");
  }
}

void FuzzByteArrays(fuzz::FuzzInput& input) {
  const int64_t batch = fuzz::BatchSize(input.U8());
  fuzz::FuzzPool pool;
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  PlainByteArrayDecoder views_decoder;
  views_decoder.SetData(data, size);
  std::vector<ByteArrayView> views(static_cast<size_t>(batch));
  std::vector<std::string> expected;
  bool views_failed = false;
  while (true) {
    auto k = views_decoder.Decode(views.data(), batch);
    if (!k.ok()) {
      fuzz::CheckError(k.status(), "PlainByteArrayDecoder::Decode");
      views_failed = true;
      break;
    }
    for (int64_t i = 0; i < *k; ++i) {
      STRATA_FUZZ_CHECK(views[i].data >= data && views[i].data + views[i].length <= data + size, "view outside the page");
      expected.emplace_back(views[i].view());
    }
    if (*k < batch) break;
  }

  PlainByteArrayDecoder copy_decoder;
  copy_decoder.SetData(data, size);
  ResizableBuffer bytes(pool.get());
  std::vector<int32_t> offsets(static_cast<size_t>(batch) + 1, 0);
  size_t index = 0;
  bool copy_failed = false;
  while (true) {
    bytes.Clear();
    auto k = copy_decoder.DecodeInto<int32_t>(batch, offsets.data() + 1, &bytes);
    if (!k.ok()) {
      fuzz::CheckError(k.status(), "PlainByteArrayDecoder::DecodeInto");
      copy_failed = true;
      break;
    }
    for (int64_t i = 0; i < *k; ++i, ++index) {
      STRATA_FUZZ_CHECK(index < expected.size(), "DecodeInto found more values than Decode");
      const std::string_view value(reinterpret_cast<const char*>(bytes.data()) + offsets[i],
                                   static_cast<size_t>(offsets[i + 1] - offsets[i]));
      STRATA_FUZZ_CHECK(value == expected[index], "DecodeInto disagrees with Decode");
    }
    if (*k < batch) break;
  }
  STRATA_FUZZ_CHECK(views_failed == copy_failed && (views_failed || index == expected.size()));
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(plain) {
  strata::fuzz::FuzzInput input(data, size);
  const uint8_t kind = input.U8();
  switch (kind % 6) {
    case 0: strata::parquet::FuzzFixed(input, 4); break;
    case 1: strata::parquet::FuzzFixed(input, 8); break;
    case 2: strata::parquet::FuzzFixed(input, 12); break;
    case 3: strata::parquet::FuzzFixed(input, 1 + (kind >> 3)); break;  // FLBA widths 1..32
    case 4: strata::parquet::FuzzBooleans(input); break;
    default: strata::parquet::FuzzByteArrays(input); break;
  }
  return 0;
}
