// Types a Parquet schema cannot express, restored from the ARROW:schema (base64 of an Arrow IPC
// schema message) that Arrow C++, pyarrow and other Arrow writers store in the footer's
// key-value metadata: time zones and durations (a relabelling of the same values), and
// dictionary (pandas Categorical) columns, read dictionary-encoded (strings) or encoded after
// reading (numbers). Top-level fields only. A step above the reader: plan once per file, read
// (with BatchReadOptions::read_dictionary for the fields that ask it), restore each column.
#pragma once

#include <memory>
#include <vector>

#include "strata/array/chunked_array.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"

namespace strata::parquet {

// What to do to one top-level field after reading it.
struct FieldRestore {
  TypePtr retype;           // the field's type as restored; null: the Parquet type stands
  bool read_dictionary = false;  // read it with BatchReadOptions::read_dictionary
  bool encode = false;      // dictionary-encode the fixed-width values read
};

// One entry per top-level field of `file`; all empty without a usable ARROW:schema (absent,
// not decodable, or not naming the file's fields in order).
std::vector<FieldRestore> PlanArrowSchemaRestore(const FileReader& file);

// `column` (as read) with its type restored: relabelled (zero-copy) or dictionary-encoded
// (one dictionary of the distinct values, sorted, shared by every chunk; buffers from `pool`).
Result<std::shared_ptr<ChunkedArray>> RestoreColumn(const std::shared_ptr<ChunkedArray>& column,
                                                    const FieldRestore& restore, MemoryPool* pool);

}  // namespace strata::parquet
