// The key and ordinals of an encrypted column chunk. See chunk_decryption.h.
#include "strata/parquet/read/chunk_decryption.h"

#include <fmt/format.h>

namespace strata::parquet {

Result<std::shared_ptr<ColumnDecryption>> FindChunkDecryption(const FileFooter& footer, std::string_view file_name,
                                                              int row_group, int column,
                                                              std::string_view column_path) {
  auto where = [&] { return fmt::format("'{}', column '{}' (row group {})", file_name, column_path, row_group); };
  const ColumnChunk* found = footer.metadata.chunk(row_group, column);
  if (found == nullptr) return Status::Invalid("{}: the footer was decoded without this column", where());
  const ColumnChunk& chunk = *found;
  const RowGroup& rg = footer.metadata.row_groups[static_cast<size_t>(row_group)];
  const auto& decryptor = footer.decryptor;
  // DuckDB's files (their footer opens without an AAD) encrypt every column with the footer
  // key but mark none of them.
  const bool duckdb_uniform = decryptor && decryptor->without_aad() && !chunk.crypto_metadata;
  const bool encrypted = chunk.crypto_metadata || chunk.encrypted_column_metadata || duckdb_uniform;
  if (!encrypted) return std::shared_ptr<ColumnDecryption>();
  auto decryption = std::make_shared<ColumnDecryption>();
  if (duckdb_uniform) {
    STRATA_ASSIGN_OR_RETURN(decryption->key, decryptor->FooterKey());
  } else {
    if (!decryptor) {
      return Status::Invalid("{}: the column is encrypted: give its key (--column-key {}:KEY, or --footer-key)",
                             where(), column_path);
    }
    if (!chunk.crypto_metadata) return Status::Corrupt("{}: encrypted column metadata without crypto metadata", where());
    const auto kind = chunk.crypto_metadata->kind;
    if (kind == ColumnCryptoMetaData::Kind::kUnknown) {
      return Status::NotImplemented("{}: column crypto metadata of an unknown kind (union field {})", where(),
                                    chunk.crypto_metadata->unknown_field_id);
    }
    STRATA_ASSIGN_OR_RETURN(decryption->key,
                            decryptor->ColumnKey(kind == ColumnCryptoMetaData::Kind::kFooterKey,
                                                 chunk.crypto_metadata->key_metadata, column_path));
  }
  decryption->decryptor = decryptor;
  // The AADs carry the writer's ordinals: the row group's own when it stores one.
  decryption->row_group_ordinal = rg.ordinal.value_or(static_cast<int16_t>(row_group));
  decryption->column_ordinal = column;
  decryption->column_path = std::string(column_path);
  return decryption;
}

}  // namespace strata::parquet
