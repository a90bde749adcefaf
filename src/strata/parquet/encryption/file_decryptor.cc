#include "strata/parquet/encryption/file_decryptor.h"

#include <cstring>

namespace strata::parquet {

Status FileDecryptionOptions::Validate() const {
  if (!footer_key.empty()) STRATA_RETURN_NOT_OK(encryption::CheckKey(footer_key, "footer key"));
  for (const auto& [path, key] : column_keys) {
    STRATA_RETURN_NOT_OK(encryption::CheckKey(key, fmt::format("key of column '{}'", path)));
  }
  return Status::OK();
}

}  // namespace strata::parquet

namespace strata::parquet::encryption {

Result<std::shared_ptr<const FileDecryptor>> FileDecryptor::Make(const EncryptionParameters& algorithm,
                                                                 const FileDecryptionOptions& options,
                                                                 std::string file_name) {
  STRATA_RETURN_NOT_OK(options.Validate());
  const std::optional<std::string>& footer_key_metadata = algorithm.footer_key_metadata;
  auto decryptor = std::shared_ptr<FileDecryptor>(new FileDecryptor());
  decryptor->algorithm_name_ = algorithm.algorithm_name;
  decryptor->page_mode_ = algorithm.ctr_pages ? CipherMode::kCtr : CipherMode::kGcm;
  decryptor->file_name_ = std::move(file_name);
  const std::string& name = decryptor->file_name_;

  std::string prefix;
  if (algorithm.aad_prefix) {
    if (options.aad_prefix && *options.aad_prefix != *algorithm.aad_prefix) {
      return Status::Invalid("file '{}': the AAD prefix given differs from the one the file stores", name);
    }
    prefix = *algorithm.aad_prefix;
  } else if (options.aad_prefix) {
    prefix = *options.aad_prefix;
  } else if (algorithm.supply_aad_prefix) {
    return Status::Invalid("file '{}' was encrypted with an AAD prefix it does not store; give it (--aad-prefix)",
                           name);
  }
  decryptor->file_aad_ = prefix + algorithm.aad_file_unique.value_or("");

  if (!options.footer_key.empty()) {
    decryptor->footer_key_ = options.footer_key;
  } else if (options.key_retriever && footer_key_metadata) {
    auto key = options.key_retriever(*footer_key_metadata);
    if (!key.ok()) return key.status().WithContext(fmt::format("file '{}': the footer key", name));
    STRATA_RETURN_NOT_OK(CheckKey(*key, "footer key the retriever returned"));
    decryptor->footer_key_ = std::move(*key);
  }
  decryptor->column_keys_ = options.column_keys;
  decryptor->key_retriever_ = options.key_retriever;
  return std::shared_ptr<const FileDecryptor>(std::move(decryptor));
}

Result<std::string> FileDecryptor::FooterKey() const {
  if (footer_key_.empty()) {
    return Status::Invalid("file '{}' is encrypted ({}): give the footer key (--footer-key)", file_name_,
                           algorithm_name_);
  }
  return footer_key_;
}

Result<std::string> FileDecryptor::ColumnKey(bool with_footer_key, const std::optional<std::string>& key_metadata,
                                             std::string_view column_path) const {
  if (with_footer_key) {
    if (footer_key_.empty()) {
      return Status::Invalid("file '{}': column '{}' is encrypted with the footer key: give it (--footer-key)",
                             file_name_, column_path);
    }
    return footer_key_;
  }
  if (auto found = column_keys_.find(std::string(column_path)); found != column_keys_.end()) return found->second;
  if (key_retriever_ && key_metadata) {
    auto key = key_retriever_(*key_metadata);
    if (!key.ok()) return key.status().WithContext(fmt::format("file '{}': the key of column '{}'", file_name_, column_path));
    STRATA_RETURN_NOT_OK(CheckKey(*key, fmt::format("key the retriever returned for column '{}'", column_path)));
    return std::move(*key);
  }
  return Status::Invalid("file '{}': column '{}' is encrypted with its own key: give it (--column-key {}:KEY)",
                         file_name_, column_path, column_path);
}

Result<int64_t> FileDecryptor::Decrypt(ModuleType type, std::string_view key, int64_t row_group, int64_t column,
                                       int64_t page, std::span<const uint8_t> module, int64_t file_offset,
                                       ResizableBuffer* out) const {
  const CipherMode mode =
      (type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage) ? page_mode_ : CipherMode::kGcm;
  auto where = [&] {
    const std::string at = file_offset >= 0 ? fmt::format(" at offset {}", file_offset) : "";
    return type == ModuleType::kFooter
               ? fmt::format("file '{}': {}{}", file_name_, ModuleTypeName(type), at)
               : fmt::format("file '{}': {}{} (row group {}, column {})", file_name_, ModuleTypeName(type), at,
                             row_group, column);
  };
  auto aad = without_aad_ ? Result<std::string>(std::string()) : ModuleAad(file_aad_, type, row_group, column, page);
  if (!aad.ok()) return aad.status().WithContext(where());
  auto size = DecryptModule(mode, key, *aad, module, out);
  if (!size.ok()) return size.status().WithContext(where());
  return size;
}

std::shared_ptr<const FileDecryptor> FileDecryptor::WithoutAad() const {
  auto copy = std::shared_ptr<FileDecryptor>(new FileDecryptor(*this));
  copy->without_aad_ = true;
  return copy;
}

Status FileDecryptor::VerifyFooterSignature(std::span<const uint8_t> footer, std::span<const uint8_t> signature,
                                            int64_t file_offset, MemoryPool* pool) const {
  STRATA_ASSIGN_OR_RETURN(const std::string key, FooterKey());
  if (signature.size() != static_cast<size_t>(kNonceBytes + kTagBytes)) {
    return Status::Corrupt("file '{}': the plaintext footer at offset {} is followed by {} bytes, not its 28-byte "
                           "signature",
                           file_name_, file_offset, signature.size());
  }
  STRATA_ASSIGN_OR_RETURN(const std::string aad, ModuleAad(file_aad_, ModuleType::kFooter));
  uint8_t tag[kTagBytes];
  STRATA_RETURN_NOT_OK(GcmTag(key, aad, signature.first(static_cast<size_t>(kNonceBytes)), footer, pool, tag));
  if (std::memcmp(tag, signature.data() + kNonceBytes, kTagBytes) != 0) {
    return Status::Corrupt("file '{}': plaintext footer at offset {}: authentication failed: its signature does not "
                           "verify (wrong footer key, wrong AAD prefix, or the footer was altered)",
                           file_name_, file_offset);
  }
  return Status::OK();
}

}  // namespace strata::parquet::encryption
