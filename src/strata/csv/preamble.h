// Preamble detection: the rows above a CSV table's header that are not part of the table (a
// title, "PREAMBLE,,,,", notes, the upper row of a two-row header). The reader drops them
// before it reads the header, after the sniffer (sniffer.h) has chosen the dialect, and
// reports them (CsvReadReport::preamble_rows, `strata schema`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/csv/parser.h"
#include "strata/csv/read_options.h"
#include "strata/memory/memory_pool.h"

namespace strata::csv {

// Rows looked at for a preamble: a table starting below this is not found.
inline constexpr int kMaxPreambleRows = 64;

struct Preamble {
  int64_t rows = 0;   // rows (records) above the table
  int64_t bytes = 0;  // the bytes they take from the start of the sample, blank lines included
  int64_t lines = 0;  // the input lines they take
  std::vector<std::string> excerpts;  // the first few rows' text, cut to 40 bytes
  // Why: the width most rows have, and the row the table starts at.
  std::string reason;
};

// Finds the preamble of `sample` (from a row start; `at_end`: the input ends with it) read in
// `dialect`. With W the field count a strict majority of the sample's rows have (two rows at
// least), the table starts at the
// first row of W fields (the first that is not sparse, when that one does not fit the column
// types below it), or at the row just above it when that row is a header of another
// width (delimited, with several values, above a row that fits the column types inferred
// below it: a header with a missing or extra separator, repaired by the reader); rows above
// the start are preamble. So is a row at the top of the table that is sparse (at most half
// its fields non-empty: "PREAMBLE,,,," or a group row) or does not fit the column types,
// when the row below it does not fit them either (a header below a header). Rows are
// compared against types inferred as if `convert` asked for none (all_strings off); a
// sample whose columns are all text tells headers by sparseness alone. No preamble at all
// when a row above the start looks like data (delimited, not sparse, fitting the types; without
// types, a width off by one at most): a table whose first rows lack a column starts at row 0.
// `rows == 0` when there is nothing above the table.
Preamble DetectPreamble(std::string_view sample, bool at_end, const Dialect& dialect, const ConvertOptions& convert,
                        MemoryPool* pool);

}  // namespace strata::csv
