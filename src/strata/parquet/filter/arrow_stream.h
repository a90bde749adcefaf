// A Parquet file's batches as an Arrow C stream (arrow_c/stream.h), for any Arrow consumer.
#pragma once

#include <memory>

#include "strata/arrow_c/stream.h"
#include "strata/parquet/read/file_reader.h"
#include "strata/parquet/filter/filtered_reader.h"

namespace strata::parquet {

// The batches of file->ReadBatches(options) as a RecordBatchStream; it owns the file reader.
// With filter.predicate, those of a FilteredBatchReader instead (only the rows kept).
// The file's pool must outlive the stream and every batch taken from it.
Result<std::unique_ptr<arrow_c::RecordBatchStream>> MakeArrowStream(std::unique_ptr<FileReader> file,
                                                                     const BatchReadOptions& options = {},
                                                                     const FilterOptions& filter = {});

// The same, exported into *out (released by the consumer).
Status ExportArrowStream(std::unique_ptr<FileReader> file, const BatchReadOptions& options, ArrowArrayStream* out,
                         const FilterOptions& filter = {});

}  // namespace strata::parquet
