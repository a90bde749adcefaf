// Issue 39: RaggedRows::kSalvage (short rows padded, long rows skipped and reported, a quote
// left open at the end closed there), the limit on rows lost (max_bad_rows), and a header of
// the wrong width repaired instead of setting the width. Every case is read on one thread and
// in small blocks on two (ReadSeriallyAndInBlocks), which must agree, reports included.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>

#include "strata/csv/reader_test_util.h"
#include "strata/testing/test_executor.h"

namespace strata::csv {
namespace {

using testing::Names;
using testing::ReadAndReport;
using testing::Rows;

Result<ReadAndReport> Read(const std::string& text, RaggedRows mode, int64_t sample_bytes = 12,
                           int64_t max_bad_rows = -1) {
  CsvReadOptions options;
  options.parse.ragged_rows = mode;
  options.parse.max_bad_rows = max_bad_rows;
  options.convert.all_strings = true;
  return testing::ReadSeriallyAndInBlocks(text, options, strata::testing::TestExecutor(2), sample_bytes);
}

TEST(Salvage, PadsShortRowsSkipsLongOnesAndCountsBoth) {
  const std::string text = "a,b,c\n1,2,3\n4,5\n6,7,8\n9,10,11,12\n13\n14,15,16\n";
  CSV_ASSIGN_OR_FAIL(read, Read(text, RaggedRows::kSalvage));
  EXPECT_EQ(Rows(*read.table), (std::vector<std::string>{"1|2|3", "4|5|<null>", "6|7|8", "13|<null>|<null>", "14|15|16"}));
  EXPECT_EQ(read.report.rows, 5);
  EXPECT_EQ(read.report.padded_rows, 2);
  EXPECT_EQ(read.report.skipped_rows, 1);
  ASSERT_EQ(read.report.skipped_examples.size(), 1u);
  EXPECT_EQ(read.report.skipped_examples[0].line, 5);
  EXPECT_EQ(read.report.skipped_examples[0].fields, 4);
  EXPECT_EQ(read.report.unclosed_quote_line, 0);
  EXPECT_EQ(read.report.header_repair, "");

  // fill pads and counts too, skip skips both.
  auto fill = Read("a,b\n1\n2,3\n", RaggedRows::kFill);
  ASSERT_TRUE(fill.ok()) << fill.status().ToString();
  EXPECT_EQ(fill->report.padded_rows, 1);
  CSV_ASSIGN_OR_FAIL(skip, Read(text, RaggedRows::kSkip));
  EXPECT_EQ(skip.report.skipped_rows, 3);
  EXPECT_EQ(skip.report.padded_rows, 0);
  EXPECT_EQ(skip.report.rows, 3);
}

TEST(Salvage, AQuoteLeftOpenEndsAtTheEndOfTheInput) {
  const std::string text = "a,b\n1,x\n2,\"open,\n3,y\n";
  CSV_ASSIGN_OR_FAIL(read, Read(text, RaggedRows::kSalvage));
  EXPECT_EQ(Rows(*read.table), (std::vector<std::string>{"1|x", "2|open,\n3,y\n"}));
  EXPECT_EQ(read.report.unclosed_quote_line, 3);
  // Without a final line break too.
  CSV_ASSIGN_OR_FAIL(unterminated, Read("a,b\n1,x\n2,\"open", RaggedRows::kSalvage));
  EXPECT_EQ(Rows(*unterminated.table), (std::vector<std::string>{"1|x", "2|open"}));
  // The other modes fail naming the line, and point at salvage.
  for (RaggedRows mode : {RaggedRows::kError, RaggedRows::kFill, RaggedRows::kSkip}) {
    auto failed = Read(text, mode);
    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.status().message().find("line 3: a quoted field is never closed"), std::string::npos)
        << failed.status().ToString();
    EXPECT_NE(failed.status().message().find("--ragged salvage"), std::string::npos);
  }
}

TEST(Salvage, LosingMoreThanHalfTheRowsFailsUnlessAllowed) {
  // No width has a majority: the header's stays, and 4 of 4 rows are skipped.
  const std::string text = "a,b,c\n1,2\n3,4,5,6\n7,8\n9,10,11,12\n";
  auto failed = Read(text, RaggedRows::kSkip);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("4 of 4 rows skipped as not 3 fields (lines 2 (2 fields), 3 (4 fields)"),
            std::string::npos)
      << failed.status().ToString();
  EXPECT_NE(failed.status().message().find("--max-bad-rows"), std::string::npos);
  CSV_ASSIGN_OR_FAIL(allowed, Read(text, RaggedRows::kSkip, 12, 4));
  EXPECT_EQ(allowed.table->num_rows(), 0);
  EXPECT_EQ(allowed.report.skipped_rows, 4);
  // salvage pads the short ones: 2 of 4 lost is not more than half.
  CSV_ASSIGN_OR_FAIL(salvaged, Read(text, RaggedRows::kSalvage));
  EXPECT_EQ(Rows(*salvaged.table), (std::vector<std::string>{"1|2|<null>", "7|8|<null>"}));
  EXPECT_EQ(salvaged.report.skipped_rows, 2);
  // ... unless the limit given is lower.
  auto strict = Read(text, RaggedRows::kSalvage, 12, 1);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("2 of 4 rows skipped"), std::string::npos) << strict.status().ToString();
  EXPECT_NE(strict.status().message().find("more than --max-bad-rows 1"), std::string::npos);
}

TEST(Salvage, AHeaderOfTheWrongWidthIsRepaired) {
  // A missing separator in the header: the rows' width wins, the missing name is generated.
  const std::string short_header = "a;b,c\n1,2,3\n4,5,6\n7,8,9\n";
  for (RaggedRows mode : {RaggedRows::kFill, RaggedRows::kSkip, RaggedRows::kSalvage}) {
    CSV_ASSIGN_OR_FAIL(read, Read(short_header, mode, 64));
    EXPECT_EQ(Names(*read.table), (std::vector<std::string>{"a;b", "c", "f2"}));
    EXPECT_EQ(Rows(*read.table), (std::vector<std::string>{"1|2|3", "4|5|6", "7|8|9"}));
    EXPECT_EQ(read.report.header_repair,
              "line 1: the header has 2 fields, 3 of the 3 rows sampled below it have 3: read as 3 columns, 1 name "
              "generated (f2..)");
    EXPECT_EQ(read.report.skipped_rows, 0);
  }
  // An extra separator: the empty name goes first.
  CSV_ASSIGN_OR_FAIL(extra, Read("a,,b,c\n1,2,3\n4,5,6\n7,8,9\n", RaggedRows::kSalvage, 64));
  EXPECT_EQ(Names(*extra.table), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(extra.table->num_rows(), 3);
  EXPECT_NE(extra.report.header_repair.find("name dropped: ''"), std::string::npos) << extra.report.header_repair;
  // kError keeps the header's width: the first row of another width fails naming its line.
  auto strict = Read(short_header, RaggedRows::kError, 64);
  ASSERT_FALSE(strict.ok());
  EXPECT_NE(strict.status().message().find("line 2: expected 2 fields, found 3"), std::string::npos)
      << strict.status().ToString();
}

TEST(Salvage, ABrokenFirstRecordDoesNotSetTheWidth) {
  // No header (the first row fits the types below): the long first row is skipped, not the rest.
  CsvReadOptions options;
  options.parse.ragged_rows = RaggedRows::kSalvage;
  CSV_ASSIGN_OR_FAIL(read, testing::ReadSeriallyAndInBlocks("1,2,3,4\n5,6,7\n8,9,10\n11,12,13\n", options,
                                                            strata::testing::TestExecutor(2), 64));
  EXPECT_EQ(Rows(*read.table), (std::vector<std::string>{"5|6|7", "8|9|10", "11|12|13"}));
  EXPECT_EQ(read.report.skipped_rows, 1);
  EXPECT_EQ(read.report.skipped_examples.at(0).line, 1);
  EXPECT_EQ(read.report.header_repair, "");
}

// Generated files with rows of every width, quoted line breaks and doubled quotes, some ending
// inside an open quote: salvage reads them the same on one thread and in blocks of every size.
TEST(Salvage, SerialAndBlockReadsAgreeOnGeneratedFiles) {
  std::mt19937 random(39);
  for (int file = 0; file < 60; ++file) {
    std::string text = "a,b,c\n";
    const int rows = 20 + static_cast<int>(random() % 40);
    for (int r = 0; r < rows; ++r) {
      const int width = random() % 4 == 0 ? 1 + static_cast<int>(random() % 5) : 3;
      for (int f = 0; f < width; ++f) {
        if (f > 0) text += ',';
        switch (random() % 4) {
          case 0: text += "\"q\n" + std::to_string(r) + "\"\"x\""; break;
          case 1: text += width == 1 ? "e" : ""; break;  // a lone empty field is a blank line
          default: text += "v" + std::to_string(r * 10 + f);
        }
      }
      text += random() % 3 == 0 ? "\r\n" : "\n";
    }
    if (file % 3 == 0) text += "9,\"never closed,\n10,11\n";
    for (int64_t block_bytes : {1, 3, 16, 100}) {
      SCOPED_TRACE(fmt::format("file {} blocks of {}", file, block_bytes));
      CsvReadOptions options;
      options.parse.ragged_rows = RaggedRows::kSalvage;
      options.parse.max_bad_rows = 1 << 20;
      options.read.sample_bytes = 40;  // the same sample, so the same width and types
      options.read.executor = exec::Executor();
      CSV_ASSIGN_OR_FAIL(serial, testing::ReadWithReport(text, options));
      options.read.executor = strata::testing::TestExecutor(2);
      options.read.block_bytes = block_bytes;
      CSV_ASSIGN_OR_FAIL(blocks, testing::ReadWithReport(text, options));
      ASSERT_TRUE(serial.table->Equals(*blocks.table));
      EXPECT_EQ(serial.report.padded_rows, blocks.report.padded_rows);
      EXPECT_EQ(serial.report.skipped_rows, blocks.report.skipped_rows);
      EXPECT_EQ(serial.report.unclosed_quote_line, blocks.report.unclosed_quote_line);
      EXPECT_EQ(serial.report.unclosed_quote_line > 0, file % 3 == 0);
      EXPECT_EQ(serial.report.rows + serial.report.skipped_rows, rows + (file % 3 == 0 ? 1 : 0));
    }
  }
}

// A column added from some row on (the rows below have one more field, and fit the types of
// the rows above): salvage reads the wider width and pads the rows above instead of skipping
// the rows below. A second, wider table appended is not taken for one (its rows do not fit).
TEST(Salvage, AColumnAddedMidFileWidensTheTable) {
  std::string text = "id,v\n";
  for (int i = 0; i < 10; ++i) text += fmt::format("{},{}.5\n", i, i);
  std::string added = text;
  for (int i = 10; i < 15; ++i) added += fmt::format("{},{}.5,x{}\n", i, i, i);
  CSV_ASSIGN_OR_FAIL(read, Read(added, RaggedRows::kSalvage, 4096));
  EXPECT_EQ(Names(*read.table), (std::vector<std::string>{"id", "v", "f2"}));
  EXPECT_EQ(read.table->num_rows(), 15);
  EXPECT_EQ(read.report.padded_rows, 10);
  EXPECT_EQ(read.report.skipped_rows, 0);
  std::string appended = text + "a,b,c\n";
  for (int i = 0; i < 5; ++i) appended += fmt::format("o{},p{},q{}\n", i, i, i);
  CSV_ASSIGN_OR_FAIL(other, Read(appended, RaggedRows::kSalvage, 4096));
  EXPECT_EQ(other.table->num_columns(), 2);
  EXPECT_EQ(other.report.skipped_rows, 6);
  // The first rows short of a column are data, not a preamble.
  CSV_ASSIGN_OR_FAIL(start, Read("1,2.5\n2,3.5\n3,4.5,x\n4,5.5,y\n5,6.5,z\n6,7.5,w\n", RaggedRows::kSalvage, 4096));
  EXPECT_EQ(start.table->num_rows(), 6);
  EXPECT_EQ(start.report.preamble_rows, 0);
}

}  // namespace
}  // namespace strata::csv
