// Types a Parquet schema cannot express, restored from the ARROW:schema (base64 of an Arrow IPC
// schema message) that Arrow C++, pyarrow and other Arrow writers store in the footer's
// key-value metadata: time zones and durations (a relabelling of the same values), and
// dictionary (pandas Categorical) columns, read dictionary-encoded (strings) or encoded after
// reading (numbers). Top-level fields only. FileReader plans once per file
// (FileReaderOptions::restore_arrow_schema) and BatchReader applies the plan per batch: zones
// and durations relabelled, string dictionaries read as such. Numbers are encoded only by
// RestoreColumn over a whole column (one dictionary of its distinct values): encoding each
// batch alone would give every batch a dictionary of its own, which an Arrow IPC file cannot
// hold and streaming consumers gain nothing from, so batches keep their values.
#pragma once

#include <memory>
#include <vector>

#include "strata/array/chunked_array.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/thrift/footer.h"
#include "strata/types/schema.h"

namespace strata::parquet {

// What to do to one top-level field after reading it.
struct FieldRestore {
  TypePtr retype;           // the field's type as restored; null: the Parquet type stands
  bool read_dictionary = false;  // read it with BatchReadOptions::read_dictionary
  bool encode = false;      // dictionary-encode the fixed-width values read
};

// One entry per top-level field of `schema` (the file's, as SchemaDescriptor maps it); all
// empty without a usable ARROW:schema in `metadata` (absent, not decodable, or not naming the
// file's fields in order).
std::vector<FieldRestore> PlanArrowSchemaRestore(const FileMetaData& metadata, const Schema& schema);

// `schema` with the types batches carry under `plan`: relabelled types and string
// dictionaries restored, numbers to be encoded (FieldRestore::encode) left as read.
std::shared_ptr<Schema> RestoredSchema(const Schema& schema, const std::vector<FieldRestore>& plan);

// `column` (as read) with its type restored: relabelled (zero-copy) or dictionary-encoded
// (one dictionary of the distinct values, sorted, shared by every chunk; buffers from `pool`).
Result<std::shared_ptr<ChunkedArray>> RestoreColumn(const std::shared_ptr<ChunkedArray>& column,
                                                    const FieldRestore& restore, MemoryPool* pool);

}  // namespace strata::parquet
