// Fuzz target "page_header": the page header decoder and the other structures a reader decodes
// from inside the file (column index, offset index, Bloom filter header, crypto metadata). The
// first input byte picks the structure; a decoded struct must re-encode to bytes that decode to
// the same encoding.
#include <string>

#include "strata/fuzz/fuzz_target.h"
#include "strata/parquet/thrift/parquet_types.h"

namespace strata::parquet {
namespace {

template <typename T, typename Deserialize, typename Serialize>
void RoundTrip(const uint8_t* data, size_t size, Deserialize deserialize, Serialize serialize, const char* what) {
  T value;
  auto consumed = deserialize(data, size, &value, int64_t{1} << 40);
  if (!consumed.ok()) {
    fuzz::CheckError(consumed.status(), what);
    return;
  }
  STRATA_FUZZ_CHECK(*consumed <= size, what);
  std::string first;
  serialize(value, &first);
  T again;
  auto reconsumed = deserialize(reinterpret_cast<const uint8_t*>(first.data()), first.size(), &again, 0);
  STRATA_FUZZ_CHECK(reconsumed.ok() && *reconsumed == first.size(), what);
  std::string second;
  serialize(again, &second);
  STRATA_FUZZ_CHECK(first == second, what);
}

}  // namespace
}  // namespace strata::parquet

STRATA_FUZZ_TARGET(page_header) {
  using namespace strata::parquet;
  if (size == 0) return 0;
  const uint8_t which = data[0] % 5;
  ++data;
  --size;
  switch (which) {
    case 0:
      RoundTrip<PageHeader>(data, size, DeserializePageHeader, SerializePageHeader, "PageHeader");
      break;
    case 1:
      RoundTrip<ColumnIndex>(data, size, DeserializeColumnIndex, SerializeColumnIndex, "ColumnIndex");
      break;
    case 2:
      RoundTrip<OffsetIndex>(data, size, DeserializeOffsetIndex, SerializeOffsetIndex, "OffsetIndex");
      break;
    case 3:
      RoundTrip<BloomFilterHeader>(data, size, DeserializeBloomFilterHeader, SerializeBloomFilterHeader,
                                   "BloomFilterHeader");
      break;
    default:
      RoundTrip<FileCryptoMetaData>(data, size, DeserializeFileCryptoMetaData, SerializeFileCryptoMetaData,
                                    "FileCryptoMetaData");
      break;
  }
  return 0;
}
