#include "strata/parquet/encryption/module_aad.h"

namespace strata::parquet::encryption {

std::string_view ModuleTypeName(ModuleType type) {
  switch (type) {
    case ModuleType::kFooter: return "footer";
    case ModuleType::kColumnMetaData: return "column metadata";
    case ModuleType::kDataPage: return "data page";
    case ModuleType::kDictionaryPage: return "dictionary page";
    case ModuleType::kDataPageHeader: return "data page header";
    case ModuleType::kDictionaryPageHeader: return "dictionary page header";
    case ModuleType::kColumnIndex: return "column index";
    case ModuleType::kOffsetIndex: return "offset index";
    case ModuleType::kBloomFilterHeader: return "Bloom filter header";
    case ModuleType::kBloomFilterBitset: return "Bloom filter bitset";
  }
  return "module";
}

namespace {

Status AppendOrdinal(std::string* aad, int64_t ordinal, std::string_view what) {
  if (ordinal < 0 || ordinal > 32767) {
    return Status::LimitExceeded("{} ordinal {} does not fit the 16-bit field of an encryption AAD", what, ordinal);
  }
  aad->push_back(static_cast<char>(ordinal & 0xFF));
  aad->push_back(static_cast<char>(ordinal >> 8));
  return Status::OK();
}

}  // namespace

Result<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int64_t row_group, int64_t column,
                              int64_t page) {
  std::string aad;
  aad.reserve(file_aad.size() + 7);
  aad.append(file_aad);
  aad.push_back(static_cast<char>(type));
  if (type == ModuleType::kFooter) return aad;
  STRATA_RETURN_NOT_OK(AppendOrdinal(&aad, row_group, "row group"));
  STRATA_RETURN_NOT_OK(AppendOrdinal(&aad, column, "column"));
  if (type == ModuleType::kDataPage || type == ModuleType::kDataPageHeader) {
    STRATA_RETURN_NOT_OK(AppendOrdinal(&aad, page, "page"));
  }
  return aad;
}

}  // namespace strata::parquet::encryption
