#include "strata/csv/parser.h"

#include <gtest/gtest.h>

#include "strata/csv/csv_test_util.h"
#include "strata/memory/memory_pool.h"

namespace strata::csv {
namespace {

using testing::DescribeRows;

struct Parsed {
  Status status;
  std::vector<std::string> rows;
  BlockParseResult result;
};

Parsed ParseAll(std::string_view text, Dialect dialect = {}, RaggedRows ragged = RaggedRows::kError,
                int num_columns = -1, bool is_final = true) {
  ParsedRows rows(SystemMemoryPool());
  rows.Clear(num_columns);
  BlockParser parser(dialect, ragged, 1 << 20, "test.csv");
  Parsed out;
  out.status = parser.Parse(text, static_cast<int64_t>(text.size()), is_final, 1, INT64_MAX, &rows, &out.result);
  if (out.status.ok()) out.rows = DescribeRows(rows);
  return out;
}

TEST(BlockParser, Rfc4180Basics) {
  auto p = ParseAll("a,b,c\n1,\"x,y\",3\n\"he said \"\"hi\"\"\",,\"\"\n");
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows, (std::vector<std::string>{"1:a|b|c", "2:1|'x,y'|3", "3:'he said \"hi\"'||''"}));
  EXPECT_EQ(p.result.consumed, 37);  // the whole text
  EXPECT_EQ(p.result.lines, 3);
}

TEST(BlockParser, NewlinesInsideQuotesCountAsLines) {
  auto p = ParseAll("a,b\n\"one\ntwo\",x\r\n\"3\r\n4\",y\nlast,z");
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows, (std::vector<std::string>{"1:a|b", "2:'one\ntwo'|x", "4:'3\r\n4'|y", "6:last|z"}));
  EXPECT_EQ(p.result.lines, 5);
}

TEST(BlockParser, LineEndingsLfCrlfCr) {
  for (std::string eol : {"\n", "\r\n", "\r"}) {
    auto p = ParseAll("a,b" + eol + "1,2" + eol + "3,4" + eol);
    ASSERT_TRUE(p.status.ok()) << p.status.ToString();
    EXPECT_EQ(p.rows, (std::vector<std::string>{"1:a|b", "2:1|2", "3:3|4"})) << "eol " << eol.size();
  }
}

TEST(BlockParser, BlankLinesAndComments) {
  Dialect d;
  d.comment = '#';
  auto p = ParseAll("# a comment, with \"quote\n\na,b\n\n#x\n1,#2\n", d);
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows, (std::vector<std::string>{"3:a|b", "6:1|#2"}));
  d.ignore_empty_lines = false;
  d.comment = '\0';
  auto q = ParseAll("a\n\nb\n", d);
  ASSERT_TRUE(q.status.ok());
  EXPECT_EQ(q.rows, (std::vector<std::string>{"1:a", "2:", "3:b"}));
}

TEST(BlockParser, BackslashEscapes) {
  Dialect d;
  d.escaping = true;
  d.double_quote = false;
  auto p = ParseAll("\"a\\\"b\",c\\,d\ne\\\nf,g\n", d);
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows, (std::vector<std::string>{"1:'a\"b'|c,d", "2:e\nf|g"}));
}

TEST(BlockParser, LenientQuotes) {
  // A quote inside an unquoted field is literal; text after a closing quote is kept.
  auto p = ParseAll("ab\"c,\"x\"y,z\n");
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows, (std::vector<std::string>{"1:ab\"c|'xy'|z"}));
}

TEST(BlockParser, TrailingDelimiterAndNoFinalNewline) {
  auto p = ParseAll("a,b,\n1,2,");
  ASSERT_TRUE(p.status.ok()) << p.status.ToString();
  EXPECT_EQ(p.rows, (std::vector<std::string>{"1:a|b|", "2:1|2|"}));
}

TEST(BlockParser, IncompleteRowIsLeftForTheNextRead) {
  for (std::string text : {"a,b\n1,2\n3,", "a,b\n1,2\n\"3\n", "a,b\n1,2\n3,4\r", "a,b\n1,2\n\"3\"", "a,b\n1,2\n3,4"}) {
    auto p = ParseAll(text, {}, RaggedRows::kError, -1, /*is_final=*/false);
    ASSERT_TRUE(p.status.ok()) << p.status.ToString();
    EXPECT_EQ(p.rows, (std::vector<std::string>{"1:a|b", "2:1|2"})) << text;
    EXPECT_EQ(p.result.consumed, 8) << text;
    EXPECT_EQ(p.result.lines, 2) << text;
  }
}

TEST(BlockParser, UnclosedQuoteAtTheEndIsAnError) {
  auto p = ParseAll("a,b\n\"1,2\n3,4\n");
  ASSERT_FALSE(p.status.ok());
  EXPECT_NE(p.status.message().find("test.csv' line 2"), std::string::npos) << p.status.ToString();
  EXPECT_NE(p.status.message().find("never closed"), std::string::npos);
}

TEST(BlockParser, RaggedRows) {
  const std::string text = "a,b,c\n1,2\n1,2,3,4\n5,6,7\n";
  auto error = ParseAll(text);
  ASSERT_FALSE(error.status.ok());
  EXPECT_NE(error.status.message().find("line 2: expected 3 fields, found 2"), std::string::npos)
      << error.status.ToString();
  auto fill = ParseAll("a,b,c\n1,2\n5,6,7\n", {}, RaggedRows::kFill);
  ASSERT_TRUE(fill.status.ok());
  EXPECT_EQ(fill.rows, (std::vector<std::string>{"1:a|b|c", "2:1|2|<missing>", "3:5|6|7"}));
  auto long_row = ParseAll(text, {}, RaggedRows::kFill);
  EXPECT_FALSE(long_row.status.ok());
  auto skip = ParseAll(text, {}, RaggedRows::kSkip);
  ASSERT_TRUE(skip.status.ok());
  EXPECT_EQ(skip.rows, (std::vector<std::string>{"1:a|b|c", "4:5|6|7"}));
  EXPECT_EQ(skip.result.skipped_rows, 2);
  ASSERT_EQ(skip.result.skipped_examples.size(), 2u);
  EXPECT_EQ(skip.result.skipped_examples[1].line, 3);
  EXPECT_EQ(skip.result.skipped_examples[1].fields, 4);
}

TEST(BlockParser, StopAndMaxRows) {
  ParsedRows rows(SystemMemoryPool());
  rows.Clear(-1);
  BlockParser parser({}, RaggedRows::kError, 1 << 20, "t");
  BlockParseResult result;
  const std::string text = "h1,h2\n1,2\n3,4\n";
  ASSERT_TRUE(parser.Parse(text, 14, true, 1, 1, &rows, &result).ok());
  EXPECT_EQ(rows.num_rows(), 1);
  EXPECT_EQ(rows.num_columns(), 2);
  EXPECT_EQ(result.consumed, 6);
  rows.Clear(2);
  // Rows starting before `stop` are parsed whole, even when they end after it.
  ASSERT_TRUE(parser.Parse(std::string_view(text).substr(6), 1, true, 2, INT64_MAX, &rows, &result).ok());
  EXPECT_EQ(DescribeRows(rows), (std::vector<std::string>{"2:1|2"}));
  EXPECT_EQ(result.consumed, 4);
}

TEST(BlockParser, MaxRowBytesBoundsAnUnclosedQuote) {
  ParsedRows rows(SystemMemoryPool());
  rows.Clear(-1);
  BlockParser parser({}, RaggedRows::kError, 100, "big.csv");
  BlockParseResult result;
  const std::string text = "a\n\"" + std::string(1000, 'x');
  Status st = parser.Parse(text, static_cast<int64_t>(text.size()), false, 1, INT64_MAX, &rows, &result);
  EXPECT_EQ(st.code(), StatusCode::kLimitExceeded) << st.ToString();
  EXPECT_NE(st.message().find("line 2"), std::string::npos) << st.ToString();
}

TEST(BlockParser, ReusedRowsAllocateNothingInSteadyState) {
  auto owned_pool = MakeSystemMemoryPool();
  MemoryPool& pool = *owned_pool;
  ParsedRows rows(&pool);
  BlockParser parser({}, RaggedRows::kError, 1 << 20, "t");
  std::string text;
  for (int i = 0; i < 1000; ++i) text += std::to_string(i) + ",\"text " + std::to_string(i) + "\",x\n";
  BlockParseResult result;
  int64_t allocations_after_first = 0;
  for (int round = 0; round < 5; ++round) {
    rows.Clear(3);
    ASSERT_TRUE(parser.Parse(text, static_cast<int64_t>(text.size()), true, 1, INT64_MAX, &rows, &result).ok());
    ASSERT_EQ(rows.num_rows(), 1000);
    if (round == 0) allocations_after_first = pool.stats().num_allocations + pool.stats().num_reallocations;
  }
  EXPECT_EQ(pool.stats().num_allocations + pool.stats().num_reallocations, allocations_after_first);
}

}  // namespace
}  // namespace strata::csv
