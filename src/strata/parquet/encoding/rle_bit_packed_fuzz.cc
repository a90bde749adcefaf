// Fuzz target "rle_bit_packed": the RLE/bit-packing hybrid decoder (plain, length-prefixed and
// dictionary-index framings) and the level decoder on top of it. The same stream is decoded
// twice, once in large batches and once in small batches mixed with skips; wherever both
// produced a value they must agree, and every value must fit the bit width (or the maximum
// level).
#include <algorithm>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/level_decoder.h"
#include "strata/parquet/encoding/rle_bit_packed.h"

namespace strata::parquet {
namespace {

// Decoding stops here: a 5-byte RLE run may declare 2^31 values, and decoding them all proves
// nothing more than decoding 64K (and keeps the fuzzer at thousands of inputs a second).
constexpr int64_t kMaxValues = 1 << 16;

enum class Framing { kPlain, kLengthPrefix, kDictionaryIndices };

Status Reset(RleBitPackedDecoder* decoder, Framing framing, const uint8_t* data, int64_t size, int bit_width) {
  switch (framing) {
    case Framing::kPlain:
      return decoder->Reset(data, size, bit_width);
    case Framing::kLengthPrefix:
      return decoder->ResetWithLengthPrefix(data, size, bit_width).status();
    case Framing::kDictionaryIndices:
      return decoder->ResetForDictionaryIndices(data, size);
  }
  return Status::OK();
}

// Decodes everything in batches of `batch`; with `skip_every`, skips one value after each batch
// (the skipped slot keeps the marker 0xFFFFFFFF... never a decodable value above 32 bits wide).
// Returns the values; *failed says whether decoding stopped on an error.
std::vector<int64_t> DecodeAll(RleBitPackedDecoder* decoder, int64_t batch, bool skip_every, bool* failed) {
  std::vector<int64_t> values;
  std::vector<uint32_t> scratch(static_cast<size_t>(batch));
  *failed = false;
  while (static_cast<int64_t>(values.size()) < kMaxValues) {
    auto n = decoder->Decode(scratch.data(), batch);
    if (!n.ok()) {
      fuzz::CheckError(n.status(), "RleBitPackedDecoder::Decode");
      *failed = true;
      break;
    }
    STRATA_FUZZ_CHECK(*n >= 0 && *n <= batch);
    values.insert(values.end(), scratch.begin(), scratch.begin() + *n);
    if (*n < batch) break;
    if (skip_every) {
      auto skipped = decoder->Skip(1);
      if (!skipped.ok()) {
        fuzz::CheckError(skipped.status(), "RleBitPackedDecoder::Skip");
        *failed = true;
        break;
      }
      if (*skipped == 0) break;
      values.push_back(-1);
    }
  }
  return values;
}

void FuzzHybrid(fuzz::FuzzInput& input) {
  const int bit_width = input.U8() % 34;  // 33 must be refused
  const Framing framing = static_cast<Framing>(input.U8() % 3);
  const int64_t batch = fuzz::BatchSize(input.U8());
  const bool skip_every = input.Bool();
  const int64_t dictionary_size = input.U16();
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  RleBitPackedDecoder whole;
  Status st = Reset(&whole, framing, data, size, bit_width);
  if (!st.ok()) {
    fuzz::CheckError(st, "RleBitPackedDecoder::Reset");
    return;
  }
  const int width = whole.bit_width();
  STRATA_FUZZ_CHECK(width >= 0 && width <= 32);
  bool whole_failed = false;
  const std::vector<int64_t> expected = DecodeAll(&whole, 4096, false, &whole_failed);
  const uint64_t limit = width == 32 ? (uint64_t{1} << 32) : (uint64_t{1} << width);
  for (int64_t v : expected) STRATA_FUZZ_CHECK(static_cast<uint64_t>(v) < limit, "value wider than the bit width");

  RleBitPackedDecoder pieces;
  STRATA_FUZZ_CHECK(Reset(&pieces, framing, data, size, bit_width).ok(), "a second Reset differs");
  bool pieces_failed = false;
  const std::vector<int64_t> got = DecodeAll(&pieces, batch, skip_every, &pieces_failed);
  const size_t common = std::min(expected.size(), got.size());
  for (size_t i = 0; i < common; ++i) {
    STRATA_FUZZ_CHECK(got[i] == -1 || got[i] == expected[i], "batched decode disagrees with whole decode");
  }
  if (!whole_failed && !pieces_failed && expected.size() < static_cast<size_t>(kMaxValues) &&
      got.size() < static_cast<size_t>(kMaxValues)) {
    STRATA_FUZZ_CHECK(got.size() == expected.size(), "batched decode found a different number of values");
  }

  // Indices checked against a dictionary: every index returned is inside it.
  RleBitPackedDecoder indices_decoder;
  STRATA_FUZZ_CHECK(Reset(&indices_decoder, framing, data, size, bit_width).ok());
  std::vector<int32_t> indices(static_cast<size_t>(batch));
  for (int64_t total = 0; total < kMaxValues;) {
    auto n = indices_decoder.DecodeIndices(indices.data(), batch, dictionary_size);
    if (!n.ok()) {
      fuzz::CheckError(n.status(), "DecodeIndices");
      break;
    }
    for (int64_t i = 0; i < *n; ++i) STRATA_FUZZ_CHECK(indices[i] >= 0 && indices[i] < dictionary_size);
    total += *n;
    if (*n < batch) break;
  }
}

void FuzzLevels(fuzz::FuzzInput& input) {
  const int16_t max_level = static_cast<int16_t>(input.U8() % 9);
  const bool v2 = input.Bool();
  const Encoding encoding = input.Bool() ? Encoding::kBitPacked : Encoding::kRle;
  const int64_t num_levels = input.U16();
  const int64_t batch = fuzz::BatchSize(input.U8());
  const auto* data = input.rest();
  const auto size = static_cast<int64_t>(input.rest_size());

  auto set = [&](LevelDecoder* decoder) -> Status {
    if (v2) return decoder->SetDataV2(max_level, num_levels, data, size);
    auto consumed = decoder->SetDataV1(encoding, max_level, num_levels, data, size);
    if (consumed.ok()) STRATA_FUZZ_CHECK(*consumed >= 0 && *consumed <= size, "levels claim more bytes than exist");
    return consumed.status();
  };
  LevelDecoder levels_decoder;
  Status st = set(&levels_decoder);
  if (!st.ok()) {
    fuzz::CheckError(st, "LevelDecoder::SetData");
    return;
  }
  std::vector<int16_t> levels(static_cast<size_t>(num_levels));
  int64_t decoded = 0;
  while (decoded < num_levels) {
    const int64_t n = std::min(batch, num_levels - decoded);
    st = levels_decoder.Decode(levels.data() + decoded, n);
    if (!st.ok()) {
      fuzz::CheckError(st, "LevelDecoder::Decode");
      break;
    }
    for (int64_t i = decoded; i < decoded + n; ++i) {
      STRATA_FUZZ_CHECK(levels[i] >= 0 && levels[i] <= max_level, "level above the maximum");
    }
    decoded += n;
  }

  // Validity from the same levels matches level == max_level.
  LevelDecoder validity_decoder;
  STRATA_FUZZ_CHECK(set(&validity_decoder).ok());
  std::vector<uint8_t> bitmap(static_cast<size_t>(num_levels / 8 + 2), 0);
  int64_t done = 0;
  while (done < decoded) {
    const int64_t n = std::min(batch, decoded - done);
    auto valid = validity_decoder.DecodeValidity(n, bitmap.data(), done + 1);
    STRATA_FUZZ_CHECK(valid.ok(), "validity fails where levels decoded");
    int64_t expected_valid = 0;
    for (int64_t i = done; i < done + n; ++i) {
      const bool bit = (bitmap[(i + 1) >> 3] >> ((i + 1) & 7)) & 1;
      STRATA_FUZZ_CHECK(bit == (levels[i] == max_level), "validity disagrees with levels");
      expected_valid += levels[i] == max_level;
    }
    STRATA_FUZZ_CHECK(*valid == expected_valid);
    done += n;
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(rle_bit_packed) {
  strata::fuzz::FuzzInput input(data, size);
  if (input.U8() & 1) {
    strata::parquet::FuzzLevels(input);
  } else {
    strata::parquet::FuzzHybrid(input);
  }
  return 0;
}
