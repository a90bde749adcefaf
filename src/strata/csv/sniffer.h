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
// are. Candidates: delimiters , \t ; | ; quotes " and ' (' only when no " appears); escape
// none, or backslash when the sample holds a backslash before the quote. A reading wins by
// more rows agreeing on their width, then fewer quoted fields with text after the closing
// quote, then more columns; ties go to RFC 4180 (comma, double quote, no escape), so an
// escape, which drops bytes, is chosen only when it reads the sample strictly better.
// One dialect the sniffer tried, and how the sample read in it.
struct DialectCandidate {
  Dialect dialect;
  bool parsed = false;          // false: the sample does not parse in it
  int64_t rows = 0;             // rows read (the first 200 at most)
  int64_t rows_with_width = 0;  // rows with the most common field count
  int width = 0;                // that field count
  int64_t text_after_quote = 0;  // quoted fields with text after the closing quote
};

// `considered`, when given, receives every candidate tried, in order.
Result<Dialect> DetectDialect(std::string_view sample, const ParseOptions& options, MemoryPool* pool,
                              std::vector<DialectCandidate>* considered = nullptr);

// The field count most of the first 200 rows of `sample` have (ties to the wider), how many
// have it, and how many rows were read; zeros when the sample does not parse.
struct SampleWidth {
  int width = 0;
  int64_t rows_with_width = 0;
  int64_t rows = 0;
};
SampleWidth MajorityWidth(std::string_view sample, const Dialect& dialect, MemoryPool* pool);

}  // namespace strata::csv
