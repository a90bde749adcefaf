// Reading files written with Parquet modular encryption by Arrow C++ and parquet-mr
// (parquet-testing's *.parquet.encrypted, data/ and data/aes256/): every footer mode
// (encrypted, signed plaintext), both algorithms (AES_GCM_V1, AES_GCM_CTR_V1), AES-128 and
// AES-256, column keys, AAD prefixes stored or supplied; each checked against the values the
// generator wrote. And the failures that must be loud: no key, a wrong key, a wrong AAD
// prefix, a missing column key, altered bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "strata/parquet/duckdb_fixture.h"
#include "strata/parquet/file_reader.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

// The keys parquet-testing's data/README.md documents.
const std::string kFooterKey128 = "0123456789012345";
const std::string kFooterKey256 = "01234567890123456789012345678901";

FileDecryptionOptions Keys128() {
  FileDecryptionOptions options;
  options.footer_key = kFooterKey128;
  options.column_keys["double_field"] = "1234567890123450";
  options.column_keys["float_field"] = "1234567890123451";
  return options;
}

FileDecryptionOptions Keys256() {
  FileDecryptionOptions options;
  options.footer_key = kFooterKey256;
  const char* columns[] = {"double_field", "float_field",  "boolean_field", "int32_field",
                           "ba_field",     "flba_field",   "int64_field.list.element", "int96_field"};
  for (int i = 0; i < 8; ++i) options.column_keys[columns[i]] = "123456789012345678901234567890" + std::to_string(12 + i);
  return options;
}

struct EncryptedFile {
  const char* path;  // under parquet-testing
  bool aes256;
  bool aad_prefix;  // written with the prefix "tester"
};

const EncryptedFile kFiles[] = {
    {"data/uniform_encryption.parquet.encrypted", false, false},
    {"data/encrypt_columns_and_footer.parquet.encrypted", false, false},
    {"data/encrypt_columns_and_footer_aad.parquet.encrypted", false, true},
    {"data/encrypt_columns_and_footer_ctr.parquet.encrypted", false, false},
    {"data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", false, true},
    {"data/encrypt_columns_plaintext_footer.parquet.encrypted", false, false},
    {"data/aes256/uniform_encryption.parquet.encrypted", true, false},
    {"data/aes256/encrypt_columns_and_footer.parquet.encrypted", true, false},
    {"data/aes256/encrypt_columns_and_footer_ctr.parquet.encrypted", true, false},
    {"data/aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted", true, true},
    {"data/aes256/encrypt_columns_plaintext_footer.parquet.encrypted", true, false},
};

FileReaderOptions WithKeys(FileDecryptionOptions keys) {
  FileReaderOptions options;
  options.footer.decryption = std::make_shared<const FileDecryptionOptions>(std::move(keys));
  return options;
}

Result<std::shared_ptr<Table>> ReadWith(const std::string& path, const FileReaderOptions& options,
                                        std::vector<int> columns = {}) {
  auto pool = SystemMemoryPool();
  STRATA_ASSIGN_OR_RETURN(auto reader, FileReader::OpenFile(path, pool, options));
  BatchReadOptions read;
  read.columns = std::move(columns);
  read.batch_rows = 7;  // batches across pages
  return reader->ReadTable(read);
}

int FieldIndex(const Table& table, const std::string& name) {
  for (int i = 0; i < table.num_columns(); ++i) {
    if (table.schema()->field(i)->name() == name) return i;
  }
  return -1;
}

// Row r of the generator (Arrow's test-encryption-util): boolean r % 2 == 0, int32 r, float
// r * 1.1f, double r * 1.1111111, binary "parquet" + r in 3 digits for even rows (null for odd),
// fixed-size binary 10 bytes of r, int64 list [2r, 2r + 1] * 10^12.
void ExpectGeneratedValues(const Table& table, const std::string& what) {
  ASSERT_EQ(table.num_rows(), 50) << what;
  const int b = FieldIndex(table, "boolean_field");
  const int i32 = FieldIndex(table, "int32_field");
  const int f = FieldIndex(table, "float_field");
  const int d = FieldIndex(table, "double_field");
  const int ba = FieldIndex(table, "ba_field");
  const int flba = FieldIndex(table, "flba_field");
  ASSERT_TRUE(b >= 0 && i32 >= 0 && f >= 0 && d >= 0 && ba >= 0 && flba >= 0) << what;
  int64_t row = 0;
  for (size_t k = 0; k < table.column(b)->chunks().size(); ++k) {
    const BooleanArray booleans(table.column(b)->chunk(static_cast<int>(k)));
    const PrimitiveArray<int32_t> ints(table.column(i32)->chunk(static_cast<int>(k)));
    const PrimitiveArray<float> floats(table.column(f)->chunk(static_cast<int>(k)));
    const PrimitiveArray<double> doubles(table.column(d)->chunk(static_cast<int>(k)));
    const BinaryArray<int32_t> binaries(table.column(ba)->chunk(static_cast<int>(k)));
    const FixedSizeBinaryArray fixed(table.column(flba)->chunk(static_cast<int>(k)));
    for (int64_t r = 0; r < booleans.length(); ++r, ++row) {
      ASSERT_EQ(booleans.Value(r), row % 2 == 0) << what << " row " << row;
      ASSERT_EQ(ints.Value(r), row) << what << " row " << row;
      ASSERT_EQ(floats.Value(r), static_cast<float>(row) * 1.1f) << what << " row " << row;
      ASSERT_EQ(doubles.Value(r), static_cast<double>(row) * 1.1111111) << what << " row " << row;
      if (row % 2 == 0) {
        ASSERT_TRUE(binaries.IsValid(r)) << what << " row " << row;
        char expected[16];
        std::snprintf(expected, sizeof(expected), "parquet%03d", static_cast<int>(row));
        ASSERT_EQ(binaries.GetString(r), expected) << what << " row " << row;
      } else {
        ASSERT_TRUE(binaries.IsNull(r)) << what << " row " << row;
      }
      ASSERT_EQ(fixed.GetView(r), std::string(10, static_cast<char>(row))) << what << " row " << row;
    }
  }
  EXPECT_EQ(row, 50) << what;
}

class EncryptedFilesTest : public ::testing::TestWithParam<EncryptedFile> {};

TEST_P(EncryptedFilesTest, ReadsToTheValuesWritten) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const EncryptedFile& file = GetParam();
  FileDecryptionOptions keys = file.aes256 ? Keys256() : Keys128();
  if (file.aad_prefix) keys.aad_prefix = "tester";
  auto table = ReadWith(strata::testing::ParquetTestingFile(file.path), WithKeys(keys));
  ASSERT_TRUE(table.ok()) << file.path << ": " << table.status().ToString();
  ExpectGeneratedValues(**table, file.path);
  FileReaderOptions page_by_page = WithKeys(keys);
  page_by_page.pages.whole_chunk_read_limit = 0;
  auto streamed = ReadWith(strata::testing::ParquetTestingFile(file.path), page_by_page);
  ASSERT_TRUE(streamed.ok()) << file.path << " page by page: " << streamed.status().ToString();
  ExpectGeneratedValues(**streamed, std::string(file.path) + " page by page");
}

TEST_P(EncryptedFilesTest, AWrongFooterKeyFailsAuthenticationNamingTheModule) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const EncryptedFile& file = GetParam();
  FileDecryptionOptions keys = file.aes256 ? Keys256() : Keys128();
  if (file.aad_prefix) keys.aad_prefix = "tester";
  keys.footer_key[0] ^= 1;
  const std::string wrong = keys.footer_key;
  auto table = ReadWith(strata::testing::ParquetTestingFile(file.path), WithKeys(keys));
  ASSERT_FALSE(table.ok()) << file.path;
  const std::string message = table.status().ToString();
  EXPECT_TRUE(table.status().IsCorrupt()) << message;
  EXPECT_NE(message.find("authentication failed"), std::string::npos) << message;
  // The module is named: the footer (encrypted, or its signature), or a page.
  EXPECT_TRUE(message.find("footer") != std::string::npos || message.find("page") != std::string::npos) << message;
  EXPECT_EQ(message.find(wrong), std::string::npos) << "no key material in errors";
}

INSTANTIATE_TEST_SUITE_P(ParquetTesting, EncryptedFilesTest, ::testing::ValuesIn(kFiles), [](const auto& info) {
  std::string name = info.param.path;
  for (char& c : name) c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
});

TEST(EncryptedFilesErrorsTest, MissingKeysAndPrefixesAreNamed) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string encrypted_footer = strata::testing::ParquetTestingFile("data/encrypt_columns_and_footer.parquet.encrypted");
  // No keys at all: the encrypted footer says what it needs.
  auto no_keys = FileReader::OpenFile(encrypted_footer, SystemMemoryPool());
  ASSERT_FALSE(no_keys.ok());
  EXPECT_NE(no_keys.status().message().find("encrypted footer (PARE, AES_GCM_V1"), std::string::npos)
      << no_keys.status().ToString();
  EXPECT_NE(no_keys.status().message().find("--footer-key"), std::string::npos);

  // The footer key but not a column's own key: the column is named when read.
  FileDecryptionOptions footer_only;
  footer_only.footer_key = kFooterKey128;
  auto table = ReadWith(encrypted_footer, WithKeys(footer_only));
  ASSERT_FALSE(table.ok());
  EXPECT_NE(table.status().message().find("column 'float_field' is encrypted with its own key: give it (--column-key "
                                          "float_field:KEY)"),
            std::string::npos)
      << table.status().ToString();
  // Its other columns read without it.
  auto reader = FileReader::OpenFile(encrypted_footer, SystemMemoryPool(), WithKeys(footer_only));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const int int32_field = (*reader)->descriptor().FieldIndex("int32_field");
  auto plain_columns = ReadWith(encrypted_footer, WithKeys(footer_only), {int32_field});
  ASSERT_TRUE(plain_columns.ok()) << plain_columns.status().ToString();
  EXPECT_EQ((*plain_columns)->num_rows(), 50);

  // A prefix the writer did not store must be supplied, and a wrong one fails to authenticate.
  const std::string no_storage =
      strata::testing::ParquetTestingFile("data/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted");
  auto missing_prefix = FileReader::OpenFile(no_storage, SystemMemoryPool(), WithKeys(Keys128()));
  ASSERT_FALSE(missing_prefix.ok());
  EXPECT_NE(missing_prefix.status().message().find("give it (--aad-prefix)"), std::string::npos)
      << missing_prefix.status().ToString();
  FileDecryptionOptions wrong_prefix = Keys128();
  wrong_prefix.aad_prefix = "someone else";
  auto refused = FileReader::OpenFile(no_storage, SystemMemoryPool(), WithKeys(wrong_prefix));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("authentication failed"), std::string::npos) << refused.status().ToString();
  // A stored prefix that differs from the one given is the wrong file.
  FileDecryptionOptions other_prefix = Keys128();
  other_prefix.aad_prefix = "not tester";
  auto other_file = FileReader::OpenFile(strata::testing::ParquetTestingFile("data/encrypt_columns_and_footer_aad.parquet.encrypted"),
                                         SystemMemoryPool(), WithKeys(other_prefix));
  ASSERT_FALSE(other_file.ok());
  EXPECT_NE(other_file.status().message().find("differs from the one the file stores"), std::string::npos);
}

TEST(EncryptedFilesErrorsTest, PlaintextFooterServesPlainColumnsWithoutKeys) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = strata::testing::ParquetTestingFile("data/encrypt_columns_plaintext_footer.parquet.encrypted");
  auto reader = FileReader::OpenFile(path, SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_TRUE((*reader)->footer().has_encryption_info());
  const int int32_field = (*reader)->descriptor().FieldIndex("int32_field");
  auto plain = ReadWith(path, {}, {int32_field});
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  EXPECT_EQ((*plain)->num_rows(), 50);
  const int double_field = (*reader)->descriptor().FieldIndex("double_field");
  auto encrypted = ReadWith(path, {}, {double_field});
  ASSERT_FALSE(encrypted.ok());
  EXPECT_NE(encrypted.status().message().find("column 'double_field'"), std::string::npos)
      << encrypted.status().ToString();
  EXPECT_NE(encrypted.status().message().find("is encrypted"), std::string::npos);
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(EncryptedFilesErrorsTest, AlteredPageBytesFailAuthenticationNamingTheColumn) {
  STRATA_REQUIRE_PARQUET_TESTING();
  // Uniform AES_GCM_V1: every module authenticated. One flipped bit in each of the first
  // bytes of the file (page headers and pages of the first columns) never yields values.
  const std::string bytes = ReadBytes(strata::testing::ParquetTestingFile("data/uniform_encryption.parquet.encrypted"));
  ASSERT_GT(bytes.size(), 400u);
  int failed = 0;
  for (size_t position : {8u, 40u, 120u, 200u, 300u}) {
    std::string altered = bytes;
    altered[position] ^= 0x10;
    auto buffer = std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(altered.data()), static_cast<int64_t>(altered.size()));
    auto reader = FileReader::Open(MakeBufferSource(buffer, "altered.parquet.encrypted"), SystemMemoryPool(),
                                   WithKeys(Keys128()));
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    auto table = (*reader)->ReadTable();
    ASSERT_FALSE(table.ok()) << "byte " << position << " altered, yet the file read";
    const std::string message = table.status().ToString();
    // Either the module's tag does not verify, or its length field no longer fits.
    EXPECT_TRUE(message.find("authentication failed") != std::string::npos ||
                message.find("encrypted") != std::string::npos)
        << message;
    EXPECT_NE(message.find("column '"), std::string::npos) << message;
    ++failed;
  }
  EXPECT_EQ(failed, 5);
}

// DuckDB (the pinned npm package) writes uniformly encrypted files its own way: no AAD at all
// (not even the module type), no crypto metadata on the columns, and page headers that count
// the plaintext, not the module. strata reads them to the values of the same table unencrypted.
TEST(EncryptedFilesDuckDBTest, DuckDBsUniformlyEncryptedFileReadsToThePlainValues) {
  STRATA_REQUIRE_OR_SKIP(testing::DuckDBAvailable(), "node and @duckdb/node-api are needed (scripts/install-deps)");
  const std::string dir = ::testing::TempDir();
  const std::string encrypted = dir + "/duckdb_encrypted.parquet";
  const std::string plain = dir + "/duckdb_plain.parquet";
  const std::string select =
      "SELECT i::BIGINT AS a, 'value ' || (i % 13) AS s, i * 0.25 AS d, CASE WHEN i % 5 = 0 THEN NULL ELSE i END AS n "
      "FROM range(200000) t(i)";
  const std::vector<std::string> key = {"SET force_mbedtls_unsafe = 'true'",
                                        "PRAGMA add_parquet_key('k', '0123456789012345')"};
  ASSERT_EQ(testing::WriteParquetWithDuckDB(select, encrypted, "ROW_GROUP_SIZE 50000, ENCRYPTION_CONFIG {footer_key: 'k'}", key), "");
  ASSERT_EQ(testing::WriteParquetWithDuckDB(select, plain, "ROW_GROUP_SIZE 50000"), "");

  FileDecryptionOptions keys;
  keys.footer_key = kFooterKey128;
  auto decrypted = ReadWith(encrypted, WithKeys(keys));
  ASSERT_TRUE(decrypted.ok()) << decrypted.status().ToString();
  auto expected = ReadWith(plain, {});
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ((*decrypted)->num_rows(), 200000);
  EXPECT_TRUE((*decrypted)->Equals(**expected));
  // Page by page from the source (no chunk in memory): each module fetched on its own.
  FileReaderOptions page_by_page = WithKeys(keys);
  page_by_page.pages.whole_chunk_read_limit = 0;
  auto streamed = ReadWith(encrypted, page_by_page);
  ASSERT_TRUE(streamed.ok()) << streamed.status().ToString();
  EXPECT_TRUE((*streamed)->Equals(**expected));

  // The key still matters: a wrong one fails on the footer.
  keys.footer_key[3] ^= 1;
  auto refused = ReadWith(encrypted, WithKeys(keys));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("authentication failed"), std::string::npos) << refused.status().ToString();
}

}  // namespace
}  // namespace strata::parquet
