// Types a Parquet schema cannot express, restored from the ARROW:schema the writer stored (see
// restore.cc): time zones and durations (a relabelling of the same values), and dictionary
// (Categorical) columns, read dictionary-encoded (strings) or encoded after reading (numbers).
#pragma once

#include <vector>

#include "strata/parquet/read/file_reader.h"
#include "strata_py.h"

namespace strata::python {

// What to do to one top-level field after reading it.
struct FieldRestore {
  TypePtr retype;           // the field's type as restored; null: the Parquet type stands
  bool read_dictionary = false;  // read it with BatchReadOptions::read_dictionary
  bool encode = false;      // dictionary-encode the fixed-width values read
};

// One entry per top-level field of `file`; all empty without a usable ARROW:schema.
std::vector<FieldRestore> PlanRestore(const parquet::FileReader& file);

// `column` (as read) with its type restored: relabelled (zero-copy) or dictionary-encoded
// (one dictionary of the distinct values, sorted, shared by every chunk).
Result<std::shared_ptr<ChunkedArray>> RestoreColumn(const std::shared_ptr<ChunkedArray>& column,
                                                    const FieldRestore& restore);

}  // namespace strata::python
