#include "strata/parquet/encryption/file_encryptor.h"

#include <openssl/rand.h>

#include <cstring>

namespace strata::parquet {

Status FileEncryptionOptions::Validate() const {
  STRATA_RETURN_NOT_OK(encryption::CheckKey(footer_key, "footer key"));
  for (const auto& [path, column] : column_keys) {
    if (path.empty()) return Status::Invalid("a column key needs a column path");
    STRATA_RETURN_NOT_OK(encryption::CheckKey(column.key, fmt::format("key of column '{}'", path)));
  }
  if (!store_aad_prefix && !aad_prefix) return Status::Invalid("not storing the AAD prefix needs an AAD prefix");
  return Status::OK();
}

}  // namespace strata::parquet

namespace strata::parquet::encryption {
namespace {

// The random part of every module's AAD: 8 bytes, as Arrow and parquet-mr write.
constexpr int kFileUniqueBytes = 8;

}  // namespace

Result<std::shared_ptr<const FileEncryptor>> FileEncryptor::Make(const FileEncryptionOptions& options,
                                                                 std::vector<std::optional<ColumnEncryptor>> columns) {
  STRATA_RETURN_NOT_OK(options.Validate());
  auto encryptor = std::shared_ptr<FileEncryptor>(new FileEncryptor());
  std::string unique(kFileUniqueBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(unique.data()), kFileUniqueBytes) != 1) {
    return Status::IOError("OpenSSL could not make the file's random AAD part");
  }
  EncryptionParameters& parameters = encryptor->parameters_;
  parameters.ctr_pages = options.ctr_pages;
  parameters.algorithm_name = options.ctr_pages ? "AES_GCM_CTR_V1" : "AES_GCM_V1";
  if (options.aad_prefix && options.store_aad_prefix) parameters.aad_prefix = options.aad_prefix;
  parameters.supply_aad_prefix = options.aad_prefix.has_value() && !options.store_aad_prefix;
  parameters.aad_file_unique = unique;
  parameters.footer_key_metadata = options.footer_key_metadata;
  encryptor->page_mode_ = options.ctr_pages ? CipherMode::kCtr : CipherMode::kGcm;
  encryptor->plaintext_footer_ = options.plaintext_footer;
  encryptor->file_aad_ = options.aad_prefix.value_or("") + unique;
  encryptor->footer_key_ = options.footer_key;
  for (const auto& column : columns) {
    if (column) STRATA_RETURN_NOT_OK(CheckKey(column->key, "column key"));
  }
  encryptor->columns_ = std::move(columns);
  return std::shared_ptr<const FileEncryptor>(std::move(encryptor));
}

const ColumnEncryptor* FileEncryptor::column(int column_index) const {
  if (column_index < 0 || static_cast<size_t>(column_index) >= columns_.size()) return nullptr;
  const auto& column = columns_[static_cast<size_t>(column_index)];
  return column ? &*column : nullptr;
}

Status FileEncryptor::Encrypt(ModuleType type, std::string_view key, int64_t row_group, int64_t column, int64_t page,
                              std::span<const uint8_t> plaintext, ResizableBuffer* out) const {
  return Encrypt(type, key, row_group, column, page, plaintext, {}, out);
}

Status FileEncryptor::Encrypt(ModuleType type, std::string_view key, int64_t row_group, int64_t column, int64_t page,
                              std::span<const uint8_t> first, std::span<const uint8_t> second,
                              ResizableBuffer* out) const {
  STRATA_ASSIGN_OR_RETURN(const std::string aad, ModuleAad(file_aad_, type, row_group, column, page));
  const CipherMode mode =
      (type == ModuleType::kDataPage || type == ModuleType::kDictionaryPage) ? page_mode_ : CipherMode::kGcm;
  Status status = EncryptModule(mode, key, aad, first, second, out);
  if (!status.ok()) return status.WithContext(fmt::format("encrypting the {}", ModuleTypeName(type)));
  return Status::OK();
}

Status FileEncryptor::EncryptBloomFilter(std::string_view key, int64_t row_group, int64_t column,
                                         std::span<const uint8_t> filter, int64_t bitset_bytes,
                                         ResizableBuffer* out) const {
  if (bitset_bytes < 0 || static_cast<size_t>(bitset_bytes) > filter.size()) {
    return Status::Invalid("a Bloom filter of {} bytes cannot hold a {}-byte bitset", filter.size(), bitset_bytes);
  }
  const size_t header_bytes = filter.size() - static_cast<size_t>(bitset_bytes);
  STRATA_RETURN_NOT_OK(
      Encrypt(ModuleType::kBloomFilterHeader, key, row_group, column, 0, filter.first(header_bytes), out));
  return Encrypt(ModuleType::kBloomFilterBitset, key, row_group, column, 0, filter.subspan(header_bytes), out);
}

Status FileEncryptor::SignFooter(std::span<const uint8_t> footer, MemoryPool* pool, std::string* out) const {
  uint8_t nonce[kNonceBytes];
  if (RAND_bytes(nonce, static_cast<int>(kNonceBytes)) != 1) return Status::IOError("OpenSSL could not make a nonce");
  STRATA_ASSIGN_OR_RETURN(const std::string aad, ModuleAad(file_aad_, ModuleType::kFooter));
  uint8_t tag[kTagBytes];
  STRATA_RETURN_NOT_OK(GcmTag(footer_key_, aad, nonce, footer, pool, tag));
  out->append(reinterpret_cast<const char*>(nonce), kNonceBytes);
  out->append(reinterpret_cast<const char*>(tag), kTagBytes);
  return Status::OK();
}

}  // namespace strata::parquet::encryption
