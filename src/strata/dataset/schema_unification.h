// Schema unification: one schema for the files of a dataset. Fields are matched by name; a
// field's type is the one every file's type widens to losslessly (array/widen.h). Reads the
// footers (in parallel on UnifyOptions::executor); the dataset reader then conforms each file's
// batches to the result.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "strata/dataset/discovery.h"
#include "strata/exec/executor.h"
#include "strata/memory/memory_pool.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/types/schema.h"
#include "strata/util/result.h"

namespace strata::dataset {

struct UnifyOptions {
  // Take the first file's schema only (one footer read instead of one per file). Every field
  // is then nullable, columns only later files have are not read, and a later file whose
  // column cannot widen to the first file's type fails when it is read, not at open.
  bool first_file_only = false;
  // Where footers are read: up to executor.threads() at once on its pool; by default one
  // after another on the calling thread.
  exec::Executor executor;
  parquet::FileReaderOptions reader;
  // Columns left out of the unified schema whatever their types (a dataset's partition keys:
  // the value from the path replaces a file column of that name).
  std::vector<std::string> ignored_columns;
};

// What a dataset keeps of each file's footer (the readers are not kept open: a dataset of
// ten thousand files must not hold ten thousand footers and file handles).
struct FileSummary {
  std::shared_ptr<Schema> schema;  // null when not read (first_file_only)
  int64_t num_rows = 0;
  int num_row_groups = 0;
  // Per top-level field of `schema`: the largest compressed size of its column chunks in any
  // one row group (summed over its leaves): what reading one row group of it holds in flight.
  std::vector<int64_t> max_chunk_bytes;
};

struct UnifiedSchema {
  std::shared_ptr<Schema> schema;
  std::vector<FileSummary> files;  // as `files` were given
};

// The unified schema of `schemas` (schemas[i] from file `names[i]`, used in messages): fields
// in first-seen order over the files in order; a field's type is the common type (equal, or
// one widens to the other: the wider); nullable if any schema lacks the field or has it
// nullable. Fails (Invalid) naming the column, both types and both files on a conflict.
// Fields named in `ignored` are left out.
Result<std::shared_ptr<Schema>> UnifySchemas(const std::vector<std::shared_ptr<Schema>>& schemas,
                                             const std::vector<std::string>& names,
                                             const std::vector<std::string>& ignored = {});

// The common type of `a` and `b` (equal, or the one the other widens to), or nullptr.
TypePtr CommonType(const TypePtr& a, const TypePtr& b);

// Reads the footers of `files` (all, or the first with first_file_only) and unifies their
// schemas. Errors of a file's footer name the file.
Result<UnifiedSchema> ReadAndUnify(const std::vector<DatasetFile>& files, const UnifyOptions& options,
                                   MemoryPool* pool);

}  // namespace strata::dataset
