// The encryption state of one file being written: its algorithm (with a fresh random file id
// in the AAD), the footer key, and each column's key. Shared (read-only) by the file writer
// and every column writer; each module gets a fresh random nonce.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "strata/memory/buffer.h"
#include "strata/parquet/encryption/aes_cipher.h"
#include "strata/parquet/encryption/encryption_options.h"
#include "strata/parquet/encryption/encryption_parameters.h"
#include "strata/parquet/encryption/module_aad.h"

namespace strata::parquet::encryption {

// How one column chunk is encrypted.
struct ColumnEncryptor {
  std::string key;
  bool with_footer_key = false;
  std::optional<std::string> key_metadata;
  std::vector<std::string> path;  // path_in_schema
};

class FileEncryptor {
 public:
  // `columns`: each leaf's encryption (nullopt: plaintext), as the writer resolved it from
  // options.column_keys; a key of the wrong size is Invalid.
  static Result<std::shared_ptr<const FileEncryptor>> Make(const FileEncryptionOptions& options,
                                                           std::vector<std::optional<ColumnEncryptor>> columns);

  bool plaintext_footer() const { return plaintext_footer_; }
  // The algorithm to store (FileCryptoMetaData, or a plaintext footer's FileMetaData), with a
  // fresh random aad_file_unique, and the footer key's metadata.
  const EncryptionParameters& parameters() const { return parameters_; }
  const std::string& footer_key() const { return footer_key_; }
  // Pages use CTR under AES_GCM_CTR_V1; every other module is GCM.
  CipherMode page_mode() const { return page_mode_; }
  // The column's encryption, or nullptr for a plaintext column.
  const ColumnEncryptor* column(int column_index) const;

  // Appends the module of `plaintext` (AAD from the type and ordinals, Encryption.md 4.4) to
  // `out`. Data and dictionary pages use page_mode(); everything else GCM.
  Status Encrypt(ModuleType type, std::string_view key, int64_t row_group, int64_t column, int64_t page,
                 std::span<const uint8_t> plaintext, ResizableBuffer* out) const;
  // The same, over a plaintext in two pieces (a v2 page's levels and values), without a copy.
  Status Encrypt(ModuleType type, std::string_view key, int64_t row_group, int64_t column, int64_t page,
                 std::span<const uint8_t> first, std::span<const uint8_t> second, ResizableBuffer* out) const;

  // A serialized Bloom filter (header, then `bitset_bytes` of bitset) as its two modules.
  Status EncryptBloomFilter(std::string_view key, int64_t row_group, int64_t column, std::span<const uint8_t> filter,
                            int64_t bitset_bytes, ResizableBuffer* out) const;

  // A plaintext footer's signature: a fresh nonce and the GCM tag of `footer` (the serialized
  // FileMetaData) under the footer key, 28 bytes appended to `out`.
  Status SignFooter(std::span<const uint8_t> footer, MemoryPool* pool, std::string* out) const;

 private:
  FileEncryptor() = default;

  EncryptionParameters parameters_;
  CipherMode page_mode_ = CipherMode::kGcm;
  bool plaintext_footer_ = false;
  std::string file_aad_;  // AAD prefix + aad_file_unique
  std::string footer_key_;
  std::vector<std::optional<ColumnEncryptor>> columns_;
};

}  // namespace strata::parquet::encryption
