// PageEncryption: the PageSealer of an encrypted column (Parquet modular encryption, AES-GCM
// modules). It counts the chunk's data pages for their AADs; the dictionary page is ordinal 0
// and not counted.
#pragma once

#include <string>

#include "strata/parquet/encryption/file_encryptor.h"
#include "strata/parquet/write/page_sealer.h"

namespace strata::parquet {

class PageEncryption final : public PageSealer {
 public:
  // `encryptor` must outlive this; `column` is the column's ordinal in the file.
  PageEncryption(const encryption::FileEncryptor* encryptor, std::string key, int64_t column);

  void StartChunk(int64_t row_group) override;
  Status SealPage(PageKind kind, std::span<const uint8_t> first, std::span<const uint8_t> second,
                  ResizableBuffer* module) override;
  Status SealHeader(PageKind kind, std::span<const uint8_t> header, ResizableBuffer* module) override;

 private:
  const encryption::FileEncryptor* encryptor_;
  std::string key_;
  int64_t column_;
  int64_t row_group_ = 0;
  int64_t data_pages_ = 0;  // the chunk's data pages so far
};

}  // namespace strata::parquet
