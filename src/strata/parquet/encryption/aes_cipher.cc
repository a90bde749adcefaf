#include "strata/parquet/encryption/aes_cipher.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstring>
#include <limits>
#include <memory>

namespace strata::parquet::encryption {
namespace {

struct ContextDeleter {
  void operator()(EVP_CIPHER_CTX* context) const { EVP_CIPHER_CTX_free(context); }
};
using Context = std::unique_ptr<EVP_CIPHER_CTX, ContextDeleter>;

const EVP_CIPHER* Cipher(CipherMode mode, size_t key_bytes) {
  const bool gcm = mode == CipherMode::kGcm;
  switch (key_bytes) {
    case 16: return gcm ? EVP_aes_128_gcm() : EVP_aes_128_ctr();
    case 24: return gcm ? EVP_aes_192_gcm() : EVP_aes_192_ctr();
    case 32: return gcm ? EVP_aes_256_gcm() : EVP_aes_256_ctr();
    default: return nullptr;
  }
}

const unsigned char* Bytes(std::string_view text) { return reinterpret_cast<const unsigned char*>(text.data()); }

// A 16-byte CTR IV: the nonce, then a 32-bit counter starting at 1 (Encryption.md 4.2.2).
void CtrIv(const uint8_t* nonce, uint8_t iv[16]) {
  std::memcpy(iv, nonce, kNonceBytes);
  iv[12] = 0;
  iv[13] = 0;
  iv[14] = 0;
  iv[15] = 1;
}

// Runs the cipher over `in` then `in2` (its continuation, may be empty) into `out` (their
// length), with the AAD first for GCM.
Status Crypt(bool encrypt, CipherMode mode, std::string_view key, std::string_view aad, const uint8_t* nonce,
             std::span<const uint8_t> in, std::span<const uint8_t> in2, uint8_t* out, uint8_t* tag) {
  STRATA_RETURN_NOT_OK(CheckKey(key, "key"));
  for (std::span<const uint8_t> piece : {in, in2}) {
    if (piece.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
      return Status::LimitExceeded("an encrypted module of {} bytes is larger than OpenSSL takes in one call",
                                   piece.size());
    }
  }
  Context context(EVP_CIPHER_CTX_new());
  if (!context) return Status::OutOfMemory("OpenSSL could not allocate a cipher context");
  uint8_t iv[16];
  const uint8_t* iv_bytes = nonce;
  if (mode == CipherMode::kCtr) {
    CtrIv(nonce, iv);
    iv_bytes = iv;
  }
  auto init = encrypt ? EVP_EncryptInit_ex : EVP_DecryptInit_ex;
  auto update = encrypt ? EVP_EncryptUpdate : EVP_DecryptUpdate;
  if (init(context.get(), Cipher(mode, key.size()), nullptr, nullptr, nullptr) != 1 ||
      (mode == CipherMode::kGcm &&
       EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(kNonceBytes), nullptr) != 1) ||
      init(context.get(), nullptr, nullptr, Bytes(key), iv_bytes) != 1) {
    return Status::Invalid("OpenSSL refused the AES key or nonce");
  }
  int written = 0;
  if (mode == CipherMode::kGcm && !aad.empty() &&
      update(context.get(), nullptr, &written, Bytes(aad), static_cast<int>(aad.size())) != 1) {
    return Status::Invalid("OpenSSL refused the AAD");
  }
  int produced = 0;
  for (std::span<const uint8_t> piece : {in, in2}) {
    int piece_produced = 0;
    if (!piece.empty() &&
        update(context.get(), out + produced, &piece_produced, piece.data(), static_cast<int>(piece.size())) != 1) {
      return Status::Invalid("AES {} failed", encrypt ? "encryption" : "decryption");
    }
    produced += piece_produced;
  }
  if (mode == CipherMode::kGcm && !encrypt &&
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(kTagBytes), tag) != 1) {
    return Status::Invalid("OpenSSL refused the GCM tag");
  }
  int final_bytes = 0;
  const int finished = encrypt ? EVP_EncryptFinal_ex(context.get(), out + produced, &final_bytes)
                               : EVP_DecryptFinal_ex(context.get(), out + produced, &final_bytes);
  if (finished != 1) {
    // Only GCM decryption can fail here: the tag did not verify.
    return Status::Corrupt("authentication failed: wrong key, wrong AAD prefix, or the bytes were altered");
  }
  if (mode == CipherMode::kGcm && encrypt &&
      EVP_CIPHER_CTX_ctrl(context.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(kTagBytes), tag) != 1) {
    return Status::Invalid("OpenSSL did not give the GCM tag");
  }
  return Status::OK();
}

}  // namespace

Status CheckKey(std::string_view key, std::string_view what) {
  if (key.size() == 16 || key.size() == 24 || key.size() == 32) return Status::OK();
  return Status::Invalid("the {} has {} bytes; AES keys have 16, 24 or 32", what, key.size());
}

Result<int64_t> DecryptModule(CipherMode mode, std::string_view key, std::string_view aad,
                              std::span<const uint8_t> module, ResizableBuffer* out) {
  const int64_t available = static_cast<int64_t>(module.size());
  if (available < kLengthBytes) {
    return Status::Corrupt("encrypted module: {} bytes cannot hold its 4-byte length", available);
  }
  const int64_t length = ModuleLength(module.data());
  const int64_t overhead = kNonceBytes + (mode == CipherMode::kGcm ? kTagBytes : 0);
  if (length < overhead || length > available - kLengthBytes) {
    return Status::Corrupt("encrypted module declares {} bytes; {} are there and at least {} are needed", length,
                           available - kLengthBytes, overhead);
  }
  const uint8_t* nonce = module.data() + kLengthBytes;
  const int64_t plaintext_bytes = length - overhead;
  STRATA_RETURN_NOT_OK(out->ReserveScratch(plaintext_bytes));
  out->set_size(plaintext_bytes);
  uint8_t tag[kTagBytes];
  if (mode == CipherMode::kGcm) std::memcpy(tag, nonce + kNonceBytes + plaintext_bytes, kTagBytes);
  STRATA_RETURN_NOT_OK(Crypt(false, mode, key, aad, nonce,
                             module.subspan(static_cast<size_t>(kLengthBytes + kNonceBytes),
                                            static_cast<size_t>(plaintext_bytes)),
                             {}, out->mutable_data(), tag));
  return kLengthBytes + length;
}

Status EncryptModule(CipherMode mode, std::string_view key, std::string_view aad, std::span<const uint8_t> plaintext,
                     ResizableBuffer* out) {
  return EncryptModule(mode, key, aad, plaintext, {}, out);
}

Status EncryptModule(CipherMode mode, std::string_view key, std::string_view aad, std::span<const uint8_t> plaintext,
                     std::span<const uint8_t> continuation, ResizableBuffer* out) {
  const int64_t plaintext_bytes = static_cast<int64_t>(plaintext.size() + continuation.size());
  const int64_t length = ModuleBytes(mode, plaintext_bytes) - kLengthBytes;
  if (length > std::numeric_limits<int32_t>::max()) {
    return Status::LimitExceeded("a module of {} bytes does not fit a 4-byte length", plaintext_bytes);
  }
  const int64_t start = out->size();
  // `out` may collect many modules (a page index): amortised growth, never one per module.
  if (start + kLengthBytes + length > out->capacity()) {
    STRATA_RETURN_NOT_OK(out->GrowForAppend(start + kLengthBytes + length));
  }
  out->set_size(start + kLengthBytes + length);
  uint8_t* module = out->mutable_data() + start;
  for (int i = 0; i < 4; ++i) module[i] = static_cast<uint8_t>(length >> (8 * i));
  uint8_t* nonce = module + kLengthBytes;
  if (RAND_bytes(nonce, static_cast<int>(kNonceBytes)) != 1) return Status::IOError("OpenSSL could not make a nonce");
  uint8_t* ciphertext = nonce + kNonceBytes;
  return Crypt(true, mode, key, aad, nonce, plaintext, continuation, ciphertext,
               mode == CipherMode::kGcm ? ciphertext + plaintext_bytes : nullptr);
}

Status GcmTag(std::string_view key, std::string_view aad, std::span<const uint8_t> nonce,
              std::span<const uint8_t> plaintext, MemoryPool* pool, uint8_t tag[kTagBytes]) {
  if (nonce.size() != static_cast<size_t>(kNonceBytes)) {
    return Status::Invalid("a GCM nonce has 12 bytes, not {}", nonce.size());
  }
  ResizableBuffer ciphertext(pool);  // computed, then dropped: only the tag is kept
  STRATA_RETURN_NOT_OK(ciphertext.Resize(static_cast<int64_t>(plaintext.size())));
  return Crypt(true, CipherMode::kGcm, key, aad, nonce.data(), plaintext, {}, ciphertext.mutable_data(), tag);
}

}  // namespace strata::parquet::encryption
