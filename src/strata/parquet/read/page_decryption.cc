#include "strata/parquet/read/page_decryption.h"

#include "strata/parquet/encryption/aes_cipher.h"

namespace strata::parquet {

PageDecryption::PageDecryption(std::shared_ptr<const ColumnDecryption> decryption)
    : decryption_(std::move(decryption)) {}

int64_t PageDecryption::length_prefix_bytes() const { return encryption::kLengthBytes; }

int64_t PageDecryption::ModuleBytes(const uint8_t* prefix) const {
  return encryption::kLengthBytes + encryption::ModuleLength(prefix);
}

int64_t PageDecryption::page_overhead() const {
  return encryption::ModuleBytes(decryption_->decryptor->page_mode(), 0);
}

Status PageDecryption::OpenHeader(std::span<const uint8_t> module, int64_t file_offset, ResizableBuffer* plaintext) {
  // A chunk with a dictionary starts with it; data page headers count from 0 after it.
  current_is_dictionary_ = decryption_->has_dictionary_page && pages_ == 0;
  const auto type = current_is_dictionary_ ? encryption::ModuleType::kDictionaryPageHeader
                                           : encryption::ModuleType::kDataPageHeader;
  return decryption_->decryptor
      ->Decrypt(type, decryption_->key, decryption_->row_group_ordinal, decryption_->column_ordinal,
                data_page_ordinal_, module, file_offset, plaintext)
      .status();
}

Result<int64_t> PageDecryption::OpenPage(std::span<const uint8_t> module, int64_t file_offset,
                                         ResizableBuffer* plaintext) {
  const auto type = current_is_dictionary_ ? encryption::ModuleType::kDictionaryPage : encryption::ModuleType::kDataPage;
  STRATA_ASSIGN_OR_RETURN(const int64_t module_bytes,
                          decryption_->decryptor->Decrypt(type, decryption_->key, decryption_->row_group_ordinal,
                                                          decryption_->column_ordinal, data_page_ordinal_, module,
                                                          file_offset, plaintext));
  PageDone();
  return module_bytes;
}

void PageDecryption::PagePassedOver() { PageDone(); }

void PageDecryption::PageDone() {
  ++pages_;
  if (!current_is_dictionary_) ++data_page_ordinal_;
}

Result<std::unique_ptr<PageReader>> OpenPageReader(RandomAccessSource* source, ColumnChunkLocation location,
                                                   MemoryPool* pool, const PageReadOptions& options) {
  std::unique_ptr<PageModules> modules;
  if (location.decryption) modules = std::make_unique<PageDecryption>(location.decryption);
  return PageReader::Make(source, std::move(location), pool, options, std::move(modules));
}

}  // namespace strata::parquet
