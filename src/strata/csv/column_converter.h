// ConvertColumn: one column of a block of parsed CSV rows (ParsedRows) to one typed array.
// Sits after the parser and type inference, before the reader assembles record batches.
//
// Nulls: a kMissing field is always null; an unquoted field spelled like one of
// ConvertOptions::null_values is null; a quoted field is never null by its spelling. In
// columns of a non-string type an empty field is null whether quoted or not (no value of
// those types is spelled empty; DuckDB does the same); in string and binary columns a quoted
// empty field is the empty string.
//
// Values that do not fit the type fail with Status::Invalid naming the file, line, column,
// value and type; nothing is truncated, rounded to a coarser unit or clamped. In particular:
//  - a timestamp with a zone ('Z' or an offset) converts to its UTC instant; into a naive
//    timestamp column it is an error (the wall-clock reading would be ambiguous), while a
//    naive value (or a bare date) in a zoned column the user gave is taken as UTC;
//  - digits below the unit of a time or timestamp, or below the scale of a decimal, are an
//    error unless they are zeros;
//  - when the type was inferred (ColumnContext::type_was_inferred) numbers are read with
//    the inference's rules (NumberSyntax::kStrict: "007" is not an int64, and an integer
//    above 2^53 in a float64 column is an error, and so is a naive timestamp in a zoned
//    column), so that a value the sample did not show fails instead of changing meaning; a
//    type the user gave reads leniently.
//  - with ConvertOptions::validate_utf8 off, string columns are not checked (as Arrow's
//    check_utf8 = false); inference then picks binary for the columns it saw invalid.
#pragma once

#include <cstdint>
#include <string_view>

#include "strata/array/array.h"
#include "strata/csv/parsed_rows.h"
#include "strata/csv/read_options.h"
#include "strata/memory/memory_pool.h"
#include "strata/util/result.h"

namespace strata::csv {

// Who the column is, for error messages.
struct ColumnContext {
  std::string_view file;
  std::string_view name;
  int index = 0;                   // 0-based; messages print it 1-based
  bool type_was_inferred = false;  // messages then say how to fix a wrong guess
  int64_t sample_bytes = 0;        // the bytes the type was inferred from
};

// Converts column `column` of every row in `rows` to one array of `type` (length
// rows.num_rows()). Buffers come from `pool`, each allocated once at its final size (a
// validity bitmap only when there is a null); the array does not refer to `rows`.
// Supported: null, boolean, int8..int64, uint8..uint64, float32, float64, decimal128,
// decimal256, date32, date64, time32, time64, timestamp (any unit, zoned or naive), utf8,
// large_utf8, utf8_view, binary, large_binary, binary_view and dictionary<int32, utf8>;
// other types fail with NotImplemented.
Result<Array> ConvertColumn(const ParsedRows& rows, int column, const TypePtr& type, const ConvertOptions& options,
                            const ColumnContext& context, MemoryPool* pool);

}  // namespace strata::csv
