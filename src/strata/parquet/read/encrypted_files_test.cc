// Reading files written with Parquet modular encryption by Arrow C++ and parquet-mr
// (parquet-testing's *.parquet.encrypted, data/ and data/aes256/): every footer mode
// (encrypted, signed plaintext), both algorithms (AES_GCM_V1, AES_GCM_CTR_V1), AES-128 and
// AES-256, column keys, AAD prefixes stored or supplied; each checked against the values the
// generator wrote; their page indexes and Bloom filters (encrypted modules of their own)
// decrypted and checked against the pages and values. And the failures that must be loud: no
// key, a wrong key, a wrong AAD prefix, a missing column key, altered bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/parquet/encryption/key_material.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/read/page_decryption.h"
#include "strata/parquet/read/page_reader.h"
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
  // The generator's int96_field holds Julian days near 0 (4713 BC), outside timestamp[ns]:
  // milliseconds hold them (the tests check the other columns' values).
  options.schema.int96_unit = ::strata::TimeUnit::kMilli;
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
  // Opened for three columns: their modules' AADs carry the file's column ordinals, not the
  // positions among the chunks decoded.
  FileReaderOptions some = WithKeys(keys);
  some.columns = {"flba_field", "double_field", "ba_field"};
  auto projected = ReadWith(strata::testing::ParquetTestingFile(file.path), some);
  ASSERT_TRUE(projected.ok()) << file.path << " projected: " << projected.status().ToString();
  ASSERT_EQ((*projected)->num_columns(), 3) << file.path;
  for (const char* name : {"flba_field", "double_field", "ba_field"}) {
    const int got = FieldIndex(**projected, name);
    const int expected = FieldIndex(**table, name);
    ASSERT_TRUE(got >= 0 && expected >= 0) << name;
    EXPECT_TRUE((*projected)->column(got)->Equals(*(*table)->column(expected))) << file.path << " " << name;
  }
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

// What a chunk's pages say, read through the page reader (which decrypts them): where each
// data page header starts and how many values it holds.
struct DataPages {
  std::vector<int64_t> offsets;
  std::vector<int32_t> num_values;
};

Result<DataPages> ReadDataPages(const FileReader& reader, int row_group, int column) {
  STRATA_ASSIGN_OR_RETURN(auto location, reader.ChunkLocation(row_group, column));
  STRATA_ASSIGN_OR_RETURN(auto pages, OpenPageReader(&reader.source(), location, reader.pool(), reader.options().pages));
  DataPages out;
  Page page;
  while (true) {
    STRATA_ASSIGN_OR_RETURN(const bool more, pages->Next(&page));
    if (!more) break;
    if (page.type == PageType::kDictionaryPage) continue;
    out.offsets.push_back(page.file_offset);
    out.num_values.push_back(page.num_values);
  }
  return out;
}

template <typename T>
T DecodeStat(const std::string& bytes) {
  T value{};
  EXPECT_EQ(bytes.size(), sizeof(T));
  std::memcpy(&value, bytes.data(), std::min(bytes.size(), sizeof(T)));
  return value;
}

// Every chunk of the generator's files has an offset index, every one but INT96's a column
// index; the encrypted columns' are modules under the column's key. Decrypted, they must
// describe the pages the page reader finds, and for int32_field (row r holds r) and the
// encrypted double_field (r * 1.1111111) their min and max are the first and last row's.
TEST_P(EncryptedFilesTest, PageIndexDecryptsAndAgreesWithThePages) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const EncryptedFile& file = GetParam();
  FileDecryptionOptions keys = file.aes256 ? Keys256() : Keys128();
  if (file.aad_prefix) keys.aad_prefix = "tester";
  auto reader = FileReader::OpenFile(strata::testing::ParquetTestingFile(file.path), SystemMemoryPool(), WithKeys(keys));
  ASSERT_TRUE(reader.ok()) << file.path << ": " << reader.status().ToString();
  const FileReader& r = **reader;
  ASSERT_EQ(r.num_row_groups(), 1) << file.path;
  const int64_t rows = r.metadata().row_groups[0].num_rows;
  ASSERT_EQ(rows, 50);
  int encrypted_indexes = 0;
  int checked_min_max = 0;
  for (int c = 0; c < r.descriptor().num_columns(); ++c) {
    const ColumnDescriptor& column = r.descriptor().column(c);
    const std::string what = std::string(file.path) + " column " + column.dotted_path;
    const ColumnChunk& chunk = r.metadata().row_groups[0].columns[static_cast<size_t>(c)];
    auto offset_index = r.ReadOffsetIndex(0, c);
    ASSERT_TRUE(offset_index.ok()) << what << ": " << offset_index.status().ToString();
    ASSERT_TRUE(offset_index->has_value()) << what;
    auto pages = ReadDataPages(r, 0, c);
    ASSERT_TRUE(pages.ok()) << what << ": " << pages.status().ToString();
    const auto& locations = (*offset_index)->page_locations;
    ASSERT_EQ(locations.size(), pages->offsets.size()) << what;
    ASSERT_FALSE(locations.empty()) << what;
    EXPECT_EQ(locations[0].first_row_index, 0) << what;
    int64_t rows_in_pages = 0;
    for (size_t p = 0; p < locations.size(); ++p) {
      EXPECT_EQ(locations[p].offset, pages->offsets[p]) << what << " page " << p;
      const int64_t end = p + 1 < locations.size() ? locations[p + 1].first_row_index : rows;
      ASSERT_GT(end, locations[p].first_row_index) << what << " page " << p;
      // A non-repeated column's page holds one value (level) per row.
      if (column.max_repetition_level == 0) {
        EXPECT_EQ(end - locations[p].first_row_index, pages->num_values[p]) << what;
      }
      rows_in_pages += end - locations[p].first_row_index;
    }
    EXPECT_EQ(rows_in_pages, rows) << what;

    auto column_index = r.ReadColumnIndex(0, c);
    ASSERT_TRUE(column_index.ok()) << what << ": " << column_index.status().ToString();
    if (column.physical_type == PhysicalType::kInt96) {
      EXPECT_FALSE(column_index->has_value()) << what;
    } else {
      ASSERT_TRUE(column_index->has_value()) << what;
      const ColumnIndex& ci = **column_index;
      ASSERT_EQ(ci.null_pages.size(), locations.size()) << what;
      for (size_t p = 0; p < locations.size(); ++p) {
        const int64_t first = locations[p].first_row_index;
        const int64_t last = (p + 1 < locations.size() ? locations[p + 1].first_row_index : rows) - 1;
        if (column.dotted_path == "int32_field") {
          EXPECT_EQ(DecodeStat<int32_t>(ci.min_values[p]), first) << what << " page " << p;
          EXPECT_EQ(DecodeStat<int32_t>(ci.max_values[p]), last) << what << " page " << p;
          ++checked_min_max;
        } else if (column.dotted_path == "double_field") {
          EXPECT_EQ(DecodeStat<double>(ci.min_values[p]), static_cast<double>(first) * 1.1111111) << what;
          EXPECT_EQ(DecodeStat<double>(ci.max_values[p]), static_cast<double>(last) * 1.1111111) << what;
          ++checked_min_max;
        }
      }
    }
    if (chunk.crypto_metadata) ++encrypted_indexes;
  }
  EXPECT_EQ(checked_min_max, 2) << file.path << ": int32_field and double_field, one page each";
  // double_field and float_field at least (uniform encryption: every column).
  EXPECT_GE(encrypted_indexes, 2) << file.path;
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

// parquet-mr's file with Bloom filters on its two encrypted columns: 2000 rows, row i holds
// double_field i + 0.5, float_field i + 0.25, int32_field i, name "name_i" (one row group).
const char kBloomFile[] = "data/encrypt_columns_and_footer_bloom_filter.parquet.encrypted";

int ColumnNamed(const FileReader& reader, const std::string& path) {
  for (int c = 0; c < reader.descriptor().num_columns(); ++c) {
    if (reader.descriptor().column(c).dotted_path == path) return c;
  }
  return -1;
}

TEST(EncryptedIndexesTest, BloomFiltersOfEncryptedColumnsHoldTheirValues) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto reader = FileReader::OpenFile(strata::testing::ParquetTestingFile(kBloomFile), SystemMemoryPool(), WithKeys(Keys128()));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const FileReader& r = **reader;
  ASSERT_EQ(r.num_rows(), 2000);
  const int double_field = ColumnNamed(r, "double_field");
  const int float_field = ColumnNamed(r, "float_field");
  ASSERT_GE(double_field, 0);
  ASSERT_GE(float_field, 0);
  ASSERT_TRUE(r.metadata().row_groups[0].columns[static_cast<size_t>(double_field)].crypto_metadata);

  auto doubles = r.ReadBloomFilter(0, double_field);
  ASSERT_TRUE(doubles.ok()) << doubles.status().ToString();
  ASSERT_NE(*doubles, nullptr);
  auto floats = r.ReadBloomFilter(0, float_field);
  ASSERT_TRUE(floats.ok()) << floats.status().ToString();
  ASSERT_NE(*floats, nullptr);
  // Both filters are 2048-byte bitsets (bloom_filter_length 2212: header and bitset modules).
  EXPECT_EQ((*doubles)->num_bytes(), 2048);
  EXPECT_EQ((*floats)->num_bytes(), 2048);
  int false_positives = 0;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE((*doubles)->FindHash(BloomFilter::HashDouble(i + 0.5))) << "double " << i + 0.5;
    ASSERT_TRUE((*floats)->FindHash(BloomFilter::HashFloat(static_cast<float>(i) + 0.25f))) << "float " << i + 0.25;
    false_positives += (*doubles)->FindHash(BloomFilter::HashDouble(i + 0.75));
    false_positives += (*floats)->FindHash(BloomFilter::HashFloat(static_cast<float>(i) + 0.75f));
  }
  // A bitset decrypted wrongly (or all ones) would answer "present" to everything.
  EXPECT_LT(false_positives, 400) << "of 4000 absent values";
  // The plaintext columns have none.
  auto none = r.ReadBloomFilter(0, ColumnNamed(r, "int32_field"));
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(*none, nullptr);

  // The page index of the same file: encrypted for the two encrypted columns, in pages that
  // cover the 2000 rows.
  for (int c : {double_field, float_field}) {
    auto offset_index = r.ReadOffsetIndex(0, c);
    ASSERT_TRUE(offset_index.ok()) << offset_index.status().ToString();
    ASSERT_TRUE(offset_index->has_value());
    auto pages = ReadDataPages(r, 0, c);
    ASSERT_TRUE(pages.ok()) << pages.status().ToString();
    EXPECT_EQ((*offset_index)->page_locations.size(), pages->offsets.size());
    int64_t values = 0;
    for (int32_t n : pages->num_values) values += n;
    EXPECT_EQ(values, 2000);
    auto column_index = r.ReadColumnIndex(0, c);
    ASSERT_TRUE(column_index.ok()) << column_index.status().ToString();
    ASSERT_TRUE(column_index->has_value());
    EXPECT_EQ((*column_index)->null_pages.size(), pages->offsets.size());
  }
}

TEST(EncryptedIndexesTest, AWrongKeyOrOrdinalFailsTheBloomFilterAuthentication) {
  STRATA_REQUIRE_PARQUET_TESTING();
  // A wrong column key already fails on the column's encrypted metadata, at open.
  FileDecryptionOptions wrong_column_key = Keys128();
  wrong_column_key.column_keys["double_field"][0] ^= 1;
  auto refused = FileReader::OpenFile(strata::testing::ParquetTestingFile(kBloomFile), SystemMemoryPool(),
                                      WithKeys(wrong_column_key));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("authentication failed"), std::string::npos) << refused.status().ToString();
  EXPECT_NE(refused.status().message().find("double_field"), std::string::npos) << refused.status().ToString();

  // The filter's own modules, given the wrong key (or the AAD of another column), fail too.
  auto reader = FileReader::OpenFile(strata::testing::ParquetTestingFile(kBloomFile), SystemMemoryPool(), WithKeys(Keys128()));
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const FileReader& r = **reader;
  const int double_field = ColumnNamed(r, "double_field");
  auto location = r.ChunkLocation(0, double_field);
  ASSERT_TRUE(location.ok()) << location.status().ToString();
  ASSERT_NE(location->decryption, nullptr);
  const ColumnMetaData& meta = *r.metadata().row_groups[0].columns[static_cast<size_t>(double_field)].meta_data;
  ASSERT_TRUE(meta.bloom_filter_offset.has_value());
  ColumnDecryption right = *location->decryption;
  auto read = [&](const ColumnDecryption& decryption) {
    return BloomFilter::Read(r.source(), *meta.bloom_filter_offset, meta.bloom_filter_length, SystemMemoryPool(),
                             &decryption);
  };
  ASSERT_TRUE(read(right).ok()) << read(right).status().ToString();
  ColumnDecryption wrong_key = right;
  wrong_key.key[5] ^= 1;
  ColumnDecryption other_column = right;
  other_column.column_ordinal = ColumnNamed(r, "float_field");
  for (const ColumnDecryption* wrong : {&wrong_key, &other_column}) {
    auto filter = read(*wrong);
    ASSERT_FALSE(filter.ok());
    const std::string message = filter.status().ToString();
    EXPECT_TRUE(filter.status().IsCorrupt()) << message;
    EXPECT_NE(message.find("authentication failed"), std::string::npos) << message;
    EXPECT_NE(message.find("Bloom filter header at offset " + std::to_string(*meta.bloom_filter_offset)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("column 'double_field'"), std::string::npos) << message;
    EXPECT_EQ(message.find(wrong->key), std::string::npos) << "no key material in errors";
  }
  // Read as plaintext, the encrypted header is garbage: an error, not a filter.
  EXPECT_FALSE(BloomFilter::Read(r.source(), *meta.bloom_filter_offset, meta.bloom_filter_length, SystemMemoryPool()).ok());
}

// Altered bytes inside an encrypted offset index, column index or Bloom filter bitset: the
// module does not authenticate, and the error names it, its offset and its column. The
// footer and the pages are untouched, so the file still opens and its values still read.
TEST(EncryptedIndexesTest, AlteredIndexAndFilterModulesFailAuthenticationNamingTheModule) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string bytes = ReadBytes(strata::testing::ParquetTestingFile(kBloomFile));
  ASSERT_GT(bytes.size(), 30000u);
  auto open = [](const std::string& altered) {
    auto buffer = std::make_shared<Buffer>(reinterpret_cast<const uint8_t*>(altered.data()),
                                           static_cast<int64_t>(altered.size()));
    return FileReader::Open(MakeBufferSource(buffer, "altered.parquet.encrypted"), SystemMemoryPool(),
                            WithKeys(Keys128()));
  };
  auto original = open(bytes);
  ASSERT_TRUE(original.ok()) << original.status().ToString();
  const int double_field = ColumnNamed(**original, "double_field");
  const ColumnChunk chunk = (*original)->metadata().row_groups[0].columns[static_cast<size_t>(double_field)];
  ASSERT_TRUE(chunk.offset_index_offset && chunk.column_index_offset && chunk.meta_data->bloom_filter_offset);

  struct Alteration {
    const char* module;
    int64_t position;  // of the altered byte
  };
  const Alteration alterations[] = {
      {"offset index", *chunk.offset_index_offset + 30},
      {"column index", *chunk.column_index_offset + chunk.column_index_length.value_or(0) - 3},  // in the tag
      {"Bloom filter bitset", *chunk.meta_data->bloom_filter_offset + chunk.meta_data->bloom_filter_length.value_or(0) - 100},
  };
  for (const Alteration& alteration : alterations) {
    std::string altered = bytes;
    altered[static_cast<size_t>(alteration.position)] ^= 0x04;
    auto reader = open(altered);
    ASSERT_TRUE(reader.ok()) << alteration.module << ": " << reader.status().ToString();
    Status status;
    if (std::string(alteration.module) == "offset index") status = (*reader)->ReadOffsetIndex(0, double_field).status();
    else if (std::string(alteration.module) == "column index") status = (*reader)->ReadColumnIndex(0, double_field).status();
    else status = (*reader)->ReadBloomFilter(0, double_field).status();
    ASSERT_FALSE(status.ok()) << alteration.module << " altered at byte " << alteration.position << ", yet it read";
    const std::string message = status.ToString();
    EXPECT_TRUE(status.IsCorrupt()) << message;
    EXPECT_NE(message.find("authentication failed"), std::string::npos) << message;
    EXPECT_NE(message.find(std::string(alteration.module) + " at offset"), std::string::npos) << message;
    EXPECT_NE(message.find("double_field"), std::string::npos) << message;
    EXPECT_NE(message.find("altered.parquet.encrypted"), std::string::npos) << message;
    // The data itself is intact.
    auto table = (*reader)->ReadTable();
    ASSERT_TRUE(table.ok()) << alteration.module << ": " << table.status().ToString();
    EXPECT_EQ((*table)->num_rows(), 2000);
  }

  // A length field that no longer matches the footer's offset_index_length is refused before
  // anything is decrypted.
  std::string altered = bytes;
  altered[static_cast<size_t>(*chunk.offset_index_offset)] ^= 0x01;
  auto reader = open(altered);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto offset_index = (*reader)->ReadOffsetIndex(0, double_field);
  ASSERT_FALSE(offset_index.ok());
  EXPECT_TRUE(offset_index.status().IsCorrupt()) << offset_index.status().ToString();
  EXPECT_NE(offset_index.status().message().find("the module declares"), std::string::npos)
      << offset_index.status().ToString();
}

TEST(EncryptedIndexesTest, WithoutTheColumnKeyTheIndexIsRefusedNamingTheKey) {
  STRATA_REQUIRE_PARQUET_TESTING();
  // A plaintext footer opens without keys; its plaintext columns' indexes read, the encrypted
  // columns' need their key.
  const std::string path = strata::testing::ParquetTestingFile("data/encrypt_columns_plaintext_footer.parquet.encrypted");
  auto reader = FileReader::OpenFile(path, SystemMemoryPool());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  const int int32_field = ColumnNamed(**reader, "int32_field");
  auto plain = (*reader)->ReadOffsetIndex(0, int32_field);
  ASSERT_TRUE(plain.ok()) << plain.status().ToString();
  ASSERT_TRUE(plain->has_value());
  EXPECT_EQ((*plain)->page_locations.size(), 1u);
  auto encrypted = (*reader)->ReadOffsetIndex(0, ColumnNamed(**reader, "double_field"));
  ASSERT_FALSE(encrypted.ok());
  EXPECT_TRUE(encrypted.status().IsInvalid()) << encrypted.status().ToString();
  EXPECT_NE(encrypted.status().message().find("column 'double_field'"), std::string::npos)
      << encrypted.status().ToString();
  // Out of range is Invalid, not a crash.
  EXPECT_TRUE((*reader)->ReadColumnIndex(1, 0).status().IsInvalid());
  EXPECT_TRUE((*reader)->ReadBloomFilter(0, 99).status().IsInvalid());
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

// external_key_material_java.parquet.encrypted: parquet-mr's key tools wrapped its keys twice
// (master keys kf, kc1, kc2 of the in-memory test KMS, the same bytes as the other files' keys)
// and keep the key material in the JSON file beside it. Rows: integers i, strings
// "a".."j" (i % 10) followed by i.
TEST(EncryptedFilesKeyToolsTest, ExternalKeyMaterialReadsWithTheMasterKeys) {
  STRATA_REQUIRE_PARQUET_TESTING();
  const std::string path = strata::testing::ParquetTestingFile("data/external_key_material_java.parquet.encrypted");
  std::ifstream in(encryption::KeyMaterialPathFor(path), std::ios::binary);
  ASSERT_TRUE(in.good()) << encryption::KeyMaterialPathFor(path);
  const std::string material((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::map<std::string, std::string> master_keys = {
      {"kf", kFooterKey128}, {"kc1", "1234567890123450"}, {"kc2", "1234567890123451"}};

  FileDecryptionOptions keys;
  keys.key_retriever = *encryption::MakeKeyMaterialRetriever(master_keys, material, SystemMemoryPool());
  auto table = ReadWith(path, WithKeys(keys));
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ((*table)->num_rows(), 100);
  const int ints = FieldIndex(**table, "integers");
  const int strings = FieldIndex(**table, "strings");
  ASSERT_TRUE(ints >= 0 && strings >= 0);
  int64_t row = 0;
  for (int k = 0; k < (*table)->column(ints)->num_chunks(); ++k) {
    const PrimitiveArray<int32_t> values((*table)->column(ints)->chunk(k));
    const BinaryArray<int32_t> texts((*table)->column(strings)->chunk(k));
    for (int64_t r = 0; r < values.length(); ++r, ++row) {
      ASSERT_EQ(values.Value(r), row);
      ASSERT_EQ(texts.GetString(r), std::string(1, static_cast<char>('a' + row % 10)) + std::to_string(row));
    }
  }
  EXPECT_EQ(row, 100);

  // Without the key-material file, or with a wrong master key, nothing reads; the message
  // says what to give and holds no key.
  FileDecryptionOptions no_material;
  no_material.key_retriever = *encryption::MakeKeyMaterialRetriever(master_keys, std::nullopt, SystemMemoryPool());
  auto refused = ReadWith(path, WithKeys(no_material));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--key-material"), std::string::npos) << refused.status().ToString();
  auto wrong_keys = master_keys;
  wrong_keys["kc1"] = "1234567890123459";
  FileDecryptionOptions wrong;
  wrong.key_retriever = *encryption::MakeKeyMaterialRetriever(wrong_keys, material, SystemMemoryPool());
  auto failed = ReadWith(path, WithKeys(wrong));
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("authentication failed"), std::string::npos) << failed.status().ToString();
  EXPECT_EQ(failed.status().message().find("1234567890123459"), std::string::npos);
}

}  // namespace
}  // namespace strata::parquet
