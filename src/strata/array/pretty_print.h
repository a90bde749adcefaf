// Human-readable printing of arrays, chunked arrays, record batches and tables:
// [1, null, 3], ["a", "b"], {a: 1, b: "x"} for structs, {"k": 1} for maps, binary as hex,
// dates and timestamps in ISO form, decimals with their scale.
#pragma once

#include <cstdint>
#include <string>

namespace strata {

class Array;
class ChunkedArray;
class RecordBatch;
class Table;

struct PrettyPrintOptions {
  // At most this many elements per array or list; beyond it the first and last halves are
  // printed around "...". 0 or less prints everything.
  int64_t max_rows = 20;
};

std::string PrettyPrint(const Array& array, const PrettyPrintOptions& options = {});
// [[chunk 0 values], [chunk 1 values], ...]
std::string PrettyPrint(const ChunkedArray& array, const PrettyPrintOptions& options = {});
// The schema, a "----" line, then "name: [values]" per column.
std::string PrettyPrint(const RecordBatch& batch, const PrettyPrintOptions& options = {});
std::string PrettyPrint(const Table& table, const PrettyPrintOptions& options = {});

}  // namespace strata
