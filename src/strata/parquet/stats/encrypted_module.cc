// One encrypted module beyond a chunk's pages, checked, read and decrypted. See encrypted_module.h.
#include "strata/parquet/stats/encrypted_module.h"

#include "strata/parquet/encryption/aes_cipher.h"

namespace strata::parquet {

Result<int64_t> ReadEncryptedModule(RandomAccessSource& source, int64_t offset, int64_t max_bytes,
                                    bool fills_max_bytes, const ColumnDecryption& decryption,
                                    encryption::ModuleType type, MemoryPool* pool, ResizableBuffer* plaintext) {
  auto where = [&] {
    return fmt::format("'{}': {} of column '{}' (row group {}, column {}) at offset {}", source.name(),
                       encryption::ModuleTypeName(type), decryption.column_path, decryption.row_group_ordinal,
                       decryption.column_ordinal, offset);
  };
  // Every module holds its length, a nonce and a GCM tag.
  constexpr int64_t kMinModuleBytes = encryption::ModuleBytes(encryption::CipherMode::kGcm, 0);
  if (max_bytes < kMinModuleBytes) {
    return Status::Corrupt("{}: {} bytes cannot hold an encrypted module (at least {})", where(), max_bytes,
                           kMinModuleBytes);
  }
  ResizableBuffer module(pool);
  int64_t module_bytes = 0;
  if (fills_max_bytes) {
    // The footer gave the module's size: one read, then its own length field must agree.
    STRATA_RETURN_NOT_OK(module.Resize(max_bytes));
    STRATA_RETURN_NOT_OK(source.ReadAt(offset, max_bytes, module.mutable_data()));
    module_bytes = encryption::kLengthBytes + encryption::ModuleLength(module.data());
    if (module_bytes != max_bytes) {
      return Status::Corrupt("{}: the module declares {} bytes (with its length field), the footer {}", where(),
                             module_bytes, max_bytes);
    }
  } else {
    uint8_t length[encryption::kLengthBytes];
    STRATA_RETURN_NOT_OK(source.ReadAt(offset, encryption::kLengthBytes, length));
    module_bytes = encryption::kLengthBytes + encryption::ModuleLength(length);
    if (module_bytes < kMinModuleBytes || module_bytes > max_bytes) {
      return Status::Corrupt("{}: the module declares {} bytes (with its length field), not within [{}, {}]", where(),
                             module_bytes, kMinModuleBytes, max_bytes);
    }
    STRATA_RETURN_NOT_OK(module.Resize(module_bytes));
    STRATA_RETURN_NOT_OK(source.ReadAt(offset, module_bytes, module.mutable_data()));
  }
  auto decrypted = decryption.decryptor->Decrypt(type, decryption.key, decryption.row_group_ordinal,
                                                 decryption.column_ordinal, /*page=*/0, module.span(), offset,
                                                 plaintext);
  if (!decrypted.ok()) return decrypted.status().WithContext(fmt::format("column '{}'", decryption.column_path));
  return module_bytes;
}

}  // namespace strata::parquet
