// BlockParser: turns the bytes of whole CSV rows into ParsedRows (fields unescaped into one
// buffer). It is the second stage of the reader: the block splitter (block_splitter.h) finds
// where rows start, so every block handed to Parse() starts at a row start, and blocks are
// parsed on any thread independently. The rules here and the splitter's state machine are
// one dialect: they must agree byte for byte (tests parse every input both ways).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/csv/parsed_rows.h"
#include "strata/csv/read_options.h"

namespace strata::csv {

// A resolved dialect: no "auto" left (the sniffer fills ParseOptions' nullopts in).
struct Dialect {
  std::string delimiter = ",";  // 1 to kMaxDelimiterBytes bytes
  char quote = '"';  // used only when quoting
  bool quoting = true;
  bool double_quote = true;
  char escape = '\\';  // used only when escaping
  bool escaping = false;
  char comment = '\0';  // '\0' = none
  bool ignore_empty_lines = true;

  // The dialect of `options` with every nullopt taken as RFC 4180 (comma, double quote, no escape).
  static Dialect FromOptions(const ParseOptions& options);
  // "delimiter ',' quote '\"' ...", for messages.
  std::string ToString() const;
};

// Where and why rows were skipped (RaggedRows::kSkip, kSalvage).
struct SkippedRow {
  int64_t line = 0;
  int fields = 0;
};

struct BlockParseResult {
  // Bytes of `data` consumed: the start of the first row not parsed. Less than data.size()
  // when a row is incomplete (input continues in the next read) or `max_rows` was reached.
  int64_t consumed = 0;
  // Line breaks in the consumed bytes (LF, CRLF and lone CR each count one).
  int64_t lines = 0;
  // Rows skipped as ragged (kSkip; long rows in kSalvage): their count, and the first few.
  int64_t skipped_rows = 0;
  std::vector<SkippedRow> skipped_examples;
  // Short rows padded with nulls (kFill, kSalvage).
  int64_t padded_rows = 0;
  // kSalvage: the line of a row whose quoted field the end of the input closed (0: none).
  int64_t unclosed_quote_line = 0;
  // Quoted fields with text after their closing quote ("ab"c): kept, but a sign that the
  // dialect is wrong, which the sniffer weighs.
  int64_t text_after_quote = 0;
};

class BlockParser {
 public:
  // `name` is the input's name for messages.
  BlockParser(const Dialect& dialect, RaggedRows ragged_rows, int64_t max_row_bytes, std::string name);

  // Parses the rows of `data` that start before byte `stop` (a row start, or data.size()),
  // appending them to `out` (which must have been Clear()ed to `num_columns`; num_columns < 0
  // takes the first row's field count: headers and samples). `data` starts at a row start
  // on line `first_line`. `is_final`: the input ends with `data`, so a last row without a
  // line break is complete; otherwise an unfinished row is left for the next call.
  Status Parse(std::string_view data, int64_t stop, bool is_final, int64_t first_line, int64_t max_rows,
               ParsedRows* out, BlockParseResult* result) const;

 private:
  Dialect dialect_;
  RaggedRows ragged_rows_;
  int64_t max_row_bytes_;
  std::string name_;
  // A delimiter of two bytes or more: its first byte is special (below), and ends a field only
  // where the rest follows; elsewhere it is text.
  bool multi_byte_delimiter_ = false;
  // Bytes that end an unquoted run (delimiter, CR, LF, escape) and a quoted run (quote,
  // escape, CR, LF): one table lookup per byte in the scanning loops.
  std::array<bool, 256> unquoted_special_{};
  std::array<bool, 256> quoted_special_{};
  // The same bytes broadcast to 8 lanes, for the word-at-a-time scan (0 lanes unused).
  std::array<uint64_t, 4> unquoted_words_{};
  std::array<uint64_t, 4> quoted_words_{};
};

}  // namespace strata::csv
