// Rows as text for `strata cat --format csv|jsonl`: one value per cell, written as the scan
// summary writes values (ISO dates and timestamps, exact decimals, shortest floats), strings
// as they are, binary as lowercase hex, nested values in the pretty printer's notation.
#pragma once

#include <string>

#include "strata/array/record_batch.h"

namespace strata::cli {

enum class RowFormat { kCsv, kJsonLines };

// Appends the header line (CSV only: the column names) to `out`.
void AppendHeader(const Schema& schema, RowFormat format, std::string* out);
// Appends one line per row of `batch` to `out`.
void AppendRows(const RecordBatch& batch, RowFormat format, std::string* out);

}  // namespace strata::cli
