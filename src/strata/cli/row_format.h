// Rows as text for `strata cat` and `strata head`: an aligned table (a box of column names
// over the rows, as DuckDB's shell prints), CSV, JSON lines or one JSON array. One value per
// cell, written as the scan summary writes values (ISO dates and timestamps, exact decimals,
// shortest floats), strings as they are, binary as lowercase hex, nested values in the pretty
// printer's notation. Output is built batch by batch: nothing is kept between batches but the
// table's column widths.
#pragma once

#include <string>
#include <vector>

#include "strata/array/record_batch.h"

namespace strata::cli {

enum class RowFormat { kTable, kCsv, kJsonLines, kJson };

// Table cells wider than this many display columns are cut, ending in "…".
inline constexpr int kDefaultMaxCellWidth = 32;

// Writes the rows of one schema's batches in `format`. Text is appended to the caller's
// string, so the caller decides when to flush it.
class RowWriter {
 public:
  // `schema` must outlive the writer. `max_cell_width` (>= 1) applies to tables only.
  RowWriter(const Schema& schema, RowFormat format, int max_cell_width = kDefaultMaxCellWidth);

  // Appends the rows of `batch` (and, before the first rows, the CSV header line or the
  // JSON array's opening). A table's column widths come from this batch's cells (bounded by
  // the cell width limit): when a column needs more room than the rows printed so far, the
  // box is closed and a new one, with its own header, opened.
  void Append(const RecordBatch& batch, std::string* out);

  // Appends what ends the output: the table's bottom line (after a header alone when no
  // row came), the CSV header if no batch came, the JSON array's closing bracket.
  void Finish(std::string* out);

 private:
  void OpenTable(std::string* out);

  const Schema& schema_;
  RowFormat format_;
  int max_cell_width_;
  bool started_ = false;          // the header or opening is written
  std::vector<int> widths_;       // table: the open box's column widths
  std::vector<bool> right_align_;  // table: numbers right-aligned, the rest left
};

// The text of a table cell: control characters escaped (\n, \t, \x1b), every byte that
// begins no well-formed UTF-8 sequence shown as U+FFFD, cut to `max_width` display columns
// (East Asian wide characters count two) with "…" as its last column. Returns its width.
int AppendDisplayText(std::string_view text, int max_width, std::string* out);

}  // namespace strata::cli
