// CsvReader::detection(): every dialect the sniffer tried with how the sample read in it, and
// why the header and the width are what they are (`strata schema FILE.csv` prints it).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "strata/csv/reader_test_util.h"
#include "strata/testing/test_executor.h"

namespace strata::csv {
namespace {

TEST(Detection, ListsEveryCandidateAndTheChoices) {
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(testing::Memory("id,name\n1,\"x\"\n2,y\n"), {}, SystemMemoryPool()));
  const CsvDetection& d = reader->detection();
  EXPECT_EQ(d.sample_bytes, 18);
  // Four delimiters; only the double quote (one appears); no escape (none escapes it).
  ASSERT_EQ(d.dialects.size(), 4u);
  EXPECT_EQ(d.dialects[0].dialect.ToString(), "delimiter ',', quote '\"', escape none");
  EXPECT_EQ(d.dialects[0].rows, 3);
  EXPECT_EQ(d.dialects[0].rows_with_width, 3);
  EXPECT_EQ(d.dialects[0].width, 2);
  EXPECT_EQ(d.dialects[1].dialect.delimiter, "\t");
  EXPECT_EQ(d.dialects[1].width, 1);
  EXPECT_EQ(d.header, "yes: 'id' in the first row does not fit column 1 (int64 below it)");
  EXPECT_EQ(d.width, "2 columns: the first row's (--ragged error)");

  // A backslash before the quote adds the escaping candidates; salvage takes the majority width.
  CsvReadOptions options;
  options.parse.ragged_rows = RaggedRows::kSalvage;
  CSV_ASSIGN_OR_FAIL(escaped, CsvReader::Open(testing::Memory("a,b\n1,\"x\\\"y\",3\n2,z,4\n"), options,
                                              SystemMemoryPool()));
  const CsvDetection& e = escaped->detection();
  ASSERT_EQ(e.dialects.size(), 8u);
  EXPECT_TRUE(e.dialects[1].dialect.escaping);
  EXPECT_EQ(e.dialects[0].text_after_quote, 1);  // the literal reading: y" after the quote
  EXPECT_EQ(e.dialects[1].text_after_quote, 0);
  EXPECT_TRUE(escaped->dialect().escaping);
  EXPECT_EQ(e.width, "3 columns: most rows'; 2 of the 2 rows sampled below the first have 3 fields");
  EXPECT_EQ(e.header, "yes: 'a' in the first row does not fit column 1 (int64 below it)");
  CSV_ASSIGN_OR_FAIL(text, CsvReader::Open(testing::Memory("a,b\nx,y\n"), {}, SystemMemoryPool()));
  EXPECT_EQ(text->detection().header, "yes: every column is text, nothing to tell a header by");

  options.parse.header = false;
  CSV_ASSIGN_OR_FAIL(given, CsvReader::Open(testing::Memory("1,2\n3,4\n"), options, SystemMemoryPool()));
  EXPECT_EQ(given->detection().header, "no: given");
}

// Issue 39: a two-byte delimiter, detected and given, read alike on one thread and in blocks
// of 7 bytes on two (the block splitter sees the delimiter whole).
TEST(Detection, MultiByteDelimitersSeriallyAndInBlocks) {
  std::string text = "id, name, note\n";
  for (int i = 0; i < 40; ++i) text += fmt::format("{}, \"n,{}\", a,b {}\n", i, i, i);
  CSV_ASSIGN_OR_FAIL(read, testing::ReadSeriallyAndInBlocks(text, {}, strata::testing::TestExecutor(2), 64));
  EXPECT_EQ(testing::Names(*read.table), (std::vector<std::string>{"id", "name", "note"}));
  ASSERT_EQ(read.table->num_rows(), 40);
  EXPECT_EQ(testing::Rows(*read.table)[3], "3|n,3|a,b 3");
  CsvReadOptions options;
  options.parse.delimiter = "||";
  CSV_ASSIGN_OR_FAIL(given, testing::ReadSeriallyAndInBlocks("a||b\n1|x||2\n3||y|\n", options,
                                                              strata::testing::TestExecutor(2), 8));
  EXPECT_EQ(testing::Rows(*given.table), (std::vector<std::string>{"1|x|2", "3|y|"}));
}

// Issue 39: rows above the table are skipped and reported, in every ragged mode, serially and
// in blocks; a header with a separator missing stays the header (repaired), and data stays data.
TEST(Detection, PreambleRowsAreSkippedAndReported) {
  std::string body = "id,name,score\n";
  for (int i = 0; i < 12; ++i) body += fmt::format("{},n{},{}.5\n", i, i, i);
  struct Case {
    std::string text;
    int64_t preamble_rows;
    std::string first_name;
  };
  const Case cases[] = {
      {"Sales report 2024\n\n" + body, 1, "id"},           // a title, a blank line
      {"PREAMBLE,,\nsource: x\n" + body, 2, "id"},        // a padded title, a note
      {"Report, 2024\n" + body, 1, "id"},                  // a title with a separator
      {"group,,\n" + body, 1, "id"},                       // a sparse group row above the header
      {"part A,part B,part C\n" + body, 1, "id"},          // a header above the header
      {body, 0, "id"},
      {"id,name score\n" + body.substr(14), 0, "id"},      // a header missing a separator: repaired
      {body.substr(14), 0, "f0"},                           // no header: the first row is data
  };
  for (const Case& c : cases) {
    for (RaggedRows mode : {RaggedRows::kError, RaggedRows::kSalvage}) {
      if (mode == RaggedRows::kError && c.text.rfind("id,name score", 0) == 0) continue;  // fails naming line 2
      CsvReadOptions options;
      options.parse.ragged_rows = mode;
      CSV_ASSIGN_OR_FAIL(read, testing::ReadSeriallyAndInBlocks(c.text, options, strata::testing::TestExecutor(2), 4096));
      EXPECT_EQ(read.report.preamble_rows, c.preamble_rows) << c.text;
      EXPECT_EQ(testing::Names(*read.table)[0], c.first_name) << c.text;
      EXPECT_EQ(read.table->num_rows(), 12) << c.text;
      EXPECT_EQ(read.table->num_columns(), 3) << c.text;
    }
  }
  CSV_ASSIGN_OR_FAIL(reader, CsvReader::Open(testing::Memory("Title\nsecond line\n" + body), {}, SystemMemoryPool()));
  EXPECT_EQ(reader->detection().preamble,
            "2 rows skipped (lines 1-2: 'Title', 'second line'): 13 of the 15 rows read have 3 fields; the table "
            "starts at the first row of 3 fields");
  EXPECT_EQ(reader->report().preamble_first_line, 1);
  EXPECT_EQ(reader->report().preamble_last_line, 2);
  CSV_ASSIGN_OR_FAIL(table, reader->ReadAll());
  EXPECT_EQ(testing::Rows(*table)[0], "0|n0|0.5");
  // Inferring types from the whole file reads the same rows, the preamble skipped in both passes
  // (the second pass is given the first's header decision: here "no").
  const std::string path = ::testing::TempDir() + "/preamble_whole_file.csv";
  {
    std::string no_header_body = "Title line\n";
    for (int i = 0; i < 12; ++i) no_header_body += fmt::format("{},n{},{}.5\n", i, i, i);
    FILE* file = std::fopen(path.c_str(), "wb");
    ASSERT_NE(file, nullptr);
    std::fwrite(no_header_body.data(), 1, no_header_body.size(), file);
    std::fclose(file);
  }
  CsvReadOptions whole;
  whole.read.infer_whole_file = true;
  CSV_ASSIGN_OR_FAIL(twice, CsvReader::Open(path, whole, SystemMemoryPool()));
  EXPECT_FALSE(twice->has_header());
  EXPECT_EQ(twice->report().preamble_rows, 1);
  EXPECT_EQ(twice->detection().preamble.substr(0, 34), "1 row skipped (line 1: 'Title line");
  CSV_ASSIGN_OR_FAIL(twice_table, twice->ReadAll());
  EXPECT_EQ(twice_table->num_rows(), 12);
  std::remove(path.c_str());
  // Explicit options: no preamble looked for.
  CsvReadOptions no_header;
  no_header.parse.header = false;
  no_header.parse.ragged_rows = RaggedRows::kSalvage;
  CSV_ASSIGN_OR_FAIL(given, CsvReader::Open(testing::Memory("Title\n" + body), no_header, SystemMemoryPool()));
  EXPECT_EQ(given->detection().preamble, "not looked for: no header (given)");
}

}  // namespace
}  // namespace strata::csv
