// Which key and AAD ordinals an encrypted column chunk's modules use, from the footer alone:
// the footer key (ENCRYPTION_WITH_FOOTER_KEY, or DuckDB's uniformly encrypted files, whose
// columns carry no crypto metadata), else the column's own key. The file reader's page
// readers, page index and Bloom filter accessors use it, and so does `strata meta`, which
// reads only the footer.
#pragma once

#include <memory>
#include <string_view>

#include "strata/parquet/encryption/column_decryption.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/util/result.h"

namespace strata::parquet {

// The decryption of leaf column `column` (counted in the file, as FileMetaData::chunk counts)
// of row group `row_group`; the AAD's column ordinal is that index. nullptr when the chunk is
// not encrypted. Invalid naming the column (`column_path`, dotted) and how to give its key when
// the key is not known, or when the footer was decoded without that column; NotImplemented for
// crypto metadata of an unknown kind. The result shares the footer's decryptor.
// has_dictionary_page is left false (the page reader's concern).
Result<std::shared_ptr<ColumnDecryption>> FindChunkDecryption(const FileFooter& footer, std::string_view file_name,
                                                              int row_group, int column,
                                                              std::string_view column_path);

}  // namespace strata::parquet
