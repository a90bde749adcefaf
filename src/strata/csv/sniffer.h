// Sniffer: fills in what ParseOptions leaves open (delimiter, quote, escape) from a sample of
// the input, by parsing it in each candidate dialect and keeping the one whose rows agree on
// their field count. Header detection, which needs the types, is in reader.cc.
#pragma once

#include <string_view>
#include <vector>

#include "strata/csv/parser.h"
#include "strata/util/result.h"

namespace strata::csv {

// `sample` starts at a row start; its last line may be cut. Given options are kept as they
// are. Candidates: delimiters , \t ; | and, where the sample holds them, the two-byte ", "
// "; " "| " "||" ";;"; quotes " and ' (' only when the sample holds one); escape none, or
// backslash when the sample holds a backslash before the quote. A reading wins by more rows
// agreeing on their width; then a two-byte delimiter over its own first byte when both read
// as many rows alike into the same columns (", " over ","), or "||" over "|" when the single
// byte reads one empty field between each two; then fewer quoted fields with text after the
// closing quote; then more quoted fields closed cleanly (the mark of the right quote: '-quoted
// files are read with ' even where a " appears); then more columns. Ties go to RFC 4180
// (comma, double quote, no escape), so an escape, which drops bytes, is chosen only when it
// reads the sample strictly better. Every row of the sample is read, kSniffRows at most (100,000
// rows of a 1 MiB sample: a few ms per candidate).
inline constexpr int64_t kSniffRows = 100000;

// One dialect the sniffer tried, and how the sample read in it.
struct DialectCandidate {
  Dialect dialect;
  bool parsed = false;          // false: the sample does not parse in it
  int64_t rows = 0;             // rows read (the first 200 at most)
  int64_t rows_with_width = 0;  // rows with the most common field count
  int width = 0;                // that field count
  int64_t text_after_quote = 0;  // quoted fields with text after the closing quote
  int64_t clean_quoted = 0;      // quoted fields with nothing after the closing quote
};

// `considered`, when given, receives every candidate tried, in order.
Result<Dialect> DetectDialect(std::string_view sample, const ParseOptions& options, MemoryPool* pool,
                              std::vector<DialectCandidate>* considered = nullptr);

// The field count most of the first kSniffRows rows of `sample` have (ties to the wider), how many
// have it, and how many rows were read; zeros when the sample does not parse.
// Also a column added from some row on: the wider width that, from row `tail_start` (0-based)
// to the end, 90% of the rows have (3 rows at least; 0 when none).
struct SampleWidth {
  int width = 0;
  int64_t rows_with_width = 0;
  int64_t rows = 0;
  int tail_width = 0;
  int64_t tail_start = 0;
  int64_t tail_offset = 0;  // the byte of the sample where that row starts
  int64_t tail_rows = 0;
};
SampleWidth MajorityWidth(std::string_view sample, const Dialect& dialect, MemoryPool* pool);

// Whether the rows of `width.tail_width` fields fit, in their first width.width columns, the
// types the rows above them have (as inferred without all_strings): a column added mid-file,
// not a second table of another width appended.
bool TailFitsTypesAbove(std::string_view sample, const Dialect& dialect, const SampleWidth& width,
                        const ConvertOptions& convert, MemoryPool* pool);

}  // namespace strata::csv
