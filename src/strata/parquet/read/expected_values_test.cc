// The parquet-testing files that ship their expected values (*_expect.csv) read exactly those
// values: every row, every column, nulls included.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

// One CSV field: its text, and whether it was an unquoted empty field (a null).
struct Field {
  std::string text;
  bool null = false;
};

// RFC 4180 records, as the expect files are written (quoted fields with "" escapes).
std::vector<std::vector<Field>> ReadCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<std::vector<Field>> records;
  std::vector<Field> record;
  Field field;
  bool quoted = false, in_quotes = false, any = false;
  auto end_field = [&] {
    field.null = !quoted && field.text.empty();
    record.push_back(field);
    field = Field{};
    quoted = false;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    any = true;
    if (in_quotes) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field.text += '"';
        ++i;
      } else if (c == '"') {
        in_quotes = false;
      } else {
        field.text += c;
      }
    } else if (c == '"') {
      in_quotes = quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      end_field();
      records.push_back(std::move(record));
      record.clear();
      any = false;
    } else {
      field.text += c;
    }
  }
  if (any) {
    end_field();
    records.push_back(std::move(record));
  }
  return records;
}

// The value at `row` of a flat column as the expect files write it.
Field Text(const ArrayData& a, int64_t row) {
  const int64_t i = a.offset + row;
  if (a.validity_data() && !((a.validity_data()[i >> 3] >> (i & 7)) & 1)) return {"", true};
  switch (a.type->id()) {
    case TypeId::kInt32: return {std::to_string(a.buffers[1]->data_as<int32_t>()[i])};
    case TypeId::kInt64: return {std::to_string(a.buffers[1]->data_as<int64_t>()[i])};
    case TypeId::kString:
    case TypeId::kBinary: {
      const auto* offsets = a.buffers[1]->data_as<int32_t>();
      return {std::string(a.buffers[2]->view().substr(offsets[i], offsets[i + 1] - offsets[i]))};
    }
    default: return {"<unexpected type " + a.type->ToString() + ">"};
  }
}

void ExpectFileMatches(const std::string& name) {
  const auto records = ReadCsv(strata::testing::ParquetTestingFile("data/" + name + "_expect.csv"));
  ASSERT_GT(records.size(), 1u) << name;
  auto pool = MakeSystemMemoryPool();
  auto reader = FileReader::OpenFile(strata::testing::ParquetTestingFile("data/" + name + ".parquet"), pool.get());
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  BatchReadOptions options;
  options.batch_rows = 37;  // batches that cross pages and miniblocks
  auto table = (*reader)->ReadTable(options);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ((*table)->num_rows(), static_cast<int64_t>(records.size() - 1)) << name;
  ASSERT_EQ((*table)->num_columns(), static_cast<int>(records[0].size())) << name;
  int64_t compared = 0;
  for (int c = 0; c < (*table)->num_columns(); ++c) {
    int64_t row = 0;
    for (const Array& chunk : (*table)->column(c)->chunks()) {
      for (int64_t r = 0; r < chunk.length(); ++r, ++row) {
        const Field& want = records[static_cast<size_t>(row + 1)][static_cast<size_t>(c)];
        const Field got = Text(*chunk.data(), r);
        ASSERT_EQ(got.null, want.null) << name << " column " << c << " row " << row;
        ASSERT_EQ(got.text, want.text) << name << " column " << c << " row " << row;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, (*table)->num_rows() * (*table)->num_columns());
}

TEST(ExpectedValuesTest, DeltaBinaryPacked) {
  STRATA_REQUIRE_PARQUET_TESTING();
  ExpectFileMatches("delta_binary_packed");
}

TEST(ExpectedValuesTest, DeltaByteArray) {
  STRATA_REQUIRE_PARQUET_TESTING();
  ExpectFileMatches("delta_byte_array");
}

TEST(ExpectedValuesTest, DeltaEncodingRequiredColumn) {
  STRATA_REQUIRE_PARQUET_TESTING();
  ExpectFileMatches("delta_encoding_required_column");
}

}  // namespace
}  // namespace strata::parquet
