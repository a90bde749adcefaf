// Fuzz target "dictionary": a dictionary page (fixed-width or BYTE_ARRAY entries, with a value
// count straight from the input, as a hostile page header would give) and a data page of
// RLE_DICTIONARY indices gathered from it through the column reader's ValueDecoder. Every
// gathered value must be the dictionary entry at an index the page really holds.
#include <algorithm>
#include <cstring>
#include <vector>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/encoding/dictionary.h"
#include "strata/parquet/encoding/rle_bit_packed.h"
#include "strata/parquet/read/value_decoder.h"

namespace strata::parquet {
namespace {

void FuzzDictionary(fuzz::FuzzInput& input, fuzz::FuzzPool& pool) {
  const uint8_t kind = input.U8();
  const bool byte_array = (kind & 1) != 0;
  static constexpr int kWidths[] = {4, 8, 12, 1, 2, 3, 16, 5};
  const int width = kWidths[(kind >> 1) % 8];
  // Hostile counts are the point: the top bit picks a huge declared count half the time.
  const uint32_t raw_count = input.U32();
  const int64_t num_values = (raw_count & 0x80000000u) ? static_cast<int32_t>(raw_count) : (raw_count & 0xFFF);
  const int64_t declared_page_size = input.U16();
  const int64_t values_to_read = input.U16() % 5000;
  const int64_t batch = fuzz::BatchSize(input.U8());
  // After every parameter byte is consumed: the page is what remains, at most.
  const int64_t page_size = std::min<int64_t>(declared_page_size, static_cast<int64_t>(input.rest_size()));
  const uint8_t* page = input.rest();
  const uint8_t* indices_page = page + page_size;
  const int64_t indices_size = static_cast<int64_t>(input.rest_size()) - page_size;

  auto made = byte_array ? Dictionary::MakeByteArray(pool.get(), page, page_size, num_values)
                         : Dictionary::MakeFixedWidth(pool.get(), page, page_size, num_values, width);
  if (!made.ok()) {
    fuzz::CheckError(made.status(), "Dictionary::Make");
    return;
  }
  const Dictionary& dictionary = **made;
  STRATA_FUZZ_CHECK(dictionary.size() == num_values);
  // The dictionary's memory is bounded by the page it came from.
  STRATA_FUZZ_CHECK(dictionary.memory_size() <= 64 + page_size + 64 + num_values * 16 + 64, "dictionary larger than its page");
  if (!byte_array) {
    STRATA_FUZZ_CHECK(num_values == 0 || std::memcmp(dictionary.fixed_values(), page, static_cast<size_t>(num_values * width)) == 0);
  } else {
    for (int64_t i = 0; i < num_values; ++i) {
      const ByteArrayView& v = dictionary.views()[i];
      STRATA_FUZZ_CHECK(v.length <= page_size);
    }
  }

  const PhysicalType type = byte_array ? PhysicalType::kByteArray : PhysicalType::kFixedLenByteArray;
  auto decoder = MakeValueDecoder(Encoding::kRleDictionary, type, width, &dictionary, pool.get());
  STRATA_FUZZ_CHECK(decoder.ok(), decoder.status().ToString());
  Status st = (*decoder)->SetData(values_to_read, indices_page, indices_size, 0);
  if (!st.ok()) {
    fuzz::CheckError(st, "dictionary indices SetData");
    return;
  }
  // Reference: the indices themselves, decoded without the dictionary.
  RleBitPackedDecoder reference;
  STRATA_FUZZ_CHECK(reference.ResetForDictionaryIndices(indices_page, indices_size).ok());
  std::vector<uint32_t> indices(static_cast<size_t>(batch));
  std::vector<uint8_t> fixed(static_cast<size_t>(batch * width));
  std::vector<ByteArrayView> views(static_cast<size_t>(batch));
  for (int64_t done = 0; done < values_to_read;) {
    const int64_t n = std::min(batch, values_to_read - done);
    st = byte_array ? (*decoder)->DecodeViews(views.data(), n) : (*decoder)->DecodeFixed(fixed.data(), n);
    if (!st.ok()) {
      fuzz::CheckError(st, "dictionary gather");
      return;
    }
    auto got = reference.Decode(indices.data(), n);
    STRATA_FUZZ_CHECK(got.ok() && *got == n, "gather succeeded where the indices run out");
    for (int64_t i = 0; i < n; ++i) {
      STRATA_FUZZ_CHECK(indices[i] < static_cast<uint64_t>(dictionary.size()), "gathered an index outside the dictionary");
      if (byte_array) {
        const ByteArrayView& entry = dictionary.views()[indices[i]];
        STRATA_FUZZ_CHECK(views[i].data == entry.data && views[i].length == entry.length);
      } else {
        STRATA_FUZZ_CHECK(std::memcmp(fixed.data() + i * width, dictionary.fixed_values() + indices[i] * width,
                                      static_cast<size_t>(width)) == 0);
      }
    }
    done += n;
  }
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(dictionary) {
  strata::fuzz::FuzzPool pool;
  strata::fuzz::FuzzInput input(data, size);
  strata::parquet::FuzzDictionary(input, pool);
  return 0;
}
