// AES-GCM and AES-CTR on OpenSSL's EVP interface, in the module layout of Parquet modular
// encryption (Encryption.md 5.1): a 4-byte little-endian length, then a 12-byte nonce, the
// ciphertext, and for GCM a 16-byte tag. Keys of 16, 24 or 32 bytes (AES-128/192/256).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "strata/memory/buffer.h"
#include "strata/util/result.h"

namespace strata::parquet::encryption {

inline constexpr int64_t kLengthBytes = 4;
inline constexpr int64_t kNonceBytes = 12;
inline constexpr int64_t kTagBytes = 16;

// GCM authenticates (ciphertext and AAD); CTR only encrypts (AES_GCM_CTR_V1 pages).
enum class CipherMode { kGcm, kCtr };

// Invalid unless the key is 16, 24 or 32 bytes; `what` names it ("footer key").
Status CheckKey(std::string_view key, std::string_view what);

// The 4-byte little-endian length that starts a module: the bytes after it.
inline int64_t ModuleLength(const uint8_t* module) {
  return static_cast<int64_t>(module[0]) | (static_cast<int64_t>(module[1]) << 8) |
         (static_cast<int64_t>(module[2]) << 16) | (static_cast<int64_t>(module[3]) << 24);
}

// Bytes a module of `plaintext_bytes` takes, length field included.
constexpr int64_t ModuleBytes(CipherMode mode, int64_t plaintext_bytes) {
  return kLengthBytes + kNonceBytes + plaintext_bytes + (mode == CipherMode::kGcm ? kTagBytes : 0);
}

// Decrypts the module at the start of `module` (its length field says how long it is; it must
// fit) into `out` (resized to the plaintext). Returns the module's bytes, length field
// included. A GCM tag that does not verify (wrong key, wrong AAD, tampered bytes) is Corrupt.
Result<int64_t> DecryptModule(CipherMode mode, std::string_view key, std::string_view aad,
                              std::span<const uint8_t> module, ResizableBuffer* out);

// Appends the module of `plaintext` (a fresh random nonce) to `out`.
Status EncryptModule(CipherMode mode, std::string_view key, std::string_view aad, std::span<const uint8_t> plaintext,
                     ResizableBuffer* out);
// The module of `plaintext` followed by `continuation`, without joining them first.
Status EncryptModule(CipherMode mode, std::string_view key, std::string_view aad, std::span<const uint8_t> plaintext,
                     std::span<const uint8_t> continuation, ResizableBuffer* out);

// GCM of `plaintext` with a given nonce: the 16-byte tag only (a plaintext footer's signature).
Status GcmTag(std::string_view key, std::string_view aad, std::span<const uint8_t> nonce,
              std::span<const uint8_t> plaintext, MemoryPool* pool, uint8_t tag[kTagBytes]);

}  // namespace strata::parquet::encryption
