// `strata convert` from Parquet to Parquet column chunk by column chunk: each output row group
// is an input row group, and each of its columns is read whole and encoded on its own
// (FileWriter::WriteRowGroupByColumn), a few at a time. The batch path instead decodes every
// column of a batch and encodes every column of a row group at once: on a 2,000-column table
// that holds a row group's pages and shrinks batches and pages to fit, and pays per-column
// costs per batch. Column by column, memory is a few column chunks and pages keep their size.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/write/file_writer.h"

namespace strata::cli {

// Why `file` does not rewrite column by column under `options` (a writer's, before
// column_by_column) and a pool limit `memory_limit` (0: none); empty when it does. It does when
// the schema is wide (more than 64 leaf columns: narrower ones fit the batch path's defaults),
// no input row group has more rows than the writer's row groups may (they are kept), and no
// column chunk decodes to more than 64 MiB (1/16 of a limit): the bound on what a field in
// flight holds.
std::string WhyNotByColumn(const parquet::FileReader& file, const parquet::WriterOptions& options,
                           int64_t memory_limit);

// Every row group of `file`, every field, into `writer` (whose schema is the file's batches':
// ReadBatches with default options), calling `progress` after each row group.
Status RewriteByColumn(parquet::FileReader& file, parquet::FileWriter& writer, const std::function<void()>& progress);

}  // namespace strata::cli
