// Keys wrapped by parquet-mr's / Arrow's key tools: single and double wrapping, internal and
// external key material, and the errors when a master key, a reference or the material file
// is missing or wrong. The expected data keys were computed independently (Python's
// `cryptography` AES-GCM over the same JSON).
#include "strata/parquet/encryption/key_material.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "strata/testing/test_data.h"

namespace strata::parquet::encryption {
namespace {

std::string Hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

const std::map<std::string, std::string> kMasterKeys = {
    {"kf", "0123456789012345"}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}};

TEST(KeyMaterialTest, SingleWrappedInternalMaterialUnwraps) {
  // bytes 0..15 wrapped under kc1 with AAD "kc1", nonce all zero.
  const std::string material =
      R"({"keyMaterialType": "PKMT1", "internalStorage": true, "isFooterKey": false, "masterKeyID": "kc1", )"
      R"("wrappedDEK": "AAAAAAAAAAAAAAAA1J3WJkcOrh8JkT88hwZQBNCDU7Dc5LhgwKuKtn9yPB0=", "doubleWrapping": false})";
  auto key = UnwrapKeyMaterial(material, kMasterKeys, SystemMemoryPool());
  ASSERT_TRUE(key.ok()) << key.status().ToString();
  EXPECT_EQ(Hex(*key), "000102030405060708090a0b0c0d0e0f");
  auto retriever = MakeKeyMaterialRetriever(kMasterKeys, std::nullopt, SystemMemoryPool());
  ASSERT_TRUE(retriever.ok());
  auto retrieved = (*retriever)(material);
  ASSERT_TRUE(retrieved.ok()) << retrieved.status().ToString();
  EXPECT_EQ(*retrieved, *key);

  // Another master key under the same id fails authentication; an unknown id is named.
  auto wrong = UnwrapKeyMaterial(material, {{"kc1", "1234567890123459"}}, SystemMemoryPool());
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.status().message().find("authentication failed"), std::string::npos) << wrong.status().ToString();
  EXPECT_EQ(wrong.status().message().find("1234567890123459"), std::string::npos);
  auto unknown = UnwrapKeyMaterial(material, {{"kf", "0123456789012345"}}, SystemMemoryPool());
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("master key 'kc1'"), std::string::npos) << unknown.status().ToString();
}

TEST(KeyMaterialTest, MalformedMaterialIsInvalidNotACrash) {
  for (const char* material : {"", "[]", "{", R"({"keyMaterialType": "PKMT2"})", R"({"keyMaterialType": "PKMT1"})",
                               R"({"keyMaterialType": "PKMT1", "masterKeyID": "kc1", "wrappedDEK": "!!"})",
                               R"({"keyMaterialType": "PKMT1", "masterKeyID": "kc1", "wrappedDEK": "AAAA"})",
                               R"({"keyMaterialType": "PKMT1", "masterKeyID": "kc1", "wrappedDEK": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "doubleWrapping": true})"}) {
    auto key = UnwrapKeyMaterial(material, kMasterKeys, SystemMemoryPool());
    EXPECT_FALSE(key.ok()) << material;
  }
  auto retriever = MakeKeyMaterialRetriever(kMasterKeys, std::nullopt, SystemMemoryPool());
  ASSERT_TRUE(retriever.ok());
  auto external = (*retriever)(R"({"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"footerKey"})");
  ASSERT_FALSE(external.ok());
  EXPECT_NE(external.status().message().find("--key-material"), std::string::npos) << external.status().ToString();
  EXPECT_FALSE(MakeKeyMaterialRetriever(kMasterKeys, std::string("not json"), SystemMemoryPool()).ok());
}

// parquet-testing's external_key_material_java.parquet.encrypted: double-wrapped keys in the
// key-material file beside it (parquet-mr's InMemoryKMS, master keys kf, kc1, kc2).
TEST(KeyMaterialTest, ParquetMrExternalMaterialUnwrapsToItsDataKeys) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string data = strata::testing::ParquetTestingFile("data");
  const std::string path = data + "/_KEY_MATERIAL_FOR_external_key_material_java.parquet.encrypted.json";
  EXPECT_EQ(KeyMaterialPathFor(data + "/external_key_material_java.parquet.encrypted"), path);
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in.good()) << path;
  const std::string material((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto retriever = MakeKeyMaterialRetriever(kMasterKeys, material, SystemMemoryPool());
  ASSERT_TRUE(retriever.ok()) << retriever.status().ToString();
  const std::pair<const char*, const char*> expected[] = {{"footerKey", "5e63ada1593fab4abb6aecbc6a82dd1a"},
                                                          {"columnKey0", "6864726b09bbd978fae87df0ad4155d0"},
                                                          {"columnKey1", "4f1b17c621d61b1917a356d2cf1eafcc"}};
  for (const auto& [reference, dek] : expected) {
    const std::string metadata =
        std::string(R"({"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":")") + reference + "\"}";
    auto key = (*retriever)(metadata);
    ASSERT_TRUE(key.ok()) << reference << ": " << key.status().ToString();
    EXPECT_EQ(Hex(*key), dek) << reference;
  }
  auto missing = (*retriever)(R"({"keyMaterialType":"PKMT1","internalStorage":false,"keyReference":"columnKey9"})");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("'columnKey9'"), std::string::npos) << missing.status().ToString();
}

}  // namespace
}  // namespace strata::parquet::encryption
