#include "strata/csv/block_splitter.h"

#include <gtest/gtest.h>

#include <random>

#include "strata/csv/csv_test_util.h"
#include "strata/memory/memory_pool.h"

namespace strata::csv {
namespace {

using testing::DescribeRows;

// Random CSV text in `dialect` whose fields are full of what makes splitting hard: quoted
// delimiters and line breaks, doubled quotes, escapes, CRLF, blank lines, comments.
std::string RandomCsv(std::mt19937_64& rng, const Dialect& d, int rows, int columns) {
  const std::string eols[] = {"\n", "\r\n", "\r"};
  const std::string eol = eols[rng() % (rng() % 4 == 0 ? 3 : 2)];
  std::string out;
  for (int r = 0; r < rows; ++r) {
    if (rng() % 17 == 0) out += eol;  // blank line
    if (d.comment != '\0' && rng() % 13 == 0) out += std::string(1, d.comment) + " note, \"x" + eol;
    for (int c = 0; c < columns; ++c) {
      if (c > 0) out += d.delimiter;
      const int kind = static_cast<int>(rng() % 6);
      if (kind == 0) continue;  // empty
      if (kind == 1 || !d.quoting) {
        out += "v" + std::to_string(rng() % 1000);
        // A multi-byte delimiter's first byte alone is text.
        if (d.delimiter.size() > 1 && rng() % 3 == 0) out += d.delimiter.substr(0, 1) + "w";
        if (d.escaping && rng() % 4 == 0) out += std::string(1, d.escape) + (rng() % 2 ? "\n" : ",");
        continue;
      }
      out += d.quote;
      const int pieces = static_cast<int>(rng() % 5);
      for (int i = 0; i < pieces; ++i) {
        switch (rng() % 6) {
          case 0: out += "\n"; break;
          case 1: out += "\r\n"; break;
          case 2: out += d.delimiter; break;
          case 3:
            if (d.double_quote) out += std::string(2, d.quote);
            else if (d.escaping) out += std::string(1, d.escape) + d.quote;
            break;
          case 4:
            if (d.escaping) out += std::string(1, d.escape) + d.escape;
            break;
          default: out += "text"; break;
        }
      }
      out += d.quote;
    }
    out += eol;
  }
  return out;
}

std::vector<std::string> ParseSerially(std::string_view text, const Dialect& d) {
  ParsedRows rows(SystemMemoryPool());
  rows.Clear(-1);
  BlockParser parser(d, RaggedRows::kError, 1 << 20, "t");
  BlockParseResult result;
  Status st = parser.Parse(text, static_cast<int64_t>(text.size()), true, 1, INT64_MAX, &rows, &result);
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(result.consumed, static_cast<int64_t>(text.size()));
  return DescribeRows(rows);
}

// Splits like the reader does: candidates, scans, resolution, then one parse per block.
std::vector<std::string> ParseInBlocks(std::string_view text, const Dialect& d, int64_t block_bytes) {
  BlockSplitter splitter(d);
  const auto candidates = splitter.CandidateBoundaries(text, block_bytes);
  std::vector<ChunkScan> scans;
  int64_t begin = 0;
  for (int64_t c : candidates) {
    scans.push_back(splitter.ScanChunk(text, begin, c));
    begin = c;
  }
  const auto starts = splitter.ResolveBlockStarts(text, candidates, scans, 1);
  BlockParser parser(d, RaggedRows::kError, 1 << 20, "t");
  std::vector<std::string> out;
  int columns = -1;
  for (size_t b = 0; b < starts.size(); ++b) {
    const int64_t start = starts[b].offset;
    const int64_t stop = b + 1 < starts.size() ? starts[b + 1].offset : static_cast<int64_t>(text.size());
    ParsedRows rows(SystemMemoryPool());
    rows.Clear(columns);
    BlockParseResult result;
    Status st = parser.Parse(text.substr(static_cast<size_t>(start)), stop - start, true, starts[b].line, INT64_MAX,
                             &rows, &result);
    EXPECT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(result.consumed, stop - start) << "block " << b << " does not end where the next starts";
    EXPECT_EQ(starts[b].line + result.lines, b + 1 < starts.size() ? starts[b + 1].line : starts[b].line + result.lines);
    if (rows.num_columns() >= 0) columns = rows.num_columns();
    for (auto& row : DescribeRows(rows)) out.push_back(std::move(row));
  }
  return out;
}

TEST(BlockSplitter, QuotedLineBreaksAtEveryBoundary) {
  Dialect d;
  const std::string text = "a,b\n\"x\ny\nz\",1\n\"p\nq\",2\nr,3\n";
  const auto expected = ParseSerially(text, d);
  for (int64_t block = 1; block <= static_cast<int64_t>(text.size()); ++block) {
    EXPECT_EQ(ParseInBlocks(text, d, block), expected) << "block_bytes " << block;
  }
}

TEST(BlockSplitter, EqualsSerialParseOnRandomInputs) {
  std::mt19937_64 rng(20261201);
  int checked = 0;
  for (int round = 0; round < 300; ++round) {
    Dialect d;
    switch (round % 7) {
      case 0: break;
      case 1: d.delimiter = "\t"; d.comment = '#'; break;
      case 2: d.escaping = true; d.double_quote = false; break;
      case 3: d.escaping = true; d.delimiter = ";"; d.quote = '\''; break;
      case 4: d.quoting = false; d.ignore_empty_lines = false; break;
      case 5: d.delimiter = ", "; break;
      case 6: d.delimiter = "||"; d.escaping = true; d.double_quote = false; d.comment = '#'; break;
    }
    if (!d.ignore_empty_lines) d.comment = '\0';
    const int columns = 1 + static_cast<int>(rng() % 4);
    // Without ignore_empty_lines a blank line is a one-field row; keep such inputs 1 column.
    const std::string text = RandomCsv(rng, d, 1 + static_cast<int>(rng() % 40), d.ignore_empty_lines ? columns : 1);
    const auto expected = ParseSerially(text, d);
    for (int64_t block : {1, 2, 3, 5, 8, 13, 64}) {
      ASSERT_EQ(ParseInBlocks(text, d, block), expected) << "round " << round << " block " << block << "\n" << text;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 300 * 7);
}

TEST(BlockSplitter, PlainChunksSkipTheLexer) {
  Dialect d;
  BlockSplitter splitter(d);
  const std::string text = "1,2\n3,4\n5,6\n";
  const ChunkScan scan = splitter.ScanChunk(text, 0, 8);
  EXPECT_EQ(scan.line_breaks, 2);
  EXPECT_EQ(scan.end_state[0], LexState::kRowStart);
  EXPECT_EQ(scan.end_state[1], LexState::kQuoted);
}

TEST(BlockSplitter, CandidatesFollowLineBreaks) {
  Dialect d;
  BlockSplitter splitter(d);
  EXPECT_EQ(splitter.CandidateBoundaries("ab\ncd\r\nef\rgh\n", 1), (std::vector<int64_t>{3, 7, 10}));
  EXPECT_TRUE(splitter.CandidateBoundaries("abcdef", 2).empty());
}

}  // namespace
}  // namespace strata::csv
