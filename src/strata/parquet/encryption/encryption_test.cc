// The AES modules against published test vectors (NIST GCM test cases 1-2) and an independent
// computation of the CTR keystream (AES-ECB of nonce || 00000001), round trips at every key
// size, and the failures a reader must report: a wrong key, a wrong AAD, altered bytes, a
// length that does not fit. Plus the AAD layout of Encryption.md 4.4.
#include <gtest/gtest.h>

#include <openssl/evp.h>

#include <string>
#include <vector>

#include "strata/parquet/encryption/aes_cipher.h"
#include "strata/parquet/encryption/file_decryptor.h"
#include "strata/parquet/encryption/module_aad.h"

namespace strata::parquet::encryption {
namespace {

std::vector<uint8_t> Hex(std::string_view hex) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

std::string AsString(const std::vector<uint8_t>& bytes) { return {bytes.begin(), bytes.end()}; }

std::span<const uint8_t> Span(const std::string& text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

TEST(AesCipherTest, GcmTagMatchesNistTestCases) {
  auto pool = MakeSystemMemoryPool();
  const std::string key = AsString(Hex("00000000000000000000000000000000"));
  const std::vector<uint8_t> nonce = Hex("000000000000000000000000");
  uint8_t tag[kTagBytes];
  // Test case 1: empty plaintext.
  ASSERT_TRUE(GcmTag(key, "", nonce, {}, pool.get(), tag).ok());
  EXPECT_EQ(std::vector<uint8_t>(tag, tag + kTagBytes), Hex("58e2fccefa7e3061367f1d57a4e7455a"));
  // Test case 2: 16 zero bytes.
  const std::vector<uint8_t> zeros(16, 0);
  ASSERT_TRUE(GcmTag(key, "", nonce, zeros, pool.get(), tag).ok());
  EXPECT_EQ(std::vector<uint8_t>(tag, tag + kTagBytes), Hex("ab6e47d42cec13bdf53a67b21257bddf"));
}

TEST(AesCipherTest, GcmModuleLayoutMatchesNistTestCase2) {
  // Decrypting a module built by hand from test case 2: length, nonce, ciphertext, tag.
  auto pool = MakeSystemMemoryPool();
  const std::string key = AsString(Hex("00000000000000000000000000000000"));
  std::vector<uint8_t> module = {16 + 12 + 16, 0, 0, 0};
  for (uint8_t b : Hex("000000000000000000000000")) module.push_back(b);
  for (uint8_t b : Hex("0388dace60b6a392f328c2b971b2fe78")) module.push_back(b);
  for (uint8_t b : Hex("ab6e47d42cec13bdf53a67b21257bddf")) module.push_back(b);
  ResizableBuffer out(pool.get());
  auto size = DecryptModule(CipherMode::kGcm, key, "", module, &out);
  ASSERT_TRUE(size.ok()) << size.status().ToString();
  EXPECT_EQ(*size, static_cast<int64_t>(module.size()));
  EXPECT_EQ(std::vector<uint8_t>(out.data(), out.data() + out.size()), std::vector<uint8_t>(16, 0));
}

TEST(AesCipherTest, CtrKeystreamStartsAtCounterOne) {
  auto pool = MakeSystemMemoryPool();
  const std::string key = AsString(Hex("2b7e151628aed2a6abf7158809cf4f3c"));
  const std::string plaintext(40, 'p');
  ResizableBuffer module(pool.get());
  ASSERT_TRUE(EncryptModule(CipherMode::kCtr, key, "", Span(plaintext), &module).ok());
  ASSERT_EQ(module.size(), ModuleBytes(CipherMode::kCtr, 40));
  const uint8_t* nonce = module.data() + kLengthBytes;
  const uint8_t* ciphertext = nonce + kNonceBytes;
  // Keystream block k = AES-ECB(key, nonce || big-endian 32-bit (1 + k)).
  EVP_CIPHER_CTX* ecb = EVP_CIPHER_CTX_new();
  ASSERT_EQ(EVP_EncryptInit_ex(ecb, EVP_aes_128_ecb(), nullptr, reinterpret_cast<const uint8_t*>(key.data()), nullptr), 1);
  EVP_CIPHER_CTX_set_padding(ecb, 0);
  for (int block = 0; block < 3; ++block) {
    uint8_t counter[16];
    std::memcpy(counter, nonce, 12);
    counter[12] = counter[13] = counter[14] = 0;
    counter[15] = static_cast<uint8_t>(1 + block);
    uint8_t stream[16];
    int n = 0;
    ASSERT_EQ(EVP_EncryptUpdate(ecb, stream, &n, counter, 16), 1);
    for (int i = 0; i < 16 && block * 16 + i < 40; ++i) {
      EXPECT_EQ(ciphertext[block * 16 + i], static_cast<uint8_t>(stream[i] ^ 'p')) << block << " " << i;
    }
  }
  EVP_CIPHER_CTX_free(ecb);
}

TEST(AesCipherTest, RoundTripsAtEveryKeySizeAndRefusesAlteredModules) {
  auto pool = MakeSystemMemoryPool();
  const std::string plaintext = "a page of values, compressed and then encrypted";
  for (size_t key_bytes : {16u, 24u, 32u}) {
    const std::string key(key_bytes, 'k');
    for (CipherMode mode : {CipherMode::kGcm, CipherMode::kCtr}) {
      ResizableBuffer module(pool.get());
      ASSERT_TRUE(EncryptModule(mode, key, "aad", Span(plaintext), &module).ok());
      ResizableBuffer out(pool.get());
      std::span<const uint8_t> bytes(module.data(), static_cast<size_t>(module.size()));
      auto size = DecryptModule(mode, key, "aad", bytes, &out);
      ASSERT_TRUE(size.ok()) << size.status().ToString();
      EXPECT_EQ(std::string(reinterpret_cast<const char*>(out.data()), static_cast<size_t>(out.size())), plaintext);
      if (mode == CipherMode::kCtr) continue;  // CTR does not authenticate
      const std::string wrong_key(key_bytes, 'x');
      auto refused = DecryptModule(mode, wrong_key, "aad", bytes, &out);
      EXPECT_TRUE(refused.status().IsCorrupt()) << refused.status().ToString();
      EXPECT_NE(refused.status().message().find("authentication failed"), std::string::npos);
      EXPECT_TRUE(DecryptModule(mode, key, "other aad", bytes, &out).status().IsCorrupt());
      std::vector<uint8_t> altered(bytes.begin(), bytes.end());
      altered[kLengthBytes + kNonceBytes + 3] ^= 0x01;
      EXPECT_TRUE(DecryptModule(mode, key, "aad", altered, &out).status().IsCorrupt());
    }
  }
}

TEST(AesCipherTest, ModuleLengthsAndKeysAreChecked) {
  auto pool = MakeSystemMemoryPool();
  ResizableBuffer out(pool.get());
  const std::string key(16, 'k');
  const std::vector<uint8_t> short_module = {200, 0, 0, 0, 1, 2, 3};
  auto refused = DecryptModule(CipherMode::kGcm, key, "", short_module, &out);
  EXPECT_TRUE(refused.status().IsCorrupt());
  EXPECT_NE(refused.status().message().find("declares 200 bytes; 3 are there"), std::string::npos)
      << refused.status().ToString();
  EXPECT_TRUE(DecryptModule(CipherMode::kGcm, key, "", std::vector<uint8_t>{1, 2}, &out).status().IsCorrupt());
  auto bad_key = DecryptModule(CipherMode::kGcm, std::string(15, 'k'), "", short_module, &out);
  EXPECT_TRUE(bad_key.status().IsCorrupt() || bad_key.status().code() == StatusCode::kInvalid);
  EXPECT_FALSE(CheckKey(std::string(15, 'k'), "footer key").ok());
  EXPECT_TRUE(CheckKey(std::string(32, 'k'), "footer key").ok());
}

TEST(ModuleAadTest, LayoutFollowsTheSpec) {
  const std::string file_aad = "prefixUNIQ";
  EXPECT_EQ(*ModuleAad(file_aad, ModuleType::kFooter), file_aad + std::string(1, '\0'));
  EXPECT_EQ(*ModuleAad(file_aad, ModuleType::kColumnMetaData, 2, 3),
            file_aad + std::string("\x01\x02\x00\x03\x00", 5));
  EXPECT_EQ(*ModuleAad(file_aad, ModuleType::kDataPage, 1, 0x0102, 0x0304),
            file_aad + std::string("\x02\x01\x00\x02\x01\x04\x03", 7));
  // Dictionary pages carry no page ordinal.
  EXPECT_EQ(*ModuleAad(file_aad, ModuleType::kDictionaryPageHeader, 0, 0, 9), file_aad + std::string("\x05\0\0\0\0", 5));
  EXPECT_TRUE(ModuleAad(file_aad, ModuleType::kDataPage, 0, 0, 32768).status().IsLimitExceeded());
}

TEST(FileDecryptorTest, KeysComeFromOptionsThenTheRetrieverAndErrorsNameTheColumn) {
  FileDecryptionOptions options;
  options.footer_key = std::string(16, 'f');
  options.column_keys["a.b"] = std::string(16, 'a');
  options.key_retriever = [](std::string_view metadata) -> Result<std::string> {
    if (metadata == "kc2") return std::string(16, '2');
    return Status::Invalid("no key for '{}'", metadata);
  };
  EncryptionParameters parameters;
  parameters.algorithm_name = "AES_GCM_V1";
  parameters.aad_file_unique = "u";
  auto decryptor = FileDecryptor::Make(parameters, options, "f.parquet");
  ASSERT_TRUE(decryptor.ok()) << decryptor.status().ToString();
  EXPECT_EQ(*(*decryptor)->ColumnKey(true, std::nullopt, "x"), std::string(16, 'f'));
  EXPECT_EQ(*(*decryptor)->ColumnKey(false, std::nullopt, "a.b"), std::string(16, 'a'));
  EXPECT_EQ(*(*decryptor)->ColumnKey(false, std::string("kc2"), "c"), std::string(16, '2'));
  auto missing = (*decryptor)->ColumnKey(false, std::nullopt, "d");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("column 'd' is encrypted with its own key"), std::string::npos);
  EXPECT_EQ(missing.status().message().find(std::string(16, 'f')), std::string::npos) << "no key material in errors";

  // A prefix the writer did not store must be given; one it stored must match.
  parameters.supply_aad_prefix = true;
  EXPECT_FALSE(FileDecryptor::Make(parameters, FileDecryptionOptions{}, "f.parquet").ok());
  parameters.supply_aad_prefix = false;
  parameters.aad_prefix = "tester";
  FileDecryptionOptions other;
  other.aad_prefix = "someone else";
  auto mismatch = FileDecryptor::Make(parameters, other, "f.parquet");
  EXPECT_FALSE(mismatch.ok());
}

}  // namespace
}  // namespace strata::parquet::encryption
