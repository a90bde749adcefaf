// Nested reads through FileReader: the parquet-testing files with lists, maps and structs
// (values as their READMEs document and DuckDB reads them), batching that never splits a
// row, hostile levels, and DuckDB-written files checked against the formulas that made them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "strata/array/array.h"
#include "strata/array/compare.h"
#include "strata/array/pretty_print.h"
#include "strata/array/validate.h"
#include "strata/parquet/testing/duckdb_fixture.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

std::string Print(const ArrayDataPtr& data) {
  PrettyPrintOptions options;
  options.max_rows = 0;
  return PrettyPrint(Array(data), options);
}

// Every batch of the file, each column validated; the columns' printed values, batches joined.
struct ReadResult {
  Status status;
  std::vector<std::string> names;
  std::vector<std::vector<ArrayDataPtr>> chunks;  // per column, per batch
  int64_t rows = 0;
};

ReadResult Failed(Status status) {
  ReadResult result;
  result.status = std::move(status);
  return result;
}

ReadResult ReadAll(const std::string& path, int64_t batch_rows = 64 * 1024) {
  ReadResult result;
  auto file = FileReader::OpenFile(path, SystemMemoryPool());
  if (!file.ok()) return Failed(file.status());
  BatchReadOptions options;
  options.batch_rows = batch_rows;
  auto reader = (*file)->ReadBatches(options);
  if (!reader.ok()) return Failed(reader.status());
  for (const auto& field : (*reader)->schema()->fields()) result.names.push_back(field->name());
  result.chunks.resize(result.names.size());
  while (true) {
    auto batch = (*reader)->Next();
    if (!batch.ok()) return Failed(batch.status());
    if (!*batch) break;
    result.rows += (*batch)->num_rows();
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      const ArrayDataPtr& data = (*batch)->column(c).data();
      EXPECT_EQ(data->length, (*batch)->num_rows());
      auto valid = ValidateFull(*data);
      EXPECT_TRUE(valid.ok()) << result.names[static_cast<size_t>(c)] << ": " << valid.ToString();
      if (batch_rows >= 3) {
        EXPECT_LE((*batch)->num_rows(), batch_rows);
      }
      result.chunks[static_cast<size_t>(c)].push_back(data);
    }
  }
  return result;
}

// Column `name` printed as one list, batches joined.
std::string Column(const ReadResult& result, const std::string& name) {
  for (size_t c = 0; c < result.names.size(); ++c) {
    if (result.names[c] != name) continue;
    std::string out;
    for (const auto& chunk : result.chunks[c]) {
      std::string printed = Print(chunk);
      printed = printed.substr(1, printed.size() - 2);
      if (printed.empty()) continue;
      out += out.empty() ? printed : ", " + printed;
    }
    return "[" + out + "]";
  }
  return "<no column " + name + ">";
}

std::string Corpus(const std::string& name) { return strata::testing::ParquetTestingFile("data/" + name); }

TEST(NestedReaderTest, ListColumns) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(Corpus("list_columns.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "int64_list"), "[[1, 2, 3], [null, 1], [4]]");
  EXPECT_EQ(Column(r, "utf8_list"), R"([["abc", "efg", "hij"], null, ["efg", null, "hij", "xyz"]])");
}

TEST(NestedReaderTest, NestedLists) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(Corpus("nested_lists.snappy.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "a"),
            R"([[[["a", "b"], ["c"]], [null, ["d"]]], [[["a", "b"], ["c", "d"]], [null, ["e"]]], )"
            R"([[["a", "b"], ["c", "d"], ["e"]], [null, ["f"]]]])");
  EXPECT_EQ(Column(r, "b"), "[1, 1, 1]");
}

TEST(NestedReaderTest, NullListAndOldListStructure) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(Corpus("null_list.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "emptylist"), "[[]]");
  // old_list_structure.md: LIST<LIST<INT32>> [[1, 2], [3, 4]] in the legacy 2-level form, whose
  // repeated group "array" is the element and is itself annotated LIST.
  r = ReadAll(Corpus("old_list_structure.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "a"), "[[[1, 2], [3, 4]]]");
}

TEST(NestedReaderTest, RepeatedWithoutAnnotation) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(Corpus("repeated_no_annotation.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "id"), "[1, 2, 3, 4, 5, 6]");
  EXPECT_EQ(Column(r, "phoneNumbers"),
            "[null, null, {phone: []}, {phone: [{number: 5555555555, kind: null}]}, "
            R"({phone: [{number: 1111111111, kind: "home"}]}, {phone: [{number: 1111111111, kind: "home"}, )"
            R"({number: 2222222222, kind: null}, {number: 3333333333, kind: "mobile"}]}])");
  r = ReadAll(Corpus("repeated_primitive_no_list.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "Int32_list"), "[[0, 1, 2, 3], [], [4], [5, 6, 7, 8]]");
  EXPECT_EQ(Column(r, "String_list"),
            R"([["foo", "zero", "one", "two"], ["three"], ["four"], ["five", "six", "seven", "eight"]])");
  EXPECT_EQ(Column(r, "group_of_lists"),
            R"([{Int32_list_in_group: [0, 1, 2, 3], String_list_in_group: ["foo", "zero", "one", "two"]}, )"
            R"({Int32_list_in_group: [], String_list_in_group: ["three"]}, )"
            R"({Int32_list_in_group: [4], String_list_in_group: ["four"]}, )"
            R"({Int32_list_in_group: [5, 6, 7, 8], String_list_in_group: ["five", "six", "seven", "eight"]}])");
}

TEST(NestedReaderTest, Maps) {
  STRATA_REQUIRE_PARQUET_TESTING();
  // map_no_value.md: the value columns hold nulls; the map without a value column gets null
  // values, one per key.
  auto r = ReadAll(Corpus("map_no_value.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  const std::string keys = "[{1: null, 2: null, 3: null}, {4: null, 5: null, 6: null}, {7: null, 8: null, 9: null}]";
  EXPECT_EQ(Column(r, "my_map"), keys);
  EXPECT_EQ(Column(r, "my_map_no_v"), keys);
  EXPECT_EQ(Column(r, "my_list"), "[[1, 2, 3], [4, 5, 6], [7, 8, 9]]");
  r = ReadAll(Corpus("incorrect_map_schema.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "my_map"), R"([{"parent": "another", "name": "report"}])");
}

TEST(NestedReaderTest, NonNullableImpala) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(Corpus("nonnullable.impala.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "ID"), "[8]");
  EXPECT_EQ(Column(r, "Int_Array"), "[[-1]]");
  EXPECT_EQ(Column(r, "int_array_array"), "[[[-1, -2], []]]");
  EXPECT_EQ(Column(r, "Int_Map"), R"([{"k1": -1}])");
  EXPECT_EQ(Column(r, "int_map_array"), R"([[{}, {"k1": 1}, {}, {}]])");
  EXPECT_EQ(Column(r, "nested_Struct"), R"([{a: -1, B: [-1], c: {D: [[{e: -1, f: "nonnullable"}]]}, G: {}}])");
}

TEST(NestedReaderTest, StructOfNullsAndDataPageV2List) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(Corpus("nulls.snappy.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  std::string expected = "[";
  for (int i = 0; i < 8; ++i) expected += i ? ", {b_c_int: null}" : "{b_c_int: null}";
  EXPECT_EQ(Column(r, "b_struct"), expected + "]");
  r = ReadAll(Corpus("datapage_v2.snappy.parquet"));
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(Column(r, "e"), "[[1, 2, 3], null, null, [1, 2, 3], [1, 2]]");
}

TEST(NestedReaderTest, BatchesNeverSplitRows) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (const char* name : {"nested_lists.snappy.parquet", "repeated_no_annotation.parquet", "list_columns.parquet",
                           "nonnullable.impala.parquet", "datapage_v2.snappy.parquet"}) {
    auto whole = ReadAll(Corpus(name));
    ASSERT_TRUE(whole.status.ok()) << name << ": " << whole.status.ToString();
    for (int64_t batch_rows : {1, 2, 4}) {
      auto batched = ReadAll(Corpus(name), batch_rows);
      ASSERT_TRUE(batched.status.ok()) << name << ": " << batched.status.ToString();
      EXPECT_EQ(batched.rows, whole.rows);
      for (const auto& column : whole.names) {
        EXPECT_EQ(Column(batched, column), Column(whole, column)) << name << " " << column << " " << batch_rows;
      }
    }
  }
}

TEST(NestedReaderTest, RepetitionLevelsStartingAboveZeroAreCorrupt) {
  STRATA_REQUIRE_PARQUET_TESTING();
  auto r = ReadAll(strata::testing::ParquetTestingFile("bad_data/ARROW-GH-45185.parquet"));
  ASSERT_FALSE(r.status.ok());
  EXPECT_EQ(r.status.code(), StatusCode::kCorrupt);
  const std::string message = r.status.ToString();
  EXPECT_NE(message.find("ARROW-GH-45185.parquet"), std::string::npos) << message;
  EXPECT_NE(message.find("row group 0"), std::string::npos) << message;
  EXPECT_NE(message.find("repetition level 1"), std::string::npos) << message;
}

// DuckDB writes nested columns from formulas; strata's values must follow the same formulas.
class DuckDBNestedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    STRATA_REQUIRE_OR_SKIP(testing::DuckDBAvailable(), "node with node_modules/@duckdb/node-api");
  }
  testing::ScopedTempDir dir_{"strata_nested_"};
};

constexpr int kRows = 5000;
constexpr const char* kSelect =
    "SELECT i, "
    "CASE WHEN i % 7 = 0 THEN NULL ELSE list_transform(range(i % 5), x -> CASE WHEN x = 2 THEN NULL ELSE i * 10 + x "
    "END) END AS l, "
    "CASE WHEN i % 11 = 0 THEN NULL ELSE list_transform(range(i % 4), x -> CASE WHEN x = 1 THEN NULL ELSE 's' || "
    "(i + x) END) END AS s, "
    "CASE WHEN i % 13 = 0 THEN NULL ELSE {'a': CASE WHEN i % 3 = 0 THEN NULL ELSE i END, 'b': CASE WHEN i % 2 = 0 "
    "THEN [i, i + 1] ELSE [] END} END AS st, "
    "CASE WHEN i % 5 = 0 THEN NULL ELSE MAP(['k' || i, 'z'], [i, NULL]) END AS m "
    "FROM range(5000) t(i)";

std::string ExpectedRow(const std::string& column, int64_t i) {
  std::string out;
  if (column == "l") {
    if (i % 7 == 0) return "null";
    for (int64_t x = 0; x < i % 5; ++x) {
      if (x) out += ", ";
      out += x == 2 ? "null" : std::to_string(i * 10 + x);
    }
    return "[" + out + "]";
  }
  if (column == "s") {
    if (i % 11 == 0) return "null";
    for (int64_t x = 0; x < i % 4; ++x) {
      if (x) out += ", ";
      out += x == 1 ? "null" : "\"s" + std::to_string(i + x) + "\"";
    }
    return "[" + out + "]";
  }
  if (column == "st") {
    if (i % 13 == 0) return "null";
    const std::string a = i % 3 == 0 ? "null" : std::to_string(i);
    const std::string b = i % 2 == 0 ? "[" + std::to_string(i) + ", " + std::to_string(i + 1) + "]" : "[]";
    return "{a: " + a + ", b: " + b + "}";
  }
  if (i % 5 == 0) return "null";
  return "{\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", \"z\": null}";
}

TEST_F(DuckDBNestedTest, ListsStructsAndMapsAcrossRowGroupsAndBatches) {
  const std::string path = (dir_ / "nested.parquet").string();
  const std::string error = testing::WriteParquetWithDuckDB(kSelect, path, "ROW_GROUP_SIZE 2048");
  ASSERT_TRUE(error.empty()) << error;
  for (int64_t batch_rows : {64 * 1024, 1000, 7}) {
    auto r = ReadAll(path, batch_rows);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    ASSERT_EQ(r.rows, kRows);
    for (const char* column : {"l", "s", "st", "m"}) {
      std::string expected;
      for (int64_t i = 0; i < kRows; ++i) expected += (i ? ", " : "") + ExpectedRow(column, i);
      EXPECT_EQ(Column(r, column), "[" + expected + "]") << column << " batch_rows " << batch_rows;
    }
  }
}

TEST_F(DuckDBNestedTest, MemoryOfTheReaderIsReusedAcrossBatches) {
  const std::string path = (dir_ / "lists.parquet").string();
  const std::string error = testing::WriteParquetWithDuckDB(
      "SELECT list_transform(range(i % 9), x -> i + x) AS l FROM range(200000) t(i)", path);
  ASSERT_TRUE(error.empty()) << error;
  auto file = FileReader::OpenFile(path, SystemMemoryPool());
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  BatchReadOptions options;
  options.batch_rows = 4096;
  auto reader = (*file)->ReadBatches(options);
  ASSERT_TRUE(reader.ok());
  int64_t rows = 0;
  int64_t elements = 0;
  int64_t first_memory = -1;
  int64_t max_memory = 0;
  while (true) {
    auto batch = (*reader)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (!*batch) break;
    const auto& data = (*batch)->column(0).data();
    const auto* offsets = data->buffers[1]->data_as<int32_t>();
    for (int64_t r = 0; r < data->length; ++r) {
      ASSERT_EQ(offsets[r + 1] - offsets[r], (rows + r) % 9) << "row " << rows + r;
    }
    const auto* values = data->children[0]->buffers[1]->data_as<int64_t>();
    for (int64_t r = 0; r < data->length; ++r) {
      for (int32_t k = offsets[r]; k < offsets[r + 1]; ++k) ASSERT_EQ(values[k], rows + r + (k - offsets[r]));
    }
    elements += offsets[data->length];
    rows += data->length;
    const int64_t memory = (*reader)->memory_size();
    if (first_memory < 0) first_memory = memory;
    max_memory = std::max(max_memory, memory);
  }
  EXPECT_EQ(rows, 200000);
  int64_t expected_elements = 0;
  for (int64_t i = 0; i < 200000; ++i) expected_elements += i % 9;
  EXPECT_EQ(elements, expected_elements);
  // Scratch does not grow with the number of batches (one batch's levels plus page buffers).
  EXPECT_LE(max_memory, 2 * first_memory + (1 << 20));
}

}  // namespace
}  // namespace strata::parquet
