// parquet-testing/bad_data: files other readers crashed on or misread. Each must fail with an
// error that says what is wrong (named in the table below), or read cleanly when the file is
// valid-but-odd; and a file added to the folder later must at least fail cleanly.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "strata/parquet/read/file_reader.h"
#include "strata/testing/test_data.h"

namespace strata::parquet {
namespace {

struct Expectation {
  const char* file;
  // Empty: the file is valid-but-odd and must read cleanly, with `rows` rows. Otherwise the
  // error message contains every one of these: the column, where, and what was wrong.
  std::vector<const char*> all_of;
  int64_t rows = -1;
};

const Expectation kExpectations[] = {
    // A schema Thrift value was corrupted: the physical type is -7.
    {"PARQUET-1481.parquet", {"column 'Handle'", "unknown physical type -7"}},
    // The dictionary page header declares a negative count; the column chunk's size in the
    // footer also runs past the end of the file, which is found first.
    {"ARROW-RS-GH-6229-DICTHEADER.parquet",
     {"column 'region_key'", "row group 0", "offset 466 with 125 bytes lies outside the file (533 bytes)"}},
    // A page with fewer repetition levels than values (list<struct<null>>).
    {"ARROW-RS-GH-6229-LEVELS.parquet", {"column 'outer.list.item.c'", "ends after 1 of 21 levels"}},
    // Columns of one row group with different row counts (nested lists of each type).
    {"ARROW-GH-41317.parquet", {"column 'timestamp_us_no_tz'", "ends after 0 rows; the row group declares 3"}},
    // Valid-but-odd: RLE dictionary indices with bit width 0 (every index is 0) are legal.
    {"ARROW-GH-43605.parquet", {}, 21186},
    // Repetition levels that start with 1: a list continues before any list began.
    {"ARROW-GH-45185.parquet", {"column 'x.list.element'", "starts with repetition level 1, not 0"}},
    // A REQUIRED FIXED_LEN_BYTE_ARRAY column whose pages hold nulls (fewer values than slots).
    {"ARROW-GH-47662.parquet", {"column 'flba_field'", "page holds 91 values where 100 were expected"}},
};

Status ReadWholeFile(const std::string& path, MemoryPool* pool, int64_t* rows) {
  auto reader = FileReader::OpenFile(path, pool);
  if (!reader.ok()) return reader.status();
  auto table = (*reader)->ReadTable();
  if (!table.ok()) return table.status();
  *rows = (*table)->num_rows();
  return Status::OK();
}

TEST(BadDataTest, EachFileFailsNamingTheProblemOrReadsIfValid) {
  STRATA_REQUIRE_PARQUET_TESTING();
  for (const Expectation& expected : kExpectations) {
    const std::string path = strata::testing::ParquetTestingFile(std::string("bad_data/") + expected.file);
    if (!std::filesystem::exists(path)) {
      ADD_FAILURE() << path << " is missing";
      continue;
    }
    SCOPED_TRACE(expected.file);
    auto pool = MakeSystemMemoryPool();
    pool->set_limit(int64_t{256} << 20);
    int64_t rows = -1;
    Status st = ReadWholeFile(path, pool.get(), &rows);
    if (expected.all_of.empty()) {
      ASSERT_TRUE(st.ok()) << st.ToString();
      EXPECT_EQ(rows, expected.rows);
    } else {
      ASSERT_FALSE(st.ok()) << "a bad file read cleanly (" << rows << " rows)";
      EXPECT_TRUE(st.IsCorrupt()) << st.ToString();
      for (const char* text : expected.all_of) EXPECT_NE(st.message().find(text), std::string::npos) << text << " in " << st.ToString();
      EXPECT_NE(st.message().find(expected.file), std::string::npos) << "the error names the file: " << st.ToString();
    }
    EXPECT_EQ(pool->bytes_in_use(), 0);
  }
}

// Files added to bad_data later, not yet in the table: they must fail cleanly (or read), never
// crash, leak or hit the memory limit.
TEST(BadDataTest, UnlistedFilesFailCleanly) {
  STRATA_REQUIRE_PARQUET_TESTING();
  std::set<std::string> listed;
  for (const Expectation& expected : kExpectations) listed.insert(expected.file);
  for (const auto& entry :
       std::filesystem::directory_iterator(strata::testing::ParquetTestingFile("bad_data"))) {
    if (entry.path().extension() != ".parquet") continue;
    const std::string name = entry.path().filename().string();
    if (listed.count(name)) continue;
    SCOPED_TRACE(name);
    auto pool = MakeSystemMemoryPool();
    pool->set_limit(int64_t{256} << 20);
    int64_t rows = -1;
    Status st = ReadWholeFile(entry.path().string(), pool.get(), &rows);
    if (!st.ok()) {
      EXPECT_FALSE(st.IsOutOfMemory()) << st.ToString();
      EXPECT_FALSE(st.message().empty());
    }
    EXPECT_EQ(pool->bytes_in_use(), 0);
  }
}

}  // namespace
}  // namespace strata::parquet
