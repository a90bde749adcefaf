// The decryption state of one encrypted file: its algorithm, its AAD, the footer key, and how
// each column's key is found. Shared (read-only) by the footer reader and every page reader.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "strata/memory/buffer.h"
#include "strata/parquet/encryption/aes_cipher.h"
#include "strata/parquet/encryption/decryption_options.h"
#include "strata/parquet/encryption/encryption_parameters.h"
#include "strata/parquet/encryption/module_aad.h"

namespace strata::parquet::encryption {

class FileDecryptor {
 public:
  static Result<std::shared_ptr<const FileDecryptor>> Make(const EncryptionParameters& parameters,
                                                           const FileDecryptionOptions& options,
                                                           std::string file_name);

  const std::string& algorithm_name() const { return algorithm_name_; }
  // Pages use CTR under AES_GCM_CTR_V1; every other module is GCM.
  CipherMode page_mode() const { return page_mode_; }
  bool has_footer_key() const { return !footer_key_.empty(); }
  // The footer key, or Invalid saying how to give it.
  Result<std::string> FooterKey() const;
  // The key of a column chunk: the footer key, or the column's own (given by path, or found
  // by the retriever from `key_metadata`); Invalid naming the column when there is none.
  Result<std::string> ColumnKey(bool with_footer_key, const std::optional<std::string>& key_metadata,
                                std::string_view column_path) const;

  // Decrypts the module at the start of `module` (type, ordinals as Encryption.md 4.4) into
  // `out`; returns the module's size. Errors name the file, the module and its offset (-1:
  // inside the footer, no offset of its own).
  Result<int64_t> Decrypt(ModuleType type, std::string_view key, int64_t row_group, int64_t column, int64_t page,
                          std::span<const uint8_t> module, int64_t file_offset, ResizableBuffer* out) const;

  // DuckDB (1.x) writes AES_GCM_V1 files with no AAD at all: no file id, no prefix, and not
  // the module suffix the spec requires. Such a file's footer authenticates only with an
  // empty AAD; for a file that stores no AAD of its own (no prefix, no file id), the footer
  // reader then switches to this decryptor, which uses an empty AAD for every module.
  bool may_lack_aad() const { return file_aad_.empty(); }
  std::shared_ptr<const FileDecryptor> WithoutAad() const;
  bool without_aad() const { return without_aad_; }

  // Verifies a plaintext footer: `footer` is the serialized FileMetaData, `signature` the
  // 28 bytes after it (nonce, GCM tag).
  Status VerifyFooterSignature(std::span<const uint8_t> footer, std::span<const uint8_t> signature,
                               int64_t file_offset, MemoryPool* pool) const;

 private:
  FileDecryptor() = default;

  std::string algorithm_name_;
  CipherMode page_mode_ = CipherMode::kGcm;
  std::string file_aad_;  // AAD prefix + aad_file_unique
  bool without_aad_ = false;
  std::string footer_key_;
  std::map<std::string, std::string> column_keys_;
  std::function<Result<std::string>(std::string_view)> key_retriever_;
  std::string file_name_;
};

}  // namespace strata::parquet::encryption
