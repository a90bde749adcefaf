// How one encrypted column chunk's modules are decrypted: the file's decryptor, the column's
// key, and the ordinals its module AADs carry. Made by the file reader (or, from a footer
// alone, FindChunkDecryption in parquet/chunk_decryption.h) and handed to the page reader and
// to the page index and Bloom filter readers (parquet/stats/), which sit below the reader.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "strata/parquet/encryption/file_decryptor.h"

namespace strata::parquet {

struct ColumnDecryption {
  std::shared_ptr<const encryption::FileDecryptor> decryptor;
  std::string key;
  // The file's ordinals, as the writer put them in the AADs: RowGroup.ordinal (else the row
  // group's position in the footer) and the column's position in the row group; never a
  // position within a selection of row groups or columns.
  int64_t row_group_ordinal = 0;
  int64_t column_ordinal = 0;
  bool has_dictionary_page = false;  // the chunk's first page is its dictionary
  std::string column_path;           // dotted, for error messages
};

}  // namespace strata::parquet
