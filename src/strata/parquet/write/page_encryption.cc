#include "strata/parquet/write/page_encryption.h"

#include "strata/parquet/encryption/aes_cipher.h"

namespace strata::parquet {

PageEncryption::PageEncryption(const encryption::FileEncryptor* encryptor, std::string key, int64_t column)
    : encryptor_(encryptor), key_(std::move(key)), column_(column) {}

void PageEncryption::StartChunk(int64_t row_group) {
  row_group_ = row_group;
  data_pages_ = 0;
}

Status PageEncryption::SealPage(PageKind kind, std::span<const uint8_t> first, std::span<const uint8_t> second,
                                ResizableBuffer* module) {
  module->Clear();
  // Scratch reused page after page: sized once the largest page has come (no regrowth).
  STRATA_RETURN_NOT_OK(module->ReserveScratch(
      encryption::ModuleBytes(encryption::CipherMode::kGcm, static_cast<int64_t>(first.size() + second.size()))));
  if (kind == PageKind::kDictionary) {
    // A dictionary page is one piece (`second` is empty).
    return encryptor_->Encrypt(encryption::ModuleType::kDictionaryPage, key_, row_group_, column_, 0, first, module);
  }
  return encryptor_->Encrypt(encryption::ModuleType::kDataPage, key_, row_group_, column_, data_pages_, first, second,
                             module);
}

Status PageEncryption::SealHeader(PageKind kind, std::span<const uint8_t> header, ResizableBuffer* module) {
  module->Clear();
  STRATA_RETURN_NOT_OK(module->ReserveScratch(
      encryption::ModuleBytes(encryption::CipherMode::kGcm, static_cast<int64_t>(header.size()))));
  if (kind == PageKind::kDictionary) {
    return encryptor_->Encrypt(encryption::ModuleType::kDictionaryPageHeader, key_, row_group_, column_, 0, header,
                               module);
  }
  STRATA_RETURN_NOT_OK(encryptor_->Encrypt(encryption::ModuleType::kDataPageHeader, key_, row_group_, column_,
                                           data_pages_, header, module));
  ++data_pages_;
  return Status::OK();
}

}  // namespace strata::parquet
