// The AAD of each encrypted module (Encryption.md 4.4): the file's AAD (prefix + unique id),
// the module type, and for all but the footer the row group and column ordinals, for data
// pages and their headers the page ordinal too, each a 2-byte little-endian short.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "strata/util/result.h"

namespace strata::parquet::encryption {

enum class ModuleType : uint8_t {
  kFooter = 0,
  kColumnMetaData = 1,
  kDataPage = 2,
  kDictionaryPage = 3,
  kDataPageHeader = 4,
  kDictionaryPageHeader = 5,
  kColumnIndex = 6,
  kOffsetIndex = 7,
  kBloomFilterHeader = 8,
  kBloomFilterBitset = 9,
};

// "footer", "data page header", ...: for error messages.
std::string_view ModuleTypeName(ModuleType type);

// The AAD of one module. Ordinals must fit a signed 16-bit short (the format's limit:
// 32767 row groups, columns, pages per chunk); `page` is used only for data pages and their
// headers.
Result<std::string> ModuleAad(std::string_view file_aad, ModuleType type, int64_t row_group = 0,
                              int64_t column = 0, int64_t page = 0);

}  // namespace strata::parquet::encryption
